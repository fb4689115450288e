"""The things a request asks for or turns down: the verb's objects, lists, what a negation governs, whom a
message is for, who is to be there, stretches of days or hours.

Part of ``reading/frame.py``, whose ``read_frame`` puts the parts together."""

from __future__ import annotations

import itertools
import re
from typing import TYPE_CHECKING

from ibachat.agent.reading.framing.numbers import _people_noun
from ibachat.agent.reading.framing.records import Span
from ibachat.agent.reading.framing.words import (
    _ADDRESS_VERBS,
    _LEAVE_OUT,
    _LEAVE_OUT_COMMAND,
    _NEGATORS,
    _SOME_DAY,
)
from ibachat.agent.reading.units import TIME_UNITS as _TIME_UNITS

if TYPE_CHECKING:
    from spacy.tokens import Doc, Token

DETERMINERS = frozenset(
    {
        "a",
        "an",
        "the",
        "my",
        "our",
        "some",
        "any",
        "your",
        "his",
        "her",
        "their",
        "this",
        "that",
        "these",
        "those",
    }
)


def _quantity(t: Token) -> bool:
    return t.like_num or t.lower_ in ("dozen", "couple", "pair", "of", "few", "several")


def _np_span(tokens: list[Token], head: Token, text: str, shift: int = 0) -> Span:
    """A noun phrase without its article: its left modifiers up to the head, and "of" + noun after a
    measure ("a pair of running shoes"). ``shift``: how far the parsed text's offsets are ahead."""
    left = head
    for t in head.lefts:
        if t.dep_ in ("det", "poss", "predet", "cc", "punct", "prep", "neg"):
            continue
        left = min(left, t.left_edge if t.left_edge.i < t.i else t, key=lambda x: x.i)
    while left.i < head.i and (
        left.lower_ in DETERMINERS
        or (left.is_punct and left.text != "-")
        or (_quantity(left) and tokens[left.i + 1].text != "-")  # "second-hand" is no amount
    ):
        left = tokens[left.i + 1]  # "a dozen tulips": the tulips; the dozen is an amount
    right = head
    for t in head.rights:
        if t.dep_ in ("compound", "amod", "nummod") and t.i == right.i + 1:
            right = t
        elif t.dep_ == "appos" and t.i == right.i + 1 and t.pos_ in ("NOUN", "PROPN"):
            right = t  # "pad thai": a noun in apposition with no comma between is the name's own word
        elif t.dep_ == "prep" and t.lower_ == "of":
            objs = [c for c in t.children if c.dep_ == "pobj"]
            # "a pair of walking boots": the parse may take the modifier for a gerund and the noun for its object
            gerunds = [c for c in t.children if c.dep_ == "pcomp" and c.tag_ == "VBG"]
            objs = objs or [g for c in gerunds for g in c.children if g.dep_ == "dobj" and g.i == c.i + 1]
            if objs:
                right = objs[0]
                for c in objs[0].rights:
                    # "a showing of Cars 3": a number right after a name is part of the name
                    name_number = c.dep_ == "nummod" and objs[0].pos_ == "PROPN" and c.like_num
                    if (c.dep_ in ("compound", "amod") or name_number) and c.i == right.i + 1:
                        right = c
        else:
            break
    a, b = left.idx - shift, right.idx + len(right.text) - shift
    comma = text.find(",", a, b)
    if comma > a:  # "a refurbished iPad, express shipping": the parse ran two phrases together
        b = comma
    return Span(text[a:b], a, b)


def _owned(doc: Doc, text: str) -> tuple[Span, ...]:
    """Things the request names as someone's ("refill my atorvastatin", "dad's metformin") or as an amount
    of ("two months of omeprazole"): where the small parser loses a verb's object to a word it does not
    know, what is owned or measured out is still a thing, in the order said. Never a person, a time or a
    pronoun."""
    tokens = list(doc)
    out = []
    for t in doc:
        if t.pos_ not in ("NOUN", "PROPN", "ADJ", "X") or t.dep_ in ("poss", "compound", "amod"):
            continue
        owned = any(c.dep_ == "poss" for c in t.children)
        measured = (
            t.dep_ == "pobj"
            and t.head.lower_ == "of"
            and (t.head.head.lower_ in _TIME_UNITS or t.head.head.lemma_.lower() in _TIME_UNITS)
        )
        if not (owned or measured) or _people_noun(t) or t.lemma_.lower() in _TIME_UNITS:
            continue
        out.append(_np_span(tokens, t, text))
    return tuple(out)


def _conjuncts(head: Token) -> list[Token]:
    out = [head]
    for t in head.children:
        if t.dep_ == "conj" and (t.pos_ in ("NOUN", "PROPN") or _nominal_conj(t)):
            out += _conjuncts(t)
        elif t.dep_ == "appos" and t.pos_ in ("NOUN", "PROPN") and any(c.dep_ == "conj" for c in t.children):
            out += _conjuncts(t)
    return out


def _nominal_conj(t: Token) -> bool:
    """A conjunct of a noun the tagger took for a verb or an adjective ("peonies, freesias and
    ranunculus"): it has no subject or object of its own, so it is one more thing in the list."""
    return (
        t.head.pos_ in ("NOUN", "PROPN")
        and t.pos_ in ("VERB", "ADJ", "X")
        and not any(c.dep_ in ("nsubj", "nsubjpass", "dobj", "obj", "aux") for c in t.children)
    )


def _verb_objects(text: str) -> tuple[list[Span], list[str], int]:
    """The coordinated objects of the request's first verb that has one, from the parse, or from the
    parse as a command when the first word reads better as a verb there ("Order a pad thai ...")."""
    from ibachat.agent.reading.acts import known_verb  # acts reads frames: imported when used
    from ibachat.agent.reading.parse import imperative_parse, parse
    from ibachat.agent.reading.spellings import spelled_out

    best: tuple[int, list[Span], list[str]] | None = None
    for doc, shift in ((parse(text), 0), (imperative_parse(text), len("please "))):
        tokens = list(doc)
        for t in doc:
            # after "please ": the command's verb, however tagged, if English has it as a verb at all
            # ("paneer tikka and naan from ...": no verb "paneer")
            command = shift and t.head.i == 1 and known_verb(t.head.lower_) and not _a_dish_word(text)
            if shift and t.head.i == 1 and not command and t.head.pos_ == "VERB":
                continue
            if (
                t.dep_ in ("dobj", "obj")
                and t.pos_ in ("NOUN", "PROPN")
                and (t.head.pos_ == "VERB" or command)
                # a word no dictionary has as a verb is a misread noun ("..., gluten free, tip 20%")
                and known_verb(t.head.lower_)
                and t.head.lemma_.lower() not in _ADDRESS_VERBS
                and spelled_out(t.text).lower() not in ("please", "thanks")  # "grocery run pls: ..."
                # what the user can't or won't do is no thing asked for ("can't manage anything chewy")
                and not any(c.dep_ == "neg" for c in t.head.children)
                # "make it extra mustard": what "it" is to be made, no thing asked for
                and not any(
                    x.pos_ == "PRON" and x.lower_ in ("it", "them", "that", "this")
                    for x in doc[t.head.i + 1 : t.i]
                )
            ):
                at = t.head.idx - shift
                heads = sorted(_conjuncts(t), key=lambda x: x.i)
                spans = [_np_span(tokens, h, text, shift) for h in heads]
                lemmas = [h.lemma_.lower() for h in heads]
                if len(heads) == 1:
                    split = _modifier_and_thing(tokens, t, text, shift) or _noun_conjunct_of_verb(
                        tokens, t, text, shift
                    )
                    if split is not None:
                        spans, lemmas = split
                # the same verb in both parses: the one that finds more things joined to its object ("order
                # a green curry and prawn crackers": the plain parse made "prawn" a second verb)
                if best is None or at < best[0] or (at == best[0] and len(spans) > len(best[1])):
                    best = (at, spans, lemmas)
                break
    if best is None:
        best = _nouned_command(parse(text), text) or _leading_things(parse(text), text)
    if best is not None:
        best = _as_typed(text, *best)
    return (best[1], best[2], best[0]) if best else ([], [], -1)


# where the words of a command's object end, by the closed classes that close a noun phrase: a
# preposition, a clause break, "please" (what is got "from", when, "for" whom, "with" what)
_OBJECT_ENDS = re.compile(
    r"(?i)\s+(?:from|at|for|to|with|by|on|in|via|please|pls|plz)\b|\s*[,.;:!?()\u2013\u2014]|\s+-\s"
)


def _as_typed(text: str, at: int, spans: list[Span], lemmas: list[str]) -> tuple[int, list[Span], list[str]]:
    """The things as the user typed them where the parse split a name it does not know: the small model
    leaves out a word no dictionary has that goes on a thing's name ("order char siu": "char"; "ramen
    tonkotsu": "ramen"; "pad see ew": "pad") and runs two names into one when the first holds such a
    word ("khao soi and spring rolls"). A thing is carried on over the words after it while a word no
    dictionary has is among the next two, up to the first word that closes a noun phrase; one with an
    "and" inside is split there when its first piece holds such a word. Known words the parse left out
    ("garlic bread delivered", "a charger under £20") stay out, and "chicken and mushroom pie" one."""
    from ibachat.agent.reading.speech.words import only_a_name
    from ibachat.agent.reading.when import read_when

    verb = re.match(r"\S+", text[at:])
    if verb is None or not spans:
        return at, spans, lemmas
    start = at + verb.end()
    end_m = _OBJECT_ENDS.search(text, start)
    end = end_m.start() if end_m else len(text)
    when = read_when(text[start:end], _SOME_DAY)  # "... of Dune 2 tomorrow night": the day is no part of it
    for said in (when.day_words, when.time_words):
        k = text.find(said, start, end) if said else -1
        end = k if k > start else end
    words = [(m.start() + start, m.end() + start) for m in re.finditer(r"[A-Za-z][\w'-]*", text[start:end])]
    unknown = lambda a, b: only_a_name(text[a:b].lower())  # noqa: E731
    out: list[Span] = []
    changed = False
    for k, sp in enumerate(spans):
        if not (start <= sp.start and sp.end <= end):
            out.append(sp)
            continue
        pieces = _pieces(text, sp.start, sp.end) if _AND.search(sp.text) else [sp]
        first_words = [(a, b) for a, b in words if pieces[0].start <= a and b <= pieces[0].end]
        if len(pieces) < 2 or not any(unknown(a, b) for a, b in first_words):
            pieces = [sp]
        last = pieces[-1]
        stop = spans[k + 1].start if k + 1 < len(spans) else end
        after = [(a, b) for a, b in words if last.end <= a and b <= stop]
        reach = last.end
        for j, (a, b) in enumerate(after):
            if text[reach:a].strip() or text[a:b].lower() in DETERMINERS:
                break  # a mark between, or an article that opens another phrase: the name has ended
            if not any(unknown(x, y) for x, y in after[j : j + 2]):
                break
            reach = b
        if reach > last.end:
            pieces[-1] = Span(text[last.start : reach], last.start, reach)
        changed = changed or len(pieces) > 1 or reach > last.end
        out.extend(pieces)
    if not changed:
        return at, spans, lemmas
    rest = _AND.match(text, out[-1].end, end) if out[-1].end < end else None
    if rest is not None:  # "ramen tonkotsu and gyoza": the parse, lost in the name, lost what followed too
        out.extend(
            p for p in _pieces(text, rest.end(), end) if not any(o.start <= p.start < o.end for o in out)
        )
    return at, out, [o.text.split()[-1].lower() for o in out]


_AND = re.compile(r"(?i)\s+(?:and|&|plus)\s+")


def _pieces(text: str, start: int, end: int) -> list[Span]:
    """The stretch's pieces between "and", "&" and "plus", each stripped."""
    out: list[Span] = []
    at = start
    for part in _AND.split(text[start:end]):
        a = text.index(part, at) if part else at
        piece = part.strip()
        if piece and re.search(r"[A-Za-z]", piece):
            a += part.index(piece)
            out.append(Span(piece, a, a + len(piece)))
        at = a + len(part.strip() or part)
    return out


def _modifier_and_thing(
    tokens: list[Token], head: Token, text: str, shift: int
) -> tuple[list[Span], list[str]] | None:
    """Two things the parse ran together by hanging the first on the second as its modifier, with the
    "and" inside it; split at the "and". Said so when "a" counts a plural ("a white bloomer and cheese
    scones") or when the modifier is a phrase of two or more words ("pad thai and spring rolls"); a
    one-word modifier stays one thing with its head ("chicken and mushroom pie")."""
    counted_plural = head.tag_ == "NNS" and any(
        c.dep_ == "det" and c.lower_ in ("a", "an") for c in head.children
    )
    for mod in head.lefts:
        # the modifier's own second word may be its apposition ("pad thai"), which then holds the "and"
        named = [
            c for c in mod.rights if c.dep_ == "appos" and c.i == mod.i + 1 and c.pos_ in ("NOUN", "PROPN")
        ]
        cc = [
            c
            for x in (mod, *named)
            for c in x.children
            if c.dep_ == "cc" and c.lower_ in ("and", "&", "plus")
        ]
        if not cc or mod.pos_ not in ("NOUN", "PROPN"):
            continue
        own = named + [
            c
            for c in mod.lefts
            if c.dep_ in ("compound", "amod", "nmod") and c.pos_ in ("NOUN", "PROPN", "ADJ")
        ]
        if (counted_plural and mod.dep_ in ("nmod", "compound", "amod")) or (
            own and mod.dep_ in ("nmod", "compound")
        ):
            a = tokens[cc[0].i + 1].idx - shift
            b = head.idx + len(head.text) - shift
            return [_np_span(tokens, mod, text, shift), Span(text[a:b], a, b)], [
                mod.lemma_.lower(),
                head.lemma_.lower(),
            ]
    return None


def _noun_conjunct_of_verb(
    tokens: list[Token], obj: Token, text: str, shift: int
) -> tuple[list[Span], list[str]] | None:
    """ "order a focaccia and prawn sandwiches": a word the tagger calls a noun, made a second verb joined to
    the command with its own object ("prawn" -> "sandwiches"): one more thing, that word and its object."""
    verb = obj.head
    for c in verb.children:
        if c.dep_ != "conj" or c.pos_ != "NOUN" or c.i < obj.i:
            continue
        objs = [d for d in c.children if d.dep_ == "dobj" and d.pos_ == "NOUN" and d.i == c.i + 1]
        if objs:
            a, b = c.idx - shift, objs[0].idx + len(objs[0].text) - shift
            return [_np_span(tokens, obj, text, shift), Span(text[a:b], a, b)], [
                obj.lemma_.lower(),
                objs[0].lemma_.lower(),
            ]
    return None


def _a_dish_word(text: str) -> bool:
    """The first word is a verb no request is made with ("pad" of "pad thai", not "order", "get") and the
    plain parse reads it as part of a noun: the phrase names a thing, it does not command."""
    from ibachat.agent.reading.acts import asks_with
    from ibachat.agent.reading.parse import parse

    doc = parse(text)
    first = doc[0] if len(doc) else None
    return (
        first is not None
        and first.pos_ in ("NOUN", "PROPN")
        and first.dep_ in ("compound", "nmod")
        and not asks_with(first.lower_)
    )


def _leading_things(doc: Doc, text: str) -> tuple[int, list[Span], list[str]] | None:
    """ "paneer tikka and naan from Spice Route, make it extra hot": with no verb before it, a first noun
    phrase that is coordinated or got "from" a named place is the things asked for, each whole. Not a
    statement's subject ("grandad's arthritis makes ..."), not a title before a dash or a colon, not an
    amount of something ("a small portion of mac and cheese")."""
    chunk = next(iter(doc.noun_chunks), None)
    if chunk is None or chunk.root.pos_ not in ("NOUN", "PROPN") or chunk.root.lower_ in DETERMINERS:
        return None
    if any(t.pos_ in ("VERB", "AUX", "PRON") for t in doc[: chunk.start]) or chunk.start > 2:
        return None
    if chunk.root.dep_ not in ("ROOT", "nsubj", "dobj", "conj", "appos"):
        return None
    if re.match(r"(?i)\s*(?:pls|plz|please)?\s*[:—–-]", text[chunk.end_char :]) or re.search(
        r"[:—–-]\s", chunk.text
    ):
        return None  # "pharmacy run: plasters, ...": a title over the list that follows
    after = doc[chunk.end] if chunk.end < len(doc) else None
    if chunk.root.dep_ == "nsubj" and after is not None and after.pos_ in ("VERB", "AUX"):
        return None  # "grandad's arthritis makes the caps impossible": a statement's subject
    heads = [h for h in sorted(_conjuncts(chunk.root), key=lambda x: x.i) if h.pos_ in ("NOUN", "PROPN")]
    sourced = bool(re.match(r"\s*from\s+[A-Z]", text[doc[heads[-1].i].idx + len(heads[-1].text) :]))
    if len(heads) < 2 and not sourced:
        return None
    tokens = list(doc)
    spans = [_np_span(tokens, h, text) for h in heads]
    lemmas = [h.lemma_.lower() for h in heads]
    if len(heads) == 1:
        split = _modifier_and_thing(tokens, heads[0], text, 0)
        if split is not None:
            spans, lemmas = split
    if any(re.search(r"\bof\b", s.text) for s in spans):
        return None  # "a small portion of mac and cheese": how much of what, which the parse splits
    return chunk.start_char, spans, lemmas


def _nouned_command(doc: Doc, text: str) -> tuple[int, list[Span], list[str]] | None:
    """ "order paneer tikka and naan from Spice Route": a first word English has as a verb that the parse
    took for the first word of a compound noun; the things it commands are that noun and its
    conjuncts, from the word after it."""
    from ibachat.agent.reading.acts import known_verb

    tokens = list(doc)
    if (
        len(tokens) < 2
        or tokens[0].pos_ != "NOUN"
        or tokens[0].dep_ != "compound"
        or not known_verb(tokens[0].lower_)
        or _a_dish_word(text)  # "pad thai and ...": a verb no request is made with
    ):
        return None
    head = tokens[0].head
    while head.dep_ == "compound" and head.head.i != head.i:
        head = head.head
    if head.pos_ not in ("NOUN", "PROPN"):
        return None
    heads = [h for h in sorted(_conjuncts(head), key=lambda x: x.i) if h.pos_ in ("NOUN", "PROPN")]
    spans = [_np_span(tokens, h, text) for h in heads]
    first = spans[0]
    if first.start <= tokens[0].idx:  # the verb is no part of the thing ("order paneer tikka": paneer tikka)
        a = tokens[1].idx
        spans[0] = Span(text[a : first.end], a, first.end)
    return tokens[0].idx, spans, [h.lemma_.lower() for h in heads]


def _lists(text: str, doc: Doc, mask: tuple[tuple[int, int], ...]) -> list[tuple[Span, ...]]:
    """Lists of short noun phrases: after a colon (one or more), between dashes or brackets (two or
    more), or a stretch of three or more between commas."""
    out: list[tuple[Span, ...]] = []
    for m in re.finditer(
        r"(?:^|(?P<lead>[:–—(]|\s-\s))(?P<seg>[^:–—()]+?)(?=$|[–—)]|\s-\s|[.?!](?:\s|$))", text
    ):
        seg, base = m.group("seg"), m.start("seg")
        marked = m.group("lead") is not None
        pieces: list[Span] = []
        for part in re.finditer(r"[^,;&+]+", seg):
            for sub in re.split(r"(?i)\s+(?:and|plus|or)\s+", part.group(0)):
                s = re.sub(r"(?i)^(?:and|plus|also|or)\s+", "", sub.strip(" .!?"))
                # "a dozen eggs", "a couple of lemons": the article is part of the count, not dropped
                s = re.sub(r"(?i)^(?:the|a|an|some|my|our)\s+(?!(?:dozen|couple|pair|few|half)\b)", "", s)
                if not s:
                    continue
                j = text.find(s, base + part.start())
                pieces.append(Span(s, j, j + len(s)))
        pieces = [p for p in pieces if not any(a <= p.start and p.end <= b for a, b in mask)]
        least = 1 if m.group("lead") == ":" else 2 if marked else 3
        if marked:
            # "wagamama: katsu curry and gyoza, no cutlery, leave it at the door", "itsu - nigiri and
            # edamame, no sesame pls": the things, up to the first piece that is a clause or a refusal
            run = list(itertools.takewhile(lambda p: _a_thing(doc, p), pieces))
            pieces = run if run else pieces
        if len(pieces) < least or any(len(p.text.split()) > 5 for p in pieces):
            continue
        inside = [t for t in doc if any(p.start <= t.idx < p.end for p in pieces)]
        if not all(any(t.pos_ in ("NOUN", "PROPN") for t in doc if p.start <= t.idx < p.end) for p in pieces):
            continue  # "..., organic, evening delivery": a piece with no thing in it is no list of things
        if not _things_only(inside):
            continue  # a clause, not a list of things
        out.append(tuple(pieces))
    return out


def _things_only(inside: list[Token]) -> bool:
    """No clause among these tokens (a verb, an auxiliary, a pronoun) and no preposition but "of"."""
    clause = any(
        (t.pos_ in ("AUX", "PRON") and t.tag_ != "PRP$") or t.tag_ in ("VB", "VBD", "VBP", "VBZ")
        for t in inside
    )
    return not clause and not any(t.pos_ == "ADP" and t.lower_ != "of" for t in inside)


def _a_thing(doc: Doc, piece: Span) -> bool:
    """A piece of a list that names a thing: a noun, no clause, no negation."""
    inside = [t for t in doc if piece.start <= t.idx < piece.end]
    if not any(t.pos_ in ("NOUN", "PROPN") for t in inside) or any(t.lower_ in _NEGATORS for t in inside):
        return False
    if inside[0].tag_ in ("VBN", "VBG") and inside[0].dep_ not in ("amod", "compound"):
        return False  # "..., delivered tomorrow morning": a participle's clause, not a thing ("smoked salmon" is)
    return _things_only(inside)


def _negated(doc: Doc) -> frozenset[str]:
    out: set[str] = set()
    for t in doc:  # "text me rather than a notification", "instead of the bus": what is turned down
        if (t.lower_ == "than" and t.i > 0 and doc[t.i - 1].lower_ == "rather") or (
            t.lower_ == "of" and t.i > 0 and doc[t.i - 1].lower_ == "instead"
        ):
            for k in range(t.i + 1, min(t.i + 5, len(doc))):
                if doc[k].is_punct or doc[k].pos_ in ("VERB", "AUX", "CCONJ", "ADP"):
                    break
                if doc[k].pos_ in ("NOUN", "PROPN", "ADJ"):
                    out.add(doc[k].lemma_.lower())
    for t in doc:  # "skip the cutlery", "leave the onions out": the thing left out is turned down
        # (a verb the small tagger calls a noun still has its object: "..., skip breakfast")
        if any(c.dep_ == "neg" or c.lower_ in _NEGATORS for c in t.children):
            continue  # "don't forget the candles", "don't skip the sauce": it is wanted
        if (t.pos_ == "VERB" or any(c.dep_ == "dobj" for c in t.children)) and (
            t.lemma_.lower() in _LEAVE_OUT
            or (t.lemma_.lower() in _LEAVE_OUT_COMMAND and t.tag_ == "VB")
            or (
                t.lemma_.lower() == "leave" and any(c.dep_ == "prt" and c.lower_ == "out" for c in t.children)
            )
        ):
            for c in t.children:
                if c.dep_ == "dobj" and c.pos_ in ("NOUN", "PROPN") and not c.like_num and not c.is_stop:
                    out.add(c.lemma_.lower())  # not "please" in "skip the unpacking please"
                    out |= {g.lemma_.lower() for g in c.children if g.dep_ in ("compound", "amod")}
                    out |= _refused_with(c)
                    out |= {j.lemma_.lower() for j in c.conjuncts if _bare_conjunct(j)}
    for t in doc:  # "too shy for a group class", "too nervous for flights": what it is too much for
        if t.lower_ == "too" and t.dep_ == "advmod" and t.head.pos_ == "ADJ" and t.head.i != t.i:
            for prep in t.head.children:
                if prep.dep_ == "prep" and prep.lower_ == "for":
                    for thing in prep.children:
                        if thing.dep_ == "pobj" and thing.pos_ in ("NOUN", "PROPN") and not thing.like_num:
                            out.add(thing.lemma_.lower())
                            out |= {
                                g.lemma_.lower() for g in thing.children if g.dep_ in ("compound", "amod")
                            }
    for t in doc:
        if t.lower_ in _NEGATORS or t.dep_ == "neg":
            # a preposition of leaving out governs what follows it, whatever the tagger hangs it on
            head = (
                t.head if t.dep_ in ("det", "neg", "advmod") and t.lower_ not in ("without", "minus") else t
            )
            if head.lemma_.lower() in _LEAVE_OUT | _LEAVE_OUT_COMMAND | {"miss"}:
                continue  # "don't forget the candles": two turnings-down make a wish
            after = _contrasted(t)
            if after:  # "aisle seat, not the window": the thing after "not" is turned down, not the seat
                out |= after
                continue
            if t.lower_ in ("no", "without", "minus", "nothing", "none"):
                for k in range(t.i + 1, min(t.i + 5, len(doc))):
                    nxt = doc[k]
                    if nxt.pos_ == "DET" and t.lower_ in ("without", "minus") and k == t.i + 1:
                        continue  # "minus the milk", "without the crusts"
                    if nxt.is_punct or nxt.pos_ not in ("NOUN", "PROPN", "ADJ"):
                        break  # "nothing that takes ...": a clause, not a thing refused
                    out.add(nxt.lemma_.lower())
                    out |= _refused_with(nxt)
            out.add(head.lemma_.lower())
            if head.lemma_.lower() in _NEEDS:
                # "no need for breakfast", "breakfast not needed", "parking isn't required": what is needed
                # is what is turned down
                for c in head.children:
                    things = [c] if c.dep_ in ("nsubj", "nsubjpass") else []
                    if c.dep_ == "prep" and c.lower_ in ("for", "of"):
                        things = [g for g in c.children if g.dep_ == "pobj"]
                    for g in things:
                        if g.pos_ in ("NOUN", "PROPN") and not g.like_num:
                            out.add(g.lemma_.lower())
                            out |= {x.lemma_.lower() for x in g.children if x.dep_ in ("compound", "amod")}
                k = t.i - 1 if t.lower_ in ("not", "n't") else -1
                while k >= 0 and doc[k].pos_ == "AUX":
                    k -= 1  # "parking isn't needed"
                while k >= 0 and doc[k].pos_ in ("NOUN", "PROPN") and t.i > head.i - 3:
                    out.add(doc[k].lemma_.lower())  # "- bike rack not needed": the words right before it
                    k -= 1
            for c in head.children:
                if t.lower_ in ("without", "minus") and c.i < t.i:
                    continue  # "a large pepperoni minus the olives": what comes before is kept
                if c.dep_ in ("dobj", "attr", "acomp", "xcomp", "compound", "amod"):
                    out.add(c.lemma_.lower())
                    out |= {g.lemma_.lower() for g in c.children if g.dep_ in ("compound", "amod")}
                # "he doesn't get on with the generic", "not keen on the decaf": a phrasal verb's or a
                # quality's preposition takes the thing turned down
                phrasal = any(g.dep_ == "prt" for g in head.children)
                preps = [c] if c.dep_ == "prep" and phrasal else []
                preps += [head] if head.dep_ == "prep" and c.dep_ == "pobj" and head not in preps else []
                preps += [g for g in c.children if g.dep_ == "prep"] if c.dep_ == "acomp" else []
                for prep in preps:
                    for thing in prep.children:
                        if (
                            thing.dep_ == "pobj"
                            and thing.pos_ in ("NOUN", "PROPN", "ADJ")
                            and not thing.like_num
                        ):
                            out.add(thing.lemma_.lower())
                            out |= {
                                g.lemma_.lower() for g in thing.children if g.dep_ in ("compound", "amod")
                            }
    return frozenset(out - _NEGATORS)


# the words of needing (a closed class): what a negated need governs is turned down
_NEEDS = frozenset({"need", "require", "necessary", "needed", "required"})


def _refused_with(thing: Token) -> set[str]:
    """What is coordinated right after a thing refused ("no mushrooms or coconut", "no peppers, mushrooms
    or olives"): the conjuncts joined to it by "or", "and" or commas alone, up to anything else."""
    doc, out = thing.doc, set()
    conjuncts = {c.i for c in thing.conjuncts}
    for k in range(thing.i + 1, min(thing.i + 12, len(doc))):
        tok = doc[k]
        if tok.text == "," or tok.lower_ in ("or", "and", "nor"):
            continue
        if tok.i in conjuncts and tok.pos_ in ("NOUN", "PROPN") and not tok.is_stop:
            out.add(tok.lemma_.lower())
            continue
        if (
            tok.pos_ in ("ADJ", "NOUN", "PROPN")
            and tok.head.i in conjuncts
            and tok.dep_ in ("amod", "compound")
        ):
            continue  # "no prawns or green peppers": a word of the next thing
        break
    return out


def _contrasted(t: Token) -> set[str]:
    """The words of the thing a "not" turns down when it stands after what it contrasts with ("a window
    seat - not the middle"): the tagger hangs it on the thing before; the negated phrase follows it."""
    doc = t.doc
    if t.lower_ not in ("not", "n't") or t.head.i >= t.i:
        return set()
    if t.head.pos_ not in ("NOUN", "PROPN") and not any(doc[k].is_punct for k in range(t.head.i, t.i)):
        return set()
    words: set[str] = set()
    for k in range(t.i + 1, min(t.i + 5, len(doc))):
        nxt = doc[k]
        if nxt.pos_ == "DET":
            continue
        if nxt.is_punct or nxt.pos_ not in ("NOUN", "PROPN", "ADJ"):
            break
        words.add(nxt.lemma_.lower())
    return words


def _bare_conjunct(t: Token) -> bool:
    """A word joined to a noun with nothing of its own, whatever the small tagger calls it: "leave out
    pork and shellfish" (tagged a verb), not "... and shellfish is fine"."""
    return t.dep_ == "conj" and not t.is_stop and not t.like_num and not list(t.children)


def _refused(doc: Doc, text: str) -> tuple[Span, ...]:
    """The nouns among what a negation governs ("no lilies", "without onions or garlic")."""
    lemmas = _negated(doc)
    out = [
        Span(text[t.idx : t.idx + len(t.text)], t.idx, t.idx + len(t.text))  # the user's own casing
        for t in doc
        if (t.pos_ in ("NOUN", "PROPN") or (_bare_conjunct(t) and t.head.pos_ in ("NOUN", "PROPN")))
        and t.lemma_.lower() in lemmas
        and not t.like_num
    ]
    return tuple(out)


def _written_to(doc: Doc, text: str) -> Span | None:
    """Who a message is for: a person named as the first verb's object ("Email Marco that ...", "text
    Priya") or after "to" with that verb ("write to Ana"); a name, never a pronoun. The parse as a command
    is read too: a tagger takes "Email Marco" for a name."""
    from ibachat.agent.reading.parse import imperative_parse

    del doc
    for parsed, shift in ((imperative_parse(text), len("please ")),):
        for t in parsed:
            if t.pos_ != "VERB":
                continue
            for c in t.children:
                person = c.ent_type_ == "PERSON" or (c.pos_ == "PROPN" and c.text[:1].isupper())
                if c.dep_ in ("dobj", "dative") and person and c.i > t.i:
                    return _name_span(c, text, shift)
                if c.dep_ == "dative" and c.pos_ in ("NOUN", "PROPN") and c.i > t.i:
                    return _name_span(c, text, shift)  # "shoot jess an email": whom it is sent to
                if c.dep_ == "dobj":  # "draft a formal email to Dr Patel"
                    for p in c.children:
                        if p.dep_ == "prep" and p.lower_ == "to":
                            for o in p.children:
                                if o.dep_ == "pobj" and (o.ent_type_ == "PERSON" or o.pos_ == "PROPN"):
                                    return _name_span(o, text, shift)
                if c.dep_ in ("prep", "dative") and c.lower_ == "to":
                    for o in c.children:
                        if o.dep_ == "pobj" and (o.ent_type_ == "PERSON" or o.pos_ == "PROPN"):
                            return _name_span(o, text, shift)
            objects = [c for c in t.children if c.dep_ == "dobj"]
            if len(objects) == 2 and objects[0].pos_ in ("NOUN", "PROPN"):
                return _name_span(
                    objects[0], text, shift
                )  # "shoot jess an email": the first is whom it is for
            break  # the request's first verb only
    return _message_to(text)


# How a message is named (a closed class): "an email to my landlord", "a note to Grandma".
_MESSAGE_NOUNS = frozenset({"email", "e-mail", "text", "mail", "note", "message", "letter", "line", "reply"})
_TO_END = frozenset({"about", "saying", "that", "subject", "asking", "thanking", "telling", "re", "regarding", "for",
                     "on", "at", "in", "with", "and", "to", "by", "from", "please", "pls", "tomorrow", "today",
                     "tonight"})  # fmt: skip


def _message_to(text: str) -> Span | None:
    """Whom a message is for when the parse says no name: what follows "to" after the word for the
    message ("a warm note to Grandma", "an email to the team about ..."), or the one told in "let Sarah
    know" and "shoot Tom an email": up to five words, up to a clause word, a day or a stop."""
    m = re.search(r"\b[Ll]et\s+([A-Z][\w'-]*(?:\s+[A-Z][\w'-]*)?)\s+know\b", text)
    if m:  # a capitalised name: never "let me know"
        return Span(m.group(1), m.start(1), m.end(1))
    nouns = "|".join(sorted(_MESSAGE_NOUNS, key=len, reverse=True))
    m = re.search(rf"(?i)\b(?:{nouns})s?\s+to\s+", text)
    if m is None:
        m2 = re.search(rf"\b(?:shoot|drop|send|fire|ping|write)\s+([A-Z][\w'-]*)\s+(?:an?\s+)?(?:\w+\s+)?(?:{nouns})\b",
                       text, re.I)  # fmt: skip
        if m2 and m2.group(1)[:1].isupper() and m2.group(1).lower() not in ("me", "us", "a", "an", "the"):
            return Span(m2.group(1), m2.start(1), m2.end(1))
        return None
    words = list(re.finditer(r"[\w.'&-]+", text[m.end() :]))
    picked: list[re.Match[str]] = []
    for w in words[:5]:
        gap = text[m.end() + (picked[-1].end() if picked else 0) : m.end() + w.start()]
        if picked and gap.strip():
            break  # a comma, a dash or a bracket ends it
        if w.group(0).lower() in _TO_END or re.fullmatch(r"\d.*", w.group(0)):
            break
        picked.append(w)
    if not picked or all(w.group(0).lower() in DETERMINERS for w in picked):
        return None
    a, b = m.end() + picked[0].start(), m.end() + picked[-1].end()
    body = text[a:b].rstrip(".")
    owner = re.fullmatch(rf"(?i)(.+?)['’]s\s+(?:{nouns})s?", body)
    if owner:  # "reply to Tomás's email": Tomás, whose email it answers
        body = owner.group(1)
    return Span(body, a, a + len(body))


def _name_span(t: Token, text: str, shift: int = 0) -> Span:
    left = t
    while left.i > 0 and t.doc[left.i - 1].dep_ == "compound" and t.doc[left.i - 1].pos_ == "PROPN":
        left = t.doc[left.i - 1]
    right = t
    while (
        right.i + 1 < len(t.doc) and t.doc[right.i + 1].ent_iob_ == "I" and t.doc[right.i + 1].pos_ == "PROPN"
    ):
        right = t.doc[right.i + 1]
    a, b = left.idx - shift, right.idx + len(right.text) - shift
    return Span(text[a:b], a, b)


def _company(doc: Doc, text: str) -> list[Span]:
    out = []
    for t in doc:
        if t.lower_ != "with":
            continue
        for c in t.children:
            if any(d.dep_ == "det" for d in c.children) or any(d.dep_ == "amod" for d in c.children):
                continue  # "with the subject Invoice 42": a thing, not a person
            if c.dep_ == "pobj" and (c.ent_type_ == "PERSON" or (c.pos_ == "PROPN" and c.text[:1].isupper())):
                for h in _conjuncts(c):
                    a = h.left_edge.idx if h.left_edge.pos_ == "PROPN" else h.idx
                    b = h.idx + len(h.text)
                    out.append(Span(text[a:b], a, b))
    return out
