"""The preference ledger: typed preference events with provenance, supersession and validity.

Stored as an append-only JSONL log (``events.jsonl``): one operation a line, fsynced per
append. A torn last line (a crash mid-write) is cut off when the ledger opens; a damaged
line elsewhere is reported as :class:`CorruptFile`. ``compact()`` rewrites the log as the
current state through an atomic rename. The ledger is loaded lazily: constructing one
touches no disk.

Forgetting is total: ``forget_turns`` and ``remove`` rewrite the whole log (atomically)
without the forgotten words, so no earlier line still holds them. A turn marked "never use"
is muted (``mute``/``unmute`` ops, reversible): events resting only on muted turns are left
out of every query, and muted turns are left out of the others' evidence.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import threading
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field, replace
from datetime import datetime
from pathlib import Path
from typing import Any

from memory.atomic import atomic_write_bytes, clean_temporaries
from memory.errors import BadInput, CorruptFile, NotFound, StoreLocked
from memory.types import parse_time

KINDS = ("stated", "asked", "corrected", "rejected", "updated", "state", "chose", "claim", "ignored")
SPEAKERS = ("user", "assistant", "tool")
SCOPES = ("general", "one-off")
# said of a person ("for:Idris") or a place that serves the user ("at:Saffron Lantern"): applies there only
_SCOPED = re.compile(r"^(?:for|at):\S.{0,80}$", re.S)
LOG_NAME = "events.jsonl"


@dataclass
class PreferenceEvent:
    """One thing the history says about what the user wants.

    ``kind``: stated, asked, corrected, rejected, updated, state (temporary, with an end),
    chose (behaviour: an executed tool call), claim (an assistant's assertion, never
    applied) or ignored (instruction-like text inside a memory, never acted on).
    ``polarity`` is +1 for prefer, -1 for avoid, 0 for acceptable.
    """

    dimension: str
    value: str
    kind: str
    valid_from: datetime
    polarity: int = 1
    valid_until: datetime | None = None
    evidence: tuple[int, ...] = ()
    speaker: str = "user"
    superseded_by: str | None = None
    confidence: float = 0.5
    extractor: str = "rules"
    scope: str = "general"
    subject: str = ""  # the words as said, for display and free-text preferences
    reason: str = ""  # why it was typed this way (e.g. "instruction inside memory")
    pinned: bool = False
    id: str = ""

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise BadInput(f"unknown preference kind {self.kind!r} (expected one of {', '.join(KINDS)})")
        if self.scope not in SCOPES and not _SCOPED.match(self.scope):
            raise BadInput(f"unknown preference scope {self.scope!r}")
        self.evidence = tuple(int(t) for t in self.evidence)
        if not self.id:
            self.id = self.make_id()

    def make_id(self) -> str:
        key = "|".join(
            [
                self.dimension,
                self.value,
                self.kind,
                str(self.polarity),
                self.scope,
                self.valid_from.isoformat(),
                ",".join(map(str, self.evidence)),
            ]
        )
        return "ev-" + hashlib.sha1(key.encode("utf-8")).hexdigest()[:12]

    def in_force(self, as_of: datetime) -> bool:
        """Within its validity window at ``as_of`` (supersession is the ledger's business)."""
        if self.valid_from > as_of:
            return False
        return self.valid_until is None or as_of < self.valid_until

    def to_dict(self) -> dict[str, Any]:
        rec = asdict(self)
        rec["valid_from"] = self.valid_from.isoformat()
        rec["valid_until"] = self.valid_until.isoformat() if self.valid_until else None
        rec["evidence"] = list(self.evidence)
        return rec

    @classmethod
    def from_dict(cls, rec: dict[str, Any]) -> PreferenceEvent:
        try:
            data = dict(rec)
            data["valid_from"] = parse_time(data["valid_from"])
            until = data.get("valid_until")
            data["valid_until"] = parse_time(until) if until else None
            data["evidence"] = tuple(data.get("evidence", ()))
            return cls(**data)
        except (KeyError, TypeError, ValueError) as exc:
            raise BadInput(f"not a preference event: {exc}") from exc


@dataclass
class _State:
    events: dict[str, PreferenceEvent] = field(default_factory=dict)
    watermark: int = 0
    ops: int = 0
    muted: set[int] = field(default_factory=set)


class PreferenceLedger:
    """Preference events of one user, persisted in ``folder``; queryable as of any date."""

    def __init__(
        self,
        folder: Path,
        *,
        readonly: bool = False,
        fsync: bool = True,
        hidden: Iterable[int] = (),
    ) -> None:
        self.folder = Path(folder)
        self.readonly = readonly
        # turns an unfinished forget committed to: a reader treats them as muted (memory.forget)
        self.hidden = frozenset(int(t) for t in hidden)
        self.fsync = fsync
        self._state: _State | None = None
        self._lock = threading.RLock()

    # -- loading ---------------------------------------------------------------------------
    @property
    def path(self) -> Path:
        return self.folder / LOG_NAME

    def _load(self) -> _State:
        if self._state is not None:
            return self._state
        with self._lock:
            if self._state is None:
                state = self._read()
                state.muted |= self.hidden
                self._state = state
        return self._state

    def _read(self) -> _State:
        state = _State()
        if not self.path.exists():
            return state
        if not self.readonly:
            clean_temporaries(self.folder)
        data = self.path.read_bytes()
        good_end = 0
        lines = data.split(b"\n")
        for number, line in enumerate(lines):
            last = number == len(lines) - 1
            if not line.strip():
                if not last:
                    good_end += len(line) + 1
                continue
            try:
                op = json.loads(line)
                if last:  # no newline after it: the write was torn even if it parses
                    raise ValueError("unterminated line")
                self._apply(state, op)
            except (ValueError, BadInput, KeyError, TypeError) as exc:
                if last:
                    break
                raise CorruptFile(f"{self.path}: line {number + 1} is damaged ({exc})") from exc
            good_end += len(line) + 1
        if good_end < len(data) and not self.readonly:
            with open(self.path, "r+b") as fh:
                fh.truncate(good_end)
                fh.flush()
                os.fsync(fh.fileno())
        return state

    @staticmethod
    def _apply(state: _State, op: dict[str, Any]) -> None:
        kind = op["op"]
        events = state.events
        state.ops += 1
        if kind == "add":
            event = PreferenceEvent.from_dict(op["event"])
            events.setdefault(event.id, event)
        elif kind == "supersede":
            if op["old"] in events and op["new"] in events:
                events[op["old"]].superseded_by = op["new"]
        elif kind == "pin":
            if op["id"] in events:
                events[op["id"]].pinned = bool(op.get("value", True))
        elif kind == "remove":
            PreferenceLedger._drop(events, {op["id"]})
        elif kind == "forget":
            forgotten = {int(t) for t in op["turns"]}
            gone = set()
            for event in events.values():
                if forgotten.intersection(event.evidence):
                    event.evidence = tuple(t for t in event.evidence if t not in forgotten)
                    if not event.evidence:
                        gone.add(event.id)
            PreferenceLedger._drop(events, gone)
        elif kind == "seen":
            state.watermark = max(state.watermark, int(op["upto"]))
        elif kind == "mute":
            state.muted |= {int(t) for t in op["turns"]}
        elif kind == "unmute":
            state.muted -= {int(t) for t in op["turns"]}
        else:
            raise ValueError(f"unknown operation {kind!r}")

    @staticmethod
    def _drop(events: dict[str, PreferenceEvent], ids: set[str]) -> None:
        for event_id in ids:
            events.pop(event_id, None)
        for event in events.values():
            if event.superseded_by in ids:
                event.superseded_by = None

    # -- writing ---------------------------------------------------------------------------
    def _append(self, ops: list[dict[str, Any]]) -> None:
        if self.readonly:
            raise StoreLocked("the preference ledger is open read-only")
        if not ops:
            return
        state = self._load()
        payload = b"".join(json.dumps(op, ensure_ascii=False).encode("utf-8") + b"\n" for op in ops)
        self.folder.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
        try:
            view = memoryview(payload)
            while view:
                view = view[os.write(fd, view) :]
            if self.fsync:
                os.fsync(fd)
        finally:
            os.close(fd)
        for op in ops:
            self._apply(state, op)

    def add(self, event: PreferenceEvent) -> PreferenceEvent:
        return self.add_many([event])[0]

    def add_many(self, events: Iterable[PreferenceEvent]) -> list[PreferenceEvent]:
        """Append events (one fsync for the batch); an event already present is kept as is."""
        with self._lock:
            state = self._load()
            new: list[PreferenceEvent] = []
            out: list[PreferenceEvent] = []
            seen: set[str] = set()
            for event in events:
                if event.id in state.events:
                    out.append(state.events[event.id])
                elif event.id not in seen:
                    seen.add(event.id)
                    new.append(event)
                    out.append(event)
            ops: list[dict[str, Any]] = [{"op": "add", "event": e.to_dict()} for e in new]
            ops += [{"op": "supersede", "old": e.id, "new": e.superseded_by} for e in new if e.superseded_by]
            self._append(ops)
            return [state.events.get(e.id, e) for e in out]

    def supersede(self, old_id: str, new_id: str) -> bool:
        """Mark ``old_id`` as replaced by ``new_id``; a pinned event is never superseded."""
        with self._lock:
            old, _ = self.get(old_id), self.get(new_id)
            if old.pinned or old.superseded_by == new_id or old_id == new_id:
                return False
            self._append([{"op": "supersede", "old": old_id, "new": new_id}])
            return True

    def pin(self, event_id: str, value: bool = True) -> None:
        with self._lock:
            self.get(event_id)
            self._append([{"op": "pin", "id": event_id, "value": value}])

    def remove(self, event_id: str) -> None:
        """Remove an event for good: the log is rewritten without it."""
        with self._lock:
            self._writable()
            self.get(event_id)
            self._apply(self._load(), {"op": "remove", "id": event_id})
            self.compact()

    def forget_turns(self, turn_ids: Iterable[int], texts: Iterable[str] = ()) -> int:
        """Drop forgotten turns from every event's evidence; events left with none are removed.

        An event kept on other evidence loses its ``subject`` when those words came from a
        forgotten text. The log is then rewritten, so the forgotten words are on disk nowhere.
        Returns how many events were removed.
        """
        with self._lock:
            ids = sorted({int(t) for t in turn_ids})
            if not ids:
                return 0
            self._writable()
            state = self._load()
            before = len(state.events)
            touched = [e for e in state.events.values() if set(ids).intersection(e.evidence)]
            self._apply(state, {"op": "forget", "turns": ids})
            said = [" ".join(t.split()).casefold() for t in texts if t.strip()]
            for event in touched:
                if event.id in state.events and _quotes(event, said):
                    event.subject = ""
                    event.reason = ""
            state.muted -= set(ids)
            self.compact()
            return before - len(state.events)

    def mute_turns(self, turn_ids: Iterable[int], muted: bool = True) -> None:
        """Leave these turns out of every query (``muted=False`` takes them back)."""
        with self._lock:
            ids = sorted({int(t) for t in turn_ids})
            if ids:
                self._append([{"op": "mute" if muted else "unmute", "turns": ids}])

    @property
    def muted_turns(self) -> frozenset[int]:
        return frozenset(self._load().muted)

    def _writable(self) -> None:
        if self.readonly:
            raise StoreLocked("the preference ledger is open read-only")

    def mark_seen(self, upto_turn_id: int) -> None:
        """Record that turns up to this id have been through extraction."""
        with self._lock:
            if upto_turn_id > self._load().watermark:
                self._append([{"op": "seen", "upto": int(upto_turn_id)}])

    def compact(self) -> None:
        """Rewrite the log as the current state (atomic rename)."""
        with self._lock:
            if self.readonly:
                raise StoreLocked("the preference ledger is open read-only")
            state = self._load()
            ops: list[dict[str, Any]] = []
            for event in state.events.values():
                rec = event.to_dict()
                rec["superseded_by"] = None
                ops.append({"op": "add", "event": rec})
            ops += [
                {"op": "supersede", "old": e.id, "new": e.superseded_by}
                for e in state.events.values()
                if e.superseded_by
            ]
            ops += [{"op": "pin", "id": e.id, "value": True} for e in state.events.values() if e.pinned]
            if state.watermark:
                ops.append({"op": "seen", "upto": state.watermark})
            if state.muted:
                ops.append({"op": "mute", "turns": sorted(state.muted)})
            self.folder.mkdir(parents=True, exist_ok=True)
            atomic_write_bytes(
                self.path, b"".join(json.dumps(op).encode("utf-8") + b"\n" for op in ops), fsync=self.fsync
            )
            os.chmod(self.path, 0o600)
            state.ops = len(ops)

    # -- reading ---------------------------------------------------------------------------
    @property
    def watermark(self) -> int:
        return self._load().watermark

    def get(self, event_id: str) -> PreferenceEvent:
        event = self._load().events.get(event_id)
        if event is None:
            raise NotFound(f"no preference event {event_id!r}")
        return event

    def all(self, *, muted: bool = False) -> list[PreferenceEvent]:
        """Every event, superseded ones included, oldest first; muted evidence left out
        (``muted=True``: as stored, muted turns and the events resting on them included)."""
        state = self._load()
        events = state.events.values()
        if state.muted and not muted:
            events = [kept for e in events if (kept := _unmuted(e, state.muted)) is not None]
        return sorted(events, key=lambda e: (e.valid_from, e.id))

    def is_superseded(self, event: PreferenceEvent, as_of: datetime) -> bool:
        """True if a replacing event already existed at ``as_of``."""
        if event.pinned or not event.superseded_by:
            return False
        state = self._load()
        newer = state.events.get(event.superseded_by)
        if newer is not None and state.muted and _unmuted(newer, state.muted) is None:
            return False  # what replaced it is muted: the older words count again
        return newer is not None and newer.valid_from <= as_of

    def active(self, as_of: datetime, *, dimensions: Iterable[str] | None = None) -> list[PreferenceEvent]:
        """Events in force at ``as_of``: started, not ended, not yet superseded, not ignored."""
        wanted = set(dimensions) if dimensions is not None else None
        return [
            e
            for e in self.all()
            if e.kind != "ignored"
            and (wanted is None or e.dimension in wanted)
            and e.in_force(as_of)
            and not self.is_superseded(e, as_of)
        ]

    def by_dimension(self, as_of: datetime | None = None) -> dict[str, list[PreferenceEvent]]:
        """Events grouped by dimension; only those active at ``as_of`` when it is given."""
        events = self.all() if as_of is None else self.active(as_of)
        out: dict[str, list[PreferenceEvent]] = {}
        for event in events:
            out.setdefault(event.dimension, []).append(event)
        return out

    def __len__(self) -> int:
        return len(self._load().events)

    def close(self) -> None:
        with self._lock:
            self._state = None


def _unmuted(event: PreferenceEvent, muted: set[int]) -> PreferenceEvent | None:
    """The event as seen without muted turns: None if it rests on them alone."""
    if not muted.intersection(event.evidence):
        return event
    left = tuple(t for t in event.evidence if t not in muted)
    return replace(event, evidence=left) if left else None


def _quotes(event: PreferenceEvent, said: list[str]) -> bool:
    """Whether the event's displayed words come from one of these (normalised) texts."""
    for words in (event.subject, event.reason):
        norm = " ".join(words.split()).casefold()
        if norm and any(norm in text or text in norm for text in said):
            return True
    return False


def copy_event(event: PreferenceEvent, **changes: Any) -> PreferenceEvent:
    """A changed copy with a fresh id (ids hash the event's content)."""
    return replace(event, id="", **changes)
