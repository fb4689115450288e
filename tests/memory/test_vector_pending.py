"""HNSW search with buffered inserts: the rows of the pending vectors are kept between searches,
and every write that moves rows or changes the buffer must drop them."""

from __future__ import annotations

import numpy as np

from memory.vector import VectorIndex


def test_pending_vectors_stay_found_with_their_own_scores_across_writes():
    rng = np.random.default_rng(5)
    index = VectorIndex(16, hnsw_threshold=100)
    index.add(np.arange(200), rng.standard_normal((200, 16)).astype(np.float32))
    index.build_graph()
    fresh = {1000 + i: rng.standard_normal(16).astype(np.float32) for i in range(6)}
    index.add(list(fresh), np.stack(list(fresh.values())))

    def check() -> None:
        for key, vec in fresh.items():
            hits = index.search(vec, 10)
            assert hits[0].id == key and abs(hits[0].score - 1.0) < 1e-5  # its own best match
            ids = [h.id for h in hits]
            assert len(set(ids)) == 10 and all(i in index for i in ids)  # no stale or repeated row

    check()  # the pending rows are now kept
    index.remove([0, 1])  # the last rows (pending ones) move into the freed rows
    check()
    del fresh[1002]
    index.remove([1002])
    check()
    fresh[1006] = rng.standard_normal(16).astype(np.float32)
    index.add([1006], fresh[1006][None, :])
    check()
    fresh[1001] = rng.standard_normal(16).astype(np.float32)  # replaced: a new row, same id
    index.add([1001], fresh[1001][None, :])
    check()
    index.flush()
    assert not index._pending
    check()
