"""Both ends of a stretch said in words, a number corrected in words, a name said in quotes inside a
phrase (session 33). On the code before: "from 7 in the evening till half eleven" started at 23:30,
"from the 27th until we fly home on Jan 2nd" checked in on the 2nd, "two nights, actually make it 3"
stayed two, and "the 'Iceland 2026' album" was named "Iceland 2026' album".

Probes in words and tools of our own, none of them the messages the work started from.
"""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from ibachat.agent.alignment.request_values import stated_values
from ibachat.agent.reading.when import read_when

NOW = datetime(2026, 12, 1, 10, 0, tzinfo=timezone.utc)  # a Tuesday
CLOCK = {"type": "string", "pattern": "^([01][0-9]|2[0-3]):[0-5][0-9]$"}
SITTER = {
    "type": "object",
    "properties": {
        "day": {"type": "string", "format": "date"},
        "start_time": CLOCK,
        "end_time": CLOCK,
        "pets": {"type": "integer"},
    },
}
CABIN = {
    "type": "object",
    "properties": {
        "lodge": {"type": "string"},
        "check_in": {"type": "string", "format": "date"},
        "nights": {"type": "integer", "minimum": 1, "maximum": 30},
    },
}
PRINTS = {
    "type": "object",
    "properties": {
        "playlist": {"type": "string", "description": "the playlist to burn"},
        "copies": {"type": "integer"},
    },
}


@pytest.mark.parametrize(
    ("words", "clock"),
    [
        ("7 in the evening", "19:00"),
        ("eight o'clock in the morning", "08:00"),
        ("11 at night", "23:00"),
        ("quarter past eight in the morning", "08:15"),  # the minutes past still count
    ],
)
def test_an_hour_said_with_its_part_of_the_day(words, clock):
    assert read_when(f"friday, {words}", NOW).time == clock


@pytest.mark.parametrize(
    ("text", "start", "end"),
    [
        ("dog sitter on thursday from 6 in the evening till half ten", "18:00", "22:30"),
        ("someone to feed the cats sunday from 2 in the afternoon until 6", "14:00", "18:00"),
        ("need a sitter friday from half nine in the morning till noon", "09:30", "12:00"),
        ("sitter for the dogs saturday from eight in the evening to 1", "20:00", "01:00"),  # past midnight
    ],
)
def test_a_stretch_of_hours_said_in_words(text, start, end):
    got = stated_values(SITTER, text, NOW)
    assert (got["start_time"].value, got["end_time"].value) == (start, end), got
    assert got["day"].value != NOW.date().isoformat()  # the hours say no day of their own


@pytest.mark.parametrize(
    ("text", "check_in", "nights"),
    [
        ("the lodge at Loch Awe from the 18th until we drive home on the 22nd", "2026-12-18", 4),
        ("a cabin from friday till my brother collects us on monday", "2026-12-04", 3),
    ],
)
def test_a_stay_that_ends_with_what_closes_it(text, check_in, nights):
    got = stated_values(CABIN, text, NOW)
    assert (got["check_in"].value, got["nights"].value) == (check_in, nights), got


@pytest.mark.parametrize(
    ("text", "nights"),
    [
        ("the forest cabin from the 9th for four nights, actually make it five", 5),
        ("lodge on the 3rd, 2 nights - actually make it 3 if they have it", 3),
    ],
)
def test_a_number_corrected_with_actually_make_it(text, nights):
    got = stated_values(CABIN, text, NOW)
    assert got["nights"].value == nights, got
    assert any(ch.isdigit() for ch in got["nights"].quote) or got["nights"].quote.split()[0] in (
        "five",
        "3",
    ), got["nights"].quote


def test_actually_make_it_with_a_quality_adds_to_the_thing():
    """ "a pizza from Luigi's, actually make it spicy": what follows is no other number or day; the
    place said before it stays."""
    from ibachat.agent.reading.corrections import corrected

    assert "Luigi's" in corrected("order a pizza from Luigi's, actually make it spicy")


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("burn the 'Road Trip 2025' playlist, 3 copies", "Road Trip 2025"),
        ('burn my "Gran at 90" playlist please', "Gran at 90"),
    ],
)
def test_a_name_in_quotes_inside_the_phrase(text, name):
    assert stated_values(PRINTS, text, NOW)["playlist"].value == name


def test_a_plural_part_of_the_day_says_its_half():
    """ "weekday mornings from 6:30": the morning's 6:30 (before: a question); "3 nights" is a count."""
    assert read_when("on weekday mornings from 6:30", NOW).time == "06:30"
    assert read_when("evenings at 7 suit me", NOW).time == "19:00"
    assert read_when("3 nights from friday, arriving at 2", NOW).time != "02:00"


def test_degrees_fill_a_temperature():
    schema = {
        "type": "object",
        "properties": {"target_temp_c": {"type": "integer", "minimum": 5, "maximum": 30}},
    }
    assert stated_values(schema, "bump the boiler up to 22 degrees", NOW)["target_temp_c"].value == 22


@pytest.mark.parametrize(
    ("text", "days"),
    [("plan a fortnight of lunches for the kids", 14), ("sort three weeks of suppers for me", 21)],
)
def test_a_span_of_time_of_things_is_how_long_the_whole_runs(text, days):
    """ "a fortnight of lunches" is the plan's length (before: nothing, as "45 minute sessions" is not)."""
    schema = {"type": "object", "properties": {"days": {"type": "integer", "minimum": 1, "maximum": 28}}}
    assert stated_values(schema, text, NOW)["days"].value == days


def test_a_named_day_in_another_sentence_is_no_request_day():
    """ "... on thursday, 2 hours. my parents arrive for new year's eve": the request's Thursday (before:
    New Year's Eve)."""
    now = datetime(2026, 12, 1, 10, 0, tzinfo=timezone.utc)
    text = "book a window cleaner on thursday, 2 hours. my parents arrive for new year's eve"
    assert read_when(text, now).day.isoformat() == "2026-12-03"


def test_a_named_day_and_a_weekday_that_disagree_are_a_question():
    """ "for boxing day on monday" when the coming Monday is not Boxing Day: asked, never guessed."""
    now = datetime(2026, 12, 1, 10, 0, tzinfo=timezone.utc)  # Boxing Day 2026 is a Saturday
    got = read_when("a hamper for boxing day on monday please", now)
    assert got.day is None and got.question
    assert read_when("a hamper for boxing day please", now).day.isoformat() == "2026-12-26"
