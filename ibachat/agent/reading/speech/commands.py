"""A command and what it is done to: the verb's object, its places and media, the venue that serves, whom it
is with, an antecedent for a pronoun, and whether it asks for words rather than an action.

Part of ``reading/acts.py``, whose ``read_act`` reads a message with the parts."""

from __future__ import annotations

import re

from ibachat.agent.reading.parse import imperative_parse, modal_parse
from ibachat.agent.reading.speech.words import (
    _FREQUENCY,
    _GENERIC_PREP,
    _MANDATIVE,
    _NOT_A_VERB,
    Request,
    _has_finite,
    _negates,
    _people,
    _says_when,
    _span,
    _verb_classes,
)


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
    found = command_parse(clause, finite=_has_finite(tokens[j:]))
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
    # the clause's own words, not the stretch of text they span: a second verb joined to it ("reorder my
    # pills, and keep refilling them from now on") lies inside that stretch when the final stop is the
    # first verb's, and its rule for the future is not this request's
    if _standing(" ".join(t.text for t in own), alt, own):
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
                    or (pobj.text[:1].isupper() and pobj.i > verb.i + 1)  # "to York", capitalised by the user
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
    if tok.like_num or tok.ent_type_ in ("CARDINAL", "ORDINAL", "MONEY"):
        return False
    if tok.ent_type_ in ("DATE", "TIME"):
        # a name the tagger took for a date that the day reader finds no day or time in: "from 14 Elm
        # Road" is a place
        return tok.pos_ == "PROPN" and not _says_when(_span(list(tok.subtree)))
    return True


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


_AS_BEFORE = re.compile(r"(?i)\b(?:as|like)\s+(?:always|ever|usual|normal)\b")  # the usual, said of the past


def _standing(clause: str, doc, tokens: list | None = None) -> bool:
    """A rule for every future action, not a request now: "always ...", "book vegetarian meals on flights".
    "as always" points back at what was done before ("same size bag as always"): a thing, not a rule."""
    if _FREQUENCY.search(_AS_BEFORE.sub(" ", clause)):
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
