"""A verb that works a device ("run", "play", "walk") asks a tool for its act when what it works is the very
thing the tool is named for: "run the dishwasher on eco" of a tool named for a dishwasher, "run a wool
wash" of one named for washes. On the code before, "run" was no act of a tool whose own verb is "start",
and the request was answered in text. A thing the tool is not named for ("run a bath", "run the numbers")
is still no act of it, nor is a device verb that works against the thing ("skip the dishwasher").

Probes in words of our own; the store is empty and MiniLM is real.
"""

from __future__ import annotations

import pytest

DISHWASHER = {
    "name": "start_dishwasher",
    "description": "Start a programme on the connected dishwasher",
    "parameters": {
        "type": "object",
        "properties": {"programme": {"type": "string", "enum": ["eco", "intensive", "quick"]}},
    },
}
SPRINKLER = {
    "name": "start_sprinkler",
    "description": "Start watering a zone of the garden",
    "parameters": {
        "type": "object",
        "properties": {"zone": {"type": "string"}, "minutes": {"type": "integer"}},
    },
}


@pytest.mark.parametrize(
    ("text", "tool"),
    [
        ("run the dishwasher on eco before bed", "start_dishwasher"),
        ("could you run the sprinkler on the back lawn for 20 mins", "start_sprinkler"),
    ],
)
def test_a_device_verb_on_the_thing_the_tool_is_named_for_is_its_act(empty_planner, text, tool):
    r = empty_planner.route(text, [DISHWASHER, SPRINKLER])
    assert r.kind == "tool" and r.tool["name"] == tool, r.why


@pytest.mark.parametrize(
    "text",
    [
        "run a bath for me",
        "run the numbers on this quote",
        "I ran the dishwasher twice",
        "skip the dishwasher tonight, it's half empty",
    ],
)
def test_a_device_verb_on_anything_else_is_no_act(empty_planner, text):
    assert empty_planner.route(text, [DISHWASHER, SPRINKLER]).kind == "text"
