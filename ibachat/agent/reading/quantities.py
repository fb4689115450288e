"""Numbers with units and comparators, in the user's words: "after 11 only", "half an hour", "under 150".

``quantities(text)`` finds each amount with what it measures (a unit class) and how it bounds a
value: ``>=`` ("after 11", "at least 3"), ``<=`` ("under 150", "no later than 6pm", "within 20
minutes") or ``=`` (a bare "a 30 minute call"). Unit classes: ``minutes`` (durations, in minutes),
``hour`` (a time of day, 0-24), ``money``, ``count`` (people, items, nights...), ``percent``,
``distance`` (km). Words for numbers ("half an hour", "a couple of", "twenty") are read too.
Which parameter an amount fills is decided elsewhere, from the parameter's own name, description
and bounds (``alignment/quantity_plan.py``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_WORDS = {
    "a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
    "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "fifteen": 15, "twenty": 20,
    "thirty": 30, "forty": 40, "forty-five": 45, "fifty": 50, "sixty": 60, "ninety": 90,
    "a couple of": 2, "couple of": 2, "a few": 3, "a dozen": 12, "half a dozen": 6, "noon": 12, "midday": 12,
}  # fmt: skip
_NUM = r"(?:\d+(?:[.,]\d+)?|" + "|".join(sorted((re.escape(w) for w in _WORDS), key=len, reverse=True)) + r")"
_DURATION = re.compile(
    rf"(?<![\w'])(?:(?P<n>three quarters of an?|{_NUM}\s+and\s+a\s+half|{_NUM}|half an?|half|a quarter of an?|quarter of an?)[\s-]*"
    r"(?:(?:good|solid|full|whole|clear|bare)\s+)?(?P<u>minutes?|mins?|hours?|hrs?|days?|weeks?|fortnights?)\b|(?P<d>\d+(?:[.,]\d+)?)\s?(?P<hu>h|hr|min)\b)"
    r"(?:\s+and\s+(?:a\s+half|a\s+quarter|three\s+quarters))?"
)
_HOURS = {
    w: i + 1 for i, w in enumerate("one two three four five six seven eight nine ten eleven twelve".split())
}
# "quarter to nine", "ten past 6", "half past eight": a clock said in words
_CLOCK_WORDS = re.compile(
    r"\b(?P<m>quarter|half|five|ten|twenty|twenty-five|\d{1,2})\s+(?:minutes\s+)?(?P<rel>past|to)\s+"
    rf"(?P<h>\d{{1,2}}|{'|'.join(_HOURS)})\b"
)
_MINUTE_WORDS = {"quarter": 15, "half": 30, "five": 5, "ten": 10, "twenty": 20, "twenty-five": 25}
_CLOCK = re.compile(r"(?P<n>\d{1,2})(?::(?P<m>\d{2}))?\s*(?P<ap>am|pm|a\.m\.|p\.m\.|o'clock)?")
_MONEY = re.compile(
    r"(?P<cur>[$€£¥])\s?(?P<n>\d+(?:[.,]\d+)?)|"
    rf"\b(?P<n2>\d+(?:[.,]\d+)?|{_NUM})\s?(?P<cur2>dollars|bucks|euros?|pounds|quid|usd|eur|gbp)\b"
)
_COUNT = re.compile(
    rf"(?P<n>{_NUM})\s+(?P<u>people|persons|guests|adults|kids|children|passengers|travellers|travelers|seats|tickets|"
    r"nights|rooms|bags|items|pieces|portions|servings|stars?|stops|layovers|reps|sets|pages|slides|words|lines|bullets?|points)"
)
_PERCENT = re.compile(r"(?P<n>\d+(?:[.,]\d+)?)\s?(?:%|percent|per cent)")
_DISTANCE = re.compile(
    r"(?P<n>\d+(?:[.,]\d+)?)\s?(?P<u>km|kilometres|kilometers|miles?|mi|metres|meters|m)\b"
)
_LOWER = re.compile(
    r"(?:after|from|no earlier than|not before|at least|min(?:imum)?|more than|over|above|starting(?: at)?|"
    r"later than|longer than|bigger than|larger than|heavier than|further than|farther than|older than|upwards of|"
    r"or more|\+)\s*$"
)
_UPPER = re.compile(
    r"(?:before|by|until|till|no later than|not after|under|below|less than|at most|no more than|up to|max(?:imum)?|"
    r"within|tops|cheaper than|earlier than|shorter than|smaller than|lighter than|closer than|nearer than|"
    r"newer than|younger than|fresher than|"
    r"or less|or under|or fewer|fewer than|not over|not more than)\s*$"
)
_PAST = re.compile(r"\b(?:past|beyond)\s*$")
_AFTER_LOWER = re.compile(r"^\s*(?:or (?:more|later|above|over)|\+|and up|minimum|at least|plus)\b")
_AFTER_UPPER = re.compile(
    r"^\s*(?:or (?:less|earlier|under|fewer|below|cheaper)|max(?:imum)?|tops|at most|or so|"
    r"(?:(?:a|per|each|an?) \w+ )?(?:is|'s|as) (?:my|our|the) (?:ceiling|limit|max(?:imum)?|cap|upper limit|top))\b"
)
_TIME_CONTEXT = re.compile(
    r"\b(?:after|before|from|until|till|by|at|no earlier than|no later than|starting|start|begin|morning|mornings|"
    r"afternoon|evening|night|o'clock|am|pm)\b"
)


@dataclass(frozen=True)
class Quantity:
    value: float
    unit: str  # minutes | hour | money | count | percent | distance | number (a bare bound)
    op: str  # ">=" | "<=" | "="
    span: str  # the words, as said
    noun: str = ""  # for counts: what is counted ("people", "nights")
    turned: bool = False  # its bound was turned round by a negation before it ("nothing over 2 hours")


def _number(word: str) -> float | None:
    w = word.strip().lower()
    if w.startswith("three quarters"):
        return 0.75
    if w.startswith("half"):
        return 0.5
    if w.startswith(("a quarter", "quarter")):
        return 0.25
    if w in _WORDS:
        return float(_WORDS[w])
    try:
        return float(w.replace(",", "."))
    except ValueError:
        return None


_NEGATED = re.compile(
    r"\b(?:won't|wont|don't|dont|not|never|no|nothing|none|nowhere|can't|cannot|wouldn't|shouldn't)\b(?:\s+\w+){0,2}\s*$"
    # "i'm not getting on anything that leaves before 9": the negation reaches into what "anything" says
    r"|\b(?:won't|wont|don't|dont|not|never|can't|cannot|wouldn't)\b[^.,;!?]{0,30}\b(?:anything|any)\b[^.,;!?]{0,30}$"
)


_ROUGHLY = re.compile(r"\s(?:about|around|roughly|approximately|approx\.?|like|say|maybe|nearly|almost)\s*$")


def _op(text: str, start: int, end: int, default: str = "=") -> str:
    return _bound(text, start, end, default)[0]


def _bound(text: str, start: int, end: int, default: str = "=") -> tuple[str, bool]:
    """The comparator of the amount at ``start:end``, and whether a negation turned it round."""
    # an approximation between the comparator and the amount says nothing of the bound ("past about an hour")
    before = _ROUGHLY.sub("", text[max(0, start - 34) : start])[-22:]
    after = text[end : end + 32]
    lower, upper = _LOWER.search(before), _UPPER.search(before)
    if lower is None and re.search(r"[a-z£$€]", text[start:end]):  # "run past 90 minutes", "beyond £200";
        lower = _PAST.search(before)  # not a clock's "ten past 9", "half past 6"
    if lower and upper:  # "no later than" holds "later than": the longer phrase says it
        lower, upper = (lower, None) if lower.start() < upper.start() else (None, upper)
    found = lower or upper
    if found is not None:
        op = ">=" if lower else "<="
        lead = text[max(0, start - 22 - 64) : max(0, start - 22) + found.start()]
        if _NEGATED.search(lead) and not re.match(r"(?:no|not)\b", found.group(0)):
            return ("<=" if op == ">=" else ">="), True  # "won't go over 95": at most 95
        return op, False
    if _AFTER_LOWER.match(after):
        return ">=", False
    if _AFTER_UPPER.match(after):
        return "<=", False
    return default, False


def quantities(text: str, raw: str = "") -> list[Quantity]:
    """Every amount in ``text`` (lower-cased or not) with its unit class and comparator. ``raw``: the same
    words as written, when ``text`` is normalised: a number before a capitalised word there is part of a
    name ("7 Mill Lane"), never a time or a bound."""
    t = text.lower()
    named = {m.group(1) for m in re.finditer(r"(?<![\w.:])(\d+)\s+[A-Z][a-z]", raw or text)}
    out: list[Quantity] = []
    taken: list[tuple[int, int]] = []

    def free(a: int, b: int) -> bool:
        return all(b <= s or a >= e for s, e in taken)

    for m in _MONEY.finditer(t):
        n = _number(m.group("n") or m.group("n2"))
        if n is not None and free(m.start(), m.end()):
            out.append(Quantity(n, "money", _op(t, m.start(), m.end()), m.group(0)))
            taken.append(m.span())
    for m in _DURATION.finditer(t):
        said = m.group("n") or m.group("d")
        halves = re.match(r"(.+?)\s+and\s+a\s+half$", said)  # "two and a half hours"
        n = _number(halves.group(1)) if halves else _number(said)
        n = n + 0.5 if halves and n is not None else n
        if n is None or not free(m.start(), m.end()):
            continue
        u = m.group("u") or m.group("hu")
        factor = (
            60
            if u.startswith(("h",))
            else 1440
            if u.startswith("d")
            else 10080
            if u.startswith("w")
            else 20160
            if u.startswith("f")
            else 1
        )
        part = {"and a half": 0.5, "and a quarter": 0.25, "and three quarters": 0.75}
        extra = next((v for k, v in part.items() if m.group(0).endswith(k)), 0.0)
        minutes = (n + extra) * factor  # "an hour and a quarter": 75 minutes
        out.append(Quantity(minutes, "minutes", _op(t, m.start(), m.end()), m.group(0)))
        taken.append(m.span())
    for m in _PERCENT.finditer(t):
        n = _number(m.group("n"))
        if n is not None and free(m.start(), m.end()):
            out.append(Quantity(n, "percent", _op(t, m.start(), m.end()), m.group(0)))
            taken.append(m.span())
    for m in _DISTANCE.finditer(t):
        n = _number(m.group("n"))
        if n is not None and free(m.start(), m.end()):
            u = m.group("u")
            km = n * 1.609 if u.startswith("mi") else n / 1000 if u in ("m", "metres", "meters") else n
            out.append(Quantity(round(km, 3), "distance", _op(t, m.start(), m.end()), m.group(0)))
            taken.append(m.span())
    for m in _COUNT.finditer(t):
        n = _number(m.group("n"))
        if n is not None and free(m.start(), m.end()):
            out.append(Quantity(n, "count", _op(t, m.start(), m.end()), m.group(0), m.group("u")))
            taken.append(m.span())
    for m in _CLOCK_WORDS.finditer(t):
        word, rel = m.group("m"), m.group("rel")
        mins = _MINUTE_WORDS[word] if word in _MINUTE_WORDS else int(word)
        hour = _HOURS.get(m.group("h")) or int(m.group("h"))
        if not free(m.start(), m.end()) or hour > 24 or mins >= 60 or (word == "half" and rel == "to"):
            continue  # ("half to" is no clock)
        value = hour + mins / 60 if rel == "past" else hour - 1 + (60 - mins) / 60
        out.append(Quantity(value, "hour", _op(t, m.start(), m.end()), m.group(0)))
        taken.append(m.span())
    for m in _CLOCK.finditer(t):
        if not free(m.start(), m.end()) or (m.start() > 0 and t[m.start() - 1].isdigit()):
            continue
        hour = int(m.group("n"))
        ap = (m.group("ap") or "").replace(".", "")
        before = t[max(0, m.start() - 24) : m.start()]
        if not ap and not _TIME_CONTEXT.search(before):
            continue
        if not ap and m.group("n") in named:
            continue  # "from 7 Mill Lane": a house number, not seven o'clock
        if hour > 24 or (m.group("m") and int(m.group("m")) >= 60):
            continue
        if ap == "pm" and hour < 12:
            hour += 12
        elif ap == "am" and hour == 12:
            hour = 0
        value = hour + (int(m.group("m")) / 60 if m.group("m") else 0)
        out.append(Quantity(value, "hour", _op(t, m.start(), m.end()), m.group(0).strip()))
        taken.append(m.span())
    for m in re.finditer(r"(?<![\w.:$€£])(\d+(?:\.\d+)?)(?![\w.:%])", t):  # a bare bound: "under 150"
        if not free(m.start(), m.end()):
            continue
        op = _op(t, m.start(), m.end(), default="")
        if op and m.group(1) not in named:  # "from 7 Mill Lane": a house number
            out.append(Quantity(float(m.group(1)), "number", op, m.group(0)))
            taken.append(m.span())
    for word in ("noon", "midday"):
        for m in re.finditer(rf"\b{word}\b", t):
            if free(m.start(), m.end()):
                out.append(Quantity(12.0, "hour", _op(t, m.start(), m.end()), word))
    for k, q in enumerate(out):  # which bounds a negation already turned round (read once, here)
        at = t.find(q.span)
        if at >= 0 and _bound(t, at, at + len(q.span))[1]:
            out[k] = Quantity(q.value, q.unit, q.op, q.span, q.noun, True)
    return out
