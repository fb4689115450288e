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


def _rows(text):
    return {(e.dimension, e.value, e.polarity) for e in _events(("user", text))}


@pytest.mark.parametrize(
    ("text", "avoided", "bound"),
    [
        ("Flights over 5 hours are too long for me.", "flights over 5 hours", "minutes<=300"),
        ("Hikes longer than 12 miles are way too much for my knees.", "hikes longer than 12 miles", None),
        ("Wines under 8 pounds a bottle are too rough for me.", "wines under 8 pounds a bottle", None),
        ("Podcasts that run past 90 minutes are too rambling for me.", None, "minutes<=90"),
        ("Anything over 40 minutes of driving is too much for me.", None, "minutes<=40"),
    ],
)
def test_a_kind_of_thing_said_to_be_too_much_is_avoided_and_its_amount_bounds_it(text, avoided, bound):
    # the subject of "are too ADJ" was read as a wish ("+ want flights over 5 hours", "minutes>=300")
    rows = _rows(text)
    assert not [r for r in rows if r[0] == "open" and r[2] > 0], rows
    if avoided:
        assert ("open", avoided, -1) in rows, rows
    if bound:
        assert [r for r in rows if r[0] == "open.number"] == [("open.number", bound, 1)], rows


@pytest.mark.parametrize(
    "text", ["The pool was too cold for me.", "The curry last night was far too salty for us."]
)
def test_one_outcome_said_to_be_too_much_is_a_complaint_and_no_wish(text):
    rows = _rows(text)
    assert not [r for r in rows if r[0] == "open"], rows
    assert [r for r in rows if r[0] == "open.complaint"], rows


def test_a_wish_beside_a_complaint_is_kept():
    rows = _rows("Sleeper trains are too cramped for me, I'd rather take a direct daytime train.")
    assert ("open", "sleeper trains", -1) in rows and [r for r in rows if r[0] == "open" and r[2] > 0], rows
