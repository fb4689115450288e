"""The day, the time and the part of day a request names, relative to "now"; a question when unsure.

``read_when(text, now)`` finds the time expressions of a request and resolves them:

- calendar dates are read by ``dateparser`` (a well-kept library: "on the 2nd of June", "Dec 24th",
  "24/12", "May 3rd 2027"), the year being the next one with that date still ahead; so are spans of
  hours from now ("in two hours", "in 45 minutes");
- what dateparser gets wrong or cannot read is composed here by a small grammar: an offset counted
  from a day (count + day/week/fortnight + from/on/after + today/tomorrow/weekday: "a week from
  Monday", "a fortnight on Saturday", "three days after tomorrow"; "Monday week", "the Tuesday after
  next"), "the 18th" (it reads "the 3rd" as March), "two weeks from today" (it goes back in time),
  "the day after tomorrow";
- what nobody can settle becomes a question, never today: "next Friday" said early in the week
  (this Friday or the one after?), "5/1" (5 January or 1 May?), "end of the month" (a span of days),
  "next week" or "in a few days" with no day, "on Thursday" said on a Thursday, a weekday that is not
  the date's ("Friday the 12th" when the 12th is a Saturday), "the 31st" in a month without one,
  "9am today" said in the afternoon, "7:30" with no period of the day and nothing that says which.

Times: "7pm", "19:30", "08:30", "7.30pm", "half seven", "quarter to nine", "noon"; a bare "at 7:30"
takes its half of the day from a part of day said with it ("tomorrow evening at 7:30", "tonight"); a
time said without a day is its next occurrence ("at 16:45"). Parts of the day ("tomorrow evening",
"in the morning", "first thing") are kept as labels for parameters such as ``departure_window``.
``read_answer_when`` reads the reply to one of these questions together with what the request did
settle. The word lists here are closed classes (weekdays, months, number words, parts of the day).
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass
from datetime import date, datetime, timedelta, timezone
from functools import lru_cache

WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_WD = r"(mon(?:day)?|tue(?:s(?:day)?)?|wed(?:s|nesday)?|thu(?:r(?:s(?:day)?)?)?|fri(?:day)?|sat(?:urday)?|sun(?:day)?)"
_MON = (
    r"(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|"
    r"oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?"
)
_NUMBER_WORDS = {
    "a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
    "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "couple of": 2, "a couple of": 2, "few": 3, "a few": 3,
}  # fmt: skip
_N = r"(\d{1,2}|a couple of|couple of|a few|few|an|a|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)"
_ORD = r"(\d{1,2})(?:st|nd|rd|th)"
_PART_WORDS = {  # period of the day -> (label, default clock time)
    "early morning": ("early_morning", "07:00"),
    "first thing": ("early_morning", "08:00"),
    "morning": ("morning", "09:00"),
    "lunchtime": ("lunchtime", "12:30"),
    "lunch time": ("lunchtime", "12:30"),
    "midday": ("lunchtime", "12:00"),
    "noon": ("lunchtime", "12:00"),
    "afternoon": ("afternoon", "14:00"),
    "arvo": ("afternoon", "14:00"),  # said so in Australia
    "evening": ("evening", "19:00"),
    "tonight": ("evening", "19:00"),
    "night": ("night", "21:00"),
    "late night": ("night", "22:30"),
    "midnight": ("night", "00:00"),
}
_PART = re.compile(
    r"\b(early morning|first thing|late night|lunch ?time|midday|noon|midnight|morning|afternoon|arvo|evening|tonight|night)\b",
    re.I,
)
# the same, in the plural as well, for the half of the day a clock is in ("weekday mornings from 6:30");
# "3 nights" counts a stay, and "evenings are busy for me" is a verdict on evenings, no part of the request's day
_PART_OR_PARTS = re.compile(
    r"\b(early morning|first thing|late night|lunch ?time|midday|noon|midnight|morning|afternoon|arvo|evening|tonight|night)"
    r"(?:s(?<!nights))?\b",
    re.I,
)
_HALF_OF_DAY = {
    "early_morning": "am",
    "morning": "am",
    "lunchtime": "pm",
    "afternoon": "pm",
    "evening": "pm",
    "night": "pm",
}
_MEAL_HALF = re.compile(r"\b(?:dinner|supper|drinks)\b|\b(breakfast|brunch)\b", re.I)
_CLOCK_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
                "nine": 9, "ten": 10, "eleven": 11, "twelve": 12}  # fmt: skip
_CW = r"(\d{1,2}|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)"


@dataclass
class When:
    """What a request says about when: a day, a clock time, a period of the day, or a question."""

    day: date | None = None
    time: str | None = None  # "HH:MM", 24-hour
    part: str | None = None  # early_morning | morning | lunchtime | afternoon | evening | night
    day_words: str = ""  # the words that named the day ("the day after tomorrow")
    time_words: str = ""  # the words that named the time ("7:30 in the evening")
    question: str | None = None  # the one short question when the words do not settle it
    asks: str = ""  # what the question is about: "day" or "time" (am or pm)
    day_from_clock: bool = False  # the day is the next occurrence of the time said, not a day the words name

    @property
    def said(self) -> bool:
        return bool(self.day or self.time or self.part or self.question)


def _n(word: str) -> int:
    return int(word) if word.isdigit() else _NUMBER_WORDS.get(word.lower(), 1)


def _weekday(word: str) -> int:
    w = word.lower()[:3]
    return next(i for i, d in enumerate(WEEKDAYS) if d.startswith(w))


def _month(word: str) -> int:
    w = word.lower().rstrip(".")[:3]
    return next(i for i, m in enumerate(_MONTHS, 1) if m.startswith(w))


_MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august", "september",
           "october", "november", "december")  # fmt: skip


def _fmt(d: date) -> str:
    return f"{d.day} {_MONTHS[d.month - 1].capitalize()}"


def _ahead(today: date, wd: int) -> date:
    """The coming weekday ``wd`` (today counts when today is that day)."""
    return today + timedelta(days=(wd - today.weekday()) % 7)


def _after(today: date, wd: int) -> date:
    """The next weekday ``wd`` strictly after today."""
    return today + timedelta(days=(wd - today.weekday()) % 7 or 7)


def _dateparser(phrase: str, now: datetime) -> date | None:
    """A calendar date read by dateparser, in the future (day-month order first, as in "24/12")."""
    import dateparser

    settings = {
        "RELATIVE_BASE": now.replace(tzinfo=None),
        "PREFER_DATES_FROM": "future",
        "DATE_ORDER": "DMY",
        "REQUIRE_PARTS": ["day", "month"],
    }
    try:
        parsed = dateparser.parse(phrase, settings=settings, languages=["en"])
    except (ValueError, OverflowError):
        return None
    return parsed.date() if parsed is not None else None


def _in_future(d: date, today: date) -> date:
    """A day and month without a year: this year's, or next year's when it has passed."""
    if d >= today:
        return d
    try:
        return d.replace(year=d.year + 1)
    except ValueError:  # 29 February
        return d + timedelta(days=365)


# Each pattern: the day it names, or a question. Tried in order; the first that matches wins.
_ISO = re.compile(r"\b(\d{4})-(\d{2})-(\d{2})\b")
_NUMERIC = re.compile(r"(?<![\d:.])(\d{1,2})[/.](\d{1,2})(?:[/.](\d{2,4}))?(?![\d:])")
_MONTH_DATE = re.compile(
    rf"\b(?:(?:on\s+)?{_WD},?\s+)?(?:(?:the\s+)?(\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?{_MON}|{_MON}\s+(?:the\s+)?(\d{{1,2}})(?:st|nd|rd|th)?)(?:,?\s+(\d{{4}}))?\b",
    re.I,
)
# "the 11th", "Friday the 11th", and with the weekday the "the" may go ("on Fri 11th")
_ORDINAL_DAY = re.compile(rf"\b(?:on\s+)?(?:{_WD}\s+(?:the\s+)?|the\s+){_ORD}\b(?!\s+(?:of\s+)?{_MON})", re.I)
_DAY_AFTER = re.compile(r"\b(?:the\s+)?day\s+after\s+tomorrow\b|\bovermorrow\b", re.I)
_UNIT_DAYS = {"d": 1, "w": 7, "f": 14}  # days, weeks, fortnights
# An offset counted from a day: "a week from Monday", "three days after tomorrow", "a fortnight on
# Saturday", "Monday week", "tomorrow fortnight", "the Tuesday after next".
_OFFSET_FROM = re.compile(
    rf"\b{_N}\s+(days?|weeks?|fortnights?)\s+(?:(?:from|on|after)\s+)?(today|tomorrow|{_WD})\b"
    rf"|\b(today|tomorrow|{_WD})\s+(week|fortnight)\b(?!\s*end)"
    rf"|\b(?:the\s+)?{_WD}\s+after\s+next\b",
    re.I,
)
# an amount just before "a day"/"a week": a price or a quantity per day, not an offset from a day
RATE_BEFORE = re.compile(r"(?:\d|[£$€¥₹])[\d.,]*\s*(?:[A-Za-z]+\s*)?$")
_IN_SPAN = re.compile(
    rf"\b(?:in\s+{_N}\s+(days?|weeks?|fortnights?)|{_N}\s+(days?|weeks?)\s+from\s+(?:now|today)|in\s+a\s+fortnight)\b",
    re.I,
)
_RELATIVE = re.compile(r"\b(today|tonight|tomorrow|this\s+(?:morning|afternoon|evening))\b", re.I)
_WEEKEND = re.compile(r"\b(this|next|the|on\s+the|over\s+the)?\s*weekend\b", re.I)
_NEXT_WD = re.compile(rf"\bnext\s+{_WD}\b", re.I)
_LAST_WD = re.compile(rf"\blast\s+{_WD}\b", re.I)
_THIS_WD = re.compile(rf"\b(?:(on|this|coming|this\s+coming)\s+)?{_WD}\b", re.I)
_VAGUE = re.compile(
    r"\b(?:(?:the\s+)?(?:end|start|beginning|middle)\s+of\s+(?:the\s+|this\s+|next\s+)?(?:month|week|year)|"
    rf"mid[- ]{_MON}|(?:early|late)\s+{_MON}|next\s+week|next\s+month|sometime\s+soon|some\s*time\s+next\s+\w+|"
    r"in\s+a\s+(?:few|couple\s+of)\s+(?:days|weeks|hours|minutes))\b",
    re.I,
)


# a capitalised word just before a weekday: a name of a day ("Easter Monday"), unless the word is one
# that says which week or is a day or a month itself (a closed class)
_NAME_THEN_WEEKDAY = re.compile(rf"\b([A-Z][a-z']+)\s+(?i:{_WD})\b")
_NOT_A_NAME = frozenset(
    "on this next coming every by until till from last before after and or but so see this that each "
    "monday tuesday wednesday thursday friday saturday sunday mon tue tues wed weds thu thur thurs fri sat sun "
    "january february march april may june july august september october november december "
    "jan feb mar apr jun jul aug sep sept oct nov dec today tomorrow tonight".split()
)


def _one_name(text: str, start: int, end: int) -> bool:
    """Whether the parse reads the words from ``start`` to ``end`` as one name of an event, a day or a
    place ("Black Friday", "Cyber Monday"), not a person and a weekday ("Tom Monday")."""
    from ibachat.agent.reading.parse import parse

    return any(
        e.start_char <= start and end <= e.end_char and e.label_ in ("EVENT", "DATE", "FAC")
        for e in parse(text).ents
    )


_NEGATED_BEFORE = re.compile(r"(?i)\b(?:not|never|no)\b|n't\b")


def _clause_before(text: str, at: int) -> str:
    """The words of the clause before offset ``at`` (from the last stop, comma or semicolon)."""
    return re.split(r"[.,;!?]", text[:at])[-1]


def _read_day(text: str, now: datetime) -> tuple[date | None, str, str | None]:
    """(day, the words, question) for the day the text names. The forms below are tried in an order that
    settles overlaps ("Easter Sunday" before "Sunday") and puts a date before a relative word said
    elsewhere ("snapped this morning ... for 5/1"); a day's name said after "on", "from", "until" before
    the date found is the first day of the two ("in on Christmas Eve and out on the 28th": Christmas Eve;
    "going for Christmas ... on the 23rd": the 23rd, Christmas says what for)."""
    from ibachat.agent.reading.named_days import named_day, named_spans

    found = _listed_day(text, now)
    at = text.find(found[1]) if found[1] else -1
    if at <= 0:
        return found
    for a, b in named_spans(text[:at], now.date()):
        if re.search(r"(?i)\b(?:on|from|since|until|till|through)\s+(?:the\s+)?$", text[:a]):
            day = named_day(text[:b], now.date(), unknown=False)
            if day is not None:
                return day
    return found


def _listed_day(text: str, now: datetime) -> tuple[date | None, str, str | None]:
    """(day, the words, question) for a day the text names, the forms tried in a fixed order."""
    from ibachat.agent.reading.named_days import named_day

    today = now.date()
    m = _ISO.search(text)
    if m:
        try:
            return date(int(m[1]), int(m[2]), int(m[3])), m.group(0), None
        except ValueError:
            return None, m.group(0), f"Which day do you mean by {m.group(0)!r}?"
    m = _DAY_AFTER.search(text)
    if m:
        return today + timedelta(days=2), m.group(0), None
    m = _OFFSET_FROM.search(text)
    if m and m.group(1) and RATE_BEFORE.search(text[: m.start()]):
        # "40 dollars a day from Friday": "a day" says what the price is per; the day is Friday
        m = None
    if (
        m
        and m.group(1)
        and not re.search(r"(?i)\b(?:from|on|after)\s", m.group(0))
        and (m.group(2).lower().startswith("d") or re.search(r"(?i)\bfor\s+$", text[: m.start()]))
    ):
        # "three weeks today" and "a week Friday" are offsets; "3 days Friday to Sunday" and "for two
        # weeks today" say how long, from that day
        m = None
    stay_from = bool(m and m.group(1) and re.search(r"(?i)\bfor\s+$", text[: m.start()]))
    if m:
        if m.group(8):  # "the Tuesday after next": the one after the coming one
            return _after(today, _weekday(m.group(8))) + timedelta(days=7), m.group(0), None
        if m.group(5):  # "Monday week", "tomorrow fortnight"
            anchor_word, count, unit = m.group(5), 1, m.group(7)
        else:
            anchor_word, count, unit = m.group(3), _n(m.group(1)), m.group(2)
        low = anchor_word.lower()
        anchor = (
            today
            if low == "today"
            else today + timedelta(days=1)
            if low == "tomorrow"
            else _after(today, _weekday(low))
        )
        if stay_from:  # "for a fortnight from Monday": how long, from that day; the day is Monday
            return anchor, anchor_word, None
        return anchor + timedelta(days=count * _UNIT_DAYS[unit.lower()[0]]), m.group(0), None
    # "a rash that hasn't cleared up in two weeks": after a negated verb, "in two weeks" is how long
    m = next(
        (x for x in _IN_SPAN.finditer(text) if not _NEGATED_BEFORE.search(_clause_before(text, x.start()))),
        None,
    )
    if m:
        if m.group(0).lower().endswith("fortnight") and not m.group(1):
            return today + timedelta(days=14), m.group(0), None
        count, unit = (m.group(1), m.group(2)) if m.group(1) else (m.group(3), m.group(4))
        if re.search(r"few|couple", count, re.I):  # "in a few days": two, three, four?
            return None, m.group(0), f"Which day {m.group(0).lower()}?"
        return today + timedelta(days=_n(count) * _UNIT_DAYS[unit.lower()[0]]), m.group(0), None
    m = _MONTH_DATE.search(text)
    if m:
        phrase = m.group(0)
        day_s, month_s = (m.group(2), m.group(3)) if m.group(2) else (m.group(5), m.group(4))
        year = int(m.group(6)) if m.group(6) else None
        found = _dateparser(f"{day_s} {month_s} {year or ''}".strip(), now)
        if found is None:
            try:
                found = date(year or today.year, _month(month_s), int(day_s))
            except ValueError:
                return None, phrase, f"Which day do you mean by {phrase!r}?"
        found = found if year else _in_future(found, today)
        return _with_weekday(found, m.group(1), phrase)
    m = _NUMERIC.search(text)
    if m and "." in m.group(0) and not m.group(3) and len(m.group(2)) == 2:
        if int(m.group(1)) <= 23 and int(m.group(2)) <= 59:
            m = None  # "fri 4.15", "at 10.30": hours and minutes, as the clock reader takes them, no day
    if m and not re.match(
        r"\s*(?:am|pm|a\.m|p\.m|h\b|hrs?\b|hours?|minutes?|mins?|wks?\b|%)|(?!st|nd|rd|th)[a-z]",
        text[m.end() :],
        re.I,
    ):  # a unit written on it ("1.5hrs", "2.5kg") is an amount, no day
        a, b = int(m.group(1)), int(m.group(2))
        if not (1 <= a <= 31 and 1 <= b <= 31) or (a > 12 and b > 12):
            return None, "", None  # not a date (a score, a ratio)
        year = int(m.group(3)) + (2000 if m.group(3) and len(m.group(3)) == 2 else 0) if m.group(3) else None
        if a <= 12 and b <= 12 and a != b:
            first, second = _safe(year or today.year, b, a), _safe(year or today.year, a, b)
            if first and second:
                one, two = (
                    (_in_future(first, today), _in_future(second, today)) if not year else (first, second)
                )
                return None, m.group(0), f"Do you mean {_fmt(one)} or {_fmt(two)}?"
        day_n, month_n = (a, b) if a > 12 or a == b else (b, a)
        found = _safe(year or today.year, month_n, day_n)
        if found is None:
            return None, m.group(0), f"Which day do you mean by {m.group(0)!r}?"
        return (found if year else _in_future(found, today)), m.group(0), None
    m = _ORDINAL_DAY.search(text)
    if m:
        found, question = _day_of_month(int(m.group(2)), today)
        if question is not None:
            return None, m.group(0), question
        return _with_weekday(found, m.group(1), m.group(0))
    m = _VAGUE.search(text)
    if m:
        words = m.group(0)
        if re.search(r"end\s+of\s+(?:the\s+|this\s+)?month", words, re.I):
            last = date(today.year + (today.month == 12), today.month % 12 + 1, 1) - timedelta(days=1)
            return None, words, f"Which day at the end of the month do you mean (its last is {_fmt(last)})?"
        if re.search(r"hours|minutes", words, re.I):
            return None, words, f"What time do you mean by {words!r}?"
        return None, words, f"Which day {words.lower()}?"
    m = _RELATIVE.search(text)
    if m:
        word = m.group(1).lower()
        return (today + timedelta(days=1) if word == "tomorrow" else today), m.group(0), None
    m = _WEEKEND.search(text)
    if m and _a_weekday_too(text, m):
        m = None  # "for the long weekend, picking it up Friday": the day said is the weekend's day
    if m:
        saturday = _ahead(today, 5) if today.weekday() != 6 else today
        nxt = (m.group(1) or "").lower() == "next"
        if nxt and today.weekday() < 5:
            # "next weekend" said on a weekday, as "next Saturday": this one coming, or the one after?
            return (
                None,
                m.group(0).strip(),
                f"Do you mean this weekend ({_fmt(saturday)}) or the one after ({_fmt(saturday + timedelta(days=7))})?",
            )
        if nxt:  # the Saturday of the weekend after this one (said on a Sunday: six days on)
            return (
                _ahead(today, 5) + timedelta(days=7 if today.weekday() == 5 else 0),
                m.group(0).strip(),
                None,
            )
        return saturday, m.group(0).strip(), None
    named = named_day(text, today, unknown=False)  # "Easter Sunday" is no Sunday of this week
    if named is not None and named[0] is not None:
        named = _named_against_a_weekday(text, today, named)
    if named is not None:
        return named
    for m in _NAME_THEN_WEEKDAY.finditer(text):
        if m.group(1).lower() in _NOT_A_NAME or not _one_name(text, m.start(), m.end()):
            continue  # "on Monday", "Sam Friday" (a person, then a day): a weekday
        # "Easter Monday", "Black Friday": a name that ends in a weekday, which nothing here dates
        return None, m.group(0), f"Which day is {m.group(0)}?"
    m = _LAST_WD.search(text)
    if m:  # "got nicked last saturday": the one gone by, never the coming one
        back = (today.weekday() - _weekday(m.group(1))) % 7 or 7
        return today - timedelta(days=back), m.group(0), None
    m = _NEXT_WD.search(text)
    if m:
        wd = _weekday(m.group(1))
        coming = _after(today, wd)
        if (coming - today).days >= 5 and coming.isocalendar()[:2] != today.isocalendar()[:2]:
            # said late in the week, the coming one falls in next week ("next Monday" said on a
            # Wednesday): plainly that one; one still in this week ("next Sunday" said on a Tuesday) or
            # only days away may be this one or next week's
            return coming, m.group(0), None
        return (
            None,
            m.group(0),
            f"Do you mean this {WEEKDAYS[wd].capitalize()} ({_fmt(coming)}) or the one after ({_fmt(coming + timedelta(days=7))})?",
        )
    m = _THIS_WD.search(text)
    if m:
        wd, said = _weekday(m.group(2)), (m.group(1) or "").lower()
        if wd != today.weekday():
            return _after(today, wd), m.group(0), None
        if said == "this":  # "this Thursday" said on a Thursday: today
            return today, m.group(0), None
        if "coming" in said:
            return today + timedelta(days=7), m.group(0), None
        name = WEEKDAYS[wd].capitalize()  # "on Thursday" said on a Thursday: today, or a week on?
        return (
            None,
            m.group(0),
            f"Do you mean today ({_fmt(today)}) or next {name} ({_fmt(today + timedelta(days=7))})?",
        )
    return named_day(text, today) or (None, "", None)


def _named_against_a_weekday(
    text: str, today: date, named: tuple[date | None, str, str | None]
) -> tuple[date | None, str, str | None] | None:
    """A named day beside a weekday the request says outside the name: in another sentence, the name
    is said of something else and the weekday is the request's ("... for next wednesday. the in-laws are
    coming for christmas": None, so the weekday is read); in the same one, they must agree ("mother's
    day on sunday" and the Sunday coming: one day, else a question of which)."""
    day, words, _ = named
    at = text.lower().find(words.lower())
    if at < 0 or day is None:
        return named
    rest = text[:at] + " " * len(words) + text[at + len(words) :]
    m = _NEXT_WD.search(rest) or next(
        (w for w in _THIS_WD.finditer(rest) if w.group(1) or _DAY_PLACE.search(rest, w.end())), None
    )
    if m is None:
        return named
    a, b = min(at, m.start()), max(at + len(words), m.end())
    if re.search(r"[.!?;]", text[a:b]):
        return None  # another sentence: the weekday is the request's day
    wd = _weekday(m.group(m.lastindex or 1))
    coming = _after(today, wd) if m.re is _NEXT_WD else _ahead(today, wd)
    if coming == day or m.re is _NEXT_WD and coming + timedelta(days=7) == day:
        return named
    return (
        None,
        words,
        f"Do you mean {words} ({_fmt(day)}) or {WEEKDAYS[wd].capitalize()} {_fmt(coming)}?",
    )


_DAY_PLACE = re.compile(r"\s*(?:$|[,.;!?]|\s(?:at|morning|afternoon|evening|night|please|pls))", re.I)


def _a_weekday_too(text: str, weekend: re.Match[str]) -> bool:
    """Whether a weekday of its own is said beside a weekend (not in it, not turned down, not gone by):
    the day it says is the one meant ("the long weekend, picking it up Friday")."""
    for m in _THIS_WD.finditer(text):
        if weekend.start() <= m.start() < weekend.end():
            continue
        before = text[max(0, m.start() - 12) : m.start()]
        if re.search(r"(?i)\b(?:not|no|never|last|except|but|my|our|his|her|their)\s+(?:on\s+)?$", before):
            continue
        if re.fullmatch(r"(?i)(?:sat|sun|wed|weds)", m.group(m.lastindex or 0) or ""):
            continue  # a short form that is also a word is read only where a day is said (see below)
        return True
    return False


def _with_weekday(found: date | None, weekday: str | None, words: str) -> tuple[date | None, str, str | None]:
    """The day a date names, or a question when the weekday said with it is another day's."""
    if found is None:
        return None, words, f"Which day do you mean by {words!r}?"
    if weekday and _weekday(weekday) != found.weekday():
        said, real = (
            WEEKDAYS[_weekday(weekday)].capitalize(),
            WEEKDAYS[found.weekday()].capitalize(),
        )  # "Fri": Friday
        return None, words, f"{_fmt(found)} is a {real}, not a {said}: which day do you mean?"
    return found, words, None


def _safe(year: int, month: int, day: int) -> date | None:
    try:
        return date(year, month, day)
    except ValueError:
        return None


def _day_of_month(day: int, today: date) -> tuple[date | None, str | None]:
    """The coming day numbered ``day`` (today counts), or a question when a month that is still ahead
    has no such day ("the 31st" said in November: the 30th, or 31 December?)."""
    if not 1 <= day <= 31:
        return None, None
    skipped = today
    if day < today.day:  # passed this month: next month's
        skipped = _month_end(today) + timedelta(days=1)
    found = _safe(skipped.year, skipped.month, day)
    if found is not None:
        return found, None
    last = _month_end(skipped)
    year, month = (skipped.year + 1, 1) if skipped.month == 12 else (skipped.year, skipped.month + 1)
    while _safe(year, month, day) is None:
        year, month = (year + 1, 1) if month == 12 else (year, month + 1)
    later = date(year, month, day)
    return (
        None,
        f"{_MONTHS[skipped.month - 1].capitalize()} has no {_ordinal(day)}: do you mean {_fmt(last)} or {_fmt(later)}?",
    )


def _month_end(d: date) -> date:
    return date(d.year + (d.month == 12), d.month % 12 + 1, 1) - timedelta(days=1)


def _ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


_CLOCK = re.compile(
    r"\b(?:at\s+|for\s+|from\s+|by\s+|around\s+|about\s+)?(?:(\d{1,2})[:.](\d{2})\s*([ap])\.?m\.?\b|(\d{1,2})\s*([ap])\.?m\.?\b|"
    r"([01]?\d|2[0-3])[:h](\d{2})\b|(?<=at\s)(\d{1,2})[.](\d{2})\b)",
    re.I,
)
_HALF_PAST = re.compile(rf"\bhalf\s+(?:past\s+)?{_CW}\b", re.I)
# an hour said with the morning, afternoon, evening or night after it: "7 in the evening", "eight o'clock in the morning",
# "6.30 in the morning", "11 at night"; the part says the half of the day
_COUNTED_BEFORE = re.compile(r"(?i)\b(?:past|to|after|half)\s+$")  # "quarter past eight in the morning"
_HOUR_IN_PART = re.compile(
    rf"\b{_CW}(?:[:.](\d{{2}}))?\s+(?:o'?\s?clock\s+)?(?:in\s+the\s+(morning|afternoon|evening)|at\s+(night))\b",
    re.I,
)
_QUARTER = re.compile(rf"\bquarter\s+(past|to|after)\s+{_CW}\b", re.I)
# minutes past or to an hour: "10 past 5", "twenty-five past seven", "ten to six", "20 minutes to 6"
_MINUTE_WORDS = {"five": 5, "ten": 10, "twenty": 20, "twenty-five": 25}
_MINUTES_PAST = re.compile(
    r"\b(\d{1,2}|twenty[- ]five|five|ten|twenty)\s+(?:(minutes?|mins?)\s+)?(past|after|to)\s+"
    rf"{_CW}(?:\s*([ap])\.?m\b\.?)?(?!\s*(?:[:.]\d|o'?clock))",
    re.I,
)
_HOUR_ENDS = re.compile(
    r"\s*(?:$|[,.;!?]|(?:am|pm|a\.m\.|p\.m\.|tomorrow|tonight|today|this|on|in|at|please)\b)", re.I
)
_OCLOCK = re.compile(
    rf"\b(?:at\s+)?{_CW}\s+o'?\s?clock\b|\bat\s+{_CW}\b(?![,.]\d{{3}}\b)"  # "at 2,200 calories": a number
    r"(?!\s*(?:people|of|guests|kids|tickets|nights|days|am|pm|[ap]\.m))",
    re.I,
)


def _read_time(text: str) -> tuple[int | None, int, str | None, str]:
    """(hour, minute, 'am'|'pm'|None when unsaid, the words) of the first clock time in the text."""
    past = _minutes_past(text)
    if past is not None:
        return past
    m = _CLOCK.search(text)
    if m:
        if m.group(1):
            return int(m.group(1)), int(m.group(2)), m.group(3).lower() + "m", m.group(0)
        if m.group(4):
            return int(m.group(4)), 0, m.group(5).lower() + "m", m.group(0)
        if m.group(6):
            hour = int(m.group(6))
            if m.group(6).startswith("0"):  # "08:30", "00:15": the 24-hour clock
                return hour, int(m.group(7)), "am", m.group(0)
            return (
                hour,
                int(m.group(7)),
                ("pm" if hour >= 13 or hour == 0 else None) if hour != 12 else "pm",
                m.group(0),
            )
        return int(m.group(8)), int(m.group(9)), None, m.group(0)
    m = next((m for m in _HOUR_IN_PART.finditer(text) if not _COUNTED_BEFORE.search(text[: m.start()])), None)
    if m:
        hour = _clock_n(m.group(1))
        if 1 <= hour <= 12:
            part = (m.group(3) or m.group(4)).lower()
            # "11 at night" is in the evening, "2 at night" after midnight
            half = "am" if part == "morning" or (part == "night" and (hour < 5 or hour == 12)) else "pm"
            return hour, int(m.group(2) or 0), half, m.group(0)
    m = _QUARTER.search(text)
    if m:
        hour = _clock_n(m.group(2))
        return (
            (hour, 15, None, m.group(0))
            if m.group(1).lower() != "to"
            else ((hour - 1) % 12 or 12, 45, None, m.group(0))
        )
    m = _HALF_PAST.search(text)
    if m:  # British "half seven" is 7:30
        return _clock_n(m.group(1)), 30, None, m.group(0)
    m = _OCLOCK.search(text)
    if m:
        word = m.group(1) or m.group(2)
        hour = _clock_n(word)
        if 1 <= hour <= 12 or (word.isdigit() and 13 <= hour <= 23):
            return hour, 0, "pm" if hour >= 13 else None, m.group(0)
    return None, 0, None, ""


def clock_of(words: str) -> tuple[int, int, str | None] | None:
    """(hour, minute, 'am'|'pm'|None when unsaid) of the clock time the words say, or None."""
    hour, minute, half, _ = _read_time(words)
    if hour is not None and half is None and hour <= 12 and _PART_OR_PARTS.search(words):
        half = half_of_day(words, hour)  # "half nine in the morning"
    return None if hour is None else (hour, minute, half)


def _minutes_past(text: str) -> tuple[int, int, str | None, str] | None:
    """ "10 past 5", "twenty to six", "5 past 10am": (hour, minute, half of the day if said, words)."""
    for m in _MINUTES_PAST.finditer(text):
        said = m.group(1).lower().replace(" ", "-")
        minutes = int(said) if said.isdigit() else _MINUTE_WORDS[said]
        hour = _clock_n(m.group(4))
        half = (m.group(5).lower() + "m") if m.group(5) else None
        if not (1 <= minutes <= 30 and 1 <= hour <= 12):
            continue
        if m.group(3).lower() == "to":
            # "ten to six" in words, or "20 minutes to 6"; "3 to 5" in digits is a stretch of hours,
            # and "five to seven people" a range of a count
            if not (m.group(2) or (not said.isdigit() and _HOUR_ENDS.match(text, m.end()))):
                continue
            hour, minutes = (hour - 2) % 12 + 1, 60 - minutes
            if half and hour == 11 and m.group(4) in ("12", "twelve"):
                half = "am" if half == "pm" else "pm"  # "ten to 12pm" is 11:50 in the morning
        return hour, minutes, half, m.group(0)
    return None


def _clock_n(word: str) -> int:
    return int(word) if word.isdigit() else _CLOCK_WORDS[word.lower()]


# A stretch of hours: "9 till 11am", "between 4 and 4:30pm", "15:00-15:45", "9 to 11 tomorrow morning".
CLOCK_RANGE = re.compile(
    r"(?i)\b(?:(?P<lead>from|between)\s+)?(?P<h1>\d{1,2}(?:[:.]\d{2})?)\s*(?P<a1>am|pm)?\s*"
    r"(?P<join>-|–|to|till|til|until|and)\s*(?:(?P<h2>\d{1,2}(?:[:.]\d{2})?)\s*(?P<a2>am|pm)?|(?P<noon>noon|midday|midnight))"
    r"(?![\w:.]*\d)\b"
)


def _said_stretch(text: str) -> tuple[str, str] | None:
    """(its first end, its words) of the first stretch of hours whose half of the day its own words say."""
    for m in CLOCK_RANGE.finditer(text):
        ends = clock_range(m, text, from_context=False)
        if ends is not None:
            return ends[0], m.group(0)
    return None


def _clock(hour: int, minute: str, half: str) -> str:
    return f"{hour}{':' + minute if minute else ''}{half}"


def clock_range(m: re.Match[str], text: str, *, from_context: bool = True) -> tuple[str, str] | None:
    """The two ends of a ``CLOCK_RANGE`` match as clock words read alone ("9am", "11am"), or None when
    the words are no stretch of hours. An end said without its half of the day takes the other end's;
    when neither says it, the rest of the words may ("tomorrow morning"), unless ``from_context`` is
    False; "3 to 5" with nothing that says which half is left to the question a bare hour gets."""
    if m.group("join").lower() == "and" and not m.group("lead"):
        return None
    (h1, _, m1), a1 = m.group("h1").replace(".", ":").partition(":"), (m.group("a1") or "").lower()
    if m.group("noon"):  # "7 till midnight" ends at 12 in the night, "9 till noon" at 12 in the day
        h2, m2, a2 = "12", "", "am" if m.group("noon").lower() == "midnight" else "pm"
    else:
        (h2, _, m2), a2 = m.group("h2").replace(".", ":").partition(":"), (m.group("a2") or "").lower()
    n1, n2 = int(h1), int(h2)
    if n1 > 23 or n2 > 23:
        return None
    if not a1 and not a2 and (n1 > 12 or n2 > 12 or h1.startswith("0") or h2.startswith("0")):
        if not (m1 and m2):  # the 24-hour clock writes its minutes: "15:00-15:45"
            return None
        a1, a2 = ("pm" if n1 >= 12 else "am"), ("pm" if n2 >= 12 else "am")
        n1, n2 = (n1 - 12 if n1 > 12 else n1 or 12), (n2 - 12 if n2 > 12 else n2 or 12)
    if not a2:
        if not a1 and not from_context:
            return None
        rest = text[: m.start()] + " " + text[m.end() :]  # "9 to 11 tomorrow morning": the morning says am
        a2 = a1 or half_of_day(rest, n2)
        if not a1 and a2 == "am" and n2 == 12 and n1 < 12:
            a2 = "pm"  # "10 till 12 ... the morning": a morning stretch ends at midday, not midnight
        if not a2 or (a1 and n1 > n2 and n2 != 12):
            return None
    if not a1:
        a1 = a2 if (n1 % 12, int(m1 or 0)) < (n2 % 12, int(m2 or 0)) else ("am" if a2 == "pm" else "pm")
    return _clock(n1, m1, a1), _clock(n2, m2, a2)


# A span of hours or minutes from now ("in two hours", "in 45 minutes"): dateparser reads it.
_IN_HOURS = re.compile(
    r"\b(?:in|within)\s+(\d{1,3}|an?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|"
    r"fifteen|twenty|thirty|forty|forty-five|ninety|half\s+an)\s+(hours?|minutes?|mins?)\b",
    re.I,
)


def _from_now(text: str, now: datetime) -> When | None:
    """The moment "in two hours" names, read by dateparser from ``now`` (imported only then: loading it
    costs a first request about 0.12 s, and most messages name no such span)."""
    m = _IN_HOURS.search(text)
    if m is None or (m.group(1).lower().startswith("half") and not m.group(2).lower().startswith("hour")):
        return None
    import dateparser

    phrase = "in 30 minutes" if m.group(1).lower().startswith("half") else m.group(0)
    base = now.replace(tzinfo=None)
    try:
        moment = dateparser.parse(phrase, settings={"RELATIVE_BASE": base}, languages=["en"])
    except (ValueError, OverflowError):
        moment = None
    if moment is None or moment <= base:
        return When(question=f"When do you mean by {m.group(0)!r}?", day_words=m.group(0), asks="day")
    clock = f"{moment.hour:02d}:{moment.minute:02d}"
    return When(moment.date(), clock, _part_of(moment.hour), m.group(0), m.group(0))


@lru_cache(maxsize=2048)
def _read(text: str, now_iso: str) -> When:
    now = datetime.fromisoformat(now_iso)
    soon = _from_now(text, now)
    if soon is not None:
        return soon
    day, day_words, question = _read_day(text, now)
    if day is not None and question is None:
        question = _either_day(text, day, day_words, now)
        if question is not None:
            day = None
    # "chipped a tooth last night": a part of a day gone by is no time for the request
    part_m = next((m for m in _PART.finditer(text) if not _GONE_BY.search(text[: m.start()])), None)
    part = _PART_WORDS[part_m.group(1).lower().replace("lunch time", "lunchtime")][0] if part_m else None
    if part_m and part_m.group(1).lower() in ("tonight",) and day is None and question is None:
        day, day_words = now.date(), part_m.group(0)
    hour, minute, half, time_words = _read_time(text)
    stretch = _said_stretch(text)
    if stretch is not None:  # "8:30 to 9am": the stretch starts at 8:30 in the morning
        hour, minute, half, _ = _read_time(stretch[0])
        time_words = stretch[1]
    clock, asks = None, ""
    if hour is not None:
        if half is None and hour <= 12:
            half = half_of_day(text, hour) or _soon_this_morning(day, hour, minute, now)
            if _HALF_OF_DAY.get(part or "") and part_m is not None:  # "tomorrow night at half seven"
                time_words = _together(text, part_m.group(0), time_words)
            if half is None and question is None and hour != 0:
                question, asks = f"{hour}:{minute:02d} in the morning or in the evening?", "time"
        if half is not None or hour > 12 or hour == 0:
            h24 = hour % 12 + (12 if half == "pm" else 0) if hour <= 12 else hour
            clock = f"{h24:02d}:{minute:02d}"
            if part is None:
                part = _part_of(h24)
    elif part_m:
        time_words = part_m.group(0)
        word = part_m.group(1).lower()
        if word in ("noon", "midday", "midnight"):
            clock = "00:00" if word == "midnight" else "12:00"
    day_from_clock = False
    if clock is not None and question is None:
        if day is None and not day_words:  # a time and no day: its next occurrence
            day, day_words, day_from_clock = _next(clock, now), time_words, True
        question = _passed(day, clock, now)
    return When(
        day, clock, part, day_words, time_words, question, (asks or "day") if question else "", day_from_clock
    )


_GONE_BY = re.compile(r"(?i)\b(?:last|yesterday|the\s+other)\s*$")
_FALLBACK = re.compile(r"(?i)\s*,?\s*(?:if\b|failing\b|otherwise\b|as a (?:backup|fallback)\b)")
_OR_NEXT = re.compile(r"(?i)\s*,?\s*(?:or|either)\s+(?:else\s+)?(?:on\s+)?")


def _either_day(text: str, day: date, words: str, now: datetime) -> str | None:
    """ "the 10th or the 11th, whichever", "Friday or Saturday": two days, either of which will do, is a
    question of which one, never the first one taken."""
    at = text.lower().find(words.lower()) if words else -1
    if at < 0 or _NEGATED_BEFORE.search(_clause_before(text, at)):
        return None  # "won't be in today or tomorrow": neither day, so both are meant
    rest = text[at + len(words) :]
    m = _OR_NEXT.match(rest)
    if m is None:
        return None
    said = rest[m.end() :]
    other = re.sub(r"^(\d{1,2}(?:st|nd|rd|th))\b", r"the \1", said)  # "the 10th or 11th"
    second, second_words, unsure = _read_day(other, now)
    if (second is None and unsure is None) or second == day or not second_words:
        return None
    if not other.lower().startswith(second_words.lower()[:3]):
        return None
    second_said = said[: len(second_words) - (len(other) - len(said))].strip()
    if _FALLBACK.match(said[len(second_said) :]):
        return None  # "St Patrick's Day, or the 20th if that's gone": the first, and a fallback
    first_said = re.sub(r"(?i)^on\s+", "", words.strip())
    return f"Which day: {first_said} or {second_said}?"


def _next(clock: str, now: datetime) -> date:
    """The day of the next ``clock`` (HH:MM) after ``now``: today, or tomorrow when it has passed."""
    at = datetime.combine(now.date(), datetime.strptime(clock, "%H:%M").time(), now.tzinfo)
    return now.date() if at > now else now.date() + timedelta(days=1)


def _passed(day: date | None, clock: str, now: datetime) -> str | None:
    """The question when ``clock`` on ``day`` is already past."""
    if day != now.date() or _next(clock, now) == day:
        return None
    return f"{int(clock[:2])}:{clock[3:]} today has already passed: which day do you mean?"


def read_answer_when(answer: str, task: str, now: datetime) -> When:
    """The day and time a reply to the request's question gives, with what the request itself settled:
    "1 May" to "5 January or 1 May?", "the morning" to "11:15 in the morning or in the evening?",
    "8am" to "What time on Friday ...?". A reply that settles nothing keeps the request's question."""
    said = read_when(task, now)
    got = read_when(answer, now)
    if said.asks == "time" and got.time is None:  # "in the morning", "pm": the half of the request's time
        got = read_when(f"{said.time_words} {answer}", now)
    if got.question is not None:
        return got
    day = got.day if got.day is not None and not got.day_from_clock else said.day or got.day
    if day is None or (said.asks == "day" and (got.day is None or got.day_from_clock)):
        return When(question=said.question or got.question, asks="day")
    clock = got.time or said.time
    part = got.part or said.part
    question = _passed(day, clock or default_time(part) or "23:59", now)
    day_words = got.day_words if got.day is not None and not got.day_from_clock else said.day_words
    return When(day, clock, part, day_words, got.time_words or said.time_words, question)


def _together(text: str, first: str, second: str) -> str:
    """The text's words from one phrase to the other when they stand close ("night at half seven")."""
    low = text.lower()
    a, b = low.find(first.lower()), low.find(second.lower())
    if a < 0 or b < 0:
        return second
    start, end = min(a, b), max(a + len(first), b + len(second))
    return text[start:end] if end - start <= len(first) + len(second) + 12 else second


_TILL_NOON = re.compile(r"(?i)\b(?:till|til|until|to|-)\s+(noon|midday|midnight)\b")


def half_of_day(text: str, hour: int) -> str | None:
    """'am' or 'pm' for a clock hour said without one, from the rest of the words: a period of the day
    ("tomorrow morning"), a meal ("dinner"), noon, or an hour from 1 to 4 (nobody books 3 in the morning
    without saying so); None when nothing settles it."""
    till = _TILL_NOON.search(text)
    if till is not None and hour < 12:  # "from half nine till noon": the hours before noon; "till
        return "am" if till.group(1).lower() in ("noon", "midday") else "pm"  # midnight": before midnight
    part_m = _PART_OR_PARTS.search(text)
    half = (
        _HALF_OF_DAY.get(_PART_WORDS[part_m.group(1).lower().replace("lunch time", "lunchtime")][0])
        if part_m
        else None
    )
    if half is None:
        meal = _MEAL_HALF.search(text)
        half = ("am" if meal.group(1) else "pm") if meal else None
    if half is None and hour == 12:
        half = "pm"
    if half is None and 1 <= hour <= 4:
        half = "pm"
    return half


def _soon_this_morning(day: date | None, hour: int, minute: int, now: datetime) -> str | None:
    """'am' for a clock time said with no half and no other day, when that time this morning is still to
    come within three hours ("for 10:30" at ten, "ready for quarter past eleven"): the evening's is half a
    day further on, and nobody means it unsaid."""
    if day not in (None, now.date()) or not 5 <= hour <= 11:
        return None
    ahead = now.replace(hour=hour, minute=minute, second=0, microsecond=0) - now
    return "am" if timedelta(0) < ahead <= timedelta(hours=3) else None


def _part_of(hour: int) -> str:
    return (
        "early_morning" if 5 <= hour < 8 else "morning" if hour < 12 else "lunchtime" if hour < 14
        else "afternoon" if hour < 17 else "evening" if hour < 21 else "night"
    )  # fmt: skip


def read_when(text: str, now: datetime) -> When:
    """The day, clock time and part of day ``text`` names, relative to ``now``; a question when unsure."""
    from ibachat.agent.reading.corrections import corrected
    from ibachat.agent.reading.spellings import spelled_out, texting_words

    original = text[:2000]
    text = _HOUSE_NUMBER.sub(lambda m: "#" * len(m.group(0)), _without_titles(corrected(original)))
    text = _unframed_word_days(text)
    said = texting_words(text)  # "tmrw": read as "tomorrow", quoted as the user wrote it
    text = spelled_out(text)
    said |= {_in_minutes(m): m.group(0) for m in _HOURS_AND.finditer(text)}
    when = _read(_HOURS_AND.sub(_in_minutes, _past_days_masked(text, now, original)), now.isoformat())
    for minutes, words in said.items():  # the request's own words for it ("in an hour and a half")
        when = dataclasses.replace(
            when,
            time_words=re.sub(rf"\b{re.escape(minutes)}\b", words, when.time_words, flags=re.I),
            day_words=re.sub(rf"\b{re.escape(minutes)}\b", words, when.day_words, flags=re.I),
        )
    return when


# Verbs of wanting and planning: said in the past tense, they still ask for the day they name ("I was hoping
# for Friday", "we wanted it on the 9th"); a closed class.
_WISHING = frozenset("want hope wonder mean plan intend like need think prefer".split())


def _past_days_masked(text: str, now: datetime, said: str | None = None) -> str:
    """``text`` with the days of events gone by masked, where another day is said for the request: "missed
    an Argos delivery this morning ... rearrange it for tomorrow", "booked on the 2nd and it never came:
    rearrange it for the 16th". A day said only of a past event stays (what it means is for the reader)."""
    masked = text
    for _ in range(3):
        words = _read_day(masked, now)[1]
        at = masked.find(words) if words else -1
        if at < 0 or not _in_past_clause(text, at, at + len(words)):
            return masked
        if said is not None and not all(
            _in_past_clause(said, m.start(), m.end()) for m in re.finditer(re.escape(words), said)
        ):
            return masked  # as the user wrote it, before a correction was read in, the day is the request's
        candidate = masked[:at] + "#" * len(words) + masked[at + len(words) :]
        if not _read_day(candidate, now)[1]:
            return masked
        masked = candidate
    return masked


def _in_past_clause(text: str, start: int, end: int) -> bool:
    """Whether the words at ``start:end`` belong to a clause whose verb is in the past tense ("missed",
    "didn't turn up", "was cancelled"), by the dependency parse."""
    from ibachat.agent.reading.parse import parse

    doc = parse(text)
    span = doc.char_span(start, end, alignment_mode="expand")
    if span is None:
        return False
    verb = span.root
    while verb.pos_ not in ("VERB", "AUX") and verb.head.i != verb.i:
        verb = verb.head
    # "tried to deliver this afternoon", "had it booked on the 2nd": the verb above says when
    while verb.head.i != verb.i and verb.lemma_.lower() not in _WISHING:
        bare_participle = verb.tag_ == "VBN" and not any(c.dep_.startswith("aux") for c in verb.children)
        if verb.dep_ not in ("xcomp", "oprd") and not (bare_participle and verb.head.pos_ in ("VERB", "AUX")):
            break
        verb = verb.head
    if verb.pos_ not in ("VERB", "AUX") or verb.lemma_.lower() in _WISHING:
        return False
    between = doc[min(verb.i, span.start) : max(verb.i + 1, span.end)].text
    if re.search(r"[,;:—–.!?]|\s-\s", between):
        return False  # a break between them: the day is not that verb's (a mis-parse reaches across it)
    past_aux = any(c.dep_ in ("aux", "auxpass") and "Past" in c.morph.get("Tense") for c in verb.children)
    return verb.tag_ == "VBD" or past_aux


# A short weekday that is also an English word ("sat", "sun", "wed"; lemminflect's dictionary says which) is a
# day only where a day is said: after "on", "this", "next", "by", "every", "till", "until", "from", "for",
# "each", "last", "before", "after" or a list's comma or "and"/"or", or before a part of day, a clock time,
# a date or the end of a phrase ("book a table sat at 8", "see you weds"). Elsewhere it is the word: "we sat
# outside on Friday", "the sun sets early", "Anna weds on Saturday".
_WORD_DAY_BEFORE = r"(?:on|this|next|by|every|till|until|from|for|each|last|before|after|and|or|thru|through)"
_WORD_DAY_AFTER = (
    r"(?:\s*(?:$|[,.;!?)/&+–—-])|\s+(?:morning|afternoon|evening|night|nite|lunch(?:time)?|arvo|am|pm|at\b|@|\d|"
    r"the\s+\d|and\b|or\b|(?:or|to|-|–)\s))"
)


@lru_cache(maxsize=1)
def _word_days() -> tuple[str, ...]:
    from lemminflect import getAllLemmas

    forms = [f for day in WEEKDAYS for f in {day[:3], day[:4], day[:5]} if f != day]
    return tuple(sorted({f for f in [*forms, "weds", "thurs", "tues"] if getAllLemmas(f)}))


def _unframed_word_days(text: str) -> str:
    if not _word_days():
        return text
    pattern = rf"(?i)\b({'|'.join(_word_days())})\b"

    def keep(m: re.Match[str]) -> str:
        before = text[: m.start()].rstrip()
        framed_before = (
            not before or before[-1] in ",;:(–—-" or re.search(rf"(?i)\b{_WORD_DAY_BEFORE}$", before)
        )
        framed_after = re.match(_WORD_DAY_AFTER, text[m.end() :], re.I)
        return m.group(0) if framed_before or framed_after else "#" * len(m.group(0))

    return re.sub(pattern, keep, text)


# "an hour and a half", "two hours and a quarter", "half an hour": in minutes, so that "in an hour and a half"
# is 90 minutes from now, not an hour.
_HOUR_WORDS = {"an": 1, "a": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6}
_HOURS_AND = re.compile(
    r"(?i)\b(?:(an?|one|two|three|four|five|six|\d{1,2})\s+hours?\s+and\s+a\s+(half|quarter)|half\s+an\s+hour)\b"
)


def _in_minutes(m: re.Match[str]) -> str:
    if m.group(1) is None:
        return "30 minutes"
    n = int(m.group(1)) if m.group(1).isdigit() else _HOUR_WORDS[m.group(1).lower()]
    return f"{n * 60 + (30 if m.group(2).lower() == 'half' else 15)} minutes"


# A number before a capitalised word that is no month or weekday is part of a name ("at 22 Cowley Road",
# "Flat 3, 41 Hanover Square"): never a day or a clock time.
# A title said mid-sentence, starting with a capitalised article and going on in capitalised words, joined by
# "of", "the", "and", "a": "The Thursday Murder Club", "A Night", "The Day of the Jackal". A weekday or a
# time of day inside it names the work, not a time ("at" or "on" ends it: "... at the Odeon on Friday").
_TITLE_RUN = re.compile(
    r"(?<=[a-z0-9,;:] )(?:The|A|An)\s+[A-Z][\w'’-]*(?:\s+(?:(?:of|the|and|a|an)\s+)*[A-Z][\w'’-]*)*"
)


def title_runs(text: str) -> list[tuple[int, int]]:
    """Where ``text`` names a work by its title (see ``_TITLE_RUN``): their character ranges."""
    return [(m.start(), m.end()) for m in _TITLE_RUN.finditer(text) if len(m.group(0).split()) >= 2]


def _without_titles(text: str) -> str:
    for a, b in title_runs(text):
        text = text[:a] + "#" * (b - a) + text[b:]
    return text


_HOUSE_NUMBER = re.compile(
    r"(?<![\w:./-])\d{1,4}[a-zA-Z]?(?=\s+(?!(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec|Mon|Tue|Wed|Thu|Fri|Sat|Sun|"
    r"AM|PM|A\.M|P\.M)[a-z.]*\b)[A-Z][a-z])"
)


def default_time(part: str | None) -> str | None:
    """A clock time for a period of the day said alone ("tomorrow evening": 19:00)."""
    for label, clock in _PART_WORDS.values():
        if label == part:
            return clock
    return None


_CLOCK_LABEL = re.compile(r"\s*((?:[01]?\d|2[0-3]):[0-5]\d)\s*")


def part_of_clock(label: str) -> str | None:
    """The stretch of the day a clock label falls in ("06:30": early_morning, "12:15": lunchtime), or None
    for a label that is no clock: what an offered start time means to someone who said "my lunch hour"."""
    m = _CLOCK_LABEL.fullmatch(label)
    if m is None:
        return None
    return read_when(f"at {m.group(1)}", datetime(2026, 1, 5, tzinfo=timezone.utc)).part
