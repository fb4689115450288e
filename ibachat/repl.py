"""`ibachat chat --plain`: a line-by-line chat with the same assistant, planner and memory as the TUI.

On a terminal it uses prompt-toolkit (line editing, Alt+Enter for a new line, history in
``<ibachat home>/repl_history`` with secrets redacted, completion of slash commands). When stdin
is not a terminal it reads lines, answers each on stdout and shows no prompt.
Remembered and user text is printed through ``rich.text.Text``: never read as markup.
"""

from __future__ import annotations

import json
import os
import signal
import sys
import threading
from collections.abc import Callable, Iterable, Iterator
from typing import IO, TYPE_CHECKING, Any

from rich.console import Console
from rich.table import Table
from rich.text import Text

from ibachat.commands.common import one_line, polarity_label, printable
from ibachat.errors import USER_ERRORS
from ibachat.line_history import HISTORY_FILE, scrub_history
from ibachat.tui.commands import SLASH_COMMANDS, SLASH_HELP, parse_slash
from ibachat.tui.plantext import evidence_items, plan_sections, proposal_reasons

if TYPE_CHECKING:
    from prompt_toolkit import PromptSession

    from ibachat.assistant import Assistant, Reply
    from ibachat.tui.undo import UndoBuffer

SHOWN_LIMIT = 20_000
PREFS_SHOWN = 20


def pref_line(event: Any) -> str:
    """One preference: + wanted / - avoided, what, value, kind."""
    return (
        f"{polarity_label(event.polarity)} {one_line(event.dimension, 30)} = {one_line(event.value, 60)}"
        f" ({event.kind})"
    )


def history_path() -> Any:
    from memory.paths import home

    return home() / HISTORY_FILE


def _redacting_history(path: Any) -> Any:
    """A prompt-toolkit FileHistory that never writes a secret to disk (and keeps the file 0600)."""
    from prompt_toolkit.history import FileHistory

    from ibachat.redact import redact

    class RedactingHistory(FileHistory):
        def store_string(self, string: str) -> None:
            path.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
            os.close(fd)
            super().store_string(redact(string)[0])

    return RedactingHistory(str(path))


def _completer() -> Any:
    from prompt_toolkit.completion import Completer, Completion

    class SlashCompleter(Completer):
        def get_completions(self, document: Any, complete_event: Any) -> Iterator[Completion]:
            before = document.text_before_cursor
            if not before.startswith("/") or " " in before:
                return
            for name, what in SLASH_COMMANDS.items():
                if name.startswith(before.lower()):
                    yield Completion(name, start_position=-len(before), display_meta=what)

    return SlashCompleter()


def make_prompt_session(incognito: bool, **options: Any) -> PromptSession[str]:
    """Line editing with slash-command completion; history on disk unless incognito."""
    from prompt_toolkit import PromptSession
    from prompt_toolkit.history import InMemoryHistory
    from prompt_toolkit.key_binding import KeyBindings

    keys = KeyBindings()

    @keys.add("escape", "enter")
    def _newline(event: Any) -> None:
        event.current_buffer.insert_text("\n")

    history = InMemoryHistory() if incognito else _redacting_history(history_path())
    return PromptSession(
        history=history, completer=_completer(), key_bindings=keys, complete_while_typing=True, **options
    )


class Repl:
    """The plain chat loop; ``handle(line)`` answers one line and returns False to stop."""

    def __init__(
        self,
        assistant: Assistant,
        *,
        out: Console | None = None,
        err: Console | None = None,
        session: str | None = None,
        incognito: bool = False,
        interactive: bool = False,
        ask: Callable[[str], str] | None = None,
    ) -> None:
        from ibachat.tui.undo import UndoBuffer

        self.assistant = assistant
        self.out = out or Console(highlight=False, soft_wrap=True)
        self.err = err or Console(stderr=True, highlight=False)
        self.interactive = interactive
        self.ask = ask
        self.undo: UndoBuffer = UndoBuffer(assistant.memory)
        self.session_id = session or assistant.new_session(incognito=incognito)
        self.last: Reply | None = None
        self.last_plan: Any = None  # the newest reply's plan: /plan shows it after a proposal is decided
        self.errors = 0

    @property
    def incognito(self) -> bool:
        return self.assistant.is_incognito(self.session_id)

    # ------------------------------------------------------------------ loop
    def run(self, lines: Iterable[str]) -> int:
        """Handle lines until they end or /quit; through a pipe, any error makes the exit status 1."""
        for line in lines:
            try:
                if not self.handle(line):
                    break
            except USER_ERRORS as exc:
                self.errors += 1
                self.err.print(Text(f"error: {printable(str(exc))}", style="red"))
        return 1 if self.errors and not self.interactive else 0

    def handle(self, line: str) -> bool:
        text = line.rstrip("\r\n")
        if not text.strip():
            return True
        if text.startswith("/") and not text.startswith("//"):
            return self.command(text)
        self.say(text[1:] if text.startswith("//") else text)
        return True

    # ------------------------------------------------------------------ a message
    def say(self, text: str) -> None:
        """Answer one message: streamed (as live Markdown on a terminal, as plain text in a pipe)."""
        streamed: list[str] = []
        live = None
        if self.interactive:
            from rich.live import Live

            live = Live(console=self.out, refresh_per_second=8, transient=True)
            live.start()

        def on_token(piece: str) -> None:
            streamed.append(piece)
            if live is not None:
                live.update(_markdown("".join(streamed)))
            else:
                self.out.file.write(printable(piece))
                self.out.file.flush()

        from ibachat.errors import Cancelled

        try:
            reply = self._answer(text, on_token)
        except Cancelled:
            if live is None and streamed:
                self.out.print()
            self.err.print(Text("(stopped; this message was not remembered)", style="yellow"))
            if not self.interactive:
                raise KeyboardInterrupt from None  # through a pipe, Ctrl+C still ends the run
            return
        finally:
            if live is not None:
                live.stop()
        self.last = reply
        self.last_plan = reply.plan
        if reply.redactions:
            kinds = ", ".join(sorted(set(reply.redactions)))
            self.err.print(Text(f"(redacted before storing: {kinds})", style="yellow"))
        shown = "" if live is not None else "".join(streamed)  # what is already on the screen
        if shown:
            self.out.print()
        if reply.clarify:
            if not shown:
                self.out.print(Text(printable(reply.clarify, SHOWN_LIMIT), style="bold"))
        elif reply.proposal:
            self.show_proposal(reply)
        else:
            answer = reply.text or ""
            if self.interactive:
                self.out.print(_markdown(answer))
            elif not answer.startswith(shown):  # the check after streaming rewrote the answer
                self.out.print(Text(printable(answer, SHOWN_LIMIT)))

    def _answer(self, text: str, on_token: Callable[[str], None]) -> Reply:
        """``respond`` in a worker thread, so that Ctrl+C stops the answer, not the session.

        Ctrl+C sets the cancel flag; the answer stops at its next token and nothing of the turn is
        stored (the assistant takes the user's turn back). Stores are never interrupted midway.
        """
        cancel, finished = threading.Event(), threading.Event()
        box: dict[str, Any] = {}

        def run() -> None:
            try:
                box["reply"] = self.assistant.respond(self.session_id, text, on_token=on_token, cancel=cancel)
            except BaseException as exc:  # noqa: BLE001 - handed to the waiting thread, which raises it
                box["error"] = exc
            finally:
                finished.set()

        threading.Thread(target=run, name="ibachat-answer", daemon=True).start()
        # Ctrl+C must reach us as KeyboardInterrupt while the answer runs, whatever a library installed
        main = threading.current_thread() is threading.main_thread()
        previous = signal.signal(signal.SIGINT, signal.default_int_handler) if main else None
        try:
            # an Event, not Thread.join: a join interrupted by Ctrl+C can report the thread as ended
            while not finished.is_set():
                try:
                    finished.wait(0.1)
                except KeyboardInterrupt:
                    if not cancel.is_set():
                        cancel.set()
                        self.err.print(Text("stopping…", style="yellow"))
        finally:
            if main and previous is not None:
                signal.signal(signal.SIGINT, previous)
        if "error" in box:
            raise box["error"]
        return box["reply"]

    def show_proposal(self, reply: Reply) -> None:
        assert reply.proposal is not None
        table = Table(title=Text(f"Proposed action: {reply.proposal['name']}"), show_lines=False)
        for col in ("parameter", "value", "why"):
            table.add_column(col, overflow="fold")
        reasons = proposal_reasons(reply)
        for name, value in (reply.proposal.get("arguments") or {}).items():
            shown = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
            table.add_row(
                Text(name), Text(one_line(shown, 200)), Text(one_line(str(reasons.get(name, "")), 200))
            )
        self.out.print(table)
        if self.interactive and self.ask is not None:
            choice = self.ask("approve (a), edit (e), reject (r) or skip (Enter)? ").strip().lower()
            if choice.startswith("a"):
                self.approve()
            elif choice.startswith("e"):
                self.edit()
            elif choice.startswith("r"):
                self.reject(None)
        else:
            self.err.print(Text("/approve to run it, /reject [reason] to turn it down", style="dim"))

    def _pending(self) -> Reply:
        from memory.errors import NotFound

        if self.last is None or self.last.proposal is None:
            raise NotFound("no proposed action is waiting")
        return self.last

    def approve(self, arguments: dict[str, Any] | None = None) -> None:
        reply = self._pending()
        result = self.assistant.approve(reply, arguments)
        self.last = None
        self.out.print(Text("done: " + one_line(json.dumps(result, ensure_ascii=False, default=str), 300)))

    def edit(self, given: str = "") -> None:
        """Run the proposed action with other arguments: ``/edit {JSON}``, or asked for on a terminal."""
        from ibachat.errors import IbachatError

        reply = self._pending()
        assert reply.proposal is not None
        current = json.dumps(reply.proposal["arguments"], ensure_ascii=False)
        if given.strip():
            raw = given
        elif self.ask is not None:
            raw = self.ask(f"arguments as JSON [{current}]: ")
        else:
            raise IbachatError(f"give the arguments as JSON: /edit {current}")
        try:
            args = json.loads(raw) if raw.strip() else reply.proposal["arguments"]
        except json.JSONDecodeError as exc:
            raise IbachatError(f"not valid JSON: {exc.msg}") from None
        if not isinstance(args, dict):
            raise IbachatError("the arguments must be a JSON object")
        self.approve(args)

    def reject(self, reason: str | None) -> None:
        """Turn the proposed action down; with no reason given, the reason is asked for, visibly (an
        empty answer rejects without one), so the next message is never taken for it."""
        reply = self._pending()
        if not (reason or "").strip() and self.interactive and self.ask is not None:
            reason = self.ask("why not? (a reason is remembered; Enter to skip) ")
        self.assistant.reject(reply, (reason or "").strip() or None)
        self.last = None
        note = "" if self.incognito else " (remembered as a preference)"
        self.err.print(Text("rejected" + note, style="yellow"))

    # ------------------------------------------------------------------ slash commands
    def command(self, text: str) -> bool:
        name, arg = parse_slash(text)
        if name in ("/quit", "/exit"):
            return False
        handlers: dict[str, Callable[[str], None]] = {
            "/help": lambda _: self.out.print(Text(SLASH_HELP)),
            "/plan": self.show_plan,
            "/memory": self.show_memory,
            "/forget": self.forget,
            "/undo": lambda _: self.err.print(Text(f"restored {self.undo.undo() or 'nothing'}")),
            "/incognito": lambda _: self.switch(incognito=True),
            "/new": lambda _: self.switch(incognito=False),
            "/search": self.search,
            "/rename": lambda title: self.assistant.rename_session(self.session_id, title or "untitled"),
            "/model": self.model,
            "/approve": lambda _: self.approve(),
            "/edit": self.edit,
            "/reject": self.reject,
        }
        handler = handlers.get(name)
        if handler is None:
            self.err.print(Text(f"unknown command {printable(name, 40)}; /help lists them", style="red"))
        else:
            handler(arg)
        return True

    def switch(self, *, incognito: bool) -> None:
        self.session_id = self.assistant.new_session(incognito=incognito)
        what = "incognito session: nothing is remembered" if incognito else "new session"
        self.err.print(Text(what, style="yellow" if incognito else "dim"))

    def show_plan(self, arg: str) -> None:
        plan: dict[str, Any] | None
        if arg.strip():
            if not arg.strip().isdigit():
                from ibachat.errors import IbachatError

                raise IbachatError("/plan takes an assistant turn id, e.g. /plan 12")
            plan = self.assistant.plan_for(int(arg))
        else:
            last = self.last_plan
            plan = last.to_dict() if hasattr(last, "to_dict") else last
        if plan is None:
            self.out.print(Text("no plan to show"))
            return
        self.out.print(Text(f"Evidence used ({len(evidence_items(plan))})", style="bold"))
        for turn_id, why, snippet in evidence_items(plan):
            self.out.print(Text(f"  #{turn_id} ({one_line(why, 60)}) {one_line(snippet, 120)}"))
        for title, lines in plan_sections(plan):
            self.out.print(Text(title, style="bold"))
            for line in lines:
                self.out.print(Text("  " + one_line(line, 200)))

    def show_memory(self, arg: str) -> None:
        from itertools import islice

        from memory.types import utcnow

        memory = self.assistant.memory
        self.out.print(Text(f"{len(memory):,} turns remembered, {memory.store.disk_bytes() / 1e6:.2f} MB"))
        for turn in islice(memory.iter_turns(newest_first=True), 10):
            flags = f" ({', '.join(turn.flags)})" if turn.flags else ""
            self.out.print(Text(f"  #{turn.id} {turn.role}{flags}: {one_line(turn.text, 100)}"))
        active = memory.ledger.active(utcnow())
        shown = active[:PREFS_SHOWN]
        more = f", showing {len(shown)} (ibachat memory prefs lists all)" if len(shown) < len(active) else ""
        self.out.print(Text(f"{len(active)} preference(s) in force{more}", style="bold"))
        for event in shown:
            self.out.print(Text(f"  {pref_line(event)}"))

    def forget(self, arg: str) -> None:
        from ibachat.errors import IbachatError

        if arg.strip() == "last":
            turns = self.assistant.memory.session(self.session_id)
            ids = [t.id for t in turns[-2:]]
        elif arg.strip() and all(part.isdigit() for part in arg.split()):
            ids = [int(part) for part in arg.split()]
        else:
            raise IbachatError("say what to forget: /forget ID [ID...] or /forget last")
        removed = self.undo.forget_turns(ids)
        scrub_history(self.assistant.memory.home / HISTORY_FILE, [t.text for t in removed])
        self.err.print(Text(f"forgot {len(removed)} turn(s); /undo takes it back", style="yellow"))

    def search(self, query: str) -> None:
        if not query.strip():
            self.err.print(Text("/search WORDS", style="red"))
            return
        for hit, turn in self.assistant.search(query, 10):
            self.out.print(Text(f"#{turn.id} {hit.score:.3f} {turn.role}: {one_line(turn.text, 120)}"))

    def model(self, spec: str) -> None:
        self.out.print(Text(f"model: {self.assistant.model_label}"))
        if spec.strip():
            self.err.print(Text("to use another model, start again with --model SPEC", style="dim"))


def _markdown(text: str) -> Any:
    """Markdown (never Rich markup) with control characters made visible and long text cut."""
    from rich.markdown import Markdown

    return Markdown(printable(text, SHOWN_LIMIT))


def _tty_lines(session: PromptSession[str], repl: Repl) -> Iterator[str]:
    while True:
        prefix = "incognito> " if repl.incognito else "> "
        try:
            yield session.prompt(prefix)
        except KeyboardInterrupt:
            continue
        except EOFError:
            return


def run_repl(
    assistant: Assistant, *, session: str | None = None, incognito: bool = False, stdin: IO[str] | None = None
) -> int:
    """Chat on a terminal (prompt-toolkit) or, when stdin is not one, answer each input line."""
    stream = stdin or sys.stdin
    if stream.isatty() and sys.stdout.isatty():
        prompt_session = make_prompt_session(incognito)
        from prompt_toolkit import prompt

        repl = Repl(assistant, session=session, incognito=incognito, interactive=True, ask=prompt)
        repl.err.print(
            Text("ibachat: /help for commands, Alt+Enter for a new line, Ctrl+D to leave", style="dim")
        )
        return repl.run(_tty_lines(prompt_session, repl))
    repl = Repl(assistant, session=session, incognito=incognito)
    return repl.run(stream)
