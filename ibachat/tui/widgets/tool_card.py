"""A proposed tool call: each parameter with its value and the plan's reason; approve, edit or reject."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.widgets import Button, Label, Static

from ibachat.tui.plantext import proposal_reasons
from ibachat.tui.safe import safe_line


def _value(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


class ToolCard(Vertical, can_focus=True):
    """Shows ``reply.proposal`` = {"name", "arguments", "reasons"} and asks what to do with it."""

    BINDINGS = [
        Binding("a", "decide('approve')", "Approve"),
        Binding("e", "decide('edit')", "Edit"),
        Binding("r", "decide('reject')", "Reject"),
    ]

    @dataclass
    class Decided(Message):
        """The user chose ``action`` (approve, edit or reject) for this card's proposal."""

        card: ToolCard
        action: str

    def __init__(self, reply: Any) -> None:
        super().__init__(classes="tool-card")
        self.reply = reply
        self.proposal: dict[str, Any] = reply.proposal
        self.decided = False

    @property
    def arguments(self) -> dict[str, Any]:
        return dict(self.proposal.get("arguments") or {})

    def compose(self) -> ComposeResult:
        name = str(self.proposal.get("name", "?"))
        yield Label(
            Text.assemble(("Proposed action: ", "bold"), (name, "bold reverse")), classes="tool-title"
        )
        yield from self._rows()
        with Horizontal(classes="tool-buttons"):
            yield Button("Approve (a)", id="approve", variant="success")
            yield Button("Edit (e)", id="edit", variant="primary")
            yield Button("Reject (r)", id="reject", variant="error")
        yield Static("", classes="tool-result", markup=False)

    def _rows(self) -> list[Static]:
        reasons = proposal_reasons(self.reply)
        rows = []
        for param, value in self.arguments.items():
            row = Text()
            row.append(f"{param} = ", style="bold")
            row.append_text(safe_line(_value(value), 80))
            reason = reasons.get(param)
            if reason:
                row.append("  — ", style="dim")
                row.append_text(safe_line(str(reason), 120, style="italic"))
            rows.append(Static(row, classes="tool-param", markup=False))
        return rows

    def show_ran(self) -> None:
        """Show the arguments that ran (an edit changes them), each with its reason."""
        self.proposal = self.reply.proposal
        self.query(".tool-param").remove()
        self.mount_all(self._rows(), before=self.query_one(".tool-buttons"))

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id:
            self.action_decide(event.button.id)

    def action_decide(self, action: str) -> None:
        if not self.decided:
            self.post_message(self.Decided(self, action))

    def settle(self, outcome: str, detail: str = "") -> None:
        """The decision is done: hide the buttons and say what happened."""
        self.decided = True
        self.add_class(f"-{outcome}")
        self.query_one(".tool-buttons").display = False
        line = Text(outcome, style="bold")
        if detail:
            line.append("  ")
            line.append_text(safe_line(detail, 300))
        self.query_one(".tool-result", Static).update(line)
