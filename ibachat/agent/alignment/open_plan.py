"""The open-world layer of the plan: preferences in the user's own words, grounded into any tool.

After the lexicon has written what it knows, every parameter it left open is grounded from the
tool's JSON Schema alone (``grounding.py``): an enum by the meaning of its values against the
preferences in force, a boolean by the meaning of its name and description. A value the request
states is never overridden (the task's own words win at execution), and a parameter nothing bears
on is left as it was. A text answer gets the preferences that bear on its request as directives.
"""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any

import numpy as np

from ibachat.agent.alignment.grounding import (
    CERTAIN_MARGIN,
    DEFAULT_MARGIN,
    Embed,
    Wish,
    bearing,
    choose_bool,
    choose_enum,
    content_wishes,
    evidence_of,
    open_wishes,
    param_text,
    reason_of,
    settle,
    unit,
)
from ibachat.agent.alignment.schema_map import bindings, params
from ibachat.agent.reading.lexicon import BY_DIMENSION
from ibachat.agent.reading.open_prefs import NUMBER_DIM
from ibachat.agent.reading.quantities import quantities
from ibachat.agent.reading.spans import best_span
from memory.ledger import PreferenceEvent

MAX_TEXT_WISHES = 4
BOUND_MIN_SIM = 0.25
TEXT_MIN_SIM = 0.3
HABIT_AGAINST = 0.06  # later words must put the habit's own value this far below the average
HABIT_BEAR_MIN_SIM = 0.5  # and be about one of the values this closely


def _embedder(embed: Embed) -> Embed:
    cache: dict[str, Any] = {}

    def run(texts: list[str]) -> Any:
        missing = [t for t in dict.fromkeys(texts) if t not in cache]
        if missing:
            for t, v in zip(missing, unit(embed(missing))):
                cache[t] = v
        import numpy as np

        return np.stack([cache[t] for t in texts])

    return run


def ground_tool(
    plan: Any, tool: dict[str, Any], events: list[PreferenceEvent], now: datetime, embed: Embed, task: str
) -> None:
    """Fill the parameters the lexicon left open from the open preferences (and the lexicon's, by meaning)."""
    labels = {dim: attr.label for dim, attr in BY_DIMENSION.items()}
    binds = bindings(tool)
    bound = {b.attr.dimension for bs in binds.values() for b in bs}
    content = {k: v for k, v in plan.content.items() if k not in bound}  # what no parameter already carries
    embed = _embedder(embed)
    _spans(plan, tool, embed, task)
    avoiding = frozenset(d for d, a in BY_DIMENSION.items() if {"exclude", "allergy"} & set(a.aliases))
    wishes: list[Wish] = settle(open_wishes(events, now), embed) + content_wishes(content, labels, avoiding)
    if not wishes:
        return
    overridden = _newer_than_habit(plan, tool, wishes, events, embed, task)
    if overridden:
        _consistent(plan, tool, overridden, embed)
    for param in params(tool):
        pd = plan.params.get(param.name)
        if pd is None or pd.chosen is not None or pd.source not in ("none", ""):
            continue
        about = param_text(param.name, param.schema)
        near = bearing(about, param.labels, wishes, embed)
        if not near:
            continue
        if param.kind == "enum" and len(param.labels) >= 2:
            out_of_bounds = _label_bounds(param.labels, events, now, embed, task)
            found = choose_enum(param.labels, near, embed, task=task, about=about, exclude=out_of_bounds)
            if found is None:
                continue
            best, ranking = found
            if "default" in param.schema and not param.required and ranking.margin < DEFAULT_MARGIN:
                continue  # an optional parameter keeps its default unless the wishes clearly say otherwise
            pd.chosen = param.enum[best]
            pd.source, pd.reason = "open", reason_of(ranking, near)
            pd.evidence = evidence_of(ranking, near)
            pd.certain = ranking.margin >= CERTAIN_MARGIN
        elif param.kind == "boolean":
            found_b = choose_bool(about, near, embed)
            if found_b is None:
                continue
            value, wish, sim = found_b
            if param.schema.get("default") is value and not param.required:
                continue  # the default already says so: no reason to claim it
            pd.chosen, pd.source, pd.certain = value, "open", sim >= 0.6
            pd.reason = f"by meaning: {'wants' if wish.polarity > 0 else 'avoids'} {wish.phrase[:60]!r}"
            pd.evidence = list(wish.evidence)


def _label_bounds(
    labels: list[str], events: list[PreferenceEvent], now: datetime, embed: Embed, task: str
) -> set[int]:
    """Values whose own amounts break a bound the user set ("under two hours" and a 181-minute film)."""
    bounds = []
    for e in events:
        if e.dimension != NUMBER_DIM or e.valid_from > now or (e.valid_until and now >= e.valid_until):
            continue
        m = re.match(r"^([a-z]+)(>=|<=)(-?[\d.]+)$", e.value)
        if m:
            bounds.append((m.group(1), m.group(2), float(m.group(3)), e.subject or e.value))
    if not bounds:
        return set()
    mat = embed([task] + [b[3] for b in bounds])
    bearing_ = mat[1:] @ mat[0]
    over: dict[int, float] = {}  # label -> how far past the bound it goes, as a share of the bound
    for i, label in enumerate(labels):
        for q in quantities(str(label)):
            for (unit_, op, value, _), sim in zip(bounds, bearing_):
                if q.unit != unit_ or float(sim) < BOUND_MIN_SIM:
                    continue
                if (op == "<=" and q.value > value) or (op == ">=" and q.value < value):
                    gap = abs(q.value - value) / max(abs(value), 1e-9)
                    over[i] = max(over.get(i, 0.0), gap)
    if len(over) < len(labels):
        return set(over)
    # every value breaks the bound: the one that breaks it least is what the bound still asks for
    least = min(over.values())
    return {i for i, gap in over.items() if gap > least * 1.05}


UPDATE_KINDS = ("stated", "updated", "corrected", "asked", "state", "rejected")


def _newer_than_habit(
    plan: Any,
    tool: dict[str, Any],
    wishes: list[Wish],
    events: list[PreferenceEvent],
    embed: Embed,
    task: str,
) -> list[tuple[str, str]]:
    """An enum the habit filled, that the user's later words turn elsewhere: the later words win.

    Returns (old value, new value) for each parameter changed, so the others can be kept consistent."""
    name = str(tool.get("name", ""))
    out: list[tuple[str, str]] = []
    for param in params(tool):
        pd = plan.params.get(param.name)
        if pd is None or param.kind != "enum" or pd.source != "habit" or pd.chosen is None:
            continue
        calls = [e.valid_from for e in events if e.dimension == f"{name}.{param.name}" and e.kind == "chose"]
        if not calls:
            continue
        last = max(calls)
        newer = [w for w in wishes if w.when is not None and w.when > last and w.kind in UPDATE_KINDS]
        # a habit gives way only to later words about one of its values ("vegetarian" for "veggie"),
        # not to anything that shares a little meaning with the parameter
        near = bearing("", param.labels, newer, embed, min_sim=HABIT_BEAR_MIN_SIM)
        found = choose_enum(param.labels, near, embed, task=task, about=param_text(param.name, param.schema))
        if found is None:
            continue
        best, ranking = found
        habit = next((i for i, v in enumerate(param.enum) if str(v) == str(pd.chosen)), None)
        if (
            habit is None
            or best == habit
            or ranking.scores[best] - ranking.scores[habit] < CERTAIN_MARGIN / 2
            or ranking.scores[habit] > float(np.mean(ranking.scores)) - HABIT_AGAINST
        ):  # the later words must speak against the habit itself, not merely favour another value
            continue
        out.append((str(pd.chosen), str(param.enum[best])))
        pd.chosen, pd.source, pd.certain = param.enum[best], "open", True
        pd.reason = "newer than the habit, " + reason_of(ranking, near)
        pd.evidence = evidence_of(ranking, near)
    return out


def _consistent(plan: Any, tool: dict[str, Any], overridden: list[tuple[str, str]], embed: Embed) -> None:
    """Values the habit filled that belong with a value the user has moved away from are dropped."""
    for param in params(tool):
        pd = plan.params.get(param.name)
        if pd is None or pd.source != "habit" or pd.chosen is None or param.kind not in ("string", "list"):
            continue
        values = pd.chosen if isinstance(pd.chosen, list) else [pd.chosen]
        for old, new in overridden:
            mat = embed([str(v) for v in values] + [old.replace("_", " "), new.replace("_", " ")])
            k = len(values)
            if any(float(mat[i] @ mat[k]) > float(mat[i] @ mat[k + 1]) for i in range(k)):
                pd.reason = (
                    f"not the usual {pd.chosen!r}: it goes with {old!r}, and you have moved to {new!r}"
                )
                pd.chosen, pd.certain, pd.source = None, False, "none"
                if param.required:
                    plan.clarifications.append(f"What would you like for {param.name.replace('_', ' ')} now?")
                break


def _spans(plan: Any, tool: dict[str, Any], embed: Embed, task: str) -> None:
    """Required free-text parameters nothing filled: the span of the request that means them."""
    taken: list[str] = []
    for param in params(tool):
        pd = plan.params.get(param.name)
        if pd is None or param.kind != "string" or not param.required or pd.chosen is not None:
            continue
        if param.schema.get("format") or param.schema.get("pattern"):
            continue  # dates and times: slot filling reads those
        span = best_span(task, param_text(param.name, param.schema), embed, taken=taken)
        if span is not None:
            pd.chosen, pd.source, pd.reason, pd.quote = span, "task", f"the request names {span!r}", span
            taken.append(span)


def text_notes(events: list[PreferenceEvent], now: datetime, embed: Embed | None, task: str) -> list[str]:
    """Directives for a text answer: the open preferences that bear on the request."""
    if embed is None:
        return []
    embed = _embedder(embed)
    wishes = settle(open_wishes(events, now), embed)
    if not wishes:
        return []
    mat = embed([task] + [w.sentence for w in wishes])
    sims = mat[1:] @ mat[0]
    ranked = sorted(range(len(wishes)), key=lambda j: -float(sims[j]) * wishes[j].weight)
    want = [wishes[j].phrase for j in ranked if sims[j] >= TEXT_MIN_SIM and wishes[j].polarity > 0]
    avoid = [wishes[j].phrase for j in ranked if sims[j] >= TEXT_MIN_SIM and wishes[j].polarity < 0]
    out = []
    if avoid:
        out.append("the user avoids: " + "; ".join(avoid[:MAX_TEXT_WISHES]))
    if want:
        out.append("the user prefers: " + "; ".join(want[:MAX_TEXT_WISHES]))
    return out
