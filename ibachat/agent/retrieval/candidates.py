"""Deep Retrieval's candidates and what the conversation around them says.

A turn is read with its session: an elliptical turn ("no, not that one") borrows the
relevance of the turn it answers, and so does the reply to a relevant question (it is
usually the answer). Past tool calls are folded per tool, with the plain requests that
produced them; session neighbours ride along as context and only fill budget that ranked
items left free.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any, Protocol

from ibachat.agent.retrieval.facets import content_words
from ibachat.agent.retrieval.relevance import Relevance, cued
from ibachat.agent.retrieval.salience import age_label, detect_cues, past_calls_summary
from ibachat.agent.types import EvidenceItem
from memory.errors import NotFound
from memory.memory import NEVER_USE
from memory.types import Hit, Turn

if TYPE_CHECKING:
    import numpy as np

CONTEXT_WEIGHT = 0.85  # relevance a turn borrows from the turn it answers
ELLIPTICAL_WORDS = 6  # a rejection or correction with at most this many content words needs context
MAX_TOOL_CALLS = 3  # past calls of one tool kept as items; the rest are summed up in a why label
NEIGHBOUR_WINDOW = 3  # session neighbours are looked for within this many ids


class MemoryLike(Protocol):
    """The part of ``memory.memory.Memory`` that retrieval uses."""

    @property
    def embedder(self) -> Any: ...

    def __len__(self) -> int: ...

    def get_many(self, ids: Sequence[int]) -> list[Turn]: ...

    def search(self, query: str, k: int = 10, *, mode: str = "hybrid", vector: Any = None) -> list[Hit]: ...

    def search_many(self, requests: Sequence[tuple[str, int, str, Any]]) -> list[list[Hit]]: ...

    def embed_queries(self, texts: list[str]) -> np.ndarray: ...

    def vectors(self, ids: Sequence[int]) -> np.ndarray: ...


@dataclass
class Candidate:
    turn: Turn
    vec: Any  # its stored vector
    facets: list[str] = field(default_factory=list)  # the sub-queries that found it
    anchored: float = 0.0  # best cosine to the task's own sub-queries
    lexical: float = 0.0  # fraction of task terms in the text
    own: float = 0.0  # relevance to the task's own sub-queries
    relevance: float = 0.0  # the best of own, through a cue, and borrowed from context
    via_context: bool = False
    context: list[Turn] = field(default_factory=list)
    repeats: int = 0
    notes: list[str] = field(default_factory=list)  # extra why labels (a summary of folded calls)
    score: float = 0.0
    why: list[str] = field(default_factory=list)


def is_empty(memory: MemoryLike) -> bool:
    """Whether ``memory`` holds no turn: its own ``is_empty`` where it has one (``Memory``'s reads no
    more segments than it must), else ``len``."""
    check = getattr(memory, "is_empty", None)
    return bool(check()) if callable(check) else len(memory) == 0


Rescore = Callable[[Candidate], None]  # sets a candidate's score and why labels


def usable(turn: Turn, now: datetime, task: str) -> bool:
    """Not flagged, not from the future, and not the task itself just stored."""
    if NEVER_USE in turn.flags or turn.time > now:
        return False
    echo = turn.role == "user" and " ".join(turn.text.split()) == task
    return not (echo and (now - turn.time).total_seconds() < 3600)


def elliptical(turn: Turn) -> bool:
    """A short rejection or correction ("no, not that one"): it means little without context."""
    labels = detect_cues(turn.text).labels
    if "rejection" not in labels and "correction" not in labels:
        return False
    return len(content_words(turn.text)) <= ELLIPTICAL_WORDS


def neighbours(memory: MemoryLike, turns: Sequence[Turn], now: datetime) -> dict[int, list[Turn]]:
    """The turn before and after each of ``turns`` in its session, read in one batch.

    Turns of a session get nearby ids (they are stored as they happen), so the store is
    read only within ``NEIGHBOUR_WINDOW`` ids of each turn.
    """
    if not turns:
        return {}
    ids = sorted(
        {i for t in turns for i in range(max(1, t.id - NEIGHBOUR_WINDOW), t.id + NEIGHBOUR_WINDOW + 1)}
    )
    by_session: dict[str, list[Turn]] = {}
    for near in memory.get_many(ids):
        if usable(near, now, ""):
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


def _after(turn: Turn, near: list[Turn]) -> Turn | None:
    later = [t for t in near if (t.time, t.id) > (turn.time, turn.id)]
    return later[0] if later else None


def separate_calls(cands: Sequence[Candidate], sims: np.ndarray) -> np.ndarray:
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


def fold_tool_calls(
    memory: MemoryLike, distinct: list[Candidate], found: list[Candidate], now: datetime, rescore: Rescore
) -> tuple[list[Candidate], int, int]:
    """Per tool, keep the ``MAX_TOOL_CALLS`` most salient past calls and sum up all of them.

    A plain request that produced a call ("please book ride: xl, 7am") goes with its call:
    it stays while the call is kept and is folded with it otherwise (``found``: all
    candidates, near-duplicates too). Returns (kept, calls folded, requests folded).
    """
    calls = {c.turn.id for c in found if isinstance(c.turn.tool_call, dict)}
    # only a user turn shortly before a found call can be its request: the others need no read
    users = [
        c.turn
        for c in found
        if c.turn.role == "user"
        and any(c.turn.id + step in calls for step in range(1, NEIGHBOUR_WINDOW + 1))
        and not cued(c.turn)
    ]
    near = neighbours(memory, users, now)
    requests = {t.id: nxt.id for t in users if (nxt := _after(t, near[t.id])) is not None and nxt.id in calls}
    by_tool: dict[str, list[Candidate]] = {}
    for cand in distinct:
        if isinstance(cand.turn.tool_call, dict):
            by_tool.setdefault(str(cand.turn.tool_call.get("name")), []).append(cand)
    folded: set[int] = set()
    for name, group in by_tool.items():
        if len(group) <= MAX_TOOL_CALLS:
            continue
        group.sort(key=lambda c: -c.score)
        summary = past_calls_summary([c.turn.tool_call.get("arguments") for c in group])  # type: ignore[union-attr]
        group[0].notes.append(f"{len(group)} past calls of {name} found: {summary}")
        rescore(group[0])
        folded |= {c.turn.id for c in group[MAX_TOOL_CALLS:]}
    kept_calls = {c.turn.id for group in by_tool.values() for c in group} - folded
    kept = [
        c
        for c in distinct
        if c.turn.id not in folded and (c.turn.id not in requests or requests[c.turn.id] in kept_calls)
    ]
    return kept, len(folded), len(distinct) - len(kept) - len(folded)


def add_context(
    memory: MemoryLike,
    pool: list[Candidate],
    known: dict[int, Candidate | None],
    rel: Relevance,
    now: datetime,
    rescore: Rescore,
) -> list[Candidate]:
    """Attach session neighbours to ``pool``, and let relevance flow along the conversation.

    An elliptical turn borrows its neighbours' relevance; the reply to a relevant question
    borrows the question's. ``known`` maps every candidate id to its candidate (None when it
    was folded into another). Returns the replies that were no candidate yet, as new ones.
    """
    import numpy as np

    context = neighbours(memory, [c.turn for c in pool], now)
    for cand in pool:
        cand.context = context.get(cand.turn.id, [])
    replies: dict[int, tuple[Turn, Candidate]] = {}
    for cand in pool:
        if cand.own > 0 and detect_cues(cand.turn.text).question:
            reply = _after(cand.turn, cand.context)
            if reply is not None and (reply.id not in replies or replies[reply.id][1].own < cand.own):
                replies[reply.id] = (reply, cand)
    needy = [c for c in pool if c.context and elliptical(c.turn)]
    by_id = {t.id: t for c in needy for t in c.context} | {i: turn for i, (turn, _) in replies.items()}
    if not by_id:
        return []
    ids = sorted(by_id)
    row = {turn_id: i for i, turn_id in enumerate(ids)}
    try:
        vecs = np.asarray(memory.vectors(ids), dtype=np.float32)
    except NotFound:  # a neighbour not indexed (yet): keep the context, borrow nothing
        return []
    own = rel.own([by_id[i] for i in ids], vecs)
    cos = rel.cosine(vecs)
    for cand in needy:
        _borrow(cand, CONTEXT_WEIGHT * float(own[[row[t.id] for t in cand.context]].max()), rescore)
    added: list[Candidate] = []
    for turn_id, (turn, question) in replies.items():
        if turn_id in known and known[turn_id] is None:
            continue  # folded into another candidate
        reply = known.get(turn_id)
        if reply is None:
            i = row[turn_id]
            reply = Candidate(turn, vecs[i], ["context"], float(cos[i]), own=float(own[i]))
            reply.relevance, reply.context = reply.own, [question.turn]
            added.append(reply)
        _borrow(reply, CONTEXT_WEIGHT * question.own, rescore)
    return added


def _borrow(cand: Candidate, borrowed: float, rescore: Rescore) -> None:
    if borrowed > cand.relevance:
        cand.relevance, cand.via_context = borrowed, True
    rescore(cand)


def context_items(items: list[EvidenceItem], budget: int, now: datetime) -> list[EvidenceItem]:
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
            why = ["context of a kept turn", age_label(turn.time, now)]
            out.append(EvidenceItem(turn, last, ["context"], why, [item.turn]))
    return out
