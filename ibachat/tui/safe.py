"""Show untrusted text literally: never as Rich/Textual markup, never as raw control codes.

Remembered and user text goes through :func:`safe` (a ``Text`` object, so ``[bold]`` stays
``[bold]``) or :func:`clip` (for Markdown), with control characters made visible and the part
that is rendered capped, so a 5 MB paste is stored whole but drawn in a fraction.
"""

from __future__ import annotations

from rich.text import Text

from ibachat.commands.common import printable

RENDER_LIMIT = 20_000  # characters of one message that are drawn
LINE_LIMIT = 160


def clip(text: str, limit: int = RENDER_LIMIT) -> str:
    """Printable text of at most ``limit`` characters, saying how much was left out."""
    return printable(text, limit)


def safe(text: str, limit: int = RENDER_LIMIT, style: str = "") -> Text:
    """A ``Text`` drawn exactly as written (markup and escapes shown literally)."""
    return Text(clip(text, limit), style=style)


def safe_line(text: str, limit: int = LINE_LIMIT, style: str = "") -> Text:
    """One line: whitespace collapsed, control characters visible, cut at ``limit`` with "…"."""
    return Text(short(text, limit), style=style)


def markdown_source(text: str, limit: int = RENDER_LIMIT) -> str:
    """Text for the Markdown widget: control characters visible, long text cut."""
    return clip(text, limit)


def short(text: str, limit: int) -> str:
    """One printable line of at most ``limit`` characters, ending in "…" when cut."""
    line = printable(" ".join(text[: limit * 4].split()))
    return line if len(line) <= limit else line[: limit - 1] + "…"
