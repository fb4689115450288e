"""Named spans a request states: a title, a subject, what is to be said, what to be reminded of, who is named.

Part of ``alignment/request_values.py``, which runs the readers in order."""

from __future__ import annotations

import re
from typing import Any

from ibachat.agent.alignment.values.common import (
    _AUTHOR,
    _BODY,
    _DAY_OR_MONTH,
    _HABIT,
    _QUERY,
    _RECIPIENT,
    _SUBJECT,
    _THING,
    _TIME_WORDS,
    _TITLE,
    Stated,
    _free,
    _generic,
    _split,
    _stem,
)
from ibachat.agent.alignment.values.lists import _head_word, _item_list
from ibachat.agent.alignment.values.places import place_role
from ibachat.agent.reading.frame import DETERMINERS, Frame, Span


def _a_person(word: str) -> bool:
    """A word for one of the user's people ("niece", "mum"): never a thing to buy or a query."""
    from ibachat.agent.data import word_classes

    return word.lower() in word_classes("people")["people"]


def _quotes_by_name(props: dict[str, Any], frame: Frame, out: dict[str, Stated]) -> None:
    """Quoted words that a parameter's own name word stands just before are that parameter's value
    ("sign it 'Kind regards'": the sign-off, never the body); one parameter's name only, in the same
    clause, within three words."""
    from ibachat.agent.reading.frame import quotes

    names = {
        n: {_stem(w) for w in _split(n) if len(w) >= 4}
        for n, p in props.items()
        if _free(p) and n not in out and not p.get("format")
    }
    for q in quotes(frame.text):
        before = re.split(r"[.;!?,]", frame.text[max(0, q.start - 60) : q.start])[-1]
        words = {_stem(w) for w in re.findall(r"[A-Za-z]+", before)[-3:]}
        hits = [n for n, stems in names.items() if stems & words and n not in out]
        if len(hits) == 1:
            out[hits[0]] = Stated(q.text, q.text)
    # unquoted, by the parameter's whole name: "sign off with Kind regards", "Cheers as the sign-off"
    for n in [n for n in names if n not in out and len(_split(n)) >= 2]:
        phrase = r"[\s_-]?".join(re.escape(w) for w in _split(n))
        m = re.search(
            rf"(?i)\b{phrase}\s+with\s+(?P<v>[^,.;:!?\"']{{2,40}}?)(?=\s+and\b|\s+then\b|[,.;:!?]|$)",
            frame.text,
        ) or re.search(
            rf"(?i)(?:^|[,.;:!?]\s*)(?P<v>[^,.;:!?\"']{{2,40}}?)\s+as\s+(?:the|my|a)\s+{phrase}\b", frame.text
        )
        if m and len(m.group("v").split()) <= 5:
            value = m.group("v").strip()
            out[n] = Stated(value, value)


def _span_role(name: str, prop: dict[str, Any]) -> str | None:
    if _RECIPIENT.search(name) or prop.get("format") == "email":
        return "recipient"
    if _SUBJECT.search(name):
        return "subject"
    if _TITLE.search(name):
        return "title"
    if _AUTHOR.search(name):
        return "author"
    if _QUERY.search(name):
        return "query"
    if _THING.search(name):
        return "thing"
    if _BODY.search(name):
        return "body"
    return None


def _listed_for(span: Span | None, frame: Frame, props: dict[str, Any], required: set[str]) -> bool:
    """Whether ``span`` holds a list of things a required list parameter takes (the items of an order)."""
    if span is None or _item_list(props, required) not in required:
        return False
    return any(all(span.start <= x.start and x.end <= span.end for x in group) for group in frame.things)


def _spans(
    props: dict[str, Any], frame: Frame, out: dict[str, Stated], service: set[str], required: set[str]
) -> None:
    lab = frame.labelled
    roles = {n: r for n, p in props.items() if _free(p) and n not in out and (r := _span_role(n, p))}
    # a tool with a title takes its words as a note's, not a reminder's (the title may be read already)
    has_title = any(_span_role(n, p) in ("title", "subject") for n, p in props.items() if _free(p))
    used = {v.quote for v in out.values() if isinstance(v.value, str)}  # a quote a name took is not the body

    def give(n: str, span: Span | None) -> bool:
        if span is None or span.text in used or len(span.text) < 2:
            return False
        out[n] = Stated(span.text, span.text)
        used.add(span.text)
        return True

    for n, role in sorted(roles.items(), key=lambda kv: ["recipient", "subject", "title", "author", "query",
                                                          "thing", "body"].index(kv[1])):  # fmt: skip
        if role == "recipient":
            if frame.emails:
                out[n] = Stated(frame.emails[0], frame.emails[0])
            elif frame.written_to is not None and frame.written_to.text not in used:
                give(n, frame.written_to)  # "Email Marco that ...": Marco
        elif role == "subject":
            give(n, lab.get("subject")) or give(n, lab.get("about"))
        elif role == "title":
            quoted = lab.get("quoted")
            if quoted is not None and _spoken(frame, quoted):
                quoted = None  # "my wife says 'get the balcony'": words someone said, not what it is called
            if not (give(n, lab.get("title")) or give(n, quoted) or give(n, _title_of(frame))):
                described, after_the = _bare_title(_described_object(frame), props), _title_after_the(frame)
                if described is not None and after_the is not None and after_the.start < described.start:
                    described = None  # "a ticket for the Coldplay concert, I need step-free seating": a later clause's
                give(n, described) or give(n, after_the)
        elif role == "author":
            give(n, next((s for p, s in frame.phrases if p == "by" and s.text[:1].isupper()), None))
        elif role in ("query", "thing"):
            objects = [
                s
                for s, h in zip(frame.verb_objects, frame.object_heads)
                if h not in _generic() and _stem(h) not in service
            ]
            if objects and role == "thing":  # "a two-month supply of my atorvastatin": what is owned in it
                inside = [o for o in frame.owned if objects[0].start <= o.start and o.end <= objects[0].end]
                if inside and inside[0].text != objects[0].text:
                    objects = [inside[0], *objects]
            objects = [o for o in objects if not _a_person(_head_word(o.text))]  # "get my niece the set"
            if not objects and role == "thing":  # "refill my atorvastatin" parsed with no object
                objects = [
                    s
                    for s in frame.owned
                    if _head_word(s.text) not in _generic()
                    and _stem(_head_word(s.text)) not in service
                    and not _HABIT.search(s.text)
                ]
                # the one nearest the tool's own word ("grandad's arthritis makes ... - refill his
                # amlodipine": the amlodipine)
                at = [
                    m.start() for m in re.finditer(r"[A-Za-z]+", frame.text) if _stem(m.group(0)) in service
                ]
                if at:
                    objects.sort(key=lambda s: min(abs(s.start - a) for a in at))
            give(n, objects[0] if objects else None)
        elif role == "body":
            reminder = "text" in _split(n) and not has_title
            order = (
                ("todo", "said", "colon_first", "quoted") if reminder else ("said", "colon", "quoted", "todo")
            )
            for key in order:
                span = lab.get(key)
                if key == "colon" and _listed_for(span, frame, props, required):
                    continue  # "order from Wagamama: katsu curry and gyoza": the things asked for, no note
                if give(n, span):
                    break
    for n, p in props.items():  # "test_name" and "book the fasting cholesterol test": the thing described
        if not _free(p) or n in out or n in roles or place_role(n, p):
            continue
        named = {_stem(w) for w in _split(n)} - {_stem("name"), _stem("title")}
        quoted = lab.get("quoted")
        after = re.match(r"[\"'”’]?\s*([A-Za-z]+)", frame.text[quoted.end :]) if quoted is not None else None
        if after is not None and _stem(after.group(1).lower()) in named and give(n, quoted):
            continue  # 'burn my "Gran at 90" playlist': the quote names the thing the parameter is named for
        for span, head in zip(frame.verb_objects, frame.object_heads):
            inside = quoted is not None and span.start <= quoted.start and quoted.end < span.end
            if inside:
                span = quoted  # "print the 'Iceland 2026' album": the name it is called by, in its quotes
            if _stem(head) in named and (inside or len(span.text.split()) > 1) and give(n, span):
                break


# a verb of saying right before a quote (closed class): the quote is what was said
_SAYING = re.compile(
    r"(?i)\b(?:says?|said|saying|goes|went|reckons?|thinks?|told (?:me|us|him|her|them)|tells? (?:me|us)|"
    r"wrote|writes?|texted|insists?|asked|shouted|yelled|added|replied)\s*[:,]?\s*[\"'‘“]?$"
)


def _spoken(frame: Frame, span: Span) -> bool:
    """Whether the quoted ``span`` is reported speech: a verb of saying stands right before it."""
    return bool(_SAYING.search(frame.text[max(0, span.start - 40) : span.start]))


def _described_object(frame: Frame) -> Span | None:
    """What is to be put in, as the request describes it: the verb's object with what qualifies it ("a
    planning meeting", "a call with Ben"); a bare kind of thing ("a meeting") describes nothing."""
    if (
        not frame.verb_objects
        or frame.object_heads[0] in _TIME_WORDS
        or frame.masked(*_ends(frame.verb_objects[0]))
    ):
        # "block out 45 mins tmrw for deep work", "block 9 to 11 for focus time": the time is held, and
        # what it is held for is said after "for"
        return _held_for(frame)
    if len(frame.verb_objects) != 1 or frame.object_heads[0] in (
        "couple",
        "pair",
        "dozen",
        "few",
        "lot",
        "bunch",
    ):
        return None  # "a couple of tickets": an amount, not what is put in
    obj = frame.verb_objects[0]
    if frame.object_heads[0] in _TIME_WORDS or frame.masked(obj.start, obj.end):
        return None  # "block out 45 mins tmrw": a span of time, not a title
    m = re.search(r"\bof\s+(?=[A-Z0-9])", obj.text)
    if m:  # "the audiobook of Circe", "a copy of Middlemarch": the work is its name
        return Span(obj.text[m.end() :], obj.start + m.end(), obj.end)
    for person in frame.company:
        between = frame.text[obj.end : person.start]
        if re.fullmatch(r"\s+with\s+", between):
            return Span(frame.text[obj.start : person.end], obj.start, person.end)
    return obj if len(obj.text.split()) > 1 else None


def _ends(span: Span) -> tuple[int, int]:
    return span.start, span.end


def _held_for(frame: Frame) -> Span | None:
    """What a stretch of time is held for: the words after "for" that are no time, number, person or
    place ("for deep work", "for focused writing"), two words or more or one the parse has as a noun."""
    for prep, span in frame.phrases:
        if prep != "for" or frame.masked(span.start, span.end) or re.match(r"[\d£$€]", span.text):
            continue
        if span.text.split()[0].lower() in DETERMINERS or _a_person(_head_word(span.text)):
            continue  # "for my mum": whom, not what
        if any(p.span.start == span.start for p in frame.places) or any(
            c.start == span.start for c in frame.company
        ):
            continue
        return span
    return None


_LENGTH_FIRST = re.compile(
    r"(?i)^(?:(?:an?|one)\s+)?(?:(?:\d+(?:\.\d+)?|half)[-\s]?)?(?:minutes?|mins?|hours?|hrs?)\s+"
)


def _bare_title(span: Span | None, props: dict[str, Any]) -> Span | None:
    """A described title without the words in front that give another parameter its value: a length
    ("15-minute phone call with Sam") or an allowed value ("in-person planning meeting")."""
    if span is None:
        return None
    text, start = span.text, span.start
    labels = {
        str(v).lower().replace("_", " ").replace("-", " ")
        for p in props.values()
        if isinstance(p, dict)
        for v in p.get("enum") or ()
    }
    while True:
        m = _LENGTH_FIRST.match(text) or re.match(r"^([\w]+(?:-[\w]+)+|\w+)\s+", text)
        if m is None or (m.re is not _LENGTH_FIRST and m.group(1).lower().replace("-", " ") not in labels):
            break
        if re.match(r"(?i)(?:of|for|with|to|about)\b", text[m.end() :]):
            break  # "audiobook of project hail mary": the word is the thing's, not a value's
        text, start = text[m.end() :], start + m.end()
    if text == span.text:
        return span
    return Span(text, start, start + len(text)) if len(text.split()) > 1 else None


def _no_possessive(span: Span) -> Span:
    """ "Dara O Briain's": the name, without the "'s" its show hangs on."""
    m = re.search(r"['’]s$", span.text)
    return Span(span.text[: m.start()], span.start, span.start + m.start()) if m else span


def _about(frame: Frame, task: str) -> Span | None:
    """What the request says it is about, to the end of its clause ("about the rash on my arm that won't
    clear up"), short of a day or a time said after it."""
    about = frame.labelled.get("about")
    if about is None:
        return None
    end = re.search(r"[,.;!?]|\s+(?:and|but|so|please|pls)\b|$", task[about.start :])
    b = about.start + (end.start() if end else len(task) - about.start)
    for x, _ in frame.when_mask:
        if about.start < x < b:
            b = x
    text = task[about.start : b].rstrip(" ,-–—")
    text = re.sub(r"(?i)\s+(?:on|at|for|by|in|this|next)$", "", text)
    return Span(text, about.start, about.start + len(text)) if text else about


def _for_own(frame: Frame) -> Span | None:
    """ "a physio appointment for my lower back pain": what of the user's (or theirs') it is for, a thing
    described and not a person or a time ("for my mum", "for my lunch break" are whom and when)."""
    for prep, span in frame.phrases:
        m = re.match(r"(?i)(?:my|his|her|our|their)\s+", span.text)
        if prep != "for" or m is None:
            continue
        words = re.findall(r"[A-Za-z']+", span.text[m.end() :])
        # one word alone may be whom it is for ("for my rabbit" at a vet's) as well as what: only a thing
        # described ("my lower back pain", "my squeaky brakes") is plainly what is wrong
        if len(words) >= 2 and not _a_person(words[-1]) and not _A_TIME_WORD.search(span.text[m.end() :]):
            return span
    return None


_A_TIME_WORD = re.compile(
    r"(?i)\b(?:break|day|week|weekend|morning|afternoon|evening|night|birthday|holiday)s?\b"
)


def _title_after_the(frame: Frame) -> Span | None:
    """ "a ticket for the Coldplay concert": the name after its article, when nothing else names the
    title (never half of "A v B"); "seats for the film Toy Story 5", "for the new Dune film": the name
    after the words that say what kind of thing it is, as far as its capitalised words and numbers go."""
    places = {p.span.start for p in frame.places}
    for prep, span in frame.phrases:
        article = re.match(r"the\s+(?=[A-Z])", span.text)
        joined = re.match(r"\s+(?:v|vs\.?|versus|and|&)\s+[A-Z]", frame.text[span.end :])
        if prep == "for" and article and span.start not in places and not joined:
            return _no_possessive(Span(span.text[article.end() :], span.start + article.end(), span.end))
        kind = re.match(r"the\s+(?:[a-z][\w-]*\s+){1,2}(?=[A-Z])", span.text)
        if prep == "for" and kind and span.start not in places and not joined:
            # read on in the request itself: the phrase may end at a colon inside the name ("Dune: Part Three")
            name = _NAME_RUN.match(frame.text, span.start + kind.end())
            if name is not None:
                return _no_possessive(
                    Span(
                        name.group(0).rstrip(":"), name.start(), name.start() + len(name.group(0).rstrip(":"))
                    )
                )
    return None


# a name as written: capitalised words and numbers, with the small words inside a title ("Toy Story 5",
# "Dune: Part Three", "The Lord of the Rings"), never a day or a month after it ("Wicked Friday")
_NAME_RUN = re.compile(
    r"[A-Z][\w'’-]*:?(?:\s+(?:(?:of|the|and|a|an)\s+)*(?:(?!" + _DAY_OR_MONTH + r")[A-Z][\w'’-]*:?|\d+\b))*"
)


def _title_of(frame: Frame) -> Span | None:
    """A title named after "for" or "to see" ("two tickets for Hamlet", "to see Arsenal v Spurs")."""
    places = {p.span.start for p in frame.places}
    for prep, span in frame.phrases:
        if prep in ("for", "see") and span.text[:1].isupper() and span.start not in places:
            if prep == "for" and _a_person(span.text.split()[-1]):
                continue  # "it's for Dad": whom it is for, no title
            return _no_possessive(span)
    m = re.search(
        r"\bto see\s+([A-Z][^,.;!?]*?)(?=\s+(?:on|at|this|next|tomorrow|tonight|in)\b|[,.;!?]|$)", frame.text
    )
    if m:
        return Span(m.group(1), m.start(1), m.end(1))
    return None
