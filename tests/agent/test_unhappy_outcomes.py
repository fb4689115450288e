"""An outcome the user was unhappy with is not repeated as "chosen once before".

Written before the mechanism, in domains unlike the development sets' (heating, a barber, a
dog walker, a plant-watering timer). The user's reaction to what the assistant did says it went
badly without saying which way to move ("woke up drenched, awful night"), or only the assistant's
apology shows it was a complaint ("my fringe is basically gone now" / "Sorry about that"). The
value of that outcome is then neither reused nor defaulted back to: the plan asks. Praise, talk of
something else (even sad talk, met with sympathy), or a later call the user made since, leave the
value standing. The store and MiniLM are real.
"""

from __future__ import annotations

import pytest

from ibachat.agent.ingest import ingest
from ibachat.agent.planner import Planner
from ibachat.agent.reading.outcomes import OUTCOME_DIM
from memory.memory import Memory
from tests.agent.histories import History, call

HEATING = {
    "name": "set_heating",
    "description": "Set the home heating for the night",
    "parameters": {
        "type": "object",
        "properties": {
            "target_c": {
                "type": "integer",
                "minimum": 14,
                "maximum": 28,
                "default": 25,
                "description": "room temperature to hold overnight, in degrees Celsius (default 25)",
            },
            "start": {"type": "string", "pattern": "^[0-2][0-9]:[0-5][0-9]$", "description": "HH:MM"},
        },
        "required": ["target_c"],
    },
}
BARBER = {
    "name": "barber_booking",
    "description": "Book a haircut at the barber's",
    "parameters": {
        "type": "object",
        "properties": {
            "cut": {"type": "string", "enum": ["trim", "short back and sides", "buzz", "restyle"]},
            "day": {"type": "string", "format": "date"},
        },
        "required": ["cut"],
    },
}


@pytest.fixture(scope="module")
def minilm():
    from memory.embedders.registry import load_embedder

    return load_embedder("minilm")


def _home(tmp_path, minilm, *sessions):
    history = History(seed=23).noise(6, 0, 30)
    for day, turns in sessions:
        history.say(day, *turns)
    history.noise(3, 31, 40)
    memory = Memory.open(tmp_path / "m", embedder=minilm, fsync=False)
    ingest(memory, history.records())
    return memory, history


HEAT_CALL = (
    "assistant",
    "Done: the heating holds 25 degrees from 22:00 tonight.",
    call("set_heating", target_c=25, start="22:00"),
)


def _heating(tmp_path, minilm, reaction: str, reply: str, *, again: bool = False):
    sessions = [
        (10, [("user", "warm the house up for tonight please"), HEAT_CALL]),
        (11, [("user", reaction), *([("assistant", reply)] if reply else [])]),
    ]
    if again:
        sessions.append(
            (
                20,
                [
                    ("user", "heating on for tonight"),
                    (
                        "assistant",
                        "Done: 25 degrees from 22:00.",
                        call("set_heating", target_c=25, start="22:00"),
                    ),
                ],
            )
        )
    memory, history = _home(tmp_path, minilm, *sessions)
    try:
        outcome = [e for e in memory.ledger.all() if e.dimension == OUTCOME_DIM]
        out = Planner(memory).act("put the heating on for tonight", now=history.at(41, 18), tools=[HEATING])
    finally:
        memory.close()
    return outcome, out


def test_a_reaction_that_says_it_went_badly_is_not_repeated(tmp_path, minilm):
    outcome, out = _heating(
        tmp_path,
        minilm,
        "woke up at 3am drenched in sweat with the heating on, awful night",
        "That heating was set to 25.",
    )
    assert [e for e in outcome if "drenched" in e.subject], "the reaction is read as an unhappy outcome"
    call_ = out.tool_call
    assert call_ is None or call_.arguments.get("target_c") != 25
    assert any("25" in q for q in out.plan.clarifications), out.plan.clarifications


def test_praise_keeps_the_value(tmp_path, minilm):
    outcome, out = _heating(
        tmp_path, minilm, "the heating last night was lovely, slept like a baby", "Glad to hear it!"
    )
    assert not [e for e in outcome if "heating" in e.subject]
    assert out.tool_call is not None and out.tool_call.arguments.get("target_c") == 25


def test_sad_news_met_with_sympathy_is_no_complaint(tmp_path, minilm):
    outcome, out = _heating(
        tmp_path,
        minilm,
        "ugh my knee is killing me today, can barely walk to the kitchen",
        "Sorry to hear that, I hope it eases soon.",
    )
    assert not [e for e in outcome if "fault" in e.reason]
    assert out.tool_call is not None and out.tool_call.arguments.get("target_c") == 25


def test_a_call_made_since_the_complaint_stands(tmp_path, minilm):
    _, out = _heating(
        tmp_path,
        minilm,
        "the heating was horrible last night, i couldn't sleep at all",
        "Sorry about that.",
        again=True,
    )
    assert out.tool_call is not None and out.tool_call.arguments.get("target_c") == 25


def test_an_apology_shows_a_reaction_was_a_complaint(tmp_path, minilm):
    memory, history = _home(
        tmp_path,
        minilm,
        (
            12,
            [
                ("user", "book me in at the barber's for saturday"),
                (
                    "assistant",
                    "Booked: a buzz cut on Saturday.",
                    call("barber_booking", cut="buzz", day="2025-01-18"),
                ),
            ],
        ),
        (
            15,
            [
                ("user", "the barber took the lot off, my fringe is basically gone now"),
                ("assistant", "Sorry about that, I should have asked before picking the cut."),
            ],
        ),
    )
    try:
        outcome = [e for e in memory.ledger.all() if e.dimension == OUTCOME_DIM]
        out = Planner(memory).act("book another haircut for next week", now=history.at(41, 9), tools=[BARBER])
    finally:
        memory.close()
    assert [e for e in outcome if "fringe" in e.subject and "fault" in e.reason]
    assert out.tool_call is None or out.tool_call.arguments.get("cut") != "buzz"
    asked = " ".join(out.plan.clarifications)
    assert "buzz" in asked and "trim" in asked


@pytest.mark.parametrize(
    "reaction",
    [
        "we were roasting in bed all night, terrible sleep",
        pytest.param(
            "the house felt like a furnace all night, i barely slept",
            marks=pytest.mark.xfail(
                strict=True, reason="VADER reads it +0.36 ('like') and there is no reply: no sign"
            ),
        ),
        pytest.param(
            "i woke up soaked in sweat and had to throw the duvet off, horrible night",
            marks=pytest.mark.xfail(
                strict=True, reason="MiniLM puts it 0.18 from the heating call, under OUTCOME_BEAR_MIN 0.25"
            ),
        ),
    ],
)
def test_a_reaction_that_names_nothing_of_the_call_is_matched_by_meaning(tmp_path, minilm, reaction):
    outcome, out = _heating(tmp_path, minilm, reaction, "")
    assert [e for e in outcome if "set_heating" in e.value]
    assert out.tool_call is None or out.tool_call.arguments.get("target_c") != 25


def test_an_apology_for_something_else_is_no_complaint_about_the_outcome(tmp_path, minilm):
    outcome, out = _heating(
        tmp_path, minilm, "the heating came on at ten as planned", "Sorry again about the boiler engineer."
    )
    assert not [e for e in outcome if "heating" in e.subject]
    assert out.tool_call is not None and out.tool_call.arguments.get("target_c") == 25


def test_a_complaint_that_says_too_hot_turns_the_heating_down(tmp_path, minilm):
    _, out = _heating(tmp_path, minilm, "the bedroom was far too hot last night", "Noted.")
    value = out.tool_call.arguments.get("target_c") if out.tool_call else None
    assert value is not None and value < 25, out.plan.params["target_c"]


LIGHTS = {
    "name": "set_room_lights",
    "description": "Set the smart lights in a room",
    "parameters": {
        "type": "object",
        "properties": {
            "room": {"type": "string", "enum": ["living_room", "kitchen", "bedroom"]},
            "brightness_percent": {"type": "integer", "enum": [10, 30, 50, 70, 100]},
        },
        "required": ["room", "brightness_percent"],
    },
}


def test_a_call_made_without_words_is_known_by_the_turns_around_it(tmp_path, minilm):
    """A call stored as a bare tool call (no words of its own) is what a reaction is about by the
    request before it and the report after it: on the code before, "the lamps" named nothing of an
    empty turn, and the reaction is not near the tool's name alone: the 30 was reused as "chosen once
    before"."""
    sessions = [
        (
            10,
            [
                ("user", "can you put the living room lamps on low for the film"),
                ("assistant", "", call("set_room_lights", room="living_room", brightness_percent=30)),
                ("assistant", "Done: living room lamps at 30%."),
            ],
        ),
        (
            11,
            [
                (
                    "user",
                    "could barely find my popcorn during the film, and I walked straight into the coffee table",
                ),
                ("assistant", "Sorry about that! I'll remember for the next film night."),
            ],
        ),
    ]
    memory, history = _home(tmp_path, minilm, *sessions)
    try:
        out = Planner(memory).act("film night again, do the lights", now=history.at(41, 18), tools=[LIGHTS])
    finally:
        memory.close()
    call_ = out.tool_call
    assert call_ is None or call_.arguments.get("brightness_percent") != 30
    assert any("30" in q for q in out.plan.clarifications), out.plan.clarifications
