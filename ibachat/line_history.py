"""The line history the REPL keeps (prompt-toolkit's file in the home): its name, and forgetting in
it what the memory forgets, the hook every front end gives ``Memory.open(forget_hooks=...)``."""

from __future__ import annotations

import os
from pathlib import Path

from memory.atomic import atomic_write_text

HISTORY_FILE = "repl_history"


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


def scrub_home_history(home: Path, texts: list[str]) -> int:
    """The forget hook of every front end (``Memory(forget_hooks=...)``): the REPL's line history."""
    return scrub_history(Path(home) / HISTORY_FILE, texts)


def _norm(text: str) -> str:
    return " ".join(text.split()).casefold()
