"""What is wrong, or what a request is for, for a tool's problem, reason or purpose parameter: a clause with
its own subject, the purpose of the one asked for, what the request is about, what happened to the user.

Part of ``alignment/request_values.py``, which runs the readers in order."""

from __future__ import annotations

import re
from typing import Any

from ibachat.agent.alignment.values.common import _SOME_DAY, Stated, _free, _split, _stem
from ibachat.agent.alignment.values.spans import _about, _for_own
from ibachat.agent.reading.frame import Span, read_frame
from ibachat.agent.reading.when import read_when

# a time gone by said in a clause (a closed class of time words): "yesterday", "last night", "this morning"
_GONE_BY_IN = re.compile(
    r"(?i)\b(?:yesterday|ago|earlier|last\s+(?:night|week|weekend|time)|this\s+morning)\b"
)
_EMOJI = "\U0001f000-\U0001faff\u2600-\u27bf"  # pictographs and symbols, as characters of a class


def _what_happened(text: str) -> Span | None:
    """ "..., lost a filling eating toffee lol", "... I've cracked a molar.": a clause of the message that tells
    what happened to the user (a past verb, with "I" or no subject, or the user's thing as its subject), which is
    why the thing asked for is needed."""
    from ibachat.agent.reading.parse import parse

    for m in re.finditer(rf"[^.!?;,—–{_EMOJI}]+", text):  # an emoji ends what it was said after
        clause = m.group(0).strip()
        if len(clause.split()) < 2:
            continue
        doc = parse(clause)
        root = next((t for t in doc if t.dep_ == "ROOT"), None)
        if root is None or root.pos_ not in ("VERB", "AUX"):
            continue
        # a past form, or a word the tagger missed as one ("I bent my wheel" read as a present "bent")
        past = (root.tag_ in ("VBD", "VBN") and root.lemma_.lower() != root.lower_) or _a_past_form(
            root.lower_
        )
        # "cut my hand on a tin this morning": a verb whose past is its base, told with a time gone by
        past = past or bool(root.tag_ in ("VB", "VBD", "VBP") and _GONE_BY_IN.search(clause))
        subj = [c for c in root.children if c.dep_ in ("nsubj", "nsubjpass")]
        mine = not subj or subj[0].lower_ == "i" or any(c.lower_ == "my" for c in subj[0].subtree)
        objects = [c for c in root.children if c.dep_ == "dobj"]
        if any(c.pos_ == "PRON" or c.lower_ == "one" for c in objects):
            continue  # "I booked one last week but missed it": what was done about it, not what happened
        if (
            past
            and mine
            and (objects or any(c.dep_ in ("prt", "nsubjpass") or c.pos_ == "ADP" for c in root.children))
        ):
            a = m.start() + m.group(0).index(clause)
            body = re.sub(r"(?i)\s+(?:lol|haha|x+|pls|please)$", "", clause)
            return Span(body, a, a + len(body))
    return None


def _a_past_form(word: str) -> bool:
    """English has ``word`` as the past form of another verb (lemminflect's dictionary: "bent" of "bend")."""
    from lemminflect import getAllLemmas, getInflection

    lemmas = [lemma for lemma in getAllLemmas(word, upos="VERB").get("VERB", ()) if lemma != word]
    return any(word in getInflection(lemma, tag="VBD") for lemma in lemmas)


_FINE = frozenset({"fine", "ok", "okay", "good", "great", "alright", "perfect", "best", "ideal", "better"})
# The parameter for what is wrong or why (a closed class of schema words).
_CAUSE = re.compile(r"problem|issue|fault|symptom|reason|complaint|concern|purpose|^why$", re.I)


def _causes(props: dict[str, Any], task: str, out: dict[str, Stated]) -> None:
    """What is wrong, in the request's own clause: "because the hall lights keep tripping", "the kitchen
    tap is leaking everywhere" (a clause with a subject of its own, other than the request's); else what
    the request is about or for, or what happened (``_for_own``, ``_what_happened``)."""
    names = [n for n, p in props.items() if _free(p) and n not in out and _CAUSE.search(n)]
    if not names:
        return
    from ibachat.agent.reading.acts import known_verb
    from ibachat.agent.reading.parse import parse

    task = _without_label(task)
    doc = parse(task[:2000])
    purpose = _what_to_see_to(doc, task) or _purpose_of_the_one_asked(doc, task, props)
    if purpose is not None:
        out[names[0]] = Stated(purpose.text, purpose.text)
        return
    for t in doc:
        if t.pos_ not in ("VERB", "AUX") or t.dep_ not in ("advcl", "ccomp", "conj", "ROOT", "parataxis"):
            continue
        subj = [c for c in t.children if c.dep_ in ("nsubj", "nsubjpass")]
        if not subj or subj[0].pos_ not in ("NOUN", "PROPN") or t.i == 0:
            continue  # "I need ...", "it's urgent": the request or a comment, not what is wrong
        if read_when(subj[0].lemma_, _SOME_DAY).said:
            continue  # "mornings are best", "afternoons preferably as I work": when, not what is wrong
        if not known_verb(t.lower_):
            continue  # "bike repair thurs pls": a day the tagger took for a verb
        if any(x.text in ",;" for x in doc[subj[0].i : t.i]):
            continue  # "bike repair thurs pls, snapped a chain": a fragment, then a clause without subject
        if any(c.dep_ == "acomp" and c.lower_ in _FINE for c in t.children):
            continue  # "video call is fine": a comment on the request
        if t.lemma_ == "be" and any(c.dep_ in ("attr", "acomp") and _timed(c) for c in t.children):
            continue  # "the earliest they can come is tomorrow at 7": a time, not what is wrong
        if _stem(subj[0].lemma_) in {_stem(w) for p in props for w in _split(p)}:
            continue  # "Address is 9 Orchard Close": another parameter's value
        request = {x.i for c in t.children if c.pos_ == "VERB" and doc[0] in c.subtree for x in c.subtree}
        # "my glasses snapped this morning so I need the optometrist": a clause joined on with a subject
        # of its own (and its "so", "and") says what follows, not what is wrong
        joined = [
            c
            for c in t.children
            if c.dep_ == "conj"
            and c.pos_ in ("VERB", "AUX")
            and any(g.dep_ in ("nsubj", "nsubjpass") for g in c.children)
        ]
        for c in joined:
            request |= {x.i for x in c.subtree}
            request |= {g.i for g in t.children if g.dep_ == "cc" and g.i < c.i}
        inside = [
            x
            for x in t.subtree
            if x.i not in request and not (x.i < t.i and x.dep_ in ("mark", "cc", "punct"))
        ]
        inside = [x for x in inside if not x.is_punct or inside[0].i < x.i < inside[-1].i]
        a, b = inside[0].idx, inside[-1].idx + len(inside[-1].text)
        clause = task[a:b].strip(" ,.")
        for x, _ in sorted(_when_spans(task), reverse=True):  # "cracked last night": what, not when
            if a < x and task[x:b].strip(" ,.") and a + len(clause) <= b:
                clause = task[a:x].strip(" ,.") if x - a >= len(clause) * 0.5 else clause
        pieces = re.split(rf"[,{_EMOJI}]", clause)  # a comma or an emoji ends a part
        if (
            len(pieces) > 1
        ):  # the part of it that holds its subject ("in the afternoon, a filling's fallen out")
            parts, at = [], a
            for part in pieces:
                parts.append((task.find(part.strip(), at), part.strip()))
                at += len(part) + 1
            held = next(((start, p) for start, p in parts if start <= subj[0].idx < start + len(p)), None)
            if held is not None and not held[0] <= t.idx < held[0] + len(held[1]):
                continue  # "🙄 a female dentist if poss": the subject and its verb are in different parts
            clause = held[1] if held is not None else pieces[0].strip()
        if len(clause.split()) >= 3:
            out[names[0]] = Stated(clause, clause)
            return
    # what the request says it is "about", a described thing of the user's it is "for" ("for my lower back
    # pain"), or what happened to the user ("lost a filling eating toffee")
    frame = read_frame(task)
    span = _about(frame, task) or _for_own(frame) or _what_happened(task)
    if span is not None and len(span.text) >= 2:
        out[names[0]] = Stated(span.text, span.text)


# verbs of seeing to something (a closed class): what they are to see to is what is wrong
_SEE_TO = frozenset(
    {"look", "check", "examine", "treat", "assess", "inspect"}
)  # "see a physio" sees a person
_WANTING = frozenset({"need", "want", "like", "get", "book", "find"})


def _what_to_see_to(doc: Any, task: str) -> Span | None:
    """ "my dad needs a skin specialist to look at the rash that's spread across his back": what the one
    asked for is to look at, check or treat, the object of that verb in the parse (the rash and what is
    said of it), not the request around it."""
    for t in doc:
        if t.lemma_.lower() not in _SEE_TO or not any(c.dep_ == "aux" and c.tag_ == "TO" for c in t.children):
            continue
        if t.head.lemma_.lower() not in _WANTING and t.head.head.lemma_.lower() not in _WANTING:
            continue
        things = [c for c in t.children if c.dep_ == "dobj"] + [
            g
            for c in t.children
            if c.dep_ == "prep" and c.lower_ in ("at", "over", "to")
            for g in c.children
            if g.dep_ == "pobj"
        ]
        thing = next((x for x in things if x.pos_ in ("NOUN", "PROPN")), None)
        if thing is None:
            continue
        words = [x for x in thing.subtree]
        end = next((k for k, x in enumerate(words) if x.is_punct and x.text not in ("'", "-")), len(words))
        words = words[:end]
        text = task[words[0].idx : words[-1].idx + len(words[-1].text)].strip(" ,.")
        if len(text.split()) >= SEEN_TO_MIN_WORDS:
            return Span(text, words[0].idx, words[0].idx + len(text))
    return None


# what is to be seen to says what is wrong when it is described ("the rash that's spread across his back");
# a bare thing ("my dog's paw") leaves it to a clause of its own ("she's been limping since Sunday")
SEEN_TO_MIN_WORDS = 4


# words between the one asked for and the "to" of what they are to do ("a plumber round to fix ...")
_ROUND = frozenset({"round", "over", "out", "in", "along", "by"})


def _purpose_of_the_one_asked(doc: Any, task: str, props: dict[str, Any]) -> Span | None:
    """What the one asked for is to do, said as their purpose: "an electrician to put in two sockets in
    the lounge", "a plumber round to fix the dripping shower head". The one asked for is a value the tool
    allows (a trade it books), so a purpose of the user's own ("I need it to look smart") is not taken."""
    kinds = {
        w
        for p in props.values()
        for v in (p.get("enum") or ())
        if isinstance(v, str)
        for w in v.lower().split("_")
        if len(w) > 3
    }
    for t in doc:
        if t.tag_ != "TO" or t.head.tag_ != "VB" or t.head.i != t.i + 1:
            continue
        k = t.i - 1
        while k >= 0 and doc[k].lower_ in _ROUND:
            k -= 1
        if k < 0 or doc[k].lemma_.lower() not in kinds:
            continue
        verb = t.head
        end = verb.i + 1
        while end < len(doc) and not (
            doc[end].is_punct or doc[end].lower_ in ("and", "but", "so", "because", "as")
        ):
            end += 1
        words = doc[verb.i : end]
        for x, _ in sorted(_when_spans(task), reverse=True):  # "... in the lounge sometime this week"
            if words.start_char < x < words.end_char:
                words = doc[verb.i : next(w.i for w in words if w.idx >= x)] if x > verb.idx else words
        text = task[words.start_char : words.end_char].strip(" ,.")
        if len(text.split()) >= 2:
            return Span(text, words.start_char, words.start_char + len(text))
    return None


def _without_label(task: str) -> str:
    """The message with a word in capitals that opens it as a label blanked out ("URGENT our kitchen tap
    is ...", "EMERGENCY locked out of my flat"): stress, not part of what is wrong. A word in capitals
    that names part of the thing ("NHS app keeps crashing") stays. Offsets are kept."""
    from ibachat.agent.reading.parse import parse

    m = re.match(r"\s*([A-Z]{3,})[!:,.]*\s+(?=[a-z])", task)
    if m is None:
        return task
    first = parse(task[:300])[0]
    if first.dep_ in ("compound", "amod", "nmod", "poss") and first.head.i == first.i + 1:
        return task
    return " " * m.end() + task[m.end() :]


def _when_spans(task: str) -> tuple[tuple[int, int], ...]:
    return read_frame(task).when_mask


def _timed(t: Any) -> bool:
    return any(x.ent_type_ in ("DATE", "TIME") or x.like_num for x in t.subtree)
