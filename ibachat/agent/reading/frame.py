"""What a request states, read once from its parse: places, amounts, named spans, things, people.

``read_frame(text)`` reads a request (no schema, no memory) into typed spans, each with its place in the
text, so that whatever fills a parameter from it can quote the user's own words:

- ``places``: the object of each preposition of place ("to the Royal Infirmary", "from work", "out of
  Leeds Bradford", "at Kaffeine") and a verbless journey's ends ("JFK to LAX", "Dublin -> Berlin"),
  the phrase running from the preposition to the next boundary the parse gives (a punctuation mark, a
  preposition, a conjunction, a verb, a pronoun) or the first word of a day or a time ("Rome the day after
  tomorrow" is Rome);
- ``amounts``: numbers with what they count, read from the tokens: the number (digits, or words read by
  ``text2num``; "a"/"an" before a unit; "a couple of", "a dozen", "half", "and a half"), the noun it
  counts with the words that qualify it ("2 checked bags"), its unit (a span of time, money, a
  percentage, a distance) and a rate ("1800 calories a day"), and the comparator before it ("no more
  than", "under", "nothing over"). Numbers inside a day, a clock time or a span from now ("in two
  hours") are no amounts. A count of people is read from its forms ("for 4", "6 of us", "me and my 3
  mates", "party of six");
- ``labelled``: spans a word names: a title ("called Budget review", "titled Wifi"), a subject ("with
  the subject Invoice 42"), what is to be said ("saying the report is late", "tell him it's paid", what
  follows a colon, quoted words), what to be reminded of ("remind me ... to take the bread out"), a
  topic ("about my leave");
- ``things``: the object of the request's verb, split at its coordination ("a pad thai and a green
  curry"), and lists of short noun phrases ("bananas, rice, tinned tomatoes");
- ``negated``: the words a negation governs ("no cutlery", "don't allow substitutions").

The word lists here are closed classes (prepositions of place, units, comparators, number words, the
words of days and times). Which parameter a span fills is decided from the tool's schema
(``alignment/request_values.py``). The parts live in ``reading/framing/`` (``records``, ``words``,
``places``, ``numbers``, ``labelled``, ``things``), each importing only those before it.
"""

from __future__ import annotations

import re
from functools import lru_cache

from ibachat.agent.reading.framing.labelled import _labelled, quotes
from ibachat.agent.reading.framing.numbers import _amounts, _some_of_us
from ibachat.agent.reading.framing.places import _places_and_phrases, told_past
from ibachat.agent.reading.framing.records import Amount, Frame, Place, Span
from ibachat.agent.reading.framing.things import (
    DETERMINERS,
    _company,
    _lists,
    _negated,
    _owned,
    _refused,
    _verb_objects,
    _written_to,
)
from ibachat.agent.reading.framing.words import _EMAIL, _QUOTED, _ranges, _when_mask

# what the rest of the agent imports from here; the parts live in ``reading/framing/``
__all__ = ["DETERMINERS", "Amount", "Frame", "Place", "Span", "quotes", "read_frame", "told_past"]

# between a thing asked for and a list that spells it out: a particle and a dash or a colon
_SPELLED_OUT = re.compile(r"(?i)\s*(?:in|up|out|sorted|done|for me)?\s*[—–:-]\s*")


@lru_cache(maxsize=2048)
def read_frame(text: str) -> Frame:
    """The request's stated spans (see the module's docstring); cached per text."""
    from ibachat.agent.reading.acts import truecased
    from ibachat.agent.reading.parse import parse

    text = text[:2000]
    doc = parse(truecased(text))  # same offsets: "flight dublin to lisbon" has its places as names
    mask = _when_mask(text, doc)
    places, phrases = _places_and_phrases(doc, text, mask)
    objects, heads, verb_at = _verb_objects(text)
    quotes = [(m.start(), m.end()) for m in _QUOTED.finditer(text)]
    # a list inside quoted words ("saying 'network: Fernhouse, pw: blue22'") is what is to be said
    lists = [g for g in _lists(text, doc, mask) if not any(a <= g[0].start < b for a, b in quotes)]
    first_verb = next(
        (
            t.idx
            for t in doc
            if t.pos_ == "VERB"
            and t.dep_ not in ("aux", "auxpass")
            # what the user can't or won't do comes before what they ask ("won't eat mushrooms so order ...")
            and not any(c.dep_ == "neg" for c in t.children)
        ),
        -1,
    )
    asked = verb_at >= 0 and (verb_at <= first_verb or first_verb < 0)  # the request's own verb's objects
    if asked and any(0 <= text.rfind(":", 0, group[0].start) and group[-1].end < verb_at for group in lists):
        asked = False  # "groceries: eggs, bananas. make the milk oat": the list said first is what is asked
    spelled = next(
        (
            group
            for group in lists
            if objects and len(group) >= 2 and _SPELLED_OUT.fullmatch(text[objects[0].end : group[0].start])
        ),
        None,
    )
    if asked and spelled is not None and all(o.start >= spelled[0].start for o in objects[1:]):
        # "get my weekly shop in — rice, lentils, onions", "order the big monthly shop: pasta, beans and
        # tabs": the list says what the shop is (the parse may have joined the list to it)
        asked = False
        objects = objects[:1]
    things = (
        ([tuple(objects)] if objects and asked else [])
        + lists
        + ([tuple(objects)] if objects and not asked else [])
    )
    return Frame(
        text=text,
        when_mask=mask,
        places=tuple(places),
        amounts=tuple(a for a in _amounts(doc, text, mask) if not _some_of_us(doc, a.span)),
        labelled=_labelled(doc, text, mask),
        things=tuple(things),
        objects_asked=asked,
        verb_objects=tuple(objects),
        object_heads=tuple(heads),
        negated=_negated(doc),
        refused=_refused(doc, text),
        written_to=_written_to(doc, text),
        owned=_owned(doc, text),
        emails=tuple(_EMAIL.findall(text)),
        company=tuple(_company(doc, text)),
        phrases=tuple(phrases),
        ranges=_ranges(text, mask, doc),
        lemmas=tuple(t.lemma_.lower() for t in doc),
    )
