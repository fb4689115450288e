"""The records a request's frame is made of: a span of its words, a place with its preposition and role, an
amount with its unit, and the frame itself.

Part of ``reading/frame.py``, whose ``read_frame`` puts the parts together."""

from __future__ import annotations

from dataclasses import dataclass, field


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
