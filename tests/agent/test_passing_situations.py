"""A passing situation the user tells of, with how long it lasts, is kept as a state that ends when said;
a value of a single past call made while it lasted is not reused once it has ended: the plan asks.
On the code before, nothing was kept of "my nephew is staying for the next two weeks", and the
three seats booked for him were booked again as "chosen once before".

Probes in words and domains of our own; none is the example the work started from. The store and
MiniLM are real.
"""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from ibachat.agent.ingest import ingest
from ibachat.agent.planner import Planner
from ibachat.agent.reading.events import SITUATION_DIM, extract_events
from memory.memory import Memory
from memory.types import Turn
from tests.agent.histories import History, call

T = datetime(2026, 3, 2, 9, 0, tzinfo=timezone.utc)


def _situations(text: str) -> list:
    turn = Turn(id=1, session_id="s", role="user", text=text, time=T)
    return [e for e in extract_events([turn]) if e.dimension == SITUATION_DIM]


@pytest.mark.parametrize(
    ("text", "days"),
    [
        ("my nephew is staying with me for the next two weeks while his parents are in Lagos", 14),
        ("we're living out of a camper van till the end of the month, the flat's being damp-proofed", 30),
        ("the office is closed for a fortnight, so I'm working from home", 14),
    ],
)
def test_a_passing_situation_ends_when_said(text, days):
    found = _situations(text)
    assert len(found) == 1
    assert abs((found[0].valid_until - T).days - days) <= 1


@pytest.mark.parametrize(
    "text",
    [
        "I was off sick for two weeks in January",  # told of as past
        "can you book the van until Sunday",  # a request's span
        "how long do builders usually take, two weeks?",  # a question
        "fyi make me a meal plan for the next week.",  # a command, however it opens
        "btw book me a room in Leeds for 2 nights from the 14th",
    ],
)
def test_a_past_event_a_request_or_a_question_is_no_situation(text):
    assert _situations(text) == []


TAXI = {
    "name": "book_taxi",
    "description": "Book a taxi",
    "parameters": {
        "type": "object",
        "properties": {
            "destination": {"type": "string"},
            "passengers": {"type": "integer", "minimum": 1, "maximum": 6},
            "child_seat": {"type": "boolean", "description": "fit a child seat"},
        },
        "required": ["destination", "passengers"],
    },
}


@pytest.fixture(scope="module")
def minilm():
    from memory.embedders.registry import load_embedder

    return load_embedder("minilm")


def _asked_after(tmp_path, minilm, day: float) -> Planner:
    history = History(seed=5).noise(4, 0, 8)
    history.say(
        10, ("user", "my nephew Tayo is staying with me for the next two weeks, his school's on strike")
    )
    history.say(
        11,
        ("user", "get us a cab to the aquarium, me, Tayo and his mate"),
        (
            "assistant",
            "Done: a taxi for 3 to the aquarium.",
            call("book_taxi", destination="the aquarium", passengers=3),
        ),
    )
    history.noise(3, 12, 20)
    memory = Memory.open(tmp_path / "m", embedder=minilm, fsync=False)
    ingest(memory, history.records())
    try:
        return Planner(memory).act("book me a taxi to the station", now=history.at(day, 9), tools=[TAXI])
    finally:
        memory.close()


def test_a_value_chosen_while_a_situation_lasted_is_not_reused_after_it(tmp_path, minilm):
    out = _asked_after(tmp_path, minilm, 40)
    call_ = out.tool_call
    assert call_ is None or call_.arguments.get("passengers") != 3
    assert any("3" in q and "nephew" in q.lower() for q in out.plan.clarifications), out.plan.clarifications


def test_while_it_lasts_the_value_stands(tmp_path, minilm):
    out = _asked_after(tmp_path, minilm, 15)
    assert out.tool_call is not None and out.tool_call.arguments.get("passengers") == 3
