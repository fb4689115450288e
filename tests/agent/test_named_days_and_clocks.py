"""A day said by its name ("on Boxing Day", "for Easter Sunday") is that day, dated by the ``holidays``
library; a name of a day nothing dates becomes a question; a name that is part of a longer name, a
sport or a thing is no day at all. On the code before, a time said with a holiday went to its next
occurrence (today or tomorrow), and the day was never read.

Minutes past or to an hour ("20 past 4", "ten to eight") are that clock time, not an hour of their own.

Probes in words of our own, on tools of several kinds; none of them is the example the work started
from.
"""

from __future__ import annotations

from datetime import date, datetime, timezone

import pytest

from ibachat.agent.alignment.request_values import stated_values
from ibachat.agent.execution.tools import as_task_tool, tools_for
from ibachat.agent.reading.when import read_when

NOW = datetime(2026, 12, 1, 10, 0, tzinfo=timezone.utc)  # a Tuesday


@pytest.fixture(autouse=True)
def _no_locale(monkeypatch):
    """The fallback calendar (the UK's and the US's days together), whatever this machine's locale."""
    for var in ("IBACHAT_COUNTRY", "LC_ALL", "LC_TIME", "LANG"):
        monkeypatch.delenv(var, raising=False)


def _params(name: str) -> dict:
    return next(as_task_tool(t) for t in tools_for() if t.name == name)["parameters"]


@pytest.mark.parametrize(
    ("text", "day", "clock"),
    [
        ("put the bins reminder on Boxing Day at 9am", date(2026, 12, 26), "09:00"),
        ("a taxi to my gran's on Christmas Day at 11am", date(2026, 12, 25), "11:00"),
        ("lunch for 8 on Easter Sunday at 1pm", date(2027, 3, 28), "13:00"),
        ("need a car for Halloween, 6pm pickup", date(2027, 10, 31), "18:00"),
        ("drinks with the team on New Year's Eve at 9pm", date(2026, 12, 31), "21:00"),
        ("flowers delivered on valentines day at noon", date(2027, 2, 14), "12:00"),
        ("a table for Thanksgiving at 5pm", date(2027, 11, 25), "17:00"),
    ],
)
def test_a_day_by_its_name_is_that_day(text, day, clock):
    when = read_when(text, NOW)
    assert (when.day, when.time, when.question) == (day, clock, None), when


@pytest.mark.parametrize(
    "text",
    [
        "remind me on Founders Day at 8am",  # a day by name that the calendar does not hold
        "book a class on Eid at 10am",
    ],
)
def test_a_name_nothing_dates_is_asked_about_never_today(text):
    when = read_when(text, NOW)
    assert when.day is None and when.question and "Which day" in when.question, when


def test_next_with_a_name_asks_which_year():
    when = read_when("book somewhere nice for next Christmas at 1pm", NOW)
    assert when.day is None and "2026" in when.question and "2027" in when.question, when


@pytest.mark.parametrize(
    ("text", "day"),
    [
        ("a table at Christmas Tree Inn tonight at 7pm", NOW.date()),  # the first words of a longer name
        ("sign me up for boxing on Friday at 6pm", date(2026, 12, 4)),  # a sport, not Boxing Day
        ("remind me to ring Eve at 6pm", NOW.date()),  # a person
        ("book a table on Main Street at 7pm", NOW.date()),  # a street
    ],
)
def test_a_name_that_is_no_day_changes_nothing(text, day):
    when = read_when(text, NOW)
    assert when.day == day and when.question is None, when


def test_the_users_country_dates_a_name_its_own_way(monkeypatch):
    """Mother's Day is in May in the US and is not the UK's name for its own Sunday in March."""
    monkeypatch.setenv("IBACHAT_COUNTRY", "US")
    assert read_when("brunch for mum on Mother's Day at 11am", NOW).day == date(2027, 5, 9)
    monkeypatch.setenv("IBACHAT_COUNTRY", "GB")
    when = read_when("a table for mum on Mother's Day at noon", NOW)
    assert when.day is None and when.question, when


def test_a_named_day_reaches_the_tool_call_values():
    said = stated_values(_params("set_reminder"), "remind me on Boxing Day at 10am to return the jumper", NOW)
    assert said["when"].value.startswith("2026-12-26T10:00"), said["when"]
    assert "Boxing Day" in said["when"].quote


@pytest.mark.parametrize(
    ("text", "clock", "asks"),
    [
        ("a cab at 20 past 4 this afternoon", "16:20", False),
        ("wake-up call at twenty-five past six tomorrow morning", "06:25", False),
        ("drinks at ten to eight tonight", "19:50", False),
        ("the bins go out at 5 past 7", None, True),  # which half of the day: asked, as a bare hour is
    ],
)
def test_minutes_past_or_to_an_hour_are_that_clock(text, clock, asks):
    """On the code before, "at 20" of "at 20 past 4" was read as the hour (8pm, or a question about 20)."""
    when = read_when(text, NOW)
    assert when.time == clock and bool(when.question) == asks, when


@pytest.mark.parametrize(
    "text", ["a table for five to seven people at 8pm", "from 3 to 5 on Friday afternoon"]
)
def test_a_range_is_no_minutes_to_an_hour(text):
    when = read_when(text, NOW)
    assert when.time in ("20:00", None) and ":5" not in (when.time or ""), when
