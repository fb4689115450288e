"""A want and what is wanted ("I need a taxi", "we'd like a table"), and someone who serves asked to see to
the user ("could the GP see me tomorrow?").

Part of ``reading/acts.py``, whose ``read_act`` reads a message with the parts."""

from __future__ import annotations

from ibachat.agent.reading.speech.commands import _SOMEDAY, _command, _ends, _serves, _standing, _venues
from ibachat.agent.reading.speech.words import _SELF, _WANT_VERBS, _YOU, Request, _negates, _says_when, _span


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
    if low[j] == "with" and low[j - 1] == "do" and {"could", "'d"} & set(low[i:j]) and j + 1 < len(tokens):
        # "I could do with a reminder to ...": what one could do with is what one needs
        found = _want_object(sent, tokens, j + 1, "want")
        return ("request", found) if found else ("statement", [])
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
        "help",
        "advice",
        "ideas",
    ):
        return []
    if rest[0].lower_ in ("some", "more") and not (
        len(rest) > 1
        and (rest[1].pos_ in ("NOUN", "PROPN", "ADJ") or rest[1].tag_ == "VBG")
        and rest[1].lower_ not in ("help", "advice", "ideas")
    ):
        return []  # "I need some", "we want more": of what was said before; "some walking boots" is a thing
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
    ends = _ends(rest)
    return [
        Request(
            phrase,
            None,
            phrase,
            nouns[0].lemma_.lower(),
            form,
            tuple(t.lemma_.lower() for t in nouns),
            # "I need a ticket from Leeds to York": a journey, from and to; "to" alone after a thing wanted
            # is as often a show as a place ("two tickets to Swan Lake"); "from" alone is where it is got
            places=ends
            if {p for p, _ in ends} >= {"from", "to"}
            else tuple(e for e in ends if e[0] == "from"),
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
