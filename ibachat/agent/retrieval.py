"""Deep Retrieval: the first step of the IBA-Agent planner.

``deep_retrieve`` expands the task into facet sub-queries (``facets``), embeds them in
one batch, runs a hybrid search for each and unions the candidates. It scores every
candidate's salience (``salience``), folds near-duplicates and surplus past tool calls,
brings in each strong candidate's session neighbours (a "no, the other one" borrows
relevance from the proposal it answers), and fills ``budget`` by MMR. When nothing in
memory bears on the task (no real term overlap, and every similarity to the task below
a floor calibrated for the embedder), the evidence is empty: nothing gets injected.

``mode`` selects the baselines used for ablations: ``single`` (one hybrid query, the
``rag`` baseline), ``dense`` and ``lexical`` (one query, one index).
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any, Protocol

from ibachat.agent.facets import FACET_CUES, FACET_VOCAB, expand, is_anchored, terms
from ibachat.agent.salience import detect_cues, drop_near_duplicates, mmr, past_calls_summary, score_turn
from ibachat.agent.types import Evidence, EvidenceItem, PlannerCounters
from ibachat.errors import ConfigError
from memory.errors import NotFound
from memory.memory import NEVER_USE
from memory.types import Hit, Turn, parse_time

if TYPE_CHECKING:
    import numpy as np

    from ibachat.llm.base import LLM

MODES = ("deep", "single", "dense", "lexical")
RRF_K = 60
TASK_MIX = 0.5  # weight of the task's vector in a generic facet's search vector
CONTEXT_WEIGHT = 0.85  # relevance a turn borrows from its session neighbours ("no, the other one")
POOL_FACTOR = 2  # the top POOL_FACTOR * budget candidates get their context and compete for the budget
CANDIDATE_FACTOR = 10  # at most CANDIDATE_FACTOR * budget candidates are read from the store
MAX_TOOL_CALLS = 3  # past calls of the tool kept as items; the rest are summed up in a why label
NEIGHBOUR_WINDOW = 3  # session neighbours are looked for within this many ids
# Task words too common to show that a turn is about the task.
LEXICAL_IGNORE = frozenset(
    "next last week month day year time today tonight tomorrow yesterday find show tell give usual again new".split()
)


@dataclass(frozen=True)
class Floors:
    """Cosine floors of an embedder: ``bears`` decides emptiness, ``item`` drops weak items."""

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


class MemoryLike(Protocol):
    """The part of ``memory.memory.Memory`` that retrieval uses."""

    @property
    def embedder(self) -> Any: ...

    def __len__(self) -> int: ...

    def get_many(self, ids: Sequence[int]) -> list[Turn]: ...

    def search(self, query: str, k: int = 10, *, mode: str = "hybrid", vector: Any = None) -> list[Hit]: ...

    def embed_queries(self, texts: list[str]) -> np.ndarray: ...

    def vectors(self, ids: Sequence[int]) -> np.ndarray: ...


def floors_for(memory: MemoryLike) -> Floors:
    """The similarity floors for the memory's embedder (MiniLM's when unknown)."""
    model_id = str(getattr(memory.embedder, "model_id", "")).lower()
    for key, floors in FLOORS.items():
        if key in model_id:
            return floors
    return DEFAULT_FLOORS


@dataclass
class _Candidate:
    turn: Turn
    row: int  # row in the candidates' vector matrix
    facets: list[str] = field(default_factory=list)
    dense: float = 0.0  # similarity that counts as relevance (see _Similarity)
    anchored: float = 0.0  # best similarity to the task's own sub-queries
    lexical: float = 0.0  # fraction of task terms in the text
    relevance: float = 0.0
    via_context: bool = False
    context: list[Turn] = field(default_factory=list)
    repeats: int = 0
    notes: list[str] = field(default_factory=list)  # extra why labels (a summary of folded calls)
    score: float = 0.0
    why: list[str] = field(default_factory=list)


def _ms(start: float) -> float:
    return round((time.perf_counter() - start) * 1000, 3)


def _validate(mode: str, budget: int, now: datetime) -> datetime:
    if mode not in MODES:
        raise ConfigError(f"unknown retrieval mode {mode!r}: use one of {', '.join(MODES)}")
    if budget < 0:
        raise ConfigError(f"retrieval budget must be 0 or more, not {budget}")
    return parse_time(now)


def deep_retrieve(
    memory: MemoryLike,
    task: str,
    *,
    now: datetime,
    tool: dict[str, Any] | None = None,
    llm: LLM | None = None,
    budget: int = 12,
    counters: PlannerCounters | None = None,
    mode: str = "deep",
) -> Evidence:
    """Find the remembered turns that bear on ``task``, most salient first (at most ``budget``)."""
    now = _validate(mode, budget, now)
    counters = counters if counters is not None else PlannerCounters()
    start = time.perf_counter()
    task = " ".join(task.split())
    if mode != "deep":
        evidence = _single(memory, task, now, budget, mode)
    elif not task or budget == 0 or len(memory) == 0:
        evidence = Evidence(task, [], [("task", task)] if task else [], {"mode": mode, "empty": True})
    else:
        evidence = _deep(memory, task, now, tool, llm, budget, counters)
    evidence.stats.setdefault("ms", {})["total"] = _ms(start)
    counters.timings_ms["retrieve"] = evidence.stats["ms"]["total"]
    return evidence


def _usable(turn: Turn, now: datetime, task: str) -> bool:
    """Not flagged, not from the future, and not the task itself just stored."""
    if NEVER_USE in turn.flags or turn.time > now:
        return False
    echo = turn.role == "user" and " ".join(turn.text.split()) == task
    return not (echo and (now - turn.time).total_seconds() < 3600)


def _single(memory: MemoryLike, task: str, now: datetime, budget: int, mode: str) -> Evidence:
    """One query, top-``budget`` hits of one search: the baselines and ablations.

    Items keep the search's own score (fused rank, cosine or BM25), not a salience.
    """
    search_mode = "hybrid" if mode == "single" else mode
    stats: dict[str, Any] = {"mode": mode, "ms": {}}
    if not task or budget == 0 or len(memory) == 0:
        stats["empty"] = True
        return Evidence(task, [], [("task", task)] if task else [], stats)
    t0 = time.perf_counter()
    hits = memory.search(task, budget, mode=search_mode)
    stats["ms"]["search"] = _ms(t0)
    turns = {t.id: t for t in memory.get_many([h.id for h in hits])}
    items = [
        EvidenceItem(turns[h.id], h.score, ["task"], [f"{search_mode} hit", "task"])
        for h in hits
        if h.id in turns and _usable(turns[h.id], now, task)
    ]
    stats.update(candidates=len(hits), kept=len(items), empty=not items)
    return Evidence(task, items, [("task", task)], stats)


def _embed_subqueries(memory: MemoryLike, subqueries: list[tuple[str, str]]) -> tuple[np.ndarray, np.ndarray]:
    """(search vectors, raw vectors), from one batch for the embedder.

    A generic facet is embedded as its vocabulary alone (raw) and searched with that plus
    ``TASK_MIX`` times the task's vector: the facet's cue first, the task's topic second.
    The vocabularies never change, so after the first task they come from the embedding
    cache and a task costs the embedder one text (plus any model-written sub-queries).
    """
    import numpy as np

    texts = [FACET_VOCAB.get(facet, query) for facet, query in subqueries]
    raw = np.asarray(memory.embed_queries(texts), dtype=np.float32)
    search = raw.copy()
    for row, (facet, _) in enumerate(subqueries):
        if facet in FACET_VOCAB:
            mixed = TASK_MIX * raw[0] + raw[row]  # subqueries[0] is ("task", task)
            search[row] = mixed / max(float(np.linalg.norm(mixed)), 1e-12)
    return search, raw


def _search(
    memory: MemoryLike, subqueries: list[tuple[str, str]], qvecs: np.ndarray, budget: int
) -> dict[int, tuple[float, list[str]]]:
    """Hybrid search per sub-query: id -> (reciprocal-rank sum, facets that found it).

    When the union is large, candidates are kept by their best rank in any one sub-query
    (round robin), so a turn only one facet finds is not crowded out by generic ones.
    """
    k = max(2 * budget, 20)
    found: dict[int, tuple[float, list[str]]] = {}
    best: dict[int, int] = {}
    for (facet, query), vec in zip(subqueries, qvecs, strict=True):
        for rank, hit in enumerate(memory.search(query, k, mode="hybrid", vector=vec)):
            rrf, facets = found.get(hit.id, (0.0, []))
            facets.append(facet)
            found[hit.id] = (rrf + 1.0 / (RRF_K + rank + 1), facets)
            best[hit.id] = min(best.get(hit.id, rank), rank)
    limit = CANDIDATE_FACTOR * budget
    if len(found) > limit:
        keep = sorted(found, key=lambda i: (best[i], -found[i][0]))[:limit]
        found = {i: found[i] for i in keep}
    return found


def _deep(
    memory: MemoryLike,
    task: str,
    now: datetime,
    tool: dict[str, Any] | None,
    llm: LLM | None,
    budget: int,
    counters: PlannerCounters,
) -> Evidence:
    import numpy as np

    ms: dict[str, float] = {}
    stats: dict[str, Any] = {"mode": "deep", "ms": ms}

    t0 = time.perf_counter()
    model_ms = counters.timings_ms.get("expand_model", 0.0)
    subqueries = expand(task, tool, llm, counters)
    model_ms = counters.timings_ms.get("expand_model", 0.0) - model_ms
    ms["expand"] = round(_ms(t0) - model_ms, 3)
    if model_ms:
        ms["expand_model"] = round(model_ms, 3)
    stats["subqueries"] = len(subqueries)

    t0 = time.perf_counter()
    qvecs, raw = _embed_subqueries(memory, subqueries)
    ms["embed"] = _ms(t0)

    t0 = time.perf_counter()
    found = _search(memory, subqueries, qvecs, budget)
    ms["search"] = _ms(t0)
    stats["candidates"] = len(found)

    t0 = time.perf_counter()
    turns = [t for t in memory.get_many(list(found)) if _usable(t, now, task)]
    turns, vecs = _with_vectors(memory, turns)
    stats["unusable"] = len(found) - len(turns)
    if not turns:
        ms["score"] = _ms(t0)
        return _empty(task, subqueries, stats, "no candidates")
    cands = [_Candidate(t, i, found[t.id][1]) for i, t in enumerate(turns)]
    floors = floors_for(memory)
    sim = _Similarity(subqueries, raw)
    dense, anchored = sim.relevance(vecs, turns)
    task_terms = terms(task) - LEXICAL_IGNORE
    for cand in cands:
        cand.dense, cand.anchored = float(dense[cand.row]), float(anchored[cand.row])
        if task_terms:
            cand.lexical = len(task_terms & terms(cand.turn.text)) / min(len(task_terms), 3)
        cand.relevance = _relevance(cand.dense, cand.lexical, floors)
        cand.score, cand.why = _score(cand, now, tool)
    ms["score"] = _ms(t0)

    t0 = time.perf_counter()
    sims = vecs @ vecs.T
    kept = drop_near_duplicates(sorted(range(len(cands)), key=lambda i: -cands[i].score), sims)
    for i, copies in kept.items():
        if copies:
            cands[i].repeats = copies
            cands[i].score, cands[i].why = _score(cands[i], now, tool)
    distinct = [cands[i] for i in kept]
    distinct, folded = _fold_tool_calls(distinct, tool, now)
    pool = sorted(distinct, key=lambda c: -c.score)[: POOL_FACTOR * budget]
    stats.update(dropped_duplicates=len(cands) - len(kept), folded_tool_calls=folded)
    ms["dedup"] = _ms(t0)

    t0 = time.perf_counter()
    _add_context(memory, pool, sim, floors, now, tool)
    ms["context"] = _ms(t0)

    best_anchor = max(c.anchored for c in cands)
    best_lexical = max(c.lexical for c in cands)
    stats.update(best_dense=round(best_anchor, 3), best_lexical=round(best_lexical, 3))
    if not _bears(best_anchor, best_lexical, floors) and not any(_stated_on_topic(c, floors) for c in cands):
        return _empty(task, subqueries, stats, "nothing in memory bears on the task")
    strong = [c for c in pool if _strong_enough(c, floors)]
    stats["dropped_weak"] = len(pool) - len(strong)

    t0 = time.perf_counter()
    rows = [c.row for c in strong]
    chosen = [strong[i] for i in mmr([c.score for c in strong], sims[np.ix_(rows, rows)], budget)]
    chosen.sort(key=lambda c: -c.score)
    ms["select"] = _ms(t0)
    stats.update(kept=len(chosen), empty=not chosen)
    items = [EvidenceItem(c.turn, round(c.score, 4), c.facets, c.why, c.context) for c in chosen]
    return Evidence(task, items, subqueries, stats)


def _with_vectors(memory: MemoryLike, turns: list[Turn]) -> tuple[list[Turn], np.ndarray]:
    """The turns' stored vectors; a turn the vector index lacks (not indexed yet) is left out."""
    import numpy as np

    try:
        return turns, np.asarray(memory.vectors([t.id for t in turns]), dtype=np.float32)
    except NotFound:
        pairs = []
        for turn in turns:
            try:
                pairs.append((turn, np.asarray(memory.vectors([turn.id]), dtype=np.float32)[0]))
            except NotFound:
                continue
        if not pairs:
            return [], np.zeros((0, 1), dtype=np.float32)
        return [t for t, _ in pairs], np.stack([v for _, v in pairs])


def _fold_tool_calls(
    cands: list[_Candidate], tool: dict[str, Any] | None, now: datetime
) -> tuple[list[_Candidate], int]:
    """Keep the ``MAX_TOOL_CALLS`` most salient past calls of this tool; sum up all of them."""
    name = tool.get("name") if tool else None
    calls = [c for c in cands if isinstance(c.turn.tool_call, dict) and c.turn.tool_call.get("name") == name]
    if len(calls) <= MAX_TOOL_CALLS:
        return cands, 0
    calls.sort(key=lambda c: -c.score)
    summary = past_calls_summary([c.turn.tool_call.get("arguments") for c in calls])  # type: ignore[union-attr]
    calls[0].notes.append(f"{len(calls)} past calls of {name} found: {summary}")
    calls[0].score, calls[0].why = _score(calls[0], now, tool)
    folded = {id(c) for c in calls[MAX_TOOL_CALLS:]}
    return [c for c in cands if id(c) not in folded], len(folded)


class _Similarity:
    """How close stored turns are to the task.

    The task's own sub-queries (task, tool parameters, model-written) count directly. A
    generic facet counts only for a turn that carries the cue it looks for, and only as
    far as the turn also relates to the task (the geometric mean of the two similarities):
    a fresh injury is relevant to ordering dinner, much less to a work email.
    """

    def __init__(self, subqueries: list[tuple[str, str]], raw: np.ndarray) -> None:
        import numpy as np

        anchored = np.array([is_anchored(f) for f, _ in subqueries])
        self.task_vecs = raw[anchored]
        self.facets = [f for f, _ in subqueries if f in FACET_VOCAB]
        self.facet_vecs = raw[[i for i, (f, _) in enumerate(subqueries) if f in FACET_VOCAB]]

    def task(self, vecs: np.ndarray) -> np.ndarray:
        return (self.task_vecs @ vecs.T).max(axis=0)

    def relevance(self, vecs: np.ndarray, turns: Sequence[Turn]) -> tuple[np.ndarray, np.ndarray]:
        """(best similarity, similarity to the task itself) for each of ``turns``."""
        import numpy as np

        task = self.task(vecs)
        best = task.copy()
        if not self.facets:
            return best, task
        facet_sims = np.clip(self.facet_vecs @ vecs.T, 0.0, None)
        for col, turn in enumerate(turns):
            labels = set(detect_cues(turn.text).labels)
            for row, facet in enumerate(self.facets):
                if labels & FACET_CUES[facet]:
                    mean = math.sqrt(float(facet_sims[row, col]) * max(0.0, float(task[col])))
                    best[col] = max(best[col], mean)
        return best, task


def _empty(task: str, subqueries: list[tuple[str, str]], stats: dict[str, Any], reason: str) -> Evidence:
    stats.update(empty=True, empty_reason=reason, kept=0)
    return Evidence(task, [], subqueries, stats)


def _relevance(dense: float, lexical: float, floors: Floors) -> float:
    """Map a similarity and a term overlap to [0, 1]."""
    span = max(1e-6, floors.high - floors.item)
    dense_part = min(1.0, max(0.0, (dense - floors.item) / span))
    return max(dense_part, 0.6 * min(1.0, lexical))


def _bears(best_dense: float, best_lexical: float, floors: Floors) -> bool:
    """Whether anything found bears on the task at all."""
    return best_dense >= floors.bears or best_lexical >= 0.5


def _stated_on_topic(cand: _Candidate, floors: Floors) -> bool:
    """The user's own preference statement sharing a content word with the task."""
    if cand.turn.role != "user" or cand.lexical <= 0 or cand.dense < floors.item:
        return False
    return bool(set(detect_cues(cand.turn.text).labels) - {"time-bound", "habit"})


def _strong_enough(cand: _Candidate, floors: Floors) -> bool:
    """A turn with a cue may be loosely related; one without must be clearly on topic."""
    if cand.lexical > 0 or cand.via_context:
        return True
    signal = bool(detect_cues(cand.turn.text).labels) or cand.turn.tool_call is not None
    return cand.dense >= (floors.item if signal else floors.bears)


def _score(cand: _Candidate, now: datetime, tool: dict[str, Any] | None) -> tuple[float, list[str]]:
    tool_name = str(tool.get("name")) if tool and tool.get("name") else None
    score, why = score_turn(cand.turn, cand.relevance, now, tool_name=tool_name, repeats=cand.repeats)
    if cand.via_context:
        why.append("relevant with its context")
    why += cand.notes
    labels = dict.fromkeys(f"facet: {f.removeprefix('param:')}" for f in cand.facets if f != "task")
    return score, why + list(labels)


def _neighbours(memory: MemoryLike, turns: Sequence[Turn], now: datetime) -> dict[int, list[Turn]]:
    """The turn before and after each of ``turns`` in its session, read in one batch.

    Turns of a session get nearby ids (they are stored as they happen), so the store is
    read only within ``NEIGHBOUR_WINDOW`` ids of each turn.
    """
    ids = sorted(
        {i for t in turns for i in range(max(1, t.id - NEIGHBOUR_WINDOW), t.id + NEIGHBOUR_WINDOW + 1)}
    )
    by_session: dict[str, list[Turn]] = {}
    for near in memory.get_many(ids):
        if _usable(near, now, ""):
            by_session.setdefault(near.session_id, []).append(near)
    out: dict[int, list[Turn]] = {}
    for turn in turns:
        same = sorted(
            (t for t in by_session.get(turn.session_id, []) if abs(t.id - turn.id) <= NEIGHBOUR_WINDOW),
            key=lambda t: (t.time, t.id),
        )
        pos = next((i for i, t in enumerate(same) if t.id == turn.id), None)
        out[turn.id] = [] if pos is None else same[max(0, pos - 1) : pos] + same[pos + 1 : pos + 2]
    return out


def _add_context(
    memory: MemoryLike,
    pool: list[_Candidate],
    sim: _Similarity,
    floors: Floors,
    now: datetime,
    tool: dict[str, Any] | None,
) -> None:
    """Attach session neighbours; a turn that is relevant only with them borrows their relevance."""
    import numpy as np

    context = _neighbours(memory, [c.turn for c in pool], now)
    for cand in pool:
        cand.context = context.get(cand.turn.id, [])
    ctx_ids = sorted({t.id for c in pool for t in c.context})
    if not ctx_ids:
        return
    row = {turn_id: i for i, turn_id in enumerate(ctx_ids)}
    try:
        ctx_vecs = np.asarray(memory.vectors(ctx_ids), dtype=np.float32)
    except NotFound:  # a neighbour not indexed (yet): keep the context, borrow nothing
        return
    ctx_task = sim.task(ctx_vecs)
    for cand in pool:
        if not cand.context:
            continue
        borrowed = CONTEXT_WEIGHT * float(ctx_task[[row[t.id] for t in cand.context]].max())
        if borrowed > cand.dense:
            cand.dense = borrowed
            cand.anchored = max(cand.anchored, borrowed)
            relevance = _relevance(cand.dense, cand.lexical, floors)
            if relevance > cand.relevance:
                cand.relevance, cand.via_context = relevance, True
                cand.score, cand.why = _score(cand, now, tool)
