"""The session list in the sidebar: newest first, incognito ones marked."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.text import Text
from textual.widgets import Label, ListItem, ListView

from ibachat.tui.safe import safe_line


def session_label(info: Any) -> Text:
    text = Text()
    if info.incognito:
        text.append("◌ ", style="bold")
    text.append_text(safe_line(info.title or info.id, 28))
    text.append(f"\n{info.turns} turns", style="dim")
    if info.last is not None:
        text.append(" · " + info.last.strftime("%Y-%m-%d"), style="dim")
    return text


class SessionItem(ListItem):
    def __init__(self, info: Any) -> None:
        super().__init__(Label(session_label(info), markup=False), classes="session")
        self.info = info
        self.session_id: str = info.id


class SessionList(ListView):
    """Sessions; selecting one posts ``ListView.Selected`` with a :class:`SessionItem`."""

    def show(self, sessions: Sequence[Any], current: str | None) -> None:
        self.clear()
        items = [SessionItem(info) for info in sessions]
        self.extend(items)
        for n, item in enumerate(items):
            if item.session_id == current:
                self.index = n
                break
