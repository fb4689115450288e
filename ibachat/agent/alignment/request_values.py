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
from dataclasses import dataclass
from datetime import date, datetime, timedelta, timezone
from functools import lru_cache
from typing import Any

from ibachat.agent.reading.corrections import corrected, own_words
from ibachat.agent.reading.frame import DETERMINERS, Amount, Frame, Span, read_frame, told_past
from ibachat.agent.reading.units import MEASURES
from ibachat.agent.reading.when import When, read_when


@dataclass(frozen=True)
class Stated:
    value: Any
    quote: str  # the request's own words that give it
    op: str = "="  # an amount's bound: "<=" for "under £45", ">=" for "at least 3"; REFUSED for a flag
    # read from a thing the request turns down ("no cutlery"), not from a thing it merely mentions


REFUSED = "refused"  # ``Stated.op`` of a flag read from a thing turned down


# How schemas name what a free-text parameter takes: a closed class of schema vocabulary.
_DEST = re.compile(
    r"destination|arrival|\bdest\b|to_city|drop_?off|(?:^|_)to(?:_|$)|going to|where .*going|arriv|"
    r"[a-z]\s+to$",  # a description that ends on "to" says where something goes ("address moving to")
    re.I,
)
_ORIGIN = re.compile(r"origin|departure|depart|(?:^|_)from(?:_|$)|[a-z]\s+from$|collect|pick_?up|start(?:ing)?[ _]?(?:point|place|from)|leaving from|"
                     r"sail(?:s|ing)? from|set(?:ting)? off", re.I)  # fmt: skip
_VENUE = re.compile(r"restaurant|shop|store|cafe|café|studio|pharmacy|venue|gym|clinic|branch|library|cinema|"
                    r"theatre|theater|salon|surgery|practice|bar|pub|hotel_name|merchant|vendor|supplier|seller", re.I)  # fmt: skip
_LOCATION = re.compile(r"city|town|location|where|place|harbou?r|port|marina|area|address|site|region|country|"
                       r"neighbou?rhood|station|airport|resort", re.I)  # fmt: skip
_RECIPIENT = re.compile(r"^(?:to|recipients?|email|email_address|e_mail|send_to|cc|bcc)$", re.I)
_TITLE = re.compile(r"title|^name$|event_name|film|movie|show|^book$|book_title|^event$", re.I)
_SUBJECT = re.compile(r"subject", re.I)
_BODY = re.compile(r"body|message|content|^text$|^note$|^notes$|details|^description$|comment|summary|agenda|"
                   r"instructions|memo|reminder_text|what", re.I)  # fmt: skip
_QUERY = re.compile(r"query|search|product|keywords?|^item$|item_name|^thing$", re.I)
_THING = re.compile(r"medication|medicine|drug|prescription|dish|^meal$|^drink$|^order$|^service$", re.I)
_AUTHOR = re.compile(r"author|artist|writer|director|composer|^by$|performer|band", re.I)
_PEOPLE_LIST = re.compile(r"attendees?|participants?|guests?|people|persons|members|contacts|"
                          r"recipients|invited", re.I)  # fmt: skip
_EXCLUDE = re.compile(
    r"exclude|excluded|avoid|without|except|not_|^no_|blocked|banned|skip|leave_?out|omit", re.I
)
_LABELS = re.compile(r"tags?|labels?|keywords?", re.I)  # what a note is sorted by, not its things
_HABIT = re.compile(r"\b(?:usual|same|regular|normal|favou?rite|other|last|one)\b", re.I)
_TOPICS = re.compile(r"topics?|subjects|interests|categories|themes|sections", re.I)
_END = re.compile(
    r"(?:^|_)(?:end|ends|until|till|to|check_?out|return|back|finish|last|departure_back|leave|leaving|vacate)(?:_|$)",
    re.I,
)
_START = re.compile(
    r"(?:^|_)(?:start|starts|from|check_?in|begin|first|pickup|pick_up|arrival|arrive|departure|out)(?:_|$)",
    re.I,
)

# Units of a numeric parameter, from the words of its name (a closed class).
_TIME_WORDS = {"minutes": "minute", "minute": "minute", "mins": "minute", "min": "minute", "hours": "hour",
               "hour": "hour", "hrs": "hour", "days": "day", "day": "day", "nights": "night", "night": "night",
               "weeks": "week", "week": "week", "months": "month", "month": "month"}  # fmt: skip
_MONEY = frozenset("price prices cost costs budget fare fares amount spend spending fee fees money total "
                   "charge tariff rate usd eur gbp dollars euros pounds tip".split())  # fmt: skip
_PEOPLE_COUNT = frozenset("party people persons guests guest size passengers travellers travelers adults "
                          "diners group pax seats_for".split())  # fmt: skip
_DURATION = frozenset({"duration", "length", "long", "time", "stay", "trip", "period", "span", "total"})
_COUNT_NOISE = frozenset({"max", "maximum", "min", "minimum", "num", "number", "of", "count", "per", "total",
                          "qty", "quantity", "no", "n", "the", "a", "in", "limit", "desired", "preferred"})  # fmt: skip
_FLAG_NOISE = frozenset({"ok", "okay", "is", "has", "allowed", "allow", "wanted", "needed", "required",
                         "enabled", "include", "includes", "included", "use", "want", "opt", "flag", "preferred",
                         "option", "yes", "add", "with", "needs", "need", "fine", "requested", "request"})  # fmt: skip
# Words that stand for a thing without naming it (a closed class); the nouns for what a request asks for
# without naming it ("dinner", "an appointment") are data: ``data/unnamed.json``.
_PLACEHOLDERS = frozenset("something anything stuff it them one some more usual thing things".split())


@lru_cache(maxsize=1)
def _generic() -> frozenset[str]:
    """What a request asks for without naming it: never a value."""
    from ibachat.agent.data import word_classes

    return _PLACEHOLDERS | word_classes("unnamed")["words"]


def _split(name: str) -> list[str]:
    name = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", name)
    return [w for w in re.split(r"[_\W]+", name.lower()) if w]


def _stem(word: str) -> str:
    from memory.lexical import _stem as snowball

    return snowball(word.lower())


def _free(prop: dict[str, Any]) -> bool:
    return prop.get("type") == "string" and not prop.get("enum") and not prop.get("format")


def stated_values(schema: dict[str, Any], task: str, now: datetime, about: str = "") -> dict[str, Stated]:
    """Per parameter of ``schema``, the value the request's own words give and those words. ``about`` is
    the tool's name and description: a thing the request asks for that the tool itself is ("get a
    sitter") is the service, not a value."""
    key = json.dumps(schema, sort_keys=True, default=str)
    return dict(_stated(key, task[:2000], now.isoformat(), about)[0])


def range_questions(schema: dict[str, Any], task: str, now: datetime, about: str = "") -> dict[str, str]:
    """Per parameter that takes one amount, the question a range or choice the request says for it asks
    ("6 to 8 guests", "2 or 3 of us": "For party size, do you want 6 or 8?"): either end may be meant,
    so no value is taken from it (``stated_values`` leaves it out) until the user says which."""
    key = json.dumps(schema, sort_keys=True, default=str)
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
    _times(props, frame, task, now, out)
    _places(props, frame, out, service)
    _amounts(props, frame, out, ranged)
    _nights(props, frame, now, out)
    _quotes_by_name(props, frame, out)
    _spans(props, frame, out, service, set(schema.get("required") or []))
    _lists(props, frame, out, set(schema.get("required") or []), service)
    _when_enums(props, task, now, out)  # before the enums named by a word's start ("week": weekly)
    _enums(props, frame, task, out)
    _enum_lists(props, frame, task, out)
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


# ----------------------------------------------------------------------------------- days and times
def _times(props: dict[str, Any], frame: Frame, task: str, now: datetime, out: dict[str, Stated]) -> None:
    when = read_when(task, now)
    dated = [
        n for n, p in props.items() if p.get("type") == "string" and p.get("format") in ("date", "date-time")
    ]
    clocks = [n for n, p in props.items() if _is_clock(n, p)]
    span = _range_days(frame, now)
    if span is not None and len(dated) >= 2:
        (first, first_words), (last, last_words) = span
        ends = [n for n in dated if _END.search(n)]
        starts = [n for n in dated if n not in ends]
        if ends and starts:
            out[starts[0]] = Stated(first.isoformat(), first_words)
            out[ends[0]] = Stated(last.isoformat(), last_words)
    elif span is not None and dated:
        (first, first_words), _ = span
        if props[dated[0]].get("format") == "date":
            out[dated[0]] = Stated(first.isoformat(), first_words)
    elif when.day is not None and (when.question is None or when.asks == "time") and dated:
        for n in dated:
            if len(dated) > 1 and _END.search(n):
                continue  # one day said: the start, not the end
            prop = props[n]
            if prop.get("format") == "date":
                out[n] = Stated(when.day.isoformat(), when.day_words or when.time_words)
            elif (when.time or when.part) and when.question is None:
                from ibachat.agent.reading.when import default_time

                clock = when.time or default_time(when.part) or "12:00"
                off = now.strftime("%z") or "+0000"
                words = _joined(task, when.day_words, when.time_words)
                out[n] = Stated(f"{when.day.isoformat()}T{clock}:00{off[:3]}:{off[3:]}", words)
            break
    clock_range = next(
        (r for r in frame.ranges if re.search(r"\d", r[0]) and re.search(r"(?i)am|pm", r[1])), None
    )
    if clock_range is not None:
        half = "" if re.search(r"(?i)am|pm", clock_range[0]) else _half_of(clock_range[1])
        first = read_when(f"{clock_range[0]}{half}", now).time
        last = read_when(clock_range[1], now).time
        if first and clocks:
            out[clocks[0]] = Stated(first, clock_range[2].text)
        said_length = any(  # "an hour between 2 and 5pm": the stretch is a window, the hour its length
            a.unit in ("minute", "hour")
            and not a.per
            and not clock_range[2].start <= a.span.start < clock_range[2].end
            for a in frame.amounts
        )
        if first and last and last > first and not said_length:  # "9 till 11am": two hours long
            _lasting(props, _clock_minutes(last) - _clock_minutes(first), clock_range[2].text, out)
    elif when.time is not None and when.asks != "time" and clocks:
        out[clocks[0]] = Stated(when.time, when.time_words)


_DURATION_STEMS = frozenset({"durat", "length", "long", "span", "period"})


def _lasting(props: dict[str, Any], minutes: int, words: str, out: dict[str, Stated]) -> None:
    """How long something lasts, from the two ends of a stretch of hours, for a parameter of its length."""
    for n, p in props.items():
        m = _measure(n, p) if p.get("type") in ("integer", "number") and n not in out else None
        if m and m.unit in ("minute", "hour") and {_stem(w) for w in _split(n)} & _DURATION_STEMS:
            value = minutes if m.unit == "minute" else minutes / 60
            out[n] = Stated(int(value) if p.get("type") == "integer" else value, words)
            return


def _half_of(last: str) -> str:
    """ "9 till 11am": the first end takes the half of the day of the last when it says none."""
    m = re.search(r"(?i)\d\s*(am|pm)\b", last)
    return m.group(1) if m else ""


def _clock_minutes(clock: str) -> int:
    h, m = clock.split(":")
    return int(h) * 60 + int(m)


def _is_clock(name: str, prop: dict[str, Any]) -> bool:
    return (
        prop.get("type") == "string"
        and not prop.get("enum")
        and (
            "[0-5][0-9]" in prop.get("pattern", "")
            or bool(re.search(r"(?:^|_)time$", name))
            or prop.get("format") == "time"
        )
    )


def _range_days(frame: Frame, now: datetime) -> tuple[tuple[date, str], tuple[date, str]] | None:
    for first, last, _span in frame.ranges:
        if re.search(r"(?i)\d\s*(?:am|pm)\b|\d[:.]\d\d", first + last):
            continue
        a, b = _end_day(first, now), _end_day(last, now)
        bare = re.fullmatch(r"(?i)(?:the\s+)?(\d{1,2})(?:st|nd|rd|th)?", first.strip())
        if bare and b.day is not None and not b.question and re.search(r"(?i)[a-z]{3}", last):
            # "16th to 23rd January": a day of the month alone takes the month of the end that names one
            start = _day_in_month(b.day, int(bare.group(1)))
            if start is not None:
                a = dataclasses.replace(a, day=start, question=None)
        if a.day is None or b.day is None or a.question or b.question:
            continue
        end = b.day
        while end < a.day:  # "from Friday until Monday": the Monday after
            end += timedelta(days=7)
        return (a.day, first), (end, last)
    return None


def _day_in_month(end: date, day: int) -> date | None:
    """The ``day`` of ``end``'s month, or of the month before when that would fall after ``end``."""
    for back in (0, 1):
        year, month = (end.year, end.month - back) if end.month - back >= 1 else (end.year - 1, 12)
        try:
            found = date(year, month, day)
        except ValueError:
            return None
        if found <= end:
            return found
    return None


def _end_day(words: str, now: datetime) -> When:
    """The day one end of a stretch names; a day's name read as said after "on" ("from Christmas Eve
    to the 28th": the name alone is no day to the reader, which wants it after a word of time)."""
    named = read_when(f"on {words}", now)
    if named.day is not None and named.day_words.lower() == words.lower():
        return named  # the whole of the words is a day's name ("Easter Sunday", not its weekday)
    return read_when(words, now)


def _joined(task: str, first: str, second: str) -> str:
    low = task.lower()
    a, b = low.find(first.lower()), low.find(second.lower())
    if not second or b < 0:
        return first
    if not first or a < 0:
        return second
    start, end = min(a, b), max(a + len(first), b + len(second))
    return task[start:end] if end - start <= len(first) + len(second) + 12 else first


# ----------------------------------------------------------------------------------- places
def place_role(name: str, prop: dict[str, Any]) -> str | None:
    text = f"{name} {prop.get('description', '')}"
    if (
        _RECIPIENT.search(name)
        or prop.get("format") in ("email", "date", "date-time")
        or _is_clock(name, prop)
    ):
        return None  # "pickup_time" and "from_date" are times, not places
    if _DEST.search(name) or (not _ORIGIN.search(name) and _DEST.search(str(prop.get("description", "")))):
        return "destination"
    if _ORIGIN.search(name) or _ORIGIN.search(str(prop.get("description", ""))):
        return "origin"
    if _VENUE.search(name) or _VENUE.search(str(prop.get("description", ""))):
        return "venue"
    if _LOCATION.search(text):
        return "location"
    return None


def is_venue(name: str, prop: dict[str, Any] | None = None) -> bool:
    """A parameter naming the place that serves the user (a restaurant, a café, a pharmacy), by its name
    or description: tastes kept there are that place's."""
    text = f"{name} {(prop or {}).get('description', '')}".lower()
    return place_role(name, prop or {}) == "venue" and "hotel" not in text


_ADDRESS = re.compile(r"address|postcode|street", re.I)
_TOWN = re.compile(r"city|town", re.I)  # a parameter for a town or a city: a name, never a house number


def _address(frame: Frame) -> Span | None:
    for p in frame.places:
        if not p.told and p.prep in ("at", "to", "in", "") and re.search(r"\d|[A-Z]", p.span.text):
            return p.span
    return None


_COUNTRY = re.compile(r"(?i)\bcountry\b|countries")
# short names of countries that the ISO list (pycountry) does not hold as names: a closed class
_COUNTRY_NAMES = frozenset({"UK", "U.K.", "Britain", "Great Britain", "the States", "America", "UAE"})


def _country(text: str) -> Span | None:
    """The first place the parse names (GPE) that is a country by the ISO list ("Canada" of "Toronto,
    Canada"), not told of in the past."""
    import pycountry

    from ibachat.agent.reading.parse import parse

    doc = parse(text[:2000])
    for e in doc.ents:
        if e.label_ != "GPE" or told_past(e.root):
            continue
        name = re.sub(r"(?i)^the\s+", "", e.text)
        known = name in _COUNTRY_NAMES or e.text in _COUNTRY_NAMES
        if not known and name[:1].isupper():
            try:
                pycountry.countries.lookup(name)
                known = len(name) > 3 or name.isupper() and len(name) == 3  # "USA"; never "LA" (Laos)
            except LookupError:
                known = False
        if known:
            return Span(e.text, e.start_char, e.end_char)
    return None


def _journey_end(frame: Frame, taken: set[int]) -> Span | None:
    """Of two or more places said after "to", the one that ends a journey from somewhere ("from
    Birmingham New Street to Newcastle"), not one told of ("going to Nana's for Christmas")."""
    ends = [p for p in frame.places if p.role == "destination" and p.span.start not in taken and not p.told]
    if len(ends) < 2:
        return None
    starts = [p.span.end for p in frame.places if p.role == "origin"]
    for p in ends:
        if any(0 <= p.span.start - e <= 5 for e in starts):
            return p.span
    return None


def _places(
    props: dict[str, Any], frame: Frame, out: dict[str, Stated], service: set[str] = frozenset()
) -> None:
    countries = {
        n
        for n, p in props.items()
        if _free(p)
        and n not in out
        and not p.get("enum")
        and _COUNTRY.search(f"{n} {p.get('description', '')}")
    }
    for n in countries:  # "to my cousin in Toronto, Canada": a country parameter takes a country or nothing
        said = _country(frame.text)
        if said is not None:
            out[n] = Stated(said.text, said.text)
    roles = {
        n: r
        for n, p in props.items()
        if _free(p) and n not in out and n not in countries and (r := place_role(n, p))
    }
    if "origin" in roles.values():  # "from" and "to" of a journey: "to" is its end, not a recipient
        roles.update(
            {n: "destination" for n, p in props.items() if n.lower() == "to" and _free(p) and n not in out}
        )
    if not roles:
        return
    has_dest = "destination" in roles.values()
    taken: set[int] = set()

    def pick(
        preps: tuple[str, ...], role: str, *, named: bool = False, town: bool = False, street: bool = False
    ) -> Span | None:
        # for an address, a house number and a street before a kind of place ("from my mum's place at 7
        # Rowan Drive": 7 Rowan Drive)
        places = (
            sorted(frame.places, key=lambda p: not re.match(r"\d", p.span.text)) if street else frame.places
        )
        for p in places:
            if town and re.search(r"\d", p.span.text):
                continue  # "at 42 Rose Street in Edinburgh": a street address is no city
            if p.span.start in taken or (preps and p.prep not in preps) or (not preps and p.role != role):
                continue
            if not p.prep and p.role != role:
                continue  # a place said with no preposition ("a cab home") serves only its own role
            if named and not p.name:
                continue
            if p.span.text in frame.emails or _HABIT.search(p.span.text) or p.told:
                continue  # "from the usual Thai place" refers to a habit; "we stayed at the Grand" is told
            if all(w.lower() in DETERMINERS or _stem(w) in service for w in p.span.text.split()):
                continue  # "reserve it from the library" with a library's tool: the kind of place, no name
            return p.span
        return None

    order = sorted(roles, key=lambda n: ["destination", "origin", "venue", "location"].index(roles[n]))
    for n in order:
        role = roles[n]
        span = None
        if role == "destination":
            span = _journey_end(frame, taken) or pick((), "destination")
        elif role == "origin":
            street = bool(_ADDRESS.search(f"{n} {props[n].get('description', '')}"))
            span = pick(("from", "out of"), "origin", street=street) or pick(("",), "origin")
            if span is None and not has_dest:
                span = pick(("at", "in", "near"), "at")  # a car picked up where it stands ("at Faro airport")
        elif role == "venue":
            span = pick(("at", "from"), "at", named=True) or pick(("in",), "at", named=True)
        elif role == "location" and _ADDRESS.search(f"{n} {props[n].get('description', '')}"):
            span = _address(frame)  # an address is a name or a number and a name, never "the kitchen"
        elif role == "location":
            town = bool(_TOWN.search(n))
            span = pick(("in", "at", "near"), "at", town=town) or (
                pick(("from", "out of"), "origin") or pick((), "destination") if not has_dest else None
            )  # with no end of a journey to fill, "to 4 Rose Row" is where it goes
        if span is not None:
            taken.add(span.start)
            words = span.text.split()
            while (
                len(words) > 1
                and words[-1].islower()
                and _stem(words[-1]) in service
                and any(w[:1].isupper() for w in words[:-1])
            ):
                words.pop()  # "Mumbai to Pune train": the place, not the thing the tool books
            text = " ".join(words)
            if (
                role in ("origin", "location")
                and span.text == text
                and (text[:1].isupper() or text.startswith("the "))
            ):
                # "from Hertz in Croydon", "from the Hertz at Edinburgh Waverley": a place that serves and
                # where it stands, one place to go to (never a month or a day after it)
                more = re.match(
                    rf"\s+(?:in|at)\s+(?!{_DAY_OR_MONTH}|May\b)[A-Z][\w'’-]*(?:\s+[A-Z][\w'’-]*)*",
                    frame.text[span.end :],
                )
                if more:
                    text = re.sub(r"(?i)^the\s+", "", text + frame.text[span.end : span.end + more.end()])
            out[n] = Stated(text, text)


# ----------------------------------------------------------------------------------- amounts
@dataclass(frozen=True)
class _Measure:
    unit: str  # minute|hour|day|night|week|month (time), money, percent, km|mile|m (distance), count
    nouns: frozenset[str]  # stems of what it counts (count), or of what the span of time is of
    per: str  # stem of the unit a rate is counted per ("day" in calories_per_day)
    bound: str  # "max", "min" or ""


def _measure(name: str, prop: dict[str, Any]) -> _Measure:
    words = _split(name)
    desc = str(prop.get("description") or "").lower()
    per = ""
    if "per" in words and words.index("per") + 1 < len(words):
        per = _stem(words[words.index("per") + 1])
        words = words[: words.index("per")]
    elif m := re.search(r"\b(?:per|a|each)\s+(day|night|week|month|person|head)\b", desc):
        per = _stem(m.group(1))
    bound = "max" if {"max", "maximum", "limit", "budget", "cap"} & set(words) else (
        "min" if {"min", "minimum"} & set(words) and "minutes" not in words else "")  # fmt: skip
    time = [w for w in words if w in _TIME_WORDS]
    nouns = frozenset(_stem(w) for w in words if w not in _COUNT_NOISE and w not in _TIME_WORDS)
    if re.search(r"\b(?:people|persons|guests|travell?ers|passengers|adults)\b", desc):
        nouns |= {_stem("people")}  # "how many people will sleep there": a count of people
    if {"percent", "percentage", "pct"} & set(words) or "%" in desc or "percent" in desc:
        return _Measure("percent", nouns, per, bound)
    if _MONEY & set(words):
        return _Measure("money", nouns, per, bound)
    for unit in ("km", "mile", "miles", "metres", "meters", "m"):
        if unit in words:
            return _Measure(
                {"miles": "mile", "metres": "m", "meters": "m"}.get(unit, unit), nouns, per, bound
            )
    if time:
        return _Measure(_TIME_WORDS[time[-1]], nouns, per, bound)
    measure = _measure_said(words, desc)
    if measure is not None:  # "weight_kg", "parcel weight, kg": an amount in kilograms
        return _Measure(measure, nouns, per, bound)
    return _Measure("count", nouns, per, bound)


def _measure_said(words: list[str], desc: str) -> str | None:
    """The measure a parameter is in, by the last word of its name ("volume_ml", not "foot_passengers"),
    else by a unit its description gives after "in", a comma or a dash, or ends on ("bag weight in kg",
    "longest side, cm")."""
    from ibachat.agent.reading.units import measure_unit

    said = re.findall(r"(?:\bin|[,(–-])\s*([a-z]+)\b|\b([a-z]+)\W*$", desc)
    for word in [*words[-1:], *(a or b for a, b in said)]:
        if 0 < len(word) <= 12 and (found := measure_unit(word)) is not None:
            return found
    return None


_TIME_UNITS = {"minute", "hour", "day", "night", "week", "fortnight", "month", "year"}


def _nights(props: dict[str, Any], frame: Frame, now: datetime, out: dict[str, Stated]) -> None:
    """A count of nights from a stretch of days with both ends ("from Jan 3 to Jan 6": 3 nights)."""
    names = [
        n
        for n, p in props.items()
        if p.get("type") == "integer" and n not in out and (m := _measure(n, p)).unit == "night" and not m.per
    ]
    span = _range_days(frame, now) if names else None
    if span is None:
        return
    (first, _), (last, _) = span
    words = next((r[2].text for r in frame.ranges), "")
    value = (last - first).days
    prop = props[names[0]]
    lo, hi = prop.get("minimum", 1), prop.get("maximum")
    if value >= (lo if isinstance(lo, (int, float)) else 1) and (
        not isinstance(hi, (int, float)) or value <= hi
    ):
        out[names[0]] = Stated(value, words)


def _convert(amount: Amount, unit: str) -> float | None:
    """The amount in ``unit`` (a span of time, a distance, a weight, volume or size), by ``pint``; None
    when the two measure different things."""
    src = amount.unit
    if src == unit:
        return amount.value
    night = {"night": "day"}
    if src in _TIME_UNITS and unit in _TIME_UNITS:
        src, unit = night.get(src, src), night.get(unit, unit)
    elif not ({src, unit} <= {"km", "mile", "m"} or {src, unit} <= MEASURES):
        return None
    if src == unit:
        return amount.value
    from ibachat.agent.reading.units import convert

    value = convert(amount.value, src, unit)
    if value is not None and src not in _TIME_UNITS:
        value = round(value, 2)  # "about 120 miles" is 193.12 km, not 193.12128: no precision nobody said
    return value


def _amounts(
    props: dict[str, Any], frame: Frame, out: dict[str, Stated], ranged: dict[str, str] | None = None
) -> None:
    numeric = {
        n: _measure(n, p) for n, p in props.items() if p.get("type") in ("integer", "number") and n not in out
    }
    if not numeric:
        return
    used: set[tuple[int, int]] = set()  # the spans taken; a total and its parts are each their own
    time_params = [n for n, m in numeric.items() if m.unit in _TIME_UNITS and not m.per]  # lengths, not rates
    fits = {
        (name, a.span.start, a.span.end): _fit(a, m, name, time_params)
        for name, m in numeric.items()
        for a in frame.amounts
    }
    for a in frame.amounts:  # "leave me 15 mins free before it": a lead, never the thing's length
        after = _BEFORE.match(frame.text[a.span.end :])
        if a.unit not in _TIME_UNITS or after is None:
            continue
        near = " ".join(frame.text[: a.span.start].split()[-3:]) + after.group(
            0
        )  # "remind me 30 mins before"
        said = {_stem(w) for w in re.findall(r"[a-z]+", near.lower())}
        for name, m in numeric.items():
            value = _convert(a, m.unit) if m.unit in _TIME_UNITS else None
            desc = str(props[name].get("description") or "").lower()
            if value is None or not re.search(r"\bbefore\b", f"{' '.join(_split(name))} {desc}"):
                fits[(name, a.span.start, a.span.end)] = (
                    0,
                    None,
                )  # no parameter of a lead: not this amount's
                continue
            shared = said & {_stem(w) for w in re.findall(r"[a-z]+", desc)}
            fits[(name, a.span.start, a.span.end)] = (3 + len(shared), value)
    # an amount goes first to the parameter it fits best ("a reminder 30 mins before": the reminder's,
    # not the event's length, whichever parameter comes first)
    order = sorted(
        numeric,
        key=lambda n: -max((fits[(n, a.span.start, a.span.end)][0] for a in frame.amounts), default=0),
    )
    for name in order:
        m = numeric[name]
        best: tuple[int, Amount, float] | None = None
        for a in frame.amounts:
            if (a.span.start, a.span.end) in used:
                continue
            score, value = fits[(name, a.span.start, a.span.end)]
            if score > 0 and value is not None and (best is None or score > best[0]):
                best = (score, a, value)
        if best is None:
            if (
                m.unit == "count"
                and props[name].get("type") == "integer"
                and m.nouns & {_stem(w) for w in frame.negated}
            ):
                lo = props[name].get("minimum", 0)
                if isinstance(lo, (int, float)) and lo <= 0:
                    # the request's own words, the first said ("no checked bag"), the same on every run
                    # (``frame.negated`` is a set, so its order is not)
                    words = sorted(
                        (w for w in frame.negated if _stem(w) in m.nouns),
                        key=lambda w: (frame.text.lower().find(w), w),
                    )
                    said = re.search(
                        rf"(?i)\b(?:no|not any|without|minus|zero)\s+(?:[\w-]+\s+){{0,2}}?{re.escape(words[0])}\w*",
                        frame.text,
                    )
                    out[name] = Stated(0, said.group(0) if said else f"no {words[0]}")  # "no sugar"
            continue
        _, a, value = best
        if m.bound == "min" and a.op == "<=" or m.bound == "max" and a.op == ">=":
            continue
        prop = props[name]
        if a.other is not None and a.value:
            low = value * a.other / a.value
            if m.bound == "min":
                value = low  # "£20-30" for a lowest price: its lower end; for a highest: its upper end
            elif m.bound != "max":
                if ranged is not None:
                    ranged[name] = f"For {name.replace('_', ' ')}, do you want {_num(low)} or {_num(value)}?"
                used.add((a.span.start, a.span.end))
                continue
        value = int(round(value)) if prop.get("type") == "integer" else float(value)
        enum = prop.get("enum")
        if enum and value not in enum:
            # "a two-month supply" is 61 days by the calendar's average and 60 on a pharmacy's list: an
            # allowed amount within 3% of the one said is that one
            near = [
                v for v in enum if isinstance(v, (int, float)) and abs(v - value) <= 0.03 * max(abs(v), 1)
            ]
            if len(near) != 1:
                continue
            value = near[0]
        lo, hi = prop.get("minimum"), prop.get("maximum")
        if (isinstance(lo, (int, float)) and value < lo) or (isinstance(hi, (int, float)) and value > hi):
            continue
        out[name] = Stated(value, a.span.text, a.op)
        used.add((a.span.start, a.span.end))


def _same_measure(noun: str, name: str) -> bool:
    """Whether a counted noun is a unit the parameter's name counts, by ``pint``'s units ("cals",
    "kcal" for calories_per_day: energy both; food calories are kilocalories, so the count is kept as
    said). Unknown words are no unit."""
    if not noun:
        return False
    from ibachat.agent.reading.units import dimension

    said = dimension(noun)
    if said is None:
        return False
    from ibachat.agent.reading.units import unit_dimension

    # the parameter's own words as units the registry knows ("calories")
    return any(unit_dimension(w) == said for w in _split(name) if len(w) >= 3)


def _num(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


# the words after an amount of time that make it a lead before something ("15 mins free before it")
_BEFORE = re.compile(r"^(?:\s+[a-z]+){0,2}?\s+(?:before|beforehand|ahead|prior)\b", re.I)


def _fit(a: Amount, m: _Measure, name: str, time_params: list[str]) -> tuple[int, float | None]:
    """How well an amount fits a parameter (0: not at all), and its value in the parameter's unit."""
    a_per = _stem(a.per) if a.per else ""
    if not a_per and m.per and m.unit == "count" and a.unit == "count" and _same_measure(a.noun, name):
        a_per = m.per  # "1800 cals" for calories_per_day: the parameter says what the count is per
    if m.per != a_per and not (m.unit == "money" and a_per and not m.per and False):
        if not (m.per == "" and a_per in ("head", "person") and m.unit == "money"):
            if not (m.per == "" and a_per and a_per in m.nouns and m.unit in _TIME_UNITS):
                return 0, None  # ("an hour per session" is a session's length: the parameter is of sessions)
            a_per = ""
    if m.unit in _TIME_UNITS and m.per and a.unit == "count" and a_per == m.per:
        return 2, a.value  # "six sessions a week", "twice a week" for days per week: times in the week
    noun = _stem(a.noun) if a.noun else ""
    words = {_stem(w) for w in a.words}
    if m.unit in _TIME_UNITS:
        value = _convert(a, m.unit)
        if value is None:
            return 0, None
        if words and words & m.nouns:
            return 3, value
        if words and m.nouns and not (m.nouns & {_stem(w) for w in _DURATION}):
            return 0, None  # "45 minute sessions" is no buffer
        if not words and m.nouns and not (m.nouns & {_stem(w) for w in _DURATION}) and len(time_params) > 1:
            return 0, None  # "for 45 minutes": the duration, not the reminder
        if words and not m.nouns and not re.match(r"(?i)[\w.]+-[a-z]+\b", a.span.text):
            return 0, None  # "45 minute sessions" for a bare "minutes"; "a 10-day plan" is the plan's length
        return 2, value
    if m.unit == "money":
        # a bare number is money with a bound ("under 90 a night") or as a range ("100-150 a night")
        if a.unit == "money" or (a.unit == "number" and (a.op != "=" or a.other is not None)):
            return 2, a.value
        return 0, None
    if m.unit == "percent":
        return (2, a.value) if a.unit == "percent" else (0, None)
    if m.unit in ("km", "mile", "m"):
        value = _convert(a, m.unit) if a.unit in ("km", "mile", "m") else None
        return (2, value) if value is not None else (0, None)
    if m.unit in MEASURES:  # "two and a half kilos" for weight_kg, "5 lb" in kilograms
        value = _convert(a, m.unit) if a.unit in MEASURES else None
        return (2, value) if value is not None else (0, None)
    if a.unit != "count":
        return 0, None
    if a.parts and (m.nouns & {_stem(w) for w in a.parts} or _stem(name) in {_stem(w) for w in a.parts}):
        return 0, None  # "2 adults and 3 kids" for a count of adults: the adults' own count, not the total
    if not noun and a_per and a_per == m.per:
        return 1, a.value  # "twice a week" for sessions_per_week
    if noun and (noun in m.nouns or _same_measure(a.noun, name)):
        return 3, a.value
    if noun and any(len(noun) >= 4 and (n.startswith(noun) or noun.startswith(n)) for n in m.nouns):
        return 3, a.value
    if (noun == "peopl" or "peopl" in words) and (
        m.nouns & {_stem(w) for w in _PEOPLE_COUNT} or _stem(name) in {_stem(w) for w in _PEOPLE_COUNT}
    ):
        return 2, a.value
    if (
        noun
        and (set(_split(name)) & {"quantity", "qty", "count", "number", "num"})
        and not (m.nouns - {noun})
    ):
        return 1, a.value  # "two tickets" for a ticket tool's quantity
    if not noun and not words and set(_split(name)) & {"quantity", "qty"} and not m.nouns:
        return 1, a.value  # "get me two for the gig": how many of what the tool gives
    plain = not a_per and not re.match(r"(?i)(?:once|twice|thrice)\b", a.span.text)  # no "twice-daily"
    if plain and noun and noun != "peopl" and m.nouns and m.nouns <= _ANY_THING:
        return 1, a.value  # "15 stories" for max_items: a parameter of items counts whatever it holds
    return 0, None


# How schemas name a count of whatever a tool holds (a closed class): "max_items", "results", "entries".
_ANY_THING = frozenset(_stem(w) for w in ("items", "item", "results", "entries", "things", "records"))


# ----------------------------------------------------------------------------------- named spans
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
            if not (give(n, lab.get("title")) or give(n, lab.get("quoted")) or give(n, _title_of(frame))):
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
        for span, head in zip(frame.verb_objects, frame.object_heads):
            if _stem(head) in named and len(span.text.split()) > 1 and give(n, span):
                break


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


_DAY_OR_MONTH = r"(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]*\b"
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
            return _no_possessive(span)
    m = re.search(
        r"\bto see\s+([A-Z][^,.;!?]*?)(?=\s+(?:on|at|this|next|tomorrow|tonight|in)\b|[,.;!?]|$)", frame.text
    )
    if m:
        return Span(m.group(1), m.start(1), m.end(1))
    return None


# ----------------------------------------------------------------------------------- lists
def _lists(
    props: dict[str, Any], frame: Frame, out: dict[str, Stated], required: set[str], service: set[str]
) -> None:
    for n, p in props.items():
        if p.get("type") != "array" or n in out:
            continue
        items = p.get("items") if isinstance(p.get("items"), dict) else {}
        if items.get("enum") or items.get("type", "string") != "string":
            continue
        words = _split(n)
        if _EXCLUDE.search(n):
            # "no caffeine" with a parameter named for caffeine: that parameter says it, not this list
            others = {_stem(w) for o in props if o != n for w in _split(o) if len(w) >= 4}
            spans = [
                s
                for s in frame.refused
                if _head_word(s.text) not in _generic() and _stem(_head_word(s.text)) not in others
            ]
            if spans:
                out[n] = Stated([s.text for s in spans], "; ".join(s.text for s in spans))
            continue
        if _PEOPLE_LIST.search(n):
            people = [s.text for s in frame.company] + list(frame.emails)
            if people:
                out[n] = Stated(people, "; ".join(people))
            continue
        if _TOPICS.search(n):
            topics = _topics(frame)
            if topics:
                out[n] = Stated(topics, "; ".join(topics))
            continue
        del words
        if n != _item_list(props, required):
            continue  # the things asked for fill one list ("items"), not its tags as well
        said = [v.quote for v in out.values()]
        category = {_stem(w) for w in _split(n)}  # "send some flowers": the list's own name, no item
        only = not _LABELS.search(n) and _item_lists(props) == [n]
        for group in frame.things:
            own = bool(category & service)  # "order_flowers" and its "flowers": the tool's own things
            if group == frame.verb_objects and not (
                frame.objects_asked and (n in required or (only and own))
            ):
                continue  # a later verb's objects ("tip the driver"), or a list not asked for by the verb
            group = tuple(s for s in group if _stem(_head_word(s.text)) not in category)
            while len(group) > 1 and _sets_a_detail(group[-1].text, props, n):
                group = group[:-1]  # "..., nigiri and edamame, large portions": a detail after the things
            names = [
                s.text
                for s in group
                if _head_word(s.text) not in _generic() and _stem(_head_word(s.text)) not in service
            ]
            if n not in required and any(all(x in q for x in names) for q in said):
                continue  # "a checklist titled Packing: passport, charger, socks": the body, not its tags too
            if names and len(names) == len(group):
                out[n] = Stated(names, "; ".join(names))
                break


def excludes(name: str) -> bool:
    """A parameter named for what to leave out ("exclude_topics", "avoid", "leave_out")."""
    return bool(_EXCLUDE.search(name))


def _sets_a_detail(piece: str, props: dict[str, Any], own: str) -> bool:
    """A listed piece that says another parameter's value, its head naming that parameter and a word
    of it one of the parameter's allowed values ("large portions", "budget brands"); not a thing asked
    for ("organic milk" names no kind of milk the schema allows)."""
    head = _stem(_head_word(piece))
    words = {_stem(w) for w in re.findall(r"[a-z]+", piece.lower())}
    for name, prop in props.items():
        if name == own or not isinstance(prop, dict) or not prop.get("enum"):
            continue
        if head in {_stem(w) for w in _split(name)}:
            labels = {_stem(w) for v in prop["enum"] for w in re.findall(r"[a-z]+", str(v).lower())}
            if words & labels:
                return True
    return False


def _item_lists(props: dict[str, Any]) -> list[str]:
    return [
        n
        for n, p in props.items()
        if p.get("type") == "array"
        and not (_EXCLUDE.search(n) or _PEOPLE_LIST.search(n) or _TOPICS.search(n))
        and not (isinstance(p.get("items"), dict) and p["items"].get("enum"))
    ]


def _item_list(props: dict[str, Any], required: set[str]) -> str | None:
    """The one list parameter the things a request names go to: a required one first."""
    lists = _item_lists(props)
    return None if not lists else sorted(lists, key=lambda n: n not in required)[0]


def _head_word(text: str) -> str:
    words = re.findall(r"[a-z]+", text.lower())
    return words[-1] if words else ""


def _topics(frame: Frame) -> list[str]:
    """What a subscription or a search is about: "on climate and sport", "about football"."""
    m = re.search(
        r"(?i)\b(?:on|about|covering|regarding)\s+((?:[\w-]+(?:\s*,\s*|\s+and\s+|\s+&\s+)?){1,6})", frame.text
    )
    if not m:
        return []
    parts = re.split(r"\s*,\s*|\s+and\s+|\s+&\s+", m.group(1).strip())
    out = []
    for part in parts:
        part = part.strip()
        if (
            not part
            or part.lower() in _generic()
            or any(a <= frame.text.find(part) < b for a, b in frame.when_mask)
        ):
            break
        out.append(part)
        if len(part.split()) > 3:
            break
    return out


# ----------------------------------------------------------------------------------- enums and flags
def _enums(props: dict[str, Any], frame: Frame, task: str, out: dict[str, Stated]) -> None:
    found: dict[str, tuple[Any, str]] = {}
    # "remind me to call the dentist": "call" is no channel; what follows a colon is words to keep only for
    # a tool that keeps words ("news briefing: science, headlines only": the briefing's own values)
    keeps_words = any(_free(p) and _span_role(n, p) == "body" for n, p in props.items())
    said = _outside_content(frame, task, keep=() if keeps_words else ("colon",))
    said = re.sub(  # "email me rather than sms": what is turned down names no value
        r"[\w'-]+", lambda m: " " * len(m.group(0)) if _refused_word(m.group(0), frame) else m.group(0), said
    )
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
            out[n] = Stated(never, m.group(0) if m else said_not[0])  # quoted with its "don't"
            continue
        if hit is None and nothing is not None and turned_down:  # "no caffeine" for a caffeine parameter
            thing = turned_down[0]
            cue = re.search(r"[\w']+\s+$", frame.text[max(0, thing.start - 30) : thing.start])
            out[n] = Stated(nothing, (cue.group(0) if cue else "") + thing.text)  # quoted with its "no"
            continue
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
                n for n, vals in open_enums.items() if label in vals and not _longer_said(label, vals, task)
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
# the words that turn down what follows them in their clause (a closed class)
_TURNED_DOWN = re.compile(
    r"(?i)\b(?:no|not|none\s+of|nothing|never|skip|skipping|without|except|minus|avoid|leave\s+out|drop|ditch|"
    r"hold\s+the|pass\s+on)\b"
)
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
    purpose = _purpose_of_the_one_asked(doc, task, props)
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


_SOME_DAY = datetime(2026, 1, 5, 12, 0, tzinfo=timezone.utc)  # whether words say a time at all
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


def named_value(prop: dict[str, Any], task: str) -> tuple[Any, str] | None:
    """The one enum value the request names, and the words it names it with: the value itself
    ("business class"), or a word that starts one value only ("physio" for ``physiotherapist``)."""
    enum = [v for v in (prop.get("enum") or []) if isinstance(v, str)]
    if len(enum) < 2:
        return None
    low = " " + " ".join(re.findall(r"[a-z0-9']+", task.lower())) + " "
    whole = [v for v in enum if f" {v.replace('_', ' ').lower()} " in low]
    spoken = {v: f" {v.replace('_', ' ').lower()} " for v in whole}
    # "twice daily" names ``twice_daily``, not also ``daily``: a value said inside a longer one is its part
    whole = [v for v in whole if not any(o != v and spoken[v] in spoken[o] for o in whole)]
    if len(whole) == 1:
        return whole[0], whole[0].replace("_", " ")
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
