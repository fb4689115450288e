"""Helpers shared by commands: opening the memory, consoles, safe display of remembered text."""

from __future__ import annotations

import re
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator

    from rich.console import Console

    from memory.memory import Memory

_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def printable(text: str, limit: int | None = None) -> str:
    """Text safe for a terminal: control characters (ANSI escapes included) shown as \\xNN.

    Rich markup is not interpreted by callers: they wrap the result in ``rich.text.Text``.
    """
    if limit is not None and len(text) > limit:
        text = text[:limit] + f"… (+{len(text) - limit:,} chars)"
    return _CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}", text)


def one_line(text: str, limit: int = 160) -> str:
    return printable(" ".join(text[: limit * 4].split()), limit)


def polarity_label(polarity: int) -> str:
    """How a preference reads: ``+ want``, ``- avoid`` or ``~ either`` (acceptable)."""
    return "+ want" if polarity > 0 else ("- avoid" if polarity < 0 else "~ either")


def safe_json(value: Any, **options: Any) -> str:
    """JSON that is safe on a terminal too (``memory.jsonl.dumps``)."""
    from memory.jsonl import dumps

    return dumps(value, **options)


def _safe_console_class() -> type[Console]:
    """A rich Console that never writes a control character it did not make itself.

    Every command prints through one (``out_console``/``err_console``), so text from memory,
    a model or the user (a task, an evidence snippet, a reason, a file name in an error) that
    holds ESC, OSC or C1 controls shows them as ``\\x1b``: rich's own styling and cursor
    movement (control segments, and the escapes it renders from styles) are untouched.
    """
    global _SAFE_CONSOLE
    if _SAFE_CONSOLE is None:
        from rich.console import Console
        from rich.segment import Segment

        class SafeConsole(Console):
            def _render_buffer(self, buffer: Iterable[Segment]) -> str:
                return super()._render_buffer(
                    Segment(printable(seg.text), seg.style, None)
                    if seg.control is None and _CONTROL.search(seg.text)
                    else seg
                    for seg in buffer
                )

        _SAFE_CONSOLE = SafeConsole
    return _SAFE_CONSOLE


_SAFE_CONSOLE: type[Console] | None = None


def out_console() -> Console:
    return _safe_console_class()(highlight=False, soft_wrap=False)


def err_console() -> Console:
    return _safe_console_class()(stderr=True, highlight=False)


@contextmanager
def open_memory(obj: dict[str, Any], *, readonly: bool = False, or_read: bool = False) -> Iterator[Memory]:
    """The home's memory for one command; what opening it found is said on stderr, one line each.

    ``or_read``: a command that only reads but would save what it brings up to date (``search``
    and its indexes) opens as a writer when it can, and as a reader beside another writer (or
    in a home it may not write): it never waits for a writer and is never refused by one.
    """
    from ibachat.line_history import scrub_home_history
    from memory.errors import StoreLocked
    from memory.memory import Memory
    from memory.preflight import HomeUnusable

    cfg = obj["config"]
    try:
        mem = Memory.open(embedder=cfg.embedder, readonly=readonly, forget_hooks=[scrub_home_history])
    except (StoreLocked, HomeUnusable):
        if not or_read or readonly:
            raise
        mem = Memory.open(embedder=cfg.embedder, readonly=True)
    try:
        for line in opening_notes(mem):
            err_console().print(line, soft_wrap=True, markup=False)
        yield mem
    finally:
        mem.close()


def opening_notes(mem: Memory) -> list[str]:
    """What a kill or damage had left and opening the memory did about it (or could not)."""
    notes = []
    if mem.store.damage:
        from memory.store import damage_message

        notes.append(f"warning: {damage_message(mem.store.damage)}")
    if mem.rolled_back:
        notes.append(
            f"an interrupted import was rolled back: {mem.rolled_back['turns']:,} staged turn(s), never visible"
        )
    if mem.resumed_forget:
        notes.append(f"finished an interrupted forget of {mem.resumed_forget:,} turn(s)")
    return notes


def bring_indexes_up_to_date(mem: Memory, threshold: int = 2000) -> None:
    """Load the indexes now, with a progress bar when a large store's are out of date (after an
    import, a crash, a new embedder), so a command does not sit silent while they catch up."""
    if mem._vectors is None and len(mem.store) > threshold and not mem.indexes_current():
        with progress_bar("updating indexes") as update:
            mem.prepare(update)


@contextmanager
def progress_bar(description: str) -> Iterator[Any]:
    """A rich progress bar on stderr; yields a callback (stage, done, total)."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    with Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=err_console(),
        transient=True,
    ) as progress:
        task = progress.add_task(description, total=None)

        def update(stage: str, done: int, total: int) -> None:
            progress.update(task, description=f"{description}: {stage}", completed=done, total=total)

        yield update
