"""Schema-aware slot filling from the task text: the floor under a model's tool call.

``fill_value`` takes one parameter's value from what the request states (``task_value``, read by
``alignment/request_values.py``: places, days and times, amounts, named spans, the things asked for),
else the schema's default, the first allowed value or a value inside the bounds (which the planner's
reasons then reset or leave out: nothing but the request, an answer or the plan gives a value). A
free-text value nothing states is asked for, never the request sentence.
"""

from __future__ import annotations

import re
from datetime import date, datetime
from typing import TYPE_CHECKING, Any

from ibachat.agent.reading.when import default_time, read_when

if TYPE_CHECKING:
    from ibachat.agent.alignment.plan_types import AlignmentPlan

_TOD_TIMES = {
    "early_morning": "07:00",
    "morning": "09:00",
    "lunchtime": "12:30",
    "afternoon": "14:00",
    "evening": "19:00",
    "night": "21:00",
    "red_eye": "23:00",
}


def task_date(task: str, now: datetime) -> date | None:
    """The day the task's own words name ("on the 12th", "the day after tomorrow", "a week from Monday"),
    else None; None too when the words leave it open ("next Friday" on a Tuesday): see ``date_question``."""
    return read_when(task, now).day


def date_question(task: str, now: datetime) -> str | None:
    """The one short question when the request's day or time is not settled by its words."""
    return read_when(task, now).question


def task_time(task: str, plan: AlignmentPlan | None = None, now: datetime | None = None) -> str | None:
    """The clock time the request states ("at 7pm", "half seven tonight"), or its period of the day's
    usual time ("tomorrow evening": 19:00); else a time-of-day value the plan chose."""
    when = read_when(task, now or datetime(2000, 1, 3, 12, 0))
    if when.time is not None:
        return when.time
    clock = default_time(when.part)
    if clock is not None:
        return clock
    if plan is not None:
        for name, pd in plan.params.items():
            if (
                re.search(r"time_of_day|window|slot|showing", name)
                and isinstance(pd.chosen, str)
                and pd.chosen in _TOD_TIMES
            ):
                return _TOD_TIMES[pd.chosen]
    return None


def _clip(text: str, prop: dict[str, Any]) -> str:
    hi = prop.get("maxLength")
    text = text.strip() or "-"
    return text[: int(hi)] if isinstance(hi, int) else text


def _in_bounds(prop: dict[str, Any], value: float) -> float:
    lo, hi = prop.get("minimum"), prop.get("maximum")
    if isinstance(lo, (int, float)):
        value = max(value, lo)
    if isinstance(hi, (int, float)):
        value = min(value, hi)
    return value


def task_value(
    name: str,
    prop: dict[str, Any],
    task: str,
    now: datetime,
    schema: dict[str, Any] | None = None,
    about: str = "",
) -> Any:
    """Only what the task's own words give for ``name`` (None when they say nothing): the value
    ``alignment/request_values.stated_values`` reads for it, in the whole ``schema`` when it is given (the
    other parameters decide which words are whose: "to Madrid" is the destination, never the origin)."""
    from ibachat.agent.alignment.request_values import stated_value

    return stated_value(name, prop, task, now, schema, about)


def stated_times(schema: dict[str, Any], task: str, now: datetime) -> dict[str, str]:
    """The dates and times the request itself states, per parameter: no model may change them."""
    out: dict[str, str] = {}
    when = read_when(task, now)
    # no day, or one that is asked about; a day settled while only the half of its time is asked is stated
    open_day = when.day is None or (when.question is not None and when.asks != "time")
    for name, prop in (schema.get("properties") or {}).items():
        if not isinstance(prop, dict) or prop.get("type") != "string" or prop.get("enum"):
            continue
        fmt, pattern = prop.get("format"), prop.get("pattern", "")
        if fmt in ("date", "date-time") and open_day:
            continue  # no day, or one that is asked about ("9am today" said at 2pm)
        if fmt == "date-time" and task_time(task, now=now) is None:
            continue  # the day alone is stated: see ``stated_days``
        if fmt in ("date", "date-time") or "[0-5][0-9]" in pattern or re.search(r"(?:^|_)time$", name):
            value = task_value(name, prop, task, now, schema)
            if isinstance(value, str):
                out[name] = value
    return out


def stated_days(schema: dict[str, Any], task: str, now: datetime) -> dict[str, str]:
    """For date-time parameters, the day the request states when it states no time of day."""
    day = task_date(task, now)
    if day is None or task_time(task, now=now) is not None or date_question(task, now) is not None:
        return {}
    return {
        name: day.isoformat()
        for name, prop in (schema.get("properties") or {}).items()
        if isinstance(prop, dict) and prop.get("type") == "string" and prop.get("format") == "date-time"
    }


# Words that name a free-text parameter whose value may be the request's own content (a note's body, a
# reminder's text, a search query, the dishes to order): a closed class of how schemas name such fields.
_CONTENT_WORDS = frozenset(
    "text body content message note notes description query subject title summary details comment reason "
    "topic topics items item dishes dish products list caption agenda purpose".split()
)


def is_content(name: str, prop: dict[str, Any] | None = None) -> bool:
    """A parameter whose value is what the request says (its content), not a name it must give. A
    parameter with a list of values is a choice among them ("title" among offered titles), never content."""
    if prop and prop.get("enum"):
        return False  # (a list of them, "topics", takes the values the request names)
    words = set(re.split(r"[_\W]+", re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", name).lower()))
    return bool(words & _CONTENT_WORDS)


def fill_value(
    name: str,
    prop: dict[str, Any],
    task: str,
    now: datetime,
    *,
    required: bool,
    plan: AlignmentPlan | None = None,
    schema: dict[str, Any] | None = None,
) -> Any:
    """A value for parameter ``name`` from the task's own words (``task_value``), else the schema's; None
    to leave it out. A free-text value or a list nothing in the request gives is never the request
    sentence or the task's verb: it is left out, and the planner asks for it when it is required."""
    kind = prop.get("type")
    if "const" in prop:
        return prop["const"]
    enum = prop.get("enum")
    if kind in ("integer", "number", "array") or (kind == "string" and not enum):
        said = task_value(name, prop, task, now, schema, (plan.tool or "") if plan is not None else "")
        if said is not None:
            return _clip(said, prop) if isinstance(said, str) else said
    if kind == "array":
        return _array(prop, required)
    if "default" in prop:
        return prop["default"]
    if not required:
        return None
    if enum:
        return enum[0]
    if kind == "boolean":
        return False
    if kind in ("integer", "number"):
        value = _in_bounds(prop, 1)
        return int(value) if kind == "integer" else float(value)
    return None  # a name or a content nothing gives is asked for, never copied from the request


def _array(prop: dict[str, Any], required: bool) -> Any:
    items = prop.get("items") if isinstance(prop.get("items"), dict) else {}
    min_items = int(prop.get("minItems", 0) or 0)
    if items.get("enum"):
        return list(items["enum"][:min_items]) if min_items else prop.get("default", [] if required else None)
    return prop.get("default") if not (min_items or required) else None  # things nobody named are asked for
