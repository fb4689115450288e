"""Many turns made visible in one atomic step: the store's import transaction.

An import writes its turns, segment by segment as they stream in, into a staging folder
``turns/import-staging/`` that no reader looks into. The commit is ONE ``rename`` of that
folder to ``turns/import-NNNNNN/`` (NNNNNN: the number of its first segment), a folder that
readers do read: before the rename nothing of the import counts, after it all of it does.
No journal has to be trusted, so none can be damaged: a stage is visible only once its
folder carries the committed name, whatever else happens to the files inside it.

After the commit the writer moves each committed segment up into ``turns/`` (one rename
each; a reader lists the committed folders before ``turns/`` itself, so a segment on its
way is seen in one place or the other, and a name seen twice is read once) and removes the
empty folder. A writer that opens the store finishes that move if a kill interrupted it,
and deletes a staging folder left by a killed import (the importer held the writer lock,
so it is dead). ``ibachat doctor`` reports such an orphaned stage; ``memory repair`` and
every writer roll it back.

``import-pending.json`` is the journal of an older version (it named staged segments that
were already in ``turns/``); it is still honoured: those segments are skipped by readers and
deleted by the next writer.
"""

from __future__ import annotations

import json
import os
import re
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

from memory.atomic import fsync_dir
from memory.errors import CorruptFile
from memory.segments import Segment
from memory.types import parse_time

STAGING = "import-staging"
COMMITTED_RE = re.compile(r"^import-(\d{6,})$")
SEGMENT_RE = re.compile(r"^seg-(\d{6,})\.json$")
PENDING = "import-pending.json"  # an older version's journal (see the module doc)
Progress = Callable[[str, int, int], None]


# ---------------------------------------------------------------- reading the layout
def committed_folders(folder: Path) -> list[Path]:
    """Committed import folders whose segments are still on their way up into ``folder``."""
    try:
        entries = list(Path(folder).iterdir())
    except FileNotFoundError:
        return []
    return sorted(e for e in entries if COMMITTED_RE.match(e.name) and e.is_dir())


def segment_files(folder: Path) -> list[Path]:
    """Every committed segment file: those in ``folder`` and those in committed import folders.

    The import folders are listed first: a segment moved up meanwhile is then found in
    ``folder`` (a name found twice is kept once, from ``folder``).
    """
    folder = Path(folder)
    found: dict[str, Path] = {}
    for sub in committed_folders(folder):
        try:
            names = os.listdir(sub)
        except FileNotFoundError:
            continue  # emptied and removed meanwhile: its segments are in ``folder`` now
        for name in names:
            if SEGMENT_RE.match(name):
                found[name] = sub / name
    try:
        names = os.listdir(folder)
    except FileNotFoundError:
        names = []
    for name in names:
        if SEGMENT_RE.match(name):
            found[name] = folder / name
    skip = set(legacy_pending(folder))
    return [found[n] for n in sorted(found) if n not in skip]


def legacy_pending(folder: Path) -> list[str]:
    """Segments named by an older version's uncommitted import journal (empty when none)."""
    try:
        data = json.loads((Path(folder) / PENDING).read_text("utf-8"))
    except FileNotFoundError:
        return []
    except (OSError, json.JSONDecodeError, UnicodeDecodeError):
        return []
    names = data.get("segments") if isinstance(data, dict) else None
    if not isinstance(names, list):
        return []
    return [n for n in names if isinstance(n, str) and SEGMENT_RE.match(n)]


def orphaned_stage(folder: Path) -> dict[str, int] | None:
    """What an import that never committed left: its segments and turns (never visible), or None."""
    stage = Path(folder) / STAGING
    if not stage.is_dir():
        return None
    segments = turns = 0
    for entry in stage.iterdir():
        if SEGMENT_RE.match(entry.name):
            segments += 1
            try:
                turns += Segment(entry, fsync=False).count()
            except (OSError, CorruptFile):
                continue  # a damaged staged file: it is removed all the same
    return {"segments": segments, "turns": turns}


# ---------------------------------------------------------------- a writer's duties on open
def recover(folder: Path, *, fsync: bool = True) -> dict[str, int] | None:
    """Roll back an orphaned stage and finish moving committed segments up (a writer, on open).

    Returns what was rolled back (segments, turns), or None when there was nothing to roll back.
    """
    folder = Path(folder)
    rolled = orphaned_stage(folder)
    if rolled is not None:
        shutil.rmtree(folder / STAGING)
        if fsync:
            fsync_dir(folder)
    legacy = legacy_pending(folder) if (folder / PENDING).exists() else []
    if (folder / PENDING).exists():
        for name in legacy:
            (folder / name).unlink(missing_ok=True)
        if fsync:
            fsync_dir(folder)
        (folder / PENDING).unlink(missing_ok=True)
        if fsync:
            fsync_dir(folder)
        rolled = {
            "segments": (rolled or {}).get("segments", 0) + len(legacy),
            "turns": (rolled or {}).get("turns", 0),
        }
    for sub in committed_folders(folder):
        move_up(folder, sub, fsync=fsync)
    return rolled


def move_up(folder: Path, sub: Path, *, fsync: bool = True) -> None:
    """Move a committed import folder's segments into ``folder``, then remove the folder.

    Each move is one rename; the committed folder is what the import wrote, so its segment
    replaces a same-named file (there is none unless a file was copied back by hand).
    Anything else in it is a temporary of a write a kill cut short.
    """
    for name in sorted(os.listdir(sub)):
        if SEGMENT_RE.match(name):
            os.replace(sub / name, folder / name)
        else:
            (sub / name).unlink()
    if fsync:
        fsync_dir(folder)
    sub.rmdir()
    if fsync:
        fsync_dir(folder)


# ---------------------------------------------------------------- writing a stage
class Stage:
    """Segments of one import, written as the turns stream in, committed by one rename.

    ``add`` assigns ids from ``first_id`` in order and writes a segment each time one is
    full (the same bounds as appending one by one); nothing is kept in memory beyond the
    segment being filled and each written segment's stats (for the manifest).
    """

    def __init__(
        self,
        folder: Path,
        first_number: int,
        first_id: int,
        *,
        max_turns: int,
        max_bytes: int,
        fsync: bool = True,
        on_segment: Callable[[list[dict[str, Any]]], None] | None = None,
    ) -> None:
        self.folder = Path(folder)
        self.dir = self.folder / STAGING
        if self.dir.exists():
            shutil.rmtree(self.dir)
        self.dir.mkdir(mode=0o700)
        os.chmod(self.dir, 0o700)
        self.number = first_number
        self.first_number = first_number
        self.next_id = first_id
        self.max_turns = max_turns
        self.max_bytes = max_bytes
        self.fsync = fsync
        self.on_segment = on_segment
        self.written: list[tuple[str, dict[str, Any]]] = []  # (name, stats) of each written segment
        self.count = 0
        self._batch: list[dict[str, Any]] = []
        self._size = 0

    def add(self, rec: dict[str, Any]) -> int:
        if self._batch and (len(self._batch) >= self.max_turns or self._size >= self.max_bytes):
            self._write()
        turn_id = self.next_id
        self._batch.append(dict(rec, id=turn_id))
        self._size += len(rec["text"].encode("utf-8")) + 200
        self.next_id += 1
        self.count += 1
        return turn_id

    def _write(self) -> None:
        batch, self._batch, self._size = self._batch, [], 0
        if not batch:
            return
        name = f"seg-{self.number:06d}.json"
        seg = Segment(self.dir / name, fsync=self.fsync)
        seg.insert_many(batch)
        st = seg.path.stat()
        times = [parse_time(r["time"]).timestamp() for r in batch]
        stats = {
            "first_id": int(batch[0]["id"]),
            "last_id": int(batch[-1]["id"]),
            "count": len(batch),
            "min_time": min(times),
            "max_time": max(times),
            "size": st.st_size,
            "mtime_ns": st.st_mtime_ns,
        }
        self.written.append((name, stats))
        self.number += 1
        if self.on_segment is not None:
            self.on_segment(batch)

    def commit(self) -> list[tuple[str, dict[str, Any]]]:
        """Write the last segment, then make the whole stage visible in one rename."""
        self._write()
        if not self.written:
            self.abort()
            return []
        if self.fsync:
            fsync_dir(self.dir)
        target = self.folder / f"import-{self.first_number:06d}"
        os.rename(self.dir, target)  # the commit
        if self.fsync:
            fsync_dir(self.folder)
        move_up(self.folder, target, fsync=self.fsync)
        return self.written

    def abort(self) -> None:
        """Remove every staged file: the store is as it was."""
        self._batch = []
        if self.dir.exists():
            shutil.rmtree(self.dir)
            if self.fsync:
                fsync_dir(self.folder)
