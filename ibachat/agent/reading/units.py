"""Amounts from one unit to another, by ``pint`` (a well-kept units library), loaded on first use.

Spans of time, distances and measures of weight, volume and size are converted (a fortnight for a days
parameter, an hour and a half for a minutes parameter, miles for a kilometre bound, "2 and a half kilos"
or "5 lb" for a kilogram parameter); the registry is built once per process (about 0.2 s), and only when
a request's unit differs from its parameter's or a word after a number may be a unit.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

# the words for a span of time and the unit each names (a closed class), for every reader of amounts
TIME_UNITS = {
    "minute": "minute", "min": "minute", "mins": "minute", "minutes": "minute", "hour": "hour", "hr": "hour",
    "hrs": "hour", "hours": "hour", "h": "hour", "day": "day", "days": "day", "night": "night", "nights": "night",
    "week": "week", "weeks": "week", "wk": "week", "wks": "week", "fortnight": "fortnight",
    "fortnights": "fortnight", "month": "month", "months": "month", "year": "year", "years": "year",
}  # fmt: skip

_NAMES = {"m": "meter", "km": "kilometer", "mile": "mile"}


@lru_cache(maxsize=1)
def _registry() -> Any:
    import pint

    return pint.UnitRegistry()


def convert(value: float, unit: str, to: str) -> float | None:
    """``value`` ``unit`` expressed in ``to`` (minute, hour, day, week, fortnight, month, year, km, mile,
    m), or None when the two do not measure the same thing."""
    import pint

    reg = _registry()
    try:
        return float(reg.Quantity(value, _NAMES.get(unit, unit)).to(_NAMES.get(to, to)).magnitude)
    except (pint.errors.DimensionalityError, pint.errors.UndefinedUnitError):
        return None


# The measures a request's amount or a parameter's name may be in, by the registry's own names: weights,
# volumes and sizes people say after a number. A closed class, so that a word the registry also knows
# for something else ("bags", a unit of mass; "kilos", kiloseconds) is never read as a unit.
MEASURES = frozenset(
    {
        "kilogram", "gram", "milligram", "pound", "ounce", "stone", "metric_ton",
        "liter", "milliliter", "centiliter",
        "centimeter", "millimeter", "inch", "foot", "yard",
    }
)  # fmt: skip
# how a measure is said in speech that the registry does not parse as it is meant
_SPOKEN = {"kilo": "kilogram", "kilos": "kilogram", "kgs": "kilogram", "gms": "gram", "mls": "milliliter"}


@lru_cache(maxsize=512)
def measure_unit(word: str) -> str | None:
    """The registry's name of the measure ``word`` says ("kilos", "kg": kilogram; "litres": liter;
    "inches": inch), or None when it is none of ``MEASURES``."""
    import pint

    low = word.lower().strip(".")
    if not low.isalpha() or len(low) > 12:
        return None
    if low in _SPOKEN:
        return _SPOKEN[low]
    try:
        name = str(_registry().parse_units(low))
    except (pint.errors.UndefinedUnitError, pint.errors.DefinitionSyntaxError, AttributeError, ValueError):
        return None
    return name if name in MEASURES else None


@lru_cache(maxsize=512)
def dimension(word: str) -> str | None:
    """What ``word`` measures as a unit ("kcal", "cals": energy), or None when it is no unit. Only a
    word the dictionary has no common noun for is looked up ("cals", "kcal"; "day", "meal" are not),
    so the registry is loaded only for such words."""
    from lemminflect import getAllLemmas

    low = word.lower()
    if len(low) < 2 or getAllLemmas(low, upos="NOUN") or not low.isalpha():
        return None
    return unit_dimension(low)


@lru_cache(maxsize=512)
def unit_dimension(word: str) -> str | None:
    """What ``word`` measures as a unit the registry knows ("calories": energy), or None."""
    import pint

    low = word.lower()
    try:
        dims = _registry().parse_units(low).dimensionality
    except (pint.errors.UndefinedUnitError, pint.errors.DefinitionSyntaxError, AttributeError, ValueError):
        return None
    return str(dims) if dims else None
