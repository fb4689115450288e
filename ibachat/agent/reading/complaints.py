"""Complaints about an outcome: "the ping came too late", "that table was way too pricey".

A complaint says an amount was off, and which way, without saying the amount: "too ADJ" (the
outcome had too much of what ADJ names) or "not ADJ enough" (too little of it). Which parameter
it bears on, and whether that parameter must go up or down, is decided where the parameter is
known (``alignment/quantity_plan.py``): by the meaning of the adjective against the two poles of
the parameter's own scale ("late" / "early" for a time of day, "long" / "short" for a duration),
so adjectives nobody listed ("tardy", "lengthy", "steep") find their pole by meaning too.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

COMPLAINT_DIM = "open.complaint"  # ledger value "too ADJ" or "not ADJ enough" (``Complaint.label``)

_DEGREE = r"(?:(?:way|far|much|a bit|a little|slightly|rather|just|so|really|a tad|kind of|bit) )?"
_TOO = re.compile(rf"(?<![\w']){_DEGREE}too (?P<adj>[a-z][a-z-]{{2,24}})(?![\w'])")
# "not ADJ enough" after a copula ("wasn't warm enough"), not a verb's ("i don't know enough")
_NOT_ENOUGH = re.compile(
    r"(?:(?<![\w'])not|(?:is|was|are|were|ai)n't) (?:quite |nearly |really )?(?P<adj>[a-z][a-z-]{2,24}) enough(?![\w'])"
)
# "too" as "also", and words after "too" that are not a quality of the outcome
_NOT_QUALITY = frozenset(
    "bad good kind sure well hard the a an and but for me you it to do be nearly quite really remotely near".split()
)
_PRAISE = re.compile(r"\b(?:never|not|isn't|wasn't|can't|cannot) (?:be )?too\b")


@dataclass(frozen=True)
class Complaint:
    adjective: str
    sign: int  # +1: too much of it; -1: not enough of it
    span: str

    @property
    def label(self) -> str:
        return f"too {self.adjective}" if self.sign > 0 else f"not {self.adjective} enough"


def parse_label(label: str) -> tuple[str, int] | None:
    """(adjective, sign) of a complaint's ledger value."""
    m = re.fullmatch(r"too ([a-z][a-z-]*)|not ([a-z][a-z-]*) enough", label)
    if not m:
        return None
    return (m.group(1), 1) if m.group(1) else (m.group(2), -1)


# a comparison with what someone wanted or said would happen: "shorter than i asked for", "later than
# they promised" (closed class: the verbs of wishing, expecting and promising)
_THAN_WISHED = re.compile(
    r"(?<![\w'])(?:(?P<deg>more|less) (?P<adj2>[a-z][a-z-]{2,24})|(?P<adj>[a-z]{3,24}(?:er|ier)))"
    r" than (?:[a-z']+ ){0,3}?(?:wanted|want|asked|expected|hoped|liked|like|needed|need|said|promised|"
    r"booked|ordered|meant|planned|paid for|agreed|thought|imagined)(?![\w'])"
)
# a wish said after the fact: "could have been a lot quieter", "should've been a good bit longer"
_COULD_HAVE = re.compile(
    r"(?<![\w'])(?:could|should|would|might)(?:'ve| have) been (?:[a-z]+ ){0,3}?(?:(?P<deg>more|less) (?P<adj2>[a-z][a-z-]{2,24})|(?P<adj>[a-z]{3,24}(?:er|ier)))(?![\w'])"
)


# an amount complained of without an adjective, against what it was or what was needed: "she needs way
# more than that", "that wasn't nearly enough", "far more than we needed" (closed class: verbs of
# needing and wanting, the words that point back at the outcome)
_NEED = (
    r"(?:needs?|needed|wants?|wanted|could do with|could use|should(?:'ve| have)? (?:had|got|been)|deserves?)"
)
_MORE_THAN_THAT = re.compile(
    rf"(?<![\w']){_NEED} (?:[a-z']+ ){{0,3}}?(?:(?P<deg>more|less)|(?:way |far |much |a lot |a bit )?(?P<adj>[a-z]{{3,24}}(?:er|ier)))"
    r" than (?:that|this|it|what (?:we|i|they|she|he) got)(?![\w'])"
)
_MORE_THAN_NEEDED = re.compile(
    r"(?<![\w'])(?P<deg>more|less) than (?:[a-z']+ ){0,2}?(?:needed|need|wanted|asked for|ordered)(?![\w'])"
)
_NOT_ENOUGH_AT_ALL = re.compile(
    r"(?<![\w'])(?:(?:was|is|were|are|'s|it's|that's) not|wasn't|isn't|weren't|aren't|nowhere near|not nearly"
    r"|not near|n't nearly|not) (?:nearly |near |quite |really |remotely )?enough(?![\w'])"
)

# "a bit much", "a little much", "bit much tbh": more than wanted, said with a degree word and no "too"
_BIT_MUCH = re.compile(r"(?<![\w'])(?:a )?(?:bit|little|tad|touch) much(?![\w'])")

# a wish for next time with a comparative: "next time tell him to leave a fair bit more on", "make it a
# bit earlier next time", "get a bigger one next time": the last outcome was off the other way
NEXT_TIME = re.compile(r"(?<![\w'])(?:next time|next one|from now on|in future|going forward)(?![\w'])")
_MORE_WANTED = re.compile(
    r"(?<![\w'])(?:(?P<deg>more|less)(?: (?P<adj2>[a-z][a-z-]{2,24}))?|(?P<adj>[a-z]{3,24}(?:er|ier)))(?![\w'])"
)


def _next_time(s: str) -> list[Complaint]:
    """Complaints said as a wish for next time: "more" / "less" (of an amount), or a comparative."""
    out: list[Complaint] = []
    if NEXT_TIME.search(s) is None or " than " in s:
        return out  # "more than that" is read as a comparison above
    for m in _MORE_WANTED.finditer(s):
        if m.group("deg"):
            adj = m.group("adj2") or ""
            if adj and NEXT_TIME.match(s, m.start("adj2")):
                adj = ""  # "less next time": the time of the wish, no quality
            if adj and (_base(adj) or adj in _NOT_QUALITY or not _an_adjective(adj)):
                adj = ""  # "more hair", "less sugar": an amount of a thing, not a quality
            if not adj:
                out.append(Complaint("little" if m.group("deg") == "more" else "much", 1, m.group(0)))
            else:
                way = -1 if m.group("deg") == "more" else 1
                out.append(Complaint(adj, way, m.group(0)))
        else:
            adj = _base(m.group("adj"))
            if adj and adj not in _NOT_QUALITY and adj not in ("good", "well", "bad", "much", "little"):
                out.append(Complaint(adj, -1, m.group(0)))
        break  # the first comparative is the wish
    return out


def _an_adjective(word: str) -> bool:
    from lemminflect import getAllLemmas

    return "ADJ" in getAllLemmas(word) or "ADV" in getAllLemmas(word)


def _amounts(s: str) -> list[Complaint]:
    """Complaints of an amount with no adjective: "too little" (more was needed), "too much"."""
    out: list[Complaint] = []
    for pattern, more in ((_MORE_THAN_THAT, -1), (_MORE_THAN_NEEDED, 1)):
        for m in pattern.finditer(s):
            if not m.group("deg"):  # "they need wringing out way harder than that": not hard enough
                adj = _base(m.group("adj") or "")
                if adj and adj not in ("good", "well", "bad", "much", "little"):
                    out.append(Complaint(adj, -1, m.group(0)))
                continue
            want_more = (m.group("deg") == "more") == (more < 0)
            out.append(Complaint("little" if want_more else "much", 1, m.group(0)))
    for m in _NOT_ENOUGH_AT_ALL.finditer(s):
        out.append(Complaint("little", 1, m.group(0)))
    for m in _BIT_MUCH.finditer(s):
        out.append(Complaint("much", 1, m.group(0)))
    return out


def _base(comparative: str) -> str:
    """The dictionary base of a comparative ("spicier": "spicy"); "" for a word that only ends in -er."""
    from lemminflect import getLemma

    for upos in ("ADJ", "ADV"):
        lemmas = getLemma(comparative, upos=upos, lemmatize_oov=False)
        if lemmas and lemmas[0] != comparative:
            return lemmas[0]
    return ""


def _compared(s: str) -> list[Complaint]:
    """Complaints said as a comparison with the wish: +1 "more than wanted", -1 "could have been more"."""
    out: list[Complaint] = []
    for pattern, sign in ((_THAN_WISHED, 1), (_COULD_HAVE, -1)):
        for m in pattern.finditer(s):
            adj = m.group("adj2") if m.group("deg") else _base(m.group("adj") or "")
            if not adj or adj in _NOT_QUALITY or adj in ("good", "well", "bad", "much", "little"):
                continue  # "better than i expected" is praise; "-er" words that are no comparative
            way = -sign if m.group("deg") == "less" else sign
            out.append(Complaint(adj, way, m.group(0)))
    return out


def complaints(sentence: str) -> list[Complaint]:
    """The complaints in one sentence of the user's own words (lower-cased or not)."""
    s = sentence.lower()
    out: list[Complaint] = _compared(s) + _amounts(s) + _next_time(s)
    for m in _TOO.finditer(s):
        adj = m.group("adj")
        if adj in _NOT_QUALITY or _PRAISE.search(s[max(0, m.start() - 16) : m.end()]):
            continue  # "me too", "too much", "you can never be too careful"
        out.append(Complaint(adj, 1, m.group(0).strip()))
    for m in _NOT_ENOUGH.finditer(s):
        if m.group("adj") not in _NOT_QUALITY:
            out.append(Complaint(m.group("adj"), -1, m.group(0)))
    for m in _WAS_NOT.finditer(s):  # "19 is NOT warm", "the water wasn't hot": not ADJ enough
        adj = m.group("adj")
        if adj not in _NOT_QUALITY and adj not in _VERDICTS and _an_adjective(adj) and not _base(adj):
            if not any(c.adjective == adj for c in out):
                out.append(Complaint(adj, -1, m.group(0)))
    return out


# the outcome or its amount said not to be ADJ, the clause ending there: "19 is NOT warm", "it wasn't hot
# at all", "the water was not warm"; not "it's not urgent, but ..." (a verdict, below) nor "not ADJ enough"
_WAS_NOT = re.compile(
    r"(?:(?<![\w'.])\d+(?:\.\d+)?|(?<![\w'])(?:it|that|this)|(?<![\w'])(?:the|that|my)\s+[a-z]+)"
    r"(?:\s+(?:is|was|are|were)\s+not|\s+(?:is|was|are|were)n't|'s\s+not|'s\s+n't)"
    r"\s+(?:even\s+|very\s+|remotely\s+)?(?P<adj>[a-z][a-z-]{2,24})(?=\s*(?:[,.!;:?]|$|\s+(?:at all|and|but|so|either|tho|though)\b))"
)
# adjectives that judge an outcome as a whole, on no scale of a parameter (a closed class)
_VERDICTS = frozenset(
    "bad good great fine okay ok nice terrible awful right wrong ideal perfect acceptable urgent happy "
    "necessary needed required possible available ready".split()
)


# the verb that joins a thing to its complaint: "X are too long", "X gets too loud", "X isn't quick enough"
_JOIN = r"(?:\s+(?:is|are|was|were|feels?|felt|seems?|seemed|gets?|got|tends? to be)|'s|'re|\s+is\s+always|\s+are\s+always)"
_SUBJECT_OF = re.compile(
    rf"^(?P<subj>.+?){_JOIN}(?:\s+(?:just |always |often |usually |getting |still |honestly )?{_DEGREE}too "
    rf"[a-z][a-z-]{{2,24}}|(?:n't|\s+not)\s+(?:quite |nearly |really )?[a-z][a-z-]{{2,24}} enough)(?![\w'])"
)
# words that open a clause inside a sentence: the complained-of thing is in the clause just before its verb
_CLAUSE_BREAK = re.compile(
    r"[,;:]\s*|\s+(?:but|because|since|so|though|although|as|and then)\s+"
    r"|\s+(?:and|or)\s+(?=(?:the|that|this|my|our|it|its|their|his|her)\b)"  # "... and the food was too salty"
)
# a definite thing (one outcome: "the room was too hot") or a person: no standing kind of thing to avoid
_DEFINITE = re.compile(
    r"^(?:the|that|this|those|these|it|its|my|our|your|his|her|their|i|we|you|he|she|they|me|us|them)\b"
)


def complained_subject(sentence: str) -> tuple[str, bool, str] | None:
    """The thing a "too ADJ" / "not ADJ enough" complaint is said of, and whether it is a kind of thing
    (generic: "flights over 5 hours are too long", "anything past 40 minutes is too much") rather than
    one outcome ("the room was too hot"), and the complaint itself ("are too long"). By clause
    structure: the subject of the linking verb the complaint follows, within its own clause."""
    s = sentence.lower().strip()
    if not complaints(s):
        return None
    m = _SUBJECT_OF.search(s)
    if not m:
        return None
    subj = _CLAUSE_BREAK.split(m.group("subj"))[-1].strip()
    if not subj or len(subj.split()) > 12:
        return None
    return subj, not _DEFINITE.match(subj), s[m.end("subj") : m.end()]
