"""Two readings of "for" (session 30): "for Dad" says whom a thing is for, never its title ("it's for
Dad" had put a library hold on a book called "Dad"), and "for a fortnight from Monday" says how long,
from Monday (it had been read as the day a fortnight after Monday). Tools written for these tests;
each first check failed before this change, the second is its guard."""

from __future__ import annotations

from datetime import datetime, timezone

from ibachat.agent.alignment.request_values import stated_values
from ibachat.agent.reading.when import read_when

NOW = datetime(2026, 12, 1, 10, 0, tzinfo=timezone.utc)  # a Tuesday
HOLD = {
    "type": "object",
    "properties": {
        "title": {"type": "string", "description": "title of the book"},
        "branch": {"type": "string", "description": "library branch"},
    },
}


def test_whom_a_thing_is_for_is_no_title():
    said = stated_values(HOLD, "reserve the latest Mick Herron at Hove Library, it's for Grandma", NOW)
    assert said.get("title") is None or said["title"].value != "Grandma", said


def test_a_title_after_for_is_still_one():
    said = stated_values(HOLD, "put a hold on a copy for Wolf Hall at Hove Library", NOW)
    assert said["title"].value == "Wolf Hall", said


def test_for_how_long_from_a_day_starts_that_day():
    assert read_when("hire a cement mixer for a fortnight from Monday", NOW).day.isoformat() == "2026-12-07"
    assert read_when("hire a cement mixer a fortnight from Monday", NOW).day.isoformat() == "2026-12-21"
