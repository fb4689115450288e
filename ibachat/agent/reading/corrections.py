"""A request that corrects itself as it goes: "on Tuesday, sorry, Wednesday", "at 10, no wait, 10:30",
"the aisle seat - actually no, the window", "for four, sorry, I mean five".

The corrected words are read out of the request before its values are: what was said before the marker
goes when it is the same kind of thing as what follows it (a day or a time for a day or a time, a number
for a number, a noun for a noun), from the parse. A value read across the cut quotes only the words
the user wrote (``own_words``: "Wednesday" of "on Wednesday"). The markers are a closed class of English
self-repair ("no wait", "actually no", "I mean", "or rather", "scratch that", "(actually) make that",
"wait," and "actually, just" before the new item,
"no, make it", "actually make it" (never "make it" alone: "order a pizza, make it spicy"), and a bare ", no," between commas).
"""

from __future__ import annotations

import re
from functools import lru_cache

# a bare "no" between commas repairs too ("on Saturday, no, Sunday"); "no sugar" turns a thing down
_MARKER = r"(?:(?:no|actually),?\s+make\s+it|no(?=\s*,)|wait(?=\s*,)|actually(?=\s*,?\s*just\b)|no,?\s+wait|wait,?\s+no|no,?\s+actually|actually,?\s+no|no,?\s+sorry|sorry|i\s+mean|or\s+rather|scratch\s+that|(?:actually,?\s+)?make\s+that)"
_REPAIR = re.compile(rf"(?i)(?:\s*[,;:\-–—]\s*|\s+)(?:{_MARKER}\b[\s,:\-–—]*)+")
_NOMINAL = frozenset({"DET", "ADJ", "NOUN", "PROPN", "NUM", "PART"})  # words of a noun phrase, by tag
_WHEN = ("DATE", "TIME")  # the parser's entities for a day or a time ("7pm" is one, not a number of pm)
_CLOCK = re.compile(r"(?i)^(?:[ap]\.?m\.?|o'?clock|h|hrs?)$")  # "7pm": a clock time, not a number of "pm"
MAX_ITEM_TOKENS = 6
_NEARLY_SAID = re.compile(
    r"(?i)\b(?:i\s+)?(?:was|were)\s+(?:going\s+to|gonna|about\s+to)\s+(?:say|ask\s+for|go\s+for)\s+"
    r"[^,.;!?]{1,40}?\s*,?\s*but\b"
)  # a corrected item is a short phrase ("on Friday", "business class"), never a clause


# a day or a time turned down before the one wanted: "not the 6:30am one, the 7pm", "not Monday, Tuesday"
_NOT_THEN = re.compile(
    r"(?i)(?:^|(?<=[\s,;(]))not\s+(?:the\s+|at\s+|on\s+|for\s+)?(?P<x>[^,;.!?]{1,24}?)(?:\s+one)?\s*[,;]\s*"
    r"(?:but\s+|just\s+|rather\s+)?(?=(?:the\s+|at\s+|on\s+|for\s+)?(?P<y>[^,;.!?\s]+))"
)


def _turned_down_first(text: str) -> str:
    """``text`` without a day or time it turns down right before the one it wants ("not X, Y"): both
    must be days or times by the parser's entities or digits, so "not spicy, mild" is left to the values."""
    from ibachat.agent.reading.parse import parse

    out = text
    for m in reversed(list(_NOT_THEN.finditer(text))):
        doc = parse(text)
        x = [t for t in doc if m.start("x") <= t.idx < m.end("x")]
        y = [t for t in doc if m.start("y") <= t.idx < m.end("y")]
        if not x or not y:
            continue
        if _a_when(m.group("x"), x) and _a_when(m.group("y"), y):
            out = out[: m.start()] + out[m.end() :]
    return out


_CLOCK_SAID = re.compile(r"(?i)^\d{1,2}(?:[:.]\d{2})?\s*(?:[ap]\.?m\.?|o'?clock)?$")


def _a_when(words: str, tokens: list) -> bool:
    """A day or a time: the parser's entity, or a clock as written ("6:30am", "7pm", "at 9")."""
    return (
        any(t.ent_type_ in _WHEN for t in tokens)
        or bool(_CLOCK_SAID.match(words.strip()))
        or bool(re.search(r"(?i)\b\d{1,2}(?:[:.]\d{2})?\s*[ap]\.?m\b", words))
    )


@lru_cache(maxsize=2048)
def corrected(text: str) -> str:
    """``text`` with each self-corrected item and its marker cut out; ``text`` itself when none is."""
    if re.search(r"(?i)\bnot\s", text):
        text = _turned_down_first(text)
    # "I was going to say fortnightly but let's go monthly": what was nearly said, and the "but", go
    text = _NEARLY_SAID.sub("", text)
    if not _REPAIR.search(text):
        return text
    from ibachat.agent.reading.parse import parse

    out = text
    for m in reversed(list(_REPAIR.finditer(text))):
        doc = parse(text)
        before = [t for t in doc if t.idx + len(t.text) <= m.start() and not t.is_punct and not t.is_space]
        after = [t for t in doc if t.idx >= m.end() and not t.is_punct]
        if not before or not after:
            continue  # "Sorry to ask, ...": nothing said yet to correct
        last = before[-1]
        item = [last]  # the noun phrase just before the marker: its nominal words back to a break
        while (
            item[0].i > 0
            and len(item) < MAX_ITEM_TOKENS
            and doc[item[0].i - 1].pos_ in _NOMINAL
            and any(c.isalnum() for c in doc[item[0].i - 1].text)  # an emoji tagged a noun ends it
            and doc[item[0].i - 1].idx + len(doc[item[0].i - 1].text) <= m.start()
        ):
            item.insert(0, doc[item[0].i - 1])
        first = item[0]
        while len(after) > 1 and after[0].pos_ == "ADV" and after[0].lower_ not in ("not", "never"):
            after = after[1:]  # "no actually, just ten nights": the adverb is no part of the new item
        resume = after[0].idx
        head = after[0] if after[0].pos_ != "DET" or len(after) == 1 else after[1]
        then = after[after.index(head) : after.index(head) + 3]
        said = text[then[0].idx : then[-1].idx + len(then[-1].text)]
        if not (_kinds(text[first.idx : m.start()], first, last) & _kinds(said, head, head)):
            continue  # "book the gym, sorry for the typo": what follows is no other one of it
        if re.search(r"(?i)actually,?\s+make\s+it", m.group(0)) and not (
            _kinds(said, head, head) & {"number", "when"}
        ):
            continue  # "a pizza, actually make it spicy" adds to it; "two nights, actually make it 3" changes
        if any(
            t.lemma_.lower() == "one" and (t.pos_ != "NUM" or doc[t.i - 1].pos_ in ("DET", "ADJ"))
            for t in then
        ):
            continue  # "a large latte, no wait, a medium one": the thing stays, only a quality changes
        alone = (
            head.i + 1 >= len(doc)
            or doc[head.i + 1].is_punct
            or doc[head.i + 1].pos_ in ("ADP", "CCONJ", "SCONJ")
        )
        mods = [t for t in item if t is not last and t.pos_ in ("NUM", "ADJ", "NOUN")]
        if alone and mods and last.pos_ == "NOUN" and head.pos_ != "NOUN" and not _CLOCK.match(last.text):
            # "3 nights, or rather 4", "standard class - scratch that, first": one word of it is changed
            mod, end = mods[0], head.idx + len(head.text)
            out = out[: mod.idx] + head.text + out[mod.idx + len(mod.text) : m.start()] + out[end:]
            continue
        out = out[: first.idx] + out[resume:]  # "on Tuesday, sorry, Wednesday": "on Wednesday"
    return out


def own_words(quote: str, request: str) -> str:
    """``quote`` as the user wrote it: a quote read across a cut ("on Wednesday" of "on Tuesday, sorry,
    Wednesday", "4 nights" of "3 nights, or rather 4") keeps its run of words the request holds word for
    word that says most: a number first, then the most words that are not English function words."""
    from spacy.lang.en.lex_attrs import like_num
    from spacy.lang.en.stop_words import STOP_WORDS

    def plain(text: str) -> str:
        return " " + " ".join(re.findall(r"[a-z0-9£$€]+", text.lower())) + " "

    held = plain(request)
    if plain(quote) in held:
        return quote
    words = quote.split()
    runs = [" ".join(words[a:b]) for a in range(len(words)) for b in range(a + 1, len(words) + 1)]
    runs = [r for r in runs if plain(r).strip() and plain(r) in held]
    if not runs:
        return quote
    return max(
        runs,
        key=lambda r: (
            any(c.isdigit() for c in r) or any(like_num(w) for w in r.split()),  # "three" as much as "3"
            sum(w.lower() not in STOP_WORDS for w in r.split()),
            len(r),
        ),
    )


def _kinds(words: str, first, last) -> set[str]:
    """What kind of thing a phrase is: a number, a day or a time (by the parser's entities), a thing."""
    kinds = set()
    if any(c.isdigit() for c in words[:40]) or last.like_num or first.like_num:
        kinds.add("number")
    from ibachat.agent.reading.units import TIME_UNITS

    if last.ent_type_ in _WHEN or first.ent_type_ in _WHEN or last.lemma_.lower() in TIME_UNITS:
        kinds.add("when")  # "a fortnight", "ten nights": a span of time, however the parser tags it
    if {last.pos_, first.pos_} & {"NOUN", "PROPN", "ADJ"} or "ORDINAL" in (last.ent_type_, first.ent_type_):
        kinds.add("thing")
    return kinds
