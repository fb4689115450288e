"""VectorIndex: exact and HNSW search, filters, files, and saving under SIGKILL."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import numpy as np
import pytest

from memory.atomic import TMP_MARK
from memory.errors import BadInput, CorruptFile, NotFound
from memory.vector import VectorIndex

ROOT = Path(__file__).resolve().parents[2]


def unit(n: int, d: int, seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((n, d)).astype(np.float32)
    return x / np.linalg.norm(x, axis=1, keepdims=True)


def clustered(n: int, d: int, seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    centers = rng.standard_normal((20, d)).astype(np.float32)
    x = centers[rng.integers(0, 20, n)] + 0.5 * rng.standard_normal((n, d)).astype(np.float32)
    return x / np.linalg.norm(x, axis=1, keepdims=True)


def brute(x: np.ndarray, ids: np.ndarray, q: np.ndarray, k: int) -> list[int]:
    sims = (x @ q) / (np.linalg.norm(x, axis=1) * np.linalg.norm(q))
    return [int(ids[i]) for i in np.argsort(-sims, kind="stable")[:k]]


def test_add_search_remove_exact():
    x = unit(300, 16)
    ids = np.arange(1000, 1300)
    index = VectorIndex(16)
    assert not index.dirty and len(index) == 0
    index.add(ids, x)
    assert index.dirty and len(index) == 300 and 1005 in index and 5 not in index
    hits = index.search(x[7], 5)
    assert hits[0].id == 1007 and hits[0].score == pytest.approx(1.0, abs=1e-5)
    assert [h.id for h in hits] == brute(x, ids, x[7], 5)
    assert all(a.score >= b.score for a, b in zip(hits, hits[1:]))
    assert index.remove([1007, 1007, 42]) == 1
    assert 1007 not in index and len(index) == 299
    assert all(h.id != 1007 for h in index.search(x[7], 299))
    assert sorted(index.ids().tolist()) == sorted(set(ids.tolist()) - {1007})


def test_readd_replaces_and_last_wins_within_a_call():
    x = unit(10, 8)
    index = VectorIndex(8)
    index.add(range(10), x)
    index.add([3], x[9:10] * 2.0)
    assert len(index) == 10
    np.testing.assert_array_equal(index.get_vectors([3]), x[9:10] * 2.0)
    index.add([4, 4], np.stack([x[0], x[1]]))
    np.testing.assert_array_equal(index.get_vectors([4])[0], x[1])
    assert len(index) == 10


def test_k_larger_than_len_empty_and_bad_input():
    index = VectorIndex(4)
    assert index.search(np.ones(4), 5) == []
    index.add([1, 2], np.eye(4, dtype=np.float32)[:2])
    assert [h.id for h in index.search(np.array([1, 0, 0, 0]), 50)] == [1, 2]
    assert index.search(np.ones(4), 0) == []
    with pytest.raises(BadInput):
        index.add([1], np.ones((1, 5)))
    with pytest.raises(BadInput):
        index.add([1, 2], np.ones((1, 4)))
    with pytest.raises(BadInput):
        index.add([-1], np.ones((1, 4)))
    with pytest.raises(BadInput):
        index.search(np.ones(3))
    with pytest.raises(NotFound):
        index.get_vectors([99])
    with pytest.raises(BadInput):
        VectorIndex(4, metric="l2")


def test_exact_and_hnsw_agree_on_small_data():
    x = clustered(2000, 32)
    ids = np.arange(2000) * 3
    index = VectorIndex(32, hnsw_threshold=500)
    index.add(ids, x)
    queries = clustered(20, 32, seed=1)
    index.search(queries[0], 10, exact=True)
    assert not index.has_graph  # exact search never builds the graph
    overlap = []
    for q in queries:
        exact = index.search(q, 10, exact=True)
        approx = index.search(q, 10)  # over the threshold: HNSW
        assert [h.id for h in exact] == brute(x, ids, q, 10)
        overlap.append(len({h.id for h in exact} & {h.id for h in approx}) / 10)
        for h in approx:  # HNSW hits are re-scored exactly
            assert h.score == pytest.approx(float(x[h.id // 3] @ q / np.linalg.norm(q)), abs=1e-5)
    assert index.has_graph
    assert np.mean(overlap) >= 0.9
    # adds and removes reach the graph too
    index.remove([0])
    index.add([999_999], x[:1])
    assert index.search(x[0], 1)[0].id == 999_999
    index.add([3], x[50:51])  # replacing a vector replaces it in the graph
    assert {h.id for h in index.search(x[50], 2)} == {3, 150}
    assert len(index) == 2000


def test_allowed_filter_exact_and_hnsw():
    x = clustered(1500, 16)
    ids = np.arange(1500)
    for threshold in (10**9, 100):  # exact, then HNSW
        index = VectorIndex(16, hnsw_threshold=threshold)
        index.add(ids, x)
        q = x[10]
        most = set(range(1500)) - {10, 11, 12}
        hits = index.search(q, 10, allowed=most)
        assert len(hits) == 10 and not {10, 11, 12} & {h.id for h in hits}
        want = [i for i in brute(x, ids, q, 20) if i in most][:10]
        assert len({h.id for h in hits} & set(want)) >= 9
        few = {3, 700, 1400, 123456}  # one id unknown
        hits = index.search(q, 10, allowed=few)
        assert sorted(h.id for h in hits) == [3, 700, 1400]
        assert [h.id for h in hits] == [i for i in brute(x, ids, q, 1500) if i in few]
        assert index.search(q, 10, allowed=set()) == []


@pytest.mark.parametrize("storage", ["f32", "f16"])
def test_save_load_round_trip_keeps_the_stored_precision(tmp_path, storage):
    rng = np.random.default_rng(3)
    x = unit(200, 24, seed=3)  # full float32 mantissas: f32 storage gives them back exactly
    ids = rng.choice(10**9, size=200, replace=False)
    want = x if storage == "f32" else x.astype(np.float16).astype(np.float32)
    for threshold in (10**9, 50):  # no graph (vectors in the body), then a usearch graph inside
        index = VectorIndex(24, hnsw_threshold=threshold, storage=storage)
        index.add(ids, x, [int(i).to_bytes(16, "little") for i in ids])
        index.search(x[0], 3)
        path = tmp_path / f"v{threshold}{storage}.usearch"
        index.save(path)
        assert not index.dirty and oct(path.stat().st_mode & 0o777) == "0o600"
        back = VectorIndex.load(path, 24, hnsw_threshold=threshold, storage=storage)
        assert back.has_graph == (threshold == 50) and not back.dirty
        assert sorted(back.ids().tolist()) == sorted(ids.tolist())
        np.testing.assert_array_equal(back.get_vectors(ids[:50].tolist()), want[:50])
        tagged = back.vectors_for_tags([int(ids[3]).to_bytes(16, "little"), bytes(16)])
        np.testing.assert_array_equal(tagged[0], want[3])
        assert tagged[1] is None and back.untagged_ids() == []
        assert [h.id for h in back.search(x[5], 5, exact=True)] == [
            h.id for h in index.search(x[5], 5, exact=True)
        ]
        assert not list(tmp_path.glob(f"*{TMP_MARK}*"))
    flat = tmp_path / f"v{10**9}{storage}.usearch"  # ids, tags and one copy of the vectors
    assert flat.stat().st_size == 36 + 200 * (8 + 16 + 24 * (2 if storage == "f16" else 4)) + 4


def test_load_missing_corrupt_and_wrong_dim(tmp_path):
    assert len(VectorIndex.load(tmp_path / "none.usearch", 8)) == 0
    garbage = tmp_path / "garbage.usearch"
    garbage.write_bytes(os.urandom(5000))
    with pytest.raises(CorruptFile):
        VectorIndex.load(garbage, 8)
    good = tmp_path / "good.usearch"
    index = VectorIndex(8)
    index.add(range(5), unit(5, 8))
    index.save(good)
    with pytest.raises(CorruptFile, match="8-d"):
        VectorIndex.load(good, 16)
    data = bytearray(good.read_bytes())
    data[40] ^= 0xFF
    flipped = tmp_path / "flipped.usearch"
    flipped.write_bytes(bytes(data))
    with pytest.raises(CorruptFile, match="checksum"):
        VectorIndex.load(flipped, 8)
    (tmp_path / "short.usearch").write_bytes(good.read_bytes()[:-7])
    with pytest.raises(CorruptFile):
        VectorIndex.load(tmp_path / "short.usearch", 8)
    graph = VectorIndex(8, hnsw_threshold=1)
    graph.add(range(5), unit(5, 8))
    graph.build_graph()
    graph.save(good)
    with pytest.raises(CorruptFile):
        VectorIndex.load(good, 16)
    (tmp_path / "cut.usearch").write_bytes(good.read_bytes()[:100])
    with pytest.raises(CorruptFile):
        VectorIndex.load(tmp_path / "cut.usearch", 8)


_SAVER = textwrap.dedent(
    """
    import sys
    import numpy as np
    from memory.vector import VectorIndex
    seed, path, threshold = sys.argv[1], sys.argv[2], int(sys.argv[3])
    index = VectorIndex.load(seed, 64, hnsw_threshold=threshold)
    extra = np.random.default_rng(0).standard_normal((1, 64)).astype(np.float32)
    i = 0
    print("ready", flush=True)
    while True:
        i += 1
        index.add([10**6 + i], extra)
        index.remove([10**6 + i - 1])
        index.save(path)
    """
)


@pytest.mark.slow
def test_kill_during_save_leaves_a_loadable_file(tmp_path):
    n = 20_000
    x = unit(n, 64)
    seeds = {}
    for threshold in (10**9, 1):
        seed = tmp_path / f"seed{threshold}.usearch"
        index = VectorIndex(64, hnsw_threshold=threshold)
        index.add(np.arange(n), x)
        if threshold == 1:
            index.build_graph()
        index.save(seed)
        seeds[threshold] = seed
    target = tmp_path / "live.usearch"
    env = {**os.environ, "PYTHONPATH": str(ROOT), "OMP_NUM_THREADS": "1"}
    rnd = random.Random(7)
    saw_graph = set()
    for attempt in range(10):
        threshold = (10**9, 1)[attempt % 2]
        child = subprocess.Popen(
            [sys.executable, "-c", _SAVER, str(seeds[threshold]), str(target), str(threshold)],
            env=env,
            stdout=subprocess.PIPE,
        )
        try:
            assert child.stdout is not None and child.stdout.readline().strip() == b"ready"
            time.sleep(rnd.uniform(0.05, 0.4))
        finally:
            child.send_signal(signal.SIGKILL)
            child.wait()
        if not target.exists():
            continue
        loaded = VectorIndex.load(target, 64)
        saw_graph.add(loaded.has_graph)
        assert len(loaded) in (n, n + 1)
        assert 5 in loaded and loaded.search(x[5], 1, exact=True)[0].id == 5
    assert saw_graph == {True, False}  # both file formats were killed mid-loop
    leftovers = [p for p in tmp_path.iterdir() if TMP_MARK in p.name]
    assert all(p.name.startswith("live.usearch") for p in leftovers)


def test_inserts_after_the_graph_is_built_are_buffered_searchable_removable_and_saved(tmp_path):
    from memory import vector as vector_module

    rng = np.random.default_rng(3)
    base = rng.standard_normal((300, 16)).astype(np.float32)
    index = VectorIndex(16, hnsw_threshold=100)
    index.add(np.arange(300), base)
    index.build_graph()
    fresh = rng.standard_normal((5, 16)).astype(np.float32)
    index.add([1000, 1001, 1002, 1003, 1004], fresh)
    assert index._pending == {1000, 1001, 1002, 1003, 1004}  # not in the graph yet
    assert index.search(fresh[2], 1)[0].id == 1002  # but found, scored exactly
    index.remove([1003])
    assert all(h.id != 1003 for h in index.search(fresh[3], 20))
    index.save(tmp_path / "v.usearch")
    assert not index._pending  # merged into the graph before saving
    again = VectorIndex.load(tmp_path / "v.usearch", 16, hnsw_threshold=100)
    assert again.search(fresh[4], 1)[0].id == 1004 and 1003 not in again
    old = vector_module.PENDING_LIMIT
    vector_module.PENDING_LIMIT = 3
    try:
        again.add([2000, 2001, 2002], rng.standard_normal((3, 16)).astype(np.float32))
        assert not again._pending  # a full buffer is merged at once
    finally:
        vector_module.PENDING_LIMIT = old


def test_search_runs_on_one_blas_thread(monkeypatch):
    from threadpoolctl import threadpool_info

    import memory.vector as vector_module

    seen: list[list[int]] = []
    real = vector_module.blas_threads

    def spy(limit: int = vector_module.BLAS_THREADS):
        ctx = real(limit)

        class Probe:
            def __enter__(self):
                ctx.__enter__()
                # numpy's own BLAS does the product (torch may load another one later)
                blas = [p for p in threadpool_info() if p["user_api"] == "blas" and "numpy" in p["filepath"]]
                seen.append([p["num_threads"] for p in blas])

            def __exit__(self, *exc):
                return ctx.__exit__(*exc)

        return Probe()

    monkeypatch.setattr(vector_module, "blas_threads", spy)
    index = VectorIndex(8)
    index.add(range(50), np.random.default_rng(0).random((50, 8), dtype=np.float32))
    assert index.search(np.ones(8, dtype=np.float32), 3)
    assert seen and all(threads and threads == [1] * len(threads) for threads in seen)


def test_files_written_before_tags_still_load_untagged(tmp_path):
    """The flat IBAVECF1 file and a bare usearch file of the previous layout are read as they were."""
    import struct
    import zlib

    from usearch.index import Index

    x = unit(40, 8, seed=4)
    keys = np.arange(100, 140, dtype="<i8")
    body = keys.tobytes() + x.astype("<f4").tobytes()
    flat = tmp_path / "flat.usearch"
    flat.write_bytes(
        struct.pack("<8sIIQ", b"IBAVECF1", 8, 0, 40) + body + struct.pack("<I", zlib.crc32(body))
    )
    bare = tmp_path / "bare.usearch"
    graph = Index(ndim=8, metric="cos", dtype="f32")
    graph.add(keys.astype(np.uint64), x)
    graph.save(str(bare))
    for path in (flat, bare):
        index = VectorIndex.load(path, 8)
        assert index.has_graph == (path == bare) and index.dirty  # rewritten with tags on save
        assert sorted(index.untagged_ids()) == keys.tolist()
        np.testing.assert_allclose(index.get_vectors([105]), x[5:6], atol=1e-6)
        index.set_tags([105], [b"k" * 16])
        index.save(path)
        back = VectorIndex.load(path, 8)
        assert len(back.untagged_ids()) == 39 and back.has_tag(b"k" * 16)


def test_many_queries_in_one_pass_find_what_each_finds_alone_even_among_tied_copies():
    base = unit(40, 16, seed=3)
    x = np.concatenate([base, base, base[:10]])  # the same text said two or three times: exact ties
    ids = np.arange(500, 500 + len(x))
    index = VectorIndex(16)
    index.add(ids, x)
    queries = np.stack([base[2], base[5], unit(1, 16, seed=9)[0], base[7] * 3.0])
    ks = [1, 3, 7, 90]  # a depth that cuts through tied copies, and one beyond the index
    many = index.search_many(queries, ks)
    for q, k, hits in zip(queries, ks, many, strict=True):
        alone = index.search(q, k)
        assert [h.id for h in hits] == [h.id for h in alone]
        assert [h.score for h in hits] == pytest.approx([h.score for h in alone], abs=1e-5)
    # of tied copies the lowest ids come first, on both paths
    assert [h.id for h in many[0]] == [502]
    assert [h.id for h in many[1]] == [505, 545, 585]
    assert [h.id for h in index.search(base[5], 2)] == [505, 545]
    with pytest.raises(BadInput):
        index.search_many(queries[:, :8], ks)
    with pytest.raises(BadInput):
        index.search_many(queries, ks[:2])
