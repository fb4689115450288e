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
from array import array
from collections.abc import Callable, Iterable, Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

from memory import integrity, staging
from memory.atomic import atomic_write_text, clean_temporaries
from memory.errors import BadInput, CorruptFile, NotFound
from memory.forget import pending as forget_pending
from memory.paths import ensure_private_dir
from memory.segments import Segment
from memory.types import ROLES, SOURCES, Turn, parse_time

SEGMENT_RE = re.compile(r"^seg-(\d{6,})\.json$")
MANIFEST = "manifest.json"


def _kind(value: object) -> str:
    """How a wrong value is named in an error: its JSON type and a short repr."""
    names = {type(None): "null", bool: "a boolean", int: "a number", float: "a number", dict: "an object"}
    name = names.get(type(value), "a list" if isinstance(value, list) else type(value).__name__)
    text = repr(value)
    return f"{name} ({text[:40]}{'…' if len(text) > 40 else ''})" if value is not None else name


def _epoch(value: str) -> float:
    return parse_time(value).timestamp()


def damage_message(damage: list[dict[str, Any]]) -> str:
    """One line for a person: what is damaged and what to do."""
    more = f" and {len(damage) - 1} more problem(s)" if len(damage) > 1 else ""
    return (
        f"the turn store is damaged ({damage[0]['problem']}{more}); "
        "`ibachat memory repair` salvages every readable turn and says what was lost"
    )


class TurnStore:
    def __init__(
        self,
        folder: Path,
        *,
        readonly: bool = False,
        fsync: bool = True,
        max_turns: int = 512,
        max_bytes: int = 1_000_000,
        repair: bool = False,
    ) -> None:
        self.folder = Path(folder)
        self.readonly = readonly
        self.fsync = fsync
        self.max_turns = max_turns
        self.max_bytes = max_bytes
        # what an import a kill cut short had staged (never visible), removed on open
        self.rolled_back: dict[str, int] | None = None
        if not readonly:
            ensure_private_dir(self.folder)
            clean_temporaries(self.folder)
            self.rolled_back = staging.recover(self.folder, fsync=fsync)
        self._segments: list[Segment] = []
        self._numbers: list[int] = []
        self._first_ids: list[int | None] = []
        self._manifest: dict[str, dict[str, Any]] = {}
        self._manifest_dirty = False
        self._wrote = False  # a store only read from leaves the manifest as it found it
        self.damage: list[dict[str, Any]] = []  # damaged or missing segments, left out of every read
        # turns an unfinished forget committed to: a reader leaves them out (memory.forget)
        self.hidden: frozenset[int] = forget_pending(self.folder) if readonly else frozenset()
        self._scan()
        if self.damage and not readonly and not repair:
            raise CorruptFile(damage_message(self.damage))

    # ------------------------------------------------------------------ layout
    def _scan(self) -> None:
        # a reader never sees an uncommitted import: staged segments are in a folder it does not
        # read, and a committed import's segments are found where they are or where they went
        numbered = []
        for path in staging.segment_files(self.folder):
            m = SEGMENT_RE.match(path.name)
            if m:
                moves_to = self.folder / path.name if path.parent != self.folder else None
                numbered.append((int(m.group(1)), path, moves_to))
        numbered.sort()
        self._numbers = [n for n, _, _ in numbered]
        self._segments = [Segment(p, fsync=self.fsync, moves_to=m) for _, p, m in numbered]
        try:
            self._manifest = json.loads((self.folder / MANIFEST).read_text("utf-8"))
        except (FileNotFoundError, json.JSONDecodeError, UnicodeDecodeError):
            self._manifest = {}
        if not isinstance(self._manifest, dict):
            self._manifest = {}
        self.damage = []
        self._exclude_damaged(full=False)
        self._first_ids = [self._stats(i)["first_id"] for i in range(len(self._segments))]
        # a segment the manifest knew, or a gap in the numbering, is a segment that was lost
        lost = set(integrity.read_lost(self.folder))
        staged = set(staging.legacy_pending(self.folder))
        known = {int(m.group(1)) for name in self._manifest if (m := SEGMENT_RE.match(name))}
        present = set(self._numbers) | {int(d["segment"][4:-5]) for d in self.damage}
        expected = known | set(range(max(present | known) + 1 if present | known else 0))
        for number in sorted(expected - present):
            name = f"seg-{number:06d}.json"
            if name not in lost and name not in staged:  # an older version's uncommitted stage
                info = self._manifest.get(name, {})
                self.damage.append(
                    {
                        "segment": name,
                        "kind": "missing",
                        "problem": f"segment {name} is missing",
                        **{k: info.get(k) for k in ("count", "first_id", "last_id")},
                    }
                )

    def _exclude_damaged(self, *, full: bool) -> None:
        """Leave out segments that cannot be read (all are read when ``full``), noting why."""
        keep = []
        for i, seg in enumerate(self._segments):
            try:
                if full:
                    seg.records()
                self._stats(i)
            except CorruptFile as exc:
                self.damage.append({"segment": seg.name, "kind": "damaged", "problem": str(exc)})
                continue
            keep.append(i)
        self._segments = [self._segments[i] for i in keep]
        self._numbers = [self._numbers[i] for i in keep]
        self._first_ids = [self._first_ids[i] for i in keep] if len(self._first_ids) == len(keep) else []

    def check(self) -> list[dict[str, Any]]:
        """Read every segment (checksums, records): the damage found, on open or now."""
        self._exclude_damaged(full=True)
        self._first_ids = [self._stats(i)["first_id"] for i in range(len(self._segments))]
        return self.damage

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
        return None if turn_id in self.hidden else self._locate(turn_id)

    def _locate(self, turn_id: int) -> Segment | None:
        # first ids are increasing across segments (ids are assigned in order)
        pos = bisect.bisect_right(self._firsts_cache(), turn_id) - 1
        for i in (pos, pos + 1, pos - 1):  # empty segments carry no first id
            if 0 <= i < len(self._segments) and turn_id in self._segments[i].records():
                return self._segments[i]
        return None

    # ------------------------------------------------------------------ writes
    def next_id(self) -> int:
        # ids of segments found lost are never handed out again
        floor = max([int(v.get("last_id") or 0) for v in integrity.read_lost(self.folder).values()] + [0])
        for seg in reversed(self._segments):
            hw = seg.high_water()
            if hw:
                return max(hw, floor) + 1
        return floor + 1

    @staticmethod
    def normalise(rec: dict[str, Any]) -> dict[str, Any]:
        """Validate one incoming record; raise BadInput with a one-line reason.

        ``session_id`` is a non-empty string (an integer is taken as its digits); ``time`` an
        ISO-8601 string; ``flags`` a list of strings, and a single string is read as a one-flag
        list. Text that cannot be written as UTF-8 (a lone surrogate) is refused.
        """
        missing = [k for k in ("session_id", "role", "text") if k not in rec]
        if missing:
            raise BadInput(f"missing field(s): {', '.join(missing)}")
        session = rec["session_id"]
        if isinstance(session, int) and not isinstance(session, bool):
            session = str(session)
        if not isinstance(session, str) or not session.strip():
            raise BadInput(f"session_id must be a non-empty string, not {_kind(session)}")
        role = rec["role"]
        if role not in ROLES:
            raise BadInput(f"role must be one of {', '.join(ROLES)}, not {role!r}")
        if not isinstance(rec["text"], str):
            raise BadInput(f"text must be a string, not {_kind(rec['text'])}")
        source = rec.get("source") or "chat"
        if source not in SOURCES:
            raise BadInput(f"source must be one of {', '.join(SOURCES)}, not {source!r}")
        raw_time = rec.get("time")
        try:
            when = parse_time(raw_time) if raw_time is not None else datetime.now().astimezone()
        except (TypeError, ValueError) as exc:
            raise BadInput(f"time {raw_time!r} is not an ISO-8601 string") from exc
        tool_call = rec.get("tool_call")
        if tool_call is not None and not (isinstance(tool_call, dict) and "name" in tool_call):
            raise BadInput("tool_call must be an object with a name")
        out: dict[str, Any] = {
            "session_id": session,
            "role": role,
            "text": rec["text"],
            "time": when.isoformat(),
            "source": source,
        }
        if tool_call is not None:
            out["tool_call"] = tool_call
        flags = rec.get("flags")
        if isinstance(flags, str):
            flags = [flags]
        if flags is not None and not (
            isinstance(flags, list) and all(isinstance(f, str) and f.strip() for f in flags)
        ):
            raise BadInput(f"flags must be a list of strings, not {_kind(flags)}")
        if flags:
            out["flags"] = sorted(set(flags))
        try:
            json.dumps(out, ensure_ascii=False).encode("utf-8")
        except UnicodeEncodeError as exc:
            bad = exc.object[exc.start : exc.end] if isinstance(exc.object, str) else "?"
            raise BadInput(f"holds {bad!r}, a lone surrogate that is not valid Unicode") from None
        except (TypeError, ValueError) as exc:
            raise BadInput(f"holds a value JSON cannot store ({exc})") from None
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
                # the manifest names a segment from its first write on, so losing it is noticed
                self._manifest.setdefault(seg.name, {"created": True})
                self._manifest_dirty = True
                self._save_manifest()
            turns.extend(Turn.from_record(r) for r in batch)
        return turns

    def add_atomic(
        self,
        records: Iterable[dict[str, Any]],
        *,
        on_segment: Callable[[list[dict[str, Any]]], None] | None = None,
        normalised: bool = False,
    ) -> range:
        """Append many turns as one transaction (see :mod:`memory.staging`): all or none survive a kill.

        ``records`` may be a generator: they are validated and written segment by segment as
        they come, and only the segment being filled is held in memory; an error from the
        generator (a bad line further on) or from ``on_segment`` (called with each written
        segment's records, ids assigned) removes everything staged, and the store is as it
        was. The turns go into new segments after the newest one, so the cost is that of
        writing them, whatever the size of the store. Returns the new turns' ids.
        ``normalised``: the records already went through :meth:`normalise`.
        """
        if self.readonly:
            raise BadInput("the store is open read-only")
        self._wrote = True
        first_id = self.next_id()
        number = (self._numbers[-1] + 1) if self._numbers else 0
        stage = staging.Stage(
            self.folder,
            number,
            first_id,
            max_turns=self.max_turns,
            max_bytes=self.max_bytes,
            fsync=self.fsync,
            on_segment=on_segment,
        )
        try:
            for rec in records:
                stage.add(rec if normalised else self.normalise(rec))
            written = stage.commit()
        except BaseException:
            stage.abort()
            raise
        if self._segments:
            self._stats(len(self._segments) - 1)  # the newest segment before the import is sealed now
        for name, stats in written:
            self._segments.append(Segment(self.folder / name, fsync=self.fsync))
            self._numbers.append(int(SEGMENT_RE.match(name).group(1)))  # type: ignore[union-attr]
            self._first_ids.append(stats["first_id"])
            self._manifest[name] = stats
        self._manifest_dirty = True
        self._save_manifest()
        return range(first_id, first_id + stage.count)

    def release(self) -> None:
        """Drop the parsed contents of every sealed segment (they are read again when needed)."""
        for seg in self._segments[:-1]:
            seg.release()

    def restore(self, records: Iterable[dict[str, Any]]) -> list[Turn]:
        """Put forgotten turns back under their own ids (undo of a forget).

        Ids are never reused, so an id that was assigned and is now free belongs to the turn
        that had it: it goes back into the segment whose id range holds it. An id never
        assigned, or one still in use, is refused (BadInput) and nothing is written.
        """
        if self.readonly:
            raise BadInput("the store is open read-only")
        by_segment: dict[int, list[dict[str, Any]]] = {}
        highs = [seg.high_water() for seg in self._segments]
        for rec in records:
            if "id" not in rec:
                raise BadInput("a restored turn needs its id")
            turn_id = int(rec["id"])
            index = next((i for i, hw in enumerate(highs) if hw and turn_id <= hw), None)
            if index is None:
                raise BadInput(f"turn id {turn_id} was never assigned: it cannot be restored")
            if self._segment_for(turn_id) is not None:
                raise BadInput(f"turn id {turn_id} is in use: it cannot be restored")
            by_segment.setdefault(index, []).append(dict(self.normalise(rec), id=turn_id))
        turns: list[Turn] = []
        for index, batch in sorted(by_segment.items()):
            self._segments[index].insert_many(batch)
            low = min(int(r["id"]) for r in batch)
            first = self._first_ids[index]
            self._first_ids[index] = low if first is None else min(first, low)
            self._firsts_key = None  # the bisect table is rebuilt on the next lookup
            if index < len(self._segments) - 1:
                self._stats(index)
            turns.extend(Turn.from_record(r) for r in batch)
        self._save_manifest()
        return sorted(turns, key=lambda t: t.id)

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
        held = sum(self._stats(i)["count"] for i in range(len(self._segments)))
        return held - sum(self._locate(i) is not None for i in self.hidden)

    def is_empty(self) -> bool:
        """``len(self) == 0``, reading the stats of segments from the newest back only until one holds
        a turn (``len`` reads every segment's: at 100k turns, 196 of them, 1.7 ms)."""
        if self.hidden:
            return len(self) == 0
        return not any(self._stats(i)["count"] for i in range(len(self._segments) - 1, -1, -1))

    def ids(self) -> list[int]:
        out: list[int] = []
        for seg in self._segments:
            out.extend(i for i in sorted(seg.records()) if i not in self.hidden)
        return out

    def iter_records(self, *, release: bool = False) -> Iterator[tuple[int, dict[str, Any]]]:
        """Every (id, raw record) in id order; loads every segment (and with ``release`` lets
        each sealed one go again once read, so a pass over a big store holds one at a time)."""
        last = len(self._segments) - 1
        for index, seg in enumerate(self._segments):
            recs = seg.records()
            for turn_id in sorted(recs):
                if turn_id not in self.hidden:
                    yield turn_id, recs[turn_id]
            if release and index < last:
                seg.release()

    def iter_after(self, after_id: int, *, release: bool = True) -> Iterator[Turn]:
        """Turns with an id above ``after_id``, oldest first (by time, then id), in bounded memory.

        Only the times and ids of those turns are held (two numbers each), and each segment's
        contents only while its turns are handed out.
        """
        import numpy as np

        times = array("d")
        ids = array("q")
        last = len(self._segments) - 1
        for index, seg in enumerate(self._segments):
            if int(self._stats(index)["last_id"] or 0) > after_id:
                for turn_id, rec in seg.records().items():
                    if turn_id > after_id and turn_id not in self.hidden:
                        ids.append(turn_id)
                        times.append(_epoch(rec["time"]))
            if release and index < last:
                seg.release()
        id_array = np.frombuffer(ids, dtype=np.int64)
        id_array = id_array[np.lexsort((id_array, np.frombuffer(times, dtype=np.float64)))]
        del times, ids
        step = 512
        for start in range(0, len(id_array), step):
            yield from self.get_many(int(i) for i in id_array[start : start + step])
            if release:
                self.release()

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
                    if keep(rec, t) and turn_id not in self.hidden:
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
