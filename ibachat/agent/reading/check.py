"""The dependency parse checks what the cue tables read as a preference: what is kept is a thing wanted.

``open_prefs`` finds stance cues and takes the words around them; the parse of the sentence then
decides what those words are:

- a cue word used as something else is no cue: "tastes *like* soap to me" (a preposition, not the verb
  "like"), "first proper *go* with you" (a noun);
- a phrase is cut where a new clause starts: "dill, it tastes like soap" is "dill";
- what is left must name a thing: a noun, an adjective or a gerund; not a pronoun, a bare verb ("I just
  want to moan"), a story ("watched Paddington last night, way better") or a place word ("round here");
- a request to the assistant is not a standing wish ("order from Saffron Lantern please: the momo"):
  what it asked for is read when the call runs, as a past call.

The word lists here are closed classes (pronouns, prepositions); every other decision is the parse's.
"""

from __future__ import annotations

import dataclasses
import re
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ibachat.agent.reading.open_prefs import OpenPref

_PRONOUNS = frozenset(
    "it its this that these those them they one ones me you us him her there here round around".split()
)
_KEEP_HOW = frozenset({"choice", "passed-over", "declined"})  # read from an offer, not from a cue


def checked(prefs: list[OpenPref]) -> list[OpenPref]:
    """The preferences the parse of their sentences confirms, trimmed to the thing they are about."""
    from ibachat.agent.reading.acts import read_act
    from ibachat.agent.reading.parse import parse

    out: list[OpenPref] = []
    kept: dict[str, list[str]] = {}  # sentence -> the phrases kept there (a core must lie inside one)
    for p in sorted(prefs, key=lambda p: "core" in p.tags):
        if p.how in _KEEP_HOW or not p.sentence:
            out.append(p)
            continue
        doc = parse(p.sentence)
        at = p.sentence.find(p.phrase)
        if at < 0:
            out.append(p)
            continue
        span = doc.char_span(at, at + len(p.phrase), alignment_mode="expand")
        if span is None:
            out.append(p)
            continue
        if _false_cue(p, doc, at):
            continue
        if _asks_now(p, read_act(p.sentence), at, doc):
            continue
        cue = next((t[4:] for t in p.tags if t.startswith("cue=")), "")
        after = (
            bool(cue) and p.sentence.find(cue, at) >= at + len(p.phrase) - 1
        )  # "..., so no rich sauces please"
        if not after and _someone_elses_verb(p, doc, at, cue):
            continue  # "rolo went for a labrador at the park": the dog's act, no pick of the user's
        tokens = _last_clause(list(span)) if after else _first_clause(_own_clause_object(list(span)))
        lone_core = "core" in p.tags and len(tokens) == 1 and tokens[0].is_alpha  # one word of a kept phrase
        if not tokens or not (_names_a_thing(tokens) or lone_core):
            continue
        phrase = doc.text[tokens[0].idx : tokens[-1].idx + len(tokens[-1].text)].strip(" ,.;:")
        if "core" in p.tags and not any(phrase in k for k in kept.get(p.sentence, [])):
            continue  # the core of a phrase the parse cut short ("soap to me" of "dill, it tastes like soap")
        kept.setdefault(p.sentence, []).append(phrase)
        out.append(p if phrase == p.phrase else dataclasses.replace(p, phrase=phrase))
        for part in _parts(tokens):  # "high up and as far from the lifts": two wishes, each its own
            out.append(dataclasses.replace(p, phrase=part, tags=p.tags | {"core"}))
    return out


def _parts(tokens: list) -> list[str]:
    """The sides of an "and" / "or" that joins two things in one phrase, when each names something."""
    cuts = [i for i, t in enumerate(tokens) if t.pos_ == "CCONJ" and 0 < i < len(tokens) - 1]
    if len(cuts) != 1:
        return []
    inside = {t.i for t in tokens}
    roots = [t for t in tokens if t.head.i not in inside or t.head is t]
    joined = tokens[cuts[0]].head
    if roots and joined not in roots and not any(joined in r.conjuncts for r in roots):
        return []  # the "or" is inside a part: "cheeses like brie or feta" names cheeses, with examples
    if any(len(r.conjuncts) > 1 for r in roots) or any(t.text == "," for t in tokens[: cuts[0]]):
        return []  # a list of three ("fruits, nuts, and veggie sticks"): the reader lists its items itself
    left, right = tokens[: cuts[0]], tokens[cuts[0] + 1 :]
    if left[-1].dep_ in ("compound", "amod", "nmod") or left[-1].head.i > right[0].i:
        return []  # "salt and vinegar crisps": two modifiers of one thing
    if len(left) == 1 and left[0].pos_ == "NOUN" and len(right) >= 2 and right[-1].pos_ == "NOUN":
        return []  # the same, as the small parser often reads it ("salt" and "vinegar crisps")
    sides = [
        s for s in (left, right) if s and any(t.pos_ in ("NOUN", "PROPN", "ADJ", "ADV", "VERB") for t in s)
    ]
    if len(sides) != 2:
        return []
    doc = tokens[0].doc
    return [doc.text[s[0].idx : s[-1].idx + len(s[-1].text)].strip(" ,") for s in sides]


def _someone_elses_verb(p: OpenPref, doc, at: int, cue: str) -> bool:
    """The cue before the thing is a verb whose subject is someone or something other than the user ("rolo
    went for a labrador", "the lads went for the curry"), by the parse: the stance is theirs."""
    if not cue:
        return False
    where = p.sentence.rfind(cue, 0, at + 1)
    first = cue.split()[0]
    token = next((t for t in doc if where >= 0 and t.idx >= where and t.lower_ == first), None)
    if token is None or token.pos_ not in ("VERB", "AUX") or token.lemma_.lower() in ("need", "require"):
        return False  # "the room needs a fan": what a thing needs is the user's wish for it
    subjects = [c for c in token.children if c.dep_ in ("nsubj", "nsubjpass")]
    # a person or a thing acting ("rolo", "the lads", "she"); "it needs to be a quiet room" is the thing's
    return bool(subjects) and all(
        s.pos_ in ("NOUN", "PROPN") or s.lower_ in ("he", "she", "they") for s in subjects
    )


def _false_cue(p: OpenPref, doc, at: int) -> bool:
    """The cue's own word is not used as a stance here ("tastes like soap", "a first proper go")."""
    cue = next((t[4:] for t in p.tags if t.startswith("cue=")), "")
    if not cue:
        return False
    first = cue.split()[0]
    where = (
        p.sentence.rfind(cue, 0, at + 1) if p.sentence.rfind(cue, 0, at + 1) >= 0 else p.sentence.find(cue)
    )
    if where < 0:
        return False
    token = next((t for t in doc if t.idx >= where and t.lower_ == first), None)
    if token is None:
        return False
    if token.pos_ == "NOUN" and any(
        c.dep_ == "prep" and c.lower_ in ("to", "of", "for", "towards", "toward", "against")
        for c in token.children
    ):
        return False  # a noun of stance governing its thing: "an aversion to heights", "a phobia of birds"
    if token.pos_ == "NOUN" and token.i + 1 < len(doc) and doc[token.i + 1].lower_ in ("me", "us"):
        return False  # a noun takes no object pronoun: "a later start suits me" misread "suits" as one
    if cue in ("like always", "like usual", "as always", "as usual", "as ever"):
        return False  # a habit said of the request: "a bottle of red like always"
    if token.pos_ == "ADP" and len(cue.split()) > 1 and first != "like":
        return False  # a cue that is a preposition's phrase: "(not) suitable *for me*"
    return token.pos_ in ("ADP", "NOUN", "PROPN", "SCONJ") or (first == "like" and token.tag_ == "IN")


def _asks_now(p: OpenPref, act, at: int, doc=None) -> bool:
    """The sentence is a request to the assistant (a command, "can you ...", "let's ..."): what it asks
    for is this once, not a standing wish. A command the parse does not read as a verb is none: "silk and
    *lace* dresses" is a noun phrase, not "lace the dresses"."""
    if _HABIT_SAID.search(p.sentence):
        return False  # "... and chuck in a bottle of red like always": the request tells a habit too
    if doc is not None and _reduplicated(doc):
        return False  # "face to face or I'm not bothering": a manner, not the verb "face"
    if any(
        r.form in ("imperative", "modal", "lets", "elliptical") and _a_verb_here(r.verb, doc)
        for r in act.requests
    ):
        return True
    # "I need to get to Bristol on the 9th": a want of something done on one day is this once
    return any(r.form == "want" for r in act.requests) and _one_day(p.sentence)


# words that say a request is what the user always asks for (closed class: adverbs of frequency)
_HABIT_SAID = re.compile(
    r"\b(?:like|as) (?:always|usual|ever|normal|per usual)\b|\b(?:always|usually|normally|every time)\b", re.I
)


def _reduplicated(doc) -> bool:
    """The sentence opens with one noun twice around a preposition ("face to face", "door to door",
    "back to back"): an adverbial of manner, whatever tag the first word got."""
    return len(doc) >= 3 and doc[1].pos_ == "ADP" and doc[0].lower_ == doc[2].lower_ and doc[0].is_alpha


def _own_clause_object(tokens: list) -> list:
    """The thing of a clause the user speaks in ("i'd take *the quiet room*", "we'll have *the set menu*"):
    the words after the user's own verb; the phrase itself when it is not such a clause."""
    first = tokens[0]
    if first.dep_ not in ("nsubj", "nsubjpass") or first.lower_ not in ("i", "we"):
        return tokens
    verb = first.head
    inside = {t.i for t in tokens}
    if verb.i not in inside:
        return tokens
    rest = [t for t in tokens if t.i > verb.i and not (t.dep_ == "prt" and t.head.i == verb.i)]
    return rest or tokens


def _a_verb_here(verb: str, doc) -> bool:
    """Whether the parse reads the request's verb as a verb (or cannot say: the word is not in it)."""
    if doc is None or not verb:
        return True
    tokens = [t for t in doc if t.lower_ == verb.lower()]

    def in_a_noun_phrase(t) -> bool:  # "silk and *lace* dresses": a word modifying a noun
        return t.pos_ not in ("VERB", "AUX") and (
            t.dep_ in ("compound", "amod", "nmod", "poss")
            or (t.dep_ == "conj" and t.head.pos_ in ("NOUN", "PROPN"))
        )

    return not tokens or not all(in_a_noun_phrase(t) for t in tokens)


def _one_day(sentence: str) -> bool:
    """The sentence names one day ("on the 9th", "tomorrow"), not a habit ("every Friday", "on Mondays")."""
    from datetime import UTC, datetime

    from ibachat.agent.reading.speech.words import _FREQUENCY
    from ibachat.agent.reading.when import read_when

    if _FREQUENCY.search(sentence) or re.search(r"\b(?:every|each)\b|\b\w+days\b", sentence, re.I):
        return False
    when = read_when(sentence, datetime.now(UTC))
    # "on Saturday" said on a Saturday is a question (today or next week?), still one day
    return when.day is not None or (when.asks == "day" and bool(when.day_words))


def _past(word: str) -> bool:
    from ibachat.agent.reading.acts import past_form

    return past_form(word)


def _first_clause(tokens: list) -> list:
    """The phrase up to where a new clause or a list of something else starts."""
    while tokens and tokens[0].pos_ in ("CCONJ", "PUNCT"):
        tokens = tokens[1:]  # "and bung in a side of olives": the "and" joins it to what came before
    kept = []
    for i, t in enumerate(tokens):
        if _relative(t) or any(_relative(a) and a.i > tokens[0].i for a in t.ancestors):
            kept.append(t)  # "platforms that rely on pre-recorded lectures": the clause says which ones
            continue
        new_subject = t.dep_ in ("nsubj", "nsubjpass") and t.pos_ == "PRON"
        spaced_dash = t.text in ("-", "–") and bool(tokens[i - 1].whitespace_) if i else False
        if i and (
            t.text in (";", ":", "—")
            or spaced_dash  # "in-person", "fantasy-themed" are one word; "dill - it's soap" is two clauses
            or new_subject  # "dill, it tastes like soap": a comma alone does not end the thing named
            or t.dep_ == "mark"
            or (t.tag_ in ("VBD", "VBZ", "VBP", "MD") and _opens_clause(t, tokens[i - 1]))
            or (
                t.pos_ == "VERB" and t.dep_ == "conj" and t.head.pos_ in ("VERB", "AUX") and t.tag_ != "VB"
            )  # "... and find them"; "go with option 3 and install a fence" is one wish, done in two steps
        ):
            break
        kept.append(t)
    while kept and (
        kept[-1].is_punct or (kept[-1].pos_ in ("CCONJ", "ADP", "DET", "PART") and kept[-1].dep_ != "prt")
    ):
        kept.pop()  # a verb's own particle stays with it: "look out", "drop off"
    while kept and kept[0].pos_ in ("CCONJ", "PUNCT"):
        kept.pop(0)
    return kept


_RELATIVE_TAGS = ("WDT", "WP", "WP$")  # "that", "which", "who", "whose" as a clause's subject


def _relative(t: Any) -> bool:
    """A relative clause: so labelled, or a verb whose subject is a relative pronoun (the small parser
    often labels "plays that feature ..." a clausal complement)."""
    return t.dep_ == "relcl" or (
        t.pos_ in ("VERB", "AUX")
        and any(c.dep_ in ("nsubj", "nsubjpass") and c.tag_ in _RELATIVE_TAGS for c in t.children)
    )


def _opens_clause(t: Any, before: Any) -> bool:
    """A finite verb starts a clause of its own when it has its own subject or follows a break (a comma,
    an "and"); right after a word of the phrase it is the parser's misreading of a noun ("cakes
    containing *nuts*")."""
    verb = t.head if t.dep_ in ("aux", "auxpass", "neg") else t  # "... glycerin *do*n't seem suitable"
    if any(c.dep_ in ("nsubj", "nsubjpass", "expl") for c in verb.children):
        return True
    return before.is_punct or before.pos_ in ("CCONJ", "SCONJ")


def _last_clause(tokens: list) -> list:
    """The phrase from where its last clause starts (a cue after it speaks of what is nearest)."""
    start = 0

    def verbal(part: list) -> bool:
        return any(t.pos_ in ("VERB", "AUX") for t in part)

    for i, t in enumerate(tokens):
        if (
            t.text in (";", ":")
            or (t.lower_ in ("so", "but", "because") and t.dep_ in ("cc", "advmod", "mark"))
            # "and" ends a clause only between verbs: "salt and vinegar crisps" is one thing
            or (t.lower_ == "and" and t.dep_ == "cc" and t.head.pos_ in ("VERB", "AUX"))
            # a comma ends one where a clause stands on either side: "I had the soup, the dill", not
            # "the fur options, real or faux"
            or (t.text == "," and (verbal(tokens[start:i]) or verbal(tokens[i + 1 :])))
        ):
            start = i + 1
    rest = tokens[start:]
    while rest and rest[0].lower_ in ("no", "not", "nothing", "never", "without"):
        rest = rest[1:]  # the negation is the polarity's business, the thing is what follows
    return _first_clause(_own_clause_object(rest) if rest else rest)


def _names_a_thing(tokens: list) -> bool:
    """A noun, an adjective or a gerund, and not led by a pronoun ("it hot", "soap to me")."""
    if tokens[0].lower_ in _PRONOUNS or tokens[0].pos_ == "ADP":
        return False

    def in_relative(t: Any) -> bool:  # "platforms that rely on ...": says which things, tells no story
        return _relative(t) or any(_relative(a) and a in tokens for a in t.ancestors)

    def a_story(t: Any, i: int) -> bool:
        # a lone word is no story (a noun misread as a verb); a phrase that opens on a verb tells one
        # only in the past ("watched Paddington last night"): "plays that feature ..." right after a
        # stance is a plural noun the small parser read as a verb
        opening = (t.tag_ == "VBD" and _past(t.lower_)) if i == 0 else _opens_clause(t, tokens[i - 1])
        return len(tokens) > 1 and t.tag_ in ("VBD", "VBZ", "VBP") and not in_relative(t) and opening

    if any(a_story(t, i) for i, t in enumerate(tokens)):
        return False  # a story of what happened, not a thing wanted
    things = [
        t
        for t in tokens
        if t.pos_ in ("NOUN", "PROPN") or (t.tag_ == "VBG" and not any(c.dep_ == "aux" for c in t.children))
    ]  # "was wrecking" is a verb in progress, "cycling" a thing
    if things:
        return True
    # no noun: only qualities ("crunchy", "dark or apocalyptic") say what is wanted; "first proper" does not
    if len(tokens) == 1:
        return tokens[0].pos_ == "ADJ"
    return any(t.pos_ == "CCONJ" for t in tokens) and all(t.pos_ in ("ADJ", "CCONJ", "PUNCT") for t in tokens)


# "no problem", "no idea": "no" with these nouns says nothing about what is wanted (a closed class of idioms)
_NO_IDIOMS = frozenset(
    "problem problems worries worry idea way doubt thanks clue chance wonder point rush pressure need matter "
    "offence offense joke kidding comment rest time one longer more less thing things sense hurry".split()
)


def kept_away(sentence: str) -> list[str]:
    """What a sentence says must be kept away, as "no X" / "nothing with X" ("no running and no cycling",
    "no tahini, no sesame", "nothing with dill though"), read from the parse: the noun or gerund a "no"
    determines, and what is coordinated with it."""
    from ibachat.agent.reading.parse import parse

    if sentence.rstrip().endswith("?") or not re.search(r"\b(?:no|nothing)\b", sentence, re.I):
        return []  # the parse is read only at a "no" or a "nothing": without one there is nothing to read
    doc = parse(sentence)
    out: list[str] = []
    for tok in doc:
        head = None
        if (
            tok.lower_ == "no"
            and tok.dep_ == "det"
            and (tok.head.pos_ in ("NOUN", "PROPN") or tok.head.tag_ == "VBG")
        ):
            head = tok.head
        elif tok.lower_ == "nothing":
            prep = next((c for c in tok.children if c.dep_ == "prep" and c.lower_ == "with"), None)
            head = next((c for c in prep.children if c.dep_ == "pobj"), None) if prep is not None else None
        if head is None or head.lemma_.lower() in _NO_IDIOMS:
            continue
        also = [
            c
            for c in head.conjuncts
            if (c.pos_ in ("NOUN", "PROPN") or c.tag_ == "VBG")
            and not any(
                g.dep_ in ("aux", "nsubj", "nsubjpass") for g in c.children
            )  # not a clause of its own
        ]
        for thing in [head, *also]:
            words = [t for t in thing.subtree if t.dep_ in ("compound", "amod") and t.i < thing.i] + [thing]
            phrase = " ".join(t.text for t in sorted(words, key=lambda t: t.i))
            if phrase not in out and thing.lemma_.lower() not in _NO_IDIOMS:
                out.append(phrase)
    return out


def taken_back(sentence: str) -> list[str]:
    """What a sentence says is back in the user's life: "fish is back on the menu", "I'm eating fish
    again" (a resumed taste, from the parse: the subject of "be back", the object of a verb with "again")."""
    from ibachat.agent.reading.parse import parse

    if sentence.rstrip().endswith("?") or not (
        re.search(r"\bback\b", sentence, re.I)
        or (re.search(r"\bagain\b", sentence, re.I) and re.search(r"\b(?:i|we)\b", sentence, re.I))
    ):
        return []  # read only at a "back", or an "again" with an "I" or a "we" to say it
    doc = parse(sentence)
    out: list[str] = []
    for tok in doc:
        if tok.lower_ == "back" and tok.head.lemma_ == "be":
            subj = [c for c in tok.head.children if c.dep_ == "nsubj" and c.pos_ in ("NOUN", "PROPN")]
            out += [s.text for s in subj]
        if (
            tok.lower_ == "again"
            and tok.head.pos_ == "VERB"
            and not any(c.dep_ == "neg" for c in tok.head.children)
        ):
            subj = [c for c in tok.head.children if c.dep_ == "nsubj"]
            if subj and subj[0].lower_ in ("i", "we"):
                out += [c.text for c in tok.head.children if c.dep_ == "dobj" and c.pos_ in ("NOUN", "PROPN")]
    return list(dict.fromkeys(out))
