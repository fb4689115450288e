"""Relevance for Deep Retrieval: how much a stored turn bears on the task, in [0, ~1].

- The task's own sub-queries (the task, each tool parameter, model-written queries) are
  searched densely and lexically. A turn's relevance to one of them is a mix of its
  calibrated cosine and its BM25 score over that query's best BM25 score: score fusion,
  which keeps how much better one turn matches than another (rank fusion throws that
  away). The mix adapts to the query: the lexical channel has its say (its half, at most)
  by how far its top hits stand out from the rest of its list (``lexical_say``), so a
  query whose words match only common ones, spread evenly over the history, is ranked by
  meaning alone; the dense channel is calibrated against the embedder's floors and against
  the query's own list (``RELATIVE_WEIGHT``). The task counts fully, the others ``SIDE_WEIGHT`` as much.
  Where the embedder gives BGE-M3's own lexical weights (``sparse``), that channel enters the
  same mix beside BM25, with its own say; the stronger of the two counts for a turn.
- A turn that carries a preference cue can also be relevant while the cue holds (a
  sprained ankle bears on a day out this week, not on one next year): through a generic
  facet looking for that cue (its vocabulary mixed with the task), at ``FACET_WEIGHT``,
  or by meaning alone through a tool parameter (a stated preference rarely shares words
  with a parameter's schema).

Neither lets a cue-rich turn that matches nothing push out what matches the task itself.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any

from ibachat.agent.retrieval.facets import FACET_CUES, FACET_VOCAB, content_words, is_anchored
from ibachat.agent.retrieval.salience import detect_cues, in_force
from memory.types import Hit, Turn

if TYPE_CHECKING:
    import numpy as np

DENSE_SHARE = 0.4  # share of the calibrated cosine in an anchored relevance when BM25 has its full say
# The lexical channel's say: 1 - (BM25 score at rank SAY_RANK) / (its best), mapped from
# [SAY_LOW, SAY_HIGH] onto [0, 1]. An even spread of one common word gives ~0; a word only a
# few turns hold gives ~1 (fewer hits than SAY_RANK count as zeros after the last).
SAY_RANK = 10
# The dense channel is calibrated twice: against the embedder's floors (absolute), and against
# this query's own list (relative: its median maps to 0, its best to 1). A turn keeps the
# better of the absolute value and RELATIVE_WEIGHT times the relative one, so the best match
# of a query that every turn matches weakly (a preference worded unlike the question) still
# counts, and a strong absolute match is never lowered.
RELATIVE_WEIGHT = 0.4
SAY_LOW = 0.0
# BM25 is calibrated per query: a hit's score counts against the best hit's, or against this
# share of the score of a turn holding every query word once, when that is higher. So where
# every hit matches one incidental word ("great" of "any great board games for a wet day?"),
# the best of them no longer counts as a full lexical match.
IDEAL_SHARE = 0.5
SAY_HIGH = 0.3
SIDE_WEIGHT = 0.9  # a tool parameter's or model-written query's relevance, against the task's
FACET_WEIGHT = 0.7  # a generic facet's relevance (for a turn with its cue), against the task's
# Task words too common to show that a turn is about the task.
LEXICAL_IGNORE = frozenset(
    "next last week month day year time today tonight tomorrow yesterday find show tell give usual again new".split()
)


@dataclass(frozen=True)
class Floors:
    """Cosine floors of an embedder: ``bears`` decides emptiness, ``item`` is "unrelated"."""

    bears: float
    item: float
    high: float  # similarity that counts as fully relevant


# MiniLM's are calibrated on short chat turns (unrelated ~0.0-0.25, related 0.4+; see the tests and
# bench_scripts/bench_planner_retrieval.py). BGE-M3's are a guess from its higher baseline cosine:
# its weights were not available offline here to calibrate them.
FLOORS: dict[str, Floors] = {
    "minilm": Floors(bears=0.35, item=0.2, high=0.65),
    "bge-m3": Floors(bears=0.5, item=0.4, high=0.75),
    "hash": Floors(bears=0.25, item=0.12, high=0.6),
}
DEFAULT_FLOORS = FLOORS["minilm"]


def floors_for(memory: Any) -> Floors:
    """The similarity floors for the memory's embedder (MiniLM's when unknown)."""
    model_id = str(getattr(memory.embedder, "model_id", "")).lower()
    for key, floors in FLOORS.items():
        if key in model_id:
            return floors
    return DEFAULT_FLOORS


def lexical_query(query: str) -> str:
    """The query's content words: BM25 should not match a task on "out" or "next week"."""
    words = [w for w in content_words(query) if w not in LEXICAL_IGNORE]
    return " ".join(words) or query


def lexical_say(scores: Sequence[float]) -> float:
    """How much a BM25 list's top stands out from the rest of it, in [0, 1] (see ``SAY_RANK``)."""
    ranked = sorted(scores, reverse=True)
    if not ranked or ranked[0] <= 0:
        return 0.0
    tail = ranked[SAY_RANK - 1] if len(ranked) >= SAY_RANK else 0.0
    spread = 1.0 - tail / ranked[0]
    return min(1.0, max(0.0, (spread - SAY_LOW) / max(1e-6, SAY_HIGH - SAY_LOW)))


def query_weight(memory: Any, query: str) -> float:
    """The BM25 weight a turn holding every word of ``query`` once would score, about: the sum
    of their idf in this memory (0 for a memory without ``term_weights``)."""
    weigh = getattr(memory, "term_weights", None)
    return float(sum(weigh(query).values())) if callable(weigh) else 0.0


def cued(turn: Turn) -> bool:
    """Whether the turn carries a preference cue beyond a mention of time."""
    return bool(set(detect_cues(turn.text).labels) - {"time-bound"})


@dataclass
class Found:
    """What the sub-queries found: id -> the sub-queries that found it, and BM25 per anchored query."""

    by: dict[int, list[str]] = field(default_factory=dict)
    bm25: dict[str, dict[int, float]] = field(default_factory=dict)
    dense: dict[str, dict[int, float]] = field(default_factory=dict)  # cosine per anchored query
    sparse: dict[str, dict[int, float]] = field(default_factory=dict)  # BGE-M3 lexical score (``sparse``)
    weight: dict[str, float] = field(default_factory=dict)  # per anchored query: ``query_weight``

    def add(self, facet: str, hits: list[Hit]) -> None:
        for hit in hits:
            facets = self.by.setdefault(hit.id, [])
            if facet not in facets:
                facets.append(facet)


class Relevance:
    """Relevance of stored turns to one task's sub-queries (``qvecs``: their search vectors)."""

    def __init__(
        self, subqueries: list[tuple[str, str]], qvecs: np.ndarray, found: Found, floors: Floors
    ) -> None:
        import numpy as np

        self.floors = floors
        rows = [i for i, (f, _) in enumerate(subqueries) if is_anchored(f)]
        self.anchored = [subqueries[i][0] for i in rows]
        self.anchor_vecs = qvecs[rows]
        self.weights = np.array(
            [1.0 if f == "task" else SIDE_WEIGHT for f in self.anchored], dtype=np.float32
        )
        self.bm25 = [found.bm25.get(f, {}) for f in self.anchored]
        # BM25 scores count against the query's best hit, or against IDEAL_SHARE of what a turn
        # holding all of its words would score where that is more (``IDEAL_SHARE``); not for a
        # tool parameter's query, a bag of alternatives (its values) of which a turn names one
        self.best_bm25 = [
            max(
                max(scores.values(), default=0.0),
                0.0 if f.startswith("param:") else IDEAL_SHARE * found.weight.get(f, 0.0),
            )
            for f, scores in zip(self.anchored, self.bm25, strict=True)
        ]
        self.say = [lexical_say(list(scores.values())) for scores in self.bm25]
        self.sparse = [found.sparse.get(f, {}) for f in self.anchored]
        self.best_sparse = [max(scores.values(), default=0.0) for scores in self.sparse]
        self.sparse_say = [lexical_say(list(scores.values())) for scores in self.sparse]
        lists = [sorted(found.dense.get(f, {}).values()) for f in self.anchored]
        self.median = np.array([s[len(s) // 2] if s else 1.0 for s in lists], dtype=np.float32)
        self.best = np.array([s[-1] if s else 1.0 for s in lists], dtype=np.float32)
        facet_rows = [i for i, (f, _) in enumerate(subqueries) if f in FACET_VOCAB]
        self.facets = [subqueries[i][0] for i in facet_rows]
        self.facet_vecs = qvecs[facet_rows]

    def _calibrate(self, cos: np.ndarray) -> np.ndarray:
        import numpy as np

        span = max(1e-6, self.floors.high - self.floors.item)
        return np.clip((cos - self.floors.item) / span, 0.0, None)

    def cosine(self, vecs: np.ndarray) -> np.ndarray:
        """Best cosine of each row of ``vecs`` to the task's own sub-queries."""
        return (self.anchor_vecs @ vecs.T).max(axis=0)

    def own(self, turns: Sequence[Turn], vecs: np.ndarray) -> np.ndarray:
        """Score fusion of cosine and BM25 per anchored sub-query, weighted, best one kept.

        A tool parameter's query is a bag of schema words ("impact low normal high"): sharing
        one of them makes a past call or a stated preference evidence about the parameter,
        but not just any turn ("feeling a bit low today"), which counts by meaning alone.
        """
        import numpy as np

        cos = self.anchor_vecs @ vecs.T
        span = np.maximum(self.best - self.median, 1e-6)[:, None]
        relative = np.clip((cos - self.median[:, None]) / span, 0.0, 1.0)
        dense = np.maximum(self._calibrate(cos), RELATIVE_WEIGHT * relative)
        fused = dense.copy()
        plain = np.array([not (isinstance(t.tool_call, dict) or cued(t)) for t in turns], dtype=bool)
        for row, (scores, best, say) in enumerate(zip(self.bm25, self.best_bm25, self.say, strict=True)):
            lexical = say * np.array([scores.get(t.id, 0.0) / best if best > 0 else 0.0 for t in turns])
            if self.best_sparse[row] > 0:  # BGE-M3's own lexical channel: the stronger of the two counts
                sparse, top = self.sparse[row], self.best_sparse[row]
                learned = np.array([sparse.get(t.id, 0.0) / top for t in turns])
                lexical = np.maximum(lexical, self.sparse_say[row] * learned)
            mixed = DENSE_SHARE * dense[row] + (1.0 - DENSE_SHARE) * lexical
            param = self.anchored[row].startswith("param:")
            fused[row] = np.where(plain, dense[row], mixed) if param else mixed
        return (fused * self.weights[:, None]).max(axis=0)

    def through_cues(self, turns: Sequence[Turn], vecs: np.ndarray, now: datetime) -> np.ndarray:
        """Relevance of turns that carry a preference cue, while it holds (module docstring)."""
        import numpy as np

        out = np.zeros(len(turns), dtype=np.float32)
        facet_sims = FACET_WEIGHT * self._calibrate(self.facet_vecs @ vecs.T)
        side = [row for row, f in enumerate(self.anchored) if f != "task"]
        side_sims = self._calibrate(self.anchor_vecs[side] @ vecs.T) * self.weights[side, None]
        for col, turn in enumerate(turns):
            cues = set(detect_cues(turn.text).labels)
            if not cues - {"time-bound"}:
                continue
            if side:
                out[col] = float(side_sims[:, col].max()) * in_force(sorted(cues), turn.time, now)
            for row, facet in enumerate(self.facets):
                if matched := cues & FACET_CUES[facet]:
                    out[col] = max(out[col], facet_sims[row, col] * in_force(sorted(matched), turn.time, now))
        return out
