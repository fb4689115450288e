"""Amounts from one unit to another, by ``pint`` (a well-kept units library), loaded on first use.

Only spans of time and distances are converted (a fortnight for a days parameter, an hour and a half
for a minutes parameter, miles for a kilometre bound); the registry is built once per process (about
0.2 s), and only when a request's unit differs from its parameter's.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

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
