"""An injury in force rules out the offered values that need the injured part, whatever the habit: a
sprained shoulder leaves no kayaking, a knee in a brace no spin class. One value left is taken for that
reason; more are offered in one question; the request's own choice stands; a healed injury rules out
nothing. Written in domains unlike the development sets' (activities, day trips, gym classes).
"""

from __future__ import annotations

import pytest

TRIP = {
    "name": "book_activity",
    "description": "Book a holiday activity",
    "parameters": {
        "type": "object",
        "properties": {"activity": {"enum": ["sea_kayaking", "tennis_lesson", "walking_tour"]}},
        "required": ["activity"],
    },
}
GYM = {
    "name": "book_class",
    "description": "Book a class at the gym",
    "parameters": {
        "type": "object",
        "properties": {"class_type": {"enum": ["spin", "yoga", "swimming", "running_club"]}},
        "required": ["class_type"],
    },
}


@pytest.fixture(scope="module")
def minilm():
    from memory.embedders.registry import load_embedder

    return load_embedder("minilm")


def _act(tmp_path, minilm, tool, habit, hurt, request, hurt_day=20, now_day=24):
    from ibachat.agent.ingest import ingest
    from ibachat.agent.planner import Planner
    from memory.memory import Memory
    from tests.agent.histories import History, call

    h = History(seed=12).noise(4, 0, 30)
    name, param = tool["name"], next(iter(tool["parameters"]["properties"]))
    h.say(2, ("user", "book it please"), ("tool", "Booked.", call(name, **{param: habit})))
    h.say(hurt_day, ("user", hurt), ("assistant", "Ouch, take care."))
    memory = Memory.open(tmp_path / "m", embedder=minilm, fsync=False)
    try:
        ingest(memory, h.records())
        return Planner(memory).act(request, now=h.at(now_day, 10), tools=[tool])
    finally:
        memory.close()


def test_one_value_left_is_taken_for_the_injury(tmp_path, minilm):
    out = _act(
        tmp_path,
        minilm,
        TRIP,
        "sea_kayaking",
        "I fell off my bike and sprained my shoulder, sling for three weeks",
        "book me an activity for tomorrow",
    )
    assert out.tool_call is not None and out.tool_call.arguments.get("activity") == "walking_tour", (
        out.plan.params
    )
    assert "sprained my shoulder" in out.tool_call.reasons["activity"]


def test_several_left_are_asked_about(tmp_path, minilm):
    out = _act(
        tmp_path,
        minilm,
        GYM,
        "spin",
        "tore something in my knee at football, it's in a brace for a month",
        "book my usual class",
    )
    got = out.tool_call.arguments.get("class_type") if out.tool_call else None
    assert got not in ("spin", "running_club"), out.plan.params
    assert got is not None or "yoga" in (out.question or "")


def test_the_request_s_own_choice_stands(tmp_path, minilm):
    out = _act(
        tmp_path,
        minilm,
        GYM,
        "yoga",
        "tore something in my knee at football, it's in a brace for a month",
        "book me a spin class",
    )
    assert out.tool_call is not None and out.tool_call.arguments.get("class_type") == "spin"


def test_a_healed_injury_rules_out_nothing(tmp_path, minilm):
    out = _act(
        tmp_path,
        minilm,
        TRIP,
        "sea_kayaking",
        "sprained my shoulder, sling for a week",
        "book me an activity for tomorrow",
        hurt_day=5,
        now_day=29,
    )
    got = out.tool_call.arguments.get("activity") if out.tool_call else None
    assert got != "walking_tour" or "shoulder" not in out.tool_call.reasons.get("activity", ""), (
        out.plan.params
    )
