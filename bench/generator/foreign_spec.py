"""Shared pieces of the foreign-tools rewrite table: the rewrite records and value maps used by
several tools (see ``foreign_tools_a`` and ``foreign_tools_b`` for the tools, ``foreign`` for their use).

Every tool, parameter and enum value of ``ibachat.agent.execution.tools.REGISTRY`` gets another
spelling, in words that occur nowhere in ``ibachat/`` (a test checks). Some parameters change
shape with identical meaning: a unit (minutes as seconds, kcal as kJ, a percentage as a fraction,
a price in cents, days of supply as months), a two-value enum as a boolean, an ordered enum as an
integer scale, or a boolean turned the other way round (``cutlery: true`` is ``skipUtensils: false``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any


@dataclass(frozen=True)
class P:
    """One parameter's rewrite: ``values`` maps old enum values (or array items) to new ones;
    ``factor`` rescales a number (new = old * factor); ``scale`` turns an integer-valued enum map
    into a plain integer range; ``invert`` flips a boolean."""

    name: str
    description: str
    values: dict[Any, Any] | None = None
    factor: Fraction | None = None
    scale: bool = False
    invert: bool = False


@dataclass(frozen=True)
class T:
    name: str
    description: str
    params: dict[str, P] = field(default_factory=dict)


DAY = "which day, as year-month-day digits"
CLOCK = "local clock reading, two-digit hours and minutes"
MOMENT = "an ISO-8601 timestamp"
HEAT = {"none": 0, "mild": 1, "medium": 2, "hot": 3}
HEAT_TEXT = "chilli heat on a 0-3 scale: 0 none at all, 1 gentle, 2 noticeable, 3 fiery"
MOUTHFEEL = {"soft": "TENDER_MASH", "regular": "ORDINARY_BITE", "crunchy": "CRISP_BITE"}
DIET_TAGS = {
    "vegetarian": "lacto-ovo",
    "vegan": "strictly-plants",
    "pescatarian": "fish-ok-no-meat",
    "gluten_free": "coeliac-safe",
    "dairy_free": "lactose-free",
    "nut_free": "no-nuts",
    "shellfish_free": "no-shellfish",
    "halal": "halal-certified",
    "kosher": "kosher-certified",
}
MILK = {
    "whole": "WHOLE_DAIRY",
    "semi_skimmed": "HALF_FAT",
    "skimmed": "ZERO_FAT",
    "oat": "OAT_DRINK",
    "soy": "SOYA_DRINK",
    "almond": "ALMOND_DRINK",
    "none": "NO_DAIRY_ADDED",
}
BAND = {"budget": "VALUE_RANGE", "standard": "MAINSTREAM", "premium": "LUXURY_RANGE"}
CAFF = {"regular": "FULL_KICK", "decaf": "DECAFFEINATED_BREW", "half_caf": "HALF_STRENGTH"}
TOD = {
    "early_morning": "DAYBREAK",
    "morning": "FORENOON",
    "afternoon": "POST_LUNCH",
    "lunchtime": "MIDDAY_BREAK",
    "evening": "DUSK",
}
VIA = {"in_person": "SAME_ROOM", "video": "WEBCAM", "phone": "AUDIO_ONLY"}
WHO = {"no_preference": "ANY_SEX", "female": "SHE_HER", "male": "HE_HIM"}
SEATS = {"any": "NO_PREF", "window": "WINDOW_SIDE", "aisle": "AISLE_ACCESS"}
NEWS = {
    "world": "INTERNATIONAL",
    "politics": "GOVERNMENT",
    "business": "MARKETS",
    "technology": "TECH",
    "science": "RESEARCH",
    "climate": "PLANET_WATCH",
    "health": "WELLBEING",
    "sport": "SPORTS_DESK",
    "culture": "ARTS",
    "local": "HOMETOWN",
}
