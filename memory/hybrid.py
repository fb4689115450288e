"""Reciprocal rank fusion of ranked hit lists from several retrievers."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from memory.errors import BadInput
from memory.types import Hit


def rrf_fuse(
    result_lists: Sequence[tuple[str, list[Hit]]],
    k: int = 10,
    c: int = 60,
    weights: dict[str, float] | None = None,
) -> list[Hit]:
    """Fuse ranked lists: ``score = sum(weight / (c + rank))`` over the lists holding an id.

    Ranks start at 1; an id repeated within one list counts at its best rank. The fused
    ``Hit.why`` maps each source name to ``{"rank", "score", **that hit's why}``. Ties
    go to the better best rank, then the smaller id. Weights default to 1; a weight for
    a source not in ``result_lists`` is ignored.
    """
    if c < 0:
        raise BadInput(f"RRF constant c must not be negative, got {c}")
    weights = weights or {}
    if any(w < 0 for w in weights.values()):
        raise BadInput("RRF weights must not be negative")
    names = [name for name, _ in result_lists]
    if len(set(names)) != len(names):
        raise BadInput(f"RRF sources must have distinct names, got {names}")
    if k <= 0:
        return []
    scores: dict[int, float] = {}
    best: dict[int, int] = {}
    why: dict[int, dict[str, Any]] = {}
    for name, hits in result_lists:
        weight = float(weights.get(name, 1.0))
        rank = 0
        for hit in hits:
            doc = hit.id
            sources = why.get(doc)
            if sources is None:  # first seen in any list
                rank += 1
                scores[doc] = weight / (c + rank)
                best[doc] = rank
                why[doc] = {name: {**hit.why, "rank": rank, "score": hit.score}}
            elif name not in sources:  # not a repeat within this list
                rank += 1
                scores[doc] += weight / (c + rank)
                if rank < best[doc]:
                    best[doc] = rank
                sources[name] = {**hit.why, "rank": rank, "score": hit.score}
    order = sorted(scores, key=lambda i: (-scores[i], best[i], i))[:k]
    return [Hit(i, scores[i], why[i]) for i in order]
