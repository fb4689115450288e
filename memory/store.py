"""The turn store: the source of truth, in TinyDB segment files under ``<home>/turns``.

* Turn ids are integers, assigned in insertion order and never reused (each segment
  keeps a high-water mark, so deleting the newest turn does not free its id).
* Only the newest segment is appended to; a segment is sealed when it reaches
  ``max_turns`` turns or ``max_bytes`` bytes, so one insert never rewrites more
  than one small file.
* A manifest (``manifest.json``) caches each sealed segment's id range, count and
  time range, so ``newest first`` listings read only the segments they need.
  It is derived data: a missing or stale entry is recomputed from its segment.
"""

from __future__ import annotations

import bisect
import heapq
import json
import re
from collections.abc import Iterable, Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

from memory.atomic import atomic_write_text, clean_temporaries
from memory.errors import BadInput, NotFound
from memory.paths import ensure_private_dir
from memory.segments import Segment
from memory.types import ROLES, SOURCES, Turn, parse_time

SEGMENT_RE = re.compile(r"^seg-(\d{6,})\.json$")
MANIFEST = "manifest.json"


def _epoch(value: str) -> float:
    return parse_time(value).timestamp()


class TurnStore:
    def __init__(
        self,
        folder: Path,
        *,
        readonly: bool = False,
        fsync: bool = True,
        max_turns: int = 512,
        max_bytes: int = 1_000_000,
    ) -> None:
        self.folder = Path(folder)
        self.readonly = readonly
        self.fsync = fsync
        self.max_turns = max_turns
        self.max_bytes = max_bytes
        if not readonly:
            ensure_private_dir(self.folder)
            clean_temporaries(self.folder)
        self._segments: list[Segment] = []
        self._numbers: list[int] = []
        self._first_ids: list[int | None] = []
        self._manifest: dict[str, dict[str, Any]] = {}
        self._manifest_dirty = False
        self._wrote = False  # a store only read from leaves the manifest as it found it
        self._scan()

    # ------------------------------------------------------------------ layout
    def _scan(self) -> None:
        numbered = []
        if self.folder.is_dir():
            for entry in self.folder.iterdir():
                m = SEGMENT_RE.match(entry.name)
                if m:
                    numbered.append((int(m.group(1)), entry))
        numbered.sort()
        self._numbers = [n for n, _ in numbered]
        self._segments = [Segment(p, fsync=self.fsync) for _, p in numbered]
        try:
            self._manifest = json.loads((self.folder / MANIFEST).read_text("utf-8"))
        except (FileNotFoundError, json.JSONDecodeError, UnicodeDecodeError):
            self._manifest = {}
        self._first_ids = [self._stats(i)["first_id"] for i in range(len(self._segments))]

    def _stats(self, index: int) -> dict[str, Any]:
        """Stats of one segment from the manifest, recomputed when missing or stale."""
        seg = self._segments[index]
        try:
            st = seg.path.stat()
        except FileNotFoundError:
            return {"first_id": None, "last_id": 0, "count": 0, "min_time": None, "max_time": None}
        cached = self._manifest.get(seg.name)
        if cached and cached.get("size") == st.st_size and cached.get("mtime_ns") == st.st_mtime_ns:
            return cached
        records = seg.records()
        times = [_epoch(r["time"]) for r in records.values()]
        stats = {
            "first_id": min(records) if records else None,
            "last_id": seg.high_water(),
            "count": len(records),
            "min_time": min(times) if times else None,
            "max_time": max(times) if times else None,
            "size": st.st_size,
            "mtime_ns": st.st_mtime_ns,
        }
        self._manifest[seg.name] = stats
        self._manifest_dirty = True
        return stats

    def _save_manifest(self) -> None:
        if self.readonly or not self._manifest_dirty:
            return
        live = {s.name for s in self._segments}
        data = {k: v for k, v in self._manifest.items() if k in live}
        atomic_write_text(self.folder / MANIFEST, json.dumps(data), fsync=self.fsync)
        self._manifest_dirty = False

    def _active(self) -> Segment:
        if self._segments:
            seg = self._segments[-1]
            if seg.count() < self.max_turns and seg.size() < self.max_bytes:
                return seg
            self._stats(len(self._segments) - 1)  # seal: remember its stats
            self._save_manifest()
        number = (self._numbers[-1] + 1) if self._numbers else 0
        seg = Segment(self.folder / f"seg-{number:06d}.json", fsync=self.fsync)
        self._segments.append(seg)
        self._numbers.append(number)
        self._first_ids.append(None)
        return seg

    def _firsts_cache(self) -> list[int]:
        key = (len(self._first_ids), self._first_ids[-1] if self._first_ids else None)
        if getattr(self, "_firsts_key", None) != key:
            self._firsts = [(f if f is not None else -1) for f in self._first_ids]
            self._firsts_key = key
        return self._firsts

    def _segment_for(self, turn_id: int) -> Segment | None:
        # first ids are increasing across segments (ids are assigned in order)
        pos = bisect.bisect_right(self._firsts_cache(), turn_id) - 1
        for i in (pos, pos + 1, pos - 1):  # empty segments carry no first id
            if 0 <= i < len(self._segments) and turn_id in self._segments[i].records():
                return self._segments[i]
        return None

    # ------------------------------------------------------------------ writes
    def next_id(self) -> int:
        for seg in reversed(self._segments):
            hw = seg.high_water()
            if hw:
                return hw + 1
        return 1

    @staticmethod
    def normalise(rec: dict[str, Any]) -> dict[str, Any]:
        """Validate one incoming record; raise BadInput with a one-line reason."""
        missing = [k for k in ("session_id", "role", "text") if k not in rec]
        if missing:
            raise BadInput(f"missing field(s): {', '.join(missing)}")
        role = rec["role"]
        if role not in ROLES:
            raise BadInput(f"role must be one of {', '.join(ROLES)}, not {role!r}")
        if not isinstance(rec["text"], str):
            raise BadInput("text must be a string")
        source = rec.get("source") or "chat"
        if source not in SOURCES:
            raise BadInput(f"source must be one of {', '.join(SOURCES)}, not {source!r}")
        raw_time = rec.get("time")
        try:
            when = parse_time(raw_time) if raw_time is not None else datetime.now().astimezone()
        except (TypeError, ValueError) as exc:
            raise BadInput(f"time {raw_time!r} is not ISO-8601") from exc
        tool_call = rec.get("tool_call")
        if tool_call is not None and not (isinstance(tool_call, dict) and "name" in tool_call):
            raise BadInput("tool_call must be an object with a name")
        out: dict[str, Any] = {
            "session_id": str(rec["session_id"]),
            "role": role,
            "text": rec["text"],
            "time": when.isoformat(),
            "source": source,
        }
        if tool_call is not None:
            out["tool_call"] = tool_call
        if rec.get("flags"):
            out["flags"] = list(rec["flags"])
        return out

    def add(self, records: Iterable[dict[str, Any]]) -> list[Turn]:
        """Append turns; each segment touched is written once (one fsync per segment)."""
        if self.readonly:
            raise BadInput("the store is open read-only")
        self._wrote = True
        clean = [self.normalise(r) for r in records]
        turns: list[Turn] = []
        next_id = self.next_id()
        i = 0
        while i < len(clean):
            seg = self._active()
            room = max(1, self.max_turns - seg.count())
            batch, size = [], seg.size()
            while i < len(clean) and len(batch) < room:
                rec = dict(clean[i], id=next_id)
                batch.append(rec)
                size += len(rec["text"]) + 200
                next_id += 1
                i += 1
                if size >= self.max_bytes:
                    break
            seg.insert_many(batch)
            index = len(self._segments) - 1
            if self._first_ids[index] is None:
                self._first_ids[index] = int(batch[0]["id"])
            turns.extend(Turn.from_record(r) for r in batch)
        return turns

    def delete(self, ids: Iterable[int]) -> list[Turn]:
        """Remove turns; returns the turns removed (unknown ids are ignored)."""
        wanted = sorted(set(int(i) for i in ids))
        removed: list[Turn] = []
        by_segment: dict[int, list[int]] = {}
        for turn_id in wanted:
            seg = self._segment_for(turn_id)
            if seg is not None:
                by_segment.setdefault(self._segments.index(seg), []).append(turn_id)
        for index, seg_ids in by_segment.items():
            seg = self._segments[index]
            recs = seg.records()
            removed.extend(Turn.from_record({**recs[i], "id": i}) for i in seg_ids)
            seg.remove(seg_ids)
            if index < len(self._segments) - 1:
                self._stats(index)
        self._save_manifest()
        return removed

    def set_flags(self, turn_id: int, flags: Iterable[str]) -> Turn:
        seg = self._segment_for(turn_id)
        if seg is None:
            raise NotFound(f"no turn with id {turn_id}")
        seg.update(turn_id, {"flags": sorted(set(flags))})
        self._save_manifest()
        return self.get(turn_id)

    def close(self) -> None:
        if self._segments and not self.readonly and self._wrote:
            for index in range(len(self._segments) - 1):
                self._stats(index)
            self._save_manifest()

    # ------------------------------------------------------------------ reads
    def get(self, turn_id: int) -> Turn:
        seg = self._segment_for(int(turn_id))
        if seg is None:
            raise NotFound(f"no turn with id {turn_id}")
        return Turn.from_record({**seg.records()[int(turn_id)], "id": int(turn_id)})

    def get_many(self, ids: Iterable[int]) -> list[Turn]:
        out = []
        for turn_id in ids:
            seg = self._segment_for(int(turn_id))
            if seg is not None:
                out.append(Turn.from_record({**seg.records()[int(turn_id)], "id": int(turn_id)}))
        return out

    def __len__(self) -> int:
        return sum(self._stats(i)["count"] for i in range(len(self._segments)))

    def ids(self) -> list[int]:
        out: list[int] = []
        for seg in self._segments:
            out.extend(sorted(seg.records()))
        return out

    def iter_records(self) -> Iterator[tuple[int, dict[str, Any]]]:
        """Every (id, raw record) in id order; loads every segment."""
        for seg in self._segments:
            recs = seg.records()
            for turn_id in sorted(recs):
                yield turn_id, recs[turn_id]

    def iter_turns(
        self,
        *,
        newest_first: bool = True,
        session: str | None = None,
        role: str | None = None,
        since: datetime | None = None,
        until: datetime | None = None,
        source: str | None = None,
    ) -> Iterator[Turn]:
        """Turns ordered by time, reading only as many segments as the output needs."""
        lo = since.timestamp() if since else None
        hi = until.timestamp() if until else None

        def keep(rec: dict[str, Any], t: float) -> bool:
            return (
                (session is None or rec["session_id"] == session)
                and (role is None or rec["role"] == role)
                and (source is None or rec.get("source", "chat") == source)
                and (lo is None or t >= lo)
                and (hi is None or t <= hi)
            )

        stats = [self._stats(i) for i in range(len(self._segments))]
        order = [i for i in range(len(self._segments)) if stats[i]["count"]]
        # segments sorted by the bound that decides when they can contribute
        if newest_first:
            order.sort(key=lambda i: -stats[i]["max_time"])
        else:
            order.sort(key=lambda i: stats[i]["min_time"])
        sign = -1 if newest_first else 1
        pending: list[tuple[float, int, dict[str, Any]]] = []  # a heap: smallest key comes next
        pos = 0
        while pos < len(order) or pending:
            # load segments until the next one cannot hold anything that comes before the heap's top
            while pos < len(order):
                seg_stats = stats[order[pos]]
                bound = seg_stats["max_time"] if newest_first else seg_stats["min_time"]
                if pending and pending[0][0] < sign * bound:
                    break
                if (hi is not None and seg_stats["min_time"] > hi) or (
                    lo is not None and seg_stats["max_time"] < lo
                ):
                    pos += 1
                    continue
                for turn_id, rec in self._segments[order[pos]].records().items():
                    t = _epoch(rec["time"])
                    if keep(rec, t):
                        heapq.heappush(pending, (sign * t, sign * turn_id, rec))
                pos += 1
            if not pending:
                break
            _, signed_id, rec = heapq.heappop(pending)
            yield Turn.from_record({**rec, "id": abs(signed_id)})

    def sessions(self) -> dict[str, dict[str, Any]]:
        """Per session: turn count, first and last time (loads every segment)."""
        out: dict[str, dict[str, Any]] = {}
        for _, rec in self.iter_records():
            s = out.setdefault(rec["session_id"], {"turns": 0, "first": rec["time"], "last": rec["time"]})
            s["turns"] += 1
            if _epoch(rec["time"]) < _epoch(s["first"]):
                s["first"] = rec["time"]
            if _epoch(rec["time"]) > _epoch(s["last"]):
                s["last"] = rec["time"]
        return out

    def disk_bytes(self) -> int:
        return sum(seg.size() for seg in self._segments)

    def state_token(self) -> str:
        """Changes whenever any segment changes: indexes saved with it are known current."""
        parts = []
        for seg in self._segments:
            try:
                st = seg.path.stat()
            except FileNotFoundError:
                continue
            parts.append(f"{seg.name}:{st.st_size}:{st.st_mtime_ns}")
        return "|".join(parts)
