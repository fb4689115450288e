"""One copy of each vector on disk: the index holds indexed texts' vectors, the cache the rest.

Nothing may be lost for it: a reindex, an embedder switch and back, un-marking a "never
use" turn and a restart all find their vectors without embedding a text twice.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import numpy as np

from memory.embedcache import text_key
from memory.embedders.hashing import HashEmbedder
from memory.memory import Memory

T0 = datetime(2026, 3, 1, 8, tzinfo=UTC)
NDIM = 64


class Counting(HashEmbedder):
    """The hash embedder, counting the texts it is asked to embed."""

    def __init__(self, ndim: int = NDIM) -> None:
        super().__init__(ndim)
        self.embedded: list[str] = []

    def embed_batch(self, texts):
        self.embedded.extend(texts)
        return super().embed_batch(texts)


def records(n: int, start: int = 0) -> list[dict]:
    return [
        {
            "session_id": f"s{i // 10}",
            "role": "user" if i % 2 == 0 else "assistant",
            "text": f"note {i} about the {('garden', 'invoice', 'flight', 'piano')[i % 4]} plan",
            "time": T0 + timedelta(minutes=i),
        }
        for i in range(start, start + n)
    ]


def vector_bytes_on_disk(home: Path) -> int:
    return sum(p.stat().st_size for sub in ("index", "cache") for p in (home / sub).rglob("*") if p.is_file())


def test_each_vector_is_on_disk_once(tmp_path):
    home = tmp_path / "home"
    n = 600
    with Memory.open(home, embedder=Counting()) as mem:
        mem.prepare()
        mem.add_turns(records(n))
        assert mem.cache.own_len() == n  # not saved in the index yet: the cache is the journal
    with Memory.open(home, embedder=Counting()) as mem:
        assert mem.cache.own_len() == 0 and len(mem.cache) == n  # all found through the index
    one_copy = n * NDIM * 2  # float16
    assert vector_bytes_on_disk(home) < 1.5 * one_copy  # the old layout kept 3x (f32 cache + f32 index)


def test_reindex_embedder_switch_and_restart_embed_nothing_twice(tmp_path):
    home = tmp_path / "home"
    first = Counting()
    with Memory.open(home, embedder=first) as mem:
        mem.add_turns(records(300))
        before = mem.vectors([1, 150, 300])
    assert len(first.embedded) == 300
    again = Counting()
    with Memory.open(home, embedder=again) as mem:
        assert mem.reindex()["vectors"] == 300
        np.testing.assert_allclose(mem.vectors([1, 150, 300]), before, atol=1e-3)
    assert again.embedded == []
    other = Counting(32)  # another model: its own vectors
    with Memory.open(home, embedder=other) as mem:
        mem.add_turns(records(20, start=300))
        assert len(mem.search("garden plan", 5, mode="dense")) == 5
    assert len(other.embedded) == 320 + 1  # every turn, and the query
    back = Counting()
    with Memory.open(home, embedder=back) as mem:
        assert len(mem.search("garden plan", 5, mode="dense")) == 5
        assert mem.last_reconcile["added_vectors"] == 20
    assert back.embedded == [r["text"] for r in records(20, start=300)] + ["garden plan"]  # new turns
    last = Counting()
    with Memory.open(home, embedder=last) as mem:
        mem.reindex()
        assert len(mem.vectors(range(1, 321))) == 320
    assert last.embedded == []


def test_unmarking_never_use_and_repeating_a_text_do_not_embed_again(tmp_path):
    home = tmp_path / "home"
    with Memory.open(home, embedder=Counting()) as mem:
        turns = mem.add_turns(records(50))
        mem.set_never_use(turns[7].id)
    emb = Counting()
    with Memory.open(home, embedder=emb) as mem:
        mem.set_never_use(turns[7].id, False)
        assert mem.search(turns[7].text, 1, mode="dense")[0].id == turns[7].id
        mem.add_turn("s9", "user", turns[3].text)  # a text the index already holds
    assert emb.embedded == []


def test_an_index_file_from_before_tags_is_tagged_and_the_cache_then_compacted(tmp_path):
    """A store written by the previous layout (untagged index, full cache) migrates in place."""
    from memory.vector import VectorIndex

    home = tmp_path / "home"
    with Memory.open(home, embedder=Counting()) as mem:
        mem.add_turns(records(100))
        vec_path = mem._index_paths()[0]
    index = VectorIndex.load(vec_path, NDIM)
    index._tags[:] = np.void(bytes(16))  # what an old file gives: no tags
    index.save(vec_path)
    with Memory.open(home, embedder=Counting()) as mem:  # the old cache still holds every vector
        mem.add_turns(records(100))  # any writer: a store written before still has them cached
    emb = Counting()
    with Memory.open(home, embedder=emb) as mem:
        vectors, _ = mem._indexes()
        assert vectors.untagged_ids() == [] and vectors.has_tag(text_key(records(1)[0]["text"]))
        assert mem.cache.own_len() == 0
    assert emb.embedded == []


def test_a_shared_cache_folder_keeps_every_vector(tmp_path):
    shared = tmp_path / "shared-cache"
    with Memory.open(tmp_path / "a", embedder=Counting(), cache_dir=shared) as mem:
        mem.add_turns(records(40))
    with Memory.open(tmp_path / "a", embedder=Counting(), cache_dir=shared) as mem:
        assert mem.cache.own_len() == 40  # another store built on it needs them
    emb = Counting()
    with Memory.open(tmp_path / "b", embedder=emb, cache_dir=shared) as mem:
        mem.add_turns(records(40))
    assert emb.embedded == []
