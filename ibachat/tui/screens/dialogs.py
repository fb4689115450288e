"""Small modal screens: a text prompt, a yes/no, tool-argument editing, a remembered turn, search."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, ListItem, ListView, Static, TextArea

from ibachat.tui.safe import safe, safe_line


class PromptDialog(ModalScreen[str | None]):
    """Ask for one line of text; dismisses with it (maybe empty), or None when cancelled."""

    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, title: str, *, value: str = "", placeholder: str = "", ok: str = "OK") -> None:
        super().__init__(classes="dialog-screen")
        self.title_text, self.value, self.placeholder, self.ok = title, value, placeholder, ok

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(Text(self.title_text, style="bold"), markup=False)
            yield Input(self.value, placeholder=self.placeholder, id="prompt-input")
            with Horizontal(classes="dialog-buttons"):
                yield Button(self.ok, id="ok", variant="primary")
                yield Button("Cancel", id="cancel")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.dismiss(event.value)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss(self.query_one(Input).value if event.button.id == "ok" else None)

    def action_cancel(self) -> None:
        self.dismiss(None)


class ConfirmDialog(ModalScreen[bool]):
    BINDINGS = [Binding("escape", "answer(False)", "No"), Binding("y", "answer(True)", "Yes")]

    def __init__(self, question: str, *, yes: str = "Yes") -> None:
        super().__init__(classes="dialog-screen")
        self.question, self.yes = question, yes

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(Text(self.question), markup=False)
            with Horizontal(classes="dialog-buttons"):
                yield Button(self.yes, id="yes", variant="error")
                yield Button("No", id="no")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss(event.button.id == "yes")

    def action_answer(self, value: bool) -> None:
        self.dismiss(value)


class EditArgsDialog(ModalScreen[dict[str, Any] | None]):
    """Edit a tool call's arguments as JSON; only a JSON object is accepted."""

    BINDINGS = [Binding("escape", "cancel", "Cancel"), Binding("ctrl+s", "save", "Run with these")]

    def __init__(self, name: str, arguments: dict[str, Any]) -> None:
        super().__init__(classes="dialog-screen")
        self.tool_name = name
        self.arguments = arguments

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog -wide"):
            yield Label(Text.assemble(("Edit arguments of ", "bold"), (self.tool_name, "bold")), markup=False)
            yield TextArea(json.dumps(self.arguments, indent=2, ensure_ascii=False), language=None, id="args")
            yield Static("", id="args-error", markup=False)
            with Horizontal(classes="dialog-buttons"):
                yield Button("Run with these (ctrl+s)", id="save", variant="primary")
                yield Button("Cancel", id="cancel")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "save":
            self.action_save()
        else:
            self.dismiss(None)

    def action_save(self) -> None:
        raw = self.query_one("#args", TextArea).text
        try:
            value = json.loads(raw)
        except json.JSONDecodeError as exc:
            self._error(f"not valid JSON: {exc.msg} (line {exc.lineno}, column {exc.colno})")
            return
        if not isinstance(value, dict):
            self._error("the arguments must be a JSON object")
            return
        self.dismiss(value)

    def _error(self, message: str) -> None:
        self.query_one("#args-error", Static).update(Text(message, style="bold red"))

    def action_cancel(self) -> None:
        self.dismiss(None)


class TurnDialog(ModalScreen[None]):
    """One remembered turn (whole text) with its neighbours, e.g. from a plan's evidence."""

    BINDINGS = [Binding("escape", "close", "Close")]

    def __init__(self, turn: Any, context: Sequence[Any] = ()) -> None:
        super().__init__(classes="dialog-screen")
        self.turn, self.context = turn, list(context)

    def compose(self) -> ComposeResult:
        from ibachat.tui.widgets.messages import header

        with Vertical(classes="dialog -wide"):
            yield Label(Text(f"Remembered turn #{self.turn.id}", style="bold"), markup=False)
            with VerticalScroll(classes="turn-context"):
                for turn in sorted([*self.context, self.turn], key=lambda t: (t.time, t.id)):
                    focus = turn.id == self.turn.id
                    yield Label(header(turn.role, turn.time, turn.id, turn.session_id), markup=False)
                    yield Static(
                        safe(turn.text), classes="turn-text" + (" -focus" if focus else ""), markup=False
                    )
            yield Button("Close", id="close")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss(None)

    def action_close(self) -> None:
        self.dismiss(None)


class SearchResultItem(ListItem):
    def __init__(self, turn: Any, score: float) -> None:
        line = Text()
        line.append(f"#{turn.id} ", style="bold")
        line.append(turn.time.strftime("%Y-%m-%d %H:%M "), style="dim")
        line.append_text(safe_line(turn.session_id, 24, style="italic"))
        line.append(f" {turn.role}: ")
        line.append_text(safe_line(turn.text, 200))
        super().__init__(Label(line, markup=False))
        self.turn = turn
        self.score = score


class SearchDialog(ModalScreen[Any]):
    """Search across all sessions; dismisses with the chosen turn (or None)."""

    BINDINGS = [Binding("escape", "close", "Close")]

    def __init__(self, query: str, results: Sequence[tuple[Any, Any]]) -> None:
        super().__init__(classes="dialog-screen")
        self.query_text = query
        self.results = list(results)

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog -wide"):
            title = Text.assemble(("Search: ", "bold"), safe_line(self.query_text, 80))
            title.append(f"  ({len(self.results)} found)", style="dim")
            yield Label(title, markup=False)
            yield ListView(*[SearchResultItem(turn, hit.score) for hit, turn in self.results], id="results")
            yield Button("Close", id="close")

    def on_list_view_selected(self, event: ListView.Selected) -> None:
        event.stop()
        if isinstance(event.item, SearchResultItem):
            self.dismiss(event.item.turn)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss(None)

    def action_close(self) -> None:
        self.dismiss(None)
