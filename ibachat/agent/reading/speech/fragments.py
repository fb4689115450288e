"""Requests said without a verb ("table for 4 at Dishoom tonight"): when a phrase asks for a thing, its head
and qualities, and when it only tells (a status, a comment, a day gone by).

Part of ``reading/acts.py``, whose ``read_act`` reads a message with the parts."""

from __future__ import annotations

import re

from ibachat.agent.reading.speech.commands import _ends
from ibachat.agent.reading.speech.words import (
    _CLOCK,
    _FREQUENCY,
    _NOT_A_VERB,
    _STANCE_VERBS,
    _a_day_word,
    _says_clock,
    _says_when,
    _timeish,
    base_form,
    only_a_name,
)


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
    if _felt_about(tokens, i):
        return None  # "dentist tomorrow, dreading it": a thing the user has, and how they feel about it
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
    clock = bool(_CLOCK.search(span)) or _says_clock(span)  # "at quarter past two": a clock in words
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


def _felt_about(tokens: list, i: int) -> bool:
    """After a break, a verb with no subject of its own that feels or has done something about "it"
    ("..., dreading it", "..., loving it already", "..., hated it"): a gerund, a past form or a verb of
    liking, never a command on it ("..., book it")."""
    for k in range(i + 1, len(tokens) - 1):
        if tokens[k].text not in (",", ";", "-", "–", "—"):
            continue
        verb = tokens[k + 1]
        feels = verb.tag_ in ("VBG", "VBD") or verb.lemma_.lower() in _STANCE_VERBS
        if feels and any(c.dep_ == "dobj" and c.lower_ in ("it", "that", "this") for c in verb.children):
            return True
    return False


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
        and t.lower_ not in _WHICH_ONE  # "maya's next session": which one, not what kind
    )


# adjectives that pick which one of a kind (a closed class), not what kind it is
_WHICH_ONE = frozenset(
    {"next", "last", "same", "usual", "other", "another", "regular", "following", "previous"}
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


def _why_not(sent, tokens: list, i: int) -> str:
    clause = sent.doc.text[tokens[i].idx : sent.end_char]
    return "standing" if _FREQUENCY.search(clause) else "statement"
