"""A complaint said as a comparison with what the user wanted ("way shorter than I asked for", "could
have been a lot quieter") says which way the outcome was off, as "too ADJ" does.

Written before the mechanism, in words and domains unlike the development sets' (haircuts, classes,
flats, parcels, playlists). The comparative's base comes from the dictionary (lemminflect), so
"spicier", "pricier" and "later" find "spicy", "pricey" and "late"; words that only end in -er
("never", "other", "water") are no comparatives, and a comparison with no one's wish is no complaint.
"""

from __future__ import annotations

import pytest

from ibachat.agent.reading.complaints import complaints


@pytest.mark.parametrize(
    ("said", "label"),
    [
        ("the trim came out way shorter than i asked for", "too short"),
        ("that spin class ran longer than we'd expected", "too long"),
        ("honestly the flat was colder than i would like", "too cold"),
        ("the curry was spicier than i wanted", "too spicy"),
        ("it was more crowded than i hoped", "too crowded"),
        ("the parcel turned up later than they promised me", "too late"),
        ("the playlist could have been a lot quieter", "not quiet enough"),
        ("the warm-up should've been longer", "not long enough"),
        ("the room was less bright than i needed", "not bright enough"),
    ],
)
def test_a_comparison_with_the_wish_is_a_complaint(said, label):
    assert label in [c.label for c in complaints(said)]


@pytest.mark.parametrize(
    "said",
    [
        "my sister is taller than me",
        "the new route is shorter than the old one",
        "i never go there other than on fridays",
        "it was better than i expected",
        "water is heavier than oil",
        "the sequel could have been a film about anything",
    ],
)
def test_a_comparison_with_no_ones_wish_is_none(said):
    assert complaints(said) == []


STRETCH = {
    "name": "book_stretch",
    "description": "Book a stretching class at the leisure centre",
    "parameters": {
        "type": "object",
        "properties": {
            "length_mins": {"type": "integer", "minimum": 15, "maximum": 120, "description": "class length"},
        },
        "required": ["length_mins"],
    },
}


@pytest.fixture(scope="module")
def minilm():
    from memory.embedders.registry import load_embedder

    return load_embedder("minilm")


@pytest.mark.parametrize(
    ("said", "check"),
    [
        ("that stretching class went on way longer than i wanted", lambda v: v < 60),
        ("the stretching session could have been a good bit longer tbh", lambda v: v > 60),
    ],
)
def test_a_comparison_moves_the_last_value_the_way_it_says(tmp_path, minilm, said, check):
    from ibachat.agent.ingest import ingest
    from ibachat.agent.planner import Planner
    from memory.memory import Memory
    from tests.agent.histories import History, call

    h = History(seed=31).noise(5, 0, 10)
    h.say(4, ("user", "book me a stretch class"), ("tool", "Done.", call("book_stretch", length_mins=60)))
    h.say(5, ("user", said), ("assistant", "Noted."))
    memory = Memory.open(tmp_path / "m", embedder=minilm, fsync=False)
    try:
        ingest(memory, h.records())
        out = Planner(memory).act("book the stretching class again", now=h.at(11, 10), tools=[STRETCH])
    finally:
        memory.close()
    assert out.tool_call is not None and check(out.tool_call.arguments.get("length_mins", 60)), (
        out.plan.params
    )
