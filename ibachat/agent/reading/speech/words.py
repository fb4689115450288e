"""The words a request's act is read with: the request records, which words English has as verbs, names or
past forms (lemminflect), the request classes of verbs (``data/act_verbs.json``) and small helpers over
tokens.

Part of ``reading/acts.py``, whose ``read_act`` reads a message with the parts."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache

from ibachat.agent.reading.parse import parse

# Closed classes.
_DISCOURSE = frozenset(
    "ok okay k so and then also oh ah right alright now well hey hi hello hiya yo um umm hmm btw anyway anyways "
    "just quickly kindly please pls plz actually honestly basically ugh argh sigh yeah yes yep sure cool great "
    "thanks thank cheers morning evening afternoon".split()
)
_POLITE_LEADS = (
    "go ahead and",
    "do me a favour and",
    "do me a favor and",
    "be a dear and",
    "if you could",
    "if you can",
    "when you get a chance",
    "when you can",
)
_MODALS = frozenset({"can", "could", "would", "will", "wo", "ca"})
_YOU = frozenset({"you", "u", "ya", "ye"})
_SELF = frozenset({"i", "we"})
# verbs whose "that" clause puts its verb in the bare (mandative) form: "I request that you send"
_MANDATIVE = frozenset({"request", "ask", "beg", "insist", "require"})
# adjectives of a possibility asked after with a modal ("would it be possible to reserve ...")
_POSSIBLE = frozenset({"possible", "feasible", "doable"})
# verbs of opinion that a question about what "you" could do hangs on, its "do you" left out
# ("reckon you could get us a table?", "think you could grab me a coffee?")
_OPINION = frozenset({"think", "reckon", "suppose", "guess", "imagine", "figure"})
_WANT_VERBS = frozenset({"need", "want", "like", "love", "have", "take", "use", "fancy", "get"})
_NOT_A_VERB = frozenset(
    "i me my mine we us our you your him he his her she they them their it its this that these those the a an "
    "some any there here what how why when where who whom whose which whether if because since although though "
    "while after before not no never nothing everything something anything everyone someone".split()
)
_FREQUENCY = re.compile(
    r"\b(?:always|never|whenever|every\s+time|each\s+time|from\s+now\s+on|in\s+(?:the\s+)?future|"
    r"going\s+forward|by\s+default|as\s+a\s+rule|as\s+standard|in\s+general|generally|usually|every\s+single)\b",
    re.I,
)
_HABITUAL = re.compile(
    r"\b(?:every|each)\s+(?:morning|day|night|evening|week|weekend|time|month|year|monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b|\b(?:usually|always|often|normally|sometimes|typically|generally)\b",
    re.I,
)
_GENERIC_PREP = frozenset({"on", "for", "at", "in", "with"})
_QUOTED = re.compile(
    r'"[^"\n]{1,2000}"|“[^”\n]{1,2000}”|(?<![\w])\'(?:[^\'\n]|(?<=\w)\'(?=\w)){3,2000}?\'(?![\w])'
)
_REPORTED = re.compile(
    r"\b(?:said|says|say|wrote|writes|asked|asks|told|tells|texted|messaged|emailed|wants|wanted|suggested|"
    r"suggests|keeps\s+telling|reckons|thinks)\b[^.!?]{0,40}$",
    re.I,
)
_SPACES = re.compile(r"\s+")


@dataclass(frozen=True)
class Request:
    """One clause that asks for something to be done."""

    clause: str  # the asking words: the verb and what depends on it, or the elliptical phrase
    verb: str | None  # the act's lemma ("book"); None when only a thing is wanted ("I need a taxi")
    obj: str  # the object phrase ("a flight to Madrid"), "" when none
    head: str  # the object's head lemma ("flight"), "" when none
    form: str  # imperative | modal | want | lets | elliptical | fragment (no verb, no "please")
    nouns: tuple[str, ...] = ()  # lemmas of the nouns the clause holds (what the act is about)
    common: bool = True  # the object's head is a common noun ("a taxi"), not a name ("Marcus") or a pronoun
    places: tuple[tuple[str, str], ...] = ()  # (preposition, phrase): "to Brussels", "from The Milk Bar"
    media: tuple[str, ...] = ()  # what it is sent by: "by email", "via text"
    venues: tuple[str, ...] = ()  # a named place that serves, after "from" / "at" ("from Saffron Lantern")
    # a fragment's qualities of the thing it names ("awful" in "awful train this morning, 40 minutes late",
    # "vegetarian" in "vegetarian meal plan, 5 days"): the router asks each to be a value of the tool
    quals: tuple[str, ...] = ()
    # who is to be there, after "with" ("lunch with Hana", "a call with my boss")
    company: tuple[str, ...] = ()
    # the state the thing is to be got into ("get me pad thai delivered": "deliver")
    result: str = ""
    # what the thing asked for is to do to the user ("a car to collect me": "collect"): a service with
    # someone doing it, not a thing the user works themselves
    serves: str = ""


@dataclass
class SpeechAct:
    """What a message is, as far as acting goes."""

    kind: str  # request | question | statement | negated | standing | empty
    requests: list[Request] = field(default_factory=list)
    why: str = ""

    @property
    def asks(self) -> bool:
        return bool(self.requests)


_OPEN_CLASSES = ("NOUN", "VERB", "ADJ", "ADV")


@lru_cache(maxsize=4096)
def only_a_name(word: str) -> bool:
    """The dictionary (lemminflect's) has ``word`` as no common word: a proper noun only ("leeds", "glasgow")
    or not at all ("gatwick", "wagamama"); not "bill", "rose", "reading", nor a closed-class word."""
    from lemminflect import getAllLemmas

    from ibachat.agent.reading.parse import nlp

    if word in nlp().Defaults.stop_words or asks_with(word):
        return False  # a verb of the request classes is a word ("rebook", "unsub"), whatever the dictionary
    return not any(getAllLemmas(word, upos=u) for u in _OPEN_CLASSES)


# a break, then the user's own plan ("I'll swing by", "we will collect it", "I'm going to pick it up"): a
# closed class of first-person future forms
_OWN_PLAN = re.compile(
    r"(?i)(?:,|;|\s[-–—])\s*(?:and\s+)?(?:i|we)\s*(?:'ll|’ll|\s+will|\s+can|'m going to|’m going to|\s+am going to)\s+\w+"
)


def _classes_of(name: str) -> frozenset[str]:
    """The one-word verbs of a request class (``data/act_verbs.json``)."""
    return frozenset(w for w in _verb_classes().get(name, ()) if " " not in w)


def asks_with(word: str) -> bool:
    """``word`` is a verb of the request classes (``data/act_verbs.json``: "order", "book", "get"...)."""
    return any(word in {w.split()[0] for w in ws} for ws in _verb_classes().values())


def _a_verb(word: str) -> bool:
    """A verb of English (lemminflect's dictionary) or of the request classes ("rebook")."""
    return known_verb(word) or asks_with(word)


@lru_cache(maxsize=1)
def _speller():
    from spellchecker import SpellChecker

    return SpellChecker(distance=1)


@lru_cache(maxsize=1)
def _request_words() -> frozenset[str]:
    from ibachat.agent.data import load

    words = {w for ws in _verb_classes().values() for w in ws if " " not in w}
    words |= {w for group in load("synonyms")["groups"] for w in group if " " not in w}
    words |= {w for w in (*_MODALS, "you", "please") if len(w) > 2}  # the closed words a request opens with
    return frozenset(words)


_FIRST_PERSON = frozenset({"i", "we"})
# how often, said before a command: "every (other) weekday", "each month", "weekdays", "nightly" (calendar
# units, a closed class)
_UNITS = r"(?:week\s?day|weekend|week\s?night|day|night|week|fortnight|month|year|morning|afternoon|evening|(?:mon|tues|wednes|thurs|fri|satur|sun)day)"
_HOW_OFTEN = re.compile(
    rf"(?:(?:every|each)\s+(?:other\s+|second\s+|third\s+|alternate\s+)?{_UNITS}|(?:on\s+)?{_UNITS}s(?!\w)|daily|nightly|weekly|monthly)(?!\w)"
)


# a break and then a question of its own ("..., what did ...", ": is this ..."): closed class of openers
_QUESTION_AFTER = re.compile(
    r"(?i)[,:;—–-]\s*(?:what|who|whom|whose|when|where|why|how|which|is|are|was|were|do|does|did|can|could|"
    r"would|will|should|shall|have|has|had|am)\b[^.!]*\?\s*$"
)
_THINKING = frozenset(
    {"know", "think", "remember", "believe", "guess", "mind", "reckon", "suppose", "see", "hear"}
)
_WISH_VERBS = frozenset(
    {"fancy", "want", "like", "need", "prefer"}
)  # "fancy a coffee?": what is wanted, asked
# a command with a question tag after it ("..., would you?", "..., can u?"): a closed class of tags
_TAG_QUESTION = re.compile(r"(?i),\s*(?:would|could|can|will)\s+(?:you|u|ya)(?:\s+please)?\s*\?+\s*$")


# verbs of feeling about a thing (a closed class): said without a subject they are the user's feeling
_STANCE_VERBS = frozenset(
    {"hate", "love", "adore", "detest", "loathe", "dislike", "despise", "miss", "enjoy"}
)


@lru_cache(maxsize=2048)
def past_form(word: str) -> bool:
    """A verb's past form, not its base ("rang", "got", "booked"; not "put", "set", "book"): the parse of
    "I <word> it yesterday" reads it as a past verb of another lemma. Lower case the small model often tags
    as a proper noun at a message's start, so the word is read in a frame of its own."""
    if not word.isalpha():
        return False
    doc = parse(f"I {word} it yesterday.")
    tok = doc[1]
    return tok.tag_ in ("VBD", "VBN") and tok.lemma_.lower() != word


@lru_cache(maxsize=1)
def _people() -> frozenset[str]:
    from ibachat.agent.data import load

    return frozenset(load("people")["people"])


@lru_cache(maxsize=4096)
def known_verb(word: str) -> bool:
    """English has ``word`` as a form of a verb (lemminflect's dictionary, no rules for unknown words)."""
    from lemminflect import getAllLemmas

    return bool(getAllLemmas(word, upos="VERB"))


@lru_cache(maxsize=2048)
def _noun_only(word: str) -> bool:
    """English has ``word`` as a noun and never as a verb (lemminflect's dictionary; "classic" as well as
    an adjective), and it is no verb of the request classes either ("text", "whatsapp" are)."""
    from lemminflect import getAllLemmas

    if known_verb(word) or any(word in {w.split()[0] for w in ws} for ws in _verb_classes().values()):
        return False
    return bool(getAllLemmas(word, upos="NOUN"))


@lru_cache(maxsize=2048)
def base_form(word: str) -> bool:
    """A verb's base form: "you will <word> it" parses it as a verb that is its own lemma ("ping", not
    "booking")."""
    if not word.isalpha():
        return False
    tok = parse(f"You will {word} it.")[2]
    return tok.tag_ == "VB" and tok.lemma_.lower() == word


def _has_finite(tokens: list) -> bool:
    # a "verb" that is the object of a preposition is a mis-tag ("on sat": Saturday), no finite verb
    return any(t.tag_ in ("VBZ", "VBD", "VBP", "MD") and t.dep_ != "pobj" for t in tokens)


def _negates(tok) -> bool:
    """A negator the parse attaches to a verb ("don't", "never"); not a word it mis-tags ("9 am")."""
    return tok.dep_ == "neg" and tok.lower_ in ("not", "n't", "never", "no", "nt")


@lru_cache(maxsize=1)
def _verb_classes() -> dict[str, frozenset[str]]:
    from ibachat.agent.data import word_classes

    return word_classes("act_verbs")


def _span(tokens: list) -> str:
    if not tokens:
        return ""
    doc = tokens[0].doc
    return doc.text[tokens[0].idx : tokens[-1].idx + len(tokens[-1].text)].strip()


def _a_day_word(tok) -> bool:
    """A word the tagger took for a verb that the day reader reads as a day, with a part of day after it
    or "on / this / next / by" before it ("2 seats for Hamlet sat evening"; not "we sat outside")."""
    doc = tok.doc
    after = doc[tok.i + 1] if tok.i + 1 < len(doc) else None
    before = doc[tok.i - 1].lower_ if tok.i > 0 else ""
    at_clock = (
        after is not None
        and after.lower_ in ("at", "@")
        and tok.i + 2 < len(doc)
        and (doc[tok.i + 2].ent_type_ == "TIME" or doc[tok.i + 2].like_num)
    )  # "weds at 2:30"
    framed = (
        before in ("on", "this", "next", "by")
        or (after is not None and after.ent_type_ == "TIME")
        or at_clock
    )
    return framed and _says_when(tok.text)


def _says_when(text: str) -> bool:
    """The day reader finds a day or a time in ``text``."""
    from datetime import datetime, timezone

    from ibachat.agent.reading.when import read_when

    return read_when(text, datetime(2026, 1, 5, 12, 0, tzinfo=timezone.utc)).said


def _says_clock(text: str) -> bool:
    """The day reader finds a time of day in ``text``, in figures or in words ("quarter past two")."""
    from datetime import datetime, timezone

    from ibachat.agent.reading.when import read_when

    return read_when(text, datetime(2026, 1, 5, 12, 0, tzinfo=timezone.utc)).time is not None


def _timeish(tok) -> bool:
    """A word that says when, not what: "thurs", "evening", "tomorrow", the "pm" of "6pm"."""
    from datetime import datetime, timezone

    from ibachat.agent.reading.when import read_when

    if tok.ent_type_ in ("DATE", "TIME") or tok.like_num:
        return True
    if tok.i > 0 and _CLOCK.search(tok.doc[tok.i - 1].text + tok.text):
        return True
    return read_when(tok.text, datetime(2000, 1, 1, tzinfo=timezone.utc)).said


_CLOCK = re.compile(r"\b(?:[01]?\d|2[0-3])[:.][0-5]\d\b|\b\d{1,2}\s*(?:am|pm|a\.m\.|p\.m\.)", re.I)
