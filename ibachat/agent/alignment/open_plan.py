"""The open-world layer of the plan: preferences in the user's own words, grounded into any tool.

After the lexicon has written what it knows, every parameter it left open is grounded from the
tool's JSON Schema alone (``grounding.py``): an enum by the meaning of its values against the
preferences in force, a boolean by the meaning of its name and description. A value the request
states is never overridden (the task's own words win at execution), and a parameter nothing bears
on is left as it was. A text answer gets the preferences that bear on its request as directives.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from ibachat.agent.alignment.grounding import (
    CERTAIN_MARGIN,
    Embed,
    Wish,
    bearing,
    choose_bool,
    choose_enum,
    content_wishes,
    open_wishes,
    param_text,
    reason_of,
    settle,
    unit,
)
from ibachat.agent.alignment.schema_map import bindings, params
from ibachat.agent.reading.lexicon import BY_DIMENSION
from ibachat.agent.reading.spans import best_span
from memory.ledger import PreferenceEvent

MAX_TEXT_WISHES = 4
TEXT_MIN_SIM = 0.3


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
    wishes: list[Wish] = settle(open_wishes(events, now), embed) + content_wishes(content, labels)
    if not wishes:
        return
    for param in params(tool):
        pd = plan.params.get(param.name)
        if pd is None or pd.chosen is not None or pd.source not in ("none", ""):
            continue
        about = param_text(param.name, param.schema)
        near = bearing(about, param.labels, wishes, embed)
        if not near:
            continue
        if param.kind == "enum" and len(param.labels) >= 2:
            found = choose_enum(param.labels, near, embed, task=task, about=about)
            if found is None:
                continue
            best, ranking = found
            pd.chosen = param.enum[best]
            pd.source, pd.reason = "open", reason_of(ranking, near)
            pd.certain = ranking.margin >= CERTAIN_MARGIN
        elif param.kind == "boolean":
            found_b = choose_bool(about, near, embed)
            if found_b is None:
                continue
            value, wish, sim = found_b
            pd.chosen, pd.source, pd.certain = value, "open", sim >= 0.6
            pd.reason = f"by meaning: {'wants' if wish.polarity > 0 else 'avoids'} {wish.phrase[:60]!r}"


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
            pd.chosen, pd.source, pd.reason = span, "task", f"the request names {span!r}"
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
