"""Free-text tool arguments under a small model: bounded, pinned when the floor has a reason.

``bound`` gives every open string a length (a name or a dish 80 characters, a message body
2,000) and every list of them a size, and makes a value the floor has a reason for the only
one allowed: a value the task names ("from Sichuan House"), or a certain one from the plan
("the usual"). ``screen`` finds a model's free-text argument that repeats itself
("Thai_Thai_Thai") or breaks those bounds, and puts the floor's value in its place.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ibachat.agent.alignment.usual import free_list, free_text
from ibachat.agent.execution.slots import task_value
from ibachat.agent.execution.tools import schema_error
from ibachat.agent.types import PlannerCounters

if TYPE_CHECKING:
    from ibachat.agent.alignment.plan_types import AlignmentPlan, ParamDirective

SHORT_TEXT = 80  # a name, a place, a dish: what a free-text argument may hold at most
LONG_TEXT = 2000  # a message body or a note
MAX_ITEMS = 20
_LONG = re.compile(
    r"body|message|text|content|notes?\b|description|summary|comment|prompt|query|instructions?|details|reason|"
    r"bio|caption|letter|draft"
)
_TOKEN = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+")


def degenerate(text: str, times: int = 3) -> bool:
    """A word or a run of up to three words repeated ``times`` times in a row ("Thai_Thai_Thai")."""
    toks = [t.lower() for t in _TOKEN.findall(text)]
    for size in (1, 2, 3):
        for i in range(len(toks) - size * times + 1):
            unit = toks[i : i + size]
            if all(t.isdigit() for t in unit):
                continue  # "00:00:00" is a time, not a stutter
            if all(toks[i + k * size : i + (k + 1) * size] == unit for k in range(1, times)):
                return True
    return False


def _text_limit(name: str, prop: dict[str, Any]) -> int:
    return LONG_TEXT if _LONG.search(f"{name} {prop.get('description', '')}".lower()) else SHORT_TEXT


def _floor_text(
    name: str,
    prop: dict[str, Any],
    pd: ParamDirective | None,
    plan: AlignmentPlan,
    schema: dict[str, Any],
    about: str = "",
) -> str | None:
    """The floor's value for a free-text parameter when it has a reason: named in the task, or certain.
    The task is read against the whole ``schema``: the things an order asks for are its items, not also
    a note for the kitchen."""
    said = task_value(name, prop, plan.task, plan.now, schema, about)
    if isinstance(said, str) and said.strip():
        return said
    if pd is not None and pd.certain and isinstance(pd.chosen, str) and pd.chosen.strip():
        return pd.chosen
    return None


def bound(
    schema: dict[str, Any], plan: AlignmentPlan, as_given: dict[str, Any] | None = None, about: str = ""
) -> None:
    """Free text gets a length and lists a size; a value the floor has a reason for is the only one
    allowed. The request is read against ``as_given``, the tool's own schema (and ``about``, the tool's
    name and description), as the plan read it."""
    props = schema.get("properties") or {}
    as_given = copy.deepcopy(as_given if as_given is not None else schema)  # read before this narrows it
    for name, prop in props.items():
        if not isinstance(prop, dict):
            continue
        pd = plan.params.get(name)
        if free_text(prop):
            limit = max(_text_limit(name, prop), int(prop.get("minLength", 0) or 0))
            prop["maxLength"] = min(int(prop.get("maxLength", limit)), limit)
            value = _floor_text(name, prop, pd, plan, as_given, about)
            if value is not None and len(value) <= prop["maxLength"]:
                prop["enum"] = [value]
                if name not in schema.get("required", []):
                    schema.setdefault("required", []).append(name)
        elif free_list(prop):
            items = prop["items"]
            prop["maxItems"] = min(int(prop.get("maxItems", MAX_ITEMS)), MAX_ITEMS)
            items["maxLength"] = min(int(items.get("maxLength", SHORT_TEXT)), SHORT_TEXT)
            chosen = pd.chosen if pd is not None and pd.certain and isinstance(pd.chosen, list) else None
            if chosen and all(isinstance(v, str) for v in chosen):
                items["enum"] = list(chosen)
                prop["maxItems"], prop["uniqueItems"] = min(prop["maxItems"], len(chosen)), True


def screen(
    args: dict[str, Any],
    original: dict[str, Any],
    narrowed: dict[str, Any],
    floor: Callable[[], dict[str, Any]],
    counters: PlannerCounters,
) -> dict[str, Any]:
    """A model's free-text argument that repeats itself or breaks its bounds is malformed: the floor's
    value replaces it (counted in ``counters.fallbacks``)."""
    props, bounds = original.get("properties") or {}, narrowed.get("properties") or {}
    fallback: dict[str, Any] | None = None
    out = dict(args)
    for name, value in args.items():
        prop = props.get(name)
        if not isinstance(prop, dict) or not (free_text(prop) or free_list(prop)):
            continue
        times = 5 if _text_limit(name, prop) == LONG_TEXT else 3
        texts = value if isinstance(value, list) else [value]
        strings = [t for t in texts if isinstance(t, str)]
        problem = ""
        if any(degenerate(t, times) for t in strings) or degenerate(" | ".join(strings), times):
            problem = "repeats itself"
        else:
            err = schema_error(value, bounds.get(name, prop))
            if err is not None:
                problem = f"is out of bounds ({err.validator})"
        if not problem:
            continue
        fallback = floor() if fallback is None else fallback
        counters.fallbacks.append(f"execute: the model's {name} {problem}; used the floor's value")
        if fallback.get(name) is None:
            del out[name]
        else:
            out[name] = fallback[name]
    return out
