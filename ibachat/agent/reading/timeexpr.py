"""Time expressions in what a user said, resolved against the turn's own timestamp.

``state_start`` finds when a state began ("two days ago", "yesterday", "on Friday" said
of the future); ``state_end`` finds when it ends ("for the next two weeks", "until my
cast comes off in March", "this week", "until the 20th"). Both return aware datetimes
in the anchor's time zone, or None when the text says nothing about it.
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta

NUM = {
    "a": 1,
    "an": 1,
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
    "couple of": 2,
    "a couple of": 2,
    "couple": 2,
    "few": 3,
    "a few": 3,
    "several": 4,
}
UNIT_DAYS = {"day": 1.0, "night": 1.0, "week": 7.0, "fortnight": 14.0, "month": 30.0, "year": 365.0}
WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
MONTHS = (
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
)
_MON = r"(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)"
_N = r"(\d+|a couple of|couple of|a few|few|several|an|a|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)"
_UNIT = r"(day|night|week|fortnight|month|year)s?"
_WD = r"(monday|tuesday|wednesday|thursday|friday|saturday|sunday)"

_DURATION = re.compile(
    rf"\b(?:for|over|during)\s+(?:the\s+|another\s+)?(?:next\s+|coming\s+|following\s+)?{_N}\s+(?:more\s+)?{_UNIT}\b"
    rf"|\b(?:the\s+)?next\s+{_N}\s+{_UNIT}\b|\banother\s+{_N}\s+{_UNIT}\b"
    rf"|\b{_N}[\s-]{_UNIT}\s+(?:of|off|break|recovery|course|cleanse|detox|fast|trip|diet|program(?:me)?)\b"
    r"|\b(?:for\s+)?(?:the\s+)?(?:next|coming|following)\s+(day|night|week|fortnight|month|year)\b"
)
_PAST_DURATION = re.compile(
    r"\b(?:been|had|have had|since|over the (?:past|last)|in the (?:past|last)|for years)\b"
)
_UNTIL = re.compile(
    r"\b(?:until|till|til|through|thru|up to|until after|till after|before|back(?: home)?(?: on| by)?|"
    r"return(?:ing)?(?: on| home on)?|comes? off(?: on| in)?|ends?(?: on| in)?|over(?: on| by)?|done(?: on| by)?|due(?: on| in)?|"
    r"finish(?:es|ed)?(?: on| in)?)\s+(?:the\s+|my\s+\w+(?:\s+\w+)?\s+(?:on|in)\s+|on\s+|in\s+)?"
)
_OPEN_TEMP = re.compile(
    r"\b(?:for now|for the time being|temporarily|at the moment|right now|currently|these next few days|"
    r"for a while|for a (?:good|long|little) while|for quite a while|for some time|for a bit|until further notice|"
    r"short[- ]term|for the moment)\b"
)
_FUTURE = re.compile(
    r"\b(?:will|'ll|going to|gonna|getting|having|scheduled|booked|planned|about to|next|upcoming|tomorrow|coming up)\b"
)


def _num(word: str) -> int:
    word = " ".join(word.split())
    return int(word) if word.isdigit() else NUM.get(word, 1)


def _day_end(dt: datetime) -> datetime:
    return dt.replace(hour=0, minute=0, second=0, microsecond=0) + timedelta(days=1)


def _day_start(dt: datetime) -> datetime:
    return dt.replace(hour=0, minute=0, second=0, microsecond=0)


def _month_index(word: str) -> int:
    word = word.lower()[:3]
    return next(i for i, m in enumerate(MONTHS) if m.startswith(word)) + 1


def _date_in_month(anchor: datetime, month: int, day: int) -> datetime:
    year = anchor.year
    if (month, day) < (anchor.month, anchor.day) and (anchor.month - month) % 12 > 1:
        year += 1
    try:
        return anchor.replace(year=year, month=month, day=day, hour=0, minute=0, second=0, microsecond=0)
    except ValueError:
        return anchor.replace(year=year, month=month, day=28, hour=0, minute=0, second=0, microsecond=0)


def _next_weekday(anchor: datetime, name: str, *, future: bool = True) -> datetime:
    target = WEEKDAYS.index(name)
    delta = (target - anchor.weekday()) % 7
    if future:
        return _day_start(anchor) + timedelta(days=delta or 7)
    return _day_start(anchor) - timedelta(days=(anchor.weekday() - target) % 7 or 7)


def _next_month_start(anchor: datetime, months: int = 1) -> datetime:
    month = anchor.month - 1 + months
    return _day_start(anchor).replace(year=anchor.year + month // 12, month=month % 12 + 1, day=1)


def _date_after(text: str, anchor: datetime, *, mid: bool = False) -> datetime | None:
    """The end a date expression at the start of ``text`` names (exclusive); ``mid``: "in March"."""
    t = text.lower()
    m = re.match(r"(\d{4})-(\d{2})-(\d{2})", t)
    if m:
        return _day_end(anchor.replace(year=int(m[1]), month=int(m[2]), day=int(m[3])))
    m = re.match(
        rf"(?:(early|mid|late|the end of|end of)\s+)?{_MON}\b(?:\s+(\d{{1,2}})(?:st|nd|rd|th)?\b)?", t
    )
    if m:
        month = _month_index(m[2])
        if m[3]:
            return _day_end(_date_in_month(anchor, month, int(m[3])))
        if m[1] in ("the end of", "end of"):
            return _next_month_start(_date_in_month(anchor, month, 1))
        return _date_in_month(
            anchor, month, {"early": 8, "mid": 16, "late": 26}.get(m[1] or "", 16 if mid else 1)
        )
    m = re.match(rf"(\d{{1,2}})(?:st|nd|rd|th)?(?:\s+of)?\s+{_MON}\b", t)
    if m:
        return _day_end(_date_in_month(anchor, _month_index(m[2]), int(m[1])))
    m = re.match(r"(\d{1,2})(?:st|nd|rd|th)\b", t)
    if m:
        day = int(m[1])
        start = _day_start(anchor)
        try:
            cand = start.replace(day=day)
        except ValueError:
            cand = start
        if cand <= start:
            cand = _next_month_start(start).replace(day=min(day, 28))
        return _day_end(cand)
    m = re.match(rf"(?:next\s+|this\s+)?{_WD}\b", t)
    if m:
        return _day_end(_next_weekday(anchor, m[1]))
    if re.match(r"tomorrow\b", t):
        return _day_end(anchor + timedelta(days=1))
    if re.match(r"tonight\b|today\b", t):
        return _day_end(anchor)
    if re.match(r"(?:the\s+)?end of next week\b", t):
        return _next_weekday(anchor, "monday") + timedelta(days=7)
    if re.match(r"next week\b", t):
        return _next_weekday(anchor, "monday")
    if re.match(r"(?:the\s+)?(?:end of (?:the|this) )?week(?:end)?\b", t):
        return _next_weekday(anchor, "monday")
    if re.match(r"(?:the\s+)?end of next month\b", t):
        return _next_month_start(anchor, 2)
    if re.match(r"next month\b|(?:the\s+)?end of (?:the|this) month\b", t):
        return _next_month_start(anchor, 2 if t.startswith("next") else 1)
    return None


def state_end(text: str, anchor: datetime) -> tuple[datetime | None, str]:
    """When a state said in ``text`` (at ``anchor``) ends, and the words that said so."""
    t = text.lower()
    m = _DURATION.search(t)
    if (
        m
        and not _PAST_DURATION.search(t[max(0, m.start() - 40) : m.start()])
        and " ago" not in t[m.end() : m.end() + 5]
        and not re.search(
            r"\b(?:until|till|til|through|thru|up to|before)\s+(?:the\s+)?(?:end of\s+)?$", t[: m.start()]
        )
    ):
        groups = [g for g in m.groups() if g]
        count, unit = (_num(groups[0]), groups[1]) if len(groups) > 1 else (1, groups[0])
        return anchor + timedelta(days=count * UNIT_DAYS[unit]), m.group(0)
    for m in _UNTIL.finditer(t):
        end = _date_after(t[m.end() :], anchor, mid=m.group(0).rstrip().endswith(" in"))
        if end is not None and end > anchor:
            return end, t[m.start() : m.end() + 16].strip()
    m = re.search(r"\b(?:this|the rest of the|rest of the)\s+(week|weekend|month)\b", t)
    if m:
        if m[1] == "month":
            return _next_month_start(anchor), m.group(0)
        return _next_weekday(anchor, "monday"), m.group(0)
    m = re.search(r"\b(today|tonight)\b", t)
    if m:
        return _day_end(anchor), m.group(0)
    m = re.search(rf"\bin\s+{_MON}\b", t)
    if m and re.search(r"\b(?:off|due|back|over|end|ends|done|finish\w*|until|till)\b", t[: m.start()]):
        month = _month_index(m[1])
        return _date_in_month(anchor, month, 16), m.group(0)
    return None, ""


_A_WHILE = re.compile(
    r"\bfor (?:quite |a good |a long |a little )?(?:a )?(?:good |long )?while\b|\bfor some time\b"
)
OPEN_WEEKS_DAYS = 28  # "for a (good) while": weeks, not a day (four of them: the user can say when it ends)
OPEN_DAYS = 7  # "for now", "at the moment", "for a bit": a week


def open_days(text: str) -> int:
    """How long a state said without an end lasts: four weeks for "a while", else a week."""
    return OPEN_WEEKS_DAYS if _A_WHILE.search(text.lower()) else OPEN_DAYS


def is_open_temporary(text: str) -> bool:
    """Says the state is temporary without saying when it ends ("for now", "right now")."""
    return bool(_OPEN_TEMP.search(text.lower()))


def state_start(text: str, anchor: datetime) -> datetime:
    """When a state said in ``text`` began (or will begin); the anchor when not said."""
    t = _DURATION.sub(" ", text.lower())
    m = re.search(rf"\b{_N}\s+{_UNIT}\s+ago\b", t)
    if m:
        return anchor - timedelta(days=_num(m[1]) * UNIT_DAYS[m[2]])
    if re.search(r"\b(?:yesterday|last night)\b", t):
        return anchor - timedelta(days=1)
    if re.search(r"\bthe other day\b|\bday before yesterday\b", t):
        return anchor - timedelta(days=2 if "before yesterday" in t else 3)
    if re.search(r"\blast week\b|\ba week ago\b", t):
        return anchor - timedelta(days=7)
    if re.search(r"\bover the weekend\b|\bthis past weekend\b|\blast weekend\b", t):
        return _next_weekday(anchor, "saturday", future=False)
    future = bool(_FUTURE.search(t))
    m = re.search(rf"\bin\s+{_N}\s+{_UNIT}\b", t)
    if m and future:
        return anchor + timedelta(days=_num(m[1]) * UNIT_DAYS[m[2]])
    if future and re.search(r"\btomorrow\b", t):
        return _day_start(anchor + timedelta(days=1))
    if future and re.search(r"\bnext week\b", t):
        return _next_weekday(anchor, "monday")
    m = re.search(rf"\bon\s+(?:this\s+|next\s+)?{_WD}\b", t)
    if m:
        return _next_weekday(anchor, m[1], future=future)
    return anchor


# words that say a thing lasts for good (a closed class): "off the table. forever.", "for life"
FOREVER = re.compile(
    r"(?i)\b(?:forever|for ever|for good|for life|permanently|for the rest of my life|lifelong)\b"
)


def lasts_for_good(text: str, sentence: str) -> bool:
    """Whether the sentence, or a few words said right after it, says it lasts for good."""
    if FOREVER.search(sentence):
        return True
    at = text.lower().find(sentence[:40].lower())
    if at < 0:
        return False
    after = text[at + len(sentence) : at + len(sentence) + 30]
    return bool(FOREVER.match(after.lstrip(" .,;:!-–—")))
