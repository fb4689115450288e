"""The ibachat Textual app: chat, sessions, plans, tool cards, memory; models load in the background.

Nothing heavy is imported here: the screen draws first, then ``load`` (a callable run in a
thread worker) builds the :class:`~ibachat.assistant.Assistant`. Every call into the assistant
or the memory is a job (``ibachat.tui.jobs``); worker results and errors come back to one
handler, ``on_worker_state_changed``. Sessions live in ``ibachat.tui.session_actions``.
"""

from __future__ import annotations

import json
import threading
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any

from textual import on, work
from textual.app import App, ComposeResult, SystemCommand
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Footer
from textual.worker import Worker, WorkerState

from ibachat.tui.commands import SLASH_HELP, parse_slash
from ibachat.tui.jobs import Job, JobRunner, describe_error
from ibachat.tui.session_actions import SessionActions
from ibachat.tui.widgets.chat_input import ChatInput, InputHistory
from ibachat.tui.widgets.messages import AssistantMessage, UserMessage
from ibachat.tui.widgets.plan_view import PlanView
from ibachat.tui.widgets.sessions import SessionList
from ibachat.tui.widgets.status import Banner, LoadProgress, StatusBar
from ibachat.tui.widgets.tool_card import ToolCard
from memory.types import utcnow

if TYPE_CHECKING:
    from ibachat.assistant import Assistant
    from ibachat.tui.loader import Loaded, Progress
    from ibachat.tui.undo import UndoBuffer

Loader = Callable[["Progress"], "Loaded"]


class IbachatApp(SessionActions, JobRunner, App[None]):
    CSS_PATH = "app.tcss"
    TITLE = "ibachat"
    BINDINGS = [
        # while an answer streams, Ctrl+C and Esc stop it (otherwise Ctrl+C copies, as usual);
        # first in the footer, which shows "Stop" only then
        Binding("escape", "stop", "Stop"),
        Binding("ctrl+c", "stop", "Stop", show=False, priority=True),
        Binding("ctrl+n", "new_session", "New"),
        Binding("ctrl+o", "new_session(True)", "Incognito"),
        Binding("f2", "rename_session", "Rename"),
        Binding("f8", "delete_session", "Delete"),
        Binding("ctrl+f", "search", "Search"),
        Binding("f3", "why", "Why"),
        Binding("ctrl+g", "memory", "Memory"),
        Binding("ctrl+b", "toggle_sidebar", "Sessions"),
        Binding("alt+up,ctrl+pageup", "switch_session(-1)", "Previous session", show=False),
        Binding("alt+down,ctrl+pagedown", "switch_session(1)", "Next session", show=False),
        Binding("ctrl+t", "toggle_theme", "Theme"),
        Binding("ctrl+q", "quit", "Quit", priority=True),
    ]

    # below 80 columns the sidebar hides (Ctrl+B shows it): the chat keeps the width
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (80, "-wide")]

    @dataclass
    class LoadStage(Message):
        stage: str
        fraction: float | None

        def can_replace(self, message: Message) -> bool:
            return isinstance(message, IbachatApp.LoadStage)

    def __init__(
        self,
        load: Loader,
        *,
        theme: str = "dark",
        incognito: bool = False,
        session: str | None = None,
        clock: Callable[[], datetime] | None = None,
    ) -> None:
        super().__init__()
        self._load = load
        self.theme = "textual-light" if theme == "light" else "textual-dark"
        self.start_incognito = incognito
        self.start_session = session
        self.clock = clock or utcnow
        self.assistant: Assistant | None = None
        self.undo_buffer: UndoBuffer | None = None
        self.session_id: str | None = None
        self.incognito = incognito
        self.load_error: BaseException | None = None
        self._jobs: deque[Job] = deque()
        self._current_job: Job | None = None
        self._last_answer: AssistantMessage | None = None
        self._quitting = threading.Event()  # tells the loading thread to stop at its next step
        self._loader_worker: Worker[Loaded] | None = None

    # ------------------------------------------------------------------ layout
    def compose(self) -> ComposeResult:
        yield Banner(id="banner")
        yield LoadProgress(id="loading")
        with Horizontal(id="body"):
            yield SessionList(id="sessions")
            with Vertical(id="main"):
                yield VerticalScroll(id="chat")
                yield ChatInput(id="input", past=InputHistory())
        yield StatusBar(id="status")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one(ChatInput).focus()
        self.set_class(self.incognito, "-incognito")
        # loading starts once the first frame is drawn: its imports would slow that frame down
        self.call_after_refresh(self._start_loading)

    def _start_loading(self) -> None:
        self._loader_worker = self._load_worker()

    @property
    def busy(self) -> bool:
        """True while the assistant is loading or a job is queued or running."""
        return (
            self.assistant is None
            and self.load_error is None
            or bool(self._jobs)
            or self._current_job is not None
        )

    def assistant_to_close(self) -> Assistant | None:
        """After ``run``: the assistant that was built, even if loading finished as the app closed."""
        worker = self._loader_worker
        if self.assistant is None and worker is not None and worker.state == WorkerState.SUCCESS:
            return worker.result.assistant if worker.result is not None else None
        return self.assistant

    def exit(self, *args: Any, **kwargs: Any) -> None:
        self._quitting.set()
        super().exit(*args, **kwargs)

    # ------------------------------------------------------------------ loading
    @work(thread=True, exclusive=True, group="load", exit_on_error=False)
    def _load_worker(self) -> Loaded:
        from ibachat.tui.loader import LoadCancelled

        def progress(stage: str, fraction: float | None) -> None:
            if self._quitting.is_set():
                raise LoadCancelled("the app was closed while loading")
            self.post_message(self.LoadStage(stage, fraction))

        return self._load(progress)

    def on_ibachat_app_load_stage(self, event: LoadStage) -> None:
        self.query_one(LoadProgress).set_stage(event.stage, event.fraction)

    def _loaded(self, loaded: Loaded) -> None:
        from ibachat.tui.undo import UndoBuffer

        self.assistant = loaded.assistant
        self.undo_buffer = UndoBuffer(loaded.assistant.memory)
        self.query_one(LoadProgress).done()
        if loaded.banner:  # e.g. auto fell back to the embedded model: said once, not a permanent bar
            self.notify(loaded.banner, title="Chat model", timeout=10)
        self.query_one(StatusBar).refresh_info(
            model=loaded.assistant.model_label, embedder=loaded.assistant.embedder_label
        )
        if self.start_session:
            self.open_session(
                self.start_session, on_missing=lambda: self._start_session(self.start_incognito)
            )
        else:
            self._start_session(self.start_incognito)
        self.refresh_sessions()
        self.refresh_status()
        self._pump()

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        """The one place worker results and errors come back: loading and jobs."""
        worker = event.worker
        if worker.group == "load":
            if self._quitting.is_set():
                return  # whoever ran the app closes what was built: see assistant_to_close
            if event.state == WorkerState.SUCCESS:
                self._loaded(worker.result)
            elif event.state == WorkerState.ERROR:
                self.load_error = worker.error
                self.query_one(LoadProgress).done()
                self.query_one(Banner).show(f"cannot start: {describe_error(worker.error)}")
                # nothing can be answered or stored: say so where one types, instead of a "…" forever
                chat_input = self.query_one(ChatInput)
                chat_input.read_only = True
                chat_input.placeholder = "not available: see the line above; Ctrl+Q quits"
                for job in self._jobs:
                    if job.failed is not None:
                        job.failed(worker.error)
                self._jobs.clear()
            return
        if worker.group == "assistant" and event.state == WorkerState.ERROR:
            self.job_failed(worker.error)

    # ------------------------------------------------------------------ chat
    @on(ChatInput.Submitted)
    def _submitted(self, event: ChatInput.Submitted) -> None:
        text = event.text
        if self.load_error is not None:
            self.notify(f"cannot answer: {describe_error(self.load_error)}", severity="error")
            return
        if text.startswith("/") and not text.startswith("//"):
            self.slash(text)
            return
        self.send(text[1:] if text.startswith("//") else text)

    def send(self, text: str) -> None:
        """Show the message now; the assistant answers it when its turn in the job queue comes."""
        chat = self.query_one("#chat", VerticalScroll)
        user = UserMessage(text, when=self.clock())
        answer = AssistantMessage(pending=True)
        chat.mount_all([user, answer])
        chat.anchor()
        self._last_answer = answer
        pieces: list[str] = []

        def on_token(piece: str) -> None:
            pieces.append(piece)
            answer.post_message(AssistantMessage.Stream(answer, "".join(pieces)))

        session_id = self.session_id  # None while loading: then the first session, opened before this runs
        cancel = threading.Event()

        def work_fn() -> Any:
            target = session_id or self.session_id
            assert target is not None, "a session is opened before any message is answered"
            return self.need_assistant().respond(target, text, on_token=on_token, cancel=cancel)

        def failed(error: BaseException) -> None:
            from ibachat.errors import Cancelled

            if not answer.is_attached:
                return
            if isinstance(error, Cancelled):
                answer.stopped()
                user.set_stored(None, note="stopped: not remembered")
            else:
                answer.fail(describe_error(error))
                user.set_stored(None, note="not remembered")

        job = self.run_job("answer", work_fn, lambda reply: self._answered(user, answer, reply), failed)
        job.cancel = cancel

    def _answered(self, user: UserMessage, answer: AssistantMessage, reply: Any) -> None:
        self.refresh_status()
        self.refresh_sessions()
        if reply.redactions:
            kinds = ", ".join(sorted(set(reply.redactions)))
            self.notify(f"Redacted before storing: {kinds}", title="Secret removed", severity="warning")
        if not answer.is_attached:
            return  # another session is on screen now; the turns are stored all the same
        if reply.user_turn is not None:
            user.set_stored(reply.user_turn.id, reply.user_turn.time)
            if reply.user_turn.text != user.text:
                user.show_stored_text(reply.user_turn.text)
        elif reply.assistant_turn is None:
            user.set_stored(None, note="incognito: not remembered")
        plan = reply.plan.to_dict() if reply.plan is not None else None
        stored = reply.assistant_turn
        if stored is not None:
            answer.set_stored(stored.id, stored.time)
        if reply.clarify:
            answer.finish(reply.clarify, plan=plan, kind="clarify")
        elif reply.proposal:
            name = reply.proposal.get("name", "?")
            answer.finish(reply.text or f"I would like to run **{name}**:", plan=plan, kind="proposal")
            self.query_one("#chat", VerticalScroll).mount(ToolCard(reply), after=answer)
        else:
            answer.finish(reply.text or "", plan=plan)

    @on(AssistantMessage.PlanWanted)
    def _plan_wanted(self, event: AssistantMessage.PlanWanted) -> None:
        view = event.view
        self.run_job("plan", lambda: self.need_assistant().plan_for(event.turn_id), view.show_plan)

    @on(PlanView.JumpToTurn)
    def _jump(self, event: PlanView.JumpToTurn) -> None:
        from ibachat.tui.screens.dialogs import TurnDialog

        def work_fn() -> tuple[Any, list[Any]]:
            memory = self.need_assistant().memory
            return memory.get(event.turn_id), memory.context(event.turn_id, 2, 2)

        self.run_job("open turn", work_fn, lambda r: self.push_screen(TurnDialog(r[0], r[1])))

    # ------------------------------------------------------------------ tool cards
    @on(ToolCard.Decided)
    def _tool_decided(self, event: ToolCard.Decided) -> None:
        self.decide(event.card, event.action)

    def decide(self, card: ToolCard, action: str) -> None:
        """Approve, edit (then approve) or reject (asking why) a proposed tool call."""
        from ibachat.tui.screens.dialogs import EditArgsDialog, PromptDialog

        if action == "approve":
            self.approve(card, None)
        elif action == "edit":
            name = str(card.proposal.get("name", "?"))
            self.push_screen(
                EditArgsDialog(name, card.arguments), lambda args: self.approve(card, args) if args else None
            )
        else:
            self.push_screen(
                PromptDialog("Why not? (optional; remembered as your preference)", ok="Reject"),
                lambda reason: self.reject(card, reason) if reason is not None else None,
            )

    def approve(self, card: ToolCard, arguments: dict[str, Any] | None) -> None:
        def done(result: dict[str, Any]) -> None:
            if card.is_attached:
                if arguments is not None:
                    card.show_ran()  # the edited values, not the proposed ones, next to "approved"
                card.settle("approved", _result_line(result))
            self.refresh_status()

        self.run_job("run tool", lambda: self.need_assistant().approve(card.reply, arguments), done)

    def reject(self, card: ToolCard, reason: str | None) -> None:
        reason = (reason or "").strip() or None

        def done(_: None) -> None:
            if card.is_attached:
                card.settle("rejected", reason or "")
            self.notify("Rejected; remembered as a preference.", title="Tool call rejected")
            self.refresh_status()

        self.run_job("reject tool", lambda: self.need_assistant().reject(card.reply, reason), done)

    # ------------------------------------------------------------------ slash commands
    def slash(self, text: str) -> None:
        command, arg = parse_slash(text)
        actions: dict[str, Callable[[], None]] = {
            "/new": lambda: self.action_new_session(False),
            "/incognito": lambda: self.action_new_session(True),
            "/memory": self.action_memory,
            "/plan": self.action_why,
            "/search": lambda: self.search(arg) if arg else self.action_search(),
            "/rename": lambda: self.rename(arg) if arg else self.action_rename_session(),
            "/quit": self.exit,
            "/help": lambda: self.notify(SLASH_HELP, title="Commands", timeout=12),
            "/model": lambda: self.notify(self.assistant.model_label if self.assistant else "loading…"),
            "/approve": lambda: self._pending_card("approve"),
            "/edit": lambda: self._pending_card("edit"),
            "/reject": lambda: self._pending_card("reject", arg),
            "/forget": lambda: self.notify("forget turns in the memory screen (ctrl+g), with undo"),
            "/undo": lambda: self.notify("undo a forget in the memory screen (ctrl+g, then u)"),
        }
        action = actions.get(command)
        if action is None:
            self.notify(f"unknown command {command}; /help lists them", severity="warning")
        else:
            action()

    def _pending_card(self, action: str, reason: str = "") -> None:
        """/approve, /edit, /reject [reason]: act on the newest undecided tool card."""
        cards = [card for card in self.query(ToolCard) if not card.decided]
        if not cards:
            self.notify("no proposed action is waiting", severity="warning")
        elif action == "reject" and reason:
            self.reject(cards[-1], reason)
        else:
            self.decide(cards[-1], action)

    # ------------------------------------------------------------------ actions
    def _streaming(self) -> Job | None:
        """The newest answer being written or waiting its turn, if it can still be stopped."""
        jobs = [self._current_job, *self._jobs]
        answers = [j for j in jobs if j is not None and j.cancel is not None and not j.cancel.is_set()]
        return answers[-1] if answers else None

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "stop":  # only while an answer is written: else the keys do what they always do
            return (
                self._streaming() is not None and isinstance(self.screen, Screen) and not self.screen.is_modal
            )
        return True

    def action_stop(self) -> None:
        """Ctrl+C / Esc: stop the answer being written; the session goes on, nothing half is stored."""
        job = self._streaming()
        if job is not None and job.cancel is not None:
            job.cancel.set()

    def action_why(self) -> None:
        """Open "Why this answer" of the newest answer."""
        from textual.widgets import Collapsible

        if self._last_answer is not None:
            chat = self.query_one("#chat", VerticalScroll)
            for why in self._last_answer.query(Collapsible):
                why.collapsed = not why.collapsed
                if not why.collapsed:
                    chat.anchor(False)
                    self.call_after_refresh(chat.scroll_to_widget, why, animate=False, top=True)

    def action_memory(self) -> None:
        from ibachat.tui.screens.memory_screen import MemoryScreen

        if self.assistant is None:
            self.notify("still loading the memory")
            return
        self.push_screen(MemoryScreen())

    def action_toggle_sidebar(self) -> None:
        sidebar = self.query_one(SessionList)
        sidebar.display = not sidebar.display

    def action_toggle_theme(self) -> None:
        self.theme = "textual-light" if self.theme == "textual-dark" else "textual-dark"

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        yield from super().get_system_commands(screen)
        yield SystemCommand("New session", "Start a new remembered session", self.action_new_session)
        yield SystemCommand(
            "Incognito session", "A session that is not remembered", lambda: self.action_new_session(True)
        )
        yield SystemCommand("Rename session", "Give this session a title", self.action_rename_session)
        yield SystemCommand(
            "Delete session", "Delete this session and forget its turns", self.action_delete_session
        )
        yield SystemCommand("Search sessions", "Search every session's turns", self.action_search)
        yield SystemCommand("Memory", "Browse remembered turns and preferences", self.action_memory)
        yield SystemCommand("Why this answer", "Show the plan behind the newest answer", self.action_why)
        yield SystemCommand(
            "Toggle light/dark", "Switch between the light and dark theme", self.action_toggle_theme
        )


def _result_line(result: Any) -> str:
    if isinstance(result, dict) and "confirmation" in result:
        return f"{result.get('status', 'done')}, confirmation {result['confirmation']}"
    return json.dumps(result, ensure_ascii=False, default=str)
