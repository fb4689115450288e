"""The alignment plan behind one answer: evidence (each can be opened), preferences, conflicts, left out."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.message import Message
from textual.widgets import Label, Static

from ibachat.tui.plantext import evidence_items, plan_sections
from ibachat.tui.safe import safe_line, short


class EvidenceLink(Static, can_focus=True):
    """One piece of evidence; Enter or a click opens the remembered turn."""

    BINDINGS = [Binding("enter", "open", "Open turn")]

    def __init__(self, turn_id: int, why: str, snippet: str) -> None:
        self.turn_id = turn_id
        line = Text()
        line.append(f"#{turn_id} ", style="bold")
        line.append(short(snippet, 110))
        if why:
            line.append("\n    " + short(why, 110), style="dim italic")
        super().__init__(line, classes="evidence", markup=False)

    def action_open(self) -> None:
        self.post_message(PlanView.JumpToTurn(self.turn_id))

    def on_click(self, event: events.Click) -> None:
        event.stop()
        self.action_open()


class PlanView(Vertical):
    """What the planner found and decided for one answer or tool call."""

    @dataclass
    class JumpToTurn(Message):
        """Show the remembered turn this evidence came from."""

        turn_id: int

    def __init__(self, plan: dict[str, Any]) -> None:
        super().__init__(classes="plan")
        self.plan = plan

    def compose(self) -> ComposeResult:
        evidence = evidence_items(self.plan)
        yield Label(Text(f"Evidence used ({len(evidence)})", style="bold"), classes="plan-head")
        if not evidence:
            yield Static(Text("nothing in memory bore on this", style="dim"), classes="plan-line")
        for turn_id, why, snippet in evidence:
            yield EvidenceLink(turn_id, why, snippet)
        for title, lines in plan_sections(self.plan):
            yield Label(Text(title, style="bold"), classes="plan-head")
            for line in lines:
                yield Static(safe_line(line, 200), classes="plan-line", markup=False)
