"""Options the assistant offered, and which one the user's reply took.

An offer is read from the assistant's own turn by its layout, not its words: numbered or lettered
markers ("(1) ... (2) ...", "a) ... b) ..."), one option per line, or a list of alternatives after
a colon ("three openings: A, B, or C"). A reply takes an option

- by position: "the second one", "option b", "the last", "the former";
- by a measure every option carries, through a comparative or superlative of that measure: price
  ("the cheapest"), clock time ("the later one"), length ("the long one");
- by a word that names one option and no other ("saturday please", "the estate");
- by description ("the one where I'm sat down"): the description is returned, and the option is
  chosen by meaning where an embedder is at hand (``agent/ingest.py``), or not at all.

A negated reference ("not the first one") takes nothing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_ORDINALS = {
    "first": 1, "1st": 1, "one": 1, "second": 2, "2nd": 2, "two": 2, "third": 3, "3rd": 3, "three": 3,
    "fourth": 4, "4th": 4, "four": 4, "fifth": 5, "5th": 5, "five": 5, "last": -1, "former": 1, "latter": -2,
}  # fmt: skip
_LETTERS = "abcdef"

_LINE = re.compile(r"^\s*(?:\(?(\d{1,2}|[a-f])[.)]|[-*•])\s+(.{3,400})$", re.M)
_MARKER = re.compile(r"(?:(?<=\s)|(?<=^)|(?<=[:;,]))\(?(\d|[a-f])\)\s+")
_LIST_END = re.compile(r"(?<=[^\s.])[.?!](?:\s|$)|\s+[-–—]\s+")
_SPLIT = re.compile(r"\s*[,;]\s*(?:or\s+|and\s+)?|\s+or\s+")
_OR = re.compile(r"(?:,|\s)\s*or\s+")
_TRIM = re.compile(r"^(?:or|and|either)\s+|[\s,;:.]+$|\s+(?:or|and)$")


@dataclass(frozen=True)
class Offer:
    options: list[str]
    lettered: bool = False


def _tidy(option: str) -> str:
    o = option.strip()
    for _ in range(2):
        o = _TRIM.sub("", o).strip().strip("'\"‘’“”").strip()
    return o


def _until_end(text: str) -> str:
    m = _LIST_END.search(text)
    return text[: m.start()] if m else text


def offered(assistant_text: str) -> Offer | None:
    """The options an assistant's turn lays out, in order (None when it lays out fewer than two)."""
    text = assistant_text.strip()
    lines = [(m.group(1) or "", _tidy(m.group(2))) for m in _LINE.finditer(text)]
    if len(lines) >= 2:
        return Offer([o for _, o in lines][:10], all(k.isalpha() for k, _ in lines))
    marks = list(_MARKER.finditer(text))
    keys = [m.group(1) for m in marks]
    run = _in_order(keys)
    if run >= 2:
        marks = marks[:run]
        parts = []
        for i, m in enumerate(marks):
            end = marks[i + 1].start() if i + 1 < len(marks) else len(text)
            piece = text[m.end() : end]
            parts.append(_tidy(_until_end(piece) if i + 1 == len(marks) else piece))
        if all(parts):
            return Offer(parts, keys[0].isalpha())
    colon = _colon(text, 0)
    while colon >= 0:
        tail = _until_end(text[colon + 1 :])
        if _OR.search(tail):
            parts = [_tidy(p) for p in _SPLIT.split(tail)]
            parts = [p for p in parts if p]
            if 2 <= len(parts) <= 6 and all(len(p.split()) <= 12 for p in parts):
                return Offer(parts)
        colon = _colon(text, colon + 1)
    return None


def _colon(text: str, start: int) -> int:
    """The next colon that introduces something (not one inside a clock time, "09:15")."""
    m = re.compile(r":(?!\d)").search(text, start)
    return m.start() if m else -1


def _in_order(keys: list[str]) -> int:
    """How many markers from the first run on as 1, 2, 3... or a, b, c..."""
    if not keys or keys[0] not in ("1", "a"):
        return 0
    seq = "123456789" if keys[0] == "1" else _LETTERS
    n = 0
    while n < len(keys) and n < len(seq) and keys[n] == seq[n]:
        n += 1
    return n


# ---------------------------------------------------------------------------------------------- picks
_NEG = re.compile(r"\b(?:not|never|no|nothing like|anything but|rather not|don't|dont|didn't|isn't|wasn't)\b")
_REFUSAL = re.compile(r"\b(?:none|neither)\b|\bnot (?:sure|keen on any|really)\b")
_POS = r"(first|second|third|fourth|fifth|last|former|latter|1st|2nd|3rd|4th|5th)"
_BY_POSITION = re.compile(
    r"\b(?:option|number|no\.?|#|choice)\s*(\d{1,2}|one|two|three|four|five|[a-f])\b"
    rf"|\bthe\s+{_POS}\b|\b{_POS}\s+(?:one|option|choice|idea|slot|pick|of (?:those|them|these))\b"
    rf"|^\W*{_POS}\b(?=\W*(?:please|pls|thanks|ta|!|\.|$))"
)  # "first" as an adverb ("let me ask her first") refers to no option
_LONE_KEY = re.compile(
    r"^\W*(?:(?:go|going|i'll go|i'd go|let's go|lets go) with |(?:i'll|i'd) take |take )?\(?([a-f1-9])\)?(?:\W|$)"
)

# measures an option may carry, and the comparatives that pick by them: +1 the most, -1 the least
_MEASURES: dict[str, dict[str, int]] = {
    "price": {w: +1 for w in "expensive pricier priciest dearer dearest costlier".split()}
    | {w: -1 for w in "cheap cheaper cheapest inexpensive affordable budget".split()},
    "time": {w: +1 for w in "late later latest".split()} | {w: -1 for w in "early earlier earliest".split()},
    "length": {w: +1 for w in "long longer longest lengthy".split()}
    | {w: -1 for w in "short shorter shortest brief".split()},
}
_PRICE = re.compile(
    r"[£$€]\s?(\d[\d,]*(?:\.\d+)?)|(\d[\d,]*(?:\.\d+)?)\s?(?:pounds|dollars|euros|quid|bucks)\b"
)
_CLOCK = re.compile(r"\b(\d{1,2})(?:[:.](\d{2}))?\s*(am|pm)?\b")
_DESCRIBED = re.compile(
    r"\b(?:the|that)\s+one\s+(?:where|with|that|which|who|in|on|at|near|by|for|without|you said)\b\s*(?P<d>[^.!?;,]{2,80})"
    r"|\bthe\s+(?P<adj>[a-z][a-z-]{2,20})\s+one\b"
)
_WORD = re.compile(r"[a-z][a-z'-]{2,}")
_COMMON = frozenset(
    "the and with for one that this those these you your per each from into near about any some just "
    "please thanks thank sounds good great fine ok okay yes yeah yep sure then also too only".split()
)


@dataclass(frozen=True)
class Pick:
    index: int | None  # the option taken; None with ``described`` set: decide by meaning
    how: str  # position | measure | word | described
    described: str = ""


def _price(option: str) -> float | None:
    m = _PRICE.search(option)
    return float((m.group(1) or m.group(2)).replace(",", "")) if m else None


def _clock(option: str) -> float | None:
    for m in _CLOCK.finditer(option):
        h, mins, ampm = int(m.group(1)), int(m.group(2) or 0), m.group(3)
        if m.group(2) is None and ampm is None:
            continue  # a bare number is no time
        if h > 24 or mins > 59:
            continue
        if ampm == "pm" and h < 12:
            h += 12
        return h * 60 + mins
    return None


def _length(option: str) -> float:
    words = _PRICE.sub(" ", option)
    return float(len(re.findall(r"\w+", words)))


_MEASURE_OF = {"price": _price, "time": _clock, "length": _length}


def _by_measure(reply: str, options: list[str]) -> int | None:
    for m in _WORD.finditer(reply):
        word = m.group(0)
        for measure, words in _MEASURES.items():
            if word not in words or _negated_near(reply, m.start()):
                continue
            values = [_MEASURE_OF[measure](o) for o in options]
            if any(v is None for v in values):
                continue
            vals = [float(v) for v in values if v is not None]
            target = max(vals) if words[word] > 0 else min(vals)
            if vals.count(target) != 1:
                return None
            return vals.index(target)
    return None


def _stem(word: str) -> str:
    w = word.lower().strip("'")
    for suffix in ("ing", "ed", "es", "s"):
        if len(w) > len(suffix) + 3 and w.endswith(suffix):
            return w[: -len(suffix)]
    return w


def _by_word(reply: str, options: list[str]) -> int | None:
    said = {
        _stem(m.group(0))
        for m in _WORD.finditer(reply)
        if m.group(0) not in _COMMON and not _negated_near(reply, m.start())
    }
    owned = [{_stem(w) for w in _WORD.findall(o.lower()) if w not in _COMMON} for o in options]
    hits = []
    for i, words in enumerate(owned):
        others = set().union(*(owned[:i] + owned[i + 1 :]))
        hits.append(len((said & words) - others))
    named = [i for i, h in enumerate(hits) if h]
    return named[0] if len(named) == 1 else None


def _negated_near(reply: str, start: int) -> bool:
    return bool(_NEG.search(reply[max(0, start - 14) : start]))


def picked(reply: str, offer: Offer) -> Pick | None:
    """Which offered option ``reply`` takes, and how it said so (None: it takes none)."""
    said = reply.lower().strip()
    options = offer.options
    if not said or len(options) < 2 or _REFUSAL.search(said):
        return None
    m = _LONE_KEY.match(said)
    if m:
        key = m.group(1)
        n = (
            (_LETTERS.index(key) + 1)
            if key.isalpha() and offer.lettered
            else int(key)
            if key.isdigit()
            else 0
        )
        if 1 <= n <= len(options):
            return Pick(n - 1, "position")
    m = _BY_POSITION.search(said)
    if m and not _negated_near(said, m.start()):
        word = next((g for g in m.groups() if g), "").lower()
        if word.isdigit():
            n = int(word)
        elif len(word) == 1 and word in _LETTERS:
            n = _LETTERS.index(word) + 1 if offer.lettered else 0
        else:
            n = _ORDINALS.get(word, 0)
        if word == "latter" and len(options) == 2:
            n = 2
        elif word == "latter":
            n = 0
        if n == -1:
            return Pick(len(options) - 1, "position")
        if 1 <= n <= len(options):
            return Pick(n - 1, "position")
    i = _by_measure(said, options)
    if i is not None:
        return Pick(i, "measure")
    i = _by_word(said, options)
    if i is not None:
        return Pick(i, "word")
    m = _DESCRIBED.search(said)
    if m and not _negated_near(said, m.start()) and not _NEG.search(m.group(0)):
        return Pick(None, "described", (m.group("d") or m.group("adj") or "").strip())
    return None
