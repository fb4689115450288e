"""Stances said after the thing, in words written for these tests (paint, gigs, plants, banking):
an appositive favourite ("the sage green, my absolute fave"), "X is my all-time favourite", "X only"
at the end of a clause, and a phrase that starts with a copula or a discourse adverb ("my favourite is
X", "honestly X") kept as the thing alone.
"""

from __future__ import annotations

import pytest

from ibachat.agent.reading.open_prefs import read_open


@pytest.mark.parametrize(
    ("text", "phrase"),
    [
        ("repainting the hall in sage green, my absolute fave", "sage green"),
        ("they're doing the acoustic set, my all-time favourite", "acoustic set"),
        ("string of pearls is my all time fave plant", "string of pearls"),
        ("paper statements only", "paper statements"),
        ("weekend delivery slots only please", "weekend delivery slots"),
        ("my favourite is the oat flat white", "oat flat white"),
    ],
)
def test_a_stance_said_after_the_thing(text, phrase):
    found = {(p.phrase, p.polarity) for p in read_open(text)}
    assert (phrase, 1) in found, found


@pytest.mark.parametrize("text", ["is that your favourite?", "what's your favourite colour"])
def test_no_stance_without_the_users_own_favourite(text):
    assert read_open(text) == []


def test_a_favourite_is_no_passing_state_though_the_sentence_names_a_weekend():
    from datetime import datetime, timezone

    from ibachat.agent.reading.open_events import open_events
    from memory.types import Turn

    text = "the in-laws are away this weekend so finally seafood paella, my absolute fave"
    turn = Turn(1, "s", "user", text, datetime(2026, 1, 1, tzinfo=timezone.utc))
    found = [e for e in open_events(turn, "") if e.value == "seafood paella"]
    assert found and found[0].valid_until is None, found


def test_a_part_of_the_day_rules_out_values_whose_hours_lie_outside_it():
    from ibachat.agent.alignment.grounding import Wish
    from ibachat.agent.alignment.open_plan import _parts_of_day

    labels = [
        "early bird (06:00-09:00)",
        "lunch (11:30-13:30)",
        "late (19:00-22:00)",
        "graveyard (23:00-03:00)",
    ]
    assert _parts_of_day(labels, [Wish("evening sessions", 1, 1.0, "evening sessions only")]) == {0, 1, 3}
    assert _parts_of_day(labels, [Wish("daytime slots", 1, 1.0, "daytime slots")]) == {2, 3}
    assert _parts_of_day(labels, [Wish("night shifts", -1, 1.0, "no night shifts")]) == {3}
    assert _parts_of_day(["a", "b"], [Wish("evening", 1, 1.0, "evening")]) == set()


@pytest.mark.parametrize(
    ("said", "value", "polarity"),
    [
        ("fyi no, seeing someone in person, not a video call.", "in_person", 1),
        ("btw no, i want the window seat this time", "window", 1),
        ("fyi no dairy for me", "dairy", -1),
    ],
)
def test_a_no_after_a_discourse_opener_answers_and_negates_nothing(said, value, polarity):
    from ibachat.agent.reading.polarity import analyse, normalise

    assert (value, polarity) in [(m.value, m.polarity) for m in analyse(normalise(said))]
