"""A tool written by someone else may say a parameter's form in its description ("YYYY-MM-DD") and give
no JSON-schema ``format``: the day the request names still fills it. In tools written for these tests
(a kennel, a skip, a tuning visit); the call checks failed on the code before this change (the day
was asked for, as if none had been said).
"""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from ibachat.agent.execution.formats import stated_format, with_formats
from ibachat.agent.planner import Planner
from memory.memory import Memory

NOW = datetime(2026, 5, 12, 9, 0, tzinfo=timezone.utc)  # a Tuesday


@pytest.mark.parametrize(
    ("prop", "fmt"),
    [
        ({"type": "string", "description": "drop-off day, YYYY-MM-DD"}, "date"),
        ({"type": "string", "description": "when the skip arrives (ISO 8601 date and time)"}, "date-time"),
        ({"type": "string", "description": "arrival, YYYY-MM-DD HH:MM"}, "date-time"),
        ({"type": "string", "pattern": r"^\d{4}-\d{2}-\d{2}$"}, "date"),
        ({"type": "string", "pattern": r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$"}, "date-time"),
        ({"type": "string", "description": "the day"}, None),  # no form said: left as it is
        ({"type": "string", "format": "date-time", "description": "YYYY-MM-DD"}, None),  # has one
        ({"type": "string", "enum": ["2026-01-01"], "description": "YYYY-MM-DD"}, None),
    ],
)
def test_the_form_a_description_states(prop, fmt):
    assert stated_format(prop) == fmt


def test_a_tool_that_states_no_form_is_not_copied():
    tool = {"name": "t", "parameters": {"type": "object", "properties": {"n": {"type": "integer"}}}}
    assert with_formats(tool) is tool


def _kennel() -> dict:
    return {
        "name": "book_kennel_stay",
        "description": "Book a dog into boarding kennels",
        "parameters": {
            "type": "object",
            "properties": {
                "dog_name": {"type": "string", "description": "the dog's name"},
                "drop_off": {"type": "string", "description": "first day of the stay, YYYY-MM-DD"},
                "pick_up": {"type": "string", "description": "last day of the stay, YYYY-MM-DD"},
            },
            "required": ["dog_name", "drop_off", "pick_up"],
        },
    }


def _tuning() -> dict:
    return {
        "name": "book_piano_tuning",
        "description": "Book a piano tuner to visit",
        "parameters": {
            "type": "object",
            "properties": {
                "visit_day": {"type": "string", "pattern": r"^\d{4}-\d{2}-\d{2}$"},
                "instrument": {"type": "string", "enum": ["upright", "grand", "digital"]},
            },
            "required": ["visit_day"],
        },
    }


@pytest.fixture(scope="module")
def planner(tmp_path_factory):
    return Planner(Memory.open(tmp_path_factory.mktemp("home"), embedder="minilm", fsync=False), None)


def test_a_day_in_words_fills_a_parameter_described_as_a_date(planner):
    out = planner.act("get the piano tuner round on friday, it's an upright", now=NOW, tools=[_tuning()])
    assert out.tool_call is not None, out.question
    assert out.tool_call.arguments.get("visit_day") == "2026-05-15", out.tool_call.arguments


def test_two_days_fill_the_start_and_the_end_described_in_words(planner):
    out = planner.act(
        "please book Biscuit in for boarding from the 20th to the 24th of May", now=NOW, tools=[_kennel()]
    )
    assert out.tool_call is not None, out.question
    args = out.tool_call.arguments
    assert (args.get("drop_off"), args.get("pick_up")) == ("2026-05-20", "2026-05-24"), args


def _visit() -> dict:
    return {
        "name": "book_chimney_sweep",
        "description": "Book a chimney sweep to visit the house",
        "parameters": {
            "type": "object",
            "properties": {
                "day": {"type": "string", "format": "date"},
                "arrival": {"type": "string", "pattern": "^([01][0-9]|2[0-3]):[0-5][0-9]$"},
            },
            "required": ["day", "arrival"],
        },
    }


def test_a_required_clock_left_open_is_asked_and_the_answer_fills_it(planner):
    out = planner.act("get the chimney swept thursday afternoon", now=NOW, tools=[_visit()])
    assert out.question is not None and "time on thursday afternoon" in out.question, out.question
    assert out.tool_call is None or "arrival" not in out.tool_call.arguments
    answered = planner.act("half two", now=NOW, tools=[_visit()], pending=out.pending)
    assert answered.tool_call is not None, answered.question
    assert answered.tool_call.arguments == {"day": "2026-05-14", "arrival": "14:30"}
