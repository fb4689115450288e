"""Prices said as ranges, rates and labels are read as prices, and nothing else is read from them.

On the code before: "£60-£90" was one token and no number, so "a night" after it became one night;
"30 euros a day from Thursday" booked the Friday (one day from Thursday); "at $45 a day" became the
pick-up place; "budget £40-£70" chose the budget brand tier; "for 8-10 on Saturday at 7pm" put the
time at 8:00, a stretch of hours. Probes in words of our own, none of them the example the work
started from.
"""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from ibachat.agent.alignment.request_values import stated_values
from ibachat.agent.execution.tools import as_task_tool, tools_for
from ibachat.agent.reading.parse import parse

NOW = datetime(2026, 12, 1, 10, 0, tzinfo=timezone.utc)  # a Tuesday


def _said(tool: str, text: str) -> dict:
    params = next(as_task_tool(t) for t in tools_for() if t.name == tool)["parameters"]
    return {k: v.value for k, v in stated_values(params, text, NOW).items()}


@pytest.mark.parametrize(
    ("text", "tokens"),
    [
        ("£60-£90 a night", ["£", "60", "-", "£", "90", "a", "night"]),
        ("$15-$25 each", ["$", "15", "-", "$", "25", "each"]),
        ("call 555-1234", ["call", "555", "-", "1234"]),  # digits joined by a dash split as before
    ],
)
def test_a_price_range_without_spaces_is_two_prices(text, tokens):
    assert [t.text for t in parse(text)] == tokens


def test_a_price_range_per_night_is_a_price_and_no_count_of_nights():
    said = _said("book_hotel", "somewhere in Bruges for £60-£90 a night, arriving the 18th")
    assert said.get("max_price_per_night") == 90.0 and "nights" not in said, said


@pytest.mark.parametrize(
    ("tool", "text", "param", "day"),
    [
        ("rent_car", "a hatchback at 30 euros a day from Thursday to Sunday", "pickup_date", "2026-12-03"),
        ("book_hotel", "a room for £70 a night from Saturday for two nights", "check_in", "2026-12-05"),
    ],
)
def test_a_rate_per_day_is_no_offset_from_the_day(tool, text, param, day):
    said = _said(tool, text)
    assert said.get(param) == day, said


def test_an_offset_from_a_day_still_counts_without_a_price():
    assert _said("set_reminder", "ping me a week from Friday at 8am to pay the gardener")["when"].startswith(
        "2026-12-11T08:00"
    )


def test_a_price_after_at_is_no_place():
    said = _said("rent_car", "an estate car at $45 a day from the 14th, picked up in Denver")
    assert said.get("pickup_location") != "$45" and "$" not in str(said.get("pickup_location", "")), said


def test_a_word_that_labels_a_price_names_no_value():
    said = _said("buy_product", "a rice cooker please, budget £40-£70")
    assert "brand_tier" not in said and said.get("max_price") == 70.0, said
    # said of the thing itself, the word is the value
    assert _said("buy_product", "a budget rice cooker under £40").get("brand_tier") == "budget"


@pytest.mark.parametrize(
    "text",
    ["reserve for 8-10 at Ottolenghi on Saturday at 7pm", "a table for 6 to 8 on Saturday, 7pm please"],
)
def test_a_count_range_is_no_stretch_of_hours(text):
    said = _said("book_table", text)
    assert said.get("time") == "19:00" and said.get("date") == "2026-12-05", said


@pytest.mark.parametrize(
    ("tool", "text", "param", "value"),
    [
        ("book_hotel", "somewhere in Galway 2 nights from the 8th", "city", "Galway"),
        ("book_train", "train to Durham 2 adults on Friday morning", "destination", "Durham"),
        ("book_ride", "a cab to Gatwick North Terminal 2 at 5am tomorrow", "destination", None),
    ],
)
def test_a_count_after_a_name_is_no_part_of_the_name(tool, text, param, value):
    """ "in Galway 2 nights": the number counts the nights, so the place is Galway (on the code before it
    was "Galway 2 nights", and no city at all); a number that ends a name stays in it."""
    said = _said(tool, text)
    if value is None:
        assert said[param].endswith("Terminal 2"), said
    else:
        assert said.get(param) == value, said
