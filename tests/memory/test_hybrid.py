"""rrf_fuse: order, scores, provenance, weights; and fusion of the real indexes."""

from __future__ import annotations

import numpy as np
import pytest

from memory.errors import BadInput
from memory.hybrid import rrf_fuse
from memory.lexical import LexicalIndex
from memory.types import Hit
from memory.vector import VectorIndex


def hits(*ids: int) -> list[Hit]:
    return [Hit(i, 1.0 - 0.1 * r) for r, i in enumerate(ids)]


def test_fusion_order_and_scores():
    dense = hits(1, 2, 3, 4)
    lexical = [Hit(3, 7.5, {"terms": ["coffee"]}), Hit(5, 6.0), Hit(2, 2.0)]
    fused = rrf_fuse([("dense", dense), ("lexical", lexical)], k=10, c=60)
    assert [h.id for h in fused] == [3, 2, 1, 5, 4]
    assert fused[0].score == pytest.approx(1 / 63 + 1 / 61)
    assert fused[1].score == pytest.approx(1 / 62 + 1 / 63)
    assert fused[2].score == pytest.approx(1 / 61)
    assert fused[0].why == {
        "dense": {"rank": 3, "score": pytest.approx(0.8)},
        "lexical": {"rank": 1, "score": 7.5, "terms": ["coffee"]},
    }
    assert fused[3].why == {"lexical": {"rank": 2, "score": 6.0}}
    assert [h.id for h in rrf_fuse([("dense", dense), ("lexical", lexical)], k=2)] == [3, 2]


def test_ties_break_by_best_rank_then_id():
    fused = rrf_fuse([("a", hits(7, 8)), ("b", hits(9, 6))], k=4)
    # 7 and 9 tie (both rank 1), then 8 and 6 (both rank 2): smaller id first
    assert [h.id for h in fused] == [7, 9, 6, 8]


def test_weights_repeats_and_edge_cases():
    fused = rrf_fuse([("dense", hits(1, 2)), ("lexical", hits(2, 1))], weights={"dense": 3.0})
    assert [h.id for h in fused] == [1, 2]
    assert fused[0].score == pytest.approx(3 / 61 + 1 / 62)
    assert rrf_fuse([("dense", hits(1, 2))], weights={"sparse": 2.0})[0].id == 1
    zero = rrf_fuse([("dense", hits(1, 2)), ("lexical", hits(2))], weights={"lexical": 0.0})
    assert [h.id for h in zero] == [1, 2]
    repeated = rrf_fuse([("dense", [Hit(4, 0.9), Hit(4, 0.5), Hit(5, 0.4)])])
    assert [(h.id, h.why["dense"]["rank"]) for h in repeated] == [(4, 1), (5, 2)]
    assert rrf_fuse([]) == [] and rrf_fuse([("dense", [])]) == []
    assert rrf_fuse([("dense", hits(1))], k=0) == []
    with pytest.raises(BadInput):
        rrf_fuse([("dense", hits(1)), ("dense", hits(2))])
    with pytest.raises(BadInput):
        rrf_fuse([("dense", hits(1))], weights={"dense": -1.0})


def test_fuses_real_vector_and_lexical_results():
    texts = {
        1: "I take my coffee black",
        2: "Flight to Lisbon on Monday",
        3: "Espresso, no milk, every morning",
        4: "Remind me to water the plants",
    }
    vecs = np.eye(4, 8, dtype=np.float32)
    vecs[2] = vecs[0] * 0.9 + vecs[2] * 0.1  # 3 is "semantically" close to 1
    dense = VectorIndex(8)
    dense.add(list(texts), vecs)
    lexical = LexicalIndex()
    lexical.add(list(texts), list(texts.values()))
    query_vec = vecs[0]
    fused = rrf_fuse(
        [("dense", dense.search(query_vec, 3)), ("lexical", lexical.search("black coffee", 3))], k=3
    )
    assert fused[0].id == 1 and set(fused[0].why) == {"dense", "lexical"}
    assert fused[0].why["lexical"]["terms"] == ["black", "coffee"]
    assert fused[1].id == 3 and set(fused[1].why) == {"dense"}
