"""Schema-aware slot filling from the task text: the floor under a model's tool call.

``fill_value`` finds a value for one parameter: places ("to Boston"), dates ("tomorrow",
"on Friday", "May 3"), times ("at 7pm", "in the evening"), counts ("for 4 people"), the
things asked for ("order some dumplings"), then the schema's default, the first allowed
value or a value inside the bounds. Required strings fall back to the task text.
"""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta
from typing import TYPE_CHECKING, Any

from ibachat.agent.reading.timeexpr import MONTHS, NUM, WEEKDAYS

if TYPE_CHECKING:
    from ibachat.agent.alignment.plan import AlignmentPlan

_NAME = r"([A-Z][\w'’.&-]*(?:\s+(?:of\s+|de\s+|la\s+|the\s+)?[A-Z][\w'’.&-]*)*)"
_PLACE_PATTERNS = {
    "to": re.compile(rf"\b(?:to|into|towards)\s+{_NAME}"),
    "from": re.compile(rf"\bfrom\s+{_NAME}"),
    "at": re.compile(rf"\b(?:at|in|near)\s+{_NAME}"),
}
_DEST = re.compile(r"destination|arrival|dest|to_city|drop|dropoff|^to$|city|location|where")
_ORIGIN = re.compile(r"origin|departure_(?:city|airport|station)|from|pickup|start")
_VENUE = re.compile(r"restaurant|shop|store|cafe|café|studio|pharmacy|provider|venue|gym|hotel|clinic")
_PEOPLE = re.compile(r"party|people|guests|persons|passengers|adults|size|quantity|tickets|count|seats")
_COUNT = re.compile(
    r"\b(?:for|party of|table for)\s+(\d+|"
    + "|".join(k for k in NUM if " " not in k)
    + r")\b(?:\s+(people|guests|persons|of us|adults|nights|days|tickets))?"
    r"|\b(\d+|two|three|four|five|six|seven|eight|nine|ten)\s+(people|guests|persons|adults|nights|days|tickets|seats|passengers)\b"
)
_ITEM = re.compile(
    r"\b(?:order|get|buy|grab|pick up|reorder)\s+(?:me\s+|us\s+)?(?:some\s+|a\s+|an\s+|the\s+|my\s+)?(.+?)(?=\s+(?:from|at|for|to|with|on|by|tonight|today|tomorrow)\b|[.,!?]|$)",
    re.IGNORECASE,
)
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
    """The day the task's own words name ("on the 12th", "next Tuesday", "this weekend"), else None.

    A date said in full wins over a weekday said with it ("on Friday 14 February", "Friday the 12th").
    """
    t = task.lower()
    m = re.search(r"\b(\d{4})-(\d{2})-(\d{2})\b", t)
    if m:
        return date(int(m[1]), int(m[2]), int(m[3]))
    mon = "|".join(mo[:3] + r"\w*" for mo in MONTHS)
    m = re.search(
        rf"\b({mon})\s+(\d{{1,2}})(?:st|nd|rd|th)?\b|\b(\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?({mon})\b", t
    )
    if m:
        month_word, day = (m[1], m[2]) if m[1] else (m[4], m[3])
        month = next(i for i, mo in enumerate(MONTHS, 1) if mo.startswith(month_word[:3]))
        year = now.year + (1 if (month, int(day)) < (now.month, now.day) else 0)
        try:
            return date(year, month, int(day))
        except ValueError:
            return None
    m = re.search(r"\bthe (\d{1,2})(?:st|nd|rd|th)\b", t)
    if m:  # "on the 12th": that day of this month, or of the next if it has passed
        return _day_of_month(int(m[1]), now.date())
    if re.search(r"\b(?:today|tonight|this (?:morning|afternoon|evening))\b", t):
        return now.date()
    m = re.search(r"\b(this|next|the|on the|over the)\s+weekend\b", t)
    if m:  # the coming Saturday (today on a Saturday or a Sunday); "next weekend": the one after
        ahead = (5 - now.weekday()) % 7 if now.weekday() != 6 else 0
        return (now + timedelta(days=ahead + (7 if m[1] == "next" else 0))).date()
    if re.search(r"\btomorrow\b", t):
        return (now + timedelta(days=1)).date()
    m = re.search(r"\bin (\d+|a|an|one|two|three|four|five|six|seven) (day|week)s?\b", t)
    if m:
        n = int(m[1]) if m[1].isdigit() else NUM.get(m[1], 1)
        return (now + timedelta(days=n * (7 if m[2] == "week" else 1))).date()
    m = re.search(r"\b(?:on |this |next )?(" + "|".join(WEEKDAYS) + r")\b", t)
    if m:
        delta = (WEEKDAYS.index(m[1]) - now.weekday()) % 7 or 7
        if "next " + m[1] in t and delta < 7:
            delta += 7 if delta <= 2 else 0
        return (now + timedelta(days=delta)).date()
    if re.search(r"\bnext week\b", t):
        return (now + timedelta(days=(7 - now.weekday()) or 7)).date()
    return None


def _day_of_month(day: int, today: date) -> date | None:
    year, month = today.year, today.month
    for _ in range(3):  # a day that is not in this month (the 31st) is looked for in the next ones
        try:
            candidate = date(year, month, day)
        except ValueError:
            candidate = None
        if candidate is not None and candidate >= today:
            return candidate
        year, month = (year + 1, 1) if month == 12 else (year, month + 1)
    return None


def task_time(task: str, plan: AlignmentPlan | None = None) -> str | None:
    t = task.lower()
    m = re.search(r"\b(\d{1,2})(?::(\d{2}))?\s*([ap])\.?m\.?\b", t)
    if m:
        hour = int(m[1]) % 12 + (12 if m[3] == "p" else 0)
        return f"{hour:02d}:{int(m[2] or 0):02d}"
    m = re.search(r"\b([01]?\d|2[0-3]):([0-5]\d)\b", t)
    if m:
        return f"{int(m[1]):02d}:{m[2]}"
    if re.search(r"\b(?:noon|midday|lunch)\b", t):
        return "12:00"
    for word, hhmm in (
        ("early morning", "07:00"),
        ("morning", "09:00"),
        ("afternoon", "14:00"),
        ("evening", "19:00"),
        ("tonight", "19:00"),
        ("night", "21:00"),
    ):
        if word in t:
            return hhmm
    if plan is not None:
        for name, pd in plan.params.items():
            if (
                re.search(r"time_of_day|window|slot|showing", name)
                and isinstance(pd.chosen, str)
                and pd.chosen in _TOD_TIMES
            ):
                return _TOD_TIMES[pd.chosen]
    return None


def _count(task: str, name: str) -> int | None:
    for m in _COUNT.finditer(task.lower()):
        raw, unit = (m[1], m[2]) if m[1] else (m[3], m[4])
        n = int(raw) if raw.isdigit() else NUM.get(raw)
        if n is None:
            continue
        unit = unit or "people"
        if unit in ("nights", "days") and unit[:-1] in name:
            return n
        if unit not in ("nights", "days") and _PEOPLE.search(name):
            return n
    return None


_RECIPIENT = re.compile(
    r"\b(?i:answer|email|e-mail|reply to|write to|message|text|tell|ask|thank|invite|remind|ping|cc|send \w+ to|"
    r"write \w+ to|note to|letter to)\s+([A-Z][a-z]+(?:\s+[A-Z][a-z]+)?)"
)


def _place(task: str, name: str) -> str | None:
    if re.search(r"^(?:to|recipient|recipients|attendee|attendees|person|contact|name)$", name.lower()):
        m = _RECIPIENT.search(task)
        return m.group(1) if m else None
    n = name.lower()
    keys = (
        ["to"]
        if _DEST.search(n)
        else ["from"]
        if _ORIGIN.search(n)
        else ["at", "from"]
        if _VENUE.search(n)
        else []
    )
    for key in keys:
        m = _PLACE_PATTERNS[key].search(task)
        if m:
            return m.group(1).strip(" .")
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


def task_value(name: str, prop: dict[str, Any], task: str, now: datetime) -> Any:
    """Only what the task's own words give for ``name`` (None when they say nothing)."""
    kind = prop.get("type")
    if kind in ("integer", "number"):
        n = _count(task, name.lower())
        return None if n is None else _in_bounds(prop, n)
    if kind == "string" and not prop.get("enum"):
        if prop.get("format") in ("date", "date-time"):
            return _string(name, prop, task, now, None) if task_date(task, now) else None
        if "[0-5][0-9]" in prop.get("pattern", "") or re.search(r"(?:^|_)time$", name):
            return task_time(task)
        value = _place(task, name)
        return None if value is None else _clip(value, prop)
    return None


def stated_times(schema: dict[str, Any], task: str, now: datetime) -> dict[str, str]:
    """The dates and times the request itself states, per parameter: no model may change them."""
    out: dict[str, str] = {}
    for name, prop in (schema.get("properties") or {}).items():
        if not isinstance(prop, dict) or prop.get("type") != "string" or prop.get("enum"):
            continue
        fmt, pattern = prop.get("format"), prop.get("pattern", "")
        if fmt in ("date", "date-time") and task_date(task, now) is None:
            continue
        if fmt == "date-time" and task_time(task) is None:
            continue  # the day alone is stated: see ``stated_days``
        if fmt in ("date", "date-time") or "[0-5][0-9]" in pattern or re.search(r"(?:^|_)time$", name):
            value = task_value(name, prop, task, now)
            if isinstance(value, str):
                out[name] = value
    return out


def stated_days(schema: dict[str, Any], task: str, now: datetime) -> dict[str, str]:
    """For date-time parameters, the day the request states when it states no time of day."""
    day = task_date(task, now)
    if day is None or task_time(task) is not None:
        return {}
    return {
        name: day.isoformat()
        for name, prop in (schema.get("properties") or {}).items()
        if isinstance(prop, dict) and prop.get("type") == "string" and prop.get("format") == "date-time"
    }


def fill_value(
    name: str,
    prop: dict[str, Any],
    task: str,
    now: datetime,
    *,
    required: bool,
    plan: AlignmentPlan | None = None,
) -> Any:
    """A value for parameter ``name`` from the task, else the schema; None to leave it out."""
    kind = prop.get("type")
    if "const" in prop:
        return prop["const"]
    enum = prop.get("enum")
    if kind in ("integer", "number"):
        n = _count(task, name.lower())
        if n is not None:
            return _in_bounds(prop, n)
    if kind == "string" and not enum:
        value = _string(name, prop, task, now, plan)
        if value is not None:
            return _clip(value, prop)
    if kind == "array":
        return _array(name, prop, task, required)
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
    return _clip(task, prop)


def _string(
    name: str, prop: dict[str, Any], task: str, now: datetime, plan: AlignmentPlan | None
) -> str | None:
    fmt, pattern = prop.get("format"), prop.get("pattern", "")
    if fmt == "date":
        return (task_date(task, now) or now.date()).isoformat()
    if "[0-5][0-9]" in pattern or re.search(r"(?:^|_)time$", name):
        return task_time(task, plan) or "12:00"
    if fmt == "date-time":
        day = task_date(task, now) or now.date()
        return f"{day.isoformat()}T{task_time(task, plan) or '12:00'}:00{now.strftime('%z')[:3] or '+00'}:00"
    return _place(task, name)


def _array(name: str, prop: dict[str, Any], task: str, required: bool) -> Any:
    items = prop.get("items") if isinstance(prop.get("items"), dict) else {}
    min_items = int(prop.get("minItems", 0) or 0)
    if items.get("enum"):
        return list(items["enum"][:min_items]) if min_items else prop.get("default", [] if required else None)
    if min_items or required:
        m = _ITEM.search(task)
        thing = m.group(1).strip() if m else task.strip()
        return [_clip(thing, items)] * max(1, min_items)
    return prop.get("default")
