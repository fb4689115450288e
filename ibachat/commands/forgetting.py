"""`ibachat memory forget` beyond the store: its undo file and the REPL's line history.

Undo keeps what a forget removed in ``<home>/forget-undo.json`` (0600) for ``UNDO_WINDOW_S``
seconds, so that ``ibachat memory forget --undo`` can restore it. That file is the one place the
forgotten words still exist, and only for that window: it is replaced by the next forget,
removed by ``--undo``, and removed by the first ibachat command that opens the home for writing
after the window (``memory.memory.drop_expired_undo``). ``--no-undo`` writes no such file.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import TYPE_CHECKING

from memory.atomic import atomic_write_text
from memory.memory import FORGET_UNDO

if TYPE_CHECKING:
    from ibachat.tui.undo import Undoable
    from memory.memory import Memory

UNDO_WINDOW_S = 600


def undo_path(home: Path) -> Path:
    return Path(home) / FORGET_UNDO


def save_undo(home: Path, item: Undoable, *, now: float | None = None) -> float:
    """Write the undo file (replacing any older one); returns when it expires (epoch seconds)."""
    now = time.time() if now is None else now
    expires = now + UNDO_WINDOW_S
    data = {
        "expires": expires,
        "label": item.label,
        "turns": [{"id": t.id, **t.to_record()} for t in item.turns],
        "events": [e.to_dict() for e in item.events],
        "plans": {str(k): v for k, v in item.plans.items()},
    }
    atomic_write_text(undo_path(home), json.dumps(data, ensure_ascii=False, default=str))
    os.chmod(undo_path(home), 0o600)
    return expires


def take_undo(home: Path, *, now: float | None = None) -> Undoable | None:
    """The last forget still in its window (the file is removed either way), or None."""
    from ibachat.tui.undo import Undoable
    from memory.ledger import PreferenceEvent
    from memory.types import Turn

    path = undo_path(home)
    try:
        data = json.loads(path.read_text("utf-8"))
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError):
        path.unlink(missing_ok=True)
        return None
    path.unlink(missing_ok=True)
    now = time.time() if now is None else now
    if not isinstance(data, dict) or float(data.get("expires", 0)) < now:
        return None
    return Undoable(
        label=str(data.get("label", "")),
        at=0.0,
        turns=[Turn.from_record(r) for r in data.get("turns", [])],
        events=[PreferenceEvent.from_dict(e) for e in data.get("events", [])],
        plans={int(k): v for k, v in data.get("plans", {}).items()},
    )


def restore(memory: Memory, item: Undoable) -> list[int]:
    """Store the forgotten turns again (they get new ids) with their ledger events and plans."""
    from ibachat.tui.undo import UndoBuffer

    return UndoBuffer(memory)._restore_turns(item)


def scrub_history(path: Path, texts: list[str]) -> int:
    """Remove from a prompt-toolkit history file the entries that are one of ``texts``."""
    try:
        raw = path.read_text("utf-8")
    except (FileNotFoundError, UnicodeDecodeError):
        return 0
    said = {_norm(t) for t in texts if t.strip()}
    entries: list[list[str]] = []
    for line in raw.splitlines(keepends=True):
        if line.startswith("#") or not entries:
            entries.append([line])
        else:
            entries[-1].append(line)
    kept, dropped = [], 0
    for entry in entries:
        body = _norm("".join(ln[1:] for ln in entry if ln.startswith("+")))
        if body and any(body == s or body in s for s in said):
            dropped += 1
            continue
        kept.append(entry)
    if dropped:
        atomic_write_text(path, "".join("".join(e) for e in kept))
        os.chmod(path, 0o600)
    return dropped


def drop_titles(memory: Memory, sessions: set[str]) -> int:
    """Remove from ``sessions.json`` the titles of these sessions once no turn of theirs is left."""
    path = Path(memory.home) / "sessions.json"
    try:
        titles = json.loads(path.read_text("utf-8"))
    except (FileNotFoundError, UnicodeDecodeError, json.JSONDecodeError):
        return 0
    if not isinstance(titles, dict):
        return 0
    left = set(memory.store.sessions())
    gone = [s for s in sessions if s in titles and s not in left]
    for session in gone:
        titles.pop(session)
    if gone:
        atomic_write_text(path, json.dumps(titles, ensure_ascii=False))
        os.chmod(path, 0o600)
    return len(gone)


def _norm(text: str) -> str:
    return " ".join(text.split()).casefold()
