"""A day said of an event gone by is not the day the request asks for, when the request says another:
"missed the delivery this morning ... rearrange it for tomorrow" is tomorrow, not today. The clause's
verb decides, from the dependency parse: a past tense ("missed", "never came", "was cancelled"), or a
verb under one ("tried to deliver", "had it booked"). A verb of wanting keeps its day ("I was hoping for
Friday"), and a day said only of a past event stays as read. On the code before, the first day said won.

Probes in words of our own, on several kinds of request; none is the example the work started from.
"""

from __future__ import annotations

from datetime import date, datetime, timezone

import pytest

from ibachat.agent.reading.when import read_when

NOW = datetime(2026, 12, 1, 10, 0, tzinfo=timezone.utc)  # a Tuesday


@pytest.mark.parametrize(
    ("text", "day"),
    [
        ("the vet cancelled on us this morning, can you get Rex seen tomorrow instead", date(2026, 12, 2)),
        (
            "we had the boiler man booked on the 2nd and he never turned up, rebook him for the 16th",
            date(2026, 12, 16),
        ),
        (
            "They tried to fit the blinds this afternoon but nobody was in. Move it to Friday",
            date(2026, 12, 4),
        ),
        ("my piano lesson was cancelled today so put me down for thursday", date(2026, 12, 3)),
        ("I was hoping for Friday, can you book the hairdresser", date(2026, 12, 4)),
        ("book the car in on friday, I called them yesterday", date(2026, 12, 4)),
        ("I booked it for friday", date(2026, 12, 4)),  # the only day said stays
    ],
)
def test_the_day_asked_for_not_the_day_gone_by(text, day):
    assert read_when(text, NOW).day == day


def test_a_part_of_a_past_day_is_no_part_of_the_request():
    when = read_when("they came round this evening while I was out, can they come back on saturday", NOW)
    assert when.day == date(2026, 12, 5)
    assert when.part is None


@pytest.mark.parametrize(
    ("text", "day"),
    [
        # a break between a past verb and the day: the day is not that verb's, however the parse joins them
        ("Book the ferry for the 9th, whichever sailing — we've got the dog with us", date(2026, 12, 9)),
        # the day a correction gives stays the request's, whatever the corrected words read as
        (
            "physio pls, twisted my knee on a run last night, thursday — no wait, friday, I've got the school run thursday",
            date(2026, 12, 4),
        ),
    ],
)
def test_a_day_across_a_break_or_a_correction_stays(text, day):
    assert read_when(text, NOW).day == day


LAMP = {
    "type": "object",
    "properties": {
        "on_time": {"type": "string", "pattern": "^([01][0-9]|2[0-3]):[0-5][0-9]$"},
        "off_time": {"type": "string", "pattern": "^([01][0-9]|2[0-3]):[0-5][0-9]$"},
    },
}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("porch light on at 7pm tonight please", {"on_time": "19:00"}),
        ("porch light from 7 till 11pm tonight", {"on_time": "19:00", "off_time": "23:00"}),
    ],
)
def test_a_clock_fills_the_start_in_the_schema_s_own_order_and_off_is_an_end(text, expected):
    """The parameters are read in the schema's order (before, they were read in alphabetical order, and a
    lone clock went to "off_time"); "off" names an end, as "end" and "until" do."""
    from ibachat.agent.alignment.request_values import stated_values

    got = {n: v.value for n, v in stated_values(LAMP, text, NOW).items() if n in LAMP["properties"]}
    assert got == expected


@pytest.mark.parametrize(
    ("text", "day"),
    [
        ("the boiler packed in last thursday, can you log an insurance claim", date(2026, 11, 26)),
        ("my bike was stolen from outside the station last Monday", date(2026, 11, 30)),
        ("add my expenses from last tues", date(2026, 11, 24)),  # said on a Tuesday: the week before
    ],
)
def test_last_and_a_weekday_is_the_one_gone_by(text, day):
    """Before, "last saturday" was read as the coming Saturday (a claim dated in the future)."""
    assert read_when(text, NOW).day == day
