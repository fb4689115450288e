"""Amounts in a request: numbers in digits and words, their units (time, money, percent, distance,
measures), ranges, rates and comparators, counts of people.

Part of ``reading/frame.py``, whose ``read_frame`` puts the parts together."""

from __future__ import annotations

import re
from dataclasses import replace
from typing import TYPE_CHECKING

from ibachat.agent.reading.framing.places import told_past
from ibachat.agent.reading.framing.records import Amount, Span
from ibachat.agent.reading.framing.words import (
    _CURRENCY_SIGNS,
    _CURRENCY_WORDS,
    _DISTANCE,
    _LOWER,
    _PEOPLE_WORDS,
    _UPPER,
    _WORD_NUMBERS,
)
from ibachat.agent.reading.units import TIME_UNITS as _TIME_UNITS

if TYPE_CHECKING:
    from spacy.tokens import Doc, Token


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
            # a code before a plural noun is the thing's kind: "500 A5 flyers", "2 HDMI cables" are counted
            and not (noun and tokens[k - 1].tag_ == "NNS" and re.search(r"\d|^[A-Z]{2,}$", tokens[j].text))
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


# the short forms of a span of time that are written onto the number ("1hr", "90mins", "2wks")
_JOINED_TIME = frozenset({"h", "hr", "hrs", "min", "mins", "wk", "wks"})


def _joined_measure(t: Token) -> tuple[float, str] | None:
    joined = re.fullmatch(r"(\d+(?:\.\d+)?)([a-z]{1,6})", t.lower_)
    if joined and joined.group(2) in _JOINED_TIME:
        return float(joined.group(1)), _TIME_UNITS[joined.group(2)]
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
