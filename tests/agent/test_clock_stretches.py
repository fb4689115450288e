"""A stretch of hours whose ends say no half of the day takes it from the words around it; a morning
stretch that ends at 12 ends at midday (session 30: "10 till 12 ... the morning" had been read as 10pm to
midnight, and booked at 22:00). In words written for this test; the first check failed before."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from ibachat.agent.alignment.request_values import stated_values

NOW = datetime(2026, 6, 2, 9, 0, tzinfo=timezone.utc)  # a Tuesday
NETS = {
    "type": "object",
    "properties": {
        "day": {"type": "string", "format": "date"},
        "start_time": {"type": "string", "pattern": "^([01][0-9]|2[0-3]):[0-5][0-9]$"},
        "duration_minutes": {"type": "integer", "description": "length of the booking in minutes"},
    },
}


@pytest.mark.parametrize(
    ("text", "start", "minutes"),
    [
        ("cricket nets saturday 10 till 12, a morning session for the juniors", "10:00", 120),
        ("cricket nets saturday 9 till 11am", "09:00", 120),  # the end says its half: the start takes it
        ("cricket nets saturday 2 till 4 in the afternoon", "14:00", 120),
    ],
)
def test_a_stretch_of_hours_takes_its_half_of_the_day(text, start, minutes):
    got = stated_values(NETS, text, NOW)
    assert (got["start_time"].value, got["duration_minutes"].value) == (start, minutes), got
