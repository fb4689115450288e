"""Many turns made visible in one atomic step: the store's import transaction.

An import writes its turns into NEW segment files that follow the newest one. Before the
first of them is written, a journal (``import-pending.json``) naming them is written
atomically; once the last is written and fsynced, the journal is removed (one ``unlink``,
then an fsync of the folder): that is the commit. While the journal exists the staged
segments do not count: a reader skips them, and the next writer to open the store (the
importer held the lock, so it died) deletes them. A kill at any instant therefore leaves
either none of the import or all of it.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from memory.atomic import atomic_write_text, fsync_dir
from memory.segments import Segment

PENDING = "import-pending.json"
Progress = Callable[[str, int, int], None]


def pending_segments(folder: Path) -> list[str]:
    """Names of segments staged by an import that never committed (empty when none)."""
    try:
        data = json.loads((Path(folder) / PENDING).read_text("utf-8"))
    except FileNotFoundError:
        return []
    except (json.JSONDecodeError, UnicodeDecodeError):
        data = {}  # it is written atomically, so this is damage: drop what it may have named
    names = data.get("segments") if isinstance(data, dict) else None
    if not isinstance(names, list):
        return []
    return [n for n in names if isinstance(n, str) and "/" not in n and n.startswith("seg-")]


def roll_back(folder: Path, *, fsync: bool = True) -> list[str]:
    """Delete the segments of an uncommitted import, then its journal. Returns their names."""
    folder = Path(folder)
    if not (folder / PENDING).exists():
        return []
    names = pending_segments(folder)
    for name in names:
        (folder / name).unlink(missing_ok=True)
    if fsync:
        fsync_dir(folder)
    (folder / PENDING).unlink(missing_ok=True)
    if fsync:
        fsync_dir(folder)
    return names


def chunk(records: Sequence[dict[str, Any]], max_turns: int, max_bytes: int) -> list[list[dict[str, Any]]]:
    """Split records into segment-sized groups (the same bounds as appending one by one)."""
    chunks: list[list[dict[str, Any]]] = []
    current: list[dict[str, Any]] = []
    size = 0
    for rec in records:
        if current and (len(current) >= max_turns or size >= max_bytes):
            chunks.append(current)
            current, size = [], 0
        current.append(rec)
        size += len(rec["text"].encode("utf-8")) + 200
    if current:
        chunks.append(current)
    return chunks


def stage_and_commit(
    folder: Path,
    first_number: int,
    first_id: int,
    chunks: Sequence[Sequence[dict[str, Any]]],
    *,
    fsync: bool = True,
    progress: Progress | None = None,
) -> list[Segment]:
    """Write ``chunks`` as new segments numbered from ``first_number`` and commit them at once.

    Ids are assigned from ``first_id`` in order. On any error the staged files are removed
    and the error is raised: the store is as it was.
    """
    folder = Path(folder)
    names = [f"seg-{first_number + i:06d}.json" for i in range(len(chunks))]
    clash = [n for n in names if (folder / n).exists()]
    if clash:
        raise FileExistsError(f"segment {clash[0]} already exists")
    atomic_write_text(folder / PENDING, json.dumps({"segments": names}), fsync=fsync)
    segments: list[Segment] = []
    total = sum(len(c) for c in chunks)
    done = 0
    next_id = first_id
    try:
        for name, group in zip(names, chunks, strict=True):
            seg = Segment(folder / name, fsync=fsync)
            batch = []
            for rec in group:
                batch.append(dict(rec, id=next_id))
                next_id += 1
            seg.insert_many(batch)
            segments.append(seg)
            done += len(group)
            if progress:
                progress("storing", done, total)
        os.unlink(folder / PENDING)  # the commit
        if fsync:
            fsync_dir(folder)
    except BaseException:
        roll_back(folder, fsync=fsync)
        raise
    return segments
