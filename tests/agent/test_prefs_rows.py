"""What `memory prefs` shows must be what the user wants: no wish from what a dish holds, from an amount
asked about, or from a piece of a phrase cut short. In other words and domains than the demo's."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from ibachat.agent.reading.events import extract_events
from memory.types import Turn

T = datetime(2026, 3, 4, 12, 0, tzinfo=timezone.utc)


def _events(*specs):
    turns = [
        Turn(
            i + 1,
            "s",
            spec[0],
            spec[1],
            T + timedelta(minutes=i),
            tool_call=spec[2] if len(spec) > 2 else None,
        )
        for i, spec in enumerate(specs)
    ]
    return extract_events(turns)


@pytest.mark.parametrize(
    "items",
    [["mapo tofu", "edamame"], ["chicken satay with peanut sauce"], ["prawn tempura", "miso soup"]],
)
def test_a_dish_ordered_is_no_wish_for_its_allergen(items):
    evs = _events(
        ("user", "Order from the usual place."),
        ("tool", "Done.", {"name": "order_food", "arguments": {"restaurant": "Kaito", "items": items}}),
    )
    assert not [e for e in evs if e.dimension == "food.allergen" and e.polarity > 0], [
        (e.dimension, e.value) for e in evs
    ]


def test_an_allergy_said_is_still_read():
    evs = _events(("user", "I'm allergic to peanuts, so keep them out of everything."))
    assert [e for e in evs if e.dimension == "food.allergen" and e.polarity < 0]


@pytest.mark.parametrize(
    "text",
    [
        "Convert 5 miles to kilometres please.",
        "Translate 250 grams of flour into cups for me.",
        "Calculate 15% of 80 euros please.",
    ],
)
def test_an_amount_asked_about_is_no_wish(text):
    evs = _events(("user", text))
    assert not [e for e in evs if e.dimension == "open.number"], [(e.dimension, e.value) for e in evs]


def test_an_amount_wished_is_still_read():
    evs = _events(("user", "Keep my budget under 40 a night."))
    assert [e for e in evs if e.dimension == "open.number"]


@pytest.mark.parametrize(
    ("text", "wanted"),
    [
        ("No, not that one again, I want to sit by the fire and warm up.", {"sit by the fire", "warm up"}),
        (
            "I'd love to pick up the bikes early and drop them off late.",
            {"pick up the bikes early", "drop them off late"},
        ),
    ],
)
def test_a_verb_keeps_its_particle_and_no_piece_is_a_wish(text, wanted):
    evs = _events(("user", text))
    phrases = {e.value for e in evs if e.dimension == "open" and e.polarity > 0}
    assert not {"fire", "warm", "bikes", "drop", "pick"} & phrases, phrases
    assert wanted <= phrases, phrases
