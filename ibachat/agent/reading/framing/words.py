"""The closed classes the frame is read with: prepositions of places, currency and time words, number words,
negators, labels of spans.

Part of ``reading/frame.py``, whose ``read_frame`` puts the parts together."""

from __future__ import annotations

import re
from datetime import date, datetime, timezone
from typing import TYPE_CHECKING

from ibachat.agent.reading.framing.records import Span
from ibachat.agent.reading.when import CLOCK_RANGE, clock_range, read_when

if TYPE_CHECKING:
    from spacy.tokens import Doc

_TO = frozenset({"to", "into", "towards", "toward", "->", "→", "=>"})
_FROM = frozenset({"from"})
_AT = frozenset({"at", "in", "near", "via", "outside"})
_STOP_WORDS = frozenset(
    {"please", "pls", "plz", "asap", "thanks", "thx", "ta", "cheers", "if", "possible", "w/", "w/o"}
)  # "w/", "w/o": "with", "without" as texted
_SOME_DAY = datetime(2026, 1, 5, 12, 0, tzinfo=timezone.utc)  # whether a word says a day at all
_NAME_JOINS = frozenset({"of", "upon", "on", "de", "la", "le", "du", "del", "van", "von", "&", "and", "the"})
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


_JOIN_OPENS = re.compile(r"(?i)(?:to|till|til|until|through|thru)\s+")
_UNTIL_CLAUSE = re.compile(r"(?i)^\s*(?:till|til|until)\s+(?:[\w']+\s+){1,6}?(?:on\s+|by\s+)?$")
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
        joined = _JOIN_OPENS.match(text[a2:b2])
        if joined and not between.strip():  # "from 2 in the afternoon until 6": the join opens the end's span
            between, a2 = between + joined.group(0), a2 + joined.end()
        stay = bool(_STAY_CLOSE.match(between) and _STAY_OPEN.search(text[:a1])) or bool(
            # "from the 27th until we fly home on Jan 2nd": the end is the day of what closes the stretch
            _UNTIL_CLAUSE.match(between)
            and (re.search(r"(?i)\bfrom\s+$", text[:a1]) or re.match(r"(?i)from\s", text[a1:b1]))
        )
        if not (_RANGE_JOIN.match(between) or stay):
            continue
        if not stay and between.strip().lower() == "and" and not re.search(r"(?i)\bbetween\s*$", text[:a1]):
            continue
        first = re.sub(r"(?i)^(?:from|between|on)\s+", "", text[a1:b1].strip())
        if any(r[2].start <= a1 < r[2].end for r in out):
            continue
        out.append((first, text[a2:b2].strip(), Span(text[a1:b2], a1, b2)))
    for a1, b1 in mask:  # "from 2 in the afternoon until 6 on Sunday": a clock's end, bare, after a time
        if any(r[2].start <= a1 < r[2].end for r in out):
            continue
        inner = _INNER_JOIN.search(text, a1, b1)  # or inside one span: "2 in the afternoon until 6"
        end = _BARE_END.match(text, inner.start() if inner else b1)
        if end is None:
            continue
        first = re.sub(r"(?i)^(?:from|between)\s+", "", text[a1 : inner.start() if inner else b1].strip())
        if read_when(first, datetime(2026, 1, 5, 12, 0, tzinfo=timezone.utc)).time is not None:
            out.append((first, end.group(1), Span(text[a1 : end.end()], a1, end.end())))
    return tuple(out)


_INNER_JOIN = re.compile(r"(?i)\s+(?:to|till|til|until)\s+")
_BARE_END = re.compile(
    r"(?i)\s+(?:to|till|til|until)\s+(\d{1,2}(?:[:.]\d{2})?(?:\s*(?:am|pm))?|half\s+[a-z]+|noon|midday|midnight)\b"
)


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
    from ibachat.agent.reading.when import title_runs

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
