"""The status bar (model, embedder, memory size, last planner time), the banner and the load progress."""

from __future__ import annotations

from dataclasses import dataclass

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.widgets import Label, ProgressBar, Static

from ibachat.tui.safe import safe_line


@dataclass
class StatusInfo:
    model: str = "loading…"
    embedder: str = "loading…"
    turns: int | None = None
    bytes: int | None = None
    planner_ms: float | None = None
    session: str = ""
    incognito: bool = False


def _size(n: int) -> str:
    for unit in ("B", "KB", "MB", "GB"):
        if n < 1024 or unit == "GB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024
    return f"{n} B"


def status_text(info: StatusInfo) -> Text:
    text = Text()

    def part(label: str, value: str | Text) -> None:
        if text:
            text.append(" │ ", style="dim")
        text.append(label + " ", style="dim")
        text.append_text(value if isinstance(value, Text) else Text(value))

    if info.incognito:
        text.append(" INCOGNITO ", style="bold reverse")
    part("session", safe_line(info.session or "—", 40))
    part("model", safe_line(info.model, 40))
    part("embedder", safe_line(info.embedder, 30))
    memory = "—" if info.turns is None else f"{info.turns:,} turns"
    if info.bytes is not None:
        memory += f", {_size(info.bytes)}"
    part("memory", memory)
    part("planner", "—" if info.planner_ms is None else f"{info.planner_ms:.0f} ms")
    return text


class StatusBar(Static):
    """One line at the bottom, above the key bindings."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__("", id=id, markup=False)
        self.info = StatusInfo()

    def on_mount(self) -> None:
        self.refresh_info()

    def refresh_info(self, **changes: object) -> None:
        for key, value in changes.items():
            setattr(self.info, key, value)
        self.update(status_text(self.info))


class Banner(Static):
    """A one-line notice across the top (e.g. Ollama unreachable); hidden when empty."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__("", id=id, markup=False)
        self.display = False

    def show(self, message: str | None) -> None:
        self.display = bool(message)
        self.update(safe_line(message or "", 300))


class LoadProgress(Horizontal):
    """What is loading in the background, with a progress bar; hidden when done."""

    def compose(self) -> ComposeResult:
        yield Label("starting…", id="load-stage", markup=False)
        yield ProgressBar(total=100, show_eta=False, id="load-bar")

    def set_stage(self, stage: str, fraction: float | None) -> None:
        self.query_one("#load-stage", Label).update(Text(stage))
        bar = self.query_one("#load-bar", ProgressBar)
        if fraction is None:
            bar.update(total=None)
        else:
            bar.update(total=100, progress=round(100 * max(0.0, min(1.0, fraction))))

    def done(self) -> None:
        self.display = False
