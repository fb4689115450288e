"""Every value of a proposed tool call has a true reason, or it is not proposed.

A value stands when the request's own words give it (a place, a date, a count, an allowed
value named as such: "business class"), when the plan chose it (its reason is the plan's),
or when it is the tool's default (said so). A required value nobody gave is kept and
marked as a guess. Any other value (a model's ``max_price: 50.0``, ``checked_bags: 3``)
has no reason: it goes back to the tool's default, or is left out when there is none.
"""

from __future__ import annotations

import re
from datetime import datetime
from typing import TYPE_CHECKING, Any

from ibachat.agent.execution.slots import task_date, task_time, task_value

if TYPE_CHECKING:
    from ibachat.agent.alignment.plan import AlignmentPlan, ParamDirective

DEFAULT = "default"
WEAK_HABIT = "(weak: once)"  # how alignment/resolve.py marks a "habit" of a single past choice
REQUEST = "your request"


def _label(value: Any) -> str:
    return str(value).replace("_", " ").lower()


def named_in(value: Any, task: str) -> bool:
    """Whether the request names ``value`` itself ("business" in "fly business class")."""
    if isinstance(value, bool) or value is None:
        return False
    words = _label(value).strip()
    return bool(words) and re.search(rf"(?<![\w-]){re.escape(words)}(?![\w-])", task.lower()) is not None


def _plan_says(value: Any, pd: ParamDirective | None) -> bool:
    if pd is None:
        return False
    if pd.chosen is not None and value == pd.chosen:
        return True
    if isinstance(value, list) and isinstance(pd.chosen, list) and value and set(value) <= set(pd.chosen):
        return True
    limit = pd.maximum if pd.maximum is not None else pd.minimum
    return limit is not None and isinstance(value, (int, float)) and value == limit


_MONTH = r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*"
_WEEKDAY = r"(?:(?:on )?(?:mon|tues|wednes|thurs|fri|satur|sun)day,? (?:the )?)?"
_DAY_WORDS = [  # in the order slots.task_date reads them: a full date before a weekday
    re.compile(rf"\b{_WEEKDAY}\d{{4}}-\d{{2}}-\d{{2}}\b", re.I),
    re.compile(
        rf"\b(?:on )?{_WEEKDAY}(?:(?:the )?\d{{1,2}}(?:st|nd|rd|th)? (?:of )?{_MONTH}|{_MONTH} \d{{1,2}}(?:st|nd|rd|th)?)\b",
        re.I,
    ),
    re.compile(rf"\b(?:on )?{_WEEKDAY}the \d{{1,2}}(?:st|nd|rd|th)\b", re.I),
    re.compile(
        r"\b(?:on |this |next |in |over )?(?:today|tonight|tomorrow(?: morning| afternoon| evening| night)?|"
        r"weekend|(?:\d+|a|an|one|two|three|four|five|six|seven) (?:day|week)s?|"
        r"(?:mon|tues|wednes|thurs|fri|satur|sun)day|week)\b",
        re.I,
    ),
]


def _date_phrase(task: str) -> str:
    """The words of the request that name the day, for the reason line."""
    for pattern in _DAY_WORDS:
        m = pattern.search(task)
        if m:
            return m.group(0)
    return ""


def reason_for(
    name: str, value: Any, prop: dict[str, Any], pd: ParamDirective | None, task: str, now: datetime
) -> str | None:
    """Why ``value`` is proposed for ``name``; None when nothing justifies it."""
    stated = task_value(name, prop, task, now)
    day = task_date(task, now) if prop.get("format") in ("date", "date-time") else None
    if day is not None and str(value).startswith(day.isoformat()):
        phrase = _date_phrase(task)
        why = f'{REQUEST}: "{phrase}"' if phrase else REQUEST
        if prop.get("format") == "date-time" and task_time(task) is None:
            why += "; no time given" + (", 12:00 as a default" if value == stated else ", a guess")
        return why
    if stated is not None and stated == value:
        return REQUEST
    if _plan_says(value, pd):
        assert pd is not None
        if pd.source == "habit" and WEAK_HABIT in pd.reason:  # one past call (an edit, say) is no habit yet
            return "chosen once before (one past call: not a habit yet)"
        return pd.reason or "from your history"
    if named_in(value, task) or (isinstance(value, list) and value and all(named_in(v, task) for v in value)):
        return (
            f'{REQUEST}: "{_label(value) if not isinstance(value, list) else ", ".join(map(_label, value))}"'
        )
    if "default" in prop and value == prop["default"]:
        return DEFAULT
    if isinstance(value, list) and not value:
        return "none given"
    return None


def justify(
    args: dict[str, Any],
    schema: dict[str, Any],
    plan: AlignmentPlan,
    task: str,
    now: datetime,
    *,
    content: frozenset[str] = frozenset(),
) -> tuple[dict[str, Any], dict[str, str], list[str]]:
    """The arguments with a reason each; unjustified ones reset or dropped (listed as fixes)."""
    props = schema.get("properties") or {}
    required = set(schema.get("required") or [])
    out: dict[str, Any] = {}
    reasons: dict[str, str] = {}
    fixes: list[str] = []
    for name, value in args.items():
        prop = props.get(name) if isinstance(props.get(name), dict) else {}
        pd = plan.params.get(name)
        why = reason_for(name, value, prop, pd, task, now)
        if why is None and name in required:
            if prop.get("format") in ("date", "date-time") and task_date(task, now) is None:
                why = f"no day given: {now.date().isoformat()} (today) as a default"
            elif name in content or prop.get("type") == "array":
                why = REQUEST
            else:
                why = "not given: a guess, check it"
        if why is None:
            if "default" in prop:
                fixes.append(f"{name}: {value!r} had no reason; the default {prop['default']!r}")
                out[name], reasons[name] = prop["default"], DEFAULT
            else:
                fixes.append(f"{name}: {value!r} had no reason; left unset")
            continue
        if pd is not None and pd.avoid and pd.reason and why == DEFAULT:
            why = f"{DEFAULT}; {pd.reason}"
        out[name], reasons[name] = value, why
    return out, reasons, fixes
