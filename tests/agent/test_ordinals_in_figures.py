"""An allowed value spelled as an ordinal word is named by the ordinal in figures too ("1st class" for
``first``), and the reason quotes the figures the user typed (session 30: "1st class" had left the
default, standard class). Tools written for this test."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from ibachat.agent.alignment.request_values import stated_values

NOW = datetime(2026, 12, 1, 10, 0, tzinfo=timezone.utc)
SCHEMA = {
    "type": "object",
    "properties": {
        "fare_class": {"type": "string", "enum": ["standard", "first"]},
        "deck": {"type": "string", "enum": ["first_floor", "second_floor", "ground_floor"]},
    },
}


@pytest.mark.parametrize(
    ("text", "param", "value", "quote"),
    [
        ("ferry to Bilbao, 1st class please", "fare_class", "first", "1st"),
        ("a reclining seat, 2nd floor if they have it", "deck", "second_floor", "2nd floor"),
        ("ferry to Bilbao, first class please", "fare_class", "first", "first"),
    ],
)
def test_an_ordinal_in_figures_names_its_value(text, param, value, quote):
    said = stated_values(SCHEMA, text, NOW)
    assert (said[param].value, said[param].quote) == (value, quote), said


def test_an_ordinal_that_is_a_day_names_no_value():
    said = stated_values(SCHEMA, "ferry to Bilbao on the 1st, standard please", NOW)
    assert said["fare_class"].value == "standard", said
