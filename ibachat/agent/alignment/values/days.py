"""Days and times a request states for a tool's parameters: a day, a clock time, a stretch with both ends.

Part of ``alignment/request_values.py``, which runs the readers in order."""

from __future__ import annotations

import dataclasses
import re
from datetime import date, datetime, timedelta
from typing import Any

from ibachat.agent.alignment.values.common import _END, Stated, _measure, _split, _stem
from ibachat.agent.reading.frame import Frame
from ibachat.agent.reading.when import When, clock_of, read_when


def _times(props: dict[str, Any], frame: Frame, task: str, now: datetime, out: dict[str, Stated]) -> None:
    when = read_when(task, now)
    dated = [
        n for n, p in props.items() if p.get("type") == "string" and p.get("format") in ("date", "date-time")
    ]
    # a start before an end, whatever order the schema lists them in ("end_time", "start_time")
    clocks = sorted(
        (n for n, p in props.items() if _is_clock(n, p)), key=lambda n: _END.search(n) is not None
    )
    span = _range_days(frame, now)
    if span is not None and len(dated) >= 2:
        (first, first_words), (last, last_words) = span
        ends = [
            n
            for n in dated
            if _END.search(n)
            or _END_SAID.search(f"{n.replace('_', ' ')} {props[n].get('description') or ''}")
        ]
        starts = [n for n in dated if n not in ends]
        if ends and starts:
            out[starts[0]] = Stated(first.isoformat(), first_words)
            out[ends[0]] = Stated(last.isoformat(), last_words)
    elif span is not None and dated:
        (first, first_words), _ = span
        if props[dated[0]].get("format") == "date":
            out[dated[0]] = Stated(first.isoformat(), first_words)
    elif when.day is not None and (when.question is None or when.asks == "time") and dated:
        for n in dated:
            if len(dated) > 1 and _END.search(n):
                continue  # one day said: the start, not the end
            prop = props[n]
            if prop.get("format") == "date":
                out[n] = Stated(when.day.isoformat(), when.day_words or when.time_words)
            elif (when.time or when.part) and when.question is None:
                from ibachat.agent.reading.when import default_time

                clock = when.time or default_time(when.part) or "12:00"
                off = now.strftime("%z") or "+0000"
                words = _joined(task, when.day_words, when.time_words)
                out[n] = Stated(f"{when.day.isoformat()}T{clock}:00{off[:3]}:{off[3:]}", words)
            break
    clock_range = next(
        (r for r in frame.ranges if re.search(r"\d", r[0]) and re.search(r"(?i)am|pm", r[1])), None
    )
    worded = None if clock_range is not None else next(filter(None, map(_worded_ends, frame.ranges)), None)
    if clock_range is not None or worded is not None:
        if worded is not None:
            first, last, clock_range = worded
        else:
            half = "" if re.search(r"(?i)am|pm", clock_range[0]) else _half_of(clock_range[1])
            first = read_when(f"{clock_range[0]}{half}", now).time
            last = read_when(clock_range[1], now).time
        if first and clocks:
            out[clocks[0]] = Stated(first, clock_range[2].text)
            ends = [c for c in clocks[1:] if _END.search(c)]
            if last and ends and not _END.search(clocks[0]):  # "7pm till midnight": the end's own clock
                out[ends[0]] = Stated(last, clock_range[1] if clock_range[1] in task else clock_range[2].text)
        said_length = any(  # "an hour between 2 and 5pm": the stretch is a window, the hour its length
            a.unit in ("minute", "hour")
            and not a.per
            and not clock_range[2].start <= a.span.start < clock_range[2].end
            for a in frame.amounts
        )
        if first and last and last > first and not said_length:  # "9 till 11am": two hours long
            _lasting(props, _clock_minutes(last) - _clock_minutes(first), clock_range[2].text, out)
    elif when.time is not None and when.asks != "time" and clocks:
        if not (_bounded(task, when.time_words) and not _BOUND_NAME.search(clocks[0])):
            out[clocks[0]] = Stated(when.time, when.time_words)


# a clock said as a bound ("any time before noon", "not after 6"): a window, not the time itself, unless
# the parameter is that bound ("latest_time", "arrive_by"); "ready by half six" is the time it is wanted
_BOUND_BEFORE = re.compile(
    r"(?i)\b(?:before|after|until|till|til|earlier than|later than|no later than|no earlier than)\s+(?:about\s+|around\s+)?$"
)
_BOUND_NAME = re.compile(
    r"(?i)latest|earliest|before|after|(?:^|_)by(?:_|$)|deadline|until|not_before|not_after"
)


def _bounded(task: str, words: str) -> bool:
    at = task.lower().find(words.lower()) if words else -1
    return at > 0 and _BOUND_BEFORE.search(task[:at]) is not None


# a name or description that says its day closes the stretch ("latest_date", "last day of the stay"),
# beside the names ``_END`` knows ("pick_up" says nothing of it)
_END_SAID = re.compile(r"(?i)\b(?:last|latest|final|end|ends|until|return)\b")

_DURATION_STEMS = frozenset({"durat", "length", "long", "span", "period"})


def _lasting(props: dict[str, Any], minutes: int, words: str, out: dict[str, Stated]) -> None:
    """How long something lasts, from the two ends of a stretch of hours, for a parameter of its length."""
    for n, p in props.items():
        m = _measure(n, p) if p.get("type") in ("integer", "number") and n not in out else None
        if m and m.unit in ("minute", "hour") and {_stem(w) for w in _split(n)} & _DURATION_STEMS:
            value = minutes if m.unit == "minute" else minutes / 60
            out[n] = Stated(int(value) if p.get("type") == "integer" else value, words)
            return


def _worded_ends(stretch: tuple[str, str, Any]) -> tuple[str, str, Any] | None:
    """ "from 7 in the evening till half eleven", "from 2 in the afternoon until 6": the two clocks of a
    stretch whose ends are said in words or bare, one of them with its am or pm said; the other end
    takes the half that puts it after the first (a stretch of hours runs forward, under a day)."""
    ends = [_bare_clock(stretch[0]) or clock_of(stretch[0]), _bare_clock(stretch[1]) or clock_of(stretch[1])]
    if ends[0] is None or ends[1] is None or (ends[0][2] is None and ends[1][2] is None):
        return None
    (h1, m1, a1), (h2, m2, a2) = ends  # type: ignore[misc]

    def at(hour: int, minute: int, half: str | None) -> int:
        return ((hour % 12) + (12 if half == "pm" else 0)) * 60 + minute if hour <= 12 else hour * 60 + minute

    if a1 is None:
        start_at = max((at(h1, m1, h) for h in ("am", "pm") if at(h1, m1, h) < at(h2, m2, a2)), default=None)
        if start_at is None:
            return None
        end_at = at(h2, m2, a2)
    else:
        start_at = at(h1, m1, a1)
        # "from eight in the evening to 1": past midnight when no half of the day puts it later
        end_at = (
            at(h2, m2, a2)
            if a2 is not None
            else min(
                (at(h2, m2, h) for h in ("am", "pm") if at(h2, m2, h) > start_at), default=at(h2, m2, "am")
            )
        )
    if end_at == start_at or (end_at < start_at and a2 is not None):
        return None
    return (
        f"{start_at // 60 % 24:02d}:{start_at % 60:02d}",
        f"{end_at // 60 % 24:02d}:{end_at % 60:02d}",
        stretch,
    )


def _bare_clock(words: str) -> tuple[int, int, None] | None:
    """ "6", "10.30": an end of a stretch of hours said as a bare number."""
    noon = re.fullmatch(r"(?i)(noon|midday|midnight)", words.strip())
    if noon:  # midnight closes the day: 24:00, written 00:00
        return (12, 0, "pm") if noon.group(1).lower() != "midnight" else (24, 0, "pm")
    m = re.fullmatch(r"(\d{1,2})(?:[:.](\d{2}))?", words.strip())
    return (int(m.group(1)), int(m.group(2) or 0), None) if m and 1 <= int(m.group(1)) <= 12 else None


def _half_of(last: str) -> str:
    """ "9 till 11am": the first end takes the half of the day of the last when it says none."""
    m = re.search(r"(?i)\d\s*(am|pm)\b", last)
    return m.group(1) if m else ""


def _clock_minutes(clock: str) -> int:
    h, m = clock.split(":")
    return int(h) * 60 + int(m)


def _is_clock(name: str, prop: dict[str, Any]) -> bool:
    return (
        prop.get("type") == "string"
        and not prop.get("enum")
        and (
            "[0-5][0-9]" in prop.get("pattern", "")
            or bool(re.search(r"(?:^|_)time$", name))
            or prop.get("format") == "time"
        )
    )


def _range_days(frame: Frame, now: datetime) -> tuple[tuple[date, str], tuple[date, str]] | None:
    for first, last, _span in frame.ranges:
        if re.search(r"(?i)\d\s*(?:am|pm)\b|\d[:.]\d\d", first + last):
            continue
        a, b = _end_day(first, now), _end_day(last, now)
        bare = re.fullmatch(r"(?i)(?:the\s+)?(\d{1,2})(?:st|nd|rd|th)?", first.strip())
        if bare and b.day is not None and not b.question and re.search(r"(?i)[a-z]{3}", last):
            # "16th to 23rd January": a day of the month alone takes the month of the end that names one
            start = _day_in_month(b.day, int(bare.group(1)))
            if start is not None:
                a = dataclasses.replace(a, day=start, question=None)
        if a.day is None or b.day is None or a.question or b.question:
            continue
        if a.day_from_clock or b.day_from_clock:  # "from 7 in the evening till half eleven": hours, no days
            continue
        end = b.day
        while end < a.day:  # "from Friday until Monday": the Monday after
            end += timedelta(days=7)
        return (a.day, first), (end, last)
    return None


def _day_in_month(end: date, day: int) -> date | None:
    """The ``day`` of ``end``'s month, or of the month before when that would fall after ``end``."""
    for back in (0, 1):
        year, month = (end.year, end.month - back) if end.month - back >= 1 else (end.year - 1, 12)
        try:
            found = date(year, month, day)
        except ValueError:
            return None
        if found <= end:
            return found
    return None


def _end_day(words: str, now: datetime) -> When:
    """The day one end of a stretch names; a day's name read as said after "on" ("from Christmas Eve
    to the 28th": the name alone is no day to the reader, which wants it after a word of time)."""
    named = read_when(f"on {words}", now)
    if named.day is not None and named.day_words.lower() == words.lower():
        return named  # the whole of the words is a day's name ("Easter Sunday", not its weekday)
    return read_when(words, now)


def _joined(task: str, first: str, second: str) -> str:
    low = task.lower()
    a, b = low.find(first.lower()), low.find(second.lower())
    if not second or b < 0:
        return first
    if not first or a < 0:
        return second
    start, end = min(a, b), max(a + len(first), b + len(second))
    return task[start:end] if end - start <= len(first) + len(second) + 12 else first
