"""Places and prepositional phrases in a request: where it goes to and from, where it is at, and the name a
preposition governs.

Part of ``reading/frame.py``, whose ``read_frame`` puts the parts together."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ibachat.agent.reading.framing.records import Place, Span
from ibachat.agent.reading.framing.words import (
    _AT,
    _CURRENCY_SIGNS,
    _CURRENCY_WORDS,
    _FROM,
    _NAME_JOINS,
    _SOME_DAY,
    _STOP_WORDS,
    _TO,
)
from ibachat.agent.reading.when import read_when

if TYPE_CHECKING:
    from spacy.tokens import Doc, Token


def _boundary(t: Token, mask: tuple[tuple[int, int], ...], first: bool) -> bool:
    if any(a <= t.idx < b for a, b in mask):
        return True
    if t.lower_ in _STOP_WORDS or t.is_space:
        return True
    if t.is_punct and t.text not in ("'", "’", "&", ".", "-"):
        return True
    if t.text in ("-", "–") and t.i > 0 and t.doc[t.i - 1].whitespace_:
        return True  # "in Cardiff - single": a spaced dash starts another thought
    if t.tag_ == "POS":
        return False  # "Rosa's Thai"

    if t.text == "." and not (t.i > 0 and len(t.nbor(-1).text) <= 3):
        return True
    if (
        t.pos_ in ("VERB", "AUX", "SCONJ", "PART")
        and t.dep_ != "pobj"
        and not (t.text[:1].isupper() and not first)
    ):
        return True
    if t.pos_ == "PRON" and t.tag_ != "PRP$":
        return True
    if t.pos_ == "ADV" and not t.text[:1].isupper() and t.lower_ not in ("home",):
        return True
    return False


def _phrase_after(tokens: list[Token], i: int, mask: tuple[tuple[int, int], ...]) -> tuple[int, int] | None:
    """The token range of the phrase a preposition at ``i`` governs: up to the next boundary."""
    # a place that serves may be named "by" someone ("at Hair by Niamh"); a work "by" its author is not
    # one name with them ("a hold on Middlemarch by George Eliot")
    by = frozenset({"by"}) if tokens[i].lower_ in ("at", "from") else frozenset()
    j = i + 1
    quoted = _quoted_after(tokens, j, mask)
    if quoted is not None:
        return quoted
    end = j
    while end < len(tokens):
        t = tokens[end]
        if (
            end > j
            and t.pos_ in ("ADP", "CCONJ")
            or (end > j and t.pos_ == "DET" and t.lower_ not in ("the",))
        ):
            nxt = end + 1  # "The Day of the Jackal": the name goes on past "of the"
            while nxt < len(tokens) and tokens[nxt].text in ("the", "a", "an"):
                nxt += 1
            # "Wok This Way", "Hair by Niamh": a small word inside a name, between capitalised words, when
            # what follows is no day or time ("at Dishoom by Friday")
            # an ampersand joins a name in any case ("sharp & co", "fortnum & mason")
            cased = nxt < len(tokens) and (
                t.text == "&" or (tokens[nxt].text[:1].isupper() and tokens[end - 1].text[:1].isupper())
            )
            joins = (
                (t.lower_ in _NAME_JOINS | by or t.text == "&" or (t.text[:1].isupper() and t.pos_ == "DET"))
                and nxt < len(tokens)
                and cased
                and tokens[nxt].is_alpha
                and tokens[nxt].ent_type_ not in ("DATE", "TIME")
                and not read_when(tokens[nxt].text, _SOME_DAY).said
            )
            if not joins:
                break
        elif end > j and t.pos_ == "DET":
            if not (
                end + 1 < len(tokens)
                and tokens[end + 1].text[:1].isupper()
                and (tokens[end - 1].text[:1].isupper() or tokens[end - 1].lower_ in _NAME_JOINS | by)
            ):
                break
        if _boundary(t, mask, end == j):
            break
        if end > j and (
            t.text in ("->", "→", "=>")
            or (t.text == "-" and tokens[end + 1 : end + 2] and tokens[end + 1].text == ">")
        ):
            break  # "on a plane Dublin -> Berlin": the arrow starts a journey of its own
        if t.pos_ == "ADP" and end == j:
            break
        if end > j and tokens[end - 1].text[:1].isupper() and _a_gerund(t.text):
            break  # "in Melbourne checking in Sunday": the name ends at a verb's -ing form
        if end > j and t.like_num and t.dep_ == "nummod" and t.head.i > t.i:
            break  # "in Edinburgh 3 nights": a number that counts what follows it is no part of the name
        end += 1
    while end > j and (
        tokens[end - 1].pos_ in ("DET", "ADP", "CCONJ") or tokens[end - 1].text in ("'", "-", ".")
    ):
        end -= 1
    if end <= j:
        return None
    if not any(
        tokens[k].pos_ in ("NOUN", "PROPN", "NUM", "ADJ", "X")
        or tokens[k].lower_ == "home"
        or tokens[k].dep_ == "pobj"
        for k in range(j, end)
    ):
        return None
    return j, end


_OPEN_QUOTES = {"'": "'’", "‘": "’'", '"': '"”', "“": '”"'}
MAX_QUOTED_TOKENS = 8  # a quoted name is a few words ("'Locked In Leeds'"), never a quoted sentence


def _quoted_after(tokens: list[Token], j: int, mask: tuple[tuple[int, int], ...]) -> tuple[int, int] | None:
    """The words inside quotes that open right after a preposition ("from 'Bean There'", 'at "The Old
    Bell"'): the whole name, whatever small words or capitals it has."""
    if j >= len(tokens) or tokens[j].text not in _OPEN_QUOTES or any(a <= tokens[j].idx < b for a, b in mask):
        return None
    closing = _OPEN_QUOTES[tokens[j].text]
    for k in range(j + 2, min(len(tokens), j + 2 + MAX_QUOTED_TOKENS)):
        if tokens[k].text in closing or (
            tokens[k].text.endswith(tuple(closing)) and tokens[k].text[:-1].isalpha()
        ):
            return (j + 1, k) if k > j + 1 else None
        if tokens[k].text in ".!?;" and k > j + 1:
            return None
    return None


def _places_and_phrases(
    doc: Doc, text: str, mask: tuple[tuple[int, int], ...]
) -> tuple[list[Place], list[tuple[str, Span]]]:
    tokens = list(doc)
    places: list[Place] = []
    phrases: list[tuple[str, Span]] = []
    i = 0
    while i < len(tokens):
        t = tokens[i]
        low = t.lower_
        prep = None
        if t.pos_ == "ADP" or low in _TO or low in ("->",):
            prep = low
        if low == "out" and i + 1 < len(tokens) and tokens[i + 1].lower_ == "of":
            prep, i = "out of", i + 1
        if t.text == "-" and i + 1 < len(tokens) and tokens[i + 1].text == ">":
            prep, i = "->", i + 1
        if prep is None and _home_as_goal(t) and not any(a <= t.idx < b for a, b in mask):
            # "a lift home from the pub", "get me home": "home" is where it goes, with no "to"
            span = Span(t.text, t.idx, t.idx + len(t.text))
            places.append(Place("", "destination", span, False, _told(t)))
            i += 1
            continue
        if prep is None or any(a <= t.idx < b for a, b in mask):
            i += 1
            continue
        if low == "from" and i > 0 and tokens[i - 1].lower_ in ("away", "far", "apart", "aside"):
            i += 1  # "a room away from the lifts", "apart from that": no place it sets out from
            continue
        rng = _phrase_after(tokens, i, mask)
        if rng is None and low == "to" and places and places[-1].prep in _FROM and i + 1 < len(tokens):
            nxt = tokens[i + 1]
            if (
                places[-1].span.end + 4 >= t.idx
                and nxt.is_alpha
                and nxt.lower_ not in _STOP_WORDS
                and not any(a <= nxt.idx < b for a, b in mask)
                and not any(c.dep_ in ("dobj", "obj", "prt") for c in nxt.children)
            ):
                rng = (
                    i + 1,
                    i + 2,
                )  # "from leeds to newcastle": the journey's end, however the tagger read it
        if rng is None:
            i += 1
            continue
        a, b = rng
        span = Span(text[tokens[a].idx : tokens[b - 1].idx + len(tokens[b - 1].text)], tokens[a].idx,
                    tokens[b - 1].idx + len(tokens[b - 1].text))  # fmt: skip
        named = any(
            tokens[k].text[:1].isupper() or tokens[k].ent_type_ in ("GPE", "LOC", "FAC", "ORG")
            for k in range(a, b)
        )
        price = tokens[a].text in _CURRENCY_SIGNS or (
            tokens[a].like_num and a + 1 < b and tokens[a + 1].lower_ in _CURRENCY_WORDS
        )  # "at €35 a day", "for 40 dollars": a price, no place
        if tokens[a].lower_ in ("a", "an", "some", "any") or price:
            phrases.append((prep, span))  # "to a daily briefing": no particular place
            i = b
            continue
        told = _told(t)
        if prep in _TO and t.head.pos_ == "ADJ" and t.head.i < t.i:
            phrases.append((prep, span))  # "allergic to feathers", "close to the station": no place to go
            i = b
            continue
        if prep in _TO or prep == "->":
            places.append(Place(prep, "destination", span, named, told))
            origin = _bare_origin(tokens, i, text, mask)
            if origin is not None and not any(
                p.span.start < origin.end and origin.start < p.span.end for p in places
            ):  # "from 7 Mill Lane to Leeds": the start is said already
                places.append(Place("", "origin", origin, True))
        elif prep in _FROM or prep == "out of":
            places.append(Place(prep, "origin", span, named, told))
        elif prep in _AT and named and _FROM_A_KIND.search(text[max(0, t.idx - 40) : t.idx]):
            # "from a 2-bed flat at 8 Quarry Lane": the start is a kind of place, and where it is, said next
            places.append(Place("from", "origin", span, named, told))
        elif prep in _AT:
            places.append(Place(prep, "at", span, named, told))
        phrases.append((prep, span))
        i = b
    homes = [p for p in places if not p.prep and p.role == "destination" and p.span.text.lower() == "home"]
    for home in homes:
        if any(p.prep and text[home.span.end : p.span.start].strip().lower() in _TO for p in places):
            # "fly home to Athens": the place said with "to" is where it ends; "home" says it is a return
            places.remove(home)
    return places, phrases


# "from a 2-bed flat ", "from my sister's house ": a start said by its kind, just before "at" and an address
_FROM_A_KIND = re.compile(r"(?i)\bfrom\s+(?:a|an|the|my|our|his|her|their)\s+[^,.;!?]{0,30}?\s$")


def _home_as_goal(t: Token) -> bool:
    """A bare "home" that says where a trip ends ("a cab home", "drive me home"): an adverb of a verb or
    a noun, with no preposition before it ("at home", "from home" are places of their own)."""
    if t.lower_ != "home" or t.dep_ not in ("advmod", "npadvmod"):
        return False
    before = t.doc[t.i - 1] if t.i > 0 else None
    return before is None or before.pos_ != "ADP"


def _told(prep: Token) -> bool:
    """Whether a preposition stands in a clause told in the past ("we stayed at the Grand", "I went to
    Nana's"), or in one that says what is happening ("going to Nana's for Christmas - get us ..."), not in
    the request."""
    head = _clause_verb(prep)
    if head is None:
        return False
    if told_past(prep):
        return True
    if not (head.tag_ == "VBG" and head.dep_ == "ROOT" and head.i == 0):
        return False
    # "Going to Nana's for Christmas - get us ...": told up to the break; what follows the dash is asked
    between = prep.doc.text[head.idx : prep.idx]
    return not re.search(r"\s[-–—:;]\s|[.!?]\s", between)


def _clause_verb(tok: Token) -> Token | None:
    head = tok.head
    while head.pos_ not in ("VERB", "AUX") and head.head.i != head.i:
        head = head.head
    return head if head.pos_ in ("VERB", "AUX") else None


def told_past(tok: Token, outside: tuple[int, int] = (0, 0)) -> bool:
    """Whether a word stands in a clause told in the past with its subject ("we sat in row 7"); a verb
    inside the token range ``outside`` is the phrase's own ("2 checked bags"), no clause's."""
    head = _clause_verb(tok)
    if head is None or head.tag_ != "VBD" or not any(c.dep_ in ("nsubj", "nsubjpass") for c in head.children):
        return False
    if outside[0] <= head.i < outside[1]:
        return False
    a, b = sorted((head.i, tok.i))
    # a comma or a stop between them starts another clause the tagger hung on it ("..., book 6 nights")
    return not any(t.text in (",", ";", ".", "!", "?", "-", "–", "—") for t in tok.doc[a:b])


def _bare_origin(tokens: list[Token], i: int, text: str, mask: tuple[tuple[int, int], ...]) -> Span | None:
    """The start of a verbless journey before its "to" or arrow: "JFK to LAX", "Dublin -> Berlin"."""
    k = i - 1 if tokens[i].text != ">" else i - 2
    end = k + 1
    while k >= 0 and (
        tokens[k].pos_ == "PROPN"
        or tokens[k].text[:1].isupper()
        or tokens[k].ent_type_ in ("GPE", "LOC", "FAC")
    ):
        if any(a <= tokens[k].idx < b for a, b in mask) or tokens[k].i == 0 and tokens[k].pos_ == "VERB":
            break
        k -= 1
    start = k + 1
    if start >= end:
        return None
    if (
        start > 0
        and re.fullmatch(r"\d{1,4}[a-zA-Z]?", tokens[start - 1].text)
        and not any(a <= tokens[start - 1].idx < b for a, b in mask)
    ):
        start -= 1  # "12 Elm Road to 3 Station Street": the house number is the address's
    from ibachat.agent.reading.acts import known_verb, only_a_name  # acts reads frames: imported when used

    first = tokens[start]
    if (
        start + 1 < end
        and (start == 0 or tokens[start - 1].is_punct)
        and (_a_plural_noun(first.lower_) or known_verb(first.lower_))
        and only_a_name(tokens[start + 1].lower_)
    ):
        # "Flights Sydney to Perth", "Book Glasgow to Edinburgh": the capital is the sentence's, the
        # name starts after it
        start += 1
    if start > 0 and tokens[start - 1].pos_ == "ADP":
        return None  # "from Boston to Denver": the origin is the preposition's
    if start == 0 and tokens[0].pos_ != "PROPN" and tokens[0].ent_type_ == "":
        return None
    if tokens[start].text[:1].islower():
        return None
    a, b = tokens[start].idx, tokens[end - 1].idx + len(tokens[end - 1].text)
    return Span(text[a:b], a, b)


def _a_gerund(word: str) -> bool:
    """A word in lower case that the dictionary (lemminflect's) has as a verb's -ing form ("checking")."""
    from lemminflect import getAllLemmas

    if not word.islower() or not word.endswith("ing"):
        return False
    return any(lemma != word for lemma in getAllLemmas(word, upos="VERB").get("VERB", ()))


def _a_plural_noun(word: str) -> bool:
    """The dictionary (lemminflect's) has ``word`` as the plural of a common noun ("flights", "trains"),
    which no place's name is ("Cape Town", "Reading" are kept)."""
    from lemminflect import getAllLemmas

    return any(lemma != word for lemma in getAllLemmas(word, upos="NOUN").get("NOUN", ()))
