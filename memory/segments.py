"""Segment files: small TinyDB databases written crash-safely.

TinyDB's own JSON storage re-reads and rewrites the whole file on every insert, so
its cost grows with the store. Here the store is split into segments of bounded
size; only the newest (active) segment is ever appended to, so one insert costs
the same at 1k turns as at 100k. Each write goes through :class:`AtomicJSONStorage`:
serialise, write a temporary file, fsync, rename. A SIGKILL at any instant leaves
either the previous or the new segment, never a torn one.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from tinydb import TinyDB
from tinydb.storages import Storage

from memory.atomic import atomic_write_bytes
from memory.errors import CorruptFile
from memory.integrity import check_record, turns_crc

TURNS = "turns"
META = "meta"


class AtomicJSONStorage(Storage):
    """A TinyDB storage that keeps the data in memory and replaces the file atomically.

    ``read`` parses the file once and then serves the cached tables; ``write``
    serialises the whole segment (segments are small) to a temporary file, fsyncs
    and renames it. If a write fails the cache is dropped, so memory never claims
    more than the disk holds.
    """

    def __init__(
        self, path: str | os.PathLike[str], *, fsync: bool = True, moves_to: Path | None = None
    ) -> None:
        self.path = Path(path)
        self.fsync = fsync
        self.moves_to = moves_to  # where a committed import's segment goes next (see memory.staging)
        self._cache: dict[str, dict[str, Any]] | None = None
        self.bytes_on_disk = 0

    def locate(self) -> Path:
        """The file's path now: a segment a reader found in a committed import folder may have
        been moved up into the store folder since."""
        if self.moves_to is not None and not self.path.exists() and self.moves_to.exists():
            self.path, self.moves_to = self.moves_to, None
        return self.path

    def read(self) -> dict[str, dict[str, Any]] | None:
        if self._cache is None:
            try:
                raw = self.locate().read_bytes()
            except FileNotFoundError:
                return None
            self.bytes_on_disk = len(raw)
            if not raw:
                return None
            try:
                data = json.loads(raw)
            except (json.JSONDecodeError, UnicodeDecodeError, RecursionError) as exc:
                reason = "unreadable" if raw.rstrip().endswith(b"}") else "truncated"
                raise CorruptFile(f"segment {self.path.name} is {reason}") from exc
            problem = None if _as_written(raw, data) else _problem(data)
            if problem:
                raise CorruptFile(f"segment {self.path.name}: {problem}")
            self._cache = data
        return self._cache

    def write(self, data: dict[str, dict[str, Any]]) -> None:
        # the turns table is serialised once: its crc32 goes into the meta table, checked on read
        turns = _dumps(data.get(TURNS, {}))
        meta = dict(data.get(META, {}))
        meta["1"] = {**meta.get("1", {}), "crc32": turns_crc(turns)}
        data = {**data, META: meta}
        parts = [b'"turns":' + turns] + [
            _dumps(name) + b":" + _dumps(table) for name, table in data.items() if name != TURNS
        ]
        payload = b"{" + b",".join(parts) + b"}"
        try:
            atomic_write_bytes(self.path, payload, fsync=self.fsync)
        except BaseException:
            self._cache = None
            raise
        self._cache = data
        self.bytes_on_disk = len(payload)


def _dumps(value: Any) -> bytes:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def _as_written(raw: bytes, data: Any) -> bool:
    """The file holds the very bytes ``write`` produced, and its turns table the bytes its checksum was
    taken of: every record in it was checked when it was written (the store validates what comes in),
    so reading it needs no second check of each record. Anything else (a file written otherwise, an
    older segment without a checksum, a changed byte) is checked record by record (``_problem``)."""
    if not isinstance(data, dict) or not isinstance(data.get(TURNS), dict):
        return False
    head = data.get(META, {}).get("1") if isinstance(data.get(META), dict) else None
    if not isinstance(head, dict) or not isinstance(head.get("crc32"), int):
        return False
    prefix = b'{"turns":'
    names = list(data)
    if not raw.startswith(prefix) or names[:1] != [TURNS]:
        return False
    suffix = b"".join(b"," + _dumps(name) + b":" + _dumps(data[name]) for name in names[1:]) + b"}"
    if not raw.endswith(suffix) or len(raw) < len(prefix) + len(suffix):
        return False
    return turns_crc(raw[len(prefix) : len(raw) - len(suffix)]) == head["crc32"]


def _problem(data: Any) -> str | None:
    """Why parsed segment data is damaged (bad shape, a bad record, a failed checksum), or None."""
    if not isinstance(data, dict) or not isinstance(data.get(TURNS, {}), dict):
        return "not a segment (no turns table)"
    turns = data.get(TURNS, {})
    for key, rec in turns.items():
        if not key.isdigit():
            return f"turn id {key[:20]!r} is not a number"
        problem = check_record(key, rec)
        if problem:
            return problem
    meta = data.get(META, {})
    head = meta.get("1", {}) if isinstance(meta, dict) else {}
    if not isinstance(head, dict):
        return "its meta table is damaged"
    if "crc32" in head and head["crc32"] != turns_crc(_dumps(turns)):
        return "fails its checksum"
    return None


class Segment:
    """One segment file: a TinyDB with a ``turns`` table (doc id = turn id) and ``meta``."""

    def __init__(self, path: Path, *, fsync: bool = True, moves_to: Path | None = None) -> None:
        self.storage = AtomicJSONStorage(path, fsync=fsync, moves_to=moves_to)
        self.db = TinyDB(storage=lambda: self.storage)  # TinyDB wants a factory
        self.turns = self.db.table(TURNS, cache_size=0)
        self.meta = self.db.table(META, cache_size=0)
        self._records: dict[int, dict[str, Any]] | None = None
        self._records_of: object = None  # the raw table the cached records were built from

    @property
    def path(self) -> Path:
        return self.storage.locate()

    @property
    def name(self) -> str:
        return self.storage.path.name

    def release(self) -> None:
        """Drop the parsed contents (read again on next use): keeps a long pass over a big store
        from holding every segment in memory."""
        self.storage._cache = None
        self._records = None
        self._records_of = None

    def records(self) -> dict[int, dict[str, Any]]:
        """Raw records by turn id (no copies), rebuilt only after the segment changed."""
        tables = self.storage.read() or {}
        turns = tables.get(TURNS, {})
        if self._records is None or self._records_of is not turns:
            self._records = {int(k): v for k, v in turns.items()}
            self._records_of = turns
        return self._records

    def count(self) -> int:
        tables = self.storage.read() or {}
        return len(tables.get(TURNS, {}))

    def high_water(self) -> int:
        """The highest turn id ever assigned in this segment (kept across deletions)."""
        tables = self.storage.read() or {}
        meta = tables.get(META, {}).get("1", {})
        ids = [int(k) for k in tables.get(TURNS, {})]
        return max([int(meta.get("high_water", 0)), *ids]) if ids or meta else 0

    def insert_many(self, records: list[dict[str, Any]]) -> None:
        """Insert records (each with an ``id``) in ONE atomic write, with the high-water mark."""
        if not records:
            return
        top = max(int(r["id"]) for r in records)

        def update(tables: dict[str, dict[str, Any]] | None) -> dict[str, dict[str, Any]]:
            tables = dict(tables or {})
            turns = dict(tables.get(TURNS, {}))
            for rec in records:
                turns[str(int(rec["id"]))] = {k: v for k, v in rec.items() if k != "id"}
            tables[TURNS] = turns
            meta = dict(tables.get(META, {}).get("1", {}))
            meta["high_water"] = max(int(meta.get("high_water", 0)), top)
            tables[META] = {"1": meta}
            return tables

        self.storage.write(update(self.storage.read()))
        self.turns.clear_cache()

    def remove(self, ids: list[int]) -> int:
        present = [i for i in ids if self.turns.contains(doc_id=i)]
        if present:
            self.turns.remove(doc_ids=present)
        return len(present)

    def update(self, turn_id: int, fields: dict[str, Any]) -> None:
        self.turns.update(fields, doc_ids=[turn_id])

    def size(self) -> int:
        try:
            return self.path.stat().st_size
        except FileNotFoundError:
            return 0

    def stat(self) -> os.stat_result | None:
        try:
            return self.path.stat()
        except FileNotFoundError:
            return None
