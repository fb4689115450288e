"""Allowed values and flags a request names for a tool's enum and boolean parameters.

Part of ``alignment/request_values.py``, which runs the readers in order."""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any

from ibachat.agent.alignment.values.causes import _FINE
from ibachat.agent.alignment.values.common import (
    _EXCLUDE,
    _FLAG_NOISE,
    _SOME_DAY,
    REFUSED,
    Stated,
    _free,
    _split,
    _stem,
)
from ibachat.agent.alignment.values.lists import _head_word
from ibachat.agent.alignment.values.spans import _span_role
from ibachat.agent.reading.frame import Frame
from ibachat.agent.reading.when import read_when

# what a turned-down act may be done after: "without asking me first", "without checking"
_UNLESS = re.compile(r"(?i)\bwithout\s+(\w+?)(?:ing)?\b(?:\s+\w+){0,2}")


def _enums(props: dict[str, Any], frame: Frame, task: str, out: dict[str, Stated]) -> None:
    found: dict[str, tuple[Any, str]] = {}
    # "remind me to call the dentist": "call" is no channel; what follows a colon is words to keep only for
    # a tool that keeps words ("news briefing: science, headlines only": the briefing's own values)
    keeps_words = any(_free(p) and _span_role(n, p) == "body" for n, p in props.items())
    said = _outside_content(frame, task, keep=() if keeps_words else ("colon",))
    said = re.sub(  # "email me rather than sms": what is turned down names no value
        r"[\w'-]+", lambda m: " " * len(m.group(0)) if _refused_word(m.group(0), frame) else m.group(0), said
    )
    said = _placeholders_qualities_blanked(task, said)
    for a in frame.amounts:  # "budget €50-€80", "a budget of £200": the word names the price, no value
        if a.unit != "money":
            continue
        label = _PRICE_LABEL.search(said[: a.span.start])
        if label is not None:
            said = said[: label.start(1)] + " " * len(label.group(1)) + said[label.end(1) :]
    for n, p in props.items():
        if n in out or not p.get("enum") or p.get("type") not in ("string", None):
            continue
        hit = named_value(p, said) or _means_value(p, said)
        nothing = next((v for v in p["enum"] if str(v).lower() in ("none", "no")), None)
        named_for = {_stem(w) for w in _split(n) if len(w) >= 4}
        turned_down = [s for s in frame.refused if _stem(_head_word(s.text)) in named_for]
        named_for |= _same_act(named_for)  # "don't swap anything" for substitutions (data/synonyms.json)
        never = next((v for v in p["enum"] if str(v).lower() in ("never", "none", "no", "off")), None)
        said_not = [w for w in frame.negated if any(_kin(_stem(w), x) for x in named_for)]
        if hit is None and never is not None and said_not:  # "don't substitute anything": substitutions never
            m = re.search(rf"(?i)(?:[\w']+\s+){{0,2}}\b{re.escape(said_not[0])}\w*", frame.text)
            unless = _UNLESS.search(frame.text, m.end()) if m else None
            if unless is not None:  # "don't swap anything without asking me first": not never, but the
                # value named by what it may be done after ("ask_first"), else nothing
                done = _stem(unless.group(1))
                after = [v for v in p["enum"] if done in {_stem(w) for w in _split(str(v))}]
                if len(after) == 1:
                    out[n] = Stated(after[0], unless.group(0))
                continue
            out[n] = Stated(never, m.group(0) if m else said_not[0])  # quoted with its "don't"
            continue
        if hit is None and nothing is not None and turned_down:  # "no caffeine" for a caffeine parameter
            thing = turned_down[0]
            cue = re.search(r"[\w']+\s+$", frame.text[max(0, thing.start - 30) : thing.start])
            out[n] = Stated(nothing, (cue.group(0) if cue else "") + thing.text)  # quoted with its "no"
            continue
        if hit is not None and _with_another_value(p["enum"], hit, task):
            continue  # "both gas and electric" for one fuel: neither alone is what was asked
        if hit is not None and not (set(hit[1].lower().split()) & frame.negated):
            found[n] = hit  # "don't allow substitutions" names no value
    # one value named for two parameters ("low impact": intensity and impact both allow "low"): the
    # parameter whose name stands beside it in the request takes it; otherwise neither does
    by_words: dict[str, list[str]] = {}
    for n, (_, words) in found.items():
        by_words.setdefault(words.lower(), []).append(n)
    low = task.lower()
    for words, names in by_words.items():
        if len(names) == 1:
            n = names[0]
            out[n] = Stated(found[n][0], found[n][1])
            continue
        beside = [n for n in names if any(re.search(rf"\b{re.escape(words)}[\s-]+{re.escape(w)}", low)
                                          for w in _split(n))]  # fmt: skip
        if len(beside) == 1:
            n = beside[0]
            out[n] = Stated(found[n][0], found[n][1])


# the word just before a price, or before "of"/"is"/":" and a price ("budget €50", "a budget of £200")
_PRICE_LABEL = re.compile(r"(?i)\b([a-z]+)\s*(?::|\bof\b|\bis\b|\bwas\b)?\s*$")
# What a request says of how often (a closed class of time words), to the enum value that names it.
_FREQUENCIES = (
    (
        re.compile(r"(?i)\b(?:twice|two\s+times)(?:\s+|-)(?:a\s+|per\s+|each\s+)?day\b|\btwice[\s-]daily\b"),
        "twice_daily",
    ),
    (
        re.compile(
            r"(?i)\b(?:twice|two\s+times)(?:\s+|-)(?:a\s+|per\s+|each\s+)?week\b|\btwice[\s-]weekly\b"
        ),
        "twice_weekly",
    ),
    (re.compile(r"(?i)\b(?:every\s+weekday|on\s+weekdays|weekdays\s+only)\b"), "weekdays"),
    (re.compile(r"(?i)\b(?:every\s+(?:other|second)\s+week|fortnightly|biweekly)\b"), "fortnightly"),
    (re.compile(r"(?i)\b(?:every\s+(?:day|morning|evening|night)|daily|each\s+day|nightly)\b"), "daily"),
    (
        re.compile(
            r"(?i)\b(?:every\s+(?:week|(?:mon|tues?|wed(?:nes)?|thu(?:rs)?|fri|sat(?:ur)?|sun)(?:day)?s?)\b|weekly|once\s+a\s+week)\b"
        ),
        "weekly",
    ),
    (re.compile(r"(?i)\b(?:every\s+month|monthly|once\s+a\s+month)\b"), "monthly"),
    (re.compile(r"(?i)\b(?:every\s+year|yearly|annually|once\s+a\s+year)\b"), "yearly"),
)
# A time of day (when.py's part), to the values an enum may name it by (its own name first, then the half of the day).
_PARTS = {
    "early_morning": ("early_morning", "morning", "am"),
    "morning": ("morning", "am"),
    "lunchtime": ("lunchtime", "midday", "noon"),
    "afternoon": ("afternoon", "pm"),
    "evening": ("evening", "pm"),
    "night": ("night", "late", "evening", "pm"),
}


def _when_enums(props: dict[str, Any], task: str, now: datetime, out: dict[str, Stated]) -> None:
    """An enum of parts of the day or of how often: "tomorrow morning" (``am``), "every Sunday" (``weekly``)."""
    open_enums = {
        n: [str(v).lower() for v in p["enum"]]
        for n, p in props.items()
        if n not in out and p.get("enum") and p.get("type") in ("string", None)
    }
    when = read_when(task, now)
    if when.part and when.time_words and _said(when.time_words, task):
        for label in _PARTS.get(when.part, (when.part,)):
            fits = [
                n
                for n, vals in open_enums.items()
                if label in vals
                and not _longer_said(label, vals, task)
                and not _other_said(label, vals, props[n].get("default"), task)
            ]
            if len(fits) == 1:
                n = fits[0]
                out[n] = Stated(props[n]["enum"][open_enums[n].index(label)], when.time_words)
                open_enums.pop(n)
                break
    for pattern, label in _FREQUENCIES:
        m = pattern.search(task)
        if m is None:
            continue
        fits = [n for n, vals in open_enums.items() if label in vals]
        if len(fits) == 1:
            out[fits[0]] = Stated(props[fits[0]]["enum"][open_enums[fits[0]].index(label)], m.group(0))
        break


def _longer_said(label: str, values: list[str], task: str) -> bool:
    """Whether the request names an allowed value that holds ``label`` ("early morning" for "morning")."""
    return any(v != label and label in v and _said(v.replace("_", " "), task) for v in values)


# nouns for all of what is asked without naming it (a closed class): "the whole thing", "the whole lot";
# "budget stuff", "the advanced one" name the thing's own kind
_WHOLES = frozenset({"thing", "things", "lot"})


def _placeholders_qualities_blanked(task: str, said: str) -> str:
    """``said`` without the words that qualify a noun standing for no thing ("keep the whole thing under
    70 quid": "whole" is no kind of milk), by the parse."""
    from ibachat.agent.reading.parse import parse

    if not any(w in _WHOLES for w in re.findall(r"[a-z]+", task.lower())):
        return said
    for t in parse(task):
        if t.dep_ in ("amod", "compound") and t.head.lower_ in _WHOLES and t.head.i != t.i:
            said = said[: t.idx] + " " * len(t.text) + said[t.idx + len(t.text) :]
    return said


def _other_said(label: str, values: list[str], default: Any, task: str) -> bool:
    """Whether the request names another allowed value by its own words ("the red-eye ... Monday
    night": red_eye, not the evening the night would give); the default and function words say none."""
    from spacy.lang.en.stop_words import STOP_WORDS

    skip = {str(default).lower(), label}
    return any(v not in skip and v not in STOP_WORDS and _said(v.replace("_", " "), task) for v in values)


def _said(quote: str, task: str) -> bool:
    plain = " ".join(w for w in (w.strip("'") for w in re.findall(r"[\w']+", quote.lower())) if w)
    words = (w.strip("'") for w in re.findall(r"[\w']+", task.lower()))  # "'Keys'": keys
    return bool(plain) and f" {plain} " in " " + " ".join(w for w in words if w) + " "


def _enum_lists(props: dict[str, Any], frame: Frame, task: str, out: dict[str, Stated]) -> None:
    """Lists of allowed values the request names ("on climate and science": both); a value
    a negation governs ("but no politics") goes to the list of what to leave out."""
    lists = {
        n: p["items"]["enum"]
        for n, p in props.items()
        if p.get("type") == "array"
        and n not in out
        and isinstance(p.get("items"), dict)
        and p["items"].get("enum")
    }
    if not lists:
        return
    # "a daily briefing: weather and sport": after a colon, the allowed values are what is listed
    said = _outside_content(frame, task, keep=("colon",)).lower()
    words = re.findall(r"[a-z][a-z'-]+", said)
    refused = {_stem(s.text) for s in frame.refused} | {_stem(w) for w in frame.negated}
    kept: dict[str, list[tuple[int, Any, str]]] = {"in": [], "out": []}
    seen: set[str] = set()
    for values in lists.values():
        labels = [str(v).replace("_", " ").lower() for v in values]
        for v, label in zip(values, labels):
            if not isinstance(v, str) or v in seen:
                continue
            seen.add(v)
            m = re.search(rf"\b{re.escape(label)}\b", said)
            word = label if m else next(
                (w for w in words if len(w) >= 4 and label.startswith(w) and len(w) >= 0.4 * len(label)
                 and sum(1 for x in labels if x.startswith(w)) == 1), None
            )  # fmt: skip
            free = re.fullmatch(r"(\w+) free", label)  # "nut free": what the value keeps away
            if word is None and free:
                word = next((w for w in words if _stem(w) == _stem(free.group(1))), None)  # "nuts"
            if word is None:
                continue
            at = re.search(rf"\b{re.escape(word)}\b", said)
            if at is None:
                continue
            clause = re.split(r"[,;.:!?]|\b(?:and|but|plus|though)\b", said[: at.start()])[-1]
            turned_down = bool(
                _TURNED_DOWN.search(clause)
            )  # "none of the sport stuff", "skip anything local"
            side = "out" if _stem(word) in refused or _stem(label) in refused or turned_down else "in"
            if free and word != label:
                # "no prawns", "allergic to nuts": the thing kept away asks for the value that keeps
                # it away; the thing said plainly ("the nut roast") asks for nothing
                after = _ALLERGY_AFTER.match(said[at.end() :])
                if after is not None and side == "in":  # "a nut allergy", "shellfish-intolerant"
                    kept["in"].append((at.start(), v, task[at.start() : at.end() + after.end()]))
                    continue
                if side == "in" and not _ALLERGY.search(clause):
                    continue
                side = "in"
                cues = list(_ALLERGY.finditer(clause)) + list(
                    re.finditer(r"(?i)\b(?:no|not|without)\b", clause)
                )
                if cues:  # quoted with the words that keep it away ("allergic to nuts", "no prawns")
                    start = at.start() - len(clause) + min(c.start() for c in cues)
                    kept[side].append((start, v, task[start : at.end()]))
                    continue
            kept[side].append((at.start(), v, task[at.start() : at.end()]))
    for n, values in lists.items():
        side = "out" if _EXCLUDE.search(n) else "in"
        mine = sorted((a, v, w) for a, v, w in kept[side] if v in values)
        rivals = [o for o in lists if o != n and bool(_EXCLUDE.search(o)) == (side == "out")]
        if mine and not rivals:  # two lists of the same side: whose the values are is not said
            out[n] = Stated([v for _, v, _ in mine], "; ".join(w for _, _, w in mine))


# the words that say a thing must be kept away from someone (a closed class)
_ALLERGY = re.compile(
    r"(?i)\b(?:allergic\s+to|allergy\s+to|intolerant\s+(?:to|of)|can'?t\s+(?:have|eat)|cannot\s+(?:have|eat))\b"
)
_ALLERGY_AFTER = re.compile(r"(?i)^[\s-]*(?:allerg(?:y|ies|ic)|intoleran(?:t|ce))\b")  # "nut allergy"
# the words that turn down what follows them in their clause (a closed class)
_TURNED_DOWN = re.compile(
    r"(?i)\b(?:no|not|none\s+of|nothing|never|skip|skipping|without|except|minus|avoid|leave\s+out|drop|ditch|"
    r"hold\s+the|pass\s+on)\b"
)


def _refused_word(word: str, frame: Frame) -> bool:
    low = word.lower()
    return any(low == s.text.lower() for s in frame.refused) or (
        low in frame.negated and low not in ("want", "need", "like", "do", "be", "have", "get")
    )


def _outside_content(frame: Frame, task: str, keep: tuple[str, ...] = ()) -> str:
    """The request with what it quotes or asks to be said, noted or reminded of blanked out (but the
    labelled spans in ``keep``)."""
    chars = list(task)
    for key in ("todo", "said", "quoted", "colon", "title", "subject", "about"):
        if key in keep:
            continue
        span = frame.labelled.get(key)
        if span is not None:
            chars[span.start : span.end] = " " * (span.end - span.start)
    return "".join(chars)


def _same_act(stems: set[str]) -> set[str]:
    """The stems of the words a synonym group (``data/synonyms.json``) puts with any of ``stems``."""
    from ibachat.agent.data import load

    out: set[str] = set()
    for group in load("synonyms")["groups"]:
        words = {_stem(w) for w in group if " " not in w}
        if words & stems:
            out |= words
    return out


def _abbreviation(word: str) -> bool:
    from lemminflect import getAllLemmas

    return len(word) <= 4 and not any(getAllLemmas(word).values())


def _a_noun(word: str) -> bool:
    from lemminflect import getAllLemmas

    return bool(getAllLemmas(word, upos="NOUN"))


# a flag's name word for the user themself (a closed class), said by the user as "me"
_SELF_WORDS = frozenset({"self", "user", "me", "myself"})


def _flags(props: dict[str, Any], frame: Frame, out: dict[str, Stated], about: str = "") -> None:
    from ibachat.agent.alignment.grounding import negated_words

    lemmas = [w for w in frame.lemmas if re.match(r"[a-z]", w)]
    stems = {_stem(w): w for w in lemmas}
    for n, p in props.items():
        if p.get("type") != "boolean" or n in out:
            continue
        words = [w for w in _split(n) if w not in _FLAG_NOISE]
        if not words:
            continue
        own = _own_of(frame.text, words)
        if own:  # "I've got my own padlock", "we'll bring our own rackets": the tool need not provide it
            out[n] = Stated(False, own)
            continue
        hits = []
        desc = [x for x in re.findall(r"[a-z]+", str(p.get("description", "")).lower()) if len(x) >= 4]
        for w in words:
            s = _stem(w)
            hit = stems.get(s) or next(
                (
                    v
                    for k, v in stems.items()
                    if len(s) >= 4 and len(k) >= 4 and (k.startswith(s) or s.startswith(k))
                ),
                None,
            )
            if hit is None:  # "pin it" for pinned: the name word's own lemma said (lemminflect's dictionary)
                hit = next((x for x in _word_lemmas(w) if x in lemmas and len(x) >= 3), None)
            if hit is None and w in _SELF_WORDS:  # "cc me" for cc_self: the user is "me"
                me = re.search(r"(?i)\b(?:me|myself)\b", frame.text)
                hit = me.group(0).lower() if me else None
            if hit is None and _abbreviation(w):
                # "copy me in" for cc_self ("send a copy to the user"): a short name word no dictionary
                # has, said by a noun of its description
                hit = next((stems[_stem(d)] for d in desc if _stem(d) in stems and _a_noun(d)), None)
            if hit is None:
                break
            hits.append(hit)
        else:
            negated = any(h in frame.negated for h in hits)
            quote = _flag_quote(frame.text, hits)
            if quote:
                value = not negated
                if negated:  # "skip breakfast", "no child seat": the words that turn it down
                    quote = _refusal_quote(frame, [hits[0], hits[-1]]) or quote
                    free_of = negated_words(f"{n.replace('_', ' ')} {p.get('description', '')}")[0]
                    value = any(_same(h, f) for h in hits for f in free_of)  # "perfume_free": True
                out[n] = Stated(value, quote, REFUSED if negated else "=")
    _flags_by_description(props, frame, out, about)


_OWN = re.compile(r"(?i)\b(?:my|our|his|her|their)\s+own\s+([a-z-]+)(?:\s+([a-z]+))?")


def _own_of(text: str, words: list[str]) -> str:
    """The words "my own X" (or "my own Y X") where X is a word of the flag's name ("padlock" of
    padlock_included), or ""."""
    stems = {_stem(w) for w in words if len(w) >= 4}
    for m in _OWN.finditer(text):
        if _stem(m.group(1)) in stems:
            return m.group(0)[: m.end(1) - m.start()]
        if m.group(2) and _stem(m.group(2)) in stems:
            return m.group(0)
    return ""


def _word_lemmas(word: str) -> tuple[str, ...]:
    """The lemmas English has for ``word`` other than itself ("pinned": pin)."""
    from lemminflect import getAllLemmas

    return tuple(sorted({x for ls in getAllLemmas(word).values() for x in ls if x != word}))


def _flags_by_description(props: dict[str, Any], frame: Frame, out: dict[str, Stated], about: str) -> None:
    """A flag whose description names a thing the request turns down: "skip the cutlery" sets a flag
    described "include cutlery" false, and one described "a sesame-free menu" true for "no sesame". Only a
    thing turned down: a thing merely mentioned may be the request's topic, not the flag's; and the
    tool's own topic ("a smoke-free room" on a hotel tool: the room) names no flag."""
    from ibachat.agent.alignment.grounding import content, negated_words

    things = [s.text for s in frame.refused]
    things += [w for w in frame.negated if w not in _NOT_THINGS and not any(_same(w, t) for t in things)]
    if not things:
        return
    topic = content(about)
    for n, p in props.items():
        if p.get("type") != "boolean" or n in out or not p.get("description"):
            continue
        free_of, rest = negated_words(str(p["description"]))
        named = {w for w in content(rest) if not any(_same(w, t) for t in topic)}
        if any(w.startswith(("un", "non")) and any(_same(w, t) for t in things) for w in named):
            continue  # "leave the boxes unpacked" and "skip the unpacking": the un- turns it round; unclear
        said = [(t, any(_same(t, f) for f in free_of)) for t in things]
        said = [(t, free) for t, free in said if free or any(_same(t, w) for w in named)]
        ways = {free for _, free in said}
        if len(ways) != 1:
            continue  # nothing of the flag's, or its things turned down both ways: not clear
        quote = _refusal_quote(frame, [t for t, _ in said])
        if quote:
            out[n] = Stated(ways.pop(), quote, REFUSED)


# what a negation governs that is no thing a flag could name ("don't want", "no need")
_NOT_THINGS = frozenset({"want", "need", "like", "do", "be", "have", "get", "go", "mind", "rush", "worry"})


def _same(a: str, b: str) -> bool:
    """One word up to inflection: "smoking" and "smoke", "candles" and "candle" (stems of four letters
    or more, one starting the other), not "room" and "roof"."""
    from ibachat.agent.alignment.grounding import stem

    x, y = stem(a.lower()), stem(b.lower())
    short, long_ = sorted((x, y), key=len)
    return x == y or (len(short) >= 4 and long_.startswith(short))


def _refusal_quote(frame: Frame, things: list[str]) -> str:
    """The request's words that turn ``things`` down, from the word that does it to the last of them
    ("skip the cutlery", "no plastic bags"); the things alone when no such word comes before them. A
    thing is found where the frame found it turned down, else where it is first said."""
    text = frame.text
    spots: list[tuple[int, int]] = []
    for t in things:
        at = next(((s.start, s.end) for s in frame.refused if s.text == t), None)
        if at is None and (m := re.search(rf"(?i)\b{re.escape(t[:4])}\w*", text)) is not None:
            at = (m.start(), m.end())
        if at is not None:
            spots.append(at)
    if not spots:
        return ""
    first, last = min(a for a, _ in spots), max(b for _, b in spots)
    if last - first > 40:
        last = min(b for _, b in spots)
    before = text[max(0, first - 30) : first]
    lead = re.search(
        r"(?i)\b(?:no|not|don't|do not|never|without|skip|skipping|omit|exclude|forgo|forget|leave out|leave)\b[^,.;:!?]*$",
        before,
    )
    if lead:
        return text[first - len(before) + lead.start() : last]
    # "breakfast not needed", "parking isn't required": the turning-down said after the thing
    trail = re.match(
        r"(?i)\s+(?:is\s+|are\s+)?(?:not|n't|isn't|aren't)\s+(?:needed|required|necessary|wanted)\b",
        text[last:],
    )
    return text[first : last + trail.end()] if trail else text[first:last]


def _flag_quote(text: str, lemmas: list[str]) -> str:
    """The request's words for a flag: from its first word to its last when they stand together."""
    low = text.lower()
    spots = []
    for w in lemmas:
        m = re.search(rf"\b{re.escape(w[:4])}\w*", low)
        if m is None:
            return ""
        spots.append((m.start(), m.end()))
    a, b = min(s for s, _ in spots), max(e for _, e in spots)
    if b - a > 40:
        return text[spots[0][0] : spots[0][1]]
    return text[a:b]


_ORDINAL_WORDS = {"1": "first", "2": "second", "3": "third", "4": "fourth", "5": "fifth"}


_NOT_JUST = re.compile(r"(?i)\bnot\s+(?:just|only)\s+(?:the\s+|a\s+|an\s+|my\s+|our\s+)?[\w-]+")


def named_value(prop: dict[str, Any], task: str) -> tuple[Any, str] | None:
    """The one enum value the request names, and the words it names it with: the value itself
    ("business class"), or a word that starts one value only ("physio" for ``physiotherapist``)."""
    enum = [v for v in (prop.get("enum") or []) if isinstance(v, str)]
    if len(enum) < 2:
        return None
    task = _NOT_JUST.sub(" ", task)  # "not just the room": the room alone is what is not wanted
    low = " " + " ".join(re.findall(r"[a-z0-9']+", task.lower())) + " "
    # "1st class": an ordinal in figures names the value spelled in words ("first"), unless it is a day
    # ("on the 2nd")
    day = read_when(task, _SOME_DAY).day_words.lower()
    low = re.sub(
        r" (\d)(st|nd|rd|th) ",
        lambda m: (
            m.group(0)
            if m.group(1) + m.group(2) in day
            else f" {_ORDINAL_WORDS.get(m.group(1), m.group(0).strip())} "
        ),
        low,
    )
    whole = [v for v in enum if f" {v.replace('_', ' ').lower()} " in low]
    spoken = {v: f" {v.replace('_', ' ').lower()} " for v in whole}
    # "twice daily" names ``twice_daily``, not also ``daily``: a value said inside a longer one is its part
    whole = [v for v in whole if not any(o != v and spoken[v] in spoken[o] for o in whole)]
    if len(whole) == 1:
        said = whole[0].replace("_", " ")
        if not re.search(rf"(?i)\b{re.escape(said)}\b", task):  # said in figures: quote the figures
            figures = {w: d for d, w in _ORDINAL_WORDS.items()}
            pattern = r"\s+".join(
                rf"{figures[w]}(?:st|nd|rd|th)" if w in figures else re.escape(w) for w in said.split()
            )
            m = re.search(rf"(?i)\b{pattern}\b", task)
            said = m.group(0) if m else said
        return whole[0], said
    if whole:
        return None
    words = [w for w in _content_words(task) if len(w) >= 4]  # "after" is a preposition, not "afternoon"
    starts = {v for v in enum for w in words if v.lower().startswith(w) and len(w) >= 0.4 * len(v)}
    if len(starts) == 1:
        value = starts.pop()
        word = next(w for w in words if value.lower().startswith(w))
        return value, word
    # a word of one value's own derivation, by its lemma ("delivered to the house": delivery; never
    # "standing" for standard): the value is the lemma, or the lemma and a noun-making ending
    lemmas = _lemmas(task)
    said_lemmas = " " + " ".join(_lemma_run(task)) + " "
    whole_lemmas = [
        v for v in enum if len(v.split("_")) > 1 and f" {v.replace('_', ' ').lower()} " in said_lemmas
    ]
    if len(whole_lemmas) == 1:  # "early mornings": early_morning, by the words' lemmas in a row
        spoken_as = r"\s+".join(rf"{re.escape(w)}\w*" for w in whole_lemmas[0].lower().split("_"))
        m = re.search(rf"(?i)\b{spoken_as}", task)
        return whole_lemmas[0], m.group(0) if m else whole_lemmas[0].replace("_", " ")
    alike = {
        v
        for v in enum
        for lemma, w in lemmas.items()
        if len(lemma) >= 4
        and w.lower() != v.lower()  # the very word is named above or not at all ("draft's finished")
        and v.lower()
        in {lemma, *(lemma + end for end in _NOUN_ENDINGS), *(lemma[:-1] + end for end in _NOUN_ENDINGS)}
    }
    if len(alike) == 1:
        value = alike.pop()
        return value, next(
            w
            for lemma, w in lemmas.items()
            if value.lower()
            in {lemma, *(lemma + e for e in _NOUN_ENDINGS), *(lemma[:-1] + e for e in _NOUN_ENDINGS)}
        )
    # a value of two words said with a few between them, in one clause ("ask me first": ask_first)
    apart = [
        v
        for v in enum
        if len(parts := re.split(r"[_\s-]+", v.lower())) == 2
        and re.search(rf"\b{parts[0]}\b(?:\s+[a-z']+){{1,3}}\s+{parts[1]}\b", low)
    ]
    if len(apart) == 1:
        parts = re.split(r"[_\s-]+", apart[0].lower())
        m = re.search(rf"\b{parts[0]}\b(?:\s+[a-z']+){{1,3}}\s+{parts[1]}\b", low)
        assert m is not None
        return apart[0], m.group(0).strip()
    alone = _alone_named(enum, task)
    if alone is not None:
        return alone
    kind = _kind_named(enum, task)
    if kind is not None:  # "tickets for the film": movie, by a word of its kind (data/kinds.json)
        return kind
    # a hyphenated word whose every part starts a word of one value, in order ("half-caff": half_caf)
    for said in re.findall(r"[a-z]+(?:-[a-z]+)+", task.lower()):
        parts = said.split("-")
        hits = [
            v
            for v in enum
            if len(ws := re.split(r"[_\s-]+", v.lower())) == len(parts)
            and all(w.startswith(p) or p.startswith(w) for p, w in zip(parts, ws))
        ]
        if len(hits) == 1:
            return hits[0], said
    return None


def _alone_named(enum: list[str], task: str) -> tuple[str, str] | None:
    """A value that is one thing alone ("mot_only", "room_only"), said as "just the MOT", "only a
    wash": the thing after "just" or "only", not "not just" (closed class: the words of "alone")."""
    hits: list[tuple[str, str]] = []
    for v in enum:
        parts = re.split(r"[_\s-]+", v.lower())
        if len(parts) != 2 or "only" not in parts or parts[0] == parts[1]:
            continue
        thing = parts[1] if parts[0] == "only" else parts[0]
        m = re.search(
            rf"(?i)(?<!not )\b(?:just|only)\s+(?:the\s+|a\s+|an\s+|my\s+|our\s+)?{re.escape(thing)}s?\b", task
        )
        if m:
            hits.append((v, m.group(0)))
    return hits[0] if len(hits) == 1 else None


_FUNCTION_POS = frozenset({"ADP", "SCONJ", "CCONJ", "DET", "PRON", "AUX", "PART", "NUM"})
_NOUN_ENDINGS = (
    "y",
    "ion",
    "ation",
    "ment",
    "al",
    "ery",
    "ance",
    "ence",
)  # deliver -> delivery, collect -> collection


# "text me", "ring me", "by text": a means of getting in touch said after "by"/"via" or before "me"
_MEANS = re.compile(r"(?i)\b(?:by|via|over)\s+(?:an?\s+|the\s+)?([a-z-]+)|\b([a-z-]+)\s+me\b")


def _means_value(prop: dict[str, Any], said: str) -> tuple[Any, str] | None:
    """The one allowed value a means of getting in touch names by its group in ``data/means.json``."""
    from ibachat.agent.data import load

    enum = [v for v in (prop.get("enum") or []) if isinstance(v, str)]
    groups = [frozenset(g) for g in load("means")["groups"]]
    for m in _MEANS.finditer(said):
        word = (m.group(1) or m.group(2)).lower()
        hits = {v for v in enum for g in groups if v.lower() in g and word in g}
        if len(hits) == 1:
            return hits.pop(), m.group(0)
    return None


def _with_another_value(enum: list[Any], hit: tuple[Any, str], task: str) -> bool:
    """Whether the words naming one allowed value are coordinated in the parse with words naming
    another ("gas and electric", "the 7 or the 9"): a parameter of one value is not told which."""
    from ibachat.agent.reading.parse import parse

    at = task.lower().find(hit[1].lower())
    if at < 0 or not re.search(r"(?i)\b(?:and|or|&|plus)\b", task):
        return False
    others = [
        {_stem(w) for w in _split(str(v))}
        for v in enum
        if v != hit[0] and str(v).lower() not in ("none", "no")
    ]

    def names_another(word: str) -> bool:
        return any(_kin(_stem(word.lower()), w) or _stem(word.lower()) == w for o in others for w in o)

    # the word right before or after it across "and"/"or" ("the building and the contents"), or a conjunct
    # the parse gives it
    low, end = task.lower(), at + len(hit[1])
    before = re.search(rf"([a-z]+)\s+{_JOINED}\s+(?:{_DETS}\s+)?$", low[:at])
    after = re.match(rf"\s+{_JOINED}\s+(?:{_DETS}\s+)?([a-z]+)", low[end:])
    if (before and names_another(before.group(1))) or (after and names_another(after.group(1))):
        return True
    for t in parse(task):
        if not at <= t.idx < end:
            continue
        for c in t.conjuncts:
            if at <= c.idx < end:
                continue  # "cut and blow dry": one value's own words
            between = low[min(t.idx, c.idx) : max(t.idx, c.idx)]
            if not re.search(r"\b(?:and|or|plus)\b|&", between) or re.search(
                r"\b(?:than|not|instead)\b", between
            ):
                continue  # "text me rather than a notification": a contrast, not two things
            if names_another(c.text):
                return True
    return False


_JOINED = r"(?:and|or|&|plus)"
_DETS = r"(?:the|my|our|a|an|its|their|your)"


def _kin(a: str, b: str) -> bool:
    """Two stems of one word's family ("substitut" of substitute and of substitutions)."""
    return (a == b and len(a) >= 4) or (min(len(a), len(b)) >= 6 and (a.startswith(b) or b.startswith(a)))


def _lemma_run(task: str) -> list[str]:
    """The request's words as their lemmas, in order."""
    from ibachat.agent.reading.parse import parse

    return [t.lemma_.lower() for t in parse(task[:2000]) if not t.is_punct]


def _kind_named(enum: list[str], task: str) -> tuple[str, str] | None:
    """The one allowed value the request names by another noun of its kind ("the film" for ``movie``,
    "a gig" for ``concert``: ``data/kinds.json``), and that noun as said; None when none or two do."""
    from ibachat.agent.data import load
    from ibachat.agent.reading.parse import parse

    doc = parse(task[:2000])
    nouns = {t.lemma_.lower(): t.text for t in doc if t.pos_ == "NOUN"}
    for t in doc[:-2]:  # "stand-up": a hyphenated word is one word of its kind, however the parse split it
        if doc[t.i + 1].text == "-" and not t.whitespace_ and not doc[t.i + 1].whitespace_:
            word = f"{t.text}-{doc[t.i + 2].text}"
            nouns.setdefault(word.lower(), word)
    found: dict[str, str] = {}
    for group in load("kinds")["groups"]:
        members = [v for v in enum if v.lower() in group]
        said = next((w for lemma, w in nouns.items() if lemma in group), None)
        if len(members) == 1 and said is not None:
            found[members[0]] = said
    return next(iter(found.items())) if len(found) == 1 else None


def _lemmas(task: str) -> dict[str, str]:
    """The request's content words by their lemma (the word as said for each)."""
    from ibachat.agent.reading.parse import parse

    return {
        t.lemma_.lower(): t.text
        for t in parse(task[:2000])
        if t.pos_ not in _FUNCTION_POS and t.is_alpha and not _before_s(t)
    }


def _content_words(task: str) -> list[str]:
    """The request's words that may name a thing (not its prepositions, conjunctions, pronouns)."""
    from ibachat.agent.reading.parse import parse

    doc = parse(task[:2000])
    return [
        w
        for t in doc
        if t.pos_ not in _FUNCTION_POS and not _hyphened(t) and not _before_s(t)
        for w in re.findall(r"[a-z0-9']+", t.lower_)
    ]


def _before_s(t: Any) -> bool:
    """A word with "'s" after it is what a clause is about ("draft's finished", "the draft's title"),
    never a value asked for."""
    after = t.doc[t.i + 2].lower_ if t.i + 2 < len(t.doc) else ""
    return (
        t.i + 1 < len(t.doc) and t.doc[t.i + 1].lower_ in ("'s", "’s") and after not in _FINE
    )  # "economy's fine"


def _hyphened(t: Any) -> bool:
    """A part of a hyphenated word ("stand" of "stand-up"): the whole word names a thing, not its part."""
    doc = t.doc
    after = t.i + 1 < len(doc) and not t.whitespace_ and doc[t.i + 1].text == "-"
    before = t.i > 0 and doc[t.i - 1].text == "-" and not doc[t.i - 1].whitespace_
    return after or before
