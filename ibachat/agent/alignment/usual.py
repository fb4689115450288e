""" "The usual": what the user's past calls of this tool say, when the task refers to a habit.

"Order dinner from the usual Thai place" names no restaurant, but the user's past calls of
the same tool do. For each free-text parameter the plan takes the value the user chose most
(a value sharing a word with the task first: "Thai" picks Thai Orchid over Hearth & Grill),
and for a list of free text (dishes, items) the items of the latest past call that agrees
with those choices. The values are certain: execution lets no model replace them. A value
the task itself names ("from Green Bowl") always wins over the habit.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import TYPE_CHECKING, Any

import numpy as np

from ibachat.agent.alignment.request_values import stated_value, tool_about
from ibachat.agent.reading.schema_map import params
from memory.ledger import PreferenceEvent

if TYPE_CHECKING:
    from collections.abc import Callable
    from datetime import datetime

    from ibachat.agent.alignment.plan_types import AlignmentPlan
    from ibachat.agent.alignment.resolve import Resolution

    Embed = Callable[[list[str]], Any]

HABITUAL = re.compile(
    r"\b(?:the|my|our) (?:usual|regular)\b|\bas usual\b|\bas always\b|\blike (?:last time|always|before)\b"
    r"|\bsame (?:as (?:last time|before|always|usual)|again|order|place|one|thing|as ever)\b|\bre-?order\b|\bagain\b"
)
_PLAIN = frozenset("the and for from with usual regular place order again same get dinner lunch".split())


def habitual(task: str) -> bool:
    """Whether the task points at what the user usually does ("the usual", "same as last time")."""
    return bool(HABITUAL.search(task.lower()))


def free_text(prop: dict[str, Any]) -> bool:
    """A string the schema leaves open: no enum, const, format or pattern."""
    return prop.get("type") == "string" and not any(k in prop for k in ("enum", "const", "format", "pattern"))


def free_list(prop: dict[str, Any]) -> bool:
    items = prop.get("items") if isinstance(prop.get("items"), dict) else None
    return prop.get("type") == "array" and items is not None and free_text(items)


def _choices(res: Resolution, name: str) -> list[PreferenceEvent]:
    key = f"param:{name}"
    return [
        e
        for e in res.events.values()
        if e.dimension == key
        and e.kind == "chose"
        and e.polarity > 0
        and e.scope == "general"
        and res.status.get(e.id) in ("active", "outweighed")
    ]


def _best(chosen: list[PreferenceEvent], words: set[str]) -> tuple[str, int]:
    """The value chosen most, a value that shares a word with the task first, then the latest."""
    counts = Counter(e.value for e in chosen)
    last = {e.value: e.valid_from for e in sorted(chosen, key=lambda e: e.valid_from)}
    best = max(
        counts,
        key=lambda v: (len(set(re.findall(r"[a-z]{3,}", v.lower())) & words), counts[v], last[v]),
    )
    return best, counts[best]


_QUALIFIED = re.compile(
    r"\b(?:usual|regular)\s+((?:[a-z][\w'-]*\s+){0,3}?)(?:place|spot|restaurant|one|shop)\b", re.I
)


def kind_phrase(task: str) -> str:
    """The kind of place the habit is said to be, as said ("the usual Thai place": "Thai place")."""
    m = _QUALIFIED.search(task)
    return " ".join(m[0].split()[1:]) if m else ""


def qualifier(task: str) -> set[str]:
    """What kind of place the habit is said to be ("the usual Thai place": {"thai"})."""
    m = _QUALIFIED.search(task.lower())
    return set(re.findall(r"[a-z]{3,}", m[1])) - _PLAIN if m else set()


def _call_words(res: Resolution, value: str, param: str) -> set[str]:
    """The words of the past calls that chose ``value`` for ``param`` (all their arguments)."""
    turns = {t for e in _choices(res, param) if e.value == value for t in e.evidence}
    words = set(re.findall(r"[a-z]{3,}", value.lower()))
    for e in res.events.values():
        if e.kind == "chose" and set(e.evidence) & turns:
            words |= set(re.findall(r"[a-z]{3,}", str(e.value).lower()))
    return words


# "the usual Thai place" when no past call says "Thai": the past values are told apart by meaning, the kind
# against each value with what was had there ("Bangkok Garden: jungle curry, pad kra pao"), cosines of
# all-MiniLM-L6-v2. On 15 probes in tests/agent/test_usual_kind.py (cuisines, shops; a kind none of the
# past places is), the place that is of the kind scores 0.39-0.57 and leads the next by 0.17-0.30, a
# place of another kind at most 0.35 ("Indian place" and a Thai curry house): below this floor or this
# lead, the question asks, listing the past places, and claims nothing about them.
KIND_MIN = 0.38
KIND_LEAD = 0.15


def _call_text(res: Resolution, value: str, param: str) -> str:
    """A past value with what else its calls held: "Bangkok Garden: jungle curry, fried spring rolls"."""
    turns = {t for e in _choices(res, param) if e.value == value for t in e.evidence}
    others = [
        str(e.value)
        for e in sorted(res.events.values(), key=lambda e: e.valid_from)
        if e.kind == "chose"
        and set(e.evidence) & turns
        and str(e.value) != value
        and not str(e.value).isdigit()
    ]
    return f"{value}: {', '.join(dict.fromkeys(others))}" if others else value


def _of_kind(res: Resolution, values: list[str], param: str, kind: str, embed: Embed | None) -> str | None:
    """The one past value that is of ``kind`` by meaning, clearly; None when none is, or two could be."""
    return of_kind(kind, {v: _call_text(res, v, param) for v in values}, embed)


def of_kind(kind: str, described: dict[str, str], embed: Embed | None) -> str | None:
    """Of the values (each with what its calls held), the one that is ``kind`` by meaning: at least
    ``KIND_MIN`` near it and ``KIND_LEAD`` nearer than the next; None otherwise."""
    if embed is None or not described:
        return None
    from ibachat.agent.meaning import VECTORS

    values = list(described)
    mat = VECTORS.get(embed, [kind] + [described[v] for v in values])
    sims = sorted(((float(s), v) for s, v in zip(mat[1:] @ mat[0], values)), reverse=True)
    top, best = sims[0]
    lead = top - (sims[1][0] if len(sims) > 1 else 0.0)
    return best if top >= KIND_MIN and lead >= KIND_LEAD else None


def _states_since(plan: AlignmentPlan, res: Resolution, after: datetime) -> str:
    """What the user said of a state now in force that began after ``after`` and sets a value of this
    call (its words, as remembered), or ""."""
    said = []
    for e in res.events.values():
        name = e.dimension.removeprefix("param:")
        pd = plan.params.get(name)
        if (
            e.kind == "state"
            and e.valid_from > after
            and res.status.get(e.id) == "active"
            and pd is not None
            and pd.source == "state"
        ):
            said.append(pd.reason.split(": ", 1)[-1].strip().rstrip("."))
    return '"; "'.join(dict.fromkeys(said))


# An avoid said after the usual was last had bears on its items when it is this near one of them in meaning
# (all-MiniLM-L6-v2): "dairy" and "whole milk" 0.71, "vanilla ice cream" 0.56, "cheddar" 0.44; "crisps"
# 0.27, "no running" and a dish about 0.1. Nearness only turns the usual into a question, never drops an
# item silently, so a generous floor costs one question at worst.
USUAL_ITEM_NEAR = 0.42
_AVOID_KINDS = frozenset({"stated", "state", "rejected", "corrected", "updated"})


def _avoided_since(
    plan: AlignmentPlan,
    events: list[PreferenceEvent],
    after: datetime,
    items: list[str],
    embed: Embed | None,
) -> str:
    """What the user said to avoid after ``after`` (still in force) that is near one of ``items`` in
    meaning, in their words, or ""."""
    if embed is None or not items:
        return ""
    now = plan.now
    avoids = [
        e
        for e in events
        if e.polarity < 0
        and e.kind in _AVOID_KINDS
        and e.speaker == "user"
        and e.valid_from > after
        and (e.valid_until is None or now < e.valid_until)
        and e.dimension == "open"
        and e.value
    ]
    if not avoids:
        return ""
    phrases = list(dict.fromkeys(e.value for e in avoids))
    mat = np.asarray(embed([*items, *phrases]), dtype=np.float32)
    mat /= np.linalg.norm(mat, axis=1, keepdims=True) + 1e-9
    near = (mat[len(items) :] @ mat[: len(items)].T).max(axis=1)
    close = {p for p, sim in zip(phrases, near) if float(sim) >= USUAL_ITEM_NEAR}
    said = [e.subject.strip().rstrip(".") or e.value for e in avoids if e.value in close]
    return '"; "'.join(dict.fromkeys(said))


def apply_usual(
    plan: AlignmentPlan,
    tool: dict[str, Any],
    res: Resolution,
    embed: Embed | None = None,
    events: list[PreferenceEvent] | None = None,
) -> None:
    """Fill free-text parameters from past calls when the task asks for the usual."""
    if not habitual(plan.task):
        return
    schema = (tool.get("parameters") or {}).get("properties") or {}
    words = set(re.findall(r"[a-z]{3,}", plan.task.lower())) - _PLAIN
    kind = qualifier(plan.task)
    calls: set[int] | None = None
    unsettled = False
    for param in params(tool):
        prop = schema.get(param.name) or {}
        pd = plan.params.get(param.name)
        if pd is None or not free_text(prop):
            continue
        chosen = _choices(res, param.name)
        said = stated_value(param.name, prop, plan.task, plan.now, tool.get("parameters"), tool_about(tool))
        if said is not None:  # the task names it: past calls with that value say what else is usual
            turns = {t for e in chosen if e.value.lower() == str(said).lower() for t in e.evidence}
        elif chosen and kind and not any(kind & _call_words(res, e.value, param.name) for e in chosen):
            # "the usual Thai place" and no past call says "Thai": the one that is Thai by meaning, else ask
            values = list(dict.fromkeys(e.value for e in chosen))
            phrase = kind_phrase(plan.task)
            found = _of_kind(res, values, param.name, phrase, embed)
            if found is None:
                label = param.name.replace("_", " ")
                pd.chosen, pd.certain, pd.source = None, False, "none"
                pd.reason = f"no past {label} is clearly a {phrase} (past: {', '.join(values)})"
                decision = res.decisions.get(f"param:{param.name}")
                pd.question = f"Which {phrase} should I use? Your past ones: {', '.join(values)}."
                if decision is not None:
                    decision.question = pd.question
                unsettled = True  # no place, so no dishes "as in the latest such call" either
                continue
            n = sum(1 for e in chosen if e.value == found)
            pd.chosen, pd.certain, pd.source = found, True, "habit"
            pd.reason = f"the usual {phrase}: {found} ({n} past call(s); by meaning, the past {phrase})"
            turns = {t for e in chosen if e.value == found for t in e.evidence}
            pd.evidence = sorted(turns)
            decision = res.decisions.get(f"param:{param.name}")
            if decision is not None:
                decision.question = ""
        elif chosen:
            if kind:  # only the past choices of that kind, and no question between the others
                chosen = [e for e in chosen if kind & _call_words(res, e.value, param.name)]
                decision = res.decisions.get(f"param:{param.name}")
                if decision is not None and len({e.value for e in chosen}) == 1:
                    decision.question = ""
            best, n = _best(chosen, words)
            pd.chosen, pd.certain, pd.source = best, True, "habit"
            pd.reason = f"the usual: {best} ({n} past call(s))"
            turns = {t for e in chosen if e.value == best for t in e.evidence}
            pd.evidence = sorted(turns)
        else:
            continue
        if turns:
            calls = turns if calls is None else (calls & turns) or calls
    for param in params(tool):
        prop = schema.get(param.name) or {}
        pd = plan.params.get(param.name)
        if unsettled or pd is None or not free_list(prop) or param.negative:
            continue
        chosen = [e for e in _choices(res, param.name) if calls is None or set(e.evidence) & calls]
        if not chosen:
            continue
        last = max(chosen, key=lambda e: e.valid_from)
        latest = last.evidence
        items = list(dict.fromkeys(e.value for e in chosen if e.evidence == latest))
        since = _states_since(plan, res, last.valid_from) or _avoided_since(
            plan, events or [], last.valid_from, items, embed
        )
        if since:
            # the usual dishes were had before a state that bears on this order began (a tooth out: soft
            # food, no spice): the user says what to have now, in one question
            label = param.name.replace("_", " ")
            pd.chosen, pd.certain, pd.source = None, False, "none"
            pd.reason = f"the usual {label} ({', '.join(items)}) predate what you said since: {since}"
            pd.question = (
                f'Your usual {label} were {", ".join(items)}, but since then you said "{since}". '
                f"Which {label} should I get?"
            )
            decision = res.decisions.get(f"param:{param.name}")
            if decision is not None:
                decision.question = pd.question
            continue
        pd.chosen, pd.certain, pd.source = items, True, "habit"
        pd.reason = "the usual: as in the latest such call"
        pd.evidence = sorted(latest)
