"""Import many turns at once: skip what the store holds, embed through the cache, commit atomically."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from memory.store import TurnStore
from memory.types import parse_time

if TYPE_CHECKING:
    from memory.memory import Memory, Progress

NEVER_USE = "never_use"


def import_turns(
    mem: Memory, records: Iterable[dict[str, Any]], progress: Progress | None = None
) -> dict[str, int]:
    """Add many turns as one transaction, skipping turns the store already holds.

    A turn is already held when its session, role, instant and text match one in the store
    (or earlier in ``records``), so importing a file twice, or again after a kill, adds
    nothing twice. Texts are embedded through the cache before anything is stored, so a run
    cut short resumes where it stopped; the turns then become visible in one atomic step
    (:meth:`TurnStore.add_atomic`) and are indexed. Returns imported/skipped/cached counts.
    """
    clean = [TurnStore.normalise(r) for r in records]
    seen = {_turn_key(rec) for _, rec in mem.store.iter_records()}
    fresh: list[dict[str, Any]] = []
    for rec in clean:
        key = _turn_key(rec)
        if key not in seen:
            seen.add(key)
            fresh.append(rec)
    usable = [i for i, rec in enumerate(fresh) if NEVER_USE not in rec.get("flags", ())]
    if usable:
        mem._indexes(progress)  # brought up to date with the store as it is before the import
    texts = [fresh[i]["text"] for i in usable]
    cached = sum(v is not None for v in mem.cache.get_many(texts)) if texts else 0
    chunks = []
    step = 256
    for start in range(0, len(texts), step):
        chunks.append(mem.cache.embed_with(mem.embedder, texts[start : start + step]))
        if progress:
            progress("embedding", min(start + step, len(texts)), len(texts))
    turns = mem.store.add_atomic(fresh, progress)
    if usable:
        import numpy as np

        vectors, lexical = mem._indexes()
        ids = [turns[i].id for i in usable]
        from memory.embedcache import text_key

        vectors.add(ids, np.concatenate(chunks), [text_key(t) for t in texts])
        lexical.add(ids, texts)
        mem.save_indexes()
    return {"imported": len(turns), "skipped": len(clean) - len(fresh), "cached": cached}


def _turn_key(rec: dict[str, Any]) -> bytes:
    """What makes two turns the same for import: session, role, instant and text."""
    instant = repr(parse_time(rec["time"]).timestamp())
    raw = "\x00".join((str(rec["session_id"]), rec["role"], instant, rec["text"]))
    return hashlib.blake2b(raw.encode("utf-8", "surrogatepass"), digest_size=16).digest()
