"""One chat message each: the user's (literal text) and the assistant's (streamed Markdown).

An assistant message carries a collapsed "Why this answer" section (its alignment plan) and,
for a tool action, a tool card. Everything shown from the user or from memory goes through
``ibachat.tui.safe``: markup is never interpreted, control characters are made visible.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.message import Message
from textual.widgets import Collapsible, Label, Markdown, Static

from ibachat.tui.safe import markdown_source, safe
from ibachat.tui.widgets.plan_view import PlanView

if TYPE_CHECKING:
    from textual.widget import Widget

ROLE_NAMES = {"user": "you", "assistant": "ibachat", "tool": "tool"}


def header(role: str, when: datetime | None, turn_id: int | None, note: str = "") -> Text:
    text = Text()
    text.append(ROLE_NAMES.get(role, role), style="bold")
    if when is not None:
        text.append("  " + when.strftime("%H:%M"), style="dim")
    if turn_id is not None:
        text.append(f"  #{turn_id}", style="dim")
    if note:
        text.append("  " + note, style="italic")
    return text


class MessageView(Vertical):
    """A message in the chat log; ``turn_id`` is its remembered turn (None: not stored)."""

    def __init__(self, role: str, *, when: datetime | None = None, turn_id: int | None = None) -> None:
        super().__init__(classes=f"message -{role}")
        self.role = role
        self.when = when
        self.turn_id = turn_id
        self._note = ""

    def _header(self) -> Text:
        return header(self.role, self.when, self.turn_id, self._note)

    def set_stored(self, turn_id: int | None, when: datetime | None = None, note: str = "") -> None:
        """The turn was stored (or not): show its id and time."""
        self.turn_id = turn_id
        self.when = when or self.when
        self._note = note
        self.query_one(".message-head", Label).update(self._header())


class UserMessage(MessageView):
    def __init__(self, text: str, *, when: datetime | None = None, turn_id: int | None = None) -> None:
        super().__init__("user", when=when, turn_id=turn_id)
        self.text = text

    def compose(self) -> ComposeResult:
        yield Label(self._header(), classes="message-head")
        yield Static(safe(self.text), classes="message-body", markup=False)

    def show_stored_text(self, text: str) -> None:
        """Show what was remembered (secrets redacted) instead of what was typed."""
        self.text = text
        self.query_one(".message-body", Static).update(safe(text))


class ToolMessage(MessageView):
    """A remembered tool turn (an approved call and its result)."""

    def __init__(self, text: str, *, when: datetime | None = None, turn_id: int | None = None) -> None:
        super().__init__("tool", when=when, turn_id=turn_id)
        self.text = text

    def compose(self) -> ComposeResult:
        yield Label(self._header(), classes="message-head")
        yield Static(safe(self.text), classes="message-body", markup=False)


class AssistantMessage(MessageView):
    """An answer: streamed Markdown, then a "Why this answer" section once the plan is known."""

    @dataclass
    class Stream(Message):
        """The answer so far (a newer one replaces an unprocessed older one)."""

        view: AssistantMessage
        text: str

        def can_replace(self, message: Message) -> bool:
            return isinstance(message, AssistantMessage.Stream) and message.view is self.view

    @dataclass
    class PlanWanted(Message):
        """The user opened "Why this answer" of a remembered turn whose plan is not loaded yet."""

        view: AssistantMessage
        turn_id: int

    def __init__(
        self,
        text: str = "",
        *,
        when: datetime | None = None,
        turn_id: int | None = None,
        plan: dict[str, Any] | None = None,
        pending: bool = False,
    ) -> None:
        super().__init__("assistant", when=when, turn_id=turn_id)
        self.text = text
        self.plan = plan
        self._plan_requested = False
        self._settled = not pending  # a late piece of a stream never overwrites a settled answer
        if pending:
            self.add_class("-pending")

    def compose(self) -> ComposeResult:
        yield Label(self._header(), classes="message-head")
        yield Markdown(markdown_source(self.text) or "…", classes="message-body", open_links=False)
        if self.turn_id is not None or self.plan is not None:
            yield self._why()

    def _why(self) -> Collapsible:
        children: list[Widget] = [PlanView(self.plan)] if self.plan is not None else []
        return Collapsible(*children, title="Why this answer", collapsed=True, classes="why")

    def on_assistant_message_stream(self, event: AssistantMessage.Stream) -> None:
        event.stop()
        if event.view is self and not self._settled:
            self.show_text(event.text)

    def show_text(self, text: str) -> None:
        self.text = text
        self.query_one(".message-body", Markdown).update(markdown_source(text) or "…")

    def finish(self, text: str, *, plan: dict[str, Any] | None, kind: str = "answer") -> None:
        """The reply is complete: final text, its plan, and a class for its kind."""
        self._settled = True
        self.remove_class("-pending")
        self.add_class(f"-{kind}")
        self.show_text(text)
        self.plan = plan
        if plan is not None or self.turn_id is not None:
            existing = self.query(".why")
            if existing:
                existing.remove()
            self.mount(self._why())

    def fail(self, message: str) -> None:
        self._settled = True
        self.remove_class("-pending")
        self.add_class("-error")
        self.query_one(".message-body", Markdown).update(markdown_source(message))

    def stopped(self) -> None:
        """The user stopped the answer: what was written so far stays on screen, marked."""
        self._settled = True
        self.remove_class("-pending")
        self.add_class("-stopped")
        shown = self.text.rstrip()
        self.query_one(".message-body", Markdown).update(
            (markdown_source(shown) + "\n\n" if shown else "") + "*(stopped)*"
        )
        self.set_stored(None, note="stopped: not remembered")

    def show_plan(self, plan: dict[str, Any] | None) -> None:
        self.plan = plan
        why = self.query_one(".why", Collapsible)
        contents = why.query_one(Collapsible.Contents)
        contents.remove_children()
        if plan is None:
            contents.mount(Static(Text("No plan was saved with this answer.", style="dim")))
        else:
            contents.mount(PlanView(plan))

    def on_collapsible_expanded(self, event: Collapsible.Expanded) -> None:
        if self.plan is None and self.turn_id is not None and not self._plan_requested:
            self._plan_requested = True
            self.post_message(self.PlanWanted(self, self.turn_id))
