"""What a message asks the assistant to do, read from its clause structure (a dependency parse).

A message asks for something to be done when one of its sentences, in the user's own words, is

- a command: a base-form verb that opens the clause with no subject before it ("book a table",
  "ugh. get me a taxi home"), after discourse words and politeness ("ok so", "please", "go ahead and");
- a request put as a question to the assistant: "can / could / would / will you VERB ...", "would you
  mind VERB-ing", "I need / want / would like you to VERB";
- a want of the user's for a thing or an act: "I need a taxi at six", "we'd like a table", "can I get a
  latte", "I want to book ...", and "let's VERB";
- an elliptical order: a phrase with no verb that says "please" ("Tandoor Nights, the saag paneer please").

It does not when the clause is negated ("don't book anything yet"), is a standing instruction about
every future action rather than one now ("always book aisle seats", "book vegetarian meals on
flights"), is someone else's words (quoted or reported), or is a question, a statement or a story.
Which tool, if any, fits the request is the router's business (``execution/router.py``): this reads
form only. The word lists here are closed classes (pronouns, auxiliaries, discourse markers,
frequency adverbs); every open-class decision comes from the parse.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache

from ibachat.agent.reading.parse import imperative_parse, modal_parse, parse
from ibachat.agent.reading.spellings import spelled_out

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
MAX_READ_CHARS = 2000  # a request is said at the start of a message; a long paste is not one


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


def own_text(message: str) -> str:
    """The message without quoted speech (of three words or more) and without what a report introduces."""
    from ibachat.agent.reading.clauses import unquoted

    text = unquoted(message)
    out, last = [], 0
    for m in _QUOTED.finditer(text):
        before = text[last : m.start()]
        words = len(re.findall(r"[\w']+", m.group(0)))
        out += [before, "…" if words >= 3 or _REPORTED.search(before) else m.group(0)]
        last = m.end()
    out.append(text[last:])
    return "".join(out)


_OPEN_CLASSES = ("NOUN", "VERB", "ADJ", "ADV")


@lru_cache(maxsize=4096)
def only_a_name(word: str) -> bool:
    """The dictionary (lemminflect's) has ``word`` as no common word: a proper noun only ("leeds", "glasgow")
    or not at all ("gatwick", "wagamama"); not "bill", "rose", "reading", nor a closed-class word."""
    from lemminflect import getAllLemmas

    from ibachat.agent.reading.parse import nlp

    if word in nlp().Defaults.stop_words:
        return False
    return not any(getAllLemmas(word, upos=u) for u in _OPEN_CLASSES)


def truecased(text: str) -> str:
    """A message typed all in lower case with its names capitalised, so the parse sees them as names
    ("train leeds to york tomorrow" reads "leeds" as a verb otherwise). Text with any capital is the user's
    own casing and is kept. Capitals that say no name are no casing: "I", and a word in capitals for
    stress ("fly me edinburgh -> paris, NOT the window seat")."""
    if _cased(text):
        return text
    return re.sub(
        r"\b[a-z]{3,}\b", lambda m: m.group(0).title() if only_a_name(m.group(0)) else m.group(0), text
    )


def _cased(text: str) -> bool:
    """Whether the user writes with capitals: a word with a capital and small letters ("Cab", "Pret"), or
    a capital inside a word ("iPad"); not "I" ("I'm" included) nor a word in capitals for stress ("NOT")."""
    return bool(re.search(r"[a-z][A-Z]|(?<![\w'’])[A-Z](?=[a-z])", text))


@lru_cache(maxsize=4096)
def read_act(message: str) -> SpeechAct:
    """What ``message`` asks the assistant to do, from its form (no tools involved)."""
    text = spelled_out(_SPACES.sub(" ", own_text(message[:MAX_READ_CHARS])).strip())
    # "re-order my metformin": a verb written with its prefix apart is the verb the dictionary has
    text = re.sub(
        r"(?i)\b(re|pre)-([a-z]{3,})\b",
        lambda m: m.group(1) + m.group(2) if _a_verb((m.group(1) + m.group(2)).lower()) else m.group(0),
        text,
    )
    if not re.search(r"[A-Za-z]", text):
        return SpeechAct("empty", why="no words")
    found = _read(text)
    named = truecased(text)
    first = next(iter((found.requests[0].verb or "").split()), "") if found.requests else ""
    if first and only_a_name(first.lower()) and named != text:
        # "edinburgh -> london kings x fri": a name the lower case let the parse take for a verb
        again = _read(named)
        verb = next(iter((again.requests[0].verb or "").split()), "") if again.requests else ""
        if not (verb and only_a_name(verb.lower())):
            return again
        found = SpeechAct("statement", why="a word no dictionary has, read as a verb")
    if found.kind != "request" and named != text:
        # "train leeds to york tmrw": read again with its names as names; kept only if a request is found
        again = _read(named)
        verb = next(iter((again.requests[0].verb or "").split()), "") if again.requests else ""
        # a word capitalised as a name is no command's verb ("lmao my cat just knocked ...")
        if again.kind == "request" and not (verb and only_a_name(verb.lower())):
            return again
    if found.kind == "statement":
        # "iced matcha latte from Blue Bottle, I'll swing by whenever it's ready": a thing asked for, then
        # what the user will do about it; the thing is read on its own
        m = _OWN_PLAN.search(text)
        if m is not None and m.start() > 0:
            first_part = _read(text[: m.start()].rstrip(" ,;-–—"))
            if first_part.kind == "request":
                return first_part
    verbless = found.kind == "request" and found.requests[0].form in ("fragment", "elliptical")
    if found.kind in ("statement", "question") or verbless:
        mended = respelled(text)
        if mended != text:  # "bok a tabel for 2 at 8": read again with its slips mended
            again = _read(mended)
            changed = set(re.findall(r"[a-z]+", mended)) - set(re.findall(r"[a-z]+", text))
            first = again.requests[0] if again.requests else None
            # kept only when a mended word is what the request turns on, its verb or its thing ("veg
            # momo and a dal bhat" are dishes, not "memo" and "dial")
            if first is not None and ({*(first.verb or "").split(), first.head} & changed):
                return again
    return found


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


def respelled(text: str) -> str:
    """``text`` with each word no dictionary knows mended to the one word of the request vocabulary
    (the verb classes and synonym groups of ``data/``) one letter away, as a spelling corrector's
    frequency dictionary finds it (``pyspellchecker``): "bok a tabel" -> "book a table". A word with a
    capital, a known word, a name or a word with two such mends stays as typed."""

    def mend(m: re.Match[str]) -> str:
        word = m.group(0)
        if word != word.lower() or not only_a_name(word):
            return word
        near = _speller().candidates(word) or set()
        fits = sorted(w for w in near if w in _request_words() and w != word)
        return fits[0] if len(fits) == 1 else word

    return re.sub(r"\b[a-z]{3,}\b", mend, text)


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


def _read(text: str) -> SpeechAct:
    doc = parse(text)
    requests: list[Request] = []
    kinds: list[str] = []
    for sent in doc.sents:
        kind, found = _sentence(sent)
        kinds.append(kind)
        requests += found
    if requests:
        return SpeechAct("request", requests, why=f"{requests[0].form}: {requests[0].clause[:60]!r}")
    for kind in ("negated", "standing", "question"):
        if kind in kinds:
            return SpeechAct(kind, why=kind)
    return SpeechAct("statement", why="states, tells or asks nothing to be done")


def _start(tokens: list) -> int:
    """Index of the first token after discourse words, punctuation, polite leads and a time said before a
    command ("In an hour and a half remind me to ...", "Tomorrow at 9, book ...")."""
    i = _after_leading_time(tokens)
    i = _after_leading_phrase(tokens, i)
    while i < len(tokens):
        low = tokens[i].lower_
        if tokens[i].is_punct or tokens[i].is_space or low in _DISCOURSE:
            i += 1
            continue
        rest = " ".join(t.lower_ for t in tokens[i : i + 5])
        lead = next((p for p in _POLITE_LEADS if rest.startswith(p + " ") or rest == p), None)
        if lead is None:
            break
        i += len(lead.split())
    return i


def _after_leading_phrase(tokens: list, i: int) -> int:
    """The index of the user ("I", "we") after a prepositional phrase that opens the sentence ("For
    Christmas I need a train ...", "After work we'd like a cab"): read as if it came after; ``i`` when
    the sentence opens otherwise."""
    if i >= len(tokens) or tokens[i].pos_ != "ADP":
        return i
    for k in range(i + 1, min(i + 8, len(tokens))):
        if tokens[k].lower_ in _FIRST_PERSON and k > i + 1:
            return k
        if tokens[k].pos_ in ("VERB", "AUX") or tokens[k].lower_ in ("you", "u"):
            break
    return i


def _after_leading_time(tokens: list) -> int:
    """The index after a day or time that opens the sentence, when a verb in its base form or the user
    ("I", "we") follows it."""
    if len(tokens) < 3:
        return 0
    from datetime import datetime, timezone

    from ibachat.agent.reading.when import read_when

    doc = tokens[0].doc
    start = tokens[0].idx
    rest = doc.text[start : tokens[-1].idx + len(tokens[-1].text)]
    when = read_when(rest, datetime(2026, 1, 5, 12, 0, tzinfo=timezone.utc))
    pieces = sorted({w.lower() for w in (when.time_words, when.day_words) if w}, key=len, reverse=True)
    low, at = rest.lower(), 0
    while True:  # "tomorrow lunchtime", "Friday, at 6": the day and the time, in either order
        # the day reader keeps "on" in "on friday" and leaves it out of "every sunday": both are tried
        gaps = (re.match(r"[\s,]*", low[at:]), re.match(r"[\s,]*(?:(?:at|on|every|each)\s+)?", low[at:]))
        found = next(((gap, p) for gap in gaps for p in pieces if low.startswith(p, at + gap.end())), None)
        if found is None:  # "every weekday at 7:45", "weekdays at 6pm": how often, which no day reader dates
            gap = gaps[0]
            every = _HOW_OFTEN.match(low, at + gap.end())
            found = (gap, every.group(0)) if every else None
        if found is None:
            break
        at += found[0].end() + len(found[1])
    if not at:
        return 0
    end = start + at
    j = next((k for k, t in enumerate(tokens) if t.idx >= end), len(tokens))
    while j < len(tokens) and (tokens[j].is_punct or tokens[j].lower_ in ("then", "please")):
        j += 1
    if j < len(tokens) and (
        tokens[j].tag_ == "VB" or tokens[j].lower_ in _FIRST_PERSON or _base_verb_here(tokens, j)
    ):
        return j  # "Tomorrow at 9, book ...", "Tonight we want a table ...": read as if it came after
    return 0


_FIRST_PERSON = frozenset({"i", "we"})
# how often, said before a command: "every (other) weekday", "each month", "weekdays", "nightly" (calendar
# units, a closed class)
_UNITS = r"(?:week\s?day|weekend|week\s?night|day|night|week|fortnight|month|year|morning|afternoon|evening|(?:mon|tues|wednes|thurs|fri|satur|sun)day)"
_HOW_OFTEN = re.compile(
    rf"(?:(?:every|each)\s+(?:other\s+|second\s+|third\s+|alternate\s+)?{_UNITS}|(?:on\s+)?{_UNITS}s(?!\w)|daily|nightly|weekly|monthly)(?!\w)"
)


def _base_verb_here(tokens: list, j: int) -> bool:
    """A word the small parser took for a noun after a time ("Friday evening *book* me a cab") that is a
    verb's base form followed by "me" or "us": the command it starts."""
    return (
        j + 1 < len(tokens)
        and tokens[j + 1].lower_ in ("me", "us")
        and tokens[j].is_alpha
        and base_form(tokens[j].lower_)
    )


def _sentence(sent) -> tuple[str, list[Request]]:
    tokens = [t for t in sent]
    if _status_note(tokens):
        return "statement", []
    if _counterfactual(sent.root):
        return "question", []
    kind, found = _at(sent, tokens, _start(tokens))
    if found and found[0].form in ("fragment", "elliptical"):  # "1:1 with Dana at 4:30, pop it in the diary"
        later_kind, later = _after_a_break(sent, tokens)
        if later and (
            later[0].head in _PRONOUNS or not later[0].obj or later[0].obj not in later[0].clause
        ):  # "Flight to Lisbon next Friday please, book it": the it (not the last noun before it)
            r, c = found[0], later[0]
            act = Request(
                c.clause, c.verb, r.obj, r.head, c.form, r.nouns, r.common, c.places, c.media, r.venues
            )
            return "request", [act, *found]
        if later:
            return "request", later + found  # the router tries them in turn
        verb = _bare_verb(tokens)
        if verb:  # "Dinner at Luigi's on the 22nd, party of 10, reserve please": reserve that
            r = found[0]
            act = Request(r.clause, verb, r.obj, r.head, "imperative", r.nouns, r.common, venues=r.venues)
            return "request", [act, *found]
        return kind, found
    if found and found[0].form == "want" and found[0].verb is None:
        # "we need a stair gate for the baby, a standard one is fine, just buy one": the command after a break
        # says what to do with the thing wanted, which its pronoun stands for
        later_kind, later = _after_a_break(sent, tokens)
        if (
            later
            and later[0].verb
            and (later[0].head in _PRONOUNS or not later[0].obj or later[0].obj not in later[0].clause)
        ):
            r, c = found[0], later[0]
            act = Request(
                c.clause, c.verb, r.obj, r.head, c.form, r.nouns, r.common, r.places, c.media, r.venues
            )
            return "request", [act, *found]
    if found or kind == "negated":
        return kind, found
    later_kind, later = _after_a_break(sent, tokens)
    if later:
        return "request", later
    if later_kind in ("negated", "standing"):
        return later_kind, []
    inner = _embedded(sent, tokens)
    if inner:
        return "request", inner
    return kind, found


def _counterfactual(root) -> bool:
    """What "you" would do if something were otherwise ("If money were no object, would you fly first
    class?", "if you had a free weekend, would you go to Rome?"): a condition in the past form under
    "would you", an opinion asked, not a request ("would you book it if they have space" stays one)."""
    kids = list(root.children)
    if not (
        any(c.dep_ == "aux" and c.lower_ in ("would", "'d") for c in kids)
        and any(c.dep_ == "nsubj" and c.lower_ in _YOU for c in kids)
    ):
        return False
    return any(
        c.dep_ == "advcl"
        and any(g.dep_ == "mark" and g.lower_ == "if" for g in c.children)
        and (  # "if I were training for a marathon": the past on its auxiliary
            (c.tag_ == "VBD" and not any(g.dep_ == "aux" for g in c.children))
            or any(
                g.dep_ == "aux" and (g.tag_ == "VBD" or g.lower_ in ("could", "might")) for g in c.children
            )
        )
        for c in kids
    )


def _embedded(sent, tokens: list) -> list[Request]:
    """A request put inside another clause, read from the parse: "you" and a modal under the user's own
    wish or under a yes/no question ("I'd love it if you could reserve ...", "is there any way you could
    get me ...?"), or an infinitive whose doer is "you", under the user's own verb ("I am writing to ask
    you kindly to send ..."). Not a counterfactual ("you could have booked"), not with a negation on the
    way up, not under a question that asks what, where or how."""
    root = sent.root
    # a yes/no question, with its "?" or without: an auxiliary before its subject ("do you think you
    # could ...", "would it be possible ..."), or "any chance / any way you could ..."
    inverted = (
        len(tokens) > 1
        and tokens[0].tag_ in ("VBP", "VBZ", "VBD", "MD")
        and tokens[0].dep_ in ("aux", "ROOT")
        and tokens[1].dep_ in ("nsubj", "expl")
    )
    any_chance = root.pos_ in ("NOUN", "PROPN") and any(
        c.dep_ == "det" and c.lower_ == "any" for c in root.children
    )
    question = sent.text.strip().endswith("?") or inverted or any_chance
    if question and any(t.tag_ in ("WDT", "WP", "WRB") and t.i < root.i + 2 for t in tokens[:3]):
        return []
    # "any way you could get me a cab ...": the parse hangs "any way" on the modal verb itself
    kids = list(root.children)
    if (
        root.tag_ == "VB"
        and any(c.dep_ == "nsubj" and c.lower_ in _YOU for c in kids)
        and any(c.dep_ == "aux" and c.lower_ in _MODALS for c in kids)
        and not any(c.dep_ == "aux" and c.lower_ == "have" for c in kids)
        and not any(_negates(c) for c in kids)
        and any(
            c.dep_ in ("npadvmod", "advmod")
            and any(g.dep_ == "det" and g.lower_ == "any" for g in c.children)
            for c in kids
        )
    ):
        found = _command(sent, tokens, tokens.index(root), "modal")
        if found:
            return found
    subjects = [c.lower_ for c in root.children if c.dep_ in ("nsubj", "expl")]
    root_aux = [c.lower_ for c in root.children if c.dep_ == "aux"]
    for j, verb in enumerate(tokens):
        if verb.tag_ not in ("VB", "VBP", "VBD") or verb is root:
            continue
        kids = list(verb.children)
        aux = [c.lower_ for c in kids if c.dep_ in ("aux", "auxpass")]
        marks = [c.lower_ for c in kids if c.dep_ == "mark"]
        you_subject = any(c.dep_ == "nsubj" and c.lower_ in _YOU for c in kids)
        modal = verb.tag_ == "VB" and you_subject and any(a in _MODALS for a in aux) and "have" not in aux
        # "(possible) for you to sort ...", "ask you to send ...": an infinitive whose doer is "you"
        infinitive = (
            verb.tag_ == "VB"
            and "to" in aux
            and (
                (you_subject and "for" in marks)
                or any(c.dep_ in ("dobj", "nsubj") and c.lower_ in _YOU for c in verb.head.children)
            )
        )
        # "would it be possible to reserve ...": a possibility asked after with a modal, its doer left out
        possible = (
            verb.tag_ == "VB"
            and "to" in aux
            and not marks
            and verb.dep_ == "xcomp"
            and verb.head.i == root.i
            and root.lemma_ == "be"
            and "it" in subjects
            and any(a in ("would", "could", "might") for a in root_aux)
            and any(c.dep_ == "acomp" and c.lower_ in _POSSIBLE for c in root.children)
        )
        infinitive = infinitive or possible
        # "I would appreciate it / I'd be grateful / it would be great if you booked ...": the user's
        # hypothetical wish, its condition what "you" would do (not "would have": a regret)
        head_aux = [c.lower_ for c in verb.head.children if c.dep_ == "aux"]
        conditional = (
            you_subject
            and "if" in marks
            and verb.dep_ == "advcl"
            and any(a in ("would", "'d") for a in head_aux)
            and "have" not in head_aux
        )
        hypothetical = conditional and not aux
        # "I write to request / I ask that you send ...": a mandative "that" clause, its verb bare
        mandative = (
            you_subject
            and not aux
            and "that" in marks
            and verb.tag_ in ("VB", "VBP")
            and verb.head.lemma_.lower() in _MANDATIVE
        )
        wished = conditional and _welcomes(root, verb)
        if hypothetical and not wished:
            continue  # "I would be surprised if you booked it": a condition, not a wish
        if not (modal or infinitive or hypothetical or mandative):
            continue
        chain = [verb, *verb.ancestors]
        if any(_negates(c) for t in chain for c in t.children):
            continue
        own = any(s in _SELF for s in subjects) or (wished and "it" in subjects)
        verbless = root.pos_ not in ("VERB", "AUX")  # "any chance you could ...?"
        # "do you think you could ...?": a yes/no question about "you" that holds "you" and a modal
        about_you = (
            "do" in root_aux and any(s in _YOU for s in subjects) and verb.dep_ == "ccomp" and not marks
        ) or (  # "reckon you could ...?": the same question with its "do you" left out
            not subjects
            and not root_aux
            and root.lemma_.lower() in _OPINION
            and root.i == tokens[0].i
            and sent.text.strip().endswith("?")
            and verb.dep_ == "ccomp"
            and not marks
        )
        frame = question and (
            "there" in subjects
            or ((modal or infinitive) and (root.lemma_ == "be" or verbless))
            or (modal and about_you)
        )
        if not (own or frame):
            continue
        if modal and not own and verb.dep_ not in ("relcl", "ccomp", "acl"):
            continue
        found = _command(sent, tokens, j, "modal")
        if found:
            return found
    return []


def _welcomes(root, condition) -> bool:
    """The clause a condition hangs on welcomes it ("I'd appreciate it", "it would be great"): a
    positive stance cue of the reading lexicon in that clause, outside the condition itself."""
    from ibachat.agent.data import load
    from ibachat.agent.reading.polarity import _compiled, _find_cues

    inside = {t.i for t in condition.subtree}
    main = [t for t in root.subtree if t.i not in inside]
    if any(_negates(t) for t in main):
        return False  # "I wouldn't be happy if you booked it"
    welcome = set(load("welcome")["words"])
    if any(t.lemma_.lower() in welcome or t.lower_ in welcome for t in main):
        return True
    return any(c.polarity > 0 for c in _find_cues(" ".join(t.lower_ for t in main), _compiled()[0]))


def _after_a_break(sent, tokens: list) -> tuple[str, list[Request]]:
    """A command after a comma or a conjunction: "we're out of milk, sort a delivery", "..., so book it";
    not in a story of what the user does ("every morning I ring, sit in a queue, and ...")."""
    if _HABITUAL.search(sent.text) and any(t.dep_ == "nsubj" and t.lower_ in ("i", "we") for t in tokens):
        return "", []
    for p, tok in enumerate(tokens[:-1]):
        dash = tok.lower_ in ("-", "–", "—") and bool(tokens[p - 1].whitespace_)  # not "last-minute"
        if (dash or tok.lower_ in (",", ";", ":", "and", "so", "then", "but")) and p > 0:
            j = p + 1 + _start(tokens[p + 1 :])
            if j < len(tokens) and _shares_a_subject(tokens, p, j):
                continue  # "I have an aversion to X and prefer Y": the same "I", not a command
            if j < len(tokens) and j > p and (_is_command(sent, tokens, j) or tokens[j].lower_ in _MODALS):
                sub_kind, sub = _at(sent, tokens, j)
                if sub:
                    return sub_kind, sub
                if sub_kind in ("negated", "standing"):
                    return sub_kind, []
    return "", []


def _shares_a_subject(tokens: list, p: int, j: int) -> bool:
    """The verb after a bare "and" / "but" (no comma before it) is joined to a verb with a subject of its
    own that is not "you": it is that subject's second verb."""
    if tokens[p].lower_ not in ("and", "but") or (p > 0 and tokens[p - 1].lower_ in (",", ";")):
        return False
    verb = tokens[j]
    if verb.dep_ != "conj":
        return False
    for head in verb.ancestors:  # the verb it is joined to (the parse may hang it on that verb's object)
        subjects = [c for c in head.children if c.dep_ in ("nsubj", "nsubjpass")]
        if head.pos_ in ("VERB", "AUX") and subjects:
            return all(c.lower_ not in ("you", "u") for c in subjects)
    return False


def _at(sent, tokens: list, i: int) -> tuple[str, list[Request]]:
    """The sentence read as a request that opens at token ``i``."""
    if i >= len(tokens):
        return "statement", []
    text = sent.text.strip()
    question = text.endswith("?")
    low = [t.lower_ for t in tokens]
    first = low[i]
    # "don't / do not / never ..." in command position
    if first in ("do", "never") and (first == "never" or (i + 1 < len(low) and low[i + 1] in ("n't", "not"))):
        j = i + (1 if first == "never" else 2)
        if j + 2 < len(low) and low[j] == "let" and low[j + 1] in ("me", "us") and low[j + 2] == "forget":
            found = _command(sent, tokens, j + 2, "imperative")  # "don't let me forget X": remind me of X
            if found:
                r = found[0]
                return "request", [Request(r.clause, "remind", r.obj, r.head, r.form, r.nouns)]
        return "negated", []
    # "can / could / would / will you (please) VERB", "would you mind VERB-ing"
    if first in _MODALS and i + 1 < len(low) and low[i + 1] in _YOU:
        j = i + 2
        while j < len(tokens) and (
            low[j] in ("please", "just", "kindly", "maybe", "possibly") or tokens[j].is_punct
        ):
            j += 1
        if j < len(tokens) and low[j] in ("n't", "not"):
            return "negated", []
        if j < len(tokens) and low[j] == "mind" and j + 1 < len(tokens):
            j += 1
        if question and _asks_what_can_be_done(tokens, j):
            return "question", []  # "can you book trains as well or only flights?": what the assistant can do
        found = _command(sent, tokens, j, "modal")
        return ("request", found) if found else ("question", [])
    # "could the GP see me tomorrow?", "can the vet fit Mochi in today?": someone who serves, asked to see
    # to the user or theirs at a time, is a booking with them asked for
    if first in ("can", "could") and question and _served_when(sent, tokens, i):
        # the one who serves is the thing asked for ("the physio"), never what they see to ("my car")
        end = next(k for k, t in enumerate(tokens) if k > i and t.dep_ in ("nsubj", "nsubjpass")) + 1
        found = _want_object(sent, tokens[:end], i + 1, "want")
        if found:
            return "request", found
    # "I need / want / would like you to VERB"
    if first in _SELF and _you_to(low, i):
        j = low.index("to", i) + 1
        found = _command(sent, tokens, j, "modal")
        return ("request", found) if found else ("statement", [])
    # "can / could / may I get / have X"
    if (
        first in ("can", "could", "may")
        and i + 2 < len(low)
        and low[i + 1] in _SELF
        and low[i + 2] in ("get", "have")
    ):
        found = _want_object(sent, tokens, i + 3, "want")
        return ("request", found) if found else ("question", [])
    # "can I book a table for 2 tonight?", "could I order the usual from Pret": the user asks to do what
    # the assistant does for them (a verb of arranging), not whether it can be done
    if (
        first in ("can", "could", "may")
        and i + 2 < len(low)
        and low[i + 1] in _SELF
        and low[i + 2] in _classes_of("light")
        and tokens[i + 2].pos_ == "VERB"
        and not (question and _asks_what_can_be_done(tokens, i + 2))
    ):
        found = _command(sent, tokens, i + 2, "modal")
        return ("request", found) if found else ("question", [])
    if first in ("lets", "let's") or (first == "let" and i + 1 < len(low) and low[i + 1] in ("'s", "us")):
        j = i + (2 if i + 1 < len(low) and low[i + 1] in ("'s", "us") else 1)
        found = _command(sent, tokens, j, "lets")
        return ("request", found) if found else ("statement", [])
    if question and not _a_command_asked(sent, tokens, i, text):
        return "question", []
    if _FREQUENCY.match(sent.doc.text[tokens[i].idx : sent.end_char]):
        return "standing", []  # "always order me the large size": a rule for every order, not one now
    # "I need a taxi", "we'd like a table", "I want to book ..."
    if first in _SELF:
        return _want(sent, tokens, i)
    if _opinion_opens(tokens[i]):
        return "question", []  # "reckon it's worth hiring a ute or nah": "do you" left out, an opinion asked
    if _is_command(sent, tokens, i):
        found = _command(sent, tokens, i, "imperative")
        if found:
            return "request", found
        return _why_not(sent, tokens, i), []
    form = _elliptical(tokens, i)
    if form is not None:
        phrase = _span(tokens[i:]).rstrip(" .!")
        nouns = tuple(t.lemma_.lower() for t in tokens[i:] if t.pos_ in ("NOUN", "PROPN"))
        first_noun = _fragment_head(tokens, i) if form == "fragment" else None
        first_noun = first_noun or next((t for t in tokens[i:] if t.pos_ in ("NOUN", "PROPN")), None)
        head = first_noun.lemma_.lower() if first_noun is not None else ""
        common = first_noun is not None and first_noun.pos_ == "NOUN"
        venues = _venues(tokens[i:])
        quals = _qualities(tokens, i, first_noun) if form == "fragment" else ()
        places = _ends(tokens[i:])
        media = tuple(
            g.lemma_.lower()
            for t in tokens[i:]
            if t.dep_ == "prep" and t.lower_ in _MEDIUM_PREPS
            for g in t.children
            if g.dep_ == "pobj" and g.pos_ == "NOUN"
        )  # "paris to brussels by rail": the means it goes by
        return "request", [
            Request(
                phrase, None, phrase, head, form, nouns, common, places, media, venues=venues, quals=quals
            )
        ]
    return "statement", []


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


def _a_command_asked(sent, tokens: list, i: int, text: str) -> bool:
    """A command said with a question mark ("order two margheritas from Pizza Pilgrims to the flat?") or
    with a question tag ("get two wraps sent over from Zaytoun, would you?"): a request, not a question.
    A verb of liking or wanting that opens it ("fancy a coffee?") asks what the user wants; a question of
    its own after a break ("remind me, what did the doctor say?") is what is asked."""
    tok = tokens[i]
    if (
        tok.lemma_.lower() in _STANCE_VERBS | _WISH_VERBS
        or tok.dep_ in ("aux", "auxpass")
        or tok.pos_ == "AUX"
    ):
        return False  # "do hotels in Japan usually include breakfast?": an auxiliary opens a yes/no question
    if _TAG_QUESTION.search(text):
        return _is_command(sent, tokens, i)
    if _QUESTION_AFTER.search(text):
        return False
    if any(t.lower_ == "or" for t in tokens[i:]):
        return False  # "book the cheapest or the fastest train?": which one, asked
    classes = _verb_classes()
    words = (
        classes.get("speech", frozenset())
        | classes.get("consult", frozenset())
        | classes.get("reply", frozenset())
    )
    acting = asks_with(tok.lower_) and tok.lower_ not in words
    # a verb of doing with its own object ("hire us a rowing boat ...?"), never one of knowing, thinking,
    # telling or answering
    done_to = (
        tok.tag_ == "VB"
        and tok.lemma_.lower() not in _THINKING
        and tok.lower_ not in words
        and any(c.dep_ in ("dobj", "dative") for c in tok.children)
    )
    return (acting or done_to) and _is_command(sent, tokens, i)


def _opinion_opens(tok) -> bool:
    """A verb of opinion opens the sentence with a clause of its own and no subject ("reckon it's worth
    ...", "think we should get a cab"): "do you" or "I" left out, not a command ("think of a name")."""
    return (
        tok.lemma_.lower() in _OPINION
        and not any(c.dep_ in ("nsubj", "prt") for c in tok.children)
        and any(c.dep_ == "ccomp" and c.i > tok.i for c in tok.children)
    )


def _you_to(low: list[str], i: int) -> bool:
    window = " ".join(low[i : i + 6])
    return bool(re.match(r"(?:i|we) (?:'d |would )?(?:need|want|like|love) you to\b", window))


# verbs of feeling about a thing (a closed class): said without a subject they are the user's feeling
_STANCE_VERBS = frozenset(
    {"hate", "love", "adore", "detest", "loathe", "dislike", "despise", "miss", "enjoy"}
)


def _is_command(sent, tokens: list, i: int) -> bool:
    """Token ``i`` opens a command: a verb in base form with no subject of its own before it."""
    tok = tokens[i]
    if tok.lower_ in _NOT_A_VERB or tok.lower_ in _MODALS or not tok.is_alpha or tok.like_num:
        return False
    if i + 1 < len(tokens) and tokens[i + 1].lower_ in ("'s", "’s", "is", "are", "was", "were"):
        return False  # "Rent's due on the 1st": a subject and its verb, not a command
    if (
        tok.pos_ in ("NOUN", "PROPN", "ADJ")
        and tok.dep_ in ("compound", "amod")
        and tok.head.pos_ == "NOUN"
        and tok.head.lemma_.lower() not in _people()
        and not known_verb(tok.lower_)
    ):
        return False  # "latte art at the new cafe", "rooftop pool": a modifier no dictionary has as a verb
        # ("text Sam ...", "text mum ...": a name or a person after it is the one to reach)
    if tok.pos_ == "PROPN" and tok.ent_type_ in ("GPE", "LOC") and not known_verb(tok.lower_):
        return False  # "Oslo to Bergen next Tuesday": a place the message opens with is no verb
    if _noun_only(tok.lower_) and (
        i + 1 == len(tokens) or tokens[i + 1].pos_ in ("ADJ", "NOUN", "PRON", "ADP")
    ):  # "oat flat white, large, from Pret", "classic me", "supper at The Ivy": a noun only, no verb
        return False
    misread = tok.tag_ == "VBG" and base_form(tok.lower_)  # "ping" read as a form of "pe"
    if (tok.tag_ in ("VBZ", "VBG", "VBN", "MD") and not misread) or (
        tok.tag_ == "VBD" and i == 0 and tok.lemma_.lower() != tok.lower_
    ):
        return False  # "booked the dentist", "sounds good": not a command ("put", "set" stay possible)
    if past_form(tok.lower_):
        return False  # "Rang the surgery and got a slot": a story with the "I" left out, not a command
    if tok.lemma_.lower() in _STANCE_VERBS:
        return False  # "just hate them": a feeling with the "I" left out, never a command
    named = tok.pos_ != "VERB" and (tok.dep_ in ("compound", "amod") or not known_verb(tok.lower_))
    if named and any(s.text.strip().endswith("?") for s in tok.doc.sents):
        return (
            False  # "meal plan from my dietitian: 5 days, low salt. any good?": a thing and a question on it
        )
    # the word heads (or belongs to) the subject of a finite verb: a statement ("book club was fun")
    for t in tokens:
        if (
            t.dep_ in ("nsubj", "nsubjpass", "expl")
            and t.head.tag_ in ("VBZ", "VBD", "VBP", "MD")
            and t.head.i > tok.i
            and not _a_day_word(t.head)  # "book a table at Dishoom weds at 2:30": a day, no verb
        ):
            if tok.i in {x.i for x in t.subtree}:
                return False
    clause = sent.doc.text[tok.idx : sent.end_char]
    return command_parse(clause, finite=_has_finite(tokens)) is not None


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


def command_parse(clause: str, *, finite: bool = True):
    """(parse, index of the verb) when ``clause`` reads as a command, else None.

    First after "please"; when the clause has no finite verb at all, also after "you should", which
    the small model reads as a verb more readily ("Order groceries: ...", "book Leo's party"), but then
    only with an object that is plainly an object (a determiner or possessive, a list after ":", or a
    "from / for / to / at" phrase), so that "train delays again today" stays a noun phrase."""
    alt = imperative_parse(clause)
    if len(alt) >= 2 and _verbal(alt[1]):
        return alt, 1
    first = re.split(r",|;| - | – | — ", clause, maxsplit=1)[0]
    if first != clause and len(first.split()) >= 2:
        # "book an uber to the airport for 4:30, XL, we've got five suitcases": what follows the comma
        # makes the small model read the verb as a clause hung on another; the command is its first part
        alt = imperative_parse(first)
        if len(alt) >= 2 and _verbal(alt[1]):
            return alt, 1
    if finite:
        return None
    frame = modal_parse(clause)
    if len(frame) < 3:
        return None
    verb = frame[2]
    if verb.tag_ != "VB" or verb.dep_ != "ROOT":
        return None
    plain_object = any(
        c.dep_ in ("dobj", "dative")
        and (
            any(g.dep_ in ("det", "poss", "nummod") for g in c.children)
            or (c.i + 1 < len(frame) and frame[c.i + 1].text == ":")
        )
        for c in verb.children
    ) or any(
        c.dep_ == "prep" and c.lower_ in ("from", "for", "at")
        for c in [*verb.children, *(g for o in verb.children if o.dep_ == "dobj" for g in o.children)]
    )
    return (frame, 2) if plain_object else None


def _verbal(verb) -> bool:
    # the small model tags some verbs as nouns ("please book tickets"): a root with an object is a verb
    verbal = verb.tag_ == "VB" or (
        verb.tag_ in ("NN", "NNP")
        and verb.dep_ == "ROOT"
        and any(c.dep_ in ("dobj", "dative") for c in verb.children)
    )
    # a base form with an object that the parse made the subject of a later finite verb ("please draft an
    # email saying the meeting is off": "draft" under "is") is still the command
    subject_clause = (
        verb.dep_ == "csubj" and verb.tag_ == "VB" and any(c.dep_ == "dobj" for c in verb.children)
    )
    if not verbal or (verb.dep_ not in ("ROOT", "conj", "xcomp", "ccomp", "advcl") and not subject_clause):
        return False
    # a command says what to act on: a bare word ("lol", "knock knock") is not one
    return any(c.dep_ in _ARGUMENT_DEPS for c in verb.children)


_ARGUMENT_DEPS = frozenset(
    {"dobj", "dative", "prep", "xcomp", "ccomp", "prt", "iobj", "attr", "oprd", "npadvmod", "advmod", "acomp"}
)


def _command(sent, tokens: list, j: int, form: str) -> list[Request]:
    """The request whose verb opens at token ``j`` (a command, or the verb after "can you"); a verb
    in the past of a hypothetical ("... if you booked me a taxi") is read in its base form."""
    if j >= len(tokens):
        return []
    tok = tokens[j]
    if not tok.is_alpha or tok.lower_ in _NOT_A_VERB:
        return []
    clause = sent.doc.text[tok.idx : sent.end_char].strip()
    if tok.tag_ == "VBD":
        clause = tok.lemma_.lower() + clause[len(tok.text) :]
    found = command_parse(clause, finite=_has_finite(tokens))
    if found is None:
        alt = imperative_parse(clause)  # after "can you", "I need you to": the verb is given by the frame
        if len(alt) < 2 or alt[1].tag_ not in ("VB", "VBP", "VBG", "NN", "NNP"):
            return []
        found = (alt, 1)
    alt, at = found
    verb = alt[at]
    own = _own_clause(verb)
    if any(_negates(c) and not _set_apart(verb, c) for c in verb.children):
        return []
    if _standing(_span(own), alt, own):
        return []
    if (
        _asks_information(verb)
        and verb.lemma_.lower() not in _ARRANGE
        and _phrasal(verb) not in _verb_classes().get("writing", ())
    ):  # "remind me what time it is there", "tell me where ...": words, not an action; a verb of making
        return []  # takes the clause as what it makes ("put together what I should eat this week")
    obj, head, nouns, common = _object(alt, verb)
    lemma = _phrasal(verb)
    if verb.lemma_.lower() == "let" and any(c.lemma_.lower() == "know" for c in verb.subtree):
        lemma = "tell"  # "let Dana know that ...": telling someone
    places, media = _arguments(verb)
    venues = _venues(verb.subtree)
    if head in _PRONOUNS or (not obj and any(c.lower_ in _PRONOUNS for c in verb.children)):
        # "A table outside at Café Azur would be lovely. Can you book it?", "We're out of bin bags. Order some more."
        earlier = _antecedent(sent, tok.i)
        if earlier is not None:
            obj, head, common = earlier.text, earlier.root.lemma_.lower(), True
            nouns = (*nouns, *(t.lemma_.lower() for t in earlier if t.pos_ in ("NOUN", "PROPN")))
    company = _company(verb)
    result = _result(verb)
    serves = _serves([t for t in own if t.i > verb.i])
    return [
        Request(
            _span(own).rstrip(" .!,"),
            lemma,
            obj,
            head,
            form,
            nouns,
            common,
            places,
            media,
            venues,
            company=company,
            result=result,
            serves=serves,
        )
    ]


def _set_apart(verb, neg) -> bool:
    """A "not" after the command and a comma turns down a thing said after it ("fly me to Paris, NOT the
    window seat"), not the command."""
    return neg.i > verb.i and any(t.text in (",", ";") for t in verb.doc[verb.i + 1 : neg.i])


def _result(verb) -> str:
    """The lemma of the past participle a "get" / "have" puts its thing into ("get me pad thai
    delivered", "have the flowers sent", "get a table booked"), else ""."""
    if verb.lemma_.lower() not in ("get", "have"):
        return ""
    for c in verb.children:
        if c.dep_ == "dobj":  # "get [pad thai] [delivered]": the participle hangs on the thing
            done = [g for g in c.children if g.dep_ == "acl" and g.tag_ == "VBN"]
            if done:
                return done[0].lemma_.lower()
        if c.dep_ == "ccomp" and c.tag_ in ("VBN", "VBD") and c.i > verb.i:  # "get [the car] serviced"
            if any(g.dep_ in ("nsubj", "nsubjpass") and g.i < c.i for g in c.children):
                return c.lemma_.lower()
    return ""


def _company(verb) -> tuple[str, ...]:
    """The people a request's clause says will be there, after "with": a name, or a word for a person."""
    out = []
    for tok in verb.subtree:
        if tok.dep_ in ("prep", "conj") and tok.lower_ == "with":  # "with Ana and with Ben"
            objects = [c for c in tok.children if c.dep_ == "pobj"]
            for pobj in objects + [g for o in objects for g in o.children if g.dep_ == "conj"]:
                if pobj.pos_ == "PROPN" or pobj.ent_type_ == "PERSON" or pobj.lemma_.lower() in _people():
                    out.append(_span([t for t in pobj.subtree if t.i <= pobj.i]))
    return tuple(out)


_PRONOUNS = frozenset({"it", "that", "this", "one", "them", "those", "these", "some", "more", "any"})
_HOMES = frozenset({"mine", "ours", "yours", "his", "hers", "theirs"})  # a home by its owner
_PLACE_PREPS = frozenset({"to", "from", "at", "in", "into", "near"})
_MEDIUM_PREPS = frozenset({"by", "via", "over", "through"})


def _venues(tokens) -> tuple[str, ...]:
    """Names after "from" / "at" that are no city or country: the place that serves ("Saffron Lantern"),
    and a name that is the object of a verb of booking ("reserve The Stag"). The small model calls many
    two-word shop names places ("Pizza Rossi" as a GPE): a name of two words or more counts unless it
    is a place the parse is sure of (LOC) or a date or time."""
    out = []
    tokens = list(tokens)
    for tok in tokens:
        if tok.dep_ == "prep" and tok.lower_ in ("from", "at") and tok.head.lemma_.lower() != "be":
            for pobj in tok.children:  # ("I need to be at Heathrow": where the user goes, not who serves)
                if pobj.dep_ == "pobj" and pobj.pos_ == "PROPN" and _a_venue_name(pobj):
                    out.append(_span([t for t in pobj.subtree if t.i <= pobj.i or t.dep_ in ("case",)]))
                elif pobj.dep_ == "pobj":
                    # "from Domino's, extra spicy": the tagger hung the name on the words after the comma
                    # as their possessor; a possessed name closed by a comma is the place itself
                    for poss in pobj.children:
                        after = poss.i + 2
                        if (
                            poss.dep_ == "poss"
                            and poss.pos_ == "PROPN"
                            and after < len(poss.doc)
                            and poss.doc[poss.i + 1].tag_ == "POS"
                            and poss.doc[after].is_punct
                            and _a_venue_name(poss)
                        ):
                            out.append(_span([t for t in poss.subtree if t.i <= poss.i + 1]))
        if (
            tok.dep_ == "dobj"
            and tok.pos_ == "PROPN"
            and tok.head.lemma_.lower() in ("reserve", "book")
            and tok.text[:1].isupper()
            and _a_venue_name(tok)
        ):
            out.append(_span([t for t in tok.subtree if t.i <= tok.i]))
    return tuple(out)


def _a_venue_name(tok) -> bool:
    if tok.ent_type_ in ("LOC", "DATE", "TIME"):
        return False
    if tok.ent_type_ == "GPE":
        return sum(1 for t in tok.subtree if t.pos_ == "PROPN" and t.i <= tok.i) >= 2  # "Pizza Rossi"
    return True


def _arguments(verb) -> tuple[tuple[tuple[str, str], ...], tuple[str, ...]]:
    """The places a request names with a preposition ("to Brussels", "from The Milk Bar", "to the
    office") and the media it is to go by ("by email"), from the verb's own clause."""
    places: list[tuple[str, str]] = []
    media: list[str] = []
    for tok in verb.subtree:
        if tok.lower_ == "home" and tok.dep_ in ("advmod", "npadvmod") and tok.i > verb.i:
            places.append(("to", "home"))  # "a car home", "get me home": home is where it goes
            continue
        if tok.dep_ != "prep" or tok.i < verb.i:
            continue
        # "I need to be in Bath by 10": where the user is to be is where the request goes
        where = (
            "to"
            if verb.lemma_.lower() == "be" and tok.lower_ in ("in", "at") and tok.head.i == verb.i
            else ""
        )
        if tok.lower_ == "of" and tok.head.lower_ == "out":
            where = "from"  # "fly me out of Vancouver": where it sets out from
        for pobj in tok.children:
            if pobj.dep_ != "pobj":
                continue
            if tok.lower_ in _MEDIUM_PREPS and pobj.pos_ == "NOUN":
                media.append(pobj.lemma_.lower())
            elif (
                (where or tok.lower_) in _PLACE_PREPS
                and not pobj.like_num
                and pobj.ent_type_ not in ("DATE", "TIME")
            ):
                named = any(
                    c.dep_ == "compound" and c.pos_ == "PROPN" for c in pobj.children
                )  # "Berlin airport"
                own = pobj.lower_ in _HOMES  # "bring her to ours", "from mine"
                some = any(c.dep_ == "det" and c.lower_ in ("a", "an", "some", "any") for c in pobj.children)
                if tok.lower_ in ("to", "into") and some and not named:
                    continue  # "sign me up to a weekly newsletter": what it is done to, no place to go
                if (
                    pobj.pos_ == "PROPN"
                    or named
                    or own
                    or any(c.dep_ in ("det", "poss") for c in pobj.children)
                ):
                    cut = {
                        t.i
                        for c in pobj.children
                        if c.dep_ in ("appos", "relcl", "acl", "punct", "cc", "conj")
                        or (c.dep_ == "prep" and c.lower_ != "of" and c.i > pobj.i)  # "Luigi's | for dinner"
                        for t in c.subtree
                    }
                    places.append(
                        (where or tok.lower_, _span([t for t in pobj.subtree if t.i not in cut]).strip(" ,"))
                    )
    return tuple(places), tuple(media)


def _ends(tokens) -> tuple[tuple[str, str], ...]:
    """Where a verbless request goes from and to: "from <a place>", "to <a place>", and the name that
    "to" hangs on ("Dublin to Faro": from Dublin). Numbers, dates and times are no places."""
    out: list[tuple[str, str]] = []
    for tok in tokens:
        if tok.dep_ != "prep" or tok.lower_ not in ("from", "to"):
            continue
        ends = [c for c in tok.children if c.dep_ == "pobj" and _a_place(c)]
        out += [(tok.lower_, _span([t for t in c.subtree if t.i <= c.i])) for c in ends]
        if ends and tok.lower_ == "to" and tok.head.pos_ == "PROPN" and _a_place(tok.head):
            out.append(
                ("from", _span([t for t in tok.head.subtree if t.i <= tok.head.i and t.pos_ == "PROPN"]))
            )
    return tuple(out)


def _a_place(tok) -> bool:
    return not tok.like_num and tok.ent_type_ not in ("DATE", "TIME", "CARDINAL", "ORDINAL", "MONEY")


_CORE_ARGUMENTS = frozenset({"dobj", "nsubj", "nsubjpass", "attr"})


def _antecedent(sent, upto: int | None = None):
    """What a pronoun object stands for: the nearest noun phrase (a common noun at its head) before the
    request's clause in its own sentence, a subject or object before one in a prepositional phrase ("I'm nearly out of my pills, can you reorder them"), else the
    first of the sentences before ``sent``."""
    doc = sent.doc
    if upto is not None:
        chunks = [
            (c, _without_measure(c))
            for c in doc.noun_chunks
            if sent.start <= c.start and c.end <= upto and c.root.pos_ == "NOUN"
        ]
        near = [thing for _, thing in chunks if thing is not None]
        # a core argument ("I need a lift home from the pub ..., can you sort it?": the lift, not the pub)
        # before the nearest noun phrase of all
        core = [thing for c, thing in chunks if thing is not None and c.root.dep_ in _CORE_ARGUMENTS]
        if core or near:
            return (core or near)[-1]
    for chunk in doc.noun_chunks:
        if chunk.end <= sent.start and chunk.root.pos_ == "NOUN":
            return chunk
    return None


def _without_measure(chunk):
    """The thing of a noun phrase whose head is a measure of it with a number after it ("football boots
    size 5": the boots); a measure alone ("size 5") is no thing; any other phrase as it is."""
    doc, root = chunk.doc, chunk.root
    after = doc[root.i + 1] if root.i + 1 < len(doc) else None
    if after is None or not after.like_num or after.head.i != root.i:
        return chunk
    return doc[chunk.start : root.i] if root.i > chunk.start else None


def _phrasal(verb) -> str:
    """The verb's lemma with its particle ("check in", "fire off", "jot down")."""
    prt = next((c for c in verb.children if c.dep_ == "prt"), None)
    nxt = verb.doc[verb.i + 1] if verb.i + 1 < len(verb.doc) else None
    if prt is None and nxt is not None and nxt.dep_ == "advmod" and nxt.head.i == verb.i:
        # "put together" with the adverb the tagger did not call a particle: a known phrasal verb
        if any(f"{verb.lemma_.lower()} {nxt.lower_}" in words for words in _verb_classes().values()):
            prt = nxt
    particle = prt.lower_ if prt is not None else ""
    if prt is not None and prt.i + 1 < len(verb.doc):  # "come up with", "find out about": the particle
        nxt = verb.doc[prt.i + 1]  # and the preposition after it make the verb
        phrase = f"{verb.lemma_.lower()} {particle} {nxt.lower_}"
        if nxt.dep_ == "prep" and any(phrase in words for words in _verb_classes().values()):
            return phrase
    if not particle:  # a preposition right after the verb that makes a known phrasal verb ("look at")
        nxt = verb.doc[verb.i + 1] if verb.i + 1 < len(verb.doc) else None
        if nxt is not None and nxt.dep_ == "prep" and nxt.head.i == verb.i:
            phrase = f"{verb.lemma_.lower()} {nxt.lower_}"
            if any(phrase in words for words in _verb_classes().values()):
                return phrase
    return f"{verb.lemma_.lower()} {particle}".strip()


@lru_cache(maxsize=1)
def _verb_classes() -> dict[str, frozenset[str]]:
    from ibachat.agent.data import word_classes

    return word_classes("act_verbs")


_ARRANGE = frozenset(
    {"sort", "arrange", "organise", "organize", "plan", "fix", "figure", "work"}
)  # "sort out how I get there"
_WH = frozenset({"what", "when", "where", "how", "why", "whether", "which", "who", "whom", "whose", "if"})


def _asks_information(verb) -> bool:
    """The verb's complement is a question clause and it has no object of its own."""
    if any(
        c.dep_ == "dobj"
        and (c.pos_ in ("NOUN", "PROPN", "NUM") or (c.lower_ in _PRONOUNS and c.lower_ != "them"))
        and not _asked_of(c)  # "ask Sam what he wants": Sam is whom it is asked of
        for c in verb.children
    ):
        return False  # an object of its own ("grab two ... if there's any left", "book it if ..."): a thing
    for c in verb.children:
        if c.dep_ in ("ccomp", "xcomp", "advcl", "dobj") and c.i > verb.i:
            first = min(c.subtree, key=lambda t: t.i)
            if c.dep_ == "advcl" and first.lower_ == "if" and not _tells(verb):
                continue  # "..., aisle seat if possible": a condition, not a question asked
            if first.lower_ in _WH:
                return True
    return False


def _tells(verb) -> bool:
    """A verb of telling or finding out ("tell me if ...", "check if ..."), by the request classes."""
    classes = _verb_classes()
    return any(
        _phrasal(verb) in classes.get(c, ()) or verb.lemma_.lower() in classes.get(c, ())
        for c in ("speech", "consult")
    )


def _asked_of(tok) -> bool:
    """A person right before a question clause ("ask Sam what he wants"): whom it is asked of."""
    end = max(t.i for t in tok.subtree) + 1
    asked = [c for c in tok.head.children if c.dep_ == "ccomp" and min(t.i for t in c.subtree) == end]
    return _a_person(tok) and bool(asked) and tok.doc[end].lower_ in _WH


def _a_person(tok) -> bool:
    """A person by name or by relation ("Sam", "my sister"); not a thing the tagger took for a name ("a
    garden hose"): a name takes no article."""
    if any(c.dep_ == "det" and c.lower_ in ("a", "an", "the", "some", "any") for c in tok.children):
        return False
    return tok.ent_type_ == "PERSON" or tok.lemma_.lower() in _people()


def _own_clause(verb) -> list:
    """The verb and what depends on it, without a second verb coordinated with it ("..., and set it to X")."""
    cut = {t.i for c in verb.children if c.dep_ == "conj" and c.pos_ in ("VERB", "AUX") for t in c.subtree}
    cut |= {c.i for c in verb.children if c.dep_ == "cc" and any(x.dep_ == "conj" for x in verb.children)}
    return [t for t in verb.subtree if t.i not in cut and t.i >= verb.i]


def _object(doc, verb) -> tuple[str, str, tuple[str, ...], bool]:
    """The verb's object phrase, its head's lemma, the clause's nouns, and whether the head is a common noun."""
    # two objects read as a verbless clause ("get [my dad] [a cab]": "cab" a complement with "dad" its
    # subject): the thing is that noun, and the first is whom it is for
    small = [
        c
        for c in verb.children
        if c.dep_ == "ccomp" and c.pos_ == "NOUN" and any(g.dep_ == "nsubj" for g in c.children)
    ]
    content = {
        t.i for c in verb.children if c.dep_ in ("xcomp", "ccomp") and c.pos_ != "NOUN" for t in c.subtree
    }
    nouns = tuple(
        t.lemma_.lower()
        for t in verb.subtree
        if t.pos_ in ("NOUN", "PROPN") and t.i != verb.i and t.i not in content
    )
    if verb.lemma_.lower() in _MANDATIVE:  # "ask Boots for a top-up": the thing asked for, not whom
        for p in verb.children:
            things = [g for g in p.children if g.dep_ == "pobj" and g.pos_ in ("NOUN", "PROPN")]
            if p.dep_ == "prep" and p.lower_ == "for" and things:
                return (
                    _span(list(things[0].subtree)),
                    things[0].lemma_.lower(),
                    nouns,
                    things[0].pos_ == "NOUN",
                )
    for child in verb.children:  # "work out a week of dinners": a span of time "of" the things made
        timed = child.dep_ == "npadvmod" or (child.dep_ == "dobj" and child.ent_type_ in ("DATE", "TIME"))
        if timed and child.pos_ == "NOUN":
            things = [g for p in child.children if p.dep_ == "prep" and p.lower_ == "of" for g in p.children]
            things = [g for g in things if g.dep_ == "pobj" and g.pos_ == "NOUN"]
            if things:
                return _span(list(child.subtree)), things[0].lemma_.lower(), nouns, True
    for dep in ("dobj", "attr", "oprd"):
        found = [
            c
            for c in verb.children
            if c.dep_ == dep and c.pos_ != "PRON" and c.lower_ not in ("usual", "regular")
        ]
        if found:
            # two objects ("get my mum a taxi", "order my wife some flowers"): the first is whom it is
            # for, the last is the thing (the small model calls both direct objects)
            child = found[-1]
            return _span(list(child.subtree)), child.lemma_.lower(), nouns, child.pos_ == "NOUN"
    for child in verb.children:  # "book me a taxi home": the tagger makes the thing a modifier of "home"
        if child.lower_ == "home" and child.dep_ in ("advmod", "npadvmod"):
            mods = [g for g in child.children if g.dep_ in ("compound", "amod", "nmod") and g.pos_ == "NOUN"]
            if mods:
                words = [t for g in child.children if g.i < child.i for t in g.subtree]
                return _span(words), mods[-1].lemma_.lower(), nouns, True
    if small:
        thing = small[0]
        whom = {t.i for g in thing.children if g.dep_ == "nsubj" for t in g.subtree}
        words = [t for t in thing.subtree if t.i not in whom]
        return _span(words), thing.lemma_.lower(), nouns, True
    for child in verb.children:  # "subscribe me to a newsletter": the object of the first preposition
        if child.dep_ == "prep":
            for pobj in child.children:
                timed = any(t.like_num or t.ent_type_ in ("DATE", "TIME") for t in pobj.subtree)
                if pobj.dep_ == "pobj" and pobj.pos_ != "PRON" and not timed:
                    return _span(list(pobj.subtree)), pobj.lemma_.lower(), nouns, pobj.pos_ == "NOUN"
    for child in verb.children:
        if child.dep_ in ("xcomp", "ccomp") and child.pos_ == "VERB":
            inner = _object(doc, child)
            if inner[0]:  # "remind me to take the bread out": what the act is about, not what it acts on,
                return inner[0], "", nouns, False  # so no head: "call the dentist" names no tool
    return "", "", nouns, False


def _span(tokens: list) -> str:
    if not tokens:
        return ""
    doc = tokens[0].doc
    return doc.text[tokens[0].idx : tokens[-1].idx + len(tokens[-1].text)].strip()


def _standing(clause: str, doc, tokens: list | None = None) -> bool:
    """A rule for every future action, not a request now: "always ...", "book vegetarian meals on flights"."""
    if _FREQUENCY.search(clause):
        return True
    if any(e.label_ in ("DATE", "TIME", "GPE", "ORG", "PERSON", "FAC", "LOC", "CARDINAL") for e in doc.ents):
        return False
    for tok in (
        tokens if tokens is not None else doc
    ):  # a bare plural after on/for/at ("on flights"): every one
        if tok.dep_ == "pobj" and tok.tag_ == "NNS" and tok.head.lower_ in _GENERIC_PREP:
            if not any(c.dep_ in ("det", "poss", "nummod", "amod", "compound") for c in tok.children):
                obj = [c for c in tok.head.head.children if c.dep_ == "dobj"]
                if (
                    obj
                    and obj[0].tag_ == "NNS"
                    and not any(c.dep_ in ("det", "poss", "nummod") for c in obj[0].children)
                ):
                    return True
    return False


# an indefinite time to come, a closed class of English adverbials: a want with one is a wish, not a
# request ("I'd love to learn the cello one day"); one followed by a time ("one day next week") is a time, and
# "one day" inside a clause is a length ("hire a car, one day, from the airport")
_SOMEDAY = re.compile(
    r"(?i)\b(?:some ?day|one of these days|eventually|at some point|in the future|before i die|in my lifetime"
    r"|one day(?=\s*(?:[.!?]|$|,?\s+(?:but|though|when|if)\b)))\b(?!\s+(?:next|this|in|on|at|after|before|soon|later)\b)"
)


def _asks_what_can_be_done(tokens: list, j: int) -> bool:
    """ "can you book trains as well or only flights?", "can you do hotels too?": a question whose things
    are kinds (bare plurals, no article, number or name) set against each other or added ("or only",
    "as well", "too", "also", "at all"), and that says no day, place or amount: what can be done."""
    rest = tokens[j + 1 :]
    things = [t for t in rest if t.pos_ == "NOUN" and t.dep_ in ("dobj", "conj", "pobj")]
    if not things or any(t.tag_ != "NNS" for t in things[:1]):
        return False
    if any(c.dep_ in ("det", "nummod", "poss") for t in things for c in t.children):
        return False
    text = " ".join(t.lower_ for t in rest)
    if not re.search(r"\b(?:or only|as well|too|also|at all|or just|either)\b", text):
        return False
    return not any(t.like_num or t.pos_ == "PROPN" or t.ent_type_ in ("DATE", "TIME", "GPE") for t in rest)


def _served_when(sent, tokens: list, i: int) -> bool:
    """ "could the GP see me tomorrow morning?": a modal question whose subject is someone named by role
    ("the GP") or name, whose verb's object is the speaker or theirs ("me", "her", "my knee", a name),
    and that says when. "can the vet see cats on Sundays?" asks what is done: no object of the user's."""
    subj = next((t for t in tokens[i + 1 :] if t.dep_ in ("nsubj", "nsubjpass")), None)
    if subj is None or subj.lower_ in _YOU or subj.lower_ in _SELF or subj.pos_ not in ("NOUN", "PROPN"):
        return False
    if not any(c.lower_ in ("the", "my", "our") for c in subj.children) and subj.pos_ != "PROPN":
        return False
    verb = subj.head
    objs = [c for c in verb.children if c.dep_ in ("dobj", "obj")]
    objs += [  # "look at my knee"; not a time ("on Friday")
        g
        for c in verb.children
        if c.dep_ == "prep"
        for g in c.children
        if g.dep_ == "pobj" and g.ent_type_ not in ("DATE", "TIME")
    ]
    mine = any(
        o.lower_ in ("me", "us", "him", "her", "them")
        or (o.pos_ == "PROPN" and o.ent_type_ not in ("DATE", "TIME"))
        or any(c.lower_ in ("my", "our", "his", "her", "their") for c in o.subtree)
        for o in objs
    )
    return mine and _says_when(sent.text)


def _want(sent, tokens: list, i: int) -> tuple[str, list[Request]]:
    """ "I need a taxi", "we'd like a table for two", "I want to book ...": a want of a thing or an act."""
    low = [t.lower_ for t in tokens]
    j = i + 1
    while j < len(tokens) and low[j] in (
        "'d",
        "would",
        "'ll",
        "will",
        "really",
        "just",
        "kinda",
        "also",
        "do",
        "could",
        "should",
        "am",
        "'m",
        "are",
        "'re",
    ):
        j += 1
    if j >= len(tokens):
        return "statement", []
    verb = tokens[j]
    if low[j] == "after" and set(low[i:j]) & {"am", "'m", "are", "'re"} and j + 1 < len(tokens):
        # "I'm after a secondhand road bike": to be after a thing is to want it
        found = _want_object(sent, tokens, j + 1, "want")
        return ("request", found) if found else ("statement", [])
    if any(_negates(c) for c in verb.children) or (j > 0 and low[j - 1] in ("n't", "not")):
        return "negated", []
    lemma = verb.lemma_.lower()
    wants = (
        lemma in _WANT_VERBS
        and verb.tag_ in ("VBP", "VB")
        and (
            lemma in ("need", "want", "fancy")
            or (lemma in ("like", "love") and bool({"'d", "would", "should"} & set(low[i:j])))
            or (lemma in ("have", "take") and ("'ll" in low[i:j] or "will" in low[i:j]))
            or (lemma == "use" and "could" in low[i:j])
        )
    )
    if not wants:
        return "statement", []
    if _SOMEDAY.search(sent.text):
        return "statement", []  # "I'd love to visit Petra someday": a wish with no time to act in
    k = j + 1
    if k < len(tokens) and low[k] == "to" and k + 1 < len(tokens):
        found = _command(sent, tokens, k + 1, "want")
        return ("request", found) if found else ("statement", [])
    found = _want_object(sent, tokens, k, "want")
    return ("request", found) if found else ("statement", [])


def _want_object(sent, tokens: list, k: int, form: str) -> list[Request]:
    """The thing wanted, from token ``k``: a noun phrase (and what follows it in the clause)."""
    rest = [t for t in tokens[k:] if not t.is_space]
    if not rest or rest[0].lower_ in (
        "to",
        "it",
        "that",
        "this",
        "them",
        "some",
        "more",
        "help",
        "advice",
        "ideas",
    ):
        return []
    nouns = [t for t in rest if t.pos_ in ("NOUN", "PROPN")]
    if not nouns or _standing(_span(rest), sent.doc):
        return []
    # "I want someone to look at this rash": a want of what someone else does, not of the assistant
    if any(
        t.lower_ == "to" and t.head.pos_ == "VERB" and t.head.dep_ in ("xcomp", "ccomp", "relcl")
        for t in rest
    ):
        first = rest[0]
        if (
            first.lower_
            in ("someone", "somebody", "anyone", "anybody", "him", "her", "them", "people", "everyone")
            or first.pos_ == "PROPN"
        ):
            return []
    phrase = _span(rest).rstrip(" .!?")
    return [
        Request(
            phrase,
            None,
            phrase,
            nouns[0].lemma_.lower(),
            form,
            tuple(t.lemma_.lower() for t in nouns),
            venues=_venues(rest),  # "we fancy an indian tonight ... from the Spice Mill"
            result=next(  # "I need a kettle, under £40, delivered fast": the state it is wanted in
                (
                    t.lemma_.lower()
                    for t in rest
                    if t.tag_ == "VBN" and t.dep_ == "acl" and t.head.pos_ == "NOUN"
                ),
                "",
            ),
            serves=_serves(rest),
        )
    ]


_USER = frozenset({"me", "us"})


def _serves(tokens) -> str:
    """The verb of an infinitive in ``tokens`` whose object is the user, hung on the thing asked for or
    on the asking verb ("a car to collect me", "send a car to take us to the airport"), else ""."""
    for t in tokens:
        if (
            t.tag_ == "VB"
            and t.dep_ in ("relcl", "acl", "advcl", "xcomp")
            and any(c.dep_ == "aux" and c.lower_ == "to" for c in t.children)
            and any(c.dep_ == "dobj" and c.lower_ in _USER for c in t.children)
        ):
            return t.lemma_.lower()
    return ""


def _elliptical(tokens: list, i: int) -> str | None:
    """A phrase with no verb that asks for a thing: it says "please" ("elliptical"), or it names a
    time or a count and nothing else is going on ("table for one at Pho Saigon tonight at 6": "fragment",
    which the router holds to a stricter fit)."""
    words = [t for t in tokens[i:] if t.is_alpha]
    if not any(t.pos_ in ("NOUN", "PROPN") for t in words):
        return None
    if any(t.lower_ in ("no", "not", "nothing", "none", "without", "never") for t in words[:2]):
        return None  # "no rich sauces please": a thing kept away, not a thing asked for
    please = next((k for k, t in enumerate(tokens) if k >= i and t.lower_ in ("please", "pls", "plz")), None)
    if (
        please is not None
    ):  # what comes before "please" is a bare phrase: "2 tickets pls", "the saag paneer please"
        before = [t for t in tokens[i:please] if t.is_alpha]
        if before and not any(t.tag_.startswith("VB") or t.tag_ == "MD" for t in before):
            return "elliptical"
    cut = _told_about_after(tokens, i)
    words = [t for t in tokens[i:cut] if t.is_alpha] or words
    if any(
        x.dep_ == "nsubj"
        and x.pos_ in ("NOUN", "PROPN")
        and x.head.tag_ == "VBD"
        and any(d.dep_ == "poss" or d.lower_ in ("the", "this", "that", "these", "those") for d in x.children)
        for x in tokens[i:]
    ):  # "great dinner at Sakura on friday, 4 of us, the food was amazing": told, not asked ("breakfast
        return None  # included" is no clause told: no determiner says which breakfast)
    verbs = [
        t
        for t in words
        if (t.tag_.startswith("VB") or t.tag_ == "MD")
        and not _a_day_word(t)
        and not (t.dep_ == "pobj" and only_a_name(t.lower_))  # "cab to Stansted": a name the -ed made a verb
        and not _counted_participle(t)  # "2 checked bags": a participle between a count and its noun
    ]
    doc = tokens[0].doc
    span = doc.text[tokens[i].idx : tokens[-1].idx + len(tokens[-1].text)]
    clock = bool(_CLOCK.search(span))
    timed = clock or any(e.label_ in ("DATE", "TIME") for e in doc.ents if e.start >= tokens[i].i)
    timed = timed or _says_when(span)  # "fri night", "tmrw morning": the day reader, not only the tagger
    counted = (
        clock
        or any(  # "2 tickets", "two seats"; not a day of the month ("on the 1st")
            (t.like_num or t.lower_ in ("one", "two")) and t.ent_type_ not in ("DATE", "ORDINAL")
            for t in tokens[i:]
        )
        or any(  # "2 weeks", "three nights": a number counting a common noun, not a month's day ("Dec 3")
            t.like_num and t.dep_ == "nummod" and t.head.pos_ == "NOUN" for t in tokens[i:]
        )
        or any(  # "an hour", "a fortnight": how long, said with its article
            t.lower_ in ("a", "an") and k + 1 < len(tokens) and tokens[k + 1].lower_ in _SPANS
            for k, t in enumerate(tokens)
            if k >= i
        )
    )
    if any(s.text.strip().endswith("?") for s in doc.sents):
        return None  # details with a question about them ("gym plan: 4 days, heavy. thoughts?")
    if not verbs and timed and counted and len(words) >= 3 and not any(_judged(t) for t in words):
        return "fragment"
    ends = {prep for prep, _ in _ends(tokens[i:])}
    if not verbs and timed and ends == {"from", "to"} and not any(_judged(t) for t in words):
        return "fragment"  # "Lisbon to Porto on the 3rd": a journey and when, the trip itself is asked for
    if _spec_list(tokens, i):
        return "fragment"
    if (
        not verbs
        and counted
        and len(words) >= 3
        and _from_a_name(tokens[i:])
        and not any(_judged(t) for t in words)
    ):
        return "fragment"  # "three samosas and a mango lassi from Raj Mahal": things, counted, from a named place
    return None


_SPANS = frozenset({"hour", "day", "night", "week", "fortnight", "month"})  # lengths of time (closed class)


def _from_a_name(tokens: list) -> bool:
    """ "from Raj Mahal": "from" and a name, capitalised, as the phrase's last words or before a comma."""
    for k, t in enumerate(tokens[:-1]):
        if (
            t.lower_ == "from"
            and tokens[k + 1].text[:1].isupper()
            and tokens[k + 1].pos_ in ("PROPN", "NOUN")
        ):
            return True
    return False


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


def _first_part(tokens: list, i: int) -> list:
    out = []
    doc = tokens[0].doc
    for t in tokens[i:]:
        spaced_dash = t.text in "-–—" and t.i > 0 and bool(doc[t.i - 1].whitespace_)
        if (t.text in _SEGMENT_BREAKS and (t.text not in "-–—" or spaced_dash)) or t.lower_ in (
            "please",
            "pls",
            "plz",
        ):
            break
        out.append(t)
    return out


def _timeish(tok) -> bool:
    """A word that says when, not what: "thurs", "evening", "tomorrow", the "pm" of "6pm"."""
    from datetime import datetime, timezone

    from ibachat.agent.reading.when import read_when

    if tok.ent_type_ in ("DATE", "TIME") or tok.like_num:
        return True
    if tok.i > 0 and _CLOCK.search(tok.doc[tok.i - 1].text + tok.text):
        return True
    return read_when(tok.text, datetime(2000, 1, 1, tzinfo=timezone.utc)).said


def _fragment_head(tokens: list, i: int):
    """The noun the fragment's first part is about, read from the parse: among its nouns before a
    preposition and not saying when, the one the others modify; a common noun over a name ("flight MAN
    to Alicante": the flight; "train strike again": the strike; "boxing class thurs evening": the class)."""
    nouns = []
    for t in _first_part(tokens, i):
        if t.pos_ == "ADP":
            break
        if t.pos_ in ("NOUN", "PROPN") and not _timeish(t):
            nouns.append(t)
    common = [t for t in nouns if t.pos_ == "NOUN"] or nouns
    ids = {t.i for t in common}
    heads = [t for t in common if not (t.dep_ == "compound" and t.head.i in ids)]
    return (heads or common or [None])[-1]


def _counted_participle(t) -> bool:
    """A past form between a number and a noun ("2 checked bags", "3 boiled eggs"): what kind of thing
    is counted, however the tagger hung it."""
    doc = t.doc
    return (
        t.tag_ in ("VBD", "VBN")
        and 0 < t.i < len(doc) - 1
        and doc[t.i - 1].like_num
        and doc[t.i + 1].pos_ in ("NOUN", "PROPN")
    )


def _told_about_after(tokens: list, i: int) -> int:
    """Where a clause of its own in the present starts after a comma ("babysitter for Saturday night, two
    kids, the youngest is 18 months"): it tells about the thing; the verbless phrase before it is what is
    asked (one in the past tells what was: "dinner at Sakura on friday, 4 of us, the food was amazing").
    ``len(tokens)`` when there is none."""
    for k in range(i + 1, len(tokens)):
        if tokens[k].text == "," and any(
            x.dep_ in ("nsubj", "nsubjpass") and x.head.tag_ in ("VBZ", "VBP", "MD") and x.head.i > k
            for x in tokens[k + 1 :]
        ):
            return k
    return len(tokens)


def _qualities(tokens: list, i: int, head=None) -> tuple[str, ...]:
    """The adjectives of the fragment ("awful train", "vegetarian meal plan", "so-so hotel"), not
    numbers or ordinals, nor a comparative that picks among a detail's options ("..., lower tier"), nor
    those of a clause that tells about the thing after it ("..., she is a bit nervous")."""
    return tuple(
        t.lower_
        for t in tokens[i : _told_about_after(tokens, i)]
        if t.pos_ == "ADJ"
        and t.dep_ != "ROOT"
        and (t.tag_ != "JJR" or t.head.i == getattr(head, "i", -1))
        and t.is_alpha
        and not (t.is_title and t.i != t.sent.start)  # "the Arsenal game": a name the parse took for one
        and t.ent_type_ not in ("ORDINAL", "DATE", "TIME")
        and not any(c.dep_ == "mark" for c in (*t.children, *t.head.children))  # "if possible": a hedge
        and not _timeish(t)  # "fri night": when, not what kind
        and not (t.head.i != t.i and _timeish(t.head))  # "next fri"
        and t.head.dep_ != "pobj"  # "Boots on the high street": where, not what kind
    )


_BARE_FILLERS = frozenset({"please", "pls", "plz", "it", "them", "for", "me", "us", "now", "thanks", "ta"})


def _bare_verb(tokens: list) -> str | None:
    """A later part that is a verb alone ("..., reserve please", "..., order for me"): the act to do on the
    thing the first part names."""
    parts: list[list] = [[]]
    for t in tokens:
        if t.text in _SEGMENT_BREAKS:
            parts.append([])
        elif t.is_alpha:
            parts[-1].append(t)
    for part in parts[1:]:
        words = [t for t in part if t.lower_ not in _BARE_FILLERS]
        if (
            len(words) == 1
            and 2 <= len(part) <= 3
            and part[0] is words[0]  # the verb first, then "please" / "it" / "for me": not a bare "birthday"
            and words[0].lower_ not in _NOT_A_VERB
            and base_form(words[0].lower_)
        ):
            return words[0].lower_
    return None


_SEGMENT_BREAKS = frozenset({",", ";", ":", "-", "–", "—"})
_PERSONAL = frozenset({"i", "we", "you", "u", "he", "she", "they"})
_PAST_TIME = re.compile(r"\b(?:yesterday|last|ago|earlier|just)\b", re.I)


def _judged(t) -> bool:
    """A superlative or a quality with a degree word: "best holiday", "so pretty", "really nice": a comment."""
    return t.tag_ == "JJS" or (
        t.pos_ in ("ADJ", "ADV")
        and any(c.dep_ == "advmod" and c.pos_ == "ADV" and _degree(c) for c in t.children)
    )


def _degree(adverb) -> bool:
    """An adverb of degree, not one that asks for more ("extra hot") or says where ("somewhere quiet")."""
    low = adverb.lower_
    return low != "extra" and not low.endswith("where")


def _spec_list(tokens: list, i: int) -> bool:
    """A thing and its details, without a verb: "hotel in Rome, 3 nights from 10 May, twin room". The first
    part names the thing (no verb), at least one part follows, and nothing reads as a story or a comment:
    no clause with a person as its subject ("I'm stuck in bed"), no past verb with its subject left out
    ("drove like a maniac") and no time in the past ("last night"), no part that is a bare status ("hotel:
    done"), no degree word on a quality or a superlative ("so pretty", "best holiday") and no exclamation.
    The router holds a fragment to a stricter fit: it must name the tool's object."""
    doc = tokens[0].doc
    rest = tokens[i:]
    parts: list[list] = [[]]
    for t in rest:
        if t.text in _SEGMENT_BREAKS and (t.text not in "-–—" or t.i == 0 or doc[t.i - 1].whitespace_):
            parts.append([])  # a dash breaks only with a space before it: not "5-day", "self-drive"
        elif not t.is_space:
            parts[-1].append(t)
    parts = [p for p in parts if any(t.is_alpha or t.like_num for t in p)]
    if len(parts) < 2:
        return False
    first = parts[0]
    if any(t.tag_.startswith("VB") or t.tag_ == "MD" for t in first):
        return False
    if not any(t.pos_ in ("NOUN", "PROPN") for t in first):
        return False
    text = doc.text
    if text.rstrip().endswith("!") or any(s.text.strip().endswith("?") for s in doc.sents):
        return False  # an exclamation, or a question the details are about ("gym plan: 4 days. thoughts?")
    if any(e.label_ in ("DATE", "TIME") and _PAST_TIME.search(e.text) for e in doc.ents):
        return False
    for t in rest:
        if (
            t.dep_ in ("nsubj", "nsubjpass")
            and t.lower_ in _PERSONAL
            and not any(c.dep_ == "mark" and c.lower_ == "if" for c in t.head.children)
        ):
            return False  # "I'm stuck in bed"; not a hedge ("window if they can")
        subjects = [c for c in t.children if c.dep_ in ("nsubj", "nsubjpass")]
        if t.tag_ == "VBD" and not any(
            not any(b.text in _SEGMENT_BREAKS for b in doc[min(t.i, c.i) : max(t.i, c.i)]) for c in subjects
        ):
            return False  # "drove like a maniac": a past verb with its subject left out or in another part
        if _judged(t):
            return False
    return not any(_a_status(part) for part in parts)


def _a_status(part: list) -> bool:
    """A part that says how a thing stands: "done", "booked", "(still) to sort"."""
    words = [t for t in part if t.is_alpha or t.like_num]
    if len(words) == 1 and words[0].tag_ in ("VBN", "VBD"):
        return True  # "hotel in Rome: done."
    core = [t for t in words if t.pos_ != "ADV"]
    return len(core) == 2 and core[0].tag_ == "TO" and core[1].tag_ == "VB"  # "car hire: still to sort"


def _status_note(tokens: list) -> bool:
    """A thing, a colon and how it stands ("train there: still to buy", "flat: booked"): a note of where
    things are, not a command, even when the thing reads as a verb."""
    colons = [k for k, t in enumerate(tokens) if t.text == ":"]
    if not colons:
        return False
    after = tokens[colons[0] + 1 :]
    cut = next((k for k, t in enumerate(after) if t.text in _SEGMENT_BREAKS), len(after))
    return _a_status(after[:cut])


_CLOCK = re.compile(r"\b(?:[01]?\d|2[0-3])[:.][0-5]\d\b|\b\d{1,2}\s*(?:am|pm|a\.m\.|p\.m\.)", re.I)


def _why_not(sent, tokens: list, i: int) -> str:
    clause = sent.doc.text[tokens[i].idx : sent.end_char]
    return "standing" if _FREQUENCY.search(clause) else "statement"
