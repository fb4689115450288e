"""BGE-M3's own sparse channel for Deep Retrieval, where the memory's embedder gives one.

BGE-M3 outputs, beside its dense vector, a weight per token of the text (FlagEmbedding's
``lexical_weights``): a lexical match learned by the model, which weighs "dentist" above
"the" the way BM25's idf does, but from meaning. The score of a turn for a query is the sum,
over the tokens they share, of the two weights (``compute_lexical_matching_score``).

The store keeps no sparse index, so the channel rescores the candidates the other channels
found (the task's dense and BM25 hits, the facets'), and enters the same adaptive fusion as
BM25 (``relevance.Relevance.own``): its scores over the best one, with a say measured by how
far its top stands out (``lexical_say``). An embedder without sparse output (MiniLM, the
offline default; BGE-M3 without its ``sparse_linear.pt``) gives no channel and changes nothing.
A turn's weights are cached by text, so a turn is encoded once per process.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Sequence
from typing import Any

from memory.errors import EmbedderUnavailable
from memory.types import Turn

# A turn matching at least this share of the query's lexical weight bears on the task (a guess,
# like BGE-M3's cosine floors: its weights were not available offline here to calibrate it).
SPARSE_BEARS = 0.3
CACHE_SIZE = 50_000  # turns' weights kept per process
_cache: OrderedDict[tuple[str, str], dict[str, float]] = OrderedDict()
_unavailable: set[str] = set()  # model ids whose sparse output failed once: not asked again


def sparse_encoder(embedder: Any) -> Any | None:
    """The embedder when it can give lexical weights (``embed_sparse``), else None."""
    if not callable(getattr(embedder, "embed_sparse", None)):
        return None
    return None if str(getattr(embedder, "model_id", "")) in _unavailable else embedder


def matching_score(query: dict[str, float], doc: dict[str, float]) -> float:
    """Sum over shared tokens of the two weights (BGE-M3's lexical matching score)."""
    if len(doc) < len(query):
        query, doc = doc, query
    return sum(weight * doc[token] for token, weight in query.items() if token in doc)


def _weights(encoder: Any, texts: Sequence[str]) -> list[dict[str, float]]:
    model = str(getattr(encoder, "model_id", ""))
    missing = list(dict.fromkeys(t for t in texts if (model, t) not in _cache))
    if missing:
        for text, weights in zip(missing, encoder.embed_sparse(missing), strict=True):
            _cache[(model, text)] = dict(weights)
        while len(_cache) > CACHE_SIZE:
            _cache.popitem(last=False)
    return [_cache[(model, t)] for t in texts]


def sparse_scores(embedder: Any, query: str, turns: Sequence[Turn]) -> dict[int, float]:
    """Turn id -> lexical matching score with ``query``, over the query's score with itself (the
    share of its lexical weight a turn matches, ~[0, 1]); {} when the embedder has no sparse
    output (then it is not asked again in this process)."""
    encoder = sparse_encoder(embedder)
    if encoder is None or not turns:
        return {}
    try:
        weights = _weights(encoder, [query, *(t.text for t in turns)])
    except EmbedderUnavailable:
        _unavailable.add(str(getattr(embedder, "model_id", "")))
        return {}
    query_weights = weights[0]
    whole = matching_score(query_weights, query_weights)
    if whole <= 0:
        return {}
    return {t.id: matching_score(query_weights, w) / whole for t, w in zip(turns, weights[1:], strict=True)}
