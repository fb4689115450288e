"""An offer to do something, whatever its verb, is what a "no" to it turns down.

Written before the change, in domains unlike the development sets' (car hire, gifts, a speaker, a
gym): the offer had been read only after "want me to book/get/order/add", so "Want me to switch on
the heated seats?" answered "god no" turned down nothing. An offer with no thing in it ("Shall I go
ahead?") turns down nothing either.
"""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from ibachat.agent.ingest import ingest
from ibachat.agent.planner import Planner
from ibachat.agent.reading.open_events import open_events
from memory.memory import Memory
from memory.store import Turn
from tests.agent.histories import History

WHEN = datetime(2025, 3, 3, 9, tzinfo=timezone.utc)


def _declined(offer: str, reply: str) -> list[str]:
    events = open_events(Turn(5, "s", "user", reply, WHEN), offer)
    return [e.value for e in events if e.polarity < 0 and e.reason.startswith("open: declined")]


@pytest.mark.parametrize(
    ("offer", "reply", "thing"),
    [
        (
            "Car's booked. Want me to switch on the heated seats for the drive?",
            "god no, i overheat",
            "heated seats",
        ),
        ("Shall I throw in gift wrap for the scarf?", "nah", "gift wrap"),
        ("Done. Do you want me to turn up the bass on the kitchen speaker?", "please no", "bass"),
        ("Would you like me to sign you up for the spin class newsletter too?", "hard pass", "newsletter"),
    ],
)
def test_a_no_turns_down_what_the_offer_would_do(offer, reply, thing):
    assert any(thing in v for v in _declined(offer, reply))


@pytest.mark.parametrize("offer", ["Shall I go ahead?", "Want me to do that now?", "Should I check again?"])
def test_an_offer_with_no_thing_in_it_turns_down_nothing(offer):
    assert _declined(offer, "no") == []


HIRE = {
    "name": "hire_car",
    "description": "Hire a car for a trip",
    "parameters": {
        "type": "object",
        "properties": {
            "town": {"type": "string"},
            "seat_heating": {"type": "string", "enum": ["heated seats on", "off"]},
        },
        "required": ["town", "seat_heating"],
    },
}


def test_the_declined_offer_sets_the_tool_value_that_avoids_it(tmp_path):
    from memory.embedders.registry import load_embedder

    h = History(seed=51).noise(5, 0, 10)
    h.say(
        4,
        ("user", "sort me a hire car for the weekend"),
        ("assistant", "Car's booked. Want me to switch on the heated seats for the drive?"),
        ("user", "god no, i overheat in about five minutes"),
        ("assistant", "Okay."),
    )
    memory = Memory.open(tmp_path / "m", embedder=load_embedder("minilm"), fsync=False)
    try:
        ingest(memory, h.records())
        out = Planner(memory).act("hire me a car in york next week", now=h.at(12, 9), tools=[HIRE])
    finally:
        memory.close()
    assert out.tool_call is not None and out.tool_call.arguments.get("seat_heating") == "off"
