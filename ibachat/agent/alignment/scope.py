"""What a statement was said about: the activity, tool or place it applies to, by meaning.

"Under 30 a head when we eat out" is about eating out, not about hotels; "keep your answers short" is
about the assistant's replies, not about a coffee's size; "I always get it hot at Spice Garden" is about
that restaurant. A preference, an amount or a habit applies where it was said; elsewhere it is left out.

The test is relative, so that it carries to any tool: a statement is out of this tool's scope when several
other activities are nearer to it than this tool is, and it names none of this tool's values. The other activities are
the product's own tool catalogue (tools of this tool's own kind, written in other words, do not count
against it) and the assistant's replies themselves. A statement about the person ("I'm vegetarian",
"my knee is bad") is near no activity in particular, so it stays in scope where it bears on a value.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Any

Embed = Callable[[list[str]], Any]

# On our own probes (MiniLM): an eating-out budget ranks hotels 7th and groceries 6th of 22 activities,
# a wish for short replies ranks a coffee's cup 12th, "economy cabin class" ranks a restaurant table 4th,
# a spice habit at one takeaway ranks a meal plan 8th; an aisle seat "on a plane or a train" ranks
# flights 2nd, an alert lead time ranks a diary's alert 3rd, cigarette smoke ranks a smoke-free room 1st.
# Tool texts this close are one kind of tool in other words (a "takeaway_order" and "order_food").
SAME_KIND = 0.6


@lru_cache(maxsize=1)
def _catalogue_texts() -> tuple[str, ...]:
    from ibachat.agent.meaning import catalogue, tool_text

    return tuple(tool_text(t) for t in catalogue())


def in_scope(sentences: Sequence[str], tool: dict[str, Any], embed: Embed | None) -> list[bool]:
    return _judge(sentences, tool, embed)[0]


def elsewhere(sentences: Sequence[str], tool: dict[str, Any], embed: Embed | None) -> list[bool]:
    """For each statement, whether one other activity is clearly what it is about (``CLEAR_GAP`` nearer
    than this tool, and it names none of this tool's values): "I never read long notes" and a meal's
    "notes" field. A phrase of it may still sound like this tool's; the statement says where it belongs."""
    return _judge(sentences, tool, embed)[1]


def _judge(
    sentences: Sequence[str], tool: dict[str, Any], embed: Embed | None
) -> tuple[list[bool], list[bool]]:
    """For each statement, whether it may apply to ``tool`` (False: it is about something else).

    A statement is in this tool's scope when the tool is among the ``TOP`` activities it is nearest to
    (a tool's nearness: half its own text, half its nearest parameter, so a statement about one feature,
    "a 5 minute alert is useless", is near every tool that has it) and no one activity is ``CLEAR_GAP``
    nearer, or when it names one of the tool's own values ("I've gone vegetarian" and a flight's
    ``meal: vegetarian``). Activities under ``RIVAL_MIN`` are no rivals: a statement near nothing in
    particular is about the person, and stays in scope where it bears on a value."""
    from ibachat.agent.reading.schema_map import gives_a_reply

    if embed is None or not sentences or gives_a_reply(tool):
        # a tool whose act is giving the user one of its replies answers whatever was asked: what the
        # user said bears on it through its replies' meaning (grounding), not through an activity
        return [True] * len(sentences), [False] * len(sentences)
    from ibachat.agent.meaning import VECTORS

    spans, mat, kinds = _activities(tool, embed)
    # what the statement says it is about ("when we go out for a meal", "for a room"), else all of it
    from ibachat.agent.reading.about import activity_of

    # a sentence that lists several things ("decaf only, aisle seats and easy, low-impact exercise") is
    # about each of them: it is in scope when the whole or one of its parts is
    judged: list[str] = []
    owner: list[int] = []
    for i, s in enumerate(sentences):
        about = " ".join(activity_of(s))
        for text in [about] if about else [s, *_listed_parts(s)]:
            judged.append(text)
            owner.append(i)
    said = VECTORS.get(embed, judged)
    sims = said @ mat.T
    values = _own_values(tool)
    named = [_names_a_value(s, values) for s in sentences]
    near, other = _near_enough(sims, spans, kinds)
    verdicts = [False] * len(sentences)
    away = [not n for n in named]
    for i, ok, far in zip(owner, near, other):
        verdicts[i] = verdicts[i] or bool(ok) or named[i]
        away[i] = away[i] and bool(far)
    return verdicts, away


_ACTIVITIES: dict[tuple[Any, ...], tuple[Any, list[tuple[int, int]], Any, Any]] = {}


def _activities(tool: dict[str, Any], embed: Embed) -> tuple[list[tuple[int, int]], Any, Any]:
    """The activities a statement is compared with, for ``tool``: the replies, then the tool, then the
    catalogue's other tools, each its text and its parameters' (``spans`` into the rows of ``mat``), and
    how near each other tool is to this one (``kinds``). They never change for one embedder and tool, so
    they are kept per embedder (a bound method's object, as ``VECTORS`` keys it) and tool."""
    import weakref

    from ibachat.agent.meaning import REPLIES, VECTORS, catalogue, param_texts, tool_text

    target = tool_text(tool)
    owner = getattr(embed, "__self__", None)
    key = (id(owner), target, tuple(param_texts(tool)))
    hit = _ACTIVITIES.get(key) if owner is not None else None
    if hit is not None and hit[0]() is owner:
        return hit[1], hit[2], hit[3]
    others = [t for t in catalogue() if tool_text(t) != target]
    tools = [tool, *others]
    texts = [REPLIES]
    spans: list[tuple[int, int]] = []
    for t in tools:
        start = len(texts)
        texts += [tool_text(t), *(param_texts(t) or [tool_text(t)])]
        spans.append((start, len(texts)))
    mat = VECTORS.get(embed, texts)
    kinds = mat[[a for a, _ in spans[1:]]] @ mat[spans[0][0]]
    if owner is not None and hasattr(owner, "__weakref__"):  # kept while that object lives
        if len(_ACTIVITIES) >= 256:
            _ACTIVITIES.clear()
        _ACTIVITIES[key] = (weakref.ref(owner), spans, mat, kinds)
    return spans, mat, kinds


def _listed_parts(sentence: str) -> list[str]:
    """The parts of a sentence that lists things, split at commas, semicolons and "and" (two words or more
    each); none when it is one thing."""
    parts = [p.strip() for p in re.split(r"[,;]|\band\b", sentence) if len(p.split()) >= 2]
    return parts if len(parts) >= 2 else []


def _names_a_value(sentence: str, values: list[str]) -> bool:
    """Whether the sentence names one of the tool's own values (as a word of its own)."""
    low = sentence.lower()
    return any(re.search(rf"(?<![\w-]){re.escape(v)}(?![\w-])", low) for v in values)


def _near_enough(sims: Any, spans: list[tuple[int, int]], kinds: Any) -> tuple[Any, Any]:
    """Each text's verdict (one per row of ``sims``): the tool among the ``TOP`` nearest activities and
    none ``CLEAR_GAP`` nearer; and whether one is that much nearer. A tool's nearness is half its own text's similarity, half its nearest
    parameter's; the replies count as one more activity, tools of this tool's own kind as none."""
    import numpy as np

    cols = [
        0.5 * sims[:, a] + 0.5 * sims[:, a + 1 : b].max(axis=1) if b > a + 1 else sims[:, a] for a, b in spans
    ]
    near = np.stack(cols, axis=1)
    own = near[:, :1]
    rivals = np.concatenate([near[:, 1:][:, kinds < SAME_KIND], sims[:, :1]], axis=1)  # the replies too
    nearer = (rivals > own) & (rivals >= RIVAL_MIN)
    rank = 1 + nearer.sum(axis=1)
    clearly_other = (nearer & (rivals - own >= CLEAR_GAP)).any(axis=1)
    return (rank <= TOP) & ~clearly_other, clearly_other


TOP = 3  # of the catalogue's activities (and the replies): set on our own probes (above)
# An activity the statement is this faintly near is no rival: "a quiet little wine cellar with candles"
# is 0.37 from a hotel, 0.30 from a coffee and 0.26 from a table, about none of them (MiniLM cosine).
RIVAL_MIN = 0.2
# One activity this much nearer than the tool is what the statement is about, however few others are:
# "£140 a night is my ceiling for a room" is 0.45 from a hotel and 0.13 from a grocery order.
CLEAR_GAP = 0.15


def _own_values(tool: dict[str, Any]) -> list[str]:
    """The tool's enum values that say something ("vegetarian", "aisle"; not "any", "standard")."""
    from ibachat.agent.reading.schema_map import GENERIC_ENUMS

    out = []
    for prop in ((tool.get("parameters") or {}).get("properties") or {}).values():
        if not isinstance(prop, dict):
            continue
        enum = prop.get("enum") or (
            (prop.get("items") or {}).get("enum") if isinstance(prop.get("items"), dict) else None
        )
        for v in enum or []:
            label = str(v).replace("_", " ").lower()
            if isinstance(v, str) and len(label) >= 4 and label not in GENERIC_ENUMS:
                out.append(label)
    return out
