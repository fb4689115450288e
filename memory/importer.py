"""Import many turns at once: streamed, deduplicated, embedded into the cache, committed atomically.

Memory stays bounded whatever the size of the file: records are read, checked and written
one segment at a time (:meth:`TurnStore.add_atomic`), and what is kept per turn is a 16-byte
key (to skip turns already held) and the embedding cache's 16-byte key of its text. The
vectors go to the cache file as each segment is written, not into memory; the indexes are
brought up to date from the cache the next time they are used (the store's state token has
changed), so a kill at any point loses nothing already embedded.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Any

from memory.store import TurnStore
from memory.types import parse_time

if TYPE_CHECKING:
    from memory.memory import Memory

NEVER_USE = "never_use"
EMBED_BATCH = 256


def import_turns(mem: Memory, records: Iterable[dict[str, Any]]) -> dict[str, Any]:
    """Add many turns as one transaction, skipping turns the store already holds.

    A turn is already held when its session, role, instant and text match one in the store
    (or earlier in ``records``), so importing a file twice, or again after a kill, adds
    nothing twice. ``records`` may be a generator; an error it raises (a bad line) leaves
    the store as it was. Texts are embedded through the cache as their segment is staged,
    so a run cut short resumes where it stopped; the turns then become visible in one
    atomic step. Returns imported/skipped/cached counts and the new turns' ``ids`` (a range).
    """
    seen = {_turn_key(rec) for _, rec in mem.store.iter_records(release=True)}
    counts = {"skipped": 0, "cached": 0}

    def fresh() -> Iterator[dict[str, Any]]:
        for rec in records:
            rec = TurnStore.normalise(rec)
            key = _turn_key(rec)
            if key in seen:
                counts["skipped"] += 1
                continue
            seen.add(key)
            yield rec

    def embed(batch: list[dict[str, Any]]) -> None:
        texts = [r["text"] for r in batch if NEVER_USE not in r.get("flags", ())]
        for start in range(0, len(texts), EMBED_BATCH):
            part = texts[start : start + EMBED_BATCH]
            counts["cached"] += mem.cache.embed_to_file(mem.embedder, part)

    ids = mem.store.add_atomic(fresh(), on_segment=embed, normalised=True)
    return {"imported": len(ids), "skipped": counts["skipped"], "cached": counts["cached"], "ids": ids}


def _turn_key(rec: dict[str, Any]) -> bytes:
    """What makes two turns the same for import: session, role, instant and text."""
    instant = repr(parse_time(rec["time"]).timestamp())
    raw = "\x00".join((str(rec["session_id"]), rec["role"], instant, rec["text"]))
    return hashlib.blake2b(raw.encode("utf-8", "surrogatepass"), digest_size=16).digest()
