"""Schema-aware slot filling from the task text: the floor under a model's tool call.

``fill_value`` finds a value for one parameter: places ("to Boston"), dates ("tomorrow",
"on Friday", "May 3"), times ("at 7pm", "in the evening"), counts ("for 4 people"), the
things asked for ("order some dumplings"), then the schema's default, the first allowed
value or a value inside the bounds. Required strings fall back to the task text.
"""

from __future__ import annotations

import re
from datetime import date, datetime
from typing import TYPE_CHECKING, Any

from ibachat.agent.reading.timeexpr import NUM
from ibachat.agent.reading.when import default_time, read_when

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


def stated_clock(task: str) -> str | None:
    """Only a clock time the request states itself (not a period of the day's usual time)."""
    return read_when(task, datetime(2000, 1, 3, 12, 0)).time


def _count(task: str, name: str) -> int | None:
    for m in _COUNT.finditer(task.lower()):
        raw, unit = (m[1], m[2]) if m[1] else (m[3], m[4])
        n = int(raw) if raw.isdigit() else NUM.get(raw)
        if n is None:
            continue
        unit = unit or "people"
        words = re.split(r"[_\W]+", name)
        if unit in ("nights", "days") and any(
            w in (unit, unit[:-1]) and (i == 0 or words[i - 1] != "per") for i, w in enumerate(words)
        ):
            return n  # "nights", "num_days"; not "max_price_per_night", a price
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
    said = _parsed_places(task)
    for key in keys:  # the parse's places first ("to the office"), then capitalised names after a preposition
        preps = {"to": ("to", "into"), "from": ("from",), "at": ("at", "in", "near")}[key]
        for prep, phrase in said:
            if prep not in preps or _TIME_WORD.match(phrase) or _HABIT_WORD.search(phrase):
                continue  # "from the usual Thai place" refers to a habit, it names no place
            if key != "to" and not re.search(r"[A-Z]", phrase):
                continue  # a place that serves (a restaurant, a shop) is named by its name
            return phrase.strip(" .")
        for m in _PLACE_PATTERNS[key].finditer(task):
            if not _TIME_WORD.match(m.group(1)):
                return m.group(1).strip(" .")
    if _CITY.search(n):  # "a Manchester hotel": the place named, where it stands
        found = [p for p in _entities(task, ("GPE", "LOC")) if not _TIME_WORD.match(p)]
        return found[0] if found else _proper_name(task)
    return None


def _proper_name(task: str) -> str | None:
    """The one proper noun of a request that is not its first word, a day, a time or a person."""
    from ibachat.agent.reading.parse import parse

    doc = parse(task[:2000])
    names = [
        t.text
        for t in doc
        if t.pos_ == "PROPN"
        and t.i > 0
        and t.ent_type_ not in ("DATE", "TIME", "PERSON")
        and not _TIME_WORD.match(t.text)
    ]
    return names[0] if len(names) == 1 else None


_TIME_WORD = re.compile(
    r"^(?:the\s+)?(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|mon|tue|wed|thu|fri|sat|sun|today|tonight|"
    r"tomorrow|morning|afternoon|evening|noon|midnight|next|this|"
    r"\d+(?:[:.]\d\d)?\s*(?:am|pm|a\.m\.|p\.m\.|o'clock|h)\b|\d+(?:st|nd|rd|th)\b|\d+[/.-]\d+|\d+\s*$)",
    re.I,
)
_HABIT_WORD = re.compile(r"\b(?:usual|same|regular|normal|favou?rite|other|last|one)\b", re.I)
_CITY = re.compile(r"city|town|location|place|where|destination", re.I)


def _parsed_places(task: str) -> list[tuple[str, str]]:
    """(preposition, place) of the request's first asking clause, from its parse."""
    from ibachat.agent.reading.acts import read_act

    act = read_act(task)
    return [p for r in act.requests for p in r.places]


def _entities(task: str, labels: tuple[str, ...]) -> list[str]:
    from ibachat.agent.reading.parse import parse

    return [e.text for e in parse(task[:2000]).ents if e.label_ in labels]


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
            when = read_when(task, now)
            if when.day is None or (prop.get("format") == "date-time" and not (when.time or when.part)):
                return None  # a day without a time does not give a date-time: the time is asked for
            return _string(name, prop, task, now, None)
        if "[0-5][0-9]" in prop.get("pattern", "") or re.search(r"(?:^|_)time$", name):
            return stated_clock(task)
        value = _place(task, name)
        return None if value is None else _clip(value, prop)
    return None


def stated_times(schema: dict[str, Any], task: str, now: datetime) -> dict[str, str]:
    """The dates and times the request itself states, per parameter: no model may change them."""
    out: dict[str, str] = {}
    open_day = task_date(task, now) is None or date_question(task, now) is not None
    for name, prop in (schema.get("properties") or {}).items():
        if not isinstance(prop, dict) or prop.get("type") != "string" or prop.get("enum"):
            continue
        fmt, pattern = prop.get("format"), prop.get("pattern", "")
        if fmt in ("date", "date-time") and open_day:
            continue  # no day, or one that is asked about ("9am today" said at 2pm)
        if fmt == "date-time" and task_time(task, now=now) is None:
            continue  # the day alone is stated: see ``stated_days``
        if fmt in ("date", "date-time") or "[0-5][0-9]" in pattern or re.search(r"(?:^|_)time$", name):
            value = task_value(name, prop, task, now)
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


def named_value(prop: dict[str, Any], task: str) -> tuple[Any, str] | None:
    """The one enum value the request names, and the words it names it with: the value itself
    ("business class"), or a word that starts one value only ("physio" for ``physiotherapist``)."""
    enum = [v for v in (prop.get("enum") or []) if isinstance(v, str)]
    if len(enum) < 2:
        return None
    low = " " + " ".join(re.findall(r"[a-z0-9']+", task.lower())) + " "
    whole = [v for v in enum if f" {v.replace('_', ' ').lower()} " in low]
    if len(whole) == 1:
        return whole[0], whole[0].replace("_", " ")
    if whole:
        return None
    words = [w for w in _content_words(task) if len(w) >= 4]  # "after" is a preposition, not "afternoon"
    starts = {v for v in enum for w in words if v.lower().startswith(w) and len(w) >= 0.4 * len(v)}
    if len(starts) == 1:
        value = starts.pop()
        word = next(w for w in words if value.lower().startswith(w))
        return value, word
    return None


_FUNCTION_POS = frozenset({"ADP", "SCONJ", "CCONJ", "DET", "PRON", "AUX", "PART", "NUM"})


def _content_words(task: str) -> list[str]:
    """The request's words that may name a thing (not its prepositions, conjunctions, pronouns)."""
    from ibachat.agent.reading.parse import parse

    return [
        w
        for t in parse(task[:2000])
        if t.pos_ not in _FUNCTION_POS
        for w in re.findall(r"[a-z0-9']+", t.lower_)
    ]


def is_venue(name: str, prop: dict[str, Any] | None = None) -> bool:
    """A parameter naming the place that serves the user (a restaurant, a café, a pharmacy), by its name
    or description: tastes kept there are that place's."""
    text = f"{name} {(prop or {}).get('description', '')}".lower()
    return bool(_VENUE.search(text)) and "hotel" not in text


def is_content(name: str, prop: dict[str, Any] | None = None) -> bool:
    """A parameter whose value is what the request says (its content), not a name it must give."""
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
    if kind == "string" and is_content(name, prop):
        return _clip(content_of(task), prop)  # the request's content: a note, a reminder, a query
    return None  # a name nothing gives is asked for, never copied from the request


def content_of(task: str) -> str:
    """The content a request carries: what follows a colon ("Make a note of this: ..."), or what follows
    "to" / "that" / "about" after its verb ("remind me to water the plants", "tell him that ...")."""
    m = re.search(r":\s*(.{3,})$", task.strip(), re.S)
    if m:
        return m.group(1).strip()
    m = re.search(
        r"\b(?:remind|nudge|ping|tell|email|message|ask|note|write|let \w+ know)\b[^.?!]{0,40}?\b(?:to|that|about)\s+(.{3,})",
        task,
        re.I | re.S,
    )
    if m:
        return re.split(r"\s+(?:on|at|by|tomorrow|tonight|today|next|this)\b(?=[^.]*$)", m.group(1).strip())[
            0
        ].strip(" .!?")
    return task.strip()


def _string(
    name: str, prop: dict[str, Any], task: str, now: datetime, plan: AlignmentPlan | None
) -> str | None:
    fmt, pattern = prop.get("format"), prop.get("pattern", "")
    if fmt == "date":  # a day the request does not name is asked for, never today by default
        day = task_date(task, now)
        return day.isoformat() if day is not None else None
    if "[0-5][0-9]" in pattern or re.search(r"(?:^|_)time$", name):
        return task_time(task, plan, now)
    if fmt == "date-time":
        day = task_date(task, now)
        clock = task_time(task, plan, now)
        if day is None:
            return None
        return f"{day.isoformat()}T{clock or '12:00'}:00{_offset(now)}"
    return _place(task, name)


def _offset(now: datetime) -> str:
    raw = now.strftime("%z") or "+0000"
    return f"{raw[:3]}:{raw[3:5]}"


def _array(name: str, prop: dict[str, Any], task: str, required: bool) -> Any:
    items = prop.get("items") if isinstance(prop.get("items"), dict) else {}
    min_items = int(prop.get("minItems", 0) or 0)
    if items.get("enum"):
        return list(items["enum"][:min_items]) if min_items else prop.get("default", [] if required else None)
    if min_items or required:
        listed = _listed(task)
        if listed:
            return [_clip(t, items) for t in listed]
        m = _ITEM.search(task)
        thing = m.group(1).strip() if m else ""
        if not thing or thing.lower() in _GENERIC_THINGS:
            return None  # "order me dinner": no dish named, so none is invented (the planner asks)
        return [_clip(thing, items)] * max(1, min_items)
    return prop.get("default")


def _listed(task: str) -> list[str]:
    """Items listed after a colon: "Do the grocery order: bananas, peppers, and milk"."""
    m = re.search(r":\s*([^:]{2,})$", task.strip())
    if m:
        listed = m.group(1)
    else:  # or a sentence of its own that is only a list: "can you do a grocery order? pasta, tomatoes, milk"
        last = re.split(r"(?<=[.?!])\s+", task.strip())[-1]
        if (
            last == task.strip()
            or last.count(",") < 2
            or re.search(r"\b(?:i|we|you|it|is|are|was|be)\b", last, re.I)
        ):
            return []
        listed = last
    parts = re.split(r"\s*(?:,|;|\band\b|\bplus\b|&)\s*", listed.strip(" .!"))
    return [p.strip() for p in parts if p.strip() and len(p.split()) <= 6]


# What a request asks for without naming it: meals, times of day and pronouns (a closed class).
_GENERIC_THINGS = frozenset(
    "dinner lunch breakfast brunch supper tea snack snacks food meal meals something anything stuff it them one "
    "some more usual the usual my usual takeaway takeout groceries shopping order delivery coffee drink".split()
)
