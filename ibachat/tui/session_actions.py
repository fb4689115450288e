"""Sessions in the app: start, open (with its history), list, rename, delete, search across all."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual.containers import VerticalScroll
from textual.widgets import ListView

from ibachat.tui.widgets.chat_input import ChatInput
from ibachat.tui.widgets.messages import AssistantMessage, MessageView, ToolMessage, UserMessage
from ibachat.tui.widgets.sessions import SessionItem, SessionList
from ibachat.tui.widgets.status import StatusBar

HISTORY_SHOWN = 200  # turns of a session drawn when it is opened


def _turn_view(turn: Any) -> MessageView:
    if turn.role == "user":
        return UserMessage(turn.text, when=turn.time, turn_id=turn.id)
    if turn.role == "assistant":
        return AssistantMessage(turn.text, when=turn.time, turn_id=turn.id)
    return ToolMessage(turn.text, when=turn.time, turn_id=turn.id)


class SessionActions:
    """Mixed into the app (which provides ``run_job``, ``need_assistant`` and the widgets)."""

    session_id: str | None
    incognito: bool
    _last_answer: AssistantMessage | None

    def _start_session(self, incognito: bool) -> None:
        def done(session_id: str) -> None:
            # the first session keeps the messages typed while loading: they are answered in it
            self._show_session(session_id, [], incognito, clear=self.session_id is not None)

        self.run_job(
            "new session", lambda: self.need_assistant().new_session(incognito=incognito), done, first=True
        )

    def open_session(
        self, session_id: str, *, focus_turn: int | None = None, on_missing: Callable[[], None] | None = None
    ) -> None:
        def work_fn() -> tuple[list[Any], bool]:
            assistant = self.need_assistant()
            infos = {s.id: s for s in assistant.sessions()}
            if session_id not in infos:
                from memory.errors import NotFound

                raise NotFound(f"no session {session_id!r}")
            return assistant.memory.session(session_id)[-HISTORY_SHOWN:], infos[session_id].incognito

        def done(result: tuple[list[Any], bool]) -> None:
            turns, incognito = result
            self._show_session(session_id, turns, incognito, focus_turn=focus_turn)

        def failed(_: BaseException) -> None:
            if on_missing is not None:
                on_missing()

        self.run_job("open session", work_fn, done, failed)

    def _show_session(
        self,
        session_id: str,
        turns: list[Any],
        incognito: bool,
        *,
        focus_turn: int | None = None,
        clear: bool = True,
    ) -> None:
        self.session_id = session_id
        self.incognito = incognito
        self.set_class(incognito, "-incognito")
        chat = self.query_one("#chat", VerticalScroll)
        if clear:
            chat.remove_children()
        views = [_turn_view(turn) for turn in turns]
        if views:
            chat.mount_all(views)
        history = self.query_one(ChatInput).past
        history.entries = [t.text for t in turns if t.role == "user"][-history.limit :]
        self._last_answer = next((v for v in reversed(views) if isinstance(v, AssistantMessage)), None)
        target = next((v for v in views if v.turn_id == focus_turn), None) if focus_turn else None
        if target is not None:
            target.add_class("-found")
            chat.anchor(False)
            self.call_after_refresh(chat.scroll_to_widget, target, animate=False)
        else:
            chat.anchor()  # stays scrolled to the newest message as messages come in
        self.refresh_status()
        self.refresh_sessions()

    def refresh_sessions(self) -> None:
        def done(sessions: list[Any]) -> None:
            self.query_one(SessionList).show(sessions, self.session_id)
            title = next((s.title for s in sessions if s.id == self.session_id), "")
            self.query_one(StatusBar).refresh_info(session=title, incognito=self.incognito)

        self.run_job("list sessions", lambda: self.need_assistant().sessions(), done)

    def refresh_status(self) -> None:
        def work_fn() -> tuple[int, int]:
            memory = self.need_assistant().memory
            return len(memory), memory.store.disk_bytes()

        def done(result: tuple[int, int]) -> None:
            planner_ms = self.need_assistant().last_planner_ms
            self.query_one(StatusBar).refresh_info(
                turns=result[0], bytes=result[1], planner_ms=planner_ms or None
            )

        self.run_job("status", work_fn, done)

    def on_list_view_selected(self, event: ListView.Selected) -> None:
        if event.list_view.id != "sessions":
            return
        if isinstance(event.item, SessionItem) and event.item.session_id != self.session_id:
            self.open_session(event.item.session_id)
        self.query_one(ChatInput).focus()  # back to writing, in the session just opened

    def action_switch_session(self, step: int) -> None:
        """Alt+Up / Alt+Down (or Ctrl+PageUp/PageDown): the previous or next session in the list."""
        sidebar = self.query_one(SessionList)
        items = [item for item in sidebar.children if isinstance(item, SessionItem)]
        ids = [item.session_id for item in items]
        if not ids:
            return
        here = ids.index(self.session_id) if self.session_id in ids else -1
        target = ids[max(0, min(len(ids) - 1, here + step))]
        if target != self.session_id:
            sidebar.index = ids.index(target)
            self.open_session(target)
        self.query_one(ChatInput).focus()

    def action_new_session(self, incognito: bool = False) -> None:
        if self.assistant is None:
            self.start_incognito = incognito
            self.notify("still loading; the new session opens when ready")
            return
        self._start_session(incognito)
        self.refresh_sessions()

    def action_rename_session(self) -> None:
        from ibachat.tui.screens.dialogs import PromptDialog

        if self.session_id is None:
            return
        self.push_screen(
            PromptDialog("Rename this session", ok="Rename"), lambda t: self.rename(t) if t else None
        )

    def rename(self, title: str) -> None:
        session_id = self.session_id
        if session_id is None:
            return
        self.run_job(
            "rename",
            lambda: self.need_assistant().rename_session(session_id, title),
            lambda _: self.refresh_sessions(),
        )

    def action_delete_session(self) -> None:
        from ibachat.tui.screens.dialogs import ConfirmDialog

        session_id = self.session_id
        if session_id is None:
            return

        def confirmed(yes: bool | None) -> None:
            if not yes:
                return

            def done(count: int) -> None:
                self.notify(f"Deleted the session and forgot its {count} turn(s).")
                self._start_session(False)
                self.refresh_sessions()

            self.run_job("delete session", lambda: self.need_assistant().delete_session(session_id), done)

        self.push_screen(
            ConfirmDialog("Delete this session and forget all its turns?", yes="Delete"), confirmed
        )

    def action_search(self) -> None:
        from ibachat.tui.screens.dialogs import PromptDialog

        self.push_screen(
            PromptDialog("Search all sessions", ok="Search"), lambda q: self.search(q) if q else None
        )

    def search(self, query: str) -> None:
        from ibachat.tui.screens.dialogs import SearchDialog

        def chosen(turn: Any) -> None:
            if turn is not None:
                self.open_session(turn.session_id, focus_turn=turn.id)

        def done(results: list[Any]) -> None:
            self.push_screen(SearchDialog(query, results), chosen)

        self.run_job("search", lambda: self.need_assistant().search(query), done)
