"""Amounts a request states for a tool's numeric parameters: spans of time, money, percentages, counts,
distances and measures in the parameter's unit.

Part of ``alignment/request_values.py``, which runs the readers in order."""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any

from ibachat.agent.alignment.values.common import (
    _DURATION,
    _PEOPLE_COUNT,
    Stated,
    _Measure,
    _measure,
    _split,
    _stem,
)
from ibachat.agent.alignment.values.days import _range_days
from ibachat.agent.reading.frame import Amount, Frame
from ibachat.agent.reading.units import MEASURES

_TIME_UNITS = {"minute", "hour", "day", "night", "week", "fortnight", "month", "year"}


def _nights(props: dict[str, Any], frame: Frame, now: datetime, out: dict[str, Stated]) -> None:
    """A count of nights from a stretch of days with both ends ("from Jan 3 to Jan 6": 3 nights)."""
    names = [
        n
        for n, p in props.items()
        if p.get("type") == "integer" and n not in out and (m := _measure(n, p)).unit == "night" and not m.per
    ]
    span = _range_days(frame, now) if names else None
    if span is None:
        return
    (first, _), (last, _) = span
    words = next((r[2].text for r in frame.ranges), "")
    value = (last - first).days
    prop = props[names[0]]
    lo, hi = prop.get("minimum", 1), prop.get("maximum")
    if value >= (lo if isinstance(lo, (int, float)) else 1) and (
        not isinstance(hi, (int, float)) or value <= hi
    ):
        out[names[0]] = Stated(value, words)


def _convert(amount: Amount, unit: str) -> float | None:
    """The amount in ``unit`` (a span of time, a distance, a weight, volume or size), by ``pint``; None
    when the two measure different things."""
    src = amount.unit
    if src == unit:
        return amount.value
    night = {"night": "day"}
    if src in _TIME_UNITS and unit in _TIME_UNITS:
        src, unit = night.get(src, src), night.get(unit, unit)
    elif not ({src, unit} <= {"km", "mile", "m"} or {src, unit} <= MEASURES):
        return None
    if src == unit:
        return amount.value
    from ibachat.agent.reading.units import convert

    value = convert(amount.value, src, unit)
    if value is not None and src not in _TIME_UNITS:
        value = round(value, 2)  # "about 120 miles" is 193.12 km, not 193.12128: no precision nobody said
    return value


def _amounts(
    props: dict[str, Any], frame: Frame, out: dict[str, Stated], ranged: dict[str, str] | None = None
) -> None:
    numeric = {
        n: _measure(n, p) for n, p in props.items() if p.get("type") in ("integer", "number") and n not in out
    }
    if not numeric:
        return
    used: set[tuple[int, int]] = set()  # the spans taken; a total and its parts are each their own
    time_params = [n for n, m in numeric.items() if m.unit in _TIME_UNITS and not m.per]  # lengths, not rates
    fits = {
        (name, a.span.start, a.span.end): _fit(a, m, name, time_params)
        for name, m in numeric.items()
        for a in frame.amounts
    }
    for a in frame.amounts:  # "leave me 15 mins free before it": a lead, never the thing's length
        after = _BEFORE.match(frame.text[a.span.end :])
        if a.unit not in _TIME_UNITS or after is None:
            continue
        near = " ".join(frame.text[: a.span.start].split()[-3:]) + after.group(
            0
        )  # "remind me 30 mins before"
        said = {_stem(w) for w in re.findall(r"[a-z]+", near.lower())}
        for name, m in numeric.items():
            value = _convert(a, m.unit) if m.unit in _TIME_UNITS else None
            desc = str(props[name].get("description") or "").lower()
            if value is None or not re.search(r"\bbefore\b", f"{' '.join(_split(name))} {desc}"):
                fits[(name, a.span.start, a.span.end)] = (
                    0,
                    None,
                )  # no parameter of a lead: not this amount's
                continue
            shared = said & {_stem(w) for w in re.findall(r"[a-z]+", desc)}
            fits[(name, a.span.start, a.span.end)] = (3 + len(shared), value)
    # an amount goes first to the parameter it fits best ("a reminder 30 mins before": the reminder's,
    # not the event's length, whichever parameter comes first)
    order = sorted(
        numeric,
        key=lambda n: -max((fits[(n, a.span.start, a.span.end)][0] for a in frame.amounts), default=0),
    )
    for name in order:
        m = numeric[name]
        best: tuple[int, Amount, float] | None = None
        for a in frame.amounts:
            if (a.span.start, a.span.end) in used:
                continue
            score, value = fits[(name, a.span.start, a.span.end)]
            if score > 0 and value is not None and (best is None or score > best[0]):
                best = (score, a, value)
        if best is None:
            if (
                m.unit == "count"
                and props[name].get("type") == "integer"
                and m.nouns & {_stem(w) for w in frame.negated}
            ):
                lo = props[name].get("minimum", 0)
                if isinstance(lo, (int, float)) and lo <= 0:
                    # the request's own words, the first said ("no checked bag"), the same on every run
                    # (``frame.negated`` is a set, so its order is not)
                    words = sorted(
                        (w for w in frame.negated if _stem(w) in m.nouns),
                        key=lambda w: (frame.text.lower().find(w), w),
                    )
                    said = re.search(
                        rf"(?i)\b(?:no|not any|without|minus|zero)\s+(?:[\w-]+\s+){{0,2}}?{re.escape(words[0])}\w*",
                        frame.text,
                    )
                    out[name] = Stated(0, said.group(0) if said else f"no {words[0]}")  # "no sugar"
            continue
        _, a, value = best
        if m.bound == "min" and a.op == "<=" or m.bound == "max" and a.op == ">=":
            continue
        prop = props[name]
        if a.other is not None and a.value:
            low = value * a.other / a.value
            if m.bound == "min":
                value = low  # "£20-30" for a lowest price: its lower end; for a highest: its upper end
            elif m.bound != "max":
                if ranged is not None:
                    ranged[name] = f"For {name.replace('_', ' ')}, do you want {_num(low)} or {_num(value)}?"
                used.add((a.span.start, a.span.end))
                continue
        value = int(round(value)) if prop.get("type") == "integer" else float(value)
        enum = prop.get("enum")
        if enum and value not in enum:
            # "a two-month supply" is 61 days by the calendar's average and 60 on a pharmacy's list: an
            # allowed amount within 3% of the one said is that one
            near = [
                v for v in enum if isinstance(v, (int, float)) and abs(v - value) <= 0.03 * max(abs(v), 1)
            ]
            if len(near) != 1:
                continue
            value = near[0]
        lo, hi = prop.get("minimum"), prop.get("maximum")
        if (isinstance(lo, (int, float)) and value < lo) or (isinstance(hi, (int, float)) and value > hi):
            continue
        out[name] = Stated(value, a.span.text, a.op)
        used.add((a.span.start, a.span.end))


# a span of time of things ("a fortnight of meals", "two weeks of dinners"): how long the whole runs
_SPAN_OF = re.compile(r"(?i)^\S+(?:\s+\S+)?\s+of\s")

# the words of a temperature parameter's name (a closed class): "temperature_c", "target_temp_f"
_TEMPERATURE = frozenset(_stem(w) for w in ("temperature", "temp", "celsius", "fahrenheit", "degrees"))


def _same_measure(noun: str, name: str) -> bool:
    """Whether a counted noun is a unit the parameter's name counts, by ``pint``'s units ("cals",
    "kcal" for calories_per_day: energy both; food calories are kilocalories, so the count is kept as
    said). Unknown words are no unit."""
    if not noun:
        return False
    from ibachat.agent.reading.units import dimension

    said = dimension(noun)
    if said is None:
        return False
    from ibachat.agent.reading.units import unit_dimension

    # the parameter's own words as units the registry knows ("calories")
    return any(unit_dimension(w) == said for w in _split(name) if len(w) >= 3)


def _num(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


# the words after an amount of time that make it a lead before something ("15 mins free before it")
_BEFORE = re.compile(r"^(?:\s+[a-z]+){0,2}?\s+(?:before|beforehand|ahead|prior)\b", re.I)


def _fit(a: Amount, m: _Measure, name: str, time_params: list[str]) -> tuple[int, float | None]:
    """How well an amount fits a parameter (0: not at all), and its value in the parameter's unit."""
    a_per = _stem(a.per) if a.per else ""
    if not a_per and m.per and m.unit == "count" and a.unit == "count" and _same_measure(a.noun, name):
        a_per = m.per  # "1800 cals" for calories_per_day: the parameter says what the count is per
    if m.per != a_per and not (m.unit == "money" and a_per and not m.per and False):
        if not (m.per == "" and a_per in ("head", "person") and m.unit == "money"):
            if not (m.per == "" and a_per and a_per in m.nouns and m.unit in _TIME_UNITS):
                return 0, None  # ("an hour per session" is a session's length: the parameter is of sessions)
            a_per = ""
    if m.unit in _TIME_UNITS and m.per and a.unit == "count" and a_per == m.per:
        return 2, a.value  # "six sessions a week", "twice a week" for days per week: times in the week
    noun = _stem(a.noun) if a.noun else ""
    words = {_stem(w) for w in a.words}
    if m.unit in _TIME_UNITS:
        value = _convert(a, m.unit)
        if value is None:
            return 0, None
        if words and words & m.nouns:
            return 3, value
        if words and m.nouns and not (m.nouns & {_stem(w) for w in _DURATION}):
            return 0, None  # "45 minute sessions" is no buffer
        if not words and m.nouns and not (m.nouns & {_stem(w) for w in _DURATION}) and len(time_params) > 1:
            return 0, None  # "for 45 minutes": the duration, not the reminder
        if (
            words
            and not m.nouns
            and not re.match(r"(?i)[\w.]+-[a-z]+\b", a.span.text)
            and not _SPAN_OF.search(a.span.text)
        ):
            return 0, None  # "45 minute sessions" for a bare "minutes"; "a 10-day plan", "a fortnight of
            # meals" are the plan's length
        return 2, value
    if m.unit == "money":
        # a bare number is money with a bound ("under 90 a night") or as a range ("100-150 a night")
        if a.unit == "money" or (a.unit == "number" and (a.op != "=" or a.other is not None)):
            return 2, a.value
        return 0, None
    if m.unit == "percent":
        return (2, a.value) if a.unit == "percent" else (0, None)
    if m.unit in ("km", "mile", "m"):
        value = _convert(a, m.unit) if a.unit in ("km", "mile", "m") else None
        return (2, value) if value is not None else (0, None)
    if m.unit in MEASURES:  # "two and a half kilos" for weight_kg, "5 lb" in kilograms
        value = _convert(a, m.unit) if a.unit in MEASURES else None
        return (2, value) if value is not None else (0, None)
    if a.unit != "count":
        return 0, None
    if a.parts and (m.nouns & {_stem(w) for w in a.parts} or _stem(name) in {_stem(w) for w in a.parts}):
        return 0, None  # "2 adults and 3 kids" for a count of adults: the adults' own count, not the total
    if not noun and a_per and a_per == m.per:
        return 1, a.value  # "twice a week" for sessions_per_week
    if noun and (noun in m.nouns or _same_measure(a.noun, name)):
        return 3, a.value
    if noun == _stem("degrees") and m.nouns & _TEMPERATURE:
        return 3, a.value  # "21 degrees" for temperature_c: degrees of the scale the parameter is in
    if noun and any(len(noun) >= 4 and (n.startswith(noun) or noun.startswith(n)) for n in m.nouns):
        return 3, a.value
    if (noun == "peopl" or "peopl" in words) and (
        m.nouns & {_stem(w) for w in _PEOPLE_COUNT} or _stem(name) in {_stem(w) for w in _PEOPLE_COUNT}
    ):
        return 2, a.value
    if (
        noun
        and (set(_split(name)) & {"quantity", "qty", "count", "number", "num"})
        and not (m.nouns - {noun})
    ):
        return 1, a.value  # "two tickets" for a ticket tool's quantity
    if not noun and not words and set(_split(name)) & {"quantity", "qty"} and not m.nouns:
        return 1, a.value  # "get me two for the gig": how many of what the tool gives
    plain = not a_per and not re.match(r"(?i)(?:once|twice|thrice)\b", a.span.text)  # no "twice-daily"
    if plain and noun and noun != "peopl" and m.nouns and m.nouns <= _ANY_THING:
        return 1, a.value  # "15 stories" for max_items: a parameter of items counts whatever it holds
    return 0, None


# How schemas name a count of whatever a tool holds (a closed class): "max_items", "results", "entries".
_ANY_THING = frozenset(_stem(w) for w in ("items", "item", "results", "entries", "things", "records"))


# a number standing alone: no unit, sign, clock or date around it ("towels again, 60")
_BARE_NUMBER = re.compile(
    r"(?<![\w.,:/£$€¥₹#-])(\d{1,5}(?:\.\d+)?)(?![\w:/%°]|\.\d|\s*(?:am|pm|a\.m|p\.m)\b)", re.I
)


def _offered_numbers(
    props: dict[str, Any], frame: Frame, task: str, now: datetime, out: dict[str, Stated]
) -> None:
    """A bare number the request says ("towels again pls, 60") is the value of the one numeric parameter
    whose offered values hold it (a temperature among 20/30/40/60/90, not a spin among 400-1400). A number
    any other reading took (a count, a day, a time, another value's words) is not bare; a number two
    parameters offer is neither's."""
    from ibachat.agent.reading.when import read_when

    offered = {
        n: {float(v) for v in p["enum"] if isinstance(v, (int, float)) and not isinstance(v, bool)}
        for n, p in props.items()
        if n not in out and p.get("type") in ("integer", "number") and p.get("enum")
    }
    offered = {n: vs for n, vs in offered.items() if vs}
    if not offered:
        return
    taken = [
        (a.span.start, a.span.end) for a in frame.amounts if a.noun or a.unit != "count"
    ]  # a count of a thing
    when = read_when(task, now)
    low = task.lower()
    for words in (when.day_words, when.time_words, *(str(s.quote) for s in out.values())):
        at = low.find(words.lower()) if words else -1
        if at >= 0:
            taken.append((at, at + len(words)))
    for m in _BARE_NUMBER.finditer(task):
        if any(a <= m.start() < b for a, b in taken):
            continue
        value = float(m.group(1))
        names = [n for n, vs in offered.items() if value in vs and n not in out]
        if len(names) == 1:
            n = names[0]
            out[n] = Stated(int(value) if props[n].get("type") == "integer" else value, m.group(1))
