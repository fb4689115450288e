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

from ibachat.agent.reading.clauses import is_question

_ORDINALS = {
    "first": 1, "1st": 1, "one": 1, "second": 2, "2nd": 2, "two": 2, "third": 3, "3rd": 3, "three": 3,
    "fourth": 4, "4th": 4, "four": 4, "fifth": 5, "5th": 5, "five": 5, "last": -1, "former": 1, "latter": -2,
    "middle": -3,
}  # fmt: skip
_LETTERS = "abcdef"

_LINE = re.compile(
    r"^\s*(?:\(?(\d{1,2}|[a-fA-F])[.)]|[-*•]|option\s+([a-fA-F1-9])\s*[:.)-])\s+(.{3,400})$", re.M | re.I
)
_MARKER = re.compile(
    r"(?:(?<=\s)|(?<=^)|(?<=[:;,]))(?:\(?(\d|[a-fA-F])\)|(\d)\.(?=\s+\S)|option\s+([a-fA-F1-9])\s*[:.)-])\s+",
    re.I,
)
_LIST_END = re.compile(r"(?<=[^\s.])[.?!](?:\s|$)|\s+[-–—]\s+")
_SEP = re.compile(r"\s*[,;]\s*(?:or\s+|and\s+)?|\s+or\s+", re.I)
_OR = re.compile(r"(?:,|\s)\s*or\s+", re.I)
_TRIM = re.compile(r"^(?:or|and|either)\s+|[\s,;:.]+$|\s+(?:or|and)$", re.I)
_EITHER = re.compile(r"\beither\s+", re.I)
# a turn that puts choices to the user: it asks, or offers ("I can book A, B or C")
_OFFERING = re.compile(r"\b(?:i|we|you) (?:can|could)\b|\bshall i\b|\bwant me to\b|\bhappy to\b", re.I)
# the words that open a phrase parallel to the next one ("at X ... or at Y", "Warmwise on the 3rd or
# EcoLoft on the 10th"): a list's first item starts where it matches the next item's first word, or
# one word before its second word when that is one of these
_LINKS = frozenset("at on in for with by from to of via".split())
MAX_OPTION_WORDS = 16


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
    """The options an assistant's turn lays out, in order (None when it lays out fewer than two).

    By layout: one option per line; numbered or lettered markers in the text; a list after a colon;
    else alternatives joined by "or" in a turn that asks something or says "either", whose first
    option starts where it runs parallel to the next ("at Halford Road on Thursday or at QuickFit on
    Friday", "Warmwise on the 3rd or EcoLoft on the 10th")."""
    text = assistant_text.strip()
    lines = [((m.group(1) or m.group(2) or ""), _tidy(m.group(3))) for m in _LINE.finditer(text)]
    if len(lines) >= 2:
        return Offer([o for _, o in lines][:10], all(k.isalpha() for k, _ in lines))
    marks = list(_MARKER.finditer(text))
    keys = [(m.group(1) or m.group(2) or m.group(3) or "").lower() for m in marks]
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
    asks = "?" in text or bool(_OFFERING.search(text))
    colon = _colon(text, 0)
    while colon >= 0:
        tail = _until_end(text[colon + 1 :])
        if _OR.search(tail) or asks:
            parts = [p for p in (_tidy(p) for p in _split(tail)) if p]
            if 2 <= len(parts) <= 6 and all(len(p.split()) <= MAX_OPTION_WORDS for p in parts):
                return Offer(parts)
        colon = _colon(text, colon + 1)
    for sentence in re.split(r"(?<=[.?!])\s+", text):
        if _OR.search(sentence) and (asks or _EITHER.search(sentence)):
            parts = _alternatives(sentence.rstrip(" ?.!"))
            if parts:
                return Offer(parts)
    return None


def _split(text: str) -> list[str]:
    """``text`` cut at the commas, semicolons and "or"s outside brackets; what follows the last "or"
    is one option ("..., or a full plot with a shed, £70 a year")."""
    segments, seps = _cut(text)
    last_or = max((k for k, sep in enumerate(seps) if "or" in sep.lower().split()), default=None)
    if last_or is not None and last_or + 2 < len(segments):
        segments = segments[: last_or + 1] + [", ".join(s.strip() for s in segments[last_or + 1 :])]
    return segments


def _cut(text: str) -> tuple[list[str], list[str]]:
    out: list[str] = []
    seps: list[str] = []
    depth, start = 0, 0
    i = 0
    while i < len(text):
        ch = text[i]
        depth += ch in "([{"
        depth -= ch in ")]}" and depth > 0
        if depth == 0:
            m = _SEP.match(text, i)
            if m and m.end() > i and (ch in ",;" or text[i].isspace()):
                out.append(text[start:i])
                seps.append(m.group(0))
                start = i = m.end()
                continue
        i += 1
    out.append(text[start:])
    return out, seps


def _word(w: str) -> str:
    w = w.lower()
    return "a" if w == "an" else w


def _align(words: list[str], nxt: list[str]) -> int | None:
    """Where, in ``words``, a phrase parallel to ``nxt`` starts (the nearest to its end) (None: nowhere)."""
    low = [_word(w) for w in words]
    first = _word(nxt[0])
    second = _word(nxt[1]) if len(nxt) > 1 else ""
    for p in range(len(low) - 1, -1, -1):
        if low[p] == first:
            return p
        if p >= 1 and second in _LINKS and low[p] == second:
            return p - 1
    return None


def _alternatives(sentence: str) -> list[str] | None:
    """The options of "A, B, or C" / "either A or B" in one sentence (None when they are not clear)."""
    m = _EITHER.search(sentence)
    body = sentence[m.end() :] if m else sentence
    segments = [s.strip() for s in _split(body)]
    if len(segments) < 2 or not all(segments):
        return None
    items = [segments[-1]]
    for j in range(len(segments) - 2, -1, -1):
        words = segments[j].split()
        if m and j == 0:
            items.insert(0, segments[j])  # "either" said where the first option starts
            break
        p = next((q for q in (_align(words, i.split()) for i in items) if q is not None), None)
        if p == 0:
            items.insert(0, segments[j])
            continue
        if p is not None:
            items.insert(0, " ".join(words[p:]))
            break
        if j > 0 and len(words) <= MAX_OPTION_WORDS:
            items.insert(0, segments[j])  # an unparallel middle item ("by email, by text, or as a push")
            continue
        items.insert(0, " ".join(words[-(len(items[0].split()) + 1) :]))  # about as long as its partner
        break
    items = [_tidy(i) for i in items]
    if len(items) < 2 or not all(items) or any(len(i.split()) > MAX_OPTION_WORDS for i in items):
        return None
    return items


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
_REFUSAL = re.compile(
    r"\b(?:none|neither)\b|\bnot (?:sure|keen on any|really|yet)\b"
    r"|\b(?:let me|i'll|i will|i need to|gotta|have to) (?:check|ask|think|see|sleep on|mull)\b"
    r"|\bcheck with\b|\bget back to you\b|\bthink about it\b"
)  # a refusal, or a choice put off ("let me check with my wife first")
_POS = r"(first|second|third|fourth|fifth|last|former|latter|middle|1st|2nd|3rd|4th|5th)"
_BY_POSITION = re.compile(
    r"\b(?:option|number|no\.?|#|choice)\s*(\d{1,2}|one|two|three|four|five|[a-f])\b"
    rf"|\bthe\s+{_POS}\b(?=\s*(?:one|option|choice|idea|slot|pick|of|please|pls|thanks|sounds|looks|is|for|[.,!;-]|$))"
    rf"|\b{_POS}\s+(?:one|option|choice|idea|slot|pick|of (?:those|them|these))\b"
    rf"|^\W*{_POS}\b(?=\W*(?:please|pls|thanks|ta|!|\.|$))"
)  # "first" as an adverb ("let me ask her first") refers to no option
_LONE_KEY = re.compile(
    r"^\W*(?:(?:go|going|i'll go|i'd go|let's go|lets go) with |(?:i'll|i'd) take |take )?\(?([a-f1-9])\)?(?:\W|$)"
)

# measures an option may carry, and the comparatives that pick by them: +1 the most, -1 the least
_MEASURES: dict[str, dict[str, int]] = {
    "price": {w: +1 for w in "expensive pricier priciest dearer dearest costlier".split()}
    | {w: -1 for w in "cheap cheaper cheapest inexpensive affordable budget".split()},
    "time": {w: +1 for w in "late later latest".split()}
    | {w: -1 for w in "early earlier earliest soon sooner soonest".split()},
    "length": {w: +1 for w in "long longer longest lengthy".split()}
    | {w: -1 for w in "short shorter shortest brief".split()},
    "distance": {w: +1 for w in "far farther farthest further furthest".split()}
    | {w: -1 for w in "near nearer nearest close closer closest".split()},
    # only with the noun it measures ("the lower excess", "the biggest storage")
    "amount": {w: +1 for w in "higher highest bigger biggest larger largest more most".split()}
    | {w: -1 for w in "lower lowest smaller smallest less least fewer fewest".split()},
}
_PRICE = re.compile(
    r"[£$€]\s?(\d[\d,]*(?:\.\d+)?)|(\d[\d,]*(?:\.\d+)?)\s?(?:pounds|dollars|euros|quid|bucks)\b"
)
_CLOCK = re.compile(r"\b(\d{1,2})(?:[:.](\d{2}))?\s*(am|pm)?\b")
_AWAY = re.compile(r"(\d+(?:\.\d+)?)\s*(?:mins?|minutes?|miles?|km|kilometres?|metres?|m)\b")
_DAY_OF_MONTH = re.compile(r"\b(\d{1,2})(?:st|nd|rd|th)\b")
_NUMBER = re.compile(r"\d+(?:\.\d+)?")
# "the best rated", "highest-rated", "top reviewed": by the rating each option shows ("4.6★", "4.2/5")
_RATED = re.compile(r"\b(?:best|highest|top|better)[- ]?(?:rated|reviewed|review|rating|ratings|reviews)\b")
_RATING = re.compile(r"(\d(?:\.\d)?)\s*(?:★|\*|/\s?5|stars?)")
_DESCRIBED = re.compile(
    r"\b(?:the|that)\s+one\s+(?:where|with|that|which|who|in|on|at|near|by|for|without|you said)\b\s*(?P<d>[^.!?;,]{2,80})"
    r"|\bthe\s+(?P<adj>[a-z][a-z-]{2,20})\s+one\b"
)
_WORD = re.compile(r"[a-z][a-z']{2,}")
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
    m = _DAY_OF_MONTH.search(option)  # "Warmwise on the 3rd or EcoLoft on the 10th": the sooner day
    return float(m.group(1)) * 24 * 60 if m else None


def _length(option: str) -> float:
    words = _PRICE.sub(" ", option)
    return float(len(re.findall(r"\w+", words)))


def _distance(option: str) -> float | None:
    m = _AWAY.search(option)
    return float(m.group(1)) if m else None


_MEASURE_OF = {
    "price": _price,
    "time": _clock,
    "length": _length,
    "distance": _distance,
    "amount": lambda o: None,
}


def _of_noun(noun: str, option: str) -> float | None:
    """The number an option gives its ``noun`` ("12 month contract" for "contract"), if it names it."""
    low = option.lower()
    at = re.search(rf"\b{re.escape(noun)}", low)
    if not at:
        return None
    before = _NUMBER.findall(low[max(0, at.start() - 24) : at.start()])
    return float(before[-1]) if before else None


def _the_most(vals: list[float], most: bool) -> int | None:
    target = max(vals) if most else min(vals)
    return vals.index(target) if vals.count(target) == 1 else None


def _by_measure(reply: str, options: list[str]) -> int | None:
    if _RATED.search(reply):
        ratings = [_RATING.search(o) for o in options]
        if all(ratings):
            return _the_most([float(r.group(1)) for r in ratings if r], True)
    for m in _WORD.finditer(reply):
        word = m.group(0)
        for measure, words in _MEASURES.items():
            if word not in words or _negated_near(reply, m.start()):
                continue
            noun = _WORD.match(reply, m.end() + 1) if reply[m.end() : m.end() + 1] == " " else None
            if noun and noun.group(0) not in ("one", "ones", "option") and len(noun.group(0)) > 3:
                by_noun = [_of_noun(_stem(noun.group(0)), o) for o in options]  # "the shortest contract"
                if all(v is not None for v in by_noun):
                    return _the_most([float(v) for v in by_noun if v is not None], words[word] > 0)
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
        own = {w for w in words if not any(_same_root(w, x) for x in others)}
        hits.append(sum(1 for w in said if any(_same_root(w, x) for x in own)))
    named = [i for i, h in enumerate(hits) if h]
    if len(named) == 1:
        return named[0]
    ranked = sorted(range(len(hits)), key=lambda i: -hits[i])  # clearly more of one's own words
    if len(named) > 1 and hits[ranked[0]] >= 2 and hits[ranked[0]] >= 2 * hits[ranked[1]]:
        return ranked[0]
    return None


_CLAUSE_START = re.compile(r".*(?:[,;.!?]|\b(?:and|but|so|because|cos|though)\b)", re.S)


def _same_root(a: str, b: str) -> bool:
    """One word, spelt out or inflected otherwise ("dancing" and "dance")."""
    if a == b:
        return True
    short, long_ = (a, b) if len(a) <= len(b) else (b, a)
    k = 0
    while k < len(short) and short[k] == long_[k]:
        k += 1
    return k >= 4 and k >= len(short) - 1


def _negated_near(reply: str, start: int) -> bool:
    """A negation earlier in the same clause ("i'm not paying for daycare")."""
    head = reply[:start]
    m = _CLAUSE_START.match(head)
    return bool(_NEG.search(head[m.end() :] if m else head))


def picked(reply: str, offer: Offer) -> Pick | None:
    """Which offered option ``reply`` takes, and how it said so (None: it takes none)."""
    said = reply.lower().strip()
    options = offer.options
    if not said or len(options) < 2 or _REFUSAL.search(said) or is_question(said):
        return None  # "which one has the most data?" asks about them; it takes none
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
        elif len(word) == 1 and word in _LETTERS:  # "option b" names a letter, lettered or not
            n = _LETTERS.index(word) + 1 if offer.lettered or m.group(1) else 0
        else:
            n = _ORDINALS.get(word, 0)
        if word == "latter" and len(options) == 2:
            n = 2
        elif word == "latter":
            n = 0
        if n == -3:  # "the middle one" of an odd number
            n = len(options) // 2 + 1 if len(options) % 2 else 0
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
    if m and len(options) == 2 and _NEG.search(m.group(0)):
        # "the one where i don't have to drive": of two, the one without what is turned down
        i = _by_word(_NEG.sub(" ", m.group(0)), options)
        if i is not None:
            return Pick(1 - i, "word")
    return None
