"""The basics outside the TUI (issue 11, items 7 and 10-14): `ask`, the plain REPL, `memory prefs`,
`bench -h` and the bench's time estimate, through the real entry points."""

from __future__ import annotations

import _thread
import io
import json
import os
import subprocess
import sys
import time

import pytest
from rich.console import Console

from ibachat.cli import main
from ibachat.errors import ModelUnavailable
from ibachat.llm.scripted import ScriptedLLM
from memory.memory import Memory
from tests.ollama_server import OllamaTestServer
from tests.tui.conftest import StreamingLLM


def run(capsys, *args: str) -> tuple[int, str, str]:
    code = main(["--embedder", "hash", *args])
    out, err = capsys.readouterr()
    return code, out, err


def stored() -> list:
    with Memory.open(embedder="hash", readonly=True) as mem:
        return list(mem.iter_turns())


def say_earlier(text: str) -> None:
    """A message said in an earlier chat (through the chat's own ingestion path, no model)."""
    from ibachat.assistant import Assistant

    with Memory.open(embedder="hash") as mem:
        Assistant(mem, None).respond("past", text)


@pytest.fixture
def scripted(monkeypatch):
    """`ask` on a scripted model (the logic under test is the command's, not a model's)."""
    llm = ScriptedLLM()
    monkeypatch.setattr("ibachat.commands.ask.load_model", lambda obj, spec=None: llm)
    return llm


# ------------------------------------------------------------------ item 10: nothing half done
def test_ask_on_an_ollama_model_that_is_not_there_fails_in_one_line_and_stores_nothing(capsys, monkeypatch):
    with OllamaTestServer(ScriptedLLM()) as server:
        monkeypatch.setenv("OLLAMA_HOST", server.url)
        code, out, err = run(capsys, "ask", "--model", "ollama:llama3", "what is a good cat name?")
    assert code == 1 and out == ""
    assert err.startswith("ibachat: error: ") and "ollama pull llama3" in err and len(err.splitlines()) == 1
    assert stored() == []


def test_ask_whose_model_fails_while_answering_takes_the_question_back_out(capsys, scripted):
    scripted.add(ModelUnavailable("the model went away"))
    code, _, err = run(capsys, "ask", "what is a good cat name?")
    assert code == 1 and "the model went away" in err
    assert stored() == []  # no question left without its answer


def test_ask_with_a_missing_gguf_fails_and_stores_nothing(tmp_path, capsys):
    code, _, err = run(capsys, "ask", "--model", f"embedded:{tmp_path / 'nope.gguf'}", "hello there")
    assert code == 1 and "nope.gguf" in err
    assert stored() == []


def test_the_plain_chat_on_a_missing_ollama_model_fails_like_ask(tmp_path):
    env = {**os.environ, "IBACHAT_MODEL": "ollama:llama3", "PYTHONPATH": os.getcwd()}
    with OllamaTestServer(ScriptedLLM()) as server:
        env["OLLAMA_HOST"] = server.url
        chat = subprocess.run(
            [sys.executable, "-m", "ibachat.cli", "--embedder", "hash", "chat", "--plain"],
            input="hello\n",
            capture_output=True,
            text=True,
            env=env,
            timeout=120,
        )
        ask = subprocess.run(
            [sys.executable, "-m", "ibachat.cli", "--embedder", "hash", "ask", "hello"],
            capture_output=True,
            text=True,
            env=env,
            timeout=120,
        )
    assert chat.returncode == ask.returncode == 1
    assert chat.stdout == "" and "ollama pull llama3" in chat.stderr
    assert chat.stderr.strip() == ask.stderr.strip()  # one behaviour, said the same way
    assert stored() == []


# ------------------------------------------------------------------ item 11: only the final answer
def test_ask_prints_only_the_final_answer_when_the_check_revises_the_draft(tmp_path, capsys, scripted):
    say_earlier("Keep answers under 12 words, I read them on my phone.")
    draft = " ".join(["lengthy"] * 60)
    scripted.add(draft, "Short and sweet: call the cat Pepper.")
    code, out, err = run(capsys, "ask", "what is a good cat name?")
    assert code == 0, err
    assert out.strip() == "Short and sweet: call the cat Pepper."  # no draft before it
    assert "lengthy" not in out


def test_ask_json_keeps_the_answers_generation_out_of_planner_ms(capsys, scripted):
    def slow(call):
        time.sleep(0.5)  # the model takes half a second to write the answer
        return "A calm name: Miso."

    scripted.add(slow)
    start = time.perf_counter()
    code, out, _ = run(capsys, "ask", "--json", "what is a good cat name?")
    wall_ms = (time.perf_counter() - start) * 1000
    assert code == 0
    data = json.loads(out)
    assert data["text"] == "A calm name: Miso."
    assert data["answer_ms"] >= 500
    assert data["planner_ms"] + data["answer_ms"] <= wall_ms  # the second is counted once, as answer_ms


# ------------------------------------------------------------------ item 12: prefs and the REPL
def test_memory_prefs_says_which_preferences_are_avoided(capsys, monkeypatch):
    from datetime import UTC, datetime

    from memory.ledger import PreferenceEvent

    with Memory.open(embedder="hash") as mem:
        when = datetime(2026, 1, 1, tzinfo=UTC)
        mem.ledger.add(PreferenceEvent("travel.seat", "window", "rejected", when, polarity=-1, subject="no"))
        mem.ledger.add(PreferenceEvent("drink", "tea", "stated", when, subject="tea"))
    monkeypatch.setenv("COLUMNS", "160")
    code, out, _ = run(capsys, "memory", "prefs")
    assert code == 0
    seat = next(line for line in out.splitlines() if "travel.seat" in line)
    drink = next(line for line in out.splitlines() if "drink" in line)
    assert "- avoid" in seat and "+ want" in drink


def make_repl(llm, memory):
    from ibachat.assistant import Assistant
    from ibachat.repl import Repl

    out = Console(file=io.StringIO(), width=200, record=True, highlight=False)
    err = Console(file=io.StringIO(), width=200, record=True, highlight=False)
    return Repl(Assistant(memory, llm), out=out, err=err), out, err


@pytest.fixture
def memory(tmp_path):
    with Memory.open(tmp_path / "home", embedder="hash", fsync=False) as mem:
        yield mem


def test_repl_memory_says_how_many_preferences_it_shows(memory):
    from datetime import UTC, datetime

    from memory.ledger import PreferenceEvent

    when = datetime(2026, 1, 1, tzinfo=UTC)
    memory.ledger.add_many(
        PreferenceEvent(f"topic{n}", f"value{n}", "stated", when, polarity=-1 if n % 2 else 1, subject="x")
        for n in range(32)
    )
    repl, out, _ = make_repl(ScriptedLLM(), memory)
    repl.handle("/memory")
    text = out.export_text()
    assert "32 preference(s) in force, showing 20" in text
    assert text.count("- avoid") + text.count("+ want") == 20


def test_repl_edit_runs_the_proposal_with_new_arguments_and_plan_shows_it_afterwards(memory):
    repl, out, err = make_repl(None, memory)  # the rule floor fills the tool call
    repl.handle("book a table at Luigi's for dinner tomorrow at 7pm for 2 people")
    assert repl.last is not None and repl.last.proposal is not None
    args = dict(repl.last.proposal["arguments"], party_size=3)
    repl.handle("/edit " + json.dumps(args))
    assert "unknown command" not in err.export_text()
    [tool] = [t for t in memory.iter_turns() if t.role == "tool"]
    assert json.loads(tool.text)["call"]["arguments"]["party_size"] == 3
    repl.handle("/plan")
    shown = out.export_text()
    assert "no plan to show" not in shown and "Evidence used" in shown


# ------------------------------------------------------------------ item 7: Ctrl+C in the REPL
def test_ctrl_c_in_the_repl_stops_the_answer_and_keeps_the_session(memory):
    llm = StreamingLLM(["Fine."], on_first_word=_thread.interrupt_main)  # Ctrl+C while it streams
    repl, out, err = make_repl(llm, memory)
    repl.interactive = True  # on a terminal: Ctrl+C stops the answer, not the session
    try:
        assert repl.handle("tell me a very long story") is True
    except KeyboardInterrupt:
        pytest.fail("Ctrl+C ended the session instead of stopping the answer")
    assert llm.stopped.wait(15), "the stream was not stopped"  # closed at once; waited for, not slept on
    assert "stopped" in err.export_text()
    assert len(memory) == 0  # the question went back out with the unfinished answer
    assert repl.run(["and a short one\n"]) == 0
    assert [t.role for t in memory.iter_turns(newest_first=False)] == ["user", "assistant"]


# ------------------------------------------------------------------ item 13: bench -h
def test_bench_takes_dash_h_like_every_other_command(capsys):
    code, out, _ = run(capsys, "bench", "-h")
    assert code == 0 and "Usage: ibachat bench" in out
    code, out, _ = run(capsys, "bench", "run", "-h")
    assert code == 0 and "--limit" in out


# ------------------------------------------------------------------ item 14: the bench says how long
def test_the_bench_progress_says_how_long_the_run_will_take_from_the_first_tasks_pace(capsys):
    from bench.report import progress_bar

    now = [0.0]
    with progress_bar(True, 50, 0, "iba", clock=lambda: now[0]) as advance:
        for _ in range(3):
            now[0] += 12.0  # 12 s a task
            advance({"soft": 80.0})
        err = capsys.readouterr().err
        assert "about 9 min 24 s" in err and "12.0 s a task" in err  # 47 tasks left x 12 s
