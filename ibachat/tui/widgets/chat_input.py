"""The message input: multi-line editing, Enter sends, history on Up/Down, big pastes kept aside.

Enter sends; Ctrl+J (or Shift/Alt+Enter where the terminal reports it) starts a new line.
Up on the first line and Down on the last line walk the history. A paste longer than
``PASTE_INLINE`` characters is not put into the editor (a multi-megabyte line would make every
keystroke slow): a short placeholder stands for it and is swapped back when the message is sent.
"""

from __future__ import annotations

from dataclasses import dataclass

from textual import events
from textual.message import Message
from textual.widgets import TextArea

PASTE_INLINE = 20_000
NEWLINE_KEYS = ("ctrl+j", "shift+enter", "alt+enter")


class InputHistory:
    """Previous messages, oldest first; ``back``/``forward`` walk it from a draft."""

    def __init__(self, entries: list[str] | None = None, limit: int = 500) -> None:
        self.entries: list[str] = list(entries or [])[-limit:]
        self.limit = limit
        self._pos: int | None = None
        self._draft = ""

    def add(self, text: str) -> None:
        if text.strip() and (not self.entries or self.entries[-1] != text):
            self.entries.append(text)
            del self.entries[: -self.limit]
        self._pos = None

    def back(self, current: str) -> str | None:
        if not self.entries:
            return None
        if self._pos is None:
            self._draft = current
            self._pos = len(self.entries)
        if self._pos == 0:
            return None
        self._pos -= 1
        return self.entries[self._pos]

    def forward(self) -> str | None:
        if self._pos is None:
            return None
        self._pos += 1
        if self._pos >= len(self.entries):
            self._pos = None
            return self._draft
        return self.entries[self._pos]


class ChatInput(TextArea):
    """Where the user writes; posts :class:`ChatInput.Submitted` on Enter."""

    @dataclass
    class Submitted(Message):
        input: ChatInput
        text: str

    def __init__(self, *, id: str | None = None, past: InputHistory | None = None) -> None:
        super().__init__(
            "",
            id=id,
            soft_wrap=True,
            tab_behavior="focus",
            show_line_numbers=False,
            highlight_cursor_line=False,
            placeholder="Message ibachat (Enter sends, Ctrl+J new line, Up for history, /help)",
        )
        self.past = past or InputHistory()
        self._pastes: dict[str, str] = {}

    async def _on_key(self, event: events.Key) -> None:
        if event.key == "enter":
            event.stop()
            event.prevent_default()
            self.submit()
            return
        if event.key in NEWLINE_KEYS:
            event.stop()
            event.prevent_default()
            self.insert("\n")
            return
        await super()._on_key(event)

    async def _on_paste(self, event: events.Paste) -> None:
        if len(event.text) <= PASTE_INLINE or self.read_only:
            return  # TextArea's own handler runs next (Textual calls each class's handler in turn)
        event.stop()
        event.prevent_default()
        token = f"⟦pasted text #{len(self._pastes) + 1}: {len(event.text):,} characters⟧"
        self._pastes[token] = event.text
        self.insert(token)

    def expanded_text(self) -> str:
        """The text to send: placeholders of big pastes replaced by what was pasted."""
        text = self.text
        for token, pasted in self._pastes.items():
            text = text.replace(token, pasted)
        return text

    def submit(self) -> None:
        shown = self.text
        if not shown.strip() or self.read_only:
            return
        text = self.expanded_text()
        self.past.add(shown)
        self._pastes.clear()
        self.clear()
        self.post_message(self.Submitted(self, text))

    def _set(self, text: str) -> None:
        self.load_text(text)
        self.move_cursor(self.document.end)

    def action_cursor_up(self, select: bool = False) -> None:
        if not select and self.cursor_location[0] == 0:
            previous = self.past.back(self.text)
            if previous is not None:
                self._set(previous)
            return
        super().action_cursor_up(select)

    def action_cursor_down(self, select: bool = False) -> None:
        if not select and self.cursor_location[0] == self.document.line_count - 1:
            following = self.past.forward()
            if following is not None:
                self._set(following)
            return
        super().action_cursor_down(select)
