"""What a request states, read once from its parse: places, amounts, named spans, things, people.

``read_frame(text)`` reads a request (no schema, no memory) into typed spans, each with its place in the
text, so that whatever fills a parameter from it can quote the user's own words:

- ``places``: the object of each preposition of place ("to the Royal Infirmary", "from work", "out of
  Leeds Bradford", "at Kaffeine") and a verbless journey's ends ("JFK to LAX", "Dublin -> Berlin"),
  the phrase running from the preposition to the next boundary the parse gives (a punctuation mark, a
  preposition, a conjunction, a verb, a pronoun) or the first word of a day or a time ("Rome the day after
  tomorrow" is Rome);
- ``amounts``: numbers with what they count, read from the tokens: the number (digits, or words read by
  ``text2num``; "a"/"an" before a unit; "a couple of", "a dozen", "half", "and a half"), the noun it
  counts with the words that qualify it ("2 checked bags"), its unit (a span of time, money, a
  percentage, a distance) and a rate ("1800 calories a day"), and the comparator before it ("no more
  than", "under", "nothing over"). Numbers inside a day, a clock time or a span from now ("in two
  hours") are no amounts. A count of people is read from its forms ("for 4", "6 of us", "me and my 3
  mates", "party of six");
- ``labelled``: spans a word names: a title ("called Budget review", "titled Wifi"), a subject ("with
  the subject Invoice 42"), what is to be said ("saying the report is late", "tell him it's paid", what
  follows a colon, quoted words), what to be reminded of ("remind me ... to take the bread out"), a
  topic ("about my leave");
- ``things``: the object of the request's verb, split at its coordination ("a pad thai and a green
  curry"), and lists of short noun phrases ("bananas, rice, tinned tomatoes");
- ``negated``: the words a negation governs ("no cutlery", "don't allow substitutions").

The word lists here are closed classes (prepositions of place, units, comparators, number words, the
words of days and times). Which parameter a span fills is decided from the tool's schema
(``alignment/request_values.py``).
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass, field, replace
from datetime import date, datetime, timezone
from functools import lru_cache
from typing import TYPE_CHECKING

from ibachat.agent.reading.when import CLOCK_RANGE, clock_range, read_when

if TYPE_CHECKING:
    from spacy.tokens import Doc, Token


@dataclass(frozen=True)
class Span:
    text: str
    start: int
    end: int


@dataclass(frozen=True)
class Place:
    prep: str  # the preposition as said: to, from, out of, at, in, near, via, -> (a journey's arrow)
    role: str  # destination | origin | at
    span: Span
    name: bool  # holds a proper name (a capital, an entity), not only common nouns ("work", "the station")
    told: bool = False  # in a clause that tells of the past ("we stayed at the Grand"), not the request


@dataclass(frozen=True)
class Amount:
    value: float
    unit: str  # time unit (minute, hour, ...), money, percent, km, mile, a measure (kilogram, liter, ...), count
    noun: str  # the lemma of what it counts ("bag", "calorie", "people", "ticket"), "" when none
    words: tuple[str, ...]  # lemmas of the noun and its qualifiers ("checked", "bag")
    per: str  # a rate's unit ("day" in "1800 calories a day"), "" when none
    op: str  # "=", "<=" or ">="
    span: Span
    # the other end of a range or choice said before it ("6 to 8 guests", "2 or 3 of us": 6, 2), None when
    # one amount is said: either end may be meant, so nothing with one value takes it as said
    other: float | None = None
    # a total of counts said side by side ("2 adults and 3 kids"): the nouns it adds up, () otherwise
    parts: tuple[str, ...] = ()


@dataclass(frozen=True)
class Frame:
    text: str
    when_mask: tuple[tuple[int, int], ...] = ()
    places: tuple[Place, ...] = ()
    amounts: tuple[Amount, ...] = ()
    labelled: dict[str, Span] = field(default_factory=dict)
    things: tuple[tuple[Span, ...], ...] = ()  # object lists: the verb's coordinated objects, then lists
    verb_objects: tuple[Span, ...] = ()  # the request verb's coordinated objects (with their lemmas below)
    owned: tuple[Span, ...] = ()  # things named as owned or measured ("my inhaler", "2 months of X")
    objects_asked: bool = True  # those objects are the first verb's (what is asked for), not a later verb's
    object_heads: tuple[str, ...] = ()  # the lemma of each of those objects' head nouns
    negated: frozenset[str] = frozenset()  # lemmas a negation governs
    refused: tuple[Span, ...] = ()  # the things (nouns) a negation governs, in the request's words and order
    written_to: Span | None = None  # the person a message is for ("Email Marco", "write to Ana")
    emails: tuple[str, ...] = ()
    company: tuple[Span, ...] = ()  # who is to be there ("with Sam")
    phrases: tuple[tuple[str, Span], ...] = ()  # (preposition, its object) for every other preposition
    ranges: tuple[tuple[str, str, Span], ...] = ()  # a stretch of days or hours: (first, last, all its words)
    lemmas: tuple[str, ...] = ()

    def masked(self, start: int, end: int) -> bool:
        return any(a < end and start < b for a, b in self.when_mask)


# ----------------------------------------------------------------------------------- closed classes
_TO = frozenset({"to", "into", "towards", "toward", "->", "→", "=>"})
_FROM = frozenset({"from"})
_AT = frozenset({"at", "in", "near", "via", "outside"})
_STOP_WORDS = frozenset(
    {"please", "pls", "plz", "asap", "thanks", "thx", "ta", "cheers", "if", "possible", "w/", "w/o"}
)  # "w/", "w/o": "with", "without" as texted
_SOME_DAY = datetime(2026, 1, 5, 12, 0, tzinfo=timezone.utc)  # whether a word says a day at all
_NAME_JOINS = frozenset({"of", "upon", "on", "de", "la", "le", "du", "del", "van", "von", "&", "and", "the"})
_TIME_UNITS = {
    "minute": "minute", "min": "minute", "mins": "minute", "minutes": "minute", "hour": "hour", "hr": "hour",
    "hrs": "hour", "hours": "hour", "h": "hour", "day": "day", "days": "day", "night": "night", "nights": "night",
    "week": "week", "weeks": "week", "wk": "week", "wks": "week", "fortnight": "fortnight",
    "fortnights": "fortnight", "month": "month", "months": "month", "year": "year", "years": "year",
}  # fmt: skip
_CURRENCY_SIGNS = {"£": "GBP", "$": "USD", "€": "EUR", "¥": "JPY", "₹": "INR"}
_CURRENCY_WORDS = frozenset(
    "pounds pound quid dollars dollar bucks euros euro usd eur gbp rupees rs inr yen francs chf aud cad".split()
)
_PERCENT_WORDS = frozenset({"%", "percent", "per cent", "pc"})
_DISTANCE = {"km": "km", "kms": "km", "kilometre": "km", "kilometres": "km", "kilometer": "km",
             "kilometers": "km", "mile": "mile", "miles": "mile", "mi": "mile", "metre": "m", "metres": "m",
             "meter": "m", "meters": "m", "m": "m"}  # fmt: skip
_WORD_NUMBERS = {
    "a": 1, "an": 1, "one": 1, "single": 1, "couple": 2, "pair": 2, "dozen": 12, "half": 0.5, "quarter": 0.25,
    "both": 2,
}  # fmt: skip
_UPPER = (
    "under", "below", "less than", "no more than", "not more than", "max", "maximum", "up to", "at most",
    "within", "cheaper than", "nothing over", "nothing above", "not over", "not above", "no higher than",
    "tops", "or less", "or under", "budget", "budget of", "no more than about", "capped at", "limit",
    "nothing that takes over", "nothing that takes more than", "nothing more than", "not exceeding",
)  # fmt: skip
_LOWER = ("over", "above", "more than", "at least", "min", "minimum", "from", "upwards of", "no less than")
_PEOPLE = frozenset(
    "people person persons guests guest adults adult passengers passenger travellers travelers diners "
    "of us".split()
)
_PEOPLE_WORDS = frozenset("people person persons guest guests adult adults passenger passengers traveller "
                          "travellers traveler travelers diner diners friends friend mates mate kids kid children "
                          "child colleagues colleague others".split())  # fmt: skip
_NEGATORS = frozenset(
    {"no", "not", "n't", "never", "without", "minus", "nothing", "none", "nor", "dont", "don't"}
)
# Verbs of leaving a thing out: their object is turned down as "no X" is ("skip the cutlery", "leave out
# the onions"); "leave" only with its particle "out". A closed class.
_LEAVE_OUT = frozenset({"skip", "omit", "exclude", "forgo", "forego"})
# "forget the popcorn" leaves it out only as a command ("I forgot my umbrella" tells what happened)
_LEAVE_OUT_COMMAND = frozenset({"forget"})
_SAY_VERBS = frozenset({"say", "tell", "let", "write", "note", "inform", "mention", "explain", "ask"})
# Verbs whose object is whom a message goes to ("tell the kitchen no coriander"), never a thing asked for.
_ADDRESS_VERBS = frozenset({"tell", "warn", "inform", "notify", "ask", "let"})
_REMIND_VERBS = frozenset({"remind", "ping", "nudge", "alert", "prompt", "text", "message", "call"})
_TITLE_WORDS = ("titled", "entitled", "called", "named", "title", "headed")
_SUBJECT_WORDS = ("subject line", "subject", "re:", "regarding")
_CLAUSE_END = re.compile(r"[.!?;](?:\s|$)|\n")
_SENTENCE_END = re.compile(r"[.!?](?:\s|$)|\n")

# Day and time words: a closed class (weekdays, months, relative days, parts of the day, clock forms).
_WD = r"(?:mon|tue|tues|wed|weds|thu|thur|thurs|fri|sat|sun)(?:day)?s?"
_MON = r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?"
_TIME_PATTERNS = re.compile(
    r"(?i)\b(?:"
    rf"(?:(?:this|next|last|coming|every|each|on|the)\s+)*{_WD}(?:\s+(?:week|morning|afternoon|evening|night|arvo))?"
    rf"(?:\s+(?:the\s+)?\d{{1,2}}(?:st|nd|rd|th)?)?"
    rf"|(?:the\s+)?\d{{1,2}}(?:st|nd|rd|th)?\s+(?:of\s+)?{_MON}(?:\s+\d{{4}})?"
    rf"|{_MON}\s+\d{{1,2}}(?:st|nd|rd|th)?(?:,?\s+\d{{4}})?"
    # a day of the month runs to the 31st ("Gran's 90th" is a birthday)
    r"|(?:the\s+)?(?:3[01]|[12]\d|0?[1-9])(?:st|nd|rd|th)\b(?:\s+of\s+(?:the\s+)?(?:month|next month))?"
    r"|\d{1,4}[/.-]\d{1,2}(?:[/.-]\d{2,4})?"
    r"|\d{1,2}[:.]\d{2}\s*(?:am|pm|a\.m\.|p\.m\.|h)?"
    r"|\d{1,2}\s*(?:am|pm|a\.m\.|p\.m\.|o'?clock)"
    r"|for\s+\d{1,2}[:.]\d{2}"  # "for 7:30"; a bare "for 4" is how many ("a table for 4, quiet please")
    r"|(?:(?<=ready )|(?<=done )|(?<=back )|(?<=there )|(?<=home ))for\s+\d{1,2}"  # "ready for 10": by then
    r"|(?:at|by|from|till|until|til|to|before|after|around|about|-)\s+\d{1,2}(?:[:.]\d{2})?(?![,.]\d{3}\b)(?!\s*(?:%|percent|people|"
    r"guests|persons|of us|nights?|days?|weeks?|hours?|minutes?|mins?|tickets?|seats?|items?|bags?|pounds|quid|dollars|"
    r"euros|calories|meals?|visits?|x\b|-|\w))"
    r"|(?:half|quarter)\s+(?:past|to)\s+\w+|half\s+(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)"
    r"|(?:the\s+)?day\s+after\s+tomorrow|day\s+before\s+yesterday"
    r"|(?:a|one|two|three|\d+)\s+(?:weeks?|days?|fortnight)\s+(?:from|on|after)\s+\w+"
    r"|(?:this|next|last|the)\s+(?:week(?:end)?|month|year|morning|afternoon|evening|night)"
    r"|(?:first|last)\s+thing"
    r"|end\s+of\s+(?:the\s+)?(?:month|week|year|day)|(?:start|beginning)\s+of\s+(?:the\s+)?(?:month|week|year)"
    r"|(?:in|within)\s+(?:an?|one|two|three|four|five|six|ten|fifteen|twenty|thirty|forty|forty-five|\d{1,3}|half\s+an)"
    r"\s+(?:hours?|minutes?|mins?|hrs?)"
    r"|today|tonight|tomorrow|tmrw|tmr|tomoz|2moro|2morrow|yesterday|noon|midday|midnight|weekend|weekdays?|"
    r"mornings?|afternoons?|evenings?|arvo|lunchtime|teatime"
    r")\b",
)
_EMAIL = re.compile(r"\b[\w.+-]+@[\w-]+(?:\.[\w-]+)+\b")
_QUOTED = re.compile(
    r"[\"“‘]((?:[^\"”’]|(?<=\w)’(?=\w)){1,200}?)[\"”’](?!\w)|(?<![\w])'((?:[^']|(?<=\w)'(?=\w)){2,120}?)'(?![\w])"
)


_RANGE_JOIN = re.compile(r"(?i)^\s*(?:to|till|til|until|through|thru|-|–|and)\s*$")
# a stay said by its two ends: "in on Christmas Eve and out on the 28th", "arriving Friday, leaving
# Monday": the word before the first day opens it, the words between close it
_STAY_OPEN = re.compile(r"(?i)\b(?:in|arriv(?:e|es|ing)|get(?:ting)?\s+there|land(?:s|ing)?)\s+(?:on\s+)?$")
_STAY_CLOSE = re.compile(
    r"(?i)^\s*,?\s*(?:and\s+|then\s+|,\s*)?(?:(?:check(?:ing)?|mov(?:e|ing)|head(?:ing)?)\s+)?"
    r"(?:out|leav(?:e|es|ing)|depart(?:s|ing)?|back)\s+(?:on\s+)?$"
)


def _clock_range(m: re.Match[str], text: str, doc: Doc | None) -> tuple[str, str] | None:
    """``when.clock_range`` of the words, unless the last number counts a thing: "2 to 4 people"."""
    if doc is not None and m.group("h2") and not m.group("a2") and _counts_a_thing(doc, m.end("h2")):
        return None
    if not (m.group("a1") or m.group("a2") or m.group("lead") or m.group("noon")):
        # neither end says its half of the day, and nothing before it says hours: "a table for 10-12"
        # counts people, and "10 to 12 ... at 8pm" leaves the time to the clock said with its half
        before = text[: m.start()].split()
        if before and before[-1].lower() == "for":
            return None
        rest = text[: m.start()] + " " + text[m.end() :]
        if re.search(r"(?i)\b\d{1,2}(?:[:.]\d{2})?\s*(?:am|pm|a\.m\.|p\.m\.)", rest):
            return None
    return clock_range(m, text)


def _counts_a_thing(doc: Doc, end: int) -> bool:
    """ "2 to 4 people": the last number counts what follows it, a thing and no time."""
    from ibachat.agent.reading.when import read_when

    tok = next((t for t in doc if t.idx < end <= t.idx + len(t.text)), None)
    if tok is None:
        return False
    if tok.dep_ == "nummod" and tok.head.i > tok.i:
        thing = tok.head
    elif tok.i + 1 < len(doc) and doc[tok.i + 1].pos_ == "NOUN":
        thing = doc[tok.i + 1]  # "between 8 and 9 guests": the 9 a conjunct of the 8 that counts them
    else:
        return False
    return not read_when(thing.text, datetime(2026, 1, 5, 12, 0, tzinfo=timezone.utc)).said


def _ranges(
    text: str, mask: tuple[tuple[int, int], ...], doc: Doc | None = None
) -> tuple[tuple[str, str, Span], ...]:
    """Stretches of time said with both ends: "from the 22nd to the 27th", "Jan 3 to Jan 6", "from Friday
    until Monday", "9 till 11am", "between 4 and 4:30pm", "15:00-15:45", "9 to 11 tomorrow morning" (an end
    said without a half of the day takes the other end's, or the one the rest of the words say)."""
    out: list[tuple[str, str, Span]] = []
    for m in CLOCK_RANGE.finditer(text):
        ends = _clock_range(m, text, doc)
        if ends is not None:
            out.append((*ends, Span(m.group(0), m.start(), m.end())))
    for (a1, b1), (a2, b2) in zip(mask, mask[1:]):
        between = text[b1:a2]
        stay = bool(_STAY_CLOSE.match(between) and _STAY_OPEN.search(text[:a1]))
        if not (_RANGE_JOIN.match(between) or stay):
            continue
        if not stay and between.strip().lower() == "and" and not re.search(r"(?i)\bbetween\s*$", text[:a1]):
            continue
        first = re.sub(r"(?i)^(?:from|between|on)\s+", "", text[a1:b1].strip())
        if any(r[2].start <= a1 < r[2].end for r in out):
            continue
        out.append((first, text[a2:b2].strip(), Span(text[a1:b2], a1, b2)))
    return tuple(out)


_EVERY = re.compile(
    r"(?i)\b(?:every|each)\s+(?:other\s+|second\s+)?"
    r"(?:day|morning|afternoon|evening|night|week|weekday|weekend|month|year)s?\b"
)  # how often, said with "every": a time, never part of a name or what to be reminded of


_PER_UNIT_THEN_DAY = re.compile(r"(?i)(?:a|one)\s+(?:weeks?|days?|fortnight)\s+(?:from|on|after)\s+(\w+)")


def _rate_trimmed(text: str, m: re.Match[str]) -> tuple[int, int]:
    """A time phrase's span; "a day from Friday" after an amount ("40 dollars a day from Friday") is
    what the amount is per, then the day: only the day is a time."""
    from ibachat.agent.reading.when import RATE_BEFORE

    per = _PER_UNIT_THEN_DAY.fullmatch(m.group(0))
    if per and RATE_BEFORE.search(text[: m.start()]):
        return m.start() + per.start(1), m.end()
    return m.start(), m.end()


def _when_mask(text: str, doc: Doc | None = None) -> tuple[tuple[int, int], ...]:
    from ibachat.agent.reading.named_days import named_spans
    from ibachat.agent.reading.when import read_when, title_runs

    titles = title_runs(text)  # "The Thursday Murder Club": no day
    spans = [
        _rate_trimmed(text, m)
        for m in _TIME_PATTERNS.finditer(text)
        if not any(a <= m.start() < b for a, b in titles)
        # "6-8 people": two numbers that count a thing, no day of a month
        if not (
            re.fullmatch(r"\d{1,2}\s*[-–]\s*\d{1,2}", m.group(0)) and doc and _counts_a_thing(doc, m.end())
        )
    ]
    spans += [(m.start(), m.end()) for m in CLOCK_RANGE.finditer(text) if _clock_range(m, text, doc)]
    spans += [(m.start(), m.end()) for m in _EVERY.finditer(text)]  # "take my meds every day at 8am"
    spans += named_spans(text, date(2026, 1, 5))  # "from Good Friday until Easter Sunday": both ends
    when = read_when(text, datetime(2026, 1, 5, 12, 0, tzinfo=timezone.utc))
    low = text.lower()
    for words in (when.day_words, when.time_words):
        if words:
            i = low.find(words.lower())
            if i >= 0:
                spans.append((i, i + len(words)))
    spans.sort()
    merged: list[tuple[int, int]] = []
    for a, b in spans:
        if merged and a <= merged[-1][1] + 1:
            merged[-1] = (merged[-1][0], max(b, merged[-1][1]))
        else:
            merged.append((a, b))
    return tuple(merged)


# ----------------------------------------------------------------------------------- numbers
def _number_of(tokens: list[Token], i: int) -> tuple[float | None, int]:
    """The number that starts at token ``i`` and the index after it: digits ("1,800", "3.5"), number
    words ("twenty-five", "two thousand": ``text2num``), "a couple of", "a dozen", "and a half"."""
    t = tokens[i]
    low = t.lower_
    value: float | None = None
    j = i + 1
    if re.fullmatch(r"\d+(?:,\d{3})*(?:\.\d+)?", t.text):
        value = float(t.text.replace(",", ""))
    elif re.fullmatch(r"\d+(?:\.\d+)?k", low):
        value = float(low[:-1]) * 1000
    else:
        run = []
        k = i
        while k < len(tokens) and _is_number_word(tokens[k]):
            run.append(tokens[k].lower_)
            k += 1
            if (
                k < len(tokens)
                and tokens[k].text == "-"
                and k + 1 < len(tokens)
                and _is_number_word(tokens[k + 1])
            ):
                k += 1
        if run:
            value = _words_to_number(run)
            j = k
        elif low in ("a", "an") and j < len(tokens) and tokens[j].lower_ in ("couple", "dozen", "pair"):
            value = float(_WORD_NUMBERS[tokens[j].lower_])
            j += 1
        elif low in ("a", "an", "one", "once"):
            value = 1.0
        elif low in ("twice", "thrice"):
            value = 2.0 if low == "twice" else 3.0  # "twice a week": a count of times, per a week
        elif low in ("couple", "dozen", "pair", "half", "quarter", "both"):
            value = float(_WORD_NUMBERS[low])
    if value is None:
        return None, i
    if j < len(tokens) and tokens[j].lower_ == "of" and low in ("couple", "a", "pair") and value == 2:
        j += 1  # "a couple of tickets"
    elif j < len(tokens) and tokens[j].lower_ == "dozen":
        value, j = value * 12, j + 1  # "two dozen"
    elif j < len(tokens) and tokens[j].lower_ in _SCALES and re.search(r"\d", t.text):
        value, j = value * _SCALES[tokens[j].lower_], j + 1  # "62 thousand miles", "1.5 million"
    if (
        j + 2 < len(tokens)
        and tokens[j].lower_ == "and"
        and tokens[j + 1].lower_ == "a"
        and tokens[j + 2].lower_ == "half"
    ):
        value, j = value + 0.5, j + 3  # "three and a half hours"
    return value, j


_SCALES = {"hundred": 100, "thousand": 1000, "million": 1_000_000}  # after digits (a closed class)


def _is_number_word(t: Token) -> bool:
    if t.like_num and not re.search(r"\d", t.text):
        return t.lower_ not in ("one",) or True
    return False


def _words_to_number(words: list[str]) -> float | None:
    from text_to_num import text2num

    try:
        return float(text2num(" ".join(words), "en"))
    except ValueError:
        single = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
                  "nine": 9, "ten": 10, "eleven": 11, "twelve": 12}  # fmt: skip
        return float(single[words[0]]) if len(words) == 1 and words[0] in single else None


def _comparator(text: str, start: int) -> str:
    before = re.sub(r"\s+", " ", text[max(0, start - 40) : start].lower()).rstrip(" £$€¥₹")
    for phrase in sorted(_UPPER, key=len, reverse=True):
        if re.search(rf"(?:^|\W){re.escape(phrase)}\s*$", before):
            return "<="
    for phrase in sorted(_LOWER, key=len, reverse=True):
        if re.search(rf"(?:^|\W){re.escape(phrase)}\s*$", before):
            negated = re.search(
                r"\b(?:nothing|no|not|never)\b(?:\s+\w+){0,3}\s*$", before[: -len(phrase)] or ""
            )
            return "<=" if negated else ">="
    return "="


def _measure_word(word: str) -> str | None:
    from ibachat.agent.reading.units import measure_unit

    return measure_unit(word)


def _is_measure(unit: str) -> bool:
    from ibachat.agent.reading.units import MEASURES

    return unit in MEASURES


def _amounts(doc: Doc, text: str, mask: tuple[tuple[int, int], ...]) -> list[Amount]:
    tokens = list(doc)
    out: list[Amount] = []
    i = 0

    def masked(a: int, b: int) -> bool:
        return any(x < b and a < y for x, y in mask)

    while i < len(tokens):
        t = tokens[i]
        sign = None
        if t.text in _CURRENCY_SIGNS and i + 1 < len(tokens):
            sign, i = _CURRENCY_SIGNS[t.text], i + 1
            t = tokens[i]
        if _joined_measure(t) is not None:
            i += 1  # read below, whatever counts it ("four 750ml bottles")
            continue
        value, j = _number_of(tokens, i)
        times = re.fullmatch(r"(\d{1,2})\s*x", t.lower_)  # "4x a week": four times
        if times is not None:
            value, j = float(times.group(1)), i + 1
        if value is None:
            i += 1
            continue
        start = tokens[i - 1].idx if sign else t.idx
        other, j = _range_end(tokens, i, j, value)
        if other is not None:
            value, other = other, value  # "6 to 8 guests": the last number, with the first as its other end
        article = t.lower_ in ("a", "an", "one", "half", "quarter", "couple", "pair", "both") and not sign
        bare_article = t.lower_ in ("a", "an") and value == 1  # "a table" states no count; "a week" does
        # "half an hour", "quarter of an hour"
        if t.lower_ in ("half", "quarter") and j < len(tokens) and tokens[j].lower_ in ("an", "a", "of"):
            while j < len(tokens) and tokens[j].lower_ in ("an", "a", "of"):
                j += 1
        if j < len(tokens) and tokens[j].text == "-":
            j += 1  # "5-day", "45-minute"
        unit, noun, words, k = "count", "", [], j
        nxt = tokens[k].lower_ if k < len(tokens) else ""
        if sign:
            unit = "money"
        elif nxt in _CURRENCY_WORDS:
            unit, k = "money", k + 1
        elif nxt in ("%", "percent", "pc") or (
            nxt == "per" and k + 1 < len(tokens) and tokens[k + 1].lower_ == "cent"
        ):
            unit, k = "percent", k + (2 if nxt == "per" else 1)
        elif nxt in _TIME_UNITS:
            unit, k = _TIME_UNITS[nxt], k + 1
            if (
                k + 2 < len(tokens)
                and tokens[k].lower_ == "and"
                and tokens[k + 1].lower_ in ("a", "an")
                and tokens[k + 2].lower_ in ("half", "quarter")
            ):
                value, k = (
                    value + (0.5 if tokens[k + 2].lower_ == "half" else 0.25),
                    k + 3,
                )  # "an hour and a half"
        elif nxt in _DISTANCE:
            unit, k = _DISTANCE[nxt], k + 1
        elif nxt and nxt[:1].isalpha() and (measure := _measure_word(nxt)) is not None:
            unit, k = measure, k + 1  # "two and a half kilos", "5 lb", "750 ml": a weight, volume or size
        elif nxt == "of" and k + 1 < len(tokens) and tokens[k + 1].lower_ in ("us", "them", "you"):
            unit, noun, words, k = "count", "people", ["people"], k + 2  # "6 of us"
        if (
            unit in ("count", "minute", "hour", "day", "night", "week", "fortnight", "month", "year")
            and not noun
        ):
            noun, words, k = _counted(tokens, k, unit)
            before = tokens[i - 1] if i > 0 and not sign else None
            if (
                unit != "count"
                and not noun
                and before is not None
                and before.pos_ == "NOUN"
                and k < len(tokens)
                and tokens[k].lower_ in ("before", "after", "ahead", "beforehand", "earlier", "prior")
            ):
                words = [
                    before.lemma_.lower()
                ]  # "a reminder 30 mins before": how long before, for the reminder
        if (
            unit == "count"
            and j < len(tokens)
            and text[tokens[j].idx : tokens[j].idx + 1].isupper()
            and tokens[j].pos_ == "PROPN"
        ):
            # "4 Rose Row", "221B Baker Street": a number in a name, no count; the user's own capital, not
            # one the all-lower-case reading gave a word no dictionary here has ("1,500 calories")
            i = max(j, i + 1)
            continue
        if told_past(t, outside=(i, k)):
            i = max(j, i + 1)  # "we sat in row 7 last time", "I paid 90 then": told of, not asked for
            continue
        if article and unit == "count" and (not noun or bare_article):
            i += 1  # "a", "one" alone count nothing ("for a", "one-way")
            continue
        if unit == "count" and not noun and t.lower_ in ("half", "quarter"):
            i += 1
            continue
        end = tokens[k - 1].idx + len(tokens[k - 1].text) if k > i else t.idx + len(t.text)
        if (
            masked(start, t.idx + len(t.text))
            and unit not in ("money", "percent")
            and not _is_measure(unit)  # "2.5 kg": a weight, whatever time "2.5" might be
            and not (
                unit in ("minute", "hour", "day", "week", "fortnight", "night") and not _from_now(text, start)
            )
        ):
            i = max(j, i + 1)
            continue
        per, k2 = _rate(tokens, k)
        if per:
            end = tokens[k2 - 1].idx + len(tokens[k2 - 1].text)
        op = _comparator(text, start)
        if unit == "count" and noun and k > 0 and _people_noun(tokens[k - 1]):  # "me and my 3 mates": four
            people = _people_count(tokens, i, value)
            if people is not None:
                value, noun, words = people, "people", ["people"]
                start = min(start, _people_start(tokens, i))
            elif "people" not in words:
                words = [*words, "people"]  # "12 kids": a count of people too
        if unit == "count" and not noun:
            people = _people_count(tokens, i, value)
            if people is not None:
                value, noun, words = people, "people", ["people"]
                start = min(start, _people_start(tokens, i))
            elif per and (t.lower_ in ("once", "twice", "thrice") or times is not None):
                noun = ""  # "twice a week": times, per a week
            elif per or op != "=":
                unit = "number"  # "under 90 a night", "max 120": a bound with no unit said
            elif t.dep_ in ("dobj", "obj") and t.head.pos_ == "VERB" and t.i == k - 1:
                pass  # "get me two for the gig": the count is the thing asked for, its noun left unsaid
            else:
                i = max(j, i + 1)
                continue
        out.append(Amount(value, unit, noun, tuple(words), per, op, Span(text[start:end], start, end), other))
        i = max(k2 if per else k, i + 1)
    for t in tokens:  # "750ml", "2.5kg": a number and its unit in one token
        joined = _joined_measure(t)
        if joined is not None and not masked(t.idx, t.idx + len(t.text)):
            span = Span(t.text, t.idx, t.idx + len(t.text))
            out.append(Amount(joined[0], joined[1], "", (), "", _comparator(text, t.idx), span))
    out += _company_counts(tokens, text, out)
    return _with_totals(out, text)


def _joined_measure(t: Token) -> tuple[float, str] | None:
    joined = re.fullmatch(r"(\d+(?:\.\d+)?)([a-z]{1,6})", t.lower_)
    measure = _measure_word(joined.group(2)) if joined else None
    return (float(joined.group(1)), measure) if joined and measure else None


# the speaker named first in a list of the party ("me, my 2 brothers and 3 cousins"): one more
_SPEAKER_BEFORE = re.compile(r"(?i)\b(?:me|myself|I)\s*(?:,|and|&|\+|plus)\s*(?:my\s+|our\s+)?$")


def _with_totals(found: list[Amount], text: str) -> list[Amount]:
    """Counts of people said side by side add up: "2 adults and 2 kids" is four people, put before its
    parts so that a count of everyone takes the total and a count of adults still finds its own. Side by
    side with a count of a noun not known for people ("four grandparents plus two toddlers"), a kind of
    person counts only its kind: the whole party is not said in words known here."""
    counts = [a for a in found if a.unit == "count" and not a.per and a.op == "=" and a.noun]
    out = list(found)
    i = 0
    while i < len(counts):
        j = i
        while j + 1 < len(counts) and re.fullmatch(
            r"(?i)\s*(?:,|,?\s*and|&|\+|plus)\s*", text[counts[j].span.end : counts[j + 1].span.start]
        ):
            j += 1
        group = counts[i : j + 1]
        # "6 guests, 2 kids": the 2 are of the 6; only "and" or "plus" before the last adds up
        if j > i and re.search(r"(?i)and|&|\+|plus", text[group[-2].span.end : group[-1].span.start]):
            people = [a for a in group if "people" in a.words]
            if len(people) == len(group):
                first, last = group[0], group[-1]
                me = _SPEAKER_BEFORE.search(text[: first.span.start])  # "me, my 2 brothers & 3 cousins"
                start = me.start() if me else first.span.start
                total = Amount(
                    sum(a.value for a in group) + (1 if me else 0),
                    "count",
                    "people",
                    ("people",),
                    "",
                    "=",
                    Span(text[start : last.span.end], start, last.span.end),
                    parts=tuple(a.noun for a in group),
                )
                out.insert(out.index(first), total)
            else:
                for a in people:
                    if a.noun != "people":  # "for 4 and 2 high chairs": the 4 are the party still
                        out[out.index(a)] = replace(a, words=tuple(w for w in a.words if w != "people"))
        i = j + 1
    return out


_RANGE_WORDS = frozenset({"to", "-", "–", "or", "and"})


def _range_end(tokens: list[Token], i: int, j: int, first: float) -> tuple[float | None, int]:
    """The second number of "6 to 8", "6-8", "2 or 3", "between 8 and 9" (whose first number starts at
    ``i`` and ends before ``j``) and the index after it; (None, j) when no second number follows. Only
    "and" after "between" joins two numbers; a second number no larger than the first ("2 to 1") and
    a clock ("7 or 7:30") are no range of amounts."""
    if j + 1 >= len(tokens) or tokens[j].lower_ not in _RANGE_WORDS:
        return None, j
    if tokens[j].lower_ == "and" and not (i > 0 and tokens[i - 1].lower_ == "between"):
        return None, j
    at = j + 1 + (tokens[j + 1].text in _CURRENCY_SIGNS and j + 2 < len(tokens))  # "£100-£150"
    if tokens[at].lower_ in ("a", "an", "one"):
        return None, j  # "2 or a few", "1 to one": no second number said as a digit or a word
    second, k = _number_of(tokens, at)
    if second is None or second <= first or (k < len(tokens) and tokens[k].text == ":"):
        return None, j
    return second, k


def _from_now(text: str, start: int) -> bool:
    """The amount is a span from now ("in two hours"), which says when, not how long."""
    return bool(
        re.search(r"\b(?:in|within)\s+(?:about\s+|around\s+)?$", text[max(0, start - 20) : start].lower())
    )


def _counted(tokens: list[Token], k: int, unit: str) -> tuple[str, list[str], int]:
    """The noun a number counts and the words that qualify it ("2 checked bags", "45 minute sessions")."""
    words: list[str] = []
    j = k
    if unit != "count":  # "45 minute sessions", "30 minutes to cook": a noun or a purpose, never a verb form
        if j + 1 < len(tokens) and tokens[j].lower_ == "to" and tokens[j + 1].pos_ == "VERB":
            return tokens[j + 1].lemma_.lower(), [tokens[j + 1].lemma_.lower()], k
        if j + 1 < len(tokens) and tokens[j].lower_ == "of" and tokens[j + 1].pos_ == "NOUN":
            return (
                tokens[j + 1].lemma_.lower(),
                [tokens[j + 1].lemma_.lower()],
                j + 2,
            )  # "15 minutes of buffer"
        if (
            j < len(tokens)
            and tokens[j].pos_ == "NOUN"
            and tokens[j].tag_ in ("NN", "NNS")
            and tokens[j].lower_ not in _TIME_UNITS
        ):
            noun = tokens[j].lemma_.lower()
            return noun, [noun], j + 1
        return "", [], k
    while j < len(tokens) and j < k + 4:
        t = tokens[j]
        participle = (
            t.tag_ == "VBD" and j + 1 < len(tokens) and tokens[j + 1].pos_ == "NOUN"
        )  # "2 checked bags"
        if t.pos_ in ("ADJ", "NOUN", "PROPN", "VERB") and (
            t.tag_ in ("JJ", "NN", "NNS", "NNP", "NNPS", "VBN", "VBG") or participle
        ):
            if t.lower_ in _TIME_UNITS or t.lower_ in ("a", "per", "each", "every"):
                break
            words.append(t.lemma_.lower())
            if t.pos_ in ("NOUN", "PROPN") and (
                j + 1 >= len(tokens) or tokens[j + 1].pos_ not in ("NOUN", "PROPN")
            ):
                return t.lemma_.lower(), words, j + 1
            j += 1
            continue
        if t.text == "-" and words:
            j += 1
            continue
        break
    return "", [], k


def _rate(tokens: list[Token], k: int) -> tuple[str, int]:
    """ "a day", "per night", "each week", "a head" after an amount: the unit it is counted per."""
    if k + 1 < len(tokens) and tokens[k].lower_ in ("a", "an", "per", "each", "every", "/"):
        nxt = tokens[k + 1]
        if nxt.pos_ in ("NOUN", "PROPN") or nxt.lower_ in _TIME_UNITS:
            return nxt.lemma_.lower(), k + 2
    return "", k


def _people_count(tokens: list[Token], i: int, value: float) -> float | None:
    """A bare number that counts people: "for 4", "table for two", "party of six", "me and my 3 mates"
    (3 + the speaker), "the two of us"."""
    prev = tokens[i - 1].lower_ if i > 0 else ""
    prev2 = tokens[i - 2].lower_ if i > 1 else ""
    nxt = tokens[i + 1].lower_ if i + 1 < len(tokens) else ""
    if (
        prev in ("for", "of")
        and nxt not in ("of",)
        and (prev == "for" or prev2 in ("party", "group", "table"))
    ):
        if (
            i + 1 < len(tokens)
            and tokens[i + 1].pos_ in ("NOUN", "PROPN")
            and not _people_noun(tokens[i + 1])
        ):
            return None
        return value
    more = i + 3 < len(tokens) and tokens[i + 2].lower_ in _JOINS and tokens[i + 3].like_num
    if i + 1 < len(tokens) and _people_noun(tokens[i + 1]) and not more:  # the last group holds the list
        listed, _ = _listed_before(tokens, i)
        if listed:
            return (
                value + listed
            )  # "me and my 3 mates", "me, my wife and our three kids", "me plus three mates"
    return None


_JOINS = frozenset({"and", "plus", "&", ",", "+"})


def _listed_before(tokens: list[Token], i: int) -> tuple[int, int]:
    """The people listed before the count at ``i`` and joined to it ("me, my wife and our [three kids]":
    2, "me plus [three mates]": 1): how many, and where the list starts; (0, -1) when none is."""
    k = i - 1
    if k >= 0 and tokens[k].lower_ in ("my", "our"):
        k -= 1
    if k < 0 or tokens[k].lower_ not in _JOINS:
        return 0, -1
    count, start = 0, -1
    while k >= 0 and tokens[k].lower_ in _JOINS:
        k -= 1
        if k >= 0 and tokens[k].lower_ in ("me", "i", "myself"):
            count, start, k = count + 1, tokens[k].idx, k - 1
        elif (
            k >= 1
            and _people_noun(tokens[k])
            and tokens[k].tag_ in ("NN", "NNP")
            and tokens[k - 1].lower_ in ("my", "our")
        ):
            count, start, k = count + 1, tokens[k - 1].idx, k - 2
        elif k >= 0 and tokens[k].pos_ == "PROPN" and tokens[k].ent_type_ == "PERSON":
            count, start, k = count + 1, tokens[k].idx, k - 1
        else:
            break
    return count, start


def _some_of_us(doc: Doc, span: Span) -> bool:
    """ "one of us is gluten free", "two of them are vegetarian": some of the party, the subject of a
    clause of their own, not its size ("the two of us are going", "for two of us" are the party)."""
    m = re.fullmatch(r"(?i)(?:\w+|\d+) of (?:us|them)", span.text)
    if m is None:
        return False
    before = [t for t in doc if t.idx + len(t.text) <= span.start]
    after = [t for t in doc if t.idx >= span.end]
    if before and before[-1].lower_ in ("the", "for", "all", "both"):
        return False
    return bool(after) and after[0].pos_ in ("AUX", "VERB")


def _people_noun(t: Token) -> bool:
    """A word for people: a closed class ("guests", "friends") or a relation in ``data/people.json``."""
    from ibachat.agent.data import word_classes

    return (
        t.lower_ in _PEOPLE_WORDS
        or t.lemma_.lower() in _PEOPLE_WORDS
        or (t.lemma_.lower() in word_classes("people")["people"])
    )


def _people_start(tokens: list[Token], i: int) -> int:
    listed, start = _listed_before(tokens, i)
    if listed:
        return start
    return tokens[i - 1].idx if i > 0 else tokens[i].idx


def _company_counts(tokens: list[Token], text: str, found: list[Amount]) -> list[Amount]:
    """ "two of us", "just the two of us": a count of people said with words only."""
    out = []
    for m in re.finditer(r"(?i)\b(two|three|four|five|six|seven|eight|nine|ten|\d+) of us\b", text):
        if any(a.span.start <= m.start() < a.span.end for a in found):
            continue
        n = _words_to_number([m.group(1).lower()]) if not m.group(1).isdigit() else float(m.group(1))
        if n:
            out.append(
                Amount(n, "count", "people", ("people",), "", "=", Span(m.group(0), m.start(), m.end()))
            )
    return out


# ----------------------------------------------------------------------------------- places and phrases
def _boundary(t: Token, mask: tuple[tuple[int, int], ...], first: bool) -> bool:
    if any(a <= t.idx < b for a, b in mask):
        return True
    if t.lower_ in _STOP_WORDS or t.is_space:
        return True
    if t.is_punct and t.text not in ("'", "’", "&", ".", "-"):
        return True
    if t.text in ("-", "–") and t.i > 0 and t.doc[t.i - 1].whitespace_:
        return True  # "in Cardiff - single": a spaced dash starts another thought
    if t.tag_ == "POS":
        return False  # "Rosa's Thai"

    if t.text == "." and not (t.i > 0 and len(t.nbor(-1).text) <= 3):
        return True
    if (
        t.pos_ in ("VERB", "AUX", "SCONJ", "PART")
        and t.dep_ != "pobj"
        and not (t.text[:1].isupper() and not first)
    ):
        return True
    if t.pos_ == "PRON" and t.tag_ != "PRP$":
        return True
    if t.pos_ == "ADV" and not t.text[:1].isupper() and t.lower_ not in ("home",):
        return True
    return False


def _phrase_after(tokens: list[Token], i: int, mask: tuple[tuple[int, int], ...]) -> tuple[int, int] | None:
    """The token range of the phrase a preposition at ``i`` governs: up to the next boundary."""
    # a place that serves may be named "by" someone ("at Hair by Niamh"); a work "by" its author is not
    # one name with them ("a hold on Middlemarch by George Eliot")
    by = frozenset({"by"}) if tokens[i].lower_ in ("at", "from") else frozenset()
    j = i + 1
    end = j
    while end < len(tokens):
        t = tokens[end]
        if (
            end > j
            and t.pos_ in ("ADP", "CCONJ")
            or (end > j and t.pos_ == "DET" and t.lower_ not in ("the",))
        ):
            nxt = end + 1  # "The Day of the Jackal": the name goes on past "of the"
            while nxt < len(tokens) and tokens[nxt].text in ("the", "a", "an"):
                nxt += 1
            # "Wok This Way", "Hair by Niamh": a small word inside a name, between capitalised words, when
            # what follows is no day or time ("at Dishoom by Friday")
            joins = (
                (t.lower_ in _NAME_JOINS | by or (t.text[:1].isupper() and t.pos_ == "DET"))
                and nxt < len(tokens)
                and tokens[nxt].text[:1].isupper()
                and tokens[end - 1].text[:1].isupper()
                and tokens[nxt].ent_type_ not in ("DATE", "TIME")
                and not read_when(tokens[nxt].text, _SOME_DAY).said
            )
            if not joins:
                break
        elif end > j and t.pos_ == "DET":
            if not (
                end + 1 < len(tokens)
                and tokens[end + 1].text[:1].isupper()
                and (tokens[end - 1].text[:1].isupper() or tokens[end - 1].lower_ in _NAME_JOINS | by)
            ):
                break
        if _boundary(t, mask, end == j):
            break
        if end > j and (
            t.text in ("->", "→", "=>")
            or (t.text == "-" and tokens[end + 1 : end + 2] and tokens[end + 1].text == ">")
        ):
            break  # "on a plane Dublin -> Berlin": the arrow starts a journey of its own
        if t.pos_ == "ADP" and end == j:
            break
        if end > j and tokens[end - 1].text[:1].isupper() and _a_gerund(t.text):
            break  # "in Melbourne checking in Sunday": the name ends at a verb's -ing form
        if end > j and t.like_num and t.dep_ == "nummod" and t.head.i > t.i:
            break  # "in Edinburgh 3 nights": a number that counts what follows it is no part of the name
        end += 1
    while end > j and (
        tokens[end - 1].pos_ in ("DET", "ADP", "CCONJ") or tokens[end - 1].text in ("'", "-", ".")
    ):
        end -= 1
    if end <= j:
        return None
    if not any(
        tokens[k].pos_ in ("NOUN", "PROPN", "NUM", "ADJ", "X")
        or tokens[k].lower_ == "home"
        or tokens[k].dep_ == "pobj"
        for k in range(j, end)
    ):
        return None
    return j, end


def _places_and_phrases(
    doc: Doc, text: str, mask: tuple[tuple[int, int], ...]
) -> tuple[list[Place], list[tuple[str, Span]]]:
    tokens = list(doc)
    places: list[Place] = []
    phrases: list[tuple[str, Span]] = []
    i = 0
    while i < len(tokens):
        t = tokens[i]
        low = t.lower_
        prep = None
        if t.pos_ == "ADP" or low in _TO or low in ("->",):
            prep = low
        if low == "out" and i + 1 < len(tokens) and tokens[i + 1].lower_ == "of":
            prep, i = "out of", i + 1
        if t.text == "-" and i + 1 < len(tokens) and tokens[i + 1].text == ">":
            prep, i = "->", i + 1
        if prep is None and _home_as_goal(t) and not any(a <= t.idx < b for a, b in mask):
            # "a lift home from the pub", "get me home": "home" is where it goes, with no "to"
            span = Span(t.text, t.idx, t.idx + len(t.text))
            places.append(Place("", "destination", span, False, _told(t)))
            i += 1
            continue
        if prep is None or any(a <= t.idx < b for a, b in mask):
            i += 1
            continue
        rng = _phrase_after(tokens, i, mask)
        if rng is None and low == "to" and places and places[-1].prep in _FROM and i + 1 < len(tokens):
            nxt = tokens[i + 1]
            if (
                places[-1].span.end + 4 >= t.idx
                and nxt.is_alpha
                and nxt.lower_ not in _STOP_WORDS
                and not any(a <= nxt.idx < b for a, b in mask)
                and not any(c.dep_ in ("dobj", "obj", "prt") for c in nxt.children)
            ):
                rng = (
                    i + 1,
                    i + 2,
                )  # "from leeds to newcastle": the journey's end, however the tagger read it
        if rng is None:
            i += 1
            continue
        a, b = rng
        span = Span(text[tokens[a].idx : tokens[b - 1].idx + len(tokens[b - 1].text)], tokens[a].idx,
                    tokens[b - 1].idx + len(tokens[b - 1].text))  # fmt: skip
        named = any(
            tokens[k].text[:1].isupper() or tokens[k].ent_type_ in ("GPE", "LOC", "FAC", "ORG")
            for k in range(a, b)
        )
        price = tokens[a].text in _CURRENCY_SIGNS or (
            tokens[a].like_num and a + 1 < b and tokens[a + 1].lower_ in _CURRENCY_WORDS
        )  # "at €35 a day", "for 40 dollars": a price, no place
        if tokens[a].lower_ in ("a", "an", "some", "any") or price:
            phrases.append((prep, span))  # "to a daily briefing": no particular place
            i = b
            continue
        told = _told(t)
        if prep in _TO or prep == "->":
            places.append(Place(prep, "destination", span, named, told))
            origin = _bare_origin(tokens, i, text, mask)
            if origin is not None and not any(
                p.span.start < origin.end and origin.start < p.span.end for p in places
            ):  # "from 7 Mill Lane to Leeds": the start is said already
                places.append(Place("", "origin", origin, True))
        elif prep in _FROM or prep == "out of":
            places.append(Place(prep, "origin", span, named, told))
        elif prep in _AT and named and _FROM_A_KIND.search(text[max(0, t.idx - 40) : t.idx]):
            # "from a 2-bed flat at 8 Quarry Lane": the start is a kind of place, and where it is, said next
            places.append(Place("from", "origin", span, named, told))
        elif prep in _AT:
            places.append(Place(prep, "at", span, named, told))
        phrases.append((prep, span))
        i = b
    homes = [p for p in places if not p.prep and p.role == "destination" and p.span.text.lower() == "home"]
    for home in homes:
        if any(p.prep and text[home.span.end : p.span.start].strip().lower() in _TO for p in places):
            # "fly home to Athens": the place said with "to" is where it ends; "home" says it is a return
            places.remove(home)
    return places, phrases


# "from a 2-bed flat ", "from my sister's house ": a start said by its kind, just before "at" and an address
_FROM_A_KIND = re.compile(r"(?i)\bfrom\s+(?:a|an|the|my|our|his|her|their)\s+[^,.;!?]{0,30}?\s$")


def _home_as_goal(t: Token) -> bool:
    """A bare "home" that says where a trip ends ("a cab home", "drive me home"): an adverb of a verb or
    a noun, with no preposition before it ("at home", "from home" are places of their own)."""
    if t.lower_ != "home" or t.dep_ not in ("advmod", "npadvmod"):
        return False
    before = t.doc[t.i - 1] if t.i > 0 else None
    return before is None or before.pos_ != "ADP"


def _told(prep: Token) -> bool:
    """Whether a preposition stands in a clause told in the past ("we stayed at the Grand", "I went to
    Nana's"), or in one that says what is happening ("going to Nana's for Christmas - get us ..."), not in
    the request."""
    head = _clause_verb(prep)
    if head is None:
        return False
    if told_past(prep):
        return True
    if not (head.tag_ == "VBG" and head.dep_ == "ROOT" and head.i == 0):
        return False
    # "Going to Nana's for Christmas - get us ...": told up to the break; what follows the dash is asked
    between = prep.doc.text[head.idx : prep.idx]
    return not re.search(r"\s[-–—:;]\s|[.!?]\s", between)


def _clause_verb(tok: Token) -> Token | None:
    head = tok.head
    while head.pos_ not in ("VERB", "AUX") and head.head.i != head.i:
        head = head.head
    return head if head.pos_ in ("VERB", "AUX") else None


def told_past(tok: Token, outside: tuple[int, int] = (0, 0)) -> bool:
    """Whether a word stands in a clause told in the past with its subject ("we sat in row 7"); a verb
    inside the token range ``outside`` is the phrase's own ("2 checked bags"), no clause's."""
    head = _clause_verb(tok)
    if head is None or head.tag_ != "VBD" or not any(c.dep_ in ("nsubj", "nsubjpass") for c in head.children):
        return False
    if outside[0] <= head.i < outside[1]:
        return False
    a, b = sorted((head.i, tok.i))
    # a comma or a stop between them starts another clause the tagger hung on it ("..., book 6 nights")
    return not any(t.text in (",", ";", ".", "!", "?", "-", "–", "—") for t in tok.doc[a:b])


def _bare_origin(tokens: list[Token], i: int, text: str, mask: tuple[tuple[int, int], ...]) -> Span | None:
    """The start of a verbless journey before its "to" or arrow: "JFK to LAX", "Dublin -> Berlin"."""
    k = i - 1 if tokens[i].text != ">" else i - 2
    end = k + 1
    while k >= 0 and (
        tokens[k].pos_ == "PROPN"
        or tokens[k].text[:1].isupper()
        or tokens[k].ent_type_ in ("GPE", "LOC", "FAC")
    ):
        if any(a <= tokens[k].idx < b for a, b in mask) or tokens[k].i == 0 and tokens[k].pos_ == "VERB":
            break
        k -= 1
    start = k + 1
    if start >= end:
        return None
    if (
        start > 0
        and re.fullmatch(r"\d{1,4}[a-zA-Z]?", tokens[start - 1].text)
        and not any(a <= tokens[start - 1].idx < b for a, b in mask)
    ):
        start -= 1  # "12 Elm Road to 3 Station Street": the house number is the address's
    from ibachat.agent.reading.acts import known_verb, only_a_name  # acts reads frames: imported when used

    first = tokens[start]
    if (
        start + 1 < end
        and (start == 0 or tokens[start - 1].is_punct)
        and (_a_plural_noun(first.lower_) or known_verb(first.lower_))
        and only_a_name(tokens[start + 1].lower_)
    ):
        # "Flights Sydney to Perth", "Book Glasgow to Edinburgh": the capital is the sentence's, the
        # name starts after it
        start += 1
    if start > 0 and tokens[start - 1].pos_ == "ADP":
        return None  # "from Boston to Denver": the origin is the preposition's
    if start == 0 and tokens[0].pos_ != "PROPN" and tokens[0].ent_type_ == "":
        return None
    if tokens[start].text[:1].islower():
        return None
    a, b = tokens[start].idx, tokens[end - 1].idx + len(tokens[end - 1].text)
    return Span(text[a:b], a, b)


def _a_gerund(word: str) -> bool:
    """A word in lower case that the dictionary (lemminflect's) has as a verb's -ing form ("checking")."""
    from lemminflect import getAllLemmas

    if not word.islower() or not word.endswith("ing"):
        return False
    return any(lemma != word for lemma in getAllLemmas(word, upos="VERB").get("VERB", ()))


def _a_plural_noun(word: str) -> bool:
    """The dictionary (lemminflect's) has ``word`` as the plural of a common noun ("flights", "trains"),
    which no place's name is ("Cape Town", "Reading" are kept)."""
    from lemminflect import getAllLemmas

    return any(lemma != word for lemma in getAllLemmas(word, upos="NOUN").get("NOUN", ()))


# ----------------------------------------------------------------------------------- labelled spans
def _clause_tail(
    text: str,
    start: int,
    mask: tuple[tuple[int, int], ...],
    *,
    stop_at_comma: bool,
    stop_at_time: bool = False,
    keep_time: bool = False,
    ends: re.Pattern[str] | None = None,
) -> Span | None:
    """From ``start`` to the end of its clause (a full stop, a question mark, a new line), trimmed of a
    day or a time at its end and of a trailing "please"; ``stop_at_time``: ended by the first day or time
    ("to pay it on the 31st at 9am and then monthly": pay it)."""
    m = (ends or _CLAUSE_END).search(text, start)
    end = m.start() if m else len(text)
    if stop_at_time:
        end = min([end] + [a for a, _ in mask if start < a < end])
    if stop_at_comma:
        c = text.find(",", start, end)
        end = c if c >= 0 else end
    body = text[start:end]
    # trim a trailing day/time and softeners
    while True:
        trimmed = body.rstrip(" ,.!?")
        cut = None
        for a, b in () if keep_time else mask:  # what is said keeps its days ("the parcel came today")
            if start < a < start + len(trimmed) <= b:
                cut = a - start  # a day or a time at its end
        tail = re.search(
            r"(?i)[\s,]+(?:please|pls|plz|thanks|thank you|asap|if possible|cheers|ta)\s*$", trimmed
        )
        if tail:
            cut = tail.start() if cut is None else min(cut, tail.start())
        if cut is None or cut <= 0:
            body = trimmed
            break
        body = trimmed[:cut]
        body = re.sub(r"(?i)\s+(?:on|at|by|for|from|this|next|every|each|in)\s*$", "", body)
    if stop_at_time:  # "submit the tax return on 31 January": ended by the day, not by its "on"
        body = re.sub(r"(?i)\s+(?:on|at|by|for|from|this|next|every|each|in)\s*$", "", body.rstrip(" ,"))
    body = body.strip(" ,.-–—:")
    if len(body) < 2:
        return None
    a = start + (len(text[start:]) - len(text[start:].lstrip(" ,:-–—\"“'")))
    body = body.lstrip(" ,:-–—")
    a = text.find(body, start)
    return Span(body, a, a + len(body))


def quotes(text: str) -> list[Span]:
    """The words ``text`` puts in quotes, each as a span."""
    out = []
    for q in _QUOTED.finditer(text):
        g = 1 if q.group(1) else 2
        out.append(Span(q.group(g), q.start(g), q.end(g)))
    return out


def _labelled(doc: Doc, text: str, mask: tuple[tuple[int, int], ...]) -> dict[str, Span]:
    out: dict[str, Span] = {}
    low = text.lower()
    q = _QUOTED.search(text)
    if q:
        g = 1 if q.group(1) else 2
        out["quoted"] = Span(q.group(g), q.start(g), q.end(g))
    for word in _TITLE_WORDS:
        # "title it Van repairs", "call it Budget": the "it" is what is named, the name follows
        m = re.search(rf"\b{re.escape(word)}\b(?:\s+it\b)?[:\s]+", low)
        if m is None and word == "called":
            m = re.search(r"\b(?:call|name|label)\s+it\b[:\s]+", low)
        if m and "title" not in out:
            span = _named_span(text, m.end(), mask)
            if span is not None:
                out["title"] = span
    for word in _SUBJECT_WORDS:
        m = re.search(rf"(?:\bwith\s+)?(?:\bthe\s+|\ba\s+)?\b{re.escape(word)}(?:\s+of)?[:\s]+", low)
        if m and "subject" not in out:
            span = _named_span(text, m.end(), mask)
            if span is not None:
                out["subject"] = span
    m = re.search(
        r"\b(?:saying|that says|which says|to say|and say|(?:to |and )?(?:tell(?:ing)?|warn(?:ing)?) (?:him|her|them|"
        r"(?:the|my|our|your|his|their) [a-z]+|[A-Z]\w+)(?: (?:that|to))?|ask (?:him|her|them|(?:the|my|our|your|his|"
        r"their) [a-z]+) to|let (?:him|her|them|(?:the|my|our|your|his|their) [a-z]+|[A-Z]\w+) know(?: that)?|"
        r"with the (?:body|message|text)(?: saying)?|the body)[:\s]+",
        text,
        re.I,
    ) or re.search(r"(?i)\b(?:body|message)\s*(?::|=|\bis\b|\bas\b)?\s*(?=[\"“‘'])", text)
    # ^ "body: 'Left them under the mat'", "message 'on my way'": a label word before quoted words
    if m:
        # a single quote closes where no letter follows it ("when you're in" stays inside)
        q = re.match(
            r"\s*(?:[\"“]([^\"”]{1,400})[\"”]|‘((?:[^’]|(?<=\w)’(?=\w)){1,400}?)’(?!\w)|'(.{1,400}?)'(?!\w))",
            text[m.end() - 1 :],
        )
        span = (
            Span(q.group(g), m.end() - 1 + q.start(g), m.end() - 1 + q.end(g))
            if q and (g := next(k for k in (1, 2, 3) if q.group(k) is not None))
            # ^ 'saying "get well soon", and ...': what is in the quotes
            else _clause_tail(
                text, m.end() + _that(text[m.end() :]), mask, stop_at_comma=False, keep_time=True
            )
        )
        if span is not None:
            out["said"] = span
    quotes = [(q.start(), q.end()) for q in _QUOTED.finditer(text)]
    c = next((i for i, ch in enumerate(text) if ch == ":" and not any(a <= i < b for a, b in quotes)), -1)
    if c >= 0 and not re.match(r"\d", text[c + 1 : c + 2] or "") and not re.search(r"\d$", text[:c]):
        span = _clause_tail(text, c + 1, (), stop_at_comma=False, ends=_SENTENCE_END)  # "a; b; c": all of it
        if span is not None and len(span.text) >= 3:
            out["colon"] = span
        # "reminder: renew the car tax, on the 20th at 9am": what to do, without its when and how
        first = _clause_tail(text, c + 1, mask, stop_at_comma=True, stop_at_time=True)
        if first is not None and len(first.text) >= 3:
            out["colon_first"] = first
    todo = _reminder_of(doc, text, mask)
    if todo is not None:
        out["todo"] = todo
    m = re.search(
        r"(?<![\w'’])(?:about|regarding|re|concerning|on the subject of)\s+(?!(?:\d|an?\b|one\b|two\b|three\b|four\b|five\b|six\b|ten\b|twenty\b|half\b))",
        low,
    )
    if m:
        span = _named_span(text, m.end(), mask, allow_lower=True)
        if span is not None:
            out["about"] = span
    return out


def _that(rest: str) -> int:
    """ "saying that I can't make it": what is said starts after its "that"."""
    m = re.match(
        r"(?i)\s*(?:(?:by|via|over)\s+[\w-]+(?:\s+message)?\s+)?that\s+", rest
    )  # "by email that ..."
    return m.end() if m else 0


def _named_span(
    text: str, start: int, mask: tuple[tuple[int, int], ...], *, allow_lower: bool = True
) -> Span | None:
    """A name or title said after a word that announces it: quoted, or up to a comma, a clause's end,
    "with", "in my", "and", a day or a time."""
    rest = text[start:]
    q = re.match(
        r"\s*(?:(?:it|this)\s+)?(?:(?:is|as|=|will be|should be)\s+)?"
        r"(?:[\"“]([^\"”]{1,120})[\"”]|[‘']((?:[^’']|(?<=\w)[’'](?=\w)){1,120}?)[’'](?!\w))",  # "Mum's" inside quotes
        rest,
    )
    if q:
        g = 1 if q.group(1) else 2
        return Span(q.group(g), start + q.start(g), start + q.end(g))
    m = re.search(
        # "for" followed by a name goes on with the title ("Packing for Lisbon", "Ideas for Mum's party")
        r"[,.;!?:()\n—–]|\s-\s|\s(?:with|in my|on my|into my|to my|in the|and then|and|for(?!\s+[A-Z])|in(?!\s+[A-Z])|at|on|by|from|"
        r"please|pls|so that|because|but)\s",
        rest,
    )
    end = start + (m.start() if m else len(rest))
    for a, _b in mask:
        if start <= a < end:
            end = a
            break
    body = text[start:end].strip(" -–—")
    body = re.sub(r"(?i)\s+(?:for|in|on|at|by|from|of|the|and|with)$", "", body)  # "Team sync for Monday"
    if not body or len(body) > 80:
        return None
    a = text.find(body, start)
    return Span(body, a, a + len(body))


def _reminder_of(doc: Doc, text: str, mask: tuple[tuple[int, int], ...]) -> Span | None:
    """What to be reminded of: "remind me (...) to <do this>", "a reminder (...) to <do this>"."""
    m = re.search(r"(?i)\b(?:remind(?:er)?s?|ping|nudge|alert|prompt|text|message|call|tell)\b", text)
    if m is None:
        return None
    said = next((t for t in doc if t.idx == m.start()), None)
    for t in doc:
        if t.idx < m.start() or t.lower_ != "to" or t.tag_ != "TO":
            continue
        if t.head.pos_ != "VERB" or t.head.i <= t.i:
            continue
        if said is not None and not _infinitive_of(t.head, said):
            continue  # "remind me about the do - so I've time to get a gift": the time's, not the reminder's
        return _clause_tail(text, t.idx + 3, mask, stop_at_comma=True, stop_at_time=True)
    m2 = re.search(r"(?i)\bto\s+(?=[a-z])", text[m.end() :])
    m3 = re.search(r"(?i)\b(?:about|that)\s+", text[m.end() :])
    if m2 and not (m3 and m3.start() < m2.start()):
        return _clause_tail(text, m.end() + m2.end(), mask, stop_at_comma=True, stop_at_time=True)
    if m3:
        return _clause_tail(text, m.end() + m3.end(), mask, stop_at_comma=True, stop_at_time=True)
    return None


def _infinitive_of(verb: Token, said: Token) -> bool:
    """Whether an infinitive's verb hangs from the word that asks for a reminder ("remind me to call",
    "a reminder to call") through verbs only; one that hangs from a noun or another clause's subject
    ("time to get a gift") is not what to be reminded of. Without a path (a parse that split the
    sentence) it is taken, as before."""
    path = []
    for a in verb.ancestors:
        if a.i == said.i:
            return all(x.pos_ in ("VERB", "AUX") and x.dep_ not in ("advcl",) for x in path)
        path.append(a)
    return not any(x.pos_ in ("NOUN", "PROPN", "PRON") for x in [verb.head] if x.i != verb.i)


# ----------------------------------------------------------------------------------- things
DETERMINERS = frozenset(
    {
        "a",
        "an",
        "the",
        "my",
        "our",
        "some",
        "any",
        "your",
        "his",
        "her",
        "their",
        "this",
        "that",
        "these",
        "those",
    }
)


def _quantity(t: Token) -> bool:
    return t.like_num or t.lower_ in ("dozen", "couple", "pair", "of", "few", "several")


def _np_span(tokens: list[Token], head: Token, text: str, shift: int = 0) -> Span:
    """A noun phrase without its article: its left modifiers up to the head, and "of" + noun after a
    measure ("a pair of running shoes"). ``shift``: how far the parsed text's offsets are ahead."""
    left = head
    for t in head.lefts:
        if t.dep_ in ("det", "poss", "predet", "cc", "punct", "prep", "neg"):
            continue
        left = min(left, t.left_edge if t.left_edge.i < t.i else t, key=lambda x: x.i)
    while left.i < head.i and (
        left.lower_ in DETERMINERS
        or (left.is_punct and left.text != "-")
        or (_quantity(left) and tokens[left.i + 1].text != "-")  # "second-hand" is no amount
    ):
        left = tokens[left.i + 1]  # "a dozen tulips": the tulips; the dozen is an amount
    right = head
    for t in head.rights:
        if t.dep_ in ("compound", "amod", "nummod") and t.i == right.i + 1:
            right = t
        elif t.dep_ == "prep" and t.lower_ == "of":
            objs = [c for c in t.children if c.dep_ == "pobj"]
            if objs:
                right = objs[0]
                for c in objs[0].rights:
                    # "a showing of Cars 3": a number right after a name is part of the name
                    name_number = c.dep_ == "nummod" and objs[0].pos_ == "PROPN" and c.like_num
                    if (c.dep_ in ("compound", "amod") or name_number) and c.i == right.i + 1:
                        right = c
        else:
            break
    a, b = left.idx - shift, right.idx + len(right.text) - shift
    comma = text.find(",", a, b)
    if comma > a:  # "a refurbished iPad, express shipping": the parse ran two phrases together
        b = comma
    return Span(text[a:b], a, b)


def _owned(doc: Doc, text: str) -> tuple[Span, ...]:
    """Things the request names as someone's ("refill my atorvastatin", "dad's metformin") or as an amount
    of ("two months of omeprazole"): where the small parser loses a verb's object to a word it does not
    know, what is owned or measured out is still a thing, in the order said. Never a person, a time or a
    pronoun."""
    tokens = list(doc)
    out = []
    for t in doc:
        if t.pos_ not in ("NOUN", "PROPN", "ADJ", "X") or t.dep_ in ("poss", "compound", "amod"):
            continue
        owned = any(c.dep_ == "poss" for c in t.children)
        measured = (
            t.dep_ == "pobj"
            and t.head.lower_ == "of"
            and (t.head.head.lower_ in _TIME_UNITS or t.head.head.lemma_.lower() in _TIME_UNITS)
        )
        if not (owned or measured) or _people_noun(t) or t.lemma_.lower() in _TIME_UNITS:
            continue
        out.append(_np_span(tokens, t, text))
    return tuple(out)


def _conjuncts(head: Token) -> list[Token]:
    out = [head]
    for t in head.children:
        if t.dep_ == "conj" and (t.pos_ in ("NOUN", "PROPN") or _nominal_conj(t)):
            out += _conjuncts(t)
        elif t.dep_ == "appos" and t.pos_ in ("NOUN", "PROPN") and any(c.dep_ == "conj" for c in t.children):
            out += _conjuncts(t)
    return out


def _nominal_conj(t: Token) -> bool:
    """A conjunct of a noun the tagger took for a verb or an adjective ("peonies, freesias and
    ranunculus"): it has no subject or object of its own, so it is one more thing in the list."""
    return (
        t.head.pos_ in ("NOUN", "PROPN")
        and t.pos_ in ("VERB", "ADJ", "X")
        and not any(c.dep_ in ("nsubj", "nsubjpass", "dobj", "obj", "aux") for c in t.children)
    )


def _verb_objects(text: str) -> tuple[list[Span], list[str], int]:
    """The coordinated objects of the request's first verb that has one, from the parse, or from the
    parse as a command when the first word reads better as a verb there ("Order a pad thai ...")."""
    from ibachat.agent.reading.acts import known_verb  # acts reads frames: imported when used
    from ibachat.agent.reading.parse import imperative_parse, parse
    from ibachat.agent.reading.spellings import spelled_out

    best: tuple[int, list[Span], list[str]] | None = None
    for doc, shift in ((parse(text), 0), (imperative_parse(text), len("please "))):
        tokens = list(doc)
        for t in doc:
            # after "please ": the command's verb, however tagged, if English has it as a verb at all
            # ("paneer tikka and naan from ...": no verb "paneer")
            command = shift and t.head.i == 1 and known_verb(t.head.lower_) and not _a_dish_word(text)
            if shift and t.head.i == 1 and not command and t.head.pos_ == "VERB":
                continue
            if (
                t.dep_ in ("dobj", "obj")
                and t.pos_ in ("NOUN", "PROPN")
                and (t.head.pos_ == "VERB" or command)
                # a word no dictionary has as a verb is a misread noun ("..., gluten free, tip 20%")
                and known_verb(t.head.lower_)
                and t.head.lemma_.lower() not in _ADDRESS_VERBS
                and spelled_out(t.text).lower() not in ("please", "thanks")  # "grocery run pls: ..."
                # "make it extra mustard": what "it" is to be made, no thing asked for
                and not any(
                    x.pos_ == "PRON" and x.lower_ in ("it", "them", "that", "this")
                    for x in doc[t.head.i + 1 : t.i]
                )
            ):
                at = t.head.idx - shift
                heads = sorted(_conjuncts(t), key=lambda x: x.i)
                spans = [_np_span(tokens, h, text, shift) for h in heads]
                lemmas = [h.lemma_.lower() for h in heads]
                if len(heads) == 1:
                    split = _modifier_and_thing(tokens, t, text, shift) or _noun_conjunct_of_verb(
                        tokens, t, text, shift
                    )
                    if split is not None:
                        spans, lemmas = split
                # the same verb in both parses: the one that finds more things joined to its object ("order
                # a green curry and prawn crackers": the plain parse made "prawn" a second verb)
                if best is None or at < best[0] or (at == best[0] and len(spans) > len(best[1])):
                    best = (at, spans, lemmas)
                break
    if best is None:
        best = _nouned_command(parse(text), text) or _leading_things(parse(text), text)
    return (best[1], best[2], best[0]) if best else ([], [], -1)


def _modifier_and_thing(
    tokens: list[Token], head: Token, text: str, shift: int
) -> tuple[list[Span], list[str]] | None:
    """Two things the parse ran together by hanging the first on the second as its modifier, with the
    "and" inside it; split at the "and". Said so when "a" counts a plural ("a white bloomer and cheese
    scones") or when the modifier is a phrase of two or more words ("pad thai and spring rolls"); a
    one-word modifier stays one thing with its head ("chicken and mushroom pie")."""
    counted_plural = head.tag_ == "NNS" and any(
        c.dep_ == "det" and c.lower_ in ("a", "an") for c in head.children
    )
    for mod in head.lefts:
        cc = [c for c in mod.children if c.dep_ == "cc" and c.lower_ in ("and", "&", "plus")]
        if not cc or mod.pos_ not in ("NOUN", "PROPN"):
            continue
        own = [
            c
            for c in mod.lefts
            if c.dep_ in ("compound", "amod", "nmod") and c.pos_ in ("NOUN", "PROPN", "ADJ")
        ]
        if (counted_plural and mod.dep_ in ("nmod", "compound", "amod")) or (
            own and mod.dep_ in ("nmod", "compound")
        ):
            a = tokens[cc[0].i + 1].idx - shift
            b = head.idx + len(head.text) - shift
            return [_np_span(tokens, mod, text, shift), Span(text[a:b], a, b)], [
                mod.lemma_.lower(),
                head.lemma_.lower(),
            ]
    return None


def _noun_conjunct_of_verb(
    tokens: list[Token], obj: Token, text: str, shift: int
) -> tuple[list[Span], list[str]] | None:
    """ "order a focaccia and prawn sandwiches": a word the tagger calls a noun, made a second verb joined to
    the command with its own object ("prawn" -> "sandwiches"): one more thing, that word and its object."""
    verb = obj.head
    for c in verb.children:
        if c.dep_ != "conj" or c.pos_ != "NOUN" or c.i < obj.i:
            continue
        objs = [d for d in c.children if d.dep_ == "dobj" and d.pos_ == "NOUN" and d.i == c.i + 1]
        if objs:
            a, b = c.idx - shift, objs[0].idx + len(objs[0].text) - shift
            return [_np_span(tokens, obj, text, shift), Span(text[a:b], a, b)], [
                obj.lemma_.lower(),
                objs[0].lemma_.lower(),
            ]
    return None


def _a_dish_word(text: str) -> bool:
    """The first word is a verb no request is made with ("pad" of "pad thai", not "order", "get") and the
    plain parse reads it as part of a noun: the phrase names a thing, it does not command."""
    from ibachat.agent.reading.acts import asks_with
    from ibachat.agent.reading.parse import parse

    doc = parse(text)
    first = doc[0] if len(doc) else None
    return (
        first is not None
        and first.pos_ in ("NOUN", "PROPN")
        and first.dep_ in ("compound", "nmod")
        and not asks_with(first.lower_)
    )


def _leading_things(doc: Doc, text: str) -> tuple[int, list[Span], list[str]] | None:
    """ "paneer tikka and naan from Spice Route, make it extra hot": with no verb before it, a first noun
    phrase that is coordinated or got "from" a named place is the things asked for, each whole. Not a
    statement's subject ("grandad's arthritis makes ..."), not a title before a dash or a colon, not an
    amount of something ("a small portion of mac and cheese")."""
    chunk = next(iter(doc.noun_chunks), None)
    if chunk is None or chunk.root.pos_ not in ("NOUN", "PROPN") or chunk.root.lower_ in DETERMINERS:
        return None
    if any(t.pos_ in ("VERB", "AUX", "PRON") for t in doc[: chunk.start]) or chunk.start > 2:
        return None
    if chunk.root.dep_ not in ("ROOT", "nsubj", "dobj", "conj", "appos"):
        return None
    if re.match(r"(?i)\s*(?:pls|plz|please)?\s*[:—–-]", text[chunk.end_char :]) or re.search(
        r"[:—–-]\s", chunk.text
    ):
        return None  # "pharmacy run: plasters, ...": a title over the list that follows
    after = doc[chunk.end] if chunk.end < len(doc) else None
    if chunk.root.dep_ == "nsubj" and after is not None and after.pos_ in ("VERB", "AUX"):
        return None  # "grandad's arthritis makes the caps impossible": a statement's subject
    heads = [h for h in sorted(_conjuncts(chunk.root), key=lambda x: x.i) if h.pos_ in ("NOUN", "PROPN")]
    sourced = bool(re.match(r"\s*from\s+[A-Z]", text[doc[heads[-1].i].idx + len(heads[-1].text) :]))
    if len(heads) < 2 and not sourced:
        return None
    tokens = list(doc)
    spans = [_np_span(tokens, h, text) for h in heads]
    lemmas = [h.lemma_.lower() for h in heads]
    if len(heads) == 1:
        split = _modifier_and_thing(tokens, heads[0], text, 0)
        if split is not None:
            spans, lemmas = split
    if any(re.search(r"\bof\b", s.text) for s in spans):
        return None  # "a small portion of mac and cheese": how much of what, which the parse splits
    return chunk.start_char, spans, lemmas


def _nouned_command(doc: Doc, text: str) -> tuple[int, list[Span], list[str]] | None:
    """ "order paneer tikka and naan from Spice Route": a first word English has as a verb that the parse
    took for the first word of a compound noun; the things it commands are that noun and its
    conjuncts, from the word after it."""
    from ibachat.agent.reading.acts import known_verb

    tokens = list(doc)
    if (
        len(tokens) < 2
        or tokens[0].pos_ != "NOUN"
        or tokens[0].dep_ != "compound"
        or not known_verb(tokens[0].lower_)
        or _a_dish_word(text)  # "pad thai and ...": a verb no request is made with
    ):
        return None
    head = tokens[0].head
    while head.dep_ == "compound" and head.head.i != head.i:
        head = head.head
    if head.pos_ not in ("NOUN", "PROPN"):
        return None
    heads = [h for h in sorted(_conjuncts(head), key=lambda x: x.i) if h.pos_ in ("NOUN", "PROPN")]
    spans = [_np_span(tokens, h, text) for h in heads]
    first = spans[0]
    if first.start <= tokens[0].idx:  # the verb is no part of the thing ("order paneer tikka": paneer tikka)
        a = tokens[1].idx
        spans[0] = Span(text[a : first.end], a, first.end)
    return tokens[0].idx, spans, [h.lemma_.lower() for h in heads]


def _lists(text: str, doc: Doc, mask: tuple[tuple[int, int], ...]) -> list[tuple[Span, ...]]:
    """Lists of short noun phrases: after a colon (one or more), between dashes or brackets (two or
    more), or a stretch of three or more between commas."""
    out: list[tuple[Span, ...]] = []
    for m in re.finditer(
        r"(?:^|(?P<lead>[:–—(]|\s-\s))(?P<seg>[^:–—()]+?)(?=$|[–—)]|\s-\s|[.?!](?:\s|$))", text
    ):
        seg, base = m.group("seg"), m.start("seg")
        marked = m.group("lead") is not None
        pieces: list[Span] = []
        for part in re.finditer(r"[^,;&+]+", seg):
            for sub in re.split(r"(?i)\s+(?:and|plus|or)\s+", part.group(0)):
                s = re.sub(r"(?i)^(?:and|plus|also|or)\s+", "", sub.strip(" .!?"))
                s = re.sub(r"(?i)^(?:the|a|an|some|my|our)\s+", "", s)
                if not s:
                    continue
                j = text.find(s, base + part.start())
                pieces.append(Span(s, j, j + len(s)))
        pieces = [p for p in pieces if not any(a <= p.start and p.end <= b for a, b in mask)]
        least = 1 if m.group("lead") == ":" else 2 if marked else 3
        if marked:
            # "wagamama: katsu curry and gyoza, no cutlery, leave it at the door", "itsu - nigiri and
            # edamame, no sesame pls": the things, up to the first piece that is a clause or a refusal
            run = list(itertools.takewhile(lambda p: _a_thing(doc, p), pieces))
            pieces = run if run else pieces
        if len(pieces) < least or any(len(p.text.split()) > 5 for p in pieces):
            continue
        inside = [t for t in doc if any(p.start <= t.idx < p.end for p in pieces)]
        if not all(any(t.pos_ in ("NOUN", "PROPN") for t in doc if p.start <= t.idx < p.end) for p in pieces):
            continue  # "..., organic, evening delivery": a piece with no thing in it is no list of things
        if not _things_only(inside):
            continue  # a clause, not a list of things
        out.append(tuple(pieces))
    return out


def _things_only(inside: list[Token]) -> bool:
    """No clause among these tokens (a verb, an auxiliary, a pronoun) and no preposition but "of"."""
    clause = any(
        (t.pos_ in ("AUX", "PRON") and t.tag_ != "PRP$") or t.tag_ in ("VB", "VBD", "VBP", "VBZ")
        for t in inside
    )
    return not clause and not any(t.pos_ == "ADP" and t.lower_ != "of" for t in inside)


def _a_thing(doc: Doc, piece: Span) -> bool:
    """A piece of a list that names a thing: a noun, no clause, no negation."""
    inside = [t for t in doc if piece.start <= t.idx < piece.end]
    if not any(t.pos_ in ("NOUN", "PROPN") for t in inside) or any(t.lower_ in _NEGATORS for t in inside):
        return False
    if inside[0].tag_ in ("VBN", "VBG") and inside[0].dep_ not in ("amod", "compound"):
        return False  # "..., delivered tomorrow morning": a participle's clause, not a thing ("smoked salmon" is)
    return _things_only(inside)


def _negated(doc: Doc) -> frozenset[str]:
    out: set[str] = set()
    for t in doc:  # "text me rather than a notification", "instead of the bus": what is turned down
        if (t.lower_ == "than" and t.i > 0 and doc[t.i - 1].lower_ == "rather") or (
            t.lower_ == "of" and t.i > 0 and doc[t.i - 1].lower_ == "instead"
        ):
            for k in range(t.i + 1, min(t.i + 5, len(doc))):
                if doc[k].is_punct or doc[k].pos_ in ("VERB", "AUX", "CCONJ", "ADP"):
                    break
                if doc[k].pos_ in ("NOUN", "PROPN", "ADJ"):
                    out.add(doc[k].lemma_.lower())
    for t in doc:  # "skip the cutlery", "leave the onions out": the thing left out is turned down
        # (a verb the small tagger calls a noun still has its object: "..., skip breakfast")
        if any(c.dep_ == "neg" or c.lower_ in _NEGATORS for c in t.children):
            continue  # "don't forget the candles", "don't skip the sauce": it is wanted
        if (t.pos_ == "VERB" or any(c.dep_ == "dobj" for c in t.children)) and (
            t.lemma_.lower() in _LEAVE_OUT
            or (t.lemma_.lower() in _LEAVE_OUT_COMMAND and t.tag_ == "VB")
            or (
                t.lemma_.lower() == "leave" and any(c.dep_ == "prt" and c.lower_ == "out" for c in t.children)
            )
        ):
            for c in t.children:
                if c.dep_ == "dobj" and c.pos_ in ("NOUN", "PROPN") and not c.like_num and not c.is_stop:
                    out.add(c.lemma_.lower())  # not "please" in "skip the unpacking please"
                    out |= {g.lemma_.lower() for g in c.children if g.dep_ in ("compound", "amod")}
                    out |= _refused_with(c)
                    out |= {j.lemma_.lower() for j in c.conjuncts if _bare_conjunct(j)}
    for t in doc:
        if t.lower_ in _NEGATORS or t.dep_ == "neg":
            # a preposition of leaving out governs what follows it, whatever the tagger hangs it on
            head = (
                t.head if t.dep_ in ("det", "neg", "advmod") and t.lower_ not in ("without", "minus") else t
            )
            if head.lemma_.lower() in _LEAVE_OUT | _LEAVE_OUT_COMMAND | {"miss"}:
                continue  # "don't forget the candles": two turnings-down make a wish
            after = _contrasted(t)
            if after:  # "aisle seat, not the window": the thing after "not" is turned down, not the seat
                out |= after
                continue
            if t.lower_ in ("no", "without", "minus", "nothing", "none"):
                for k in range(t.i + 1, min(t.i + 5, len(doc))):
                    nxt = doc[k]
                    if nxt.pos_ == "DET" and t.lower_ in ("without", "minus") and k == t.i + 1:
                        continue  # "minus the milk", "without the crusts"
                    if nxt.is_punct or nxt.pos_ not in ("NOUN", "PROPN", "ADJ"):
                        break  # "nothing that takes ...": a clause, not a thing refused
                    out.add(nxt.lemma_.lower())
                    out |= _refused_with(nxt)
            out.add(head.lemma_.lower())
            if head.lemma_.lower() in _NEEDS:
                # "no need for breakfast", "breakfast not needed", "parking isn't required": what is needed
                # is what is turned down
                for c in head.children:
                    things = [c] if c.dep_ in ("nsubj", "nsubjpass") else []
                    if c.dep_ == "prep" and c.lower_ in ("for", "of"):
                        things = [g for g in c.children if g.dep_ == "pobj"]
                    for g in things:
                        if g.pos_ in ("NOUN", "PROPN") and not g.like_num:
                            out.add(g.lemma_.lower())
                            out |= {x.lemma_.lower() for x in g.children if x.dep_ in ("compound", "amod")}
                k = t.i - 1 if t.lower_ in ("not", "n't") else -1
                while k >= 0 and doc[k].pos_ == "AUX":
                    k -= 1  # "parking isn't needed"
                while k >= 0 and doc[k].pos_ in ("NOUN", "PROPN") and t.i > head.i - 3:
                    out.add(doc[k].lemma_.lower())  # "- bike rack not needed": the words right before it
                    k -= 1
            for c in head.children:
                if t.lower_ in ("without", "minus") and c.i < t.i:
                    continue  # "a large pepperoni minus the olives": what comes before is kept
                if c.dep_ in ("dobj", "attr", "acomp", "xcomp", "compound", "amod"):
                    out.add(c.lemma_.lower())
                    out |= {g.lemma_.lower() for g in c.children if g.dep_ in ("compound", "amod")}
                # "he doesn't get on with the generic", "not keen on the decaf": a phrasal verb's or a
                # quality's preposition takes the thing turned down
                phrasal = any(g.dep_ == "prt" for g in head.children)
                preps = [c] if c.dep_ == "prep" and phrasal else []
                preps += [head] if head.dep_ == "prep" and c.dep_ == "pobj" and head not in preps else []
                preps += [g for g in c.children if g.dep_ == "prep"] if c.dep_ == "acomp" else []
                for prep in preps:
                    for thing in prep.children:
                        if (
                            thing.dep_ == "pobj"
                            and thing.pos_ in ("NOUN", "PROPN", "ADJ")
                            and not thing.like_num
                        ):
                            out.add(thing.lemma_.lower())
                            out |= {
                                g.lemma_.lower() for g in thing.children if g.dep_ in ("compound", "amod")
                            }
    return frozenset(out - _NEGATORS)


# the words of needing (a closed class): what a negated need governs is turned down
_NEEDS = frozenset({"need", "require", "necessary", "needed", "required"})


def _refused_with(thing: Token) -> set[str]:
    """What is coordinated right after a thing refused ("no mushrooms or coconut", "no peppers, mushrooms
    or olives"): the conjuncts joined to it by "or", "and" or commas alone, up to anything else."""
    doc, out = thing.doc, set()
    conjuncts = {c.i for c in thing.conjuncts}
    for k in range(thing.i + 1, min(thing.i + 12, len(doc))):
        tok = doc[k]
        if tok.text == "," or tok.lower_ in ("or", "and", "nor"):
            continue
        if tok.i in conjuncts and tok.pos_ in ("NOUN", "PROPN") and not tok.is_stop:
            out.add(tok.lemma_.lower())
            continue
        if (
            tok.pos_ in ("ADJ", "NOUN", "PROPN")
            and tok.head.i in conjuncts
            and tok.dep_ in ("amod", "compound")
        ):
            continue  # "no prawns or green peppers": a word of the next thing
        break
    return out


def _contrasted(t: Token) -> set[str]:
    """The words of the thing a "not" turns down when it stands after what it contrasts with ("a window
    seat - not the middle"): the tagger hangs it on the thing before; the negated phrase follows it."""
    doc = t.doc
    if t.lower_ not in ("not", "n't") or t.head.i >= t.i:
        return set()
    if t.head.pos_ not in ("NOUN", "PROPN") and not any(doc[k].is_punct for k in range(t.head.i, t.i)):
        return set()
    words: set[str] = set()
    for k in range(t.i + 1, min(t.i + 5, len(doc))):
        nxt = doc[k]
        if nxt.pos_ == "DET":
            continue
        if nxt.is_punct or nxt.pos_ not in ("NOUN", "PROPN", "ADJ"):
            break
        words.add(nxt.lemma_.lower())
    return words


def _bare_conjunct(t: Token) -> bool:
    """A word joined to a noun with nothing of its own, whatever the small tagger calls it: "leave out
    pork and shellfish" (tagged a verb), not "... and shellfish is fine"."""
    return t.dep_ == "conj" and not t.is_stop and not t.like_num and not list(t.children)


def _refused(doc: Doc, text: str) -> tuple[Span, ...]:
    """The nouns among what a negation governs ("no lilies", "without onions or garlic")."""
    lemmas = _negated(doc)
    out = [
        Span(text[t.idx : t.idx + len(t.text)], t.idx, t.idx + len(t.text))  # the user's own casing
        for t in doc
        if (t.pos_ in ("NOUN", "PROPN") or (_bare_conjunct(t) and t.head.pos_ in ("NOUN", "PROPN")))
        and t.lemma_.lower() in lemmas
        and not t.like_num
    ]
    return tuple(out)


def _written_to(doc: Doc, text: str) -> Span | None:
    """Who a message is for: a person named as the first verb's object ("Email Marco that ...", "text
    Priya") or after "to" with that verb ("write to Ana"); a name, never a pronoun. The parse as a command
    is read too: a tagger takes "Email Marco" for a name."""
    from ibachat.agent.reading.parse import imperative_parse

    del doc
    for parsed, shift in ((imperative_parse(text), len("please ")),):
        for t in parsed:
            if t.pos_ != "VERB":
                continue
            for c in t.children:
                person = c.ent_type_ == "PERSON" or (c.pos_ == "PROPN" and c.text[:1].isupper())
                if c.dep_ in ("dobj", "dative") and person and c.i > t.i:
                    return _name_span(c, text, shift)
                if c.dep_ == "dative" and c.pos_ in ("NOUN", "PROPN") and c.i > t.i:
                    return _name_span(c, text, shift)  # "shoot jess an email": whom it is sent to
                if c.dep_ == "dobj":  # "draft a formal email to Dr Patel"
                    for p in c.children:
                        if p.dep_ == "prep" and p.lower_ == "to":
                            for o in p.children:
                                if o.dep_ == "pobj" and (o.ent_type_ == "PERSON" or o.pos_ == "PROPN"):
                                    return _name_span(o, text, shift)
                if c.dep_ in ("prep", "dative") and c.lower_ == "to":
                    for o in c.children:
                        if o.dep_ == "pobj" and (o.ent_type_ == "PERSON" or o.pos_ == "PROPN"):
                            return _name_span(o, text, shift)
            objects = [c for c in t.children if c.dep_ == "dobj"]
            if len(objects) == 2 and objects[0].pos_ in ("NOUN", "PROPN"):
                return _name_span(
                    objects[0], text, shift
                )  # "shoot jess an email": the first is whom it is for
            break  # the request's first verb only
    return _message_to(text)


# How a message is named (a closed class): "an email to my landlord", "a note to Grandma".
_MESSAGE_NOUNS = frozenset({"email", "e-mail", "text", "mail", "note", "message", "letter", "line", "reply"})
_TO_END = frozenset({"about", "saying", "that", "subject", "asking", "thanking", "telling", "re", "regarding", "for",
                     "on", "at", "in", "with", "and", "to", "by", "from", "please", "pls", "tomorrow", "today",
                     "tonight"})  # fmt: skip


def _message_to(text: str) -> Span | None:
    """Whom a message is for when the parse says no name: what follows "to" after the word for the
    message ("a warm note to Grandma", "an email to the team about ..."), or the one told in "let Sarah
    know" and "shoot Tom an email": up to five words, up to a clause word, a day or a stop."""
    m = re.search(r"\b[Ll]et\s+([A-Z][\w'-]*(?:\s+[A-Z][\w'-]*)?)\s+know\b", text)
    if m:  # a capitalised name: never "let me know"
        return Span(m.group(1), m.start(1), m.end(1))
    nouns = "|".join(sorted(_MESSAGE_NOUNS, key=len, reverse=True))
    m = re.search(rf"(?i)\b(?:{nouns})s?\s+to\s+", text)
    if m is None:
        m2 = re.search(rf"\b(?:shoot|drop|send|fire|ping|write)\s+([A-Z][\w'-]*)\s+(?:an?\s+)?(?:\w+\s+)?(?:{nouns})\b",
                       text, re.I)  # fmt: skip
        if m2 and m2.group(1)[:1].isupper() and m2.group(1).lower() not in ("me", "us", "a", "an", "the"):
            return Span(m2.group(1), m2.start(1), m2.end(1))
        return None
    words = list(re.finditer(r"[\w.'&-]+", text[m.end() :]))
    picked: list[re.Match[str]] = []
    for w in words[:5]:
        gap = text[m.end() + (picked[-1].end() if picked else 0) : m.end() + w.start()]
        if picked and gap.strip():
            break  # a comma, a dash or a bracket ends it
        if w.group(0).lower() in _TO_END or re.fullmatch(r"\d.*", w.group(0)):
            break
        picked.append(w)
    if not picked or all(w.group(0).lower() in DETERMINERS for w in picked):
        return None
    a, b = m.end() + picked[0].start(), m.end() + picked[-1].end()
    body = text[a:b].rstrip(".")
    owner = re.fullmatch(rf"(?i)(.+?)['’]s\s+(?:{nouns})s?", body)
    if owner:  # "reply to Tomás's email": Tomás, whose email it answers
        body = owner.group(1)
    return Span(body, a, a + len(body))


def _name_span(t: Token, text: str, shift: int = 0) -> Span:
    left = t
    while left.i > 0 and t.doc[left.i - 1].dep_ == "compound" and t.doc[left.i - 1].pos_ == "PROPN":
        left = t.doc[left.i - 1]
    right = t
    while (
        right.i + 1 < len(t.doc) and t.doc[right.i + 1].ent_iob_ == "I" and t.doc[right.i + 1].pos_ == "PROPN"
    ):
        right = t.doc[right.i + 1]
    a, b = left.idx - shift, right.idx + len(right.text) - shift
    return Span(text[a:b], a, b)


def _company(doc: Doc, text: str) -> list[Span]:
    out = []
    for t in doc:
        if t.lower_ != "with":
            continue
        for c in t.children:
            if any(d.dep_ == "det" for d in c.children) or any(d.dep_ == "amod" for d in c.children):
                continue  # "with the subject Invoice 42": a thing, not a person
            if c.dep_ == "pobj" and (c.ent_type_ == "PERSON" or (c.pos_ == "PROPN" and c.text[:1].isupper())):
                for h in _conjuncts(c):
                    a = h.left_edge.idx if h.left_edge.pos_ == "PROPN" else h.idx
                    b = h.idx + len(h.text)
                    out.append(Span(text[a:b], a, b))
    return out


# between a thing asked for and a list that spells it out: a particle and a dash or a colon
_SPELLED_OUT = re.compile(r"(?i)\s*(?:in|up|out|sorted|done|for me)?\s*[—–:-]\s*")


@lru_cache(maxsize=2048)
def read_frame(text: str) -> Frame:
    """The request's stated spans (see the module's docstring); cached per text."""
    from ibachat.agent.reading.acts import truecased
    from ibachat.agent.reading.parse import parse

    text = text[:2000]
    doc = parse(truecased(text))  # same offsets: "flight dublin to lisbon" has its places as names
    mask = _when_mask(text, doc)
    places, phrases = _places_and_phrases(doc, text, mask)
    objects, heads, verb_at = _verb_objects(text)
    quotes = [(m.start(), m.end()) for m in _QUOTED.finditer(text)]
    # a list inside quoted words ("saying 'network: Fernhouse, pw: blue22'") is what is to be said
    lists = [g for g in _lists(text, doc, mask) if not any(a <= g[0].start < b for a, b in quotes)]
    first_verb = next((t.idx for t in doc if t.pos_ == "VERB" and t.dep_ not in ("aux", "auxpass")), -1)
    asked = verb_at >= 0 and (verb_at <= first_verb or first_verb < 0)  # the request's own verb's objects
    if asked and any(0 <= text.rfind(":", 0, group[0].start) and group[-1].end < verb_at for group in lists):
        asked = False  # "groceries: eggs, bananas. make the milk oat": the list said first is what is asked
    spelled = next(
        (
            group
            for group in lists
            if objects and len(group) >= 2 and _SPELLED_OUT.fullmatch(text[objects[0].end : group[0].start])
        ),
        None,
    )
    if asked and spelled is not None and all(o.start >= spelled[0].start for o in objects[1:]):
        # "get my weekly shop in — rice, lentils, onions", "order the big monthly shop: pasta, beans and
        # tabs": the list says what the shop is (the parse may have joined the list to it)
        asked = False
        objects = objects[:1]
    things = (
        ([tuple(objects)] if objects and asked else [])
        + lists
        + ([tuple(objects)] if objects and not asked else [])
    )
    return Frame(
        text=text,
        when_mask=mask,
        places=tuple(places),
        amounts=tuple(a for a in _amounts(doc, text, mask) if not _some_of_us(doc, a.span)),
        labelled=_labelled(doc, text, mask),
        things=tuple(things),
        objects_asked=asked,
        verb_objects=tuple(objects),
        object_heads=tuple(heads),
        negated=_negated(doc),
        refused=_refused(doc, text),
        written_to=_written_to(doc, text),
        owned=_owned(doc, text),
        emails=tuple(_EMAIL.findall(text)),
        company=tuple(_company(doc, text)),
        phrases=tuple(phrases),
        ranges=_ranges(text, mask, doc),
        lemmas=tuple(t.lemma_.lower() for t in doc),
    )
