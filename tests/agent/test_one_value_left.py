"""A required choice where the user turned down every value but one is put to them as that one value,
yes or no ("Should I use lounge for seating?"), and "yes" fills it (session 30: the question had listed
one option as if it were a choice, and "yes" answered nothing). In a tool written for this test."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from ibachat.agent.execution.clarify import read_answer
from ibachat.agent.planner import Planner
from memory.memory import Memory

NOW = datetime(2026, 6, 2, 9, 0, tzinfo=timezone.utc)  # a Tuesday
FERRY = {
    "name": "book_ferry",
    "description": "Book a ferry crossing",
    "parameters": {
        "type": "object",
        "properties": {
            "date": {"type": "string", "format": "date"},
            "seating": {
                "type": "string",
                "enum": ["cabin", "reclining_seat", "lounge"],
                "description": "where you sit or sleep on board",
            },
        },
        "required": ["date", "seating"],
    },
}


def test_the_one_value_left_is_put_and_a_yes_takes_it(tmp_path):
    planner = Planner(Memory.open(tmp_path, embedder="minilm", fsync=False), None)
    out = planner.act(
        "book the ferry on friday, no cabin and not a reclining seat either", now=NOW, tools=[FERRY]
    )
    assert out.question == "Should I use lounge for seating?", out.question
    answered = planner.act("yes please", now=NOW, tools=[FERRY], pending=out.pending)
    assert answered.tool_call is not None, answered.question
    assert answered.tool_call.arguments == {"date": "2026-06-05", "seating": "lounge"}


@pytest.mark.parametrize(
    ("reply", "value"), [("yep", "lounge"), ("lounge", "lounge"), ("no", None), ("hmm", None)]
)
def test_a_reply_to_one_value_put(reply, value):
    prop = FERRY["parameters"]["properties"]["seating"]
    assert read_answer(reply, "Should I use lounge for seating?", prop) == value
