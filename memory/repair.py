"""`memory repair`: salvage every readable turn of a damaged store and say what was lost.

* A damaged segment (truncated, failing its checksum, holding a bad record) is moved to
  ``turns/damaged/`` as it was, and a new segment of the same name is written with every
  intact record :func:`memory.integrity.salvage` finds in it (and the old high-water mark, so
  no id is handed out twice).
* A missing segment cannot be salvaged: it is listed in ``turns/lost.json`` with what the
  manifest knew of it (count, id range), so it is reported once and its ids never reused.
"""

from __future__ import annotations

import os
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from memory import integrity
from memory.paths import ensure_private_dir
from memory.segments import META, TURNS, Segment

if TYPE_CHECKING:
    from memory.store import TurnStore


def _ids(info: dict[str, Any]) -> str:
    if info.get("first_id") and info.get("last_id"):
        return f" (ids {info['first_id']}-{info['last_id']})"
    return ""


def repair_store(store: TurnStore) -> list[str]:
    """Repair the damage ``store.check()`` finds; one line per segment repaired."""
    damage = list(store.check())
    if not damage:
        return []
    folder = store.folder
    lost = integrity.read_lost(folder)
    manifest = store._manifest
    lines: list[str] = []
    for item in damage:
        name = item["segment"]
        info = manifest.get(name, {})
        if item["kind"] == "missing":
            count = item.get("count")
            lost[name] = {**{k: item.get(k) for k in ("count", "first_id", "last_id")}, "found": _now()}
            what = f"{count:,} turn(s) lost{_ids(item)}" if count is not None else "its turns are lost"
            lines.append(f"{name}: missing; {what}")
            continue
        path = folder / name
        raw = path.read_bytes()
        records, high_water = integrity.salvage(raw)
        kept = ensure_private_dir(folder / "damaged") / name
        n = 1
        while kept.exists():
            kept = kept.with_name(f"{name}.{n}")
            n += 1
        os.replace(path, kept)
        high_water = max([high_water, int(info.get("last_id") or 0), *records])
        tables = {
            TURNS: {str(i): rec for i, rec in sorted(records.items())},
            META: {"1": {"high_water": high_water}},
        }
        Segment(path, fsync=store.fsync).storage.write(tables)
        expected = info.get("count")
        if isinstance(expected, int) and info.get("size") is not None:
            what = f"{max(0, expected - len(records)):,} of {expected:,} turn(s) lost{_ids(info)}"
        else:
            earlier = _previous_high_water(store, name)
            bound = max(0, high_water - earlier - len(records))
            what = f"up to {bound:,} turn(s) lost" if bound else "no turn lost"
        lines.append(
            f"{name}: {_what(item['problem'], name)}; salvaged {len(records):,} turn(s), {what}; "
            f"the damaged file is kept as {kept.relative_to(folder.parent)}"
        )
    if lost:
        integrity.write_lost(folder, lost, fsync=store.fsync)
    store._scan()
    for index in range(len(store._segments)):
        store._stats(index)
    store._manifest_dirty = True
    store._save_manifest()
    return lines


def _what(problem: str, name: str) -> str:
    text = problem.removeprefix(f"segment {name}").lstrip(": ")
    return text.removeprefix("is ")


def _previous_high_water(store: TurnStore, name: str) -> int:
    number = int(name[4:-5])
    best = 0
    for seg_number, seg in zip(store._numbers, store._segments, strict=True):
        if seg_number < number:
            best = max(best, seg.high_water())
    return best


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")
