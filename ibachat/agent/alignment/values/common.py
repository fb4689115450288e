"""What the readers of a request's values share: the ``Stated`` record, a parameter's words and stems, the
closed classes of how schemas name what they take, and a parameter's measure (its unit, what it counts,
per what).

Part of ``alignment/request_values.py``, which runs the readers in order."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime, timezone
from functools import lru_cache
from typing import Any


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
_END = re.compile(  # "off_time" ends a stretch; "drop_off" starts one (a kennel stay, a cloakroom)
    r"(?:^|_)(?:end|ends|until|till|to|check_?out|return|back|finish|last|departure_back|leave|leaving|vacate)(?:_|$)"
    r"|^off(?:_|$)",
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
_CURRENCIES = frozenset("usd eur gbp dollars euros pounds".split())
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


_SOME_DAY = datetime(2026, 1, 5, 12, 0, tzinfo=timezone.utc)  # whether words say a time at all


def _split(name: str) -> list[str]:
    name = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", name)
    return [w for w in re.split(r"[_\W]+", name.lower()) if w]


def _stem(word: str) -> str:
    from memory.lexical import _stem as snowball

    return snowball(word.lower())


def _free(prop: dict[str, Any]) -> bool:
    return prop.get("type") == "string" and not prop.get("enum") and not prop.get("format")


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
    # "cover in pounds": a currency in the description is money, unless what is measured is a weight
    # ("weight in pounds": pint's lb)
    weighed = bool(re.search(r"weigh|mass|heav", f"{' '.join(words)} {desc}"))
    if _MONEY & set(words) or (not weighed and _CURRENCIES & set(re.findall(r"[a-z]+", desc))):
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


_DAY_OR_MONTH = r"(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]*\b"
