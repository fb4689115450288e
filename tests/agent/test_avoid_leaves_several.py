"""Avoiding one value says nothing about which of several others the user wants.

Written before the fix, on tools unlike the development sets' (a coach seat, a cinema's zones): an
avoided "front" left the default "any", which could be the front, with the reason "default; avoid
front"; now the plan asks among the ones left. "I can't stand aisle seats" sets a seat to window
by the seat attribute's own knowledge (the middle is nobody's wish), and its reason said
"statement: I can't stand aisle seats", as if window had been said; now it says it is implied.
"""

from __future__ import annotations

import pytest

from ibachat.agent.ingest import ingest
from ibachat.agent.planner import Planner
from memory.memory import Memory
from tests.agent.histories import History


def _tool(values):
    return {
        "name": "reserve_coach_seat",
        "description": "Reserve a seat on a long-distance coach",
        "parameters": {
            "type": "object",
            "properties": {
                "berth": {"type": "string", "enum": values, "default": values[0], "description": "seat"},
                "route": {"type": "string"},
            },
            "required": ["route"],
        },
    }


CINEMA = {
    "name": "cinema_seats",
    "description": "Pick seats for a film at the cinema",
    "parameters": {
        "type": "object",
        "properties": {
            "zone": {"type": "string", "enum": ["any", "front", "middle", "back"], "default": "any"},
            "film": {"type": "string"},
        },
        "required": ["film"],
    },
}


@pytest.fixture(scope="module")
def minilm():
    from memory.embedders.registry import load_embedder

    return load_embedder("minilm")


def _act(tmp_path, minilm, said, task, tool):
    h = History(seed=41).noise(5, 0, 10)
    h.say(4, ("user", said), ("assistant", "Noted."))
    memory = Memory.open(tmp_path / "m", embedder=minilm, fsync=False)
    try:
        ingest(memory, h.records())
        return Planner(memory).act(task, now=h.at(12, 9), tools=[tool])
    finally:
        memory.close()


def test_a_seat_implied_by_the_one_avoided_says_it_is_implied(tmp_path, minilm):
    out = _act(
        tmp_path,
        minilm,
        "i can't stand aisle seats, people keep bumping my elbow",
        "reserve me a seat on the coach to bristol",
        _tool(["any", "window", "aisle", "middle"]),
    )
    # the seat attribute's own knowledge: someone who avoids the aisle wants the window, not the middle
    call = out.tool_call
    assert call is not None and call.arguments.get("berth") == "window"
    assert "implied" in call.reasons["berth"] and not call.reasons["berth"].startswith("statement")


def test_avoiding_one_of_two_seats_takes_the_other_and_says_why(tmp_path, minilm):
    out = _act(
        tmp_path,
        minilm,
        "i can't stand aisle seats, people keep bumping my elbow",
        "reserve me a seat on the coach to bristol route",
        _tool(["window", "aisle"]),
    )
    assert out.tool_call is not None and out.tool_call.arguments.get("berth") == "window"
    assert "implied" in out.tool_call.reasons["berth"]


def test_an_avoided_zone_leaves_no_any_that_could_be_it(tmp_path, minilm):
    out = _act(
        tmp_path,
        minilm,
        "never put me at the front of a cinema again, my neck was wrecked for days",
        "get me seats for the new dune film",
        CINEMA,
    )
    assert out.tool_call is None or out.tool_call.arguments.get("zone") not in ("any", "front")


def test_a_flag_turned_down_in_the_request_is_the_one_value_left(tmp_path, minilm):
    # the product's own order_food: "skip the cutlery" had sent cutlery=True since d582b1a (fixed);
    # a foreign tool's flag described "include cutlery" got its default True until the request's
    # refusal was read against the flag's description
    kit = {
        "name": "order_takeaway",
        "description": "Order a takeaway meal for delivery",
        "parameters": {
            "type": "object",
            "properties": {
                "shop": {"type": "string"},
                "dishes": {"type": "array", "items": {"type": "string"}},
                "plastic_forks": {"type": "boolean", "default": True, "description": "include cutlery"},
            },
            "required": ["shop", "dishes"],
        },
    }
    memory = Memory.open(tmp_path / "m", embedder=minilm, fsync=False)
    try:
        from datetime import datetime, timezone

        out = Planner(memory).act(
            "order a falafel box from Zaytoon and skip the cutlery",
            now=datetime(2026, 5, 1, 18, tzinfo=timezone.utc),
            tools=[kit],
        )
    finally:
        memory.close()
    assert out.tool_call is not None and out.tool_call.arguments.get("plastic_forks") is not True


def test_a_thing_turned_down_sets_the_flag_its_description_names_either_way(tmp_path, minilm):
    from datetime import datetime, timezone

    kit = {
        "name": "sushi_delivery",
        "description": "Have sushi delivered",
        "parameters": {
            "type": "object",
            "properties": {
                "restaurant": {"type": "string"},
                "rolls": {"type": "array", "items": {"type": "string"}},
                "sticks": {"type": "boolean", "default": True, "description": "add wooden chopsticks"},
                "shellfish_safe": {"type": "boolean", "description": "prepared shellfish-free"},
            },
            "required": ["restaurant", "rolls"],
        },
    }
    memory = Memory.open(tmp_path / "m", embedder=minilm, fsync=False)
    now = datetime(2026, 5, 1, 18, tzinfo=timezone.utc)
    try:
        left_out = Planner(memory).act(
            "order two salmon rolls from Umi and leave out the chopsticks", now=now, tools=[kit]
        )
        refused = Planner(memory).act(
            "order cucumber rolls from Umi, without shellfish please", now=now, tools=[kit]
        )
        mentioned = Planner(memory).act("order cucumber rolls from Umi with chopsticks", now=now, tools=[kit])
    finally:
        memory.close()
    call = left_out.tool_call
    assert call is not None and call.arguments.get("sticks") is False
    assert call.reasons["sticks"] == 'your request: "leave out the chopsticks"'
    call = refused.tool_call
    assert call is not None and call.arguments.get("shellfish_safe") is True
    assert call.arguments.get("sticks") is True and call.reasons["sticks"] == "default"
    # a thing only mentioned is not turned down: the flag keeps its default, said as such
    call = mentioned.tool_call
    assert call is not None and call.arguments.get("sticks") is True and call.reasons["sticks"] == "default"


def test_a_verb_of_leaving_out_turns_its_object_down():
    from ibachat.agent.reading.frame import read_frame

    for text, thing in [
        ("order a falafel box from Zaytoon and skip the cutlery", "cutlery"),
        ("book the Grand for two nights, skip breakfast", "breakfast"),  # "skip" tagged a noun here
        ("a curry from Raj, and leave out the onions", "onions"),
        ("a curry from Raj, and leave the onions out", "onions"),
        ("print the flyers but omit the logo", "logo"),
    ]:
        assert thing in [s.text for s in read_frame(text).refused], text
    for text in (
        "Leave the keys at reception",
        "leave a note for the cleaner",
        "order the skip hire for Monday",
        "order a cake from Crumbs, and don't forget the candles!",  # two turnings-down make a wish
        "I forgot my umbrella at the Odeon",  # what happened, not a command
    ):
        assert read_frame(text).refused == (), text


def test_a_flag_said_with_un_is_left_alone_when_its_thing_is_turned_down():
    from datetime import datetime

    from ibachat.agent.alignment.request_values import stated_values

    movers = {
        "type": "object",
        "properties": {
            "where": {"type": "string"},
            "as_is": {
                "type": "boolean",
                "description": "leave everything unpacked on arrival",
                "default": True,
            },
        },
    }
    said = stated_values(
        movers,
        "book Vans4U for the 3rd to move us to the new house, skip the unpacking, we will do it ourselves",
        datetime(2026, 5, 1),
    )
    assert "as_is" not in said  # "unpacked", and "the unpacking" turned down: which way is not clear
