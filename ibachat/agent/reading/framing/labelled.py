"""Labelled spans of a request: quoted words, what is titled or called, a subject, what is to be said, what
to be reminded of, what follows a colon.

Part of ``reading/frame.py``, whose ``read_frame`` puts the parts together."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ibachat.agent.reading.framing.records import Span
from ibachat.agent.reading.framing.words import (
    _CLAUSE_END,
    _QUOTED,
    _SENTENCE_END,
    _SUBJECT_WORDS,
    _TITLE_WORDS,
)

if TYPE_CHECKING:
    from spacy.tokens import Doc, Token


def _clause_tail(
    text: str,
    start: int,
    mask: tuple[tuple[int, int], ...],
    *,
    stop_at_comma: bool,
    stop_at_time: bool = False,
    keep_time: bool = False,
    ends: re.Pattern[str] | None = None,
) -> Span | None:
    """From ``start`` to the end of its clause (a full stop, a question mark, a new line), trimmed of a
    day or a time at its end and of a trailing "please"; ``stop_at_time``: ended by the first day or time
    ("to pay it on the 31st at 9am and then monthly": pay it)."""
    m = (ends or _CLAUSE_END).search(text, start)
    end = m.start() if m else len(text)
    if stop_at_time:
        end = min([end] + [a for a, _ in mask if start < a < end])
    if stop_at_comma:
        c = text.find(",", start, end)
        end = c if c >= 0 else end
    body = text[start:end]
    # trim a trailing day/time and softeners
    while True:
        trimmed = body.rstrip(" ,.!?")
        cut = None
        for a, b in () if keep_time else mask:  # what is said keeps its days ("the parcel came today")
            if start < a < start + len(trimmed) <= b:
                cut = a - start  # a day or a time at its end
        tail = re.search(
            r"(?i)[\s,]+(?:please|pls|plz|thanks|thank you|asap|if possible|cheers|ta)\s*$", trimmed
        )
        if tail:
            cut = tail.start() if cut is None else min(cut, tail.start())
        if cut is None or cut <= 0:
            body = trimmed
            break
        body = trimmed[:cut]
        body = re.sub(r"(?i)\s+(?:on|at|by|for|from|this|next|every|each|in)\s*$", "", body)
    if stop_at_time:  # "submit the tax return on 31 January": ended by the day, not by its "on"
        body = re.sub(r"(?i)\s+(?:on|at|by|for|from|this|next|every|each|in)\s*$", "", body.rstrip(" ,"))
    body = body.strip(" ,.-–—:")
    if len(body) < 2:
        return None
    a = start + (len(text[start:]) - len(text[start:].lstrip(" ,:-–—\"“'")))
    body = body.lstrip(" ,:-–—")
    a = text.find(body, start)
    return Span(body, a, a + len(body))


def quotes(text: str) -> list[Span]:
    """The words ``text`` puts in quotes, each as a span."""
    out = []
    for q in _QUOTED.finditer(text):
        g = 1 if q.group(1) else 2
        out.append(Span(q.group(g), q.start(g), q.end(g)))
    return out


def _labelled(doc: Doc, text: str, mask: tuple[tuple[int, int], ...]) -> dict[str, Span]:
    out: dict[str, Span] = {}
    low = text.lower()
    q = _QUOTED.search(text)
    if q:
        g = 1 if q.group(1) else 2
        out["quoted"] = Span(q.group(g), q.start(g), q.end(g))
    for word in _TITLE_WORDS:
        # "title it Van repairs", "call it Budget": the "it" is what is named, the name follows
        m = re.search(rf"\b{re.escape(word)}\b(?:\s+it\b)?[:\s]+", low)
        if m is None and word == "called":
            m = re.search(r"\b(?:call|name|label)\s+it\b[:\s]+", low)
        if m and "title" not in out:
            span = _named_span(text, m.end(), mask)
            if span is not None:
                out["title"] = span
    for word in _SUBJECT_WORDS:
        m = re.search(rf"(?:\bwith\s+)?(?:\bthe\s+|\ba\s+)?\b{re.escape(word)}(?:\s+of)?[:\s]+", low)
        if m and "subject" not in out:
            span = _named_span(text, m.end(), mask)
            if span is not None:
                out["subject"] = span
    m = re.search(
        r"\b(?:saying|that says|which says|to say|and say|(?:to |and )?(?:tell(?:ing)?|warn(?:ing)?) (?:him|her|them|"
        r"(?:the|my|our|your|his|their) [a-z]+|[A-Z]\w+)(?: (?:that|to))?|ask (?:him|her|them|(?:the|my|our|your|his|"
        r"their) [a-z]+) to|let (?:him|her|them|(?:the|my|our|your|his|their) [a-z]+|[A-Z]\w+) know(?: that)?|"
        r"with the (?:body|message|text)(?: saying)?|the body)[:\s]+",
        text,
        re.I,
    ) or re.search(r"(?i)\b(?:body|message)\s*(?::|=|\bis\b|\bas\b)?\s*(?=[\"“‘'])", text)
    # ^ "body: 'Left them under the mat'", "message 'on my way'": a label word before quoted words
    if m:
        # a single quote closes where no letter follows it ("when you're in" stays inside)
        q = re.match(
            r"\s*(?:[\"“]([^\"”]{1,400})[\"”]|‘((?:[^’]|(?<=\w)’(?=\w)){1,400}?)’(?!\w)|'(.{1,400}?)'(?!\w))",
            text[m.end() - 1 :],
        )
        span = (
            Span(q.group(g), m.end() - 1 + q.start(g), m.end() - 1 + q.end(g))
            if q and (g := next(k for k in (1, 2, 3) if q.group(k) is not None))
            # ^ 'saying "get well soon", and ...': what is in the quotes
            else _clause_tail(
                text, m.end() + _that(text[m.end() :]), mask, stop_at_comma=False, keep_time=True
            )
        )
        if span is not None:
            out["said"] = span
    quotes = [(q.start(), q.end()) for q in _QUOTED.finditer(text)]
    c = next((i for i, ch in enumerate(text) if ch == ":" and not any(a <= i < b for a, b in quotes)), -1)
    if c >= 0 and not re.match(r"\d", text[c + 1 : c + 2] or "") and not re.search(r"\d$", text[:c]):
        span = _clause_tail(text, c + 1, (), stop_at_comma=False, ends=_SENTENCE_END)  # "a; b; c": all of it
        if span is not None and len(span.text) >= 3:
            out["colon"] = span
        # "reminder: renew the car tax, on the 20th at 9am": what to do, without its when and how
        first = _clause_tail(text, c + 1, mask, stop_at_comma=True, stop_at_time=True)
        if first is not None and len(first.text) >= 3:
            out["colon_first"] = first
    todo = _reminder_of(doc, text, mask)
    if todo is not None:
        out["todo"] = todo
    m = re.search(
        r"(?<![\w'’])(?:about|regarding|re|concerning|on the subject of)\s+(?!(?:\d|an?\b|one\b|two\b|three\b|four\b|five\b|six\b|ten\b|twenty\b|half\b))",
        low,
    )
    if m:
        span = _named_span(text, m.end(), mask, allow_lower=True)
        if span is not None:
            out["about"] = span
    return out


def _that(rest: str) -> int:
    """ "saying that I can't make it": what is said starts after its "that"."""
    m = re.match(
        r"(?i)\s*(?:(?:by|via|over)\s+[\w-]+(?:\s+message)?\s+)?that\s+", rest
    )  # "by email that ..."
    return m.end() if m else 0


def _named_span(
    text: str, start: int, mask: tuple[tuple[int, int], ...], *, allow_lower: bool = True
) -> Span | None:
    """A name or title said after a word that announces it: quoted, or up to a comma, a clause's end,
    "with", "in my", "and", a day or a time."""
    rest = text[start:]
    q = re.match(
        r"\s*(?:(?:it|this)\s+)?(?:(?:is|as|=|will be|should be)\s+)?"
        r"(?:[\"“]([^\"”]{1,120})[\"”]|[‘']((?:[^’']|(?<=\w)[’'](?=\w)){1,120}?)[’'](?!\w))",  # "Mum's" inside quotes
        rest,
    )
    if q:
        g = 1 if q.group(1) else 2
        return Span(q.group(g), start + q.start(g), start + q.end(g))
    m = re.search(
        # "for" followed by a name goes on with the title ("Packing for Lisbon", "Ideas for Mum's party")
        r"[,.;!?:()\n—–]|\s-\s|\s(?:with|in my|on my|into my|to my|in the|and then|and|for(?!\s+[A-Z])|in(?!\s+[A-Z])|at|on|by|from|"
        r"please|pls|so that|because|but)\s",
        rest,
    )
    end = start + (m.start() if m else len(rest))
    for a, _b in mask:
        if start <= a < end:
            end = a
            break
    body = text[start:end].strip(" -–—")
    body = re.sub(r"(?i)\s+(?:for|in|on|at|by|from|of|the|and|with)$", "", body)  # "Team sync for Monday"
    if not body or len(body) > 80:
        return None
    a = text.find(body, start)
    return Span(body, a, a + len(body))


def _reminder_of(doc: Doc, text: str, mask: tuple[tuple[int, int], ...]) -> Span | None:
    """What to be reminded of: "remind me (...) to <do this>", "a reminder (...) to <do this>"."""
    m = re.search(r"(?i)\b(?:remind(?:er)?s?|ping|nudge|alert|prompt|text|message|call|tell)\b", text)
    if m is None:
        return None
    said = next((t for t in doc if t.idx == m.start()), None)
    for t in doc:
        if t.idx < m.start() or t.lower_ != "to" or t.tag_ != "TO":
            continue
        if t.head.pos_ != "VERB" or t.head.i <= t.i:
            continue
        if said is not None and not _infinitive_of(t.head, said):
            continue  # "remind me about the do - so I've time to get a gift": the time's, not the reminder's
        return _clause_tail(text, t.idx + 3, mask, stop_at_comma=True, stop_at_time=True)
    m2 = re.search(r"(?i)\bto\s+(?=[a-z])", text[m.end() :])
    m3 = re.search(r"(?i)\b(?:about|that)\s+", text[m.end() :])
    if m2 and not (m3 and m3.start() < m2.start()):
        return _clause_tail(text, m.end() + m2.end(), mask, stop_at_comma=True, stop_at_time=True)
    if m3:
        return _clause_tail(text, m.end() + m3.end(), mask, stop_at_comma=True, stop_at_time=True)
    return None


def _infinitive_of(verb: Token, said: Token) -> bool:
    """Whether an infinitive's verb hangs from the word that asks for a reminder ("remind me to call",
    "a reminder to call") through verbs only; one that hangs from a noun or another clause's subject
    ("time to get a gift") is not what to be reminded of. Without a path (a parse that split the
    sentence) it is taken, as before."""
    path = []
    for a in verb.ancestors:
        if a.i == said.i:
            return all(x.pos_ in ("VERB", "AUX") and x.dep_ not in ("advcl",) for x in path)
        path.append(a)
    return not any(x.pos_ in ("NOUN", "PROPN", "PRON") for x in [verb.head] if x.i != verb.i)
