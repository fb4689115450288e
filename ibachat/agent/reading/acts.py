"""What a message asks the assistant to do, read from its clause structure (a dependency parse).

A message asks for something to be done when one of its sentences, in the user's own words, is

- a command: a base-form verb that opens the clause with no subject before it ("book a table",
  "ugh. get me a taxi home"), after discourse words and politeness ("ok so", "please", "go ahead and");
- a request put as a question to the assistant: "can / could / would / will you VERB ...", "would you
  mind VERB-ing", "I need / want / would like you to VERB";
- a want of the user's for a thing or an act: "I need a taxi at six", "we'd like a table", "can I get a
  latte", "I want to book ...", and "let's VERB";
- an elliptical order: a phrase with no verb that says "please" ("Tandoor Nights, the saag paneer please").

It does not when the clause is negated ("don't book anything yet"), is a standing instruction about
every future action rather than one now ("always book aisle seats", "book vegetarian meals on
flights"), is someone else's words (quoted or reported), or is a question, a statement or a story.
Which tool, if any, fits the request is the router's business (``execution/router.py``): this reads
form only. The word lists here are closed classes (pronouns, auxiliaries, discourse markers,
frequency adverbs); every open-class decision comes from the parse. This module reads sentences; the
parts live in ``reading/speech/`` (``words``, ``commands``, ``wants``, ``fragments``), each importing only
those before it.
"""

from __future__ import annotations

import re
from functools import lru_cache

from ibachat.agent.reading.parse import parse
from ibachat.agent.reading.speech.commands import (
    _MEDIUM_PREPS,
    _PRONOUNS,
    _asks_what_can_be_done,
    _command,
    _company,
    _ends,
    _venues,
    command_parse,
)
from ibachat.agent.reading.speech.fragments import (
    _bare_verb,
    _elliptical,
    _fragment_head,
    _qualities,
    _status_note,
    _why_not,
)
from ibachat.agent.reading.speech.wants import _served_when, _want, _want_object
from ibachat.agent.reading.speech.words import (
    _DISCOURSE,
    _FIRST_PERSON,
    _FREQUENCY,
    _HABITUAL,
    _HOW_OFTEN,
    _MANDATIVE,
    _MODALS,
    _NOT_A_VERB,
    _OPINION,
    _OWN_PLAN,
    _POLITE_LEADS,
    _POSSIBLE,
    _QUESTION_AFTER,
    _QUOTED,
    _REPORTED,
    _SELF,
    _SPACES,
    _STANCE_VERBS,
    _TAG_QUESTION,
    _THINKING,
    _WISH_VERBS,
    _YOU,
    Request,
    SpeechAct,
    _a_day_word,
    _a_verb,
    _classes_of,
    _has_finite,
    _negates,
    _noun_only,
    _people,
    _request_words,
    _span,
    _speller,
    _verb_classes,
    asks_with,
    base_form,
    known_verb,
    only_a_name,
    past_form,
)
from ibachat.agent.reading.spellings import spelled_out

MAX_READ_CHARS = 2000  # a request is said at the start of a message; a long paste is not one


# what the rest of the agent imports from here; the parts live in ``reading/speech/``
__all__ = [
    "MAX_READ_CHARS",
    "Request",
    "SpeechAct",
    "asks_with",
    "base_form",
    "known_verb",
    "only_a_name",
    "own_text",
    "past_form",
    "read_act",
    "respelled",
    "truecased",
]


def own_text(message: str) -> str:
    """The message without quoted speech (of three words or more) and without what a report introduces."""
    from ibachat.agent.reading.clauses import unquoted

    text = unquoted(message)
    out, last = [], 0
    for m in _QUOTED.finditer(text):
        before = text[last : m.start()]
        words = len(re.findall(r"[\w']+", m.group(0)))
        out += [before, "…" if words >= 3 or _REPORTED.search(before) else m.group(0)]
        last = m.end()
    out.append(text[last:])
    return "".join(out)


def truecased(text: str) -> str:
    """A message typed all in lower case with its names capitalised, so the parse sees them as names
    ("train leeds to york tomorrow" reads "leeds" as a verb otherwise). Text with any capital is the user's
    own casing and is kept. Capitals that say no name are no casing: "I", and a word in capitals for
    stress ("fly me edinburgh -> paris, NOT the window seat")."""
    if _cased(text):
        return text
    return re.sub(
        r"\b[a-z]{3,}\b", lambda m: m.group(0).title() if only_a_name(m.group(0)) else m.group(0), text
    )


def _cased(text: str) -> bool:
    """Whether the user writes with capitals: a word with a capital and small letters ("Cab", "Pret"), or
    a capital inside a word ("iPad"); not "I" ("I'm" included) nor a word in capitals for stress ("NOT")."""
    return bool(re.search(r"[a-z][A-Z]|(?<![\w'’])[A-Z](?=[a-z])", text))


# thanks closing a message, and at most one word for whom (a closed class of thanking words)
_THANKS_AT_END = re.compile(
    r"(?i)[\s,.!;:\-–—]+(?:thanks|thank\s+you|thx|ty|ta|cheers)(?:\s+(?:so\s+much|a\s+lot|[a-z]+))?[\s!.]*$"
)
# verbs of being seen to by someone who serves (a closed class): "could I see a physio", "can I talk to
# a counsellor"
_SEEN_BY = frozenset({"see", "talk", "speak", "meet"})
# a pictograph (and its joiners) between two runs of words, as a sentence break; not one that stands
# for a thing after an article or a preposition ("get me a ☕ from Pret")
_PICTOGRAPH_BREAK = re.compile(
    r"(?<=[\w'])(?<!\ba)(?<!\ban)(?<!\bthe)(?<!\bmy)(?<!\bsome)(?<!\bof)(?<!\bfor)(?<!\bwith)(?<!\bto)"
    r"\s*[\U0001f000-\U0001faff\u2600-\u27bf][\U0001f000-\U0001faff\u2600-\u27bf\ufe0f\u200d]*\s+(?=[A-Za-z])"
)


@lru_cache(maxsize=4096)
def read_act(message: str) -> SpeechAct:
    """What ``message`` asks the assistant to do, from its form (no tools involved)."""
    text = spelled_out(_SPACES.sub(" ", own_text(message[:MAX_READ_CHARS])).strip())
    # "re-order my metformin": a verb written with its prefix apart is the verb the dictionary has
    text = re.sub(
        r"(?i)\b(re|pre)-([a-z]{3,})\b",
        lambda m: m.group(1) + m.group(2) if _a_verb((m.group(1) + m.group(2)).lower()) else m.group(0),
        text,
    )
    if not re.search(r"[A-Za-z]", text):
        return SpeechAct("empty", why="no words")
    # "Saturday's our anniversary 🥂 can you get us into Moro?": a pictograph between two runs of words
    # ends what was said before it, as a full stop would
    text = _PICTOGRAPH_BREAK.sub(". ", text)
    # "large oat flat white for 10:15 thanks legend": thanks and whom they are to, closing what was asked
    thanked = _THANKS_AT_END.search(text)
    if thanked is not None and len(text[: thanked.start()].split()) >= 3:
        text = text[: thanked.start()]
    if _TAKEN_BACK.search(text):
        return SpeechAct("statement", why="taken back in an aside")  # "book a table? (just kidding)"
    found = _read(text)
    if found.kind != "request":
        # "draft (DON'T send yet) an email to ...": an aside in brackets is no part of what is asked
        aside_free = _without_asides(text)
        if aside_free and aside_free != text:
            again = _read(aside_free)
            verb = (again.requests[0].verb or "") if again.requests else ""
            asides = " ".join(_ASIDE.findall(text)).lower()
            # the aside does not turn down the very act asked ("book it (don't book it yet)")
            if again.kind == "request" and not (
                verb and re.search(rf"\b{re.escape(verb.split()[0])}", asides)
            ):
                found = again
    named = truecased(text)
    first = next(iter((found.requests[0].verb or "").split()), "") if found.requests else ""
    if first and only_a_name(first.lower()) and named != text:
        # "edinburgh -> london kings x fri": a name the lower case let the parse take for a verb
        again = _read(named)
        verb = next(iter((again.requests[0].verb or "").split()), "") if again.requests else ""
        if not (verb and only_a_name(verb.lower())):
            return again if again.kind == "request" else (_journey(text) or again)
        found = SpeechAct("statement", why="a word no dictionary has, read as a verb")
    if found.kind != "request" and named != text:
        # "train leeds to york tmrw": read again with its names as names; kept only if a request is found
        again = _read(named)
        verb = next(iter((again.requests[0].verb or "").split()), "") if again.requests else ""
        # a word capitalised as a name is no command's verb ("lmao my cat just knocked ...")
        if again.kind == "request" and not (verb and only_a_name(verb.lower())):
            return again
    if found.kind == "statement":
        # "iced matcha latte from Blue Bottle, I'll swing by whenever it's ready": a thing asked for, then
        # what the user will do about it; the thing is read on its own
        m = _OWN_PLAN.search(text)
        if m is not None and m.start() > 0:
            first_part = _read(text[: m.start()].rstrip(" ,;-–—"))
            if first_part.kind == "request":
                return first_part
    verbless = found.kind == "request" and found.requests[0].form in ("fragment", "elliptical")
    if found.kind in ("statement", "question") or verbless:
        mended = respelled(text)
        if mended != text:  # "bok a tabel for 2 at 8": read again with its slips mended
            again = _read(mended)
            changed = set(re.findall(r"[a-z]+", mended)) - set(re.findall(r"[a-z]+", text))
            first = again.requests[0] if again.requests else None
            # kept only when a mended word is what the request turns on, its verb or its thing ("veg
            # momo and a dal bhat" are dishes, not "memo" and "dial")
            if first is not None and ({*(first.verb or "").split(), first.head} & changed):
                return again
    if found.kind == "statement":
        journey = _journey(text) or _set_to_an_amount(text)
        if journey is not None:
            return journey
    return found


def _set_to_an_amount(text: str) -> SpeechAct | None:
    """ "radiator in the hall to 21 degrees on weekday mornings", "kitchen lights to 40 percent": a
    thing and "to" an amount, with no verb and no subject, asks for the thing to be set to it (a fragment
    whose head is the thing; the router finds the tool named for it, or none)."""
    clause = re.split(r"[,.;!?—–]", text, maxsplit=1)[0]
    doc = parse(clause)
    root = next((t for t in doc if t.dep_ == "ROOT"), None)
    if (
        root is None
        or root.i > 2
        or root.pos_ not in ("NOUN", "PROPN", "VERB")
        or root.tag_
        not in (
            "NN",
            "NNS",
            "NNP",
            "VBG",
        )
    ):
        return None  # "heating" may be tagged a gerund; "I'm heating ..." has a subject and is no fragment
    if any(c.dep_ in ("nsubj", "nsubjpass", "aux", "auxpass") for c in root.children):
        return None
    to = next((c for c in root.children if c.dep_ == "prep" and c.lower_ == "to"), None)
    amount = to is not None and any(
        g.dep_ == "pobj" and (g.like_num or any(n.like_num for n in g.children)) for g in to.children
    )
    if not amount:
        return None
    head = root.lemma_.lower() if root.tag_ != "VBG" else root.lower_
    request = Request(clause, None, clause.strip(), head, "fragment", (head,), True)
    return SpeechAct("request", [request], why="fragment: a thing set to an amount")


# "york to edinburgh the day after tomorrow", "LHR -> JFK fri": two places and at most a time, no verb
_TWO_ENDS = re.compile(
    r"^\s*(?P<a>[A-Za-z][\w'.-]*(?:\s+[A-Za-z][\w'.-]*){0,2}?)\s+to\s+"
    r"(?P<b>[A-Za-z][\w'.-]*(?:\s+[A-Za-z][\w'.-]*){0,2}?)(?P<rest>\s+[^,.;!?]*)?$"
)


def _journey(text: str) -> SpeechAct | None:
    """A message that opens with a journey by its two ends and says nothing else in its first clause but
    when ("leeds to york tomorrow", "York to Edinburgh the day after tomorrow, I've got 2 toddlers ...")
    asks to go: a fragment with its two ends and no thing named (the router asks which way to go). Each
    end is a place's name (a word the dictionary has only as a name, or written with a capital)."""
    from datetime import datetime, timezone

    from ibachat.agent.reading.when import read_when

    clause = re.split(r"[,.;!?—–]", text, maxsplit=1)[0]
    m = _TWO_ENDS.match(clause)
    if m is None:
        return None

    def a_place(words: str) -> bool:  # "new york", "LHR"; never "I just moved", "I'm flying"
        from spacy.lang.en.stop_words import STOP_WORDS

        said = words.split()
        if any(w.lower() in STOP_WORDS or not w.replace("-", "").replace(".", "").isalpha() for w in said):
            return False
        return any(only_a_name(w.lower()) or w[:1].isupper() for w in said)

    rest = (m.group("rest") or "").strip()
    if not (a_place(m.group("a")) and a_place(m.group("b"))):
        return None
    if rest and (
        any(t.pos_ in ("VERB", "AUX") for t in parse(rest))
        or not read_when(rest, datetime(2026, 1, 5, 12, 0, tzinfo=timezone.utc)).said
    ):
        return None  # "Paris to Lyon is two hours": a verb says something of it; "X to Y soon": no time
    ends = (("from", m.group("a")), ("to", m.group("b")))
    return SpeechAct(
        "request",
        [Request(clause, None, clause.strip(), "", "fragment", (), False, ends)],
        why="fragment: a journey by its two ends",
    )


_ASIDE = re.compile(r"\s*\([^()]{1,80}\)")


# an aside that takes the message back (a closed class): "book a table? (just kidding)"
_TAKEN_BACK = re.compile(
    r"(?i)\((?:[^()]*\b)?(?:kidding|joking|jk|j/k|not really|lol|haha|hypothetically)\b[^()]*\)"
)


def _without_asides(text: str) -> str:
    """``text`` without what it says in brackets, when words are left."""
    out = _ASIDE.sub("", text).strip()
    return out if re.search(r"[A-Za-z]", out) else ""


def respelled(text: str) -> str:
    """``text`` with each word no dictionary knows mended to the one word of the request vocabulary
    (the verb classes and synonym groups of ``data/``) one letter away, as a spelling corrector's
    frequency dictionary finds it (``pyspellchecker``): "bok a tabel" -> "book a table". A word with a
    capital, a known word, a name or a word with two such mends stays as typed."""

    def mend(m: re.Match[str]) -> str:
        word = m.group(0)
        if word != word.lower() or not only_a_name(word):
            return word
        near = _speller().candidates(word) or set()
        fits = sorted(w for w in near if w in _request_words() and w != word)
        return fits[0] if len(fits) == 1 else word

    return re.sub(r"\b[a-z]{3,}\b", mend, text)


def _read(text: str) -> SpeechAct:
    doc = parse(text)
    requests: list[Request] = []
    kinds: list[str] = []
    for sent in doc.sents:
        kind, found = _sentence(sent)
        kinds.append(kind)
        requests += found
    if requests:
        return SpeechAct("request", requests, why=f"{requests[0].form}: {requests[0].clause[:60]!r}")
    for kind in ("negated", "standing", "question"):
        if kind in kinds:
            return SpeechAct(kind, why=kind)
    return SpeechAct("statement", why="states, tells or asks nothing to be done")


def _start(tokens: list) -> int:
    """Index of the first token after discourse words, punctuation, polite leads and a time said before a
    command ("In an hour and a half remind me to ...", "Tomorrow at 9, book ...")."""
    i = _after_leading_time(tokens)
    i = _after_leading_phrase(tokens, i)
    while i < len(tokens):
        low = tokens[i].lower_
        if tokens[i].is_punct or tokens[i].is_space or low in _DISCOURSE:
            i += 1
            continue
        rest = " ".join(t.lower_ for t in tokens[i : i + 5])
        lead = next((p for p in _POLITE_LEADS if rest.startswith(p + " ") or rest == p), None)
        if lead is None:
            break
        i += len(lead.split())
    return i


def _after_leading_phrase(tokens: list, i: int) -> int:
    """The index of the user ("I", "we") after a prepositional phrase that opens the sentence ("For
    Christmas I need a train ...", "After work we'd like a cab"): read as if it came after; ``i`` when
    the sentence opens otherwise."""
    if i >= len(tokens) or tokens[i].pos_ != "ADP":
        return i
    for k in range(i + 1, min(i + 8, len(tokens))):
        if tokens[k].lower_ in _FIRST_PERSON and k > i + 1:
            return k
        if tokens[k].pos_ in ("VERB", "AUX") or tokens[k].lower_ in ("you", "u"):
            break
    return i


def _after_leading_time(tokens: list) -> int:
    """The index after a day or time that opens the sentence, when a verb in its base form or the user
    ("I", "we") follows it."""
    if len(tokens) < 3:
        return 0
    from datetime import datetime, timezone

    from ibachat.agent.reading.when import read_when

    doc = tokens[0].doc
    start = tokens[0].idx
    rest = doc.text[start : tokens[-1].idx + len(tokens[-1].text)]
    when = read_when(rest, datetime(2026, 1, 5, 12, 0, tzinfo=timezone.utc))
    pieces = sorted({w.lower() for w in (when.time_words, when.day_words) if w}, key=len, reverse=True)
    low, at = rest.lower(), 0
    while True:  # "tomorrow lunchtime", "Friday, at 6": the day and the time, in either order
        # the day reader keeps "on" in "on friday" and leaves it out of "every sunday": both are tried
        gaps = (re.match(r"[\s,]*", low[at:]), re.match(r"[\s,]*(?:(?:at|on|every|each)\s+)?", low[at:]))
        found = next(((gap, p) for gap in gaps for p in pieces if low.startswith(p, at + gap.end())), None)
        if found is None:  # "every weekday at 7:45", "weekdays at 6pm": how often, which no day reader dates
            gap = gaps[0]
            every = _HOW_OFTEN.match(low, at + gap.end())
            found = (gap, every.group(0)) if every else None
        if found is None:
            break
        at += found[0].end() + len(found[1])
    if not at:
        return 0
    end = start + at
    j = next((k for k, t in enumerate(tokens) if t.idx >= end), len(tokens))
    while j < len(tokens) and (tokens[j].is_punct or tokens[j].lower_ in ("then", "please")):
        j += 1
    if j < len(tokens) and (
        tokens[j].tag_ == "VB" or tokens[j].lower_ in _FIRST_PERSON or _base_verb_here(tokens, j)
    ):
        return j  # "Tomorrow at 9, book ...", "Tonight we want a table ...": read as if it came after
    return 0


def _base_verb_here(tokens: list, j: int) -> bool:
    """A word the small parser took for a noun after a time ("Friday evening *book* me a cab") that is a
    verb's base form followed by "me" or "us": the command it starts."""
    return (
        j + 1 < len(tokens)
        and tokens[j + 1].lower_ in ("me", "us")
        and tokens[j].is_alpha
        and base_form(tokens[j].lower_)
    )


def _sentence(sent) -> tuple[str, list[Request]]:
    tokens = [t for t in sent]
    if _status_note(tokens):
        return "statement", []
    if _counterfactual(sent.root):
        return "question", []
    kind, found = _at(sent, tokens, _start(tokens))
    if found and found[0].form in ("fragment", "elliptical"):  # "1:1 with Dana at 4:30, pop it in the diary"
        later_kind, later = _after_a_break(sent, tokens)
        if later and (
            later[0].head in _PRONOUNS or not later[0].obj or later[0].obj not in later[0].clause
        ):  # "Flight to Lisbon next Friday please, book it": the it (not the last noun before it)
            r, c = found[0], later[0]
            act = Request(
                c.clause, c.verb, r.obj, r.head, c.form, r.nouns, r.common, c.places, c.media, r.venues
            )
            return "request", [act, *found]
        if later:
            return "request", later + found  # the router tries them in turn
        verb = _bare_verb(tokens)
        if verb:  # "Dinner at Luigi's on the 22nd, party of 10, reserve please": reserve that
            r = found[0]
            act = Request(r.clause, verb, r.obj, r.head, "imperative", r.nouns, r.common, venues=r.venues)
            return "request", [act, *found]
        return kind, found
    if found and found[0].form == "want" and found[0].verb is None:
        # "we need a stair gate for the baby, a standard one is fine, just buy one": the command after a break
        # says what to do with the thing wanted, which its pronoun stands for
        later_kind, later = _after_a_break(sent, tokens)
        if (
            later
            and later[0].verb
            and (later[0].head in _PRONOUNS or not later[0].obj or later[0].obj not in later[0].clause)
        ):
            r, c = found[0], later[0]
            act = Request(
                c.clause, c.verb, r.obj, r.head, c.form, r.nouns, r.common, r.places, c.media, r.venues
            )
            return "request", [act, *found]
    if found or kind == "negated":
        return kind, found
    later_kind, later = _after_a_break(sent, tokens)
    if later:
        return "request", later
    if later_kind in ("negated", "standing"):
        return later_kind, []
    inner = _embedded(sent, tokens)
    if inner:
        return "request", inner
    return kind, found


def _counterfactual(root) -> bool:
    """What "you" would do if something were otherwise ("If money were no object, would you fly first
    class?", "if you had a free weekend, would you go to Rome?"): a condition in the past form under
    "would you", an opinion asked, not a request ("would you book it if they have space" stays one)."""
    kids = list(root.children)
    if not (
        any(c.dep_ == "aux" and c.lower_ in ("would", "'d") for c in kids)
        and any(c.dep_ == "nsubj" and c.lower_ in _YOU for c in kids)
    ):
        return False
    return any(
        c.dep_ == "advcl"
        and any(g.dep_ == "mark" and g.lower_ == "if" for g in c.children)
        and (  # "if I were training for a marathon": the past on its auxiliary
            (c.tag_ == "VBD" and not any(g.dep_ == "aux" for g in c.children))
            or any(
                g.dep_ == "aux" and (g.tag_ == "VBD" or g.lower_ in ("could", "might")) for g in c.children
            )
        )
        for c in kids
    )


def _embedded(sent, tokens: list) -> list[Request]:
    """A request put inside another clause, read from the parse: "you" and a modal under the user's own
    wish or under a yes/no question ("I'd love it if you could reserve ...", "is there any way you could
    get me ...?"), or an infinitive whose doer is "you", under the user's own verb ("I am writing to ask
    you kindly to send ..."). Not a counterfactual ("you could have booked"), not with a negation on the
    way up, not under a question that asks what, where or how."""
    root = sent.root
    # a yes/no question, with its "?" or without: an auxiliary before its subject ("do you think you
    # could ...", "would it be possible ..."), or "any chance / any way you could ..."
    inverted = (
        len(tokens) > 1
        and tokens[0].tag_ in ("VBP", "VBZ", "VBD", "MD")
        and tokens[0].dep_ in ("aux", "ROOT")
        and tokens[1].dep_ in ("nsubj", "expl")
    )
    any_chance = root.pos_ in ("NOUN", "PROPN") and any(
        c.dep_ == "det" and c.lower_ == "any" for c in root.children
    )
    question = sent.text.strip().endswith("?") or inverted or any_chance
    if question and any(t.tag_ in ("WDT", "WP", "WRB") and t.i < root.i + 2 for t in tokens[:3]):
        return []
    # "any way you could get me a cab ...": the parse hangs "any way" on the modal verb itself
    kids = list(root.children)
    if (
        root.tag_ == "VB"
        and any(c.dep_ == "nsubj" and c.lower_ in _YOU for c in kids)
        and any(c.dep_ == "aux" and c.lower_ in _MODALS for c in kids)
        and not any(c.dep_ == "aux" and c.lower_ == "have" for c in kids)
        and not any(_negates(c) for c in kids)
        and any(
            c.dep_ in ("npadvmod", "advmod")
            and any(g.dep_ == "det" and g.lower_ == "any" for g in c.children)
            for c in kids
        )
    ):
        found = _command(sent, tokens, tokens.index(root), "modal")
        if found:
            return found
    subjects = [c.lower_ for c in root.children if c.dep_ in ("nsubj", "expl")]
    root_aux = [c.lower_ for c in root.children if c.dep_ == "aux"]
    for j, verb in enumerate(tokens):
        if verb.tag_ not in ("VB", "VBP", "VBD") or verb is root:
            continue
        kids = list(verb.children)
        aux = [c.lower_ for c in kids if c.dep_ in ("aux", "auxpass")]
        marks = [c.lower_ for c in kids if c.dep_ == "mark"]
        you_subject = any(c.dep_ == "nsubj" and c.lower_ in _YOU for c in kids)
        modal = verb.tag_ == "VB" and you_subject and any(a in _MODALS for a in aux) and "have" not in aux
        # "(possible) for you to sort ...", "ask you to send ...": an infinitive whose doer is "you"
        infinitive = (
            verb.tag_ == "VB"
            and "to" in aux
            and (
                (you_subject and "for" in marks)
                or any(c.dep_ in ("dobj", "nsubj") and c.lower_ in _YOU for c in verb.head.children)
            )
        )
        # "would it be possible to reserve ...": a possibility asked after with a modal, its doer left out
        possible = (
            verb.tag_ == "VB"
            and "to" in aux
            and not marks
            and verb.dep_ == "xcomp"
            and verb.head.i == root.i
            and root.lemma_ == "be"
            and "it" in subjects
            and any(a in ("would", "could", "might") for a in root_aux)
            and any(c.dep_ == "acomp" and c.lower_ in _POSSIBLE for c in root.children)
        )
        infinitive = infinitive or possible
        # "I would appreciate it / I'd be grateful / it would be great if you booked ...": the user's
        # hypothetical wish, its condition what "you" would do (not "would have": a regret)
        head_aux = [c.lower_ for c in verb.head.children if c.dep_ == "aux"]
        conditional = (
            you_subject
            and "if" in marks
            and verb.dep_ == "advcl"
            and any(a in ("would", "'d") for a in head_aux)
            and "have" not in head_aux
        )
        hypothetical = conditional and not aux
        # "I write to request / I ask that you send ...": a mandative "that" clause, its verb bare
        mandative = (
            you_subject
            and not aux
            and "that" in marks
            and verb.tag_ in ("VB", "VBP")
            and verb.head.lemma_.lower() in _MANDATIVE
        )
        wished = conditional and _welcomes(root, verb)
        if hypothetical and not wished:
            continue  # "I would be surprised if you booked it": a condition, not a wish
        if not (modal or infinitive or hypothetical or mandative):
            continue
        chain = [verb, *verb.ancestors]
        if any(_negates(c) for t in chain for c in t.children):
            continue
        own = any(s in _SELF for s in subjects) or (wished and "it" in subjects)
        verbless = root.pos_ not in ("VERB", "AUX")  # "any chance you could ...?"
        # "do you think you could ...?": a yes/no question about "you" that holds "you" and a modal
        about_you = (
            "do" in root_aux and any(s in _YOU for s in subjects) and verb.dep_ == "ccomp" and not marks
        ) or (  # "reckon you could ...?": the same question with its "do you" left out
            not subjects
            and not root_aux
            and root.lemma_.lower() in _OPINION
            and root.i == tokens[0].i
            and sent.text.strip().endswith("?")
            and verb.dep_ == "ccomp"
            and not marks
        )
        frame = question and (
            "there" in subjects
            or ((modal or infinitive) and (root.lemma_ == "be" or verbless))
            or (modal and about_you)
        )
        if not (own or frame):
            continue
        if modal and not own and verb.dep_ not in ("relcl", "ccomp", "acl"):
            continue
        found = _command(sent, tokens, j, "modal")
        if found:
            return found
    return []


def _welcomes(root, condition) -> bool:
    """The clause a condition hangs on welcomes it ("I'd appreciate it", "it would be great"): a
    positive stance cue of the reading lexicon in that clause, outside the condition itself."""
    from ibachat.agent.data import load
    from ibachat.agent.reading.polarity import _compiled, _find_cues

    inside = {t.i for t in condition.subtree}
    main = [t for t in root.subtree if t.i not in inside]
    if any(_negates(t) for t in main):
        return False  # "I wouldn't be happy if you booked it"
    welcome = set(load("welcome")["words"])
    if any(t.lemma_.lower() in welcome or t.lower_ in welcome for t in main):
        return True
    return any(c.polarity > 0 for c in _find_cues(" ".join(t.lower_ for t in main), _compiled()[0]))


def _after_a_break(sent, tokens: list) -> tuple[str, list[Request]]:
    """A command after a comma or a conjunction: "we're out of milk, sort a delivery", "..., so book it";
    not in a story of what the user does ("every morning I ring, sit in a queue, and ...")."""
    story = _HABITUAL.search(sent.text) and any(t.dep_ == "nsubj" and t.lower_ in ("i", "we") for t in tokens)
    for p, tok in enumerate(tokens[:-1]):
        dash = tok.lower_ in ("-", "–", "—") and bool(tokens[p - 1].whitespace_)  # not "last-minute"
        if story and not (dash and not _HABITUAL.search(sent.doc.text[tok.idx : sent.end_char])):
            continue  # a story goes on after a comma or an "and"; a dash breaks it off ("... — refill it")
        if (dash or tok.lower_ in (",", ";", ":", "and", "so", "then", "but")) and p > 0:
            j = p + 1 + _start(tokens[p + 1 :])
            if j < len(tokens) and _shares_a_subject(tokens, p, j):
                continue  # "I have an aversion to X and prefer Y": the same "I", not a command
            if j < len(tokens) and j > p and (_is_command(sent, tokens, j) or tokens[j].lower_ in _MODALS):
                sub_kind, sub = _at(sent, tokens, j)
                if sub and sub[0].form == "imperative" and not _marked_command(tokens, j):
                    continue  # "the hotel was lovely, pool on the roof": a word that may be a verb, told on
                if sub:
                    return sub_kind, sub
                if sub_kind in ("negated", "standing"):
                    return sub_kind, []
            elif (
                j < len(tokens)
                and any(t.pos_ in ("VERB", "AUX") for t in tokens[:p])
                and _elliptical(tokens, j) == "elliptical"
            ):
                # "we're moving on the 30th - a van with two movers please": a thing asked for with
                # "please" after a story (a clause, with its verb) is asked for, as a command there would
                # be; after a thing asked for ("two seats for Friday, stalls please") it is that thing's detail
                sub_kind, sub = _at(sent, tokens, j)
                if sub:
                    return sub_kind, sub
    return "", []


def _lemma_of_past(word: str) -> str:
    """The lemma of a past form, read in the frame ``past_form`` reads it in."""
    return parse(f"I {word} it yesterday.")[1].lemma_.lower()


def _marked_command(tokens: list, j: int) -> bool:
    """A command after a break says it is one: its verb is one of asking for things (a request class but
    the device one, whose verbs are everyday doings: "walk", "cook", "leave"), it says "please", or its
    object is plainly one (a determiner, an owner, a pronoun, a count or a name right after the verb and
    its particle: "refill my inhaler", "book us a room", "email IT"). "pool on the roof", "baby up at 3",
    "roast chicken", "work from home" after a statement are no such command."""
    verb = tokens[j]
    if any(verb.lower_ in _classes_of(c) or verb.lemma_.lower() in _classes_of(c) for c in _ASKING_CLASSES):
        return True
    if any(t.lower_ in ("please", "pls", "plz") for t in tokens[j:]):
        return True
    k = j + 1
    while k < len(tokens) and tokens[k].dep_ == "prt":
        k += 1
    if k >= len(tokens):
        return False
    nxt = tokens[k]
    return nxt.tag_ in ("DT", "PRP$", "PRP", "CD") or (nxt.pos_ == "PROPN" and nxt.text[:1].isupper())


# the verb classes of asking for things (``data/act_verbs.json``), all but the everyday doings of "device"
_ASKING_CLASSES = ("light", "writing", "speech", "undo", "modify", "pay", "consult", "reply", "place")


def _shares_a_subject(tokens: list, p: int, j: int) -> bool:
    """The verb after a bare "and" / "but" (no comma before it) is joined to a verb with a subject of its
    own that is not "you": it is that subject's second verb."""
    if tokens[p].lower_ not in ("and", "but") or (p > 0 and tokens[p - 1].lower_ in (",", ";")):
        return False
    verb = tokens[j]
    if verb.dep_ != "conj":
        return False
    for head in verb.ancestors:  # the verb it is joined to (the parse may hang it on that verb's object)
        subjects = [c for c in head.children if c.dep_ in ("nsubj", "nsubjpass")]
        if head.pos_ in ("VERB", "AUX") and subjects:
            return all(c.lower_ not in ("you", "u") for c in subjects)
    return False


def _at(sent, tokens: list, i: int) -> tuple[str, list[Request]]:
    """The sentence read as a request that opens at token ``i``."""
    if i >= len(tokens):
        return "statement", []
    text = sent.text.strip()
    question = text.endswith("?")
    low = [t.lower_ for t in tokens]
    first = low[i]
    # "don't / do not / never ..." in command position
    if first in ("do", "never") and (first == "never" or (i + 1 < len(low) and low[i + 1] in ("n't", "not"))):
        j = i + (1 if first == "never" else 2)
        if j + 2 < len(low) and low[j] == "let" and low[j + 1] in ("me", "us") and low[j + 2] == "forget":
            found = _command(sent, tokens, j + 2, "imperative")  # "don't let me forget X": remind me of X
            if found:
                r = found[0]
                return "request", [Request(r.clause, "remind", r.obj, r.head, r.form, r.nouns)]
        return "negated", []
    # "can / could / would / will you (please) VERB", "would you mind VERB-ing"
    if first in _MODALS and i + 1 < len(low) and low[i + 1] in _YOU:
        j = i + 2
        while j < len(tokens) and (
            low[j] in ("please", "just", "kindly", "maybe", "possibly") or tokens[j].is_punct
        ):
            j += 1
        if j < len(tokens) and low[j] in ("n't", "not"):
            return "negated", []
        if j < len(tokens) and low[j] == "mind" and j + 1 < len(tokens):
            j += 1
        if question and _asks_what_can_be_done(tokens, j):
            return "question", []  # "can you book trains as well or only flights?": what the assistant can do
        found = _command(sent, tokens, j, "modal")
        return ("request", found) if found else ("question", [])
    # "could the GP see me tomorrow?", "can the vet fit Mochi in today?": someone who serves, asked to see
    # to the user or theirs at a time, is a booking with them asked for
    if first in ("can", "could") and question and _served_when(sent, tokens, i):
        # the one who serves is the thing asked for ("the physio"), never what they see to ("my car")
        end = next(k for k, t in enumerate(tokens) if k > i and t.dep_ in ("nsubj", "nsubjpass")) + 1
        found = _want_object(sent, tokens[:end], i + 1, "want")
        if found:
            return "request", found
    # "I need / want / would like you to VERB"
    if first in _SELF and _you_to(low, i):
        j = low.index("to", i) + 1
        found = _command(sent, tokens, j, "modal")
        return ("request", found) if found else ("statement", [])
    # "can / could / may I get / have X"
    if (
        first in ("can", "could", "may")
        and i + 2 < len(low)
        and low[i + 1] in _SELF
        and low[i + 2] in ("get", "have")
    ):
        found = _want_object(sent, tokens, i + 3, "want")
        return ("request", found) if found else ("question", [])
    # "can she be seen at the vet on Friday?", "could I talk to a counsellor sometime", "can my dad see a
    # physio this week": someone of the user's asks to be seen by one who serves, which is a booking
    # with them (a closed class of verbs of being seen to)
    if (
        first in ("can", "could", "may")
        and i + 2 < len(low)
        and tokens[i + 1].pos_ in ("PRON", "PROPN", "NOUN")
    ):
        k = next((k for k in range(i + 2, min(i + 6, len(low))) if tokens[k].pos_ in ("VERB", "AUX")), None)
        seen = k is not None and low[k] in ("be", "get") and k + 1 < len(low) and low[k + 1] == "seen"
        if seen and k + 2 < len(low) and low[k + 2] in ("at", "by"):
            j = k + 3
        elif (
            k is not None
            and tokens[k].lemma_.lower() in _SEEN_BY
            and low[i + 1] in _SELF | {"she", "he", "they"}
        ):
            j = k + 1 + (k + 1 < len(low) and low[k + 1] in ("to", "with"))
            # one who serves, said as a noun after an article ("a counsellor"): not "see you", "speak English"
            if not (
                j + 1 < len(low) and low[j] in ("a", "an", "the", "someone") and tokens[j + 1].pos_ == "NOUN"
            ):
                j = -1
        else:
            j = -1
        found = _want_object(sent, tokens, j, "want") if j > 0 else []
        if found:
            return "request", found
    # "can I book a table for 2 tonight?", "could I order the usual from Pret": the user asks to do what
    # the assistant does for them (a verb of arranging), not whether it can be done
    if (
        first in ("can", "could", "may")
        and i + 2 < len(low)
        and low[i + 1] in _SELF
        and low[i + 2] in _classes_of("light")
        and tokens[i + 2].pos_ == "VERB"
        and not (question and _asks_what_can_be_done(tokens, i + 2))
    ):
        found = _command(sent, tokens, i + 2, "modal")
        return ("request", found) if found else ("question", [])
    if first in ("lets", "let's") or (first == "let" and i + 1 < len(low) and low[i + 1] in ("'s", "us")):
        j = i + (2 if i + 1 < len(low) and low[i + 1] in ("'s", "us") else 1)
        found = _command(sent, tokens, j, "lets")
        return ("request", found) if found else ("statement", [])
    if question and not _a_command_asked(sent, tokens, i, text):
        return "question", []
    if _FREQUENCY.match(sent.doc.text[tokens[i].idx : sent.end_char]):
        return "standing", []  # "always order me the large size": a rule for every order, not one now
    # "I need a taxi", "we'd like a table", "I want to book ..."
    if first in _SELF:
        return _want(sent, tokens, i)
    if _opinion_opens(tokens[i]):
        return "question", []  # "reckon it's worth hiring a ute or nah": "do you" left out, an opinion asked
    if _is_command(sent, tokens, i):
        found = _command(sent, tokens, i, "imperative")
        if found:
            return "request", found
        return _why_not(sent, tokens, i), []
    if past_form(first) and _lemma_of_past(first) in _STANCE_VERBS:
        return "statement", []  # "Loved Porto, ...", "hated the hotel": a feeling told, the "I" left out
    form = _elliptical(tokens, i)
    if form is not None:
        phrase = _span(tokens[i:]).rstrip(" .!")
        nouns = tuple(t.lemma_.lower() for t in tokens[i:] if t.pos_ in ("NOUN", "PROPN"))
        first_noun = _fragment_head(tokens, i) if form == "fragment" else None
        first_noun = first_noun or next((t for t in tokens[i:] if t.pos_ in ("NOUN", "PROPN")), None)
        head = first_noun.lemma_.lower() if first_noun is not None else ""
        common = first_noun is not None and first_noun.pos_ == "NOUN"
        venues = _venues(tokens[i:])
        quals = _qualities(tokens, i, first_noun) if form == "fragment" else ()
        places = _ends(tokens[i:])
        media = tuple(
            g.lemma_.lower()
            for t in tokens[i:]
            if t.dep_ == "prep" and t.lower_ in _MEDIUM_PREPS
            for g in t.children
            if g.dep_ == "pobj" and g.pos_ == "NOUN"
        )  # "paris to brussels by rail": the means it goes by
        company = _company(first_noun) if first_noun is not None and form == "fragment" else ()
        return "request", [
            Request(
                phrase,
                None,
                phrase,
                head,
                form,
                nouns,
                common,
                places,
                media,
                venues=venues,
                quals=quals,
                company=company,  # "coffee with Tom at 3": an occasion with someone
            )
        ]
    return "statement", []


def _a_command_asked(sent, tokens: list, i: int, text: str) -> bool:
    """A command said with a question mark ("order two margheritas from Pizza Pilgrims to the flat?") or
    with a question tag ("get two wraps sent over from Zaytoun, would you?"): a request, not a question.
    A verb of liking or wanting that opens it ("fancy a coffee?") asks what the user wants; a question of
    its own after a break ("remind me, what did the doctor say?") is what is asked."""
    tok = tokens[i]
    if (
        tok.lemma_.lower() in _STANCE_VERBS | _WISH_VERBS
        or tok.dep_ in ("aux", "auxpass")
        or tok.pos_ == "AUX"
    ):
        return False  # "do hotels in Japan usually include breakfast?": an auxiliary opens a yes/no question
    if _TAG_QUESTION.search(text):
        return _is_command(sent, tokens, i)
    if _QUESTION_AFTER.search(text):
        return False
    if any(t.lower_ == "or" for t in tokens[i:]):
        return False  # "book the cheapest or the fastest train?": which one, asked
    classes = _verb_classes()
    words = (
        classes.get("speech", frozenset())
        | classes.get("consult", frozenset())
        | classes.get("reply", frozenset())
    )
    acting = asks_with(tok.lower_) and tok.lower_ not in words
    # a verb of doing with its own object ("hire us a rowing boat ...?"), never one of knowing, thinking,
    # telling or answering
    done_to = (
        tok.tag_ == "VB"
        and tok.lemma_.lower() not in _THINKING
        and tok.lower_ not in words
        and any(c.dep_ in ("dobj", "dative") for c in tok.children)
    )
    return (acting or done_to) and _is_command(sent, tokens, i)


def _opinion_opens(tok) -> bool:
    """A verb of opinion opens the sentence with a clause of its own and no subject ("reckon it's worth
    ...", "think we should get a cab"): "do you" or "I" left out, not a command ("think of a name")."""
    return (
        tok.lemma_.lower() in _OPINION
        and not any(c.dep_ in ("nsubj", "prt") for c in tok.children)
        and any(c.dep_ == "ccomp" and c.i > tok.i for c in tok.children)
    )


def _you_to(low: list[str], i: int) -> bool:
    window = " ".join(low[i : i + 6])
    return bool(re.match(r"(?:i|we) (?:'d |would )?(?:need|want|like|love) you to\b", window))


def _is_command(sent, tokens: list, i: int) -> bool:
    """Token ``i`` opens a command: a verb in base form with no subject of its own before it."""
    tok = tokens[i]
    if tok.lower_ in _NOT_A_VERB or tok.lower_ in _MODALS or not tok.is_alpha or tok.like_num:
        return False
    if i + 1 < len(tokens) and tokens[i + 1].lower_ in ("'s", "’s", "is", "are", "was", "were"):
        return False  # "Rent's due on the 1st": a subject and its verb, not a command
    if (
        tok.pos_ in ("NOUN", "PROPN", "ADJ")
        and tok.dep_ in ("compound", "amod")
        and tok.head.pos_ == "NOUN"
        and tok.head.lemma_.lower() not in _people()
        and not known_verb(tok.lower_)
    ):
        return False  # "latte art at the new cafe", "rooftop pool": a modifier no dictionary has as a verb
        # ("text Sam ...", "text mum ...": a name or a person after it is the one to reach)
    if tok.pos_ == "PROPN" and tok.ent_type_ in ("GPE", "LOC") and not known_verb(tok.lower_):
        return False  # "Oslo to Bergen next Tuesday": a place the message opens with is no verb
    if _noun_only(tok.lower_) and (
        i + 1 == len(tokens) or tokens[i + 1].pos_ in ("ADJ", "NOUN", "PRON", "ADP")
    ):  # "oat flat white, large, from Pret", "classic me", "supper at The Ivy": a noun only, no verb
        return False
    misread = tok.tag_ == "VBG" and base_form(tok.lower_)  # "ping" read as a form of "pe"
    if (tok.tag_ in ("VBZ", "VBG", "VBN", "MD") and not misread) or (
        tok.tag_ == "VBD" and i == 0 and tok.lemma_.lower() != tok.lower_
    ):
        return False  # "booked the dentist", "sounds good": not a command ("put", "set" stay possible)
    if past_form(tok.lower_):
        return False  # "Rang the surgery and got a slot": a story with the "I" left out, not a command
    if tok.lemma_.lower() in _STANCE_VERBS:
        return False  # "just hate them": a feeling with the "I" left out, never a command
    named = tok.pos_ != "VERB" and (tok.dep_ in ("compound", "amod") or not known_verb(tok.lower_))
    if named and any(s.text.strip().endswith("?") for s in tok.doc.sents):
        return (
            False  # "meal plan from my dietitian: 5 days, low salt. any good?": a thing and a question on it
        )
    # the word heads (or belongs to) the subject of a finite verb: a statement ("book club was fun")
    for t in tokens:
        if (
            t.dep_ in ("nsubj", "nsubjpass", "expl")
            and t.head.tag_ in ("VBZ", "VBD", "VBP", "MD")
            and t.head.i > tok.i
            and not _a_day_word(t.head)  # "book a table at Dishoom weds at 2:30": a day, no verb
        ):
            if tok.i in {x.i for x in t.subtree}:
                return False
    clause = sent.doc.text[tok.idx : sent.end_char]
    # the clause's own verbs: "I'm starving — order pho from Pho Saigon" has a finite verb before the break
    return command_parse(clause, finite=_has_finite(tokens[i:])) is not None
