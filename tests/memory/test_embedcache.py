"""EmbeddingCache: hits and misses, persistence, torn tails, forgetting, safe file names."""

from __future__ import annotations

import hashlib
import os
from collections.abc import Sequence

import numpy as np
import pytest

from memory.embedcache import EmbeddingCache, cache_file_name, text_key
from memory.embedders.base import Embedder
from memory.errors import BadInput, CorruptFile

NDIM = 12


class CountingEmbedder(Embedder):
    """Deterministic: a text's vector comes from its hash. Records every batch it embeds."""

    model_id = "test/counting:v1"
    ndim = NDIM

    def __init__(self) -> None:
        self.batches: list[list[str]] = []

    def embed_batch(self, texts: Sequence[str]) -> np.ndarray:
        self.batches.append(list(texts))
        out = np.empty((len(texts), self.ndim), dtype=np.float32)
        for i, text in enumerate(texts):
            seed = int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "little")
            v = np.random.default_rng(seed).standard_normal(self.ndim)
            out[i] = v / np.linalg.norm(v)
        return out


def test_construct_reads_nothing_and_names_are_safe(tmp_path):
    cache = EmbeddingCache(tmp_path / "cache", "hf:BAAI/bge-m3", 1024)
    assert not (tmp_path / "cache").exists()
    name = cache.path.name
    assert "/" not in name and ":" not in name and name.endswith("-1024d.emb")
    assert cache_file_name("a/b", 4) != cache_file_name("a_b", 4)
    assert cache_file_name("../../etc", 4).startswith("etc-")
    assert len(text_key("x")) == 16 and text_key("x") != text_key("y")
    assert text_key("\ud800 lone surrogate") != text_key("")


def test_embed_with_counts_and_embeds_each_text_once(tmp_path):
    embedder = CountingEmbedder()
    cache = EmbeddingCache(tmp_path, embedder.model_id, NDIM)
    out = cache.embed_with(embedder, ["a", "b", "a", "c"])
    assert embedder.batches == [["a", "b", "c"]]
    np.testing.assert_array_equal(out[0], out[2])
    np.testing.assert_array_equal(out, embedder.embed_batch(["a", "b", "a", "c"]))
    assert cache.stats == {"hits": 0, "misses": 4} and len(cache) == 3
    embedder.batches.clear()
    again = cache.embed_with(embedder, ["c", "d", "a"])
    assert embedder.batches == [["d"]]
    assert cache.stats == {"hits": 2, "misses": 5}
    np.testing.assert_array_equal(again[0], out[3])
    assert cache.embed_with(embedder, []).shape == (0, NDIM)


def test_persists_across_instances(tmp_path):
    embedder = CountingEmbedder()
    first = EmbeddingCache(tmp_path, embedder.model_id, NDIM)
    vecs = first.embed_with(embedder, [f"text {i}" for i in range(50)])
    assert oct(first.path.stat().st_mode & 0o777) == "0o600"
    second = EmbeddingCache(tmp_path, embedder.model_id, NDIM)
    got = second.get_many([f"text {i}" for i in range(50)] + ["never seen"])
    assert got[-1] is None
    np.testing.assert_array_equal(np.stack(got[:-1]), vecs)
    assert second.stats == {"hits": 50, "misses": 1}
    other_model = EmbeddingCache(tmp_path, "another-model", NDIM)
    assert other_model.get_many(["text 1"]) == [None]


def test_torn_tail_is_truncated_and_appending_continues(tmp_path):
    embedder = CountingEmbedder()
    cache = EmbeddingCache(tmp_path, embedder.model_id, NDIM)
    cache.embed_with(embedder, ["one", "two"])
    before = cache.path.stat().st_size
    cache.embed_with(embedder, ["three"])
    good_size = cache.path.stat().st_size
    block = cache.path.read_bytes()[before:]  # one whole block: a kill mid-write leaves a prefix
    for tail in (os.urandom(37), block[:-5], b"EBK1" + os.urandom(200)):
        with open(cache.path, "ab") as f:
            f.write(tail)
        reopened = EmbeddingCache(tmp_path, embedder.model_id, NDIM)
        assert len(reopened) == 3
        assert cache.path.stat().st_size == good_size  # the tail was cut off on open
    reopened.embed_with(embedder, ["four"])
    assert len(EmbeddingCache(tmp_path, embedder.model_id, NDIM)) == 4


def test_corrupt_middle_block_keeps_the_good_prefix(tmp_path):
    embedder = CountingEmbedder()
    cache = EmbeddingCache(tmp_path, embedder.model_id, NDIM)
    cache.embed_with(embedder, ["one"])
    size = cache.path.stat().st_size
    cache.embed_with(embedder, ["two"])
    data = bytearray(cache.path.read_bytes())
    data[size + 20] ^= 0x01  # flip a bit inside the second block's vector
    cache.path.write_bytes(bytes(data))
    reopened = EmbeddingCache(tmp_path, embedder.model_id, NDIM)
    assert reopened.get_many(["one", "two"])[1] is None and len(reopened) == 1


def test_forget_texts_really_removes(tmp_path):
    embedder = CountingEmbedder()
    cache = EmbeddingCache(tmp_path, embedder.model_id, NDIM)
    cache.embed_with(embedder, ["keep me", "my secret address", "also keep"])
    secret = embedder.embed_batch(["my secret address"])[0].tobytes()
    assert secret in cache.path.read_bytes()
    assert cache.forget_texts(["my secret address", "unknown"]) == 1
    assert secret not in cache.path.read_bytes()
    assert text_key("my secret address") not in cache.path.read_bytes()
    assert cache.get_many(["my secret address"]) == [None]
    reopened = EmbeddingCache(tmp_path, embedder.model_id, NDIM)
    assert len(reopened) == 2 and reopened.get_many(["my secret address"]) == [None]
    np.testing.assert_array_equal(reopened.get_many(["also keep"])[0], embedder.embed(["also keep"][0]))
    assert cache.forget_texts(["nothing"]) == 0
    assert cache.forget_texts(["keep me", "also keep"]) == 2 and len(cache) == 0
    assert len(EmbeddingCache(tmp_path, embedder.model_id, NDIM)) == 0


def test_bad_input_and_foreign_files(tmp_path):
    cache = EmbeddingCache(tmp_path, "m", NDIM)
    with pytest.raises(BadInput):
        cache.put_many(["a"], np.ones((1, NDIM + 1)))
    with pytest.raises(BadInput):
        cache.put_many(["a", "b"], np.ones((1, NDIM)))
    with pytest.raises(BadInput):
        cache.put_many(["a"], np.full((1, NDIM), np.nan))

    class Broken(CountingEmbedder):
        def embed_batch(self, texts: Sequence[str]) -> np.ndarray:
            return np.ones((len(texts), 3), dtype=np.float32)

    with pytest.raises(BadInput):
        cache.embed_with(Broken(), ["x"])
    assert len(cache) == 0
    cache.path.write_bytes(b"definitely not a cache")
    with pytest.raises(CorruptFile):
        len(EmbeddingCache(tmp_path, "m", NDIM))


def test_a_backing_index_answers_what_the_file_dropped(tmp_path):
    from memory.vector import VectorIndex

    embedder = CountingEmbedder()
    index = VectorIndex(NDIM, storage="f32")
    cache = EmbeddingCache(tmp_path, embedder.model_id, NDIM, backing=index)
    texts = [f"line {i}" for i in range(20)]
    vecs = cache.embed_with(embedder, texts)
    index.add(range(10), vecs[:10], [text_key(t) for t in texts[:10]])  # half of them indexed
    size = cache.path.stat().st_size
    assert cache.compact(index.has_tag) == 10 and cache.own_len() == 10 and len(cache) == 20
    assert cache.path.stat().st_size < size * 0.6  # the indexed half left the file
    again = EmbeddingCache(tmp_path, embedder.model_id, NDIM, backing=index)
    np.testing.assert_array_equal(np.stack(again.get_many(texts)), vecs)  # nothing lost
    assert len(embedder.batches) == 1
    alone = EmbeddingCache(tmp_path, embedder.model_id, NDIM)  # without the index: only the rest
    assert [v is None for v in alone.get_many(texts)] == [True] * 10 + [False] * 10
