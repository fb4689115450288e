"""A range or a choice of amounts ("5 or 6 of us", "four to five nights", "2-3 tickets", "between 7 and 9
people") gives a parameter that takes one amount no value: either end may be meant, so the assistant
asks which, in one short question, and takes the number the user answers. A bound takes its own end
("£80 to £120 a night" for a highest price: 120). One amount said stays the value. Probes in words of our
own, on tools and voices the development probes did not use; on the code before, the first end or the
last was taken as said, "2-3" and "7-9" read as a day of a month, and "between 7 and 9 people" as hours.
"""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from ibachat.agent.alignment.request_values import range_questions, stated_values
from ibachat.agent.execution.clarify import read_answer
from ibachat.agent.execution.tools import as_task_tool, tools_for
from ibachat.agent.reading.frame import read_frame

NOW = datetime(2026, 12, 1, 10, 0, tzinfo=timezone.utc)  # a Tuesday


def _params(name: str) -> dict:
    return next(as_task_tool(t) for t in tools_for() if t.name == name)["parameters"]


@pytest.mark.parametrize(
    ("text", "low", "high", "noun"),
    [
        ("we'll be 7-9 people, give or take", 7, 9, "people"),
        ("a table for between 7 and 9 people", 7, 9, "people"),
        ("5 or 6 of us", 5, 6, "people"),
        ("four to five nights in Lisbon", 4, 5, ""),
        ("2 to 3 hours of tennis", 2, 3, "tennis"),
    ],
)
def test_a_range_of_amounts_is_read_with_both_ends(text, low, high, noun):
    amounts = read_frame(text).amounts
    assert [(a.other, a.value, a.noun) for a in amounts] == [(low, high, noun)], amounts


@pytest.mark.parametrize(
    ("tool", "text", "param", "question"),
    [
        ("book_table", "reserve a table at Dishoom for 5 or 6 of us tomorrow at 8pm", "party_size", "5 or 6"),
        (
            "book_table",
            "a table at Nopi on Thursday at 7pm for between 7 and 9 people",
            "party_size",
            "7 or 9",
        ),
        ("book_hotel", "Lisbon hotel, four to five nights from the 12th", "nights", "4 or 5"),
        ("book_tickets", "buy 2-3 tickets for the comedy night on Saturday", "quantity", "2 or 3"),
    ],
)
def test_a_range_for_one_amount_is_a_question_not_a_value(tool, text, param, question):
    schema = _params(tool)
    assert param not in stated_values(schema, text, NOW)
    asked = range_questions(schema, text, NOW)
    assert question in asked.get(param, ""), asked


def test_a_bound_takes_its_own_end_of_a_range():
    said = stated_values(
        _params("book_hotel"), "hotel in Oslo from the 3rd for 3 nights, £80 to £120 a night", NOW
    )
    assert said["max_price_per_night"].value == 120
    assert said["nights"].value == 3


def test_one_amount_said_is_the_value_and_asks_nothing():
    schema = _params("book_table")
    text = "a table for 9 at Nopi on Thursday at 7pm"
    assert stated_values(schema, text, NOW)["party_size"].value == 9
    assert range_questions(schema, text, NOW) == {}


@pytest.mark.parametrize(("reply", "value"), [("6", 6), ("make it 7", 7), ("the second", 6), ("8 people", 8)])
def test_the_number_answered_is_the_value(reply, value):
    prop = {"type": "integer", "minimum": 1, "maximum": 20}
    assert read_answer(reply, "For party size, do you want 5 or 6?", prop) == value


def test_the_planner_asks_before_it_books(minilm_planner):
    planner, tools = minilm_planner
    out = planner.act("reserve a table at Dishoom for 5 or 6 of us tomorrow at 8pm", now=NOW, tools=tools)
    assert out.question and "5 or 6" in out.question, out.question


@pytest.fixture(scope="module")
def minilm_planner(tmp_path_factory):
    from ibachat.agent.meaning import catalogue
    from ibachat.agent.planner import Planner
    from memory.memory import Memory

    mem = Memory.open(tmp_path_factory.mktemp("home"), embedder="minilm")
    yield Planner(mem, None), [dict(t) for t in catalogue()]
    mem.close()
