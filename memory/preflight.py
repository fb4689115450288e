"""Check a home before anything is read from or written to it: one line for a person, no change.

A command that writes must be able to finish what it starts: a home that cannot be written
(another user's, a read-only mount), a file where a folder belongs (``turns``, ``index``,
``ledger``, ``plans``, ``cache``, the home itself) or a folder where a file belongs (``lock``,
``ledger/events.jsonl``) would otherwise fail half-way, after a turn was stored and before
its ledger events were. So :class:`memory.memory.Memory` checks the home first and refuses
with :class:`HomeUnusable` before its first write; a reader checks that it can read.
"""

from __future__ import annotations

import errno
import os
from pathlib import Path

from memory.errors import MemoryError_

FOLDERS = ("turns", "index", "cache", "ledger", "plans")
FILES = ("lock", "sessions.json", "pending.json", "repl_history", "forget-undo.json", "ledger/events.jsonl")
APPENDED = ("lock", "ledger/events.jsonl")  # written in place (the others are replaced by a rename)


class HomeUnusable(MemoryError_):
    """The home (or a part of it) cannot be used as a command needs; nothing was changed."""


def _why(path: Path, mode: int) -> str | None:
    """Why this process cannot use ``path`` with ``mode`` (os.R_OK, W_OK, X_OK), or None."""
    if os.access(path, mode, effective_ids=os.access in os.supports_effective_ids):  # as this process
        return None
    if mode & os.W_OK and _read_only_fs(path):
        return "is on a read-only file system"
    return "is not writable by this user" if mode & os.W_OK else "is not readable by this user"


def _read_only_fs(path: Path) -> bool:
    try:
        return bool(os.statvfs(path).f_flag & os.ST_RDONLY)
    except OSError:
        return False


def check_home(home: Path, *, write: bool) -> None:
    """Raise HomeUnusable (one line) when ``home`` cannot serve a reader, or a writer."""
    home = Path(home)
    hint = "; nothing was changed"
    if home.exists() and not home.is_dir():
        raise HomeUnusable(
            f"the ibachat home {home} is a file, not a folder (set IBACHAT_HOME to a folder){hint}"
        )
    if not home.exists():
        if not write:
            return
        parent = home.parent
        while not parent.exists() and parent != parent.parent:
            parent = parent.parent
        if not parent.is_dir():
            raise HomeUnusable(f"cannot create the ibachat home {home}: {parent} is a file{hint}")
        why = _why(parent, os.W_OK | os.X_OK)
        if why:
            raise HomeUnusable(f"cannot create the ibachat home {home}: {parent} {why}{hint}")
        return
    need = os.R_OK | os.X_OK | (os.W_OK if write else 0)
    why = _why(home, need)
    if why:
        raise HomeUnusable(f"the ibachat home {home} {why}{hint}")
    for name in FOLDERS:
        path = home / name
        if path.exists() or path.is_symlink():
            if not path.is_dir():
                raise HomeUnusable(f"{path} is a file where ibachat keeps a folder; move it away{hint}")
            why = _why(path, need)
            if why:
                raise HomeUnusable(f"{path} {why}{hint}")
    for name in FILES:
        path = home / name
        if path.is_dir():
            raise HomeUnusable(f"{path} is a folder where ibachat keeps a file; move it away{hint}")
        if path.exists():
            why = _why(path, os.R_OK | (os.W_OK if write and name in APPENDED else 0))
            if why:
                raise HomeUnusable(f"{path} {why}{hint}")
    turns = home / "turns"
    if turns.is_dir():
        for entry in os.scandir(turns):
            if entry.is_file() and not entry.name.startswith("."):
                why = _why(Path(entry.path), os.R_OK)
                if why:
                    raise HomeUnusable(f"{entry.path} {why}{hint}")


def describe_os_error(exc: OSError) -> str:
    """One line for an OSError that got past the checks (a disk that filled up meanwhile...)."""
    where = f" {exc.filename}" if exc.filename else ""
    reason = exc.strerror or errno.errorcode.get(exc.errno or 0, "") or str(exc)
    return f"cannot use{where}: {reason}"
