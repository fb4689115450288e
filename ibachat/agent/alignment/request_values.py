"""The values a request states for one tool, each with the words that state it, settled in one pass.

``stated_values(schema, task, now)`` grounds the request's frame (``reading/frame.py``) into a tool's
JSON Schema. It is the one place that says what "your request" gives a parameter, so every such reason
quotes words the request holds, and a value the words do not give is never claimed as the request's.

What a parameter takes is read from its schema alone: its type and format, and the words of its name and
description, a closed class of how schemas name what they take (an end of a journey, a place that
serves, a title, a body, a count of people, a unit of time or money). Then:

- days and times: the day, clock time and time of day the request names (``reading/when.py``); a
  stretch with both ends fills a start and an end ("from the 22nd to the 27th"), and a count of nights or
  days when nothing else does;
- places: the destination from "to ..." (never also the origin), the origin from "from ..." or a
  journey's first end ("JFK to LAX"), a place that serves from "at/from <a name>", a city or location
  from "in/at ...";
- amounts: a span of time converted to the parameter's unit (``pint``), money to a price, a
  percentage, a rate to a parameter counted per that unit ("1800 calories a day"), a count to the
  parameter that names what it counts ("2 checked bags", "for 4": people), "no sugar" to 0;
- named spans: a title ("called ..."), a subject, what is to be said, what to be reminded of, a topic;
- things: the verb's objects ("a pad thai and a green curry") or a listed set, for a list parameter;
  people to be there ("with Sam") and addresses;
- allowed values the request names, each to the parameter whose name stands beside it ("low impact")
  when two parameters allow it; a flag whose words the request says ("quiet room": true; "no cutlery":
  false).

Anything the words do not settle is left out: the planner asks or keeps the default.
"""

from __future__ import annotations

import dataclasses
import json
import re
from datetime import datetime
from functools import lru_cache
from typing import Any

from ibachat.agent.alignment.values.amounts import _amounts, _nights, _offered_numbers
from ibachat.agent.alignment.values.causes import _causes
from ibachat.agent.alignment.values.choices import _enum_lists, _enums, _flags, _when_enums
from ibachat.agent.alignment.values.common import Stated, _free, _split, _stem
from ibachat.agent.alignment.values.days import _times
from ibachat.agent.alignment.values.lists import _lists, excludes
from ibachat.agent.alignment.values.places import _places, is_venue, place_role
from ibachat.agent.alignment.values.spans import _quotes_by_name, _span_role, _spans
from ibachat.agent.reading.corrections import corrected, own_words
from ibachat.agent.reading.frame import read_frame

# what the rest of the agent imports from here; the readers live in ``alignment/values/``, one module per
# kind of value (days, amounts, places, lists, named spans, causes, allowed values and flags)
__all__ = [
    "Stated",
    "excludes",
    "is_venue",
    "place_role",
    "range_questions",
    "stated_value",
    "stated_values",
    "tool_about",
]


def stated_values(schema: dict[str, Any], task: str, now: datetime, about: str = "") -> dict[str, Stated]:
    """Per parameter of ``schema``, the value the request's own words give and those words. ``about`` is
    the tool's name and description: a thing the request asks for that the tool itself is ("get a
    sitter") is the service, not a value."""
    key = json.dumps(schema, default=str)  # in the schema's own order: "on_time" before "off_time"
    return dict(_stated(key, task[:2000], now.isoformat(), about)[0])


def range_questions(schema: dict[str, Any], task: str, now: datetime, about: str = "") -> dict[str, str]:
    """Per parameter that takes one amount, the question a range or choice the request says for it asks
    ("6 to 8 guests", "2 or 3 of us": "For party size, do you want 6 or 8?"): either end may be meant,
    so no value is taken from it (``stated_values`` leaves it out) until the user says which."""
    key = json.dumps(schema, default=str)  # in the schema's own order: "on_time" before "off_time"
    return dict(_stated(key, task[:2000], now.isoformat(), about)[1])


def stated_value(
    name: str,
    prop: dict[str, Any],
    task: str,
    now: datetime,
    schema: dict[str, Any] | None = None,
    about: str = "",
) -> Any:
    """The value the request states for ``name`` (None when it states none), read in the whole ``schema``
    when it is given: the other parameters decide whose words are whose ("to Madrid" is the destination,
    never the origin)."""
    if not schema or name not in (schema.get("properties") or {}):
        schema = {"type": "object", "properties": {name: prop}}
    hit = stated_values(schema, task, now, about).get(name)
    return None if hit is None else hit.value


def tool_about(tool: dict[str, Any]) -> str:
    """A tool's name and description: what it is, so that asking for it names no value."""
    return f"{tool.get('name', '')} {tool.get('description', '')}".strip()


_POLITE_END = re.compile(r"(?i)[\s,]+(?:please|pls|plz|pleeease|thanks|thx|ty|ta)[\s.!]*$")


@lru_cache(maxsize=1024)
def _stated(
    schema_key: str, task: str, now_iso: str, about: str
) -> tuple[tuple[tuple[str, Stated], ...], tuple[tuple[str, str], ...]]:
    schema = json.loads(schema_key)
    service = {_stem(w) for w in _split(about)}
    now = datetime.fromisoformat(now_iso)
    props = {n: p for n, p in (schema.get("properties") or {}).items() if isinstance(p, dict)}
    said = task
    task = corrected(task)  # "on Tuesday, sorry, Wednesday": read as "on Wednesday"
    frame = read_frame(task)
    out: dict[str, Stated] = {}
    ranged: dict[str, str] = {}
    _times(props, frame, said, now, out)  # read_when reads corrections itself, on the words as typed
    _places(props, frame, out, service)
    _amounts(props, frame, out, ranged)
    _nights(props, frame, now, out)
    _quotes_by_name(props, frame, out)
    _spans(props, frame, out, service, set(schema.get("required") or []))
    _lists(props, frame, out, set(schema.get("required") or []), service)
    _when_enums(props, task, now, out)  # before the enums named by a word's start ("week": weekly)
    _enums(props, frame, task, out)
    _enum_lists(props, frame, task, out)
    _offered_numbers(props, frame, task, now, out)  # after every reader that takes a number for its own
    _causes(props, task, out)
    _flags(props, frame, out, about)
    for name in ranged:  # no later reading ("two to three nights" as nights) takes one end of it
        out.pop(name, None)
    _without_other_values(props, out)
    if task != said:  # a value read across a cut quotes only the words the user wrote
        out = {n: dataclasses.replace(v, quote=own_words(v.quote, said)) for n, v in out.items()}
    for n, v in out.items():  # "the gate code is 4411, and cc me": what follows is about the message
        if isinstance(v.value, str) and _free(props.get(n) or {}):
            m = _ABOUT_IT.search(v.value)
            if m and m.start() > 0:
                out[n] = dataclasses.replace(v, value=v.value[: m.start()], quote=v.quote[: m.start()])
    for n, v in out.items():  # "my sertraline pls": the thanks and pleases are the message's, not the name's
        if (
            isinstance(v.value, str)
            and _free(props.get(n) or {})
            and _span_role(n, props.get(n) or {}) != "body"
        ):
            polite = _POLITE_END.search(v.value)
            if polite and polite.start() > 0 and v.quote.endswith(v.value):
                cut = len(v.value) - polite.start()
                out[n] = dataclasses.replace(v, value=v.value[: polite.start()], quote=v.quote[:-cut])
    for n, v in list(out.items()):  # "saying hi, Cheers as the sign-off": the sign-off is not the body's
        if not (isinstance(v.value, str) and _free(props.get(n) or {})):
            continue
        for other in out:
            if other == n or len(_split(other)) < 2:
                continue
            phrase = r"[\s_-]?".join(re.escape(w) for w in _split(other))
            m = re.search(
                rf"(?i)[,;]?\s*(?:[^,;]*\s+as\s+(?:the|my|a)\s+{phrase}|{phrase}\s+with\s+.*)\s*$",
                v.value,
            )
            if m and m.start() > 0 and v.value == v.quote:
                out[n] = dataclasses.replace(v, value=v.value[: m.start()], quote=v.quote[: m.start()])
    return tuple(out.items()), tuple(ranged.items())


def _only_a_quality(word: str) -> bool:
    """English has ``word`` as an adjective and not as a noun ("large", not "oat": "oat milk" is a thing)."""
    from lemminflect import getAllLemmas

    kinds = getAllLemmas(word)
    return "ADJ" in kinds and "NOUN" not in kinds


def _without_other_values(props: dict[str, Any], out: dict[str, Stated]) -> None:
    """ "a large veggie biryani" with "large" read as the portion: a thing of a list of things starts
    after a quality that is another parameter's allowed value, said once and read as that value ("oat
    milk" stays a thing: "oat" is a noun)."""
    words = {
        str(v.quote).lower()
        for n, v in out.items()
        if isinstance(props.get(n), dict) and props[n].get("enum") and isinstance(v.value, str)
    }
    for n, v in list(out.items()):
        items = (props.get(n) or {}).get("items")
        if not (isinstance(v.value, list) and isinstance(items, dict) and _free(items)):
            continue
        kept = []
        for item in v.value:
            first, _, rest = str(item).partition(" ")
            kept.append(rest if rest and first.lower() in words and _only_a_quality(first.lower()) else item)
        if kept != v.value:
            quote = "; ".join(kept) if v.quote == "; ".join(map(str, v.value)) else v.quote
            out[n] = dataclasses.replace(v, value=kept, quote=quote)


# a clause after a break whose object is the thing being made ("make it brief", "label it urgent", "file
# it in travel") or that copies the user in ("cc me"): an instruction about the message, not its words
_ABOUT_IT = re.compile(
    r"(?i)(?:\s*[,;]\s*(?:and\s+)?|\s+[-–—]\s+|\s+and\s+)(?:[a-z]+\s+it\b|(?:b?cc|copy)\s+me\b)"
)
