"""A choice told of, then a verdict against doing it again ("went for the X ... never again"), turns down
X: what the past-tense verb did is what the verdict is about. On the code before, the told-of choice was
read as a wish, even as a correction ("went for the shared option ... never again, not worth it" gave
a shared ride, "correction"). A verdict beside a liking said in the present ("I love X, never again
will I sit by the loo") leaves the liking; a choice told of with praise stays a choice.

Probes in words of our own, in domains unlike the example the work started from.
"""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from ibachat.agent.reading.events import extract_events
from memory.types import Turn

T = datetime(2026, 11, 1, 10, 0, tzinfo=timezone.utc)
CAR_WASH = {
    "name": "book_car_wash",
    "description": "Book a car wash",
    "parameters": {
        "type": "object",
        "properties": {"wash": {"type": "string", "enum": ["express", "standard", "deluxe"]}},
    },
}
GYM = {
    "name": "book_gym_class",
    "description": "Book a class at the gym",
    "parameters": {
        "type": "object",
        "properties": {"style": {"type": "string", "enum": ["spin", "pilates", "boxing", "yoga"]}},
    },
}


def _read(text: str, tool: dict, reply: str = "Oh no.") -> dict[str, int]:
    turns = [
        Turn(id=1, session_id="s", role="user", text=text, time=T),
        Turn(id=2, session_id="s", role="assistant", text=reply, time=T),
    ]
    name = tool["name"]
    return {e.value: e.polarity for e in extract_events(turns, tool=tool) if e.dimension.startswith(name)}


@pytest.mark.parametrize(
    ("text", "tool", "value"),
    [
        (
            "tried the express one at the garage, streaks all over the bonnet. never again",
            CAR_WASH,
            "express",
        ),
        (
            "Went for the deluxe wash to impress the in-laws and they still missed the wheels. Not worth it.",
            CAR_WASH,
            "deluxe",
        ),
        ("booked boxing on tuesday and couldn't lift my arms for three days, lesson learned", GYM, "boxing"),
        ("so I booked spin again and my knees were screaming by the end. not doing that again", GYM, "spin"),
    ],
)
def test_what_was_done_before_the_verdict_is_turned_down(text, tool, value):
    assert _read(text, tool).get(value) == -1


@pytest.mark.parametrize(
    ("text", "tool", "value"),
    [
        ("went for the deluxe wash last time, came out like new", CAR_WASH, "deluxe"),
        ("I love pilates, never again will I do a class at 6am", GYM, "pilates"),
    ],
)
def test_a_choice_with_no_verdict_against_it_stands(text, tool, value):
    assert _read(text, tool, "Glad to hear it!").get(value) == 1
