"""A stretch of hours said with both ends fills a start time and, where the tool has one, a length: the
half of the day comes from either end ("8:30 to 9am"), from the 24-hour clock ("15:00-15:45") or from the
rest of the words ("9 to 11 tomorrow morning", "3-5 this afternoon"); nothing settles "3 to 5" alone, so it
stays a question. A number that counts a thing ("2 to 4 people") is no stretch of hours, and a length said
apart from the stretch ("an hour between 2 and 5pm") is the length. Probes in words of our own; the first
five fail on the code before it (no start, the default 30 minutes, or 16:30 for "between 4 and 4:30pm")."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from ibachat.agent.alignment.request_values import stated_values
from ibachat.agent.execution.tools import as_task_tool, tools_for
from ibachat.agent.reading.frame import read_frame
from ibachat.agent.reading.when import read_when

NOW = datetime(2026, 12, 1, 10, 0, tzinfo=timezone.utc)  # a Tuesday


def _params(name: str) -> dict:
    return next(as_task_tool(t) for t in tools_for() if t.name == name)["parameters"]


def _values(tool: str, text: str) -> dict:
    return {k: v.value for k, v in stated_values(_params(tool), text, NOW).items()}


@pytest.mark.parametrize(
    ("text", "start", "minutes"),
    [
        ("keep 9 to 11 on thursday morning clear for the budget review", "09:00", 120),
        ("pop the supplier call in between 4 and 4:30pm friday", "16:00", 30),
        ("add a 1:1 with Noor 15:00-15:45 next wednesday", "15:00", 45),
        ("hold 8:30 to 9am tomorrow for the stand-up", "08:30", 30),
        ("put 3-5 this afternoon aside for reading contracts", "15:00", 120),
        ("block 11 to 1pm on monday for the offsite prep", "11:00", 120),
        ("a planning session from 10am until noon tomorrow", "10:00", 120),
    ],
)
def test_a_stretch_of_hours_is_a_start_and_a_length(text, start, minutes):
    got = _values("create_event", text)
    assert (got.get("start_time"), got.get("duration_minutes")) == (start, minutes), got


def test_the_reason_quotes_the_stretch():
    said = stated_values(_params("create_event"), "hold 8:30 to 9am tomorrow for the stand-up", NOW)
    assert "8:30 to 9am" in said["start_time"].quote and "8:30 to 9am" in said["duration_minutes"].quote


def test_a_length_said_apart_is_the_length_and_the_stretch_a_window():
    got = _values("create_event", "find me 45 minutes between 1 and 4pm on friday for a haircut call")
    assert got.get("duration_minutes") == 45 and got.get("start_time") == "13:00"


def test_a_count_of_things_is_no_stretch_of_hours():
    text = "a table for 6 to 8 guests at Olive tomorrow evening at 8"
    assert read_frame(text).ranges == ()
    assert _values("book_table", text).get("time") == "20:00"


def test_nothing_settles_the_half_of_a_bare_stretch():
    got = _values("create_event", "block 3 to 5 on the 9th for the school run")
    assert "start_time" not in got and "duration_minutes" not in got


def test_a_single_hour_said_with_a_stretch_needs_no_question():
    assert read_when("hold 8:30 to 9am tomorrow", NOW).question is None
    assert read_when("meet at 8:30 tomorrow", NOW).question is not None  # a bare hour still asks


SHIFT = {
    "type": "object",
    "properties": {  # listed end first: the order a schema gives says nothing of which is which
        "finish_time": {"type": "string", "pattern": "^([01][0-9]|2[0-3]):[0-5][0-9]$"},
        "start_time": {"type": "string", "pattern": "^([01][0-9]|2[0-3]):[0-5][0-9]$"},
        "date": {"type": "string", "format": "date"},
    },
}


@pytest.mark.parametrize(
    ("text", "start", "end"),
    [
        ("dog sitter friday 6pm till midnight please", "18:00", "00:00"),
        ("cover my stall saturday 9am to 1pm", "09:00", "13:00"),
        ("someone to mind the shop on sunday from 10 till 4pm", "10:00", "16:00"),
        ("just the start, sunday at 2pm", "14:00", None),
    ],
)
def test_a_stretch_of_hours_fills_a_start_and_an_end(text, start, end):
    got = {k: v.value for k, v in stated_values(SHIFT, text, NOW).items()}
    assert (got.get("start_time"), got.get("finish_time")) == (start, end)
