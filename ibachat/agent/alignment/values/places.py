"""Places a request states for a tool's parameters: the end and start of a journey, a place that serves, an
address, a country.

Part of ``alignment/request_values.py``, which runs the readers in order."""

from __future__ import annotations

import re
from typing import Any

from ibachat.agent.alignment.values.common import (
    _DAY_OR_MONTH,
    _DEST,
    _HABIT,
    _LOCATION,
    _ORIGIN,
    _RECIPIENT,
    _VENUE,
    Stated,
    _free,
    _stem,
)
from ibachat.agent.alignment.values.days import _is_clock
from ibachat.agent.reading.frame import DETERMINERS, Frame, Span, told_past


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


def _address(frame: Frame, taken: set[int] = frozenset()) -> Span | None:
    written = _WRITTEN_ADDRESS.search(frame.text)
    if (
        written is not None and written.start() not in taken
    ):  # "Flat 3, 14 Station Rd, SE15 4QT - the key's at no. 12": the one written out
        return Span(
            written.group(0).rstrip(" ,"),
            written.start(),
            written.start() + len(written.group(0).rstrip(" ,")),
        )
    for p in frame.places:
        if p.span.start in taken:
            continue
        if not p.told and p.prep in ("at", "to", "in", "") and re.search(r"\d|[A-Z]", p.span.text):
            # "to Flat 3, 41 Hanover Square": a house number and a street after a comma go on with it
            return _with_street_after(frame, p.span)
    return None


def _with_street_after(frame: Frame, span: Span) -> Span:
    """An address with what goes on after it: "Flat 3, 41 Hanover Square" (a house number and a street
    after a comma), "4 Orchard Close, Ely CB7 4AB" (a town before a postcode, or a postcode)."""
    more = _STREET_AFTER.match(frame.text, span.end)
    end = more.end() if more is not None else span.end
    town = _POSTCODE_AFTER.match(frame.text, end)
    end = town.end() if town is not None else end
    return Span(frame.text[span.start : end], span.start, end) if end != span.end else span


# an address written out: a house number, a street's capitalised words ending in a kind of street (a
# closed class), then a town and a UK postcode if said ("Flat 3, 14 Station Rd, SE15 4QT")
_STREET_KINDS = (
    r"(?:Road|Rd|Street|St|Lane|Ln|Avenue|Ave|Close|Drive|Dr|Way|Crescent|Cres|Place|Pl|Square|Sq|"
    r"Gardens|Gdns|Court|Ct|Grove|Hill|Row|Mews|Walk|Parade|Park|Rise|View|Green|Boulevard|Blvd)"
)
_WRITTEN_ADDRESS = re.compile(
    r"(?:\b(?:Flat|Apartment|Apt|Unit)\s+\d+[A-Za-z]?,?\s*)?\b\d+[A-Za-z]?,?\s+(?:[A-Z][\w'’-]*\s+){1,3}"
    + _STREET_KINDS
    + r"\b\.?(?:,?\s*(?:[A-Z][a-z]+\s+){0,2}[A-Z]{1,2}\d[A-Z\d]?\s*\d[A-Z]{2}\b)?"
)
# a comma, then a house number and a street's capitalised words ("..., 41 Hanover Square")
_STREET_AFTER = re.compile(r",\s*\d+[A-Za-z]?\s+(?:[A-Z][\w'’-]*\s?)+(?<!\s)")


def _a_thing_param(name: str, prop: dict[str, Any]) -> bool:
    """A parameter for a thing in words of its own (a dish, a film, a drug): free text that is no place,
    day or clock, or a list of such."""
    if prop.get("type") == "array":
        items = prop.get("items") if isinstance(prop.get("items"), dict) else {}
        return (
            items.get("type", "string") == "string" and not items.get("enum") and not place_role(name, prop)
        )
    return _free(prop) and not prop.get("enum") and not _is_clock(name, prop) and not place_role(name, prop)


def _booked_by_name(frame: Frame, props: dict[str, Any]) -> Span | None:
    """ "book Dishoom for Friday", "reserve The Ivy": a name booked, with a tool that books no thing of its
    own, is the place booked at (never a day, a word in lower case or a value the tool offers: "Pilates")."""
    if not frame.objects_asked or len(frame.verb_objects) != 1:
        return None  # "reserve Toni and Guy": two names, or one the parse split, are no one place
    offered = {
        _stem(str(v).replace("_", " ").lower())
        for p in props.values()
        if isinstance(p, dict)
        for v in p.get("enum") or ()
    }
    for s in frame.verb_objects:
        m = re.search(
            rf"(?i:\b(?:book|reserve)(?:\s+(?:me|us))?\s+)((?:The\s+)?{re.escape(s.text)})\b", frame.text
        )
        if m is None or not re.fullmatch(r"(?:[A-Z][\w'’&-]*\s?)+", m.group(1)):
            continue
        if re.search(rf"(?i)^(?:{_DAY_OR_MONTH}|May)\b", s.text) or _stem(s.text.lower()) in offered:
            continue
        return Span(m.group(1), m.start(1), m.end(1))
    return None


# a UK postcode (a closed format), with the town said before it: ", Ely CB7 4AB", ", SE15 4QT"
_POSTCODE_AFTER = re.compile(
    r",?\s*(?:[A-Z][a-z]+(?:\s+[A-Z][a-z]+){0,2},?\s+)?[A-Z]{1,2}\d[A-Z\d]?\s*\d[A-Z]{2}\b"
)


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
            if span is None and not any(_a_thing_param(o, q) for o, q in props.items() if o != n):
                span = _booked_by_name(frame, props)
        elif role == "location" and _ADDRESS.search(f"{n} {props[n].get('description', '')}"):
            span = _address(frame, taken)  # an address is a name or a number and a name, never "the kitchen"
        elif role == "location":
            town = bool(_TOWN.search(n))
            span = pick(("in", "at", "near"), "at", town=town) or (
                pick(("from", "out of"), "origin") or pick((), "destination") if not has_dest else None
            )  # with no end of a journey to fill, "to 4 Rose Row" is where it goes
        if (
            span is not None
            and role in ("origin", "destination")
            and _ADDRESS.search(f"{n} {props[n].get('description', '')}")
        ):
            span = _with_street_after(frame, span)  # "pick it up at Unit 4, 22 Mill Lane"
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
