"""Deep Retrieval: the first step of the IBA-Agent planner.

``deep_retrieve`` expands the task into sub-queries (``facets``) and embeds them in one
batch. The task's own ranking is the backbone; the other sub-queries only add candidates:

- anchored sub-queries (the task, each tool parameter, model-written queries) are
  searched densely and lexically; a turn's relevance to one of them is an even mix of its
  calibrated cosine and its BM25 score over that query's best BM25 score (score fusion:
  it keeps how much better one turn matches than another, which rank fusion throws away);
  the task counts fully, the others ``SIDE_WEIGHT`` as much;
- a generic facet (tone, corrections, health...) counts only for a turn that carries the
  cue it looks for, through its similarity to the facet's search vector (the facet's
  vocabulary mixed with the task), at ``FACET_WEIGHT``: a current injury can enter the
  evidence for an unworded task, but it cannot push out what matches the task itself;
- an elliptical turn ("no, not that one") borrows relevance from its session neighbour.

Salience is then a bounded multiplicative bonus on that relevance (``salience``), so it
reorders turns of comparable relevance and never lifts an irrelevant turn. Near-duplicates
and surplus past tool calls are folded; session neighbours are attached as context, never
as extra items. When nothing in memory bears on the task (no real term overlap, and every
similarity to the task below a floor calibrated for the embedder), the evidence is empty.

``mode`` selects the baselines used for ablations: ``single`` (one hybrid query, the
``rag`` baseline), ``dense`` and ``lexical`` (one query, one index).
"""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any, Protocol

from ibachat.agent.facets import FACET_CUES, FACET_VOCAB, content_words, expand, is_anchored, terms
from ibachat.agent.salience import (
    age_label,
    detect_cues,
    drop_near_duplicates,
    in_force,
    past_calls_summary,
    score_turn,
    select,
)
from ibachat.agent.types import Evidence, EvidenceItem, PlannerCounters
from ibachat.errors import ConfigError
from memory.errors import NotFound
from memory.memory import NEVER_USE
from memory.types import Hit, Turn, parse_time

if TYPE_CHECKING:
    import numpy as np

    from ibachat.llm.base import LLM

MODES = ("deep", "single", "dense", "lexical")
DENSE_SHARE = 0.5  # share of the calibrated cosine in an anchored relevance (the rest: BM25)
SIDE_WEIGHT = 0.9  # a tool parameter's or model-written query's relevance, against the task's
FACET_WEIGHT = 0.7  # a generic facet's relevance (for a turn with its cue), against the task's
TASK_MIX = 0.5  # weight of the task's vector in a generic facet's search vector
CONTEXT_WEIGHT = 0.85  # relevance an elliptical turn borrows from its session neighbours
ELLIPTICAL_WORDS = 6  # a rejection or correction with at most this many content words needs context
MIN_DEPTH = 30  # each anchored sub-query reads at least this many hits from each index
DEPTH_FACTOR = 3  # ... and at least DEPTH_FACTOR * budget
FACET_K = 20  # hits read per generic facet
POOL_FACTOR = 2  # the top POOL_FACTOR * budget candidates get their session context
MIN_RELEVANCE = 0.05  # below this, a turn is not evidence whatever its cues
MAX_TOOL_CALLS = 3  # past calls of the tool kept as items; the rest are summed up in a why label
NEIGHBOUR_WINDOW = 3  # session neighbours are looked for within this many ids
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
    vec: Any = None  # its stored vector
    facets: list[str] = field(default_factory=list)
    anchored: float = 0.0  # best cosine to the task's own sub-queries
    lexical: float = 0.0  # fraction of task terms in the text
    own: float = 0.0  # relevance to the task's own sub-queries
    relevance: float = 0.0  # the best of own, through a facet, and borrowed from context
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


@dataclass
class _Found:
    """What the sub-queries found: id -> the sub-queries that found it, and BM25 per anchored query."""

    by: dict[int, list[str]] = field(default_factory=dict)
    bm25: dict[str, dict[int, float]] = field(default_factory=dict)

    def add(self, facet: str, hits: list[Hit]) -> None:
        for hit in hits:
            facets = self.by.setdefault(hit.id, [])
            if facet not in facets:
                facets.append(facet)


def _search(memory: MemoryLike, subqueries: list[tuple[str, str]], qvecs: np.ndarray, budget: int) -> _Found:
    """Each anchored sub-query through both indexes (their own scores are kept), each generic
    facet through one hybrid search."""
    depth = max(DEPTH_FACTOR * budget, MIN_DEPTH)
    found = _Found()
    for (facet, query), vec in zip(subqueries, qvecs, strict=True):
        if is_anchored(facet):
            lexical = memory.search(_lexical_query(query), depth, mode="lexical")
            found.bm25[facet] = {hit.id: hit.score for hit in lexical}
            found.add(facet, memory.search(query, depth, mode="dense", vector=vec) + lexical)
        else:
            found.add(facet, memory.search(query, FACET_K, mode="hybrid", vector=vec))
    return found


def _lexical_query(query: str) -> str:
    """The query's content words: BM25 should not match a task on "out" or "next week"."""
    words = [w for w in content_words(query) if w not in LEXICAL_IGNORE]
    return " ".join(words) or query


class _Relevance:
    """How much stored turns bear on the task, in [0, ~1] (see the module docstring)."""

    def __init__(
        self, subqueries: list[tuple[str, str]], qvecs: np.ndarray, found: _Found, floors: Floors
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
        self.best_bm25 = [max(scores.values(), default=0.0) for scores in self.bm25]
        facet_rows = [i for i, (f, _) in enumerate(subqueries) if f in FACET_VOCAB]
        self.facets = [subqueries[i][0] for i in facet_rows]
        self.facet_vecs = qvecs[facet_rows]

    def _calibrate(self, cos: np.ndarray) -> np.ndarray:
        import numpy as np

        span = max(1e-6, self.floors.high - self.floors.item)
        return np.clip((cos - self.floors.item) / span, 0.0, None)

    def anchored_cosine(self, vecs: np.ndarray) -> np.ndarray:
        """Best cosine of each row of ``vecs`` to the task's own sub-queries."""
        return (self.anchor_vecs @ vecs.T).max(axis=0)

    def anchored_relevance(self, turns: Sequence[Turn], vecs: np.ndarray) -> np.ndarray:
        """Score fusion of cosine and BM25 per anchored sub-query, weighted, best one kept.

        A tool parameter's query is a bag of schema words ("impact low normal high"): sharing
        one of them makes a past call or a stated preference evidence about the parameter,
        but not just any turn ("feeling a bit low today"), which counts by meaning alone.
        """
        import numpy as np

        dense = self._calibrate(self.anchor_vecs @ vecs.T)
        fused = dense.copy()
        plain = np.array([not (isinstance(t.tool_call, dict) or _cued(t)) for t in turns], dtype=bool)
        for row, (scores, best) in enumerate(zip(self.bm25, self.best_bm25, strict=True)):
            lexical = np.array([scores.get(t.id, 0.0) / best if best > 0 else 0.0 for t in turns])
            mixed = DENSE_SHARE * dense[row] + (1.0 - DENSE_SHARE) * lexical
            fused[row] = (
                np.where(plain, dense[row], mixed) if self.anchored[row].startswith("param:") else mixed
            )
        return (fused * self.weights[:, None]).max(axis=0)

    def cue_relevance(self, vecs: np.ndarray, turns: Sequence[Turn], now: datetime) -> np.ndarray:
        """Relevance of turns that carry a preference cue, while the cue holds (a sprained
        ankle bears on a day out this week, not on one next year): through a generic facet
        looking for that cue, or, by meaning alone, through a tool parameter or a
        model-written query (a stated preference rarely shares words with a parameter)."""
        import numpy as np

        out = np.zeros(len(turns), dtype=np.float32)
        facet_sims = FACET_WEIGHT * self._calibrate(self.facet_vecs @ vecs.T)
        side = [row for row, f in enumerate(self.anchored) if f != "task"]
        side_sims = self._calibrate(self.anchor_vecs[side] @ vecs.T) * self.weights[side, None]
        for col, turn in enumerate(turns):
            cues = set(detect_cues(turn.text).labels)
            if not cues - {"time-bound"}:
                continue
            best = float(side_sims[:, col].max()) if side else 0.0
            if best > 0:
                out[col] = best * in_force(sorted(cues), turn.time, now)
            for row, facet in enumerate(self.facets):
                if matched := cues & FACET_CUES[facet]:
                    out[col] = max(out[col], facet_sims[row, col] * in_force(sorted(matched), turn.time, now))
        return out


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
    qvecs, _ = _embed_subqueries(memory, subqueries)
    ms["embed"] = _ms(t0)

    t0 = time.perf_counter()
    found = _search(memory, subqueries, qvecs, budget)
    ms["search"] = _ms(t0)
    stats["candidates"] = len(found.by)

    t0 = time.perf_counter()
    turns = [t for t in memory.get_many(list(found.by)) if _usable(t, now, task)]
    turns, vecs = _with_vectors(memory, turns)
    stats["unusable"] = len(found.by) - len(turns)
    if not turns:
        ms["score"] = _ms(t0)
        return _empty(task, subqueries, stats, "no candidates")
    floors = floors_for(memory)
    rel = _Relevance(subqueries, qvecs, found, floors)
    anchored = rel.anchored_cosine(vecs)
    relevance = rel.anchored_relevance(turns, vecs)
    facet_rel = rel.cue_relevance(vecs, turns, now)
    task_terms = terms(task) - LEXICAL_IGNORE
    cands = []
    for i, turn in enumerate(turns):
        cand = _Candidate(turn, i, vecs[i], list(found.by[turn.id]))
        cand.anchored, cand.own = float(anchored[i]), float(relevance[i])
        cand.relevance = max(cand.own, float(facet_rel[i]))
        if task_terms:
            cand.lexical = len(task_terms & terms(turn.text)) / min(len(task_terms), 3)
        cand.score, cand.why = _score(cand, now, tool)
        cands.append(cand)
    ms["score"] = _ms(t0)

    t0 = time.perf_counter()
    sims = _separate_calls(cands, vecs @ vecs.T)
    kept = drop_near_duplicates(sorted(range(len(cands)), key=lambda i: -cands[i].score), sims)
    for i, copies in kept.items():
        if copies:
            cands[i].repeats = copies
            cands[i].score, cands[i].why = _score(cands[i], now, tool)
    distinct = [cands[i] for i in kept]
    distinct, folded, requests = _fold_tool_calls(memory, distinct, cands, tool, now)
    stats.update(
        dropped_duplicates=len(cands) - len(kept), folded_tool_calls=folded, folded_requests=requests
    )
    ms["dedup"] = _ms(t0)

    t0 = time.perf_counter()
    ranked = sorted(distinct, key=lambda c: -c.score)
    pool = ranked[: POOL_FACTOR * budget] + [c for c in ranked[POOL_FACTOR * budget :] if _elliptical(c.turn)]
    distinct += _add_context(memory, pool, rel, now, tool)
    ms["context"] = _ms(t0)

    best_anchor = max(c.anchored for c in cands)
    best_lexical = max(c.lexical for c in cands)
    stats.update(best_dense=round(best_anchor, 3), best_lexical=round(best_lexical, 3))
    if not _bears(best_anchor, best_lexical, floors) and not any(_stated_on_topic(c, floors) for c in cands):
        return _empty(task, subqueries, stats, "nothing in memory bears on the task")

    t0 = time.perf_counter()
    strong = [c for c in distinct if c.relevance >= MIN_RELEVANCE]
    stats["dropped_weak"] = len(distinct) - len(strong)
    matrix = np.stack([c.vec for c in strong]) if strong else np.zeros((0, 1), dtype=np.float32)
    sims = _separate_calls(strong, matrix @ matrix.T)
    chosen = [(strong[i], value) for i, value in select([c.score for c in strong], sims, budget)]
    lacking = [c for c, _ in chosen if c not in pool]
    near = _neighbours(memory, [c.turn for c in lacking], now) if lacking else {}
    for cand in lacking:
        cand.context = near.get(cand.turn.id, [])
    items = [EvidenceItem(c.turn, round(value, 4), c.facets, c.why, c.context) for c, value in chosen]
    items += _context_items(items, budget, now)
    ms["select"] = _ms(t0)
    stats.update(kept=len(items), empty=not items)
    return Evidence(task, items, subqueries, stats)


def _context_items(items: list[EvidenceItem], budget: int, now: datetime) -> list[EvidenceItem]:
    """Session neighbours of kept items, into budget the ranked items left free (never
    displacing one), each scored below the item it accompanies."""
    seen = {item.turn.id for item in items}
    out: list[EvidenceItem] = []
    last = items[-1].score if items else 0.0
    for item in items:
        for turn in item.context:
            if len(items) + len(out) >= budget:
                return out
            if turn.id in seen:
                continue
            seen.add(turn.id)
            last = min(last, round(CONTEXT_WEIGHT * item.score, 4))
            out.append(
                EvidenceItem(
                    turn,
                    last,
                    ["context"],
                    ["context of a kept turn", age_label(turn.time, now)],
                    [item.turn],
                )
            )
    return out


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
    memory: MemoryLike,
    cands: list[_Candidate],
    found: list[_Candidate],
    tool: dict[str, Any] | None,
    now: datetime,
) -> tuple[list[_Candidate], int, int]:
    """Fold past tool calls: per tool, keep the ``MAX_TOOL_CALLS`` most salient and sum up
    all of them; a plain request that produced a call ("please book ride: xl, 7am") goes
    with that call: it stays while its call is kept, it is folded with it otherwise
    (``found``: all candidates, near-duplicates too).
    Returns (kept, calls folded, requests folded)."""
    requests = _requests(memory, found, now)
    calls = [c for c in cands if isinstance(c.turn.tool_call, dict)]
    by_tool: dict[str, list[_Candidate]] = {}
    for call in calls:
        by_tool.setdefault(str(call.turn.tool_call.get("name")), []).append(call)  # type: ignore[union-attr]
    folded: set[int] = set()
    for name, group in by_tool.items():
        if len(group) <= MAX_TOOL_CALLS:
            continue
        group.sort(key=lambda c: -c.score)
        summary = past_calls_summary([c.turn.tool_call.get("arguments") for c in group])  # type: ignore[union-attr]
        group[0].notes.append(f"{len(group)} past calls of {name} found: {summary}")
        group[0].score, group[0].why = _score(group[0], now, tool)
        folded |= {c.turn.id for c in group[MAX_TOOL_CALLS:]}
    kept_calls = {c.turn.id for c in calls if c.turn.id not in folded}
    kept = [
        c
        for c in cands
        if c.turn.id not in folded and (c.turn.id not in requests or requests[c.turn.id] in kept_calls)
    ]
    return kept, len(folded), len(cands) - len(kept) - len(folded)


def _separate_calls(cands: list[_Candidate], sims: np.ndarray) -> np.ndarray:
    """``sims`` with the similarity of two past tool calls set to 0 unless they are the same
    call: similar-looking calls with other arguments are different evidence."""
    import numpy as np

    rows = [i for i, c in enumerate(cands) if isinstance(c.turn.tool_call, dict)]
    if len(rows) > 1:
        keys = [json.dumps(cands[i].turn.tool_call, sort_keys=True, default=str) for i in rows]
        codes = np.array([keys.index(key) for key in keys])
        block = np.ix_(rows, rows)
        sims[block] = np.where(codes[:, None] == codes[None, :], sims[block], 0.0)
    return sims


def _requests(memory: MemoryLike, cands: list[_Candidate], now: datetime) -> dict[int, int]:
    """Plain user turns (no preference cue) whose tool call is a candidate too: request id -> call id."""
    calls = {c.turn.id for c in cands if isinstance(c.turn.tool_call, dict)}
    users = [c.turn for c in cands if c.turn.role == "user" and not _cued(c.turn)]
    near = _neighbours(memory, users, now) if users else {}
    out = {}
    for turn in users:
        after = [t for t in near[turn.id] if (t.time, t.id) > (turn.time, turn.id)]
        if after and after[0].id in calls:
            out[turn.id] = after[0].id
    return out


def _cued(turn: Turn) -> bool:
    """Whether the turn carries a preference cue beyond a mention of time."""
    return bool(set(detect_cues(turn.text).labels) - {"time-bound"})


def _empty(task: str, subqueries: list[tuple[str, str]], stats: dict[str, Any], reason: str) -> Evidence:
    stats.update(empty=True, empty_reason=reason, kept=0)
    return Evidence(task, [], subqueries, stats)


def _bears(best_dense: float, best_lexical: float, floors: Floors) -> bool:
    """Whether anything found bears on the task at all."""
    return best_dense >= floors.bears or best_lexical >= 0.5


def _stated_on_topic(cand: _Candidate, floors: Floors) -> bool:
    """The user's own preference statement sharing a content word with the task."""
    if cand.turn.role != "user" or cand.lexical <= 0 or cand.anchored < floors.item:
        return False
    return bool(set(detect_cues(cand.turn.text).labels) - {"time-bound", "habit"})


def _elliptical(turn: Turn) -> bool:
    """A short rejection or correction ("no, not that one"): it means little without context."""
    labels = detect_cues(turn.text).labels
    if "rejection" not in labels and "correction" not in labels:
        return False
    return len(content_words(turn.text)) <= ELLIPTICAL_WORDS


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
    memory: MemoryLike, pool: list[_Candidate], rel: _Relevance, now: datetime, tool: dict[str, Any] | None
) -> list[_Candidate]:
    """Attach session neighbours, and let relevance flow along the conversation.

    An elliptical turn ("no, not that one") borrows its neighbours' relevance; the reply to
    a relevant question borrows the question's (it is usually the answer). Returns the
    replies that were not candidates yet, as new candidates.
    """
    import numpy as np

    context = _neighbours(memory, [c.turn for c in pool], now)
    for cand in pool:
        cand.context = context.get(cand.turn.id, [])
    replies: dict[int, tuple[Turn, _Candidate]] = {}
    for cand in pool:
        if cand.own > 0 and detect_cues(cand.turn.text).question:
            after = [t for t in cand.context if (t.time, t.id) > (cand.turn.time, cand.turn.id)]
            if after and (after[0].id not in replies or replies[after[0].id][1].own < cand.own):
                replies[after[0].id] = (after[0], cand)
    needy = [c for c in pool if c.context and _elliptical(c.turn)]
    by_id = {t.id: t for c in needy for t in c.context} | {i: turn for i, (turn, _) in replies.items()}
    ids = sorted(by_id)
    if not ids:
        return []
    row = {turn_id: i for i, turn_id in enumerate(ids)}
    try:
        vecs = np.asarray(memory.vectors(ids), dtype=np.float32)
    except NotFound:  # a neighbour not indexed (yet): keep the context, borrow nothing
        return []
    own = rel.anchored_relevance([by_id[i] for i in ids], vecs)
    cos = rel.anchored_cosine(vecs)
    for cand in needy:
        rows = [row[t.id] for t in cand.context]
        _borrow(cand, CONTEXT_WEIGHT * float(own[rows].max()), now, tool)
    known = {c.turn.id: c for c in pool}
    added: list[_Candidate] = []
    for turn_id, (turn, question) in replies.items():
        reply = known.get(turn_id)
        if reply is None:
            i = row[turn_id]
            reply = _Candidate(turn, -1, vecs[i], ["context"], float(cos[i]), own=float(own[i]))
            reply.relevance = reply.own
            reply.context = [question.turn]
            added.append(reply)
        _borrow(reply, CONTEXT_WEIGHT * question.own, now, tool)
    return added


def _borrow(cand: _Candidate, borrowed: float, now: datetime, tool: dict[str, Any] | None) -> None:
    if borrowed > cand.relevance:
        cand.relevance, cand.via_context = borrowed, True
    cand.score, cand.why = _score(cand, now, tool)
