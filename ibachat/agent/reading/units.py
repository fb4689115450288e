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
