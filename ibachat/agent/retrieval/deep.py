"""Deep Retrieval: the first step of the IBA-Agent planner.

``deep_retrieve`` expands the task into sub-queries (``facets``), embeds them in one batch
and searches with each. The task's own ranking is the backbone; the other sub-queries
only add candidates, and enter with real relevance to the task (``relevance``). Salience
is a bounded multiplicative bonus on that relevance (``salience``): it reorders turns of
comparable relevance and never lifts an irrelevant one. The conversation around a turn
counts (``candidates``): the reply to a relevant question and an elliptical "no, not
that one" borrow relevance from the turn they answer; past tool calls fold per tool with
their requests. Near-duplicates fold into one item; an item that restates one already
chosen is discounted (``salience.select``), while turns that are merely on the same
topic, such as the several facts a question needs, are not pushed apart. Session
neighbours ride along as context and fill only budget that ranked items left free.
When nothing in memory bears on the task (no real term overlap, and every similarity to
the task below a floor calibrated for the embedder), the evidence is empty.

Whatever the fusion makes of them, the task's own best fused candidates and its dense top
hits are kept in the evidence, and so, for a task that asks for a choice, are the user's stated
preferences closest to it (``stated``): other sub-queries only add to them. With BGE-M3 its
own sparse output is one more lexical channel (``sparse``).

``mode`` selects the baselines used for ablations: ``single`` (one hybrid query, the
``rag`` baseline), ``dense`` and ``lexical`` (one query, one index).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import datetime
from typing import TYPE_CHECKING, Any

from ibachat.agent.retrieval.candidates import (
    Candidate,
    MemoryLike,
    add_context,
    context_items,
    elliptical,
    fold_tool_calls,
    is_empty,
    neighbours,
    separate_calls,
    usable,
)
from ibachat.agent.retrieval.facets import FACET_VOCAB, expand, is_anchored, terms
from ibachat.agent.retrieval.relevance import (
    LEXICAL_IGNORE,
    Floors,
    Found,
    Relevance,
    cued,
    floors_for,
    lexical_query,
    query_weight,
)
from ibachat.agent.retrieval.salience import detect_cues, drop_near_duplicates, score_turn, select
from ibachat.agent.retrieval.sparse import SPARSE_BEARS, sparse_scores
from ibachat.agent.retrieval.stated import STATED_DEPTH, asks_for_choice, best_stated, is_stated, stated_kind
from ibachat.agent.types import Evidence, EvidenceItem, PlannerCounters
from ibachat.errors import ConfigError
from memory.errors import NotFound
from memory.types import Turn, parse_time

if TYPE_CHECKING:
    import numpy as np

    from ibachat.llm.base import LLM

__all__ = ["MODES", "MemoryLike", "deep_retrieve"]

MODES = ("deep", "single", "dense", "lexical")
TASK_MIX = 0.5  # weight of the task's vector in a generic facet's search vector
MIN_DEPTH = 30  # each anchored sub-query reads at least this many hits from each index
DEPTH_FACTOR = 3  # ... and at least DEPTH_FACTOR * budget
FACET_K = 20  # hits read per generic facet
POOL_FACTOR = 2  # the top POOL_FACTOR * budget candidates get their session context
MIN_RELEVANCE = 0.05  # below this, a turn is not evidence whatever its cues
PROTECTED = 3  # the task's own best candidates that facets and cues never push out
PROTECT_MIN = 0.15  # ... when at least this relevant to the task's own sub-queries
DENSE_KEEP = 2  # ... and the task's own dense top hits, whatever the fusion made of them
LEXICAL_KEEP = 0  # ... and its BM25 top hits (tuned on LoCoMo 1-5: 2 gave nothing more)
STANDOUT_RANK = 10  # see ``_stands_out``
STANDOUT_Z = 0.0
FIRST_PERSON_RANK = 10  # ... or a plain first-person statement among its first this many
FIRST_PERSON_Z = 3.0  # ... this many spreads above the median


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
    elif not task or budget == 0 or is_empty(memory):
        evidence = Evidence(task, [], [("task", task)] if task else [], {"mode": mode, "empty": True})
    else:
        evidence = _deep(memory, task, now, tool, llm, budget, counters)
    evidence.stats.setdefault("ms", {})["total"] = _ms(start)
    counters.timings_ms["retrieve"] = evidence.stats["ms"]["total"]
    return evidence


def _single(memory: MemoryLike, task: str, now: datetime, budget: int, mode: str) -> Evidence:
    """One query, top-``budget`` hits of one search: the baselines and ablations.

    Items keep the search's own score (fused rank, cosine or BM25), not a salience.
    """
    search_mode = "hybrid" if mode == "single" else mode
    stats: dict[str, Any] = {"mode": mode, "ms": {}}
    if not task or budget == 0 or is_empty(memory):
        stats["empty"] = True
        return Evidence(task, [], [("task", task)] if task else [], stats)
    t0 = time.perf_counter()
    hits = memory.search(task, budget, mode=search_mode)
    stats["ms"]["search"] = _ms(t0)
    turns = {t.id: t for t in memory.get_many([h.id for h in hits])}
    items = [
        EvidenceItem(turns[h.id], h.score, ["task"], [f"{search_mode} hit", "task"])
        for h in hits
        if h.id in turns and usable(turns[h.id], now, task)
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
    memory: MemoryLike, subqueries: list[tuple[str, str]], qvecs: np.ndarray, budget: int, choice: bool
) -> Found:
    """Each anchored sub-query through both indexes (their own scores are kept), each generic
    facet through one hybrid search. For a task that asks for a choice, the task's dense hits
    beyond the usual depth are kept apart as ``stated`` (``stated``: only stated preferences
    among them become candidates)."""
    depth = max(DEPTH_FACTOR * budget, MIN_DEPTH)
    found = Found()
    requests: list[tuple[str, int, str, Any]] = []
    for (facet, query), vec in zip(subqueries, qvecs, strict=True):
        if is_anchored(facet):
            deeper = STATED_DEPTH if choice and facet == "task" else depth
            requests += [
                (lexical_query(query), depth, "lexical", None),
                (query, max(depth, deeper), "dense", vec),
            ]
        else:
            requests.append((query, FACET_K, "hybrid", vec))
    hits = iter(memory.search_many(requests))  # the dense parts in one pass over the vectors
    for (facet, query), _vec in zip(subqueries, qvecs, strict=True):
        if is_anchored(facet):
            words = lexical_query(query)
            lexical = next(hits)
            dense = next(hits)
            dense, beyond = dense[:depth], dense[depth:]
            found.bm25[facet] = {hit.id: hit.score for hit in lexical}
            found.weight[facet] = query_weight(memory, words)
            found.dense[facet] = {hit.id: hit.score for hit in dense}
            found.add(facet, dense + lexical)
            if beyond:
                found.dense["stated"] = {hit.id: hit.score for hit in beyond}
                found.add("stated", beyond)
        else:
            found.add(facet, next(hits))
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
    qvecs, _ = _embed_subqueries(memory, subqueries)
    ms["embed"] = _ms(t0)

    t0 = time.perf_counter()
    choice = asks_for_choice(task)
    found = _search(memory, subqueries, qvecs, budget, choice)
    ms["search"] = _ms(t0)
    stats["candidates"] = len(found.by)

    t0 = time.perf_counter()
    turns = [t for t in memory.get_many(list(found.by)) if usable(t, now, task)]
    task_dense = found.dense.get("task", {}) | found.dense.get("stated", {})
    stated = best_stated(turns, task_dense) if choice else []
    # beyond the usual depth, only statements of taste and the channel's own pick are candidates
    turns = [t for t in turns if found.by[t.id] != ["stated"] or t.id in stated or stated_kind(t) == "taste"]
    turns, vecs = _with_vectors(memory, turns)
    stats["unusable"] = len(found.by) - len(turns)
    if not turns:
        ms["score"] = _ms(t0)
        return _empty(task, subqueries, stats, "no candidates")
    if sparse := sparse_scores(memory.embedder, task, turns):
        found.sparse["task"] = sparse
    stats["sparse"] = len(sparse)  # candidates the embedder's own sparse channel scored (BGE-M3)
    floors = floors_for(memory)
    rel = Relevance(subqueries, qvecs, found, floors)
    rescore = _rescorer(now, tool)
    cands = _candidates(task, turns, vecs, found, rel, now, rescore)
    ms["score"] = _ms(t0)

    t0 = time.perf_counter()
    kept = drop_near_duplicates(
        sorted(range(len(cands)), key=lambda i: -cands[i].score), separate_calls(cands, vecs @ vecs.T)
    )
    for i, copies in kept.items():
        if copies:
            cands[i].repeats = copies
            rescore(cands[i])
    distinct, folded, requests = fold_tool_calls(memory, [cands[i] for i in kept], cands, now, rescore)
    stats.update(
        dropped_duplicates=len(cands) - len(kept), folded_tool_calls=folded, folded_requests=requests
    )
    ms["dedup"] = _ms(t0)

    t0 = time.perf_counter()
    ranked = sorted(distinct, key=lambda c: -c.score)
    pool = ranked[: POOL_FACTOR * budget] + [c for c in ranked[POOL_FACTOR * budget :] if elliptical(c.turn)]
    known: dict[int, Candidate | None] = {c.turn.id: None for c in cands} | {c.turn.id: c for c in distinct}
    distinct += add_context(memory, pool, known, rel, now, rescore)
    ms["context"] = _ms(t0)

    best_anchor = max(c.anchored for c in cands)
    best_lexical = max(c.lexical for c in cands)
    stats.update(best_dense=round(best_anchor, 3), best_lexical=round(best_lexical, 3))
    if not (
        _bears(best_anchor, best_lexical, floors)
        or any(_stated_on_topic(c, floors) for c in cands)
        or _stands_out(cands, found.dense.get("task", {}), floors)
        or stated
        or max(sparse.values(), default=0.0) >= SPARSE_BEARS
    ):
        return _empty(task, subqueries, stats, "nothing in memory bears on the task")

    t0 = time.perf_counter()
    strong = [c for c in distinct if c.relevance >= MIN_RELEVANCE]
    by_turn = {c.turn.id: c for c in distinct}
    stats["dropped_weak"] = len(distinct) - len(strong)
    matrix = np.stack([c.vec for c in strong]) if strong else np.zeros((0, 1), dtype=np.float32)
    chosen = [
        (strong[i], value)
        for i, value in select([c.score for c in strong], separate_calls(strong, matrix @ matrix.T), budget)
    ]
    tops = _channel_tops(found, {c.turn.id: c for c in strong})
    chosen = _keep_task_hits(chosen, strong, tops + [by_turn[i] for i in stated if i in by_turn], budget)
    in_pool = {id(c) for c in pool}
    lacking = [c for c, _ in chosen if id(c) not in in_pool]
    near = neighbours(memory, [c.turn for c in lacking], now)
    for cand in lacking:
        cand.context = near.get(cand.turn.id, [])
    items = [EvidenceItem(c.turn, round(value, 4), c.facets, c.why, c.context) for c, value in chosen]
    items += context_items(items, budget, now)
    items += _task_backfill(items, distinct, found.dense.get("task", {}), budget)
    ms["select"] = _ms(t0)
    stats.update(kept=len(items), empty=not items)
    return Evidence(task, items, subqueries, stats)


def _candidates(
    task: str,
    turns: list[Turn],
    vecs: np.ndarray,
    found: Found,
    rel: Relevance,
    now: datetime,
    rescore: Callable[[Candidate], None],
) -> list[Candidate]:
    """One scored candidate per found turn: relevance through the task's own sub-queries, or
    through a preference cue, whichever is stronger."""
    cosine, own, through_cues = rel.cosine(vecs), rel.own(turns, vecs), rel.through_cues(turns, vecs, now)
    task_terms = terms(task) - LEXICAL_IGNORE
    cands = []
    for i, turn in enumerate(turns):
        cand = Candidate(turn, vecs[i], list(found.by[turn.id]), float(cosine[i]), own=float(own[i]))
        cand.relevance = max(cand.own, float(through_cues[i]))
        if task_terms:
            cand.lexical = len(task_terms & terms(turn.text)) / min(len(task_terms), 3)
        rescore(cand)
        cands.append(cand)
    return cands


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


def _empty(task: str, subqueries: list[tuple[str, str]], stats: dict[str, Any], reason: str) -> Evidence:
    stats.update(empty=True, empty_reason=reason, kept=0)
    return Evidence(task, [], subqueries, stats)


def _bears(best_dense: float, best_lexical: float, floors: Floors) -> bool:
    """Whether anything found bears on the task at all."""
    return best_dense >= floors.bears or best_lexical >= 0.5


def _stated_on_topic(cand: Candidate, floors: Floors) -> bool:
    """The user's own preference statement sharing a content word with the task."""
    if cand.turn.role != "user" or cand.lexical <= 0 or cand.anchored < floors.item:
        return False
    return bool(set(detect_cues(cand.turn.text).labels) - {"time-bound", "habit"})


def _channel_tops(found: Found, by_turn: dict[int, Candidate]) -> list[Candidate]:
    """The task's own first ``DENSE_KEEP`` dense and ``LEXICAL_KEEP`` BM25 hits, as candidates:
    the fusion reorders the rest, but a single channel's best never drops out of the evidence."""
    out = []
    for scores, keep in (
        (found.dense.get("task", {}), DENSE_KEEP),
        (found.bm25.get("task", {}), LEXICAL_KEEP),
    ):
        ids = [i for i in sorted(scores, key=lambda i: -scores[i]) if i in by_turn][:keep]
        out += [by_turn[i] for i in ids]
    return out


def _keep_task_hits(
    chosen: list[tuple[Candidate, float]], strong: list[Candidate], stated: list[Candidate], budget: int
) -> list[tuple[Candidate, float]]:
    """The task's own ``PROTECTED`` best candidates (by relevance to the task's own sub-queries,
    before any cue or facet) stay chosen: a turn that only a facet or a cue lifted takes the
    place of none of them; so do the ``stated`` preferences closest to a task that asks for a
    choice (``stated``). A missing one replaces the lowest chosen turn that is not protected,
    at that turn's place and value."""
    ranked = sorted((c for c in strong if c.own >= PROTECT_MIN), key=lambda c: -c.own)
    keep = [(c, "a best match of the task itself") for c in ranked[:PROTECTED]]
    keep += [(c, "a stated preference closest to the task") for c in stated]
    protected = {id(c) for c, _ in keep}
    have = {id(c) for c, _ in chosen}
    out = list(chosen)
    for cand, why in keep:
        if id(cand) in have:
            continue
        # a fact about the user takes the place of no other statement of the user's about
        # themselves: the ranking already ordered those, and the fact is the weaker evidence
        fact = stated_kind(cand.turn) == "fact"
        spot = next(
            (
                i
                for i in range(len(out) - 1, -1, -1)
                if id(out[i][0]) not in protected and not (fact and is_stated(out[i][0].turn))
            ),
            None,
        )
        if len(out) < budget:
            out.append((cand, out[-1][1] if out else 0.0))
        elif spot is None:
            continue
        else:
            out[spot] = (cand, out[spot][1])
        cand.why.append(why)
        have.add(id(cand))
    return out


def _task_backfill(
    items: list[EvidenceItem], distinct: list[Candidate], dense: dict[int, float], budget: int
) -> list[EvidenceItem]:
    """Budget that ranked items and their context left free goes to the task's own dense hits,
    in their order: whatever the fusion judged too weak, Deep Retrieval never returns less of
    that channel than it would. Past the dense top ``budget`` too: where near-duplicates folded
    or hits were already chosen, a list that stopped there came back short (8 or 9 of 10
    items), one slot less for the turn that the ranking missed. Each scores at most the item
    before it."""
    if len(items) >= budget:
        return []
    have = {item.turn.id for item in items}
    by_id = {c.turn.id: c for c in distinct}
    last = items[-1].score if items else 1.0
    out: list[EvidenceItem] = []
    for turn_id in sorted(dense, key=lambda i: -dense[i]):
        cand = by_id.get(turn_id)
        if cand is None or turn_id in have:
            continue
        if len(items) + len(out) >= budget:
            break
        last = min(last, round(max(cand.score, 0.0), 4))
        out.append(EvidenceItem(cand.turn, last, cand.facets, [*cand.why, "a dense match of the task"], []))
    return out


def _stands_out(cands: list[Candidate], dense: dict[int, float], floors: Floors) -> bool:
    """A statement of the user's own, with a preference cue, that the task's dense search
    ranks among its first ``STANDOUT_RANK`` (and whose cosine stands ``STANDOUT_Z`` spreads
    above the list's median; 0 asks only that it be above it): a preference in other words
    than the task's ("what course should I take?" against "I can't stand online classes")
    bears on it even below the cosine floor. Tuned on PrefEval development topics, where a
    positive ``STANDOUT_Z`` emptied evidence that the dense channel alone found."""
    import numpy as np

    if len(dense) < 2 * STANDOUT_RANK:
        return False
    scores = np.array(sorted(dense.values(), reverse=True))
    median, spread = float(np.median(scores)), float(scores[1:].std())
    order = [i for i, _ in sorted(dense.items(), key=lambda p: -p[1])]
    top, first = set(order[:STANDOUT_RANK]), set(order[:FIRST_PERSON_RANK])
    for cand in cands:
        if cand.turn.id not in top or cand.turn.role != "user":
            continue
        z = (dense[cand.turn.id] - median) / max(spread, 1e-6)
        if z >= STANDOUT_Z and cued(cand.turn):
            return True
        # a first-person statement (not a question) high in the task's dense search and
        # far above the rest: "Crowds make me anxious" for "where should we go on Saturday?"
        cues = detect_cues(cand.turn.text)
        if cand.turn.id in first and z >= FIRST_PERSON_Z and cues.first_person and not cues.question:
            return True
    return False


def _rescorer(now: datetime, tool: dict[str, Any] | None) -> Callable[[Candidate], None]:
    """Sets a candidate's salience-weighted score and why labels."""
    tool_name = str(tool.get("name")) if tool and tool.get("name") else None

    def rescore(cand: Candidate) -> None:
        score, why = score_turn(cand.turn, cand.relevance, now, tool_name=tool_name, repeats=cand.repeats)
        if cand.via_context:
            why.append("relevant with its context")
        why += cand.notes
        labels = dict.fromkeys(
            f"facet: {f.removeprefix('param:')}" for f in cand.facets if f not in ("task", "context")
        )
        cand.score, cand.why = score, why + list(labels)

    return rescore
