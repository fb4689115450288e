"""A complaint about an amount needs no adjective: "she needs way more than that", "two rolls wasn't
nearly enough", "we had far more than we needed". Read as "too little" / "too much" of what the past
outcome gave; which parameter it bears on is decided where the parameter is known, by meaning.

Written before the mechanism, in words and domains unlike the development sets' (dog walks, paint,
firewood, portions); five more were kept aside until the session's end.
"""

from __future__ import annotations

import pytest

from ibachat.agent.reading.complaints import complaints


@pytest.mark.parametrize(
    ("said", "label"),
    [
        ("she needs way more than that to actually be tired", "too little"),
        ("two rolls of tape wasn't nearly enough", "too little"),
        ("a single bag of logs is not enough for a whole weekend", "too little"),
        ("that was nowhere near enough", "too little"),
        ("the lads could do with a lot more than that", "too little"),
        ("we had far more than we needed, loads left over", "too much"),
        ("they want much less than that, honestly", "too much"),
        ("the bath needs to be way hotter than that", "not hot enough"),
        ("the lawn needs cutting much shorter than that", "not short enough"),
        ("the garlic in that curry was a bit much", "too much"),  # a degree word, and no "too"
        ("honestly the bass was a little much for the neighbours", "too much"),
        ("lol ok that's loud. bit much", "too much"),
    ],
)
def test_an_amount_complaint_needs_no_adjective(said, label):
    assert label in [c.label for c in complaints(said)]


@pytest.mark.parametrize(
    "said",
    [
        "my landlord charges more than that for a garage",
        "there were more than that at the gig",
        "i can't praise them enough",
        "i don't know enough about wine to choose",
        "you can never have enough socks",
        "that was not much fun",
        "it didn't do much for me",
    ],
)
def test_an_amount_with_no_ones_need_is_no_complaint(said):
    assert complaints(said) == []


LOGS = {
    "name": "deliver_firewood",
    "description": "Have seasoned firewood delivered to your door",
    "parameters": {
        "type": "object",
        "properties": {
            "bags": {"type": "integer", "enum": [1, 2, 3, 5, 8], "description": "number of bags"},
            "wood": {"enum": ["ash", "oak", "birch"]},
        },
        "required": ["bags", "wood"],
    },
}


@pytest.fixture(scope="module")
def minilm():
    from memory.embedders.registry import load_embedder

    return load_embedder("minilm")


def _act(tmp_path, minilm, said: str, day: int):
    from ibachat.agent.ingest import ingest
    from ibachat.agent.planner import Planner
    from memory.memory import Memory
    from tests.agent.histories import History, call

    h = History(seed=7).noise(4, 0, 40)
    h.say(
        2,
        ("user", "get me some logs for the stove"),
        ("tool", "Done.", call("deliver_firewood", bags=2, wood="ash")),
    )
    h.say(day, ("user", said), ("assistant", "Noted."))
    memory = Memory.open(tmp_path / "m", embedder=minilm, fsync=False)
    try:
        ingest(memory, h.records())
        return Planner(memory).act("firewood again please", now=h.at(41, 10), tools=[LOGS])
    finally:
        memory.close()


def test_an_amount_complaint_soon_after_the_call_moves_a_choice_among_amounts(tmp_path, minilm):
    out = _act(tmp_path, minilm, "honestly that wasn't nearly enough, we ran out by saturday", 4)
    assert out.tool_call is not None and out.tool_call.arguments["bags"] == 3, out.plan.params["bags"]
    assert "wasn't nearly enough" in out.tool_call.reasons["bags"]


def test_an_amount_complaint_months_later_is_not_of_that_call(tmp_path, minilm):
    out = _act(tmp_path, minilm, "honestly that wasn't nearly enough, we ran out by saturday", 30)
    assert out.tool_call is not None and out.tool_call.arguments.get("bags", 2) == 2, out.plan.params["bags"]


@pytest.mark.parametrize(
    ("text", "count", "noun"),
    [
        ("need another 500 A5 flyers", 500, "flyer"),
        ("get me 2 HDMI cables", 2, "cable"),
    ],
)
def test_a_count_before_a_code_and_a_plural_noun_counts_the_noun(text, count, noun):
    """A capital with a digit before a plural noun is the thing's kind, not a street name ("4 Rose Row")."""
    from ibachat.agent.reading.frame import read_frame

    assert [(a.value, a.noun) for a in read_frame(text).amounts] == [(count, noun)]


@pytest.mark.parametrize(
    ("enum", "said", "value"),
    [
        (
            ["room_only", "bed_and_breakfast", "half_board"],
            "just the room please, we'll eat out",
            "room_only",
        ),
        (
            ["wash_only", "wash_and_wax", "full_valet"],
            "only a wash this time, it's going back soon",
            "wash_only",
        ),
        (["mot_only", "interim", "full", "mot_and_full"], "just the MOT this time", "mot_only"),
        (["room_only", "bed_and_breakfast"], "not just the room, we want breakfast too", None),
    ],
)
def test_a_value_of_one_thing_alone_is_named_by_just_or_only(enum, said, value):
    """'just the MOT' names ``mot_only``: a value of a thing and "only", said the other way round."""
    from ibachat.agent.alignment.values.choices import named_value

    got = named_value({"enum": enum}, said)
    assert (got[0] if got else None) == value


@pytest.mark.parametrize(
    ("said", "label"),
    [
        ("next time tell her to leave a good bit more on top", "too little"),
        ("make the delivery window a bit earlier next time", "not early enough"),
        ("next time go for a smaller pot, it swamped the plant", "not small enough"),
        ("in future a quieter carriage please", "not quiet enough"),
        ("next time a bit less ice please", "too much"),
    ],
)
def test_a_wish_for_next_time_with_a_comparative_is_a_complaint(said, label):
    assert [c.label for c in complaints(said)] == [label]


@pytest.mark.parametrize(
    "said",
    [
        "next time we should invite her brother",
        "from now on i'll do the shopping myself",
        "the next one is on me",
    ],
)
def test_next_time_without_a_comparative_is_no_complaint(said):
    assert complaints(said) == []
