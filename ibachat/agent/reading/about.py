"""Whom and where a statement is about: the user, a person they name, or a place that serves them.

"Idris is allergic to sesame" is about Idris; "I asked for it hot at Saffron Lantern" is about that
restaurant. Such a statement is kept with its scope (``for:Idris``, ``at:Saffron Lantern``) and applies
to a request only when the request names that person or that place (``applies_to``). Read from the
parse of the statement in its own casing: the subject of its main clause, and a proper name after
"at" or "from". Closed classes only (pronouns, kinship and household words are the parse's nouns).
"""

from __future__ import annotations

import re

_SELF = frozenset({"i", "we", "me", "us", "myself", "ourselves"})
_NOT_A_PLACE = re.compile(
    r"^(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|mon|tue|wed|thu|fri|sat|sun|christmas|easter|home|work)",
    re.I,
)


def scope_of(raw_sentence: str) -> str:
    """``for:<who>``, ``at:<place>`` or "" (the user, in general) for one sentence in its own casing."""
    from ibachat.agent.reading.parse import parse

    if not raw_sentence.strip():
        return ""
    doc = parse(raw_sentence[:600])
    for sent in doc.sents:
        subjects = [t for t in sent if t.dep_ in ("nsubj", "nsubjpass")]
        mine = any(t.lower_ in _SELF for t in subjects) or any(
            t.lower_ in ("me", "us") and t.dep_ in ("pobj", "dobj") for t in sent
        )  # the user is a subject, or in it ("my spaniel comes with me"): it is the user's own life
        for who in subjects if not mine else []:
            words = {t.lower_ for t in who.subtree}
            named = who.ent_type_ == "PERSON" or (
                not who.ent_type_
                and who.text[:1].isupper()
                and (
                    (who.pos_ == "PROPN" and who.i > sent.start)
                    or (
                        who.pos_ in ("PROPN", "NOUN")
                        and who.head.tag_ in ("VBZ", "VBD")  # the subject of "drinks", "said": a third person
                        and _only_a_name(who.lower_)
                    )
                )
            )  # in lower case the small parser reads things as names ("window bank is nice enough"); first
            # in the sentence, a capital says nothing unless no dictionary has the word ("Priya from ...")
            if named and not words & _SELF:
                return f"for:{_name(who)}"
            # "my daughter is allergic to peanuts": one of the user's people (not "my eyes", "my budget"),
            # by name as well when one is given ("my son Leo": for:Leo|son)
            if who.lemma_.lower() in _people() and any(t.lower_ in ("my", "our") for t in who.children):
                name = next((c for c in who.children if c.dep_ == "appos" and c.pos_ == "PROPN"), None)
                return (
                    f"for:{_name(name)}|{who.lemma_.lower()}"
                    if name is not None
                    else f"for:{who.lemma_.lower()}"
                )
        for tok in sent:
            if tok.lower_ in ("at", "from") and tok.dep_ == "prep":
                for obj in tok.children:
                    if (
                        obj.dep_ == "pobj"
                        and obj.pos_ == "PROPN"
                        and obj.ent_type_ not in ("DATE", "TIME", "GPE")
                    ):
                        name = _name(obj)
                        if not _NOT_A_PLACE.match(name):
                            return f"at:{name}"
    return ""


def has_subject(raw_sentence: str) -> bool:
    """Whether the sentence has a subject of its own (a fragment like "no tahini, no sesame" has none)."""
    from ibachat.agent.reading.parse import parse

    return any(t.dep_ in ("nsubj", "nsubjpass", "expl") for t in parse(raw_sentence[:600]))


def _people() -> frozenset[str]:
    from ibachat.agent.data import word_classes

    return word_classes("people")["people"]


def _name(token) -> str:
    parts = [t for t in token.subtree if t.pos_ == "PROPN" or t.dep_ in ("compound", "flat")]
    parts = [t for t in parts if t.i <= token.i] or [token]
    return " ".join(t.text for t in parts).strip(" ,'")


def _only_a_name(word: str) -> bool:
    from ibachat.agent.reading.speech.words import only_a_name

    return only_a_name(word)


def _named_in(what: str, low: str) -> re.Match[str] | None:
    """Where a request (lower case) names the person or place of a scope (one of "Leo|son")."""
    for name in what.lower().split("|"):
        found = re.search(rf"(?<![\w']){re.escape(name)}(?![\w'])", low) if name else None
        if found:
            return found
    return None


def applies_to(scope: str, request: str) -> bool:
    """Whether a statement of this scope bears on ``request``: it names that person or that place."""
    if not scope or scope in ("general", "one-off"):
        return scope != "one-off"
    kind, _, what = scope.partition(":")
    if kind not in ("for", "at") or not what:
        return True
    low = request.lower()
    if _named_in(what, low):
        return True
    # a request for the household ("for us", "me and my partner", "a table for two") includes its people
    return kind == "for" and bool(_TOGETHER.search(low))


_TOGETHER = re.compile(r"\b(?:we|us|our|ours|both|together|the two of us|for two|family|everyone)\b")
_THE_USER_TOO = re.compile(
    r"(?i)\b(?:i|me|myself|we|us|both|together|the two of us|the pair of us|everyone)\b"
)


def only_for(scope: str, request: str) -> bool:
    """Whether ``request`` is for the person of a ``for:`` scope alone: it names them and says nothing of
    the user taking part ("a flight for my wife", not "for me and my wife", "for us", "we")."""
    kind, _, what = scope.partition(":")
    if kind != "for" or not what:
        return False
    low = request.lower()
    named = _named_in(what, low)
    return bool(named) and not _THE_USER_TOO.search(low[: named.start()] + " " + low[named.end() :])


_WHEN = frozenset({"when", "whenever", "if", "while"})
_NO_ACTIVITY = frozenset({"DATE", "TIME", "MONEY", "CARDINAL", "QUANTITY", "PERCENT", "ORDINAL"})


_ABOUT_WORDS = re.compile(r"\b(?:when|whenever|if|while|for|on|at|from|in|my|our)\b", re.I)


def activity_of(raw_sentence: str) -> list[str]:
    """The words that say what activity a statement is about, read from its parse: a clause of when or
    if ("when we go out for a meal"), a place or thing it is said for ("for a room", "on planes",
    "from Spice Garden"), or a subject the user owns ("my weekly shop"). Empty when it names none
    ("I've gone vegetarian"): the statement is about the person."""
    from ibachat.agent.reading.parse import parse

    if not _ABOUT_WORDS.search(raw_sentence[:600]):
        return []  # each reading below starts at one of these words: without one the parse has none
    doc = parse(raw_sentence[:600])
    out: list[str] = []
    for t in doc:
        if t.dep_ in ("advcl", "relcl", "ROOT") and any(
            c.dep_ in ("mark", "advmod") and c.lower_ in _WHEN and c.i < t.i for c in t.children
        ):
            # the clause up to where the main clause starts ("When I hire a car | I always want ...")
            words = [x for x in t.subtree if not (x.head is t and x.lower_ in _WHEN)]
            cut = [x for x in words if x.dep_ == "nsubj" and x.head is not t and x.i > t.i]
            out.append(" ".join(x.text for x in words if not cut or x.i < cut[0].i))
        if t.dep_ == "prep" and t.lower_ in ("for", "on", "at", "from", "in") and t.i == t.sent.start:
            out.append(" ".join(x.text for x in t.subtree))  # "For a room, ...", "On planes ..."
        elif t.dep_ == "prep" and t.lower_ == "for" and t.head.pos_ == "NOUN":
            for o in t.children:  # "my ceiling for a room", "the budget for dinner out"
                if o.dep_ == "pobj" and o.pos_ == "NOUN" and o.ent_type_ not in _NO_ACTIVITY:
                    out.append(" ".join(x.text for x in t.subtree))
        elif t.dep_ == "prep" and t.lower_ in ("at", "from"):
            for o in t.children:
                if o.dep_ == "pobj" and o.ent_type_ not in _NO_ACTIVITY and o.pos_ in ("PROPN", "NOUN"):
                    out.append(" ".join(x.text for x in t.subtree))
        if (
            t.dep_ in ("nsubj", "nsubjpass")
            and t.pos_ == "NOUN"
            and any(c.dep_ == "poss" and c.lower_ in ("my", "our") for c in t.children)
        ):
            out.append(" ".join(x.text for x in t.subtree))  # "my weekly shop shouldn't go over ..."
    return [p for p in dict.fromkeys(out) if not any(p != q and p in q for q in out)]
