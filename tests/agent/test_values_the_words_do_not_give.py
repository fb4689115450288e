"""A word that looks like a value but is not one the request gives (session 33). On the code before: "the
red-eye ... Monday night" took the evening the night gives over the red-eye named; "keep the whole thing
under 70" ordered whole milk; "both gas and electric" switched gas alone; "too deaf for phone calls"
booked a phone appointment.

Probes in words and tools of our own.
"""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from ibachat.agent.alignment.request_values import stated_values

NOW = datetime(2026, 12, 1, 10, 0, tzinfo=timezone.utc)  # a Tuesday
COACH = {
    "type": "object",
    "properties": {
        "date": {"type": "string", "format": "date"},
        "slot": {"type": "string", "enum": ["any", "morning", "afternoon", "evening", "overnight_sleeper"]},
    },
}
BAKERY = {
    "type": "object",
    "properties": {
        "loaf": {"type": "string", "enum": ["white", "wholemeal", "whole", "rye"], "description": "bread"},
        "max_total": {"type": "number"},
    },
}
INSURANCE = {
    "type": "object",
    "properties": {
        "cover": {"type": "string", "enum": ["buildings", "contents", "combined"], "default": "combined"},
        "years": {"type": "integer"},
    },
}
LESSON = {
    "type": "object",
    "properties": {
        "format": {"type": "string", "enum": ["video", "phone", "in_person"]},
        "day": {"type": "string", "format": "date"},
    },
}


def test_a_value_named_beats_the_part_of_day_a_time_word_gives():
    got = stated_values(COACH, "coach to Glasgow thursday night, the overnight sleeper one", NOW)
    assert got["slot"].value == "overnight_sleeper", got


def test_a_part_of_day_alone_still_fills_it():
    assert stated_values(COACH, "coach to Glasgow thursday evening", NOW)["slot"].value == "evening"


@pytest.mark.parametrize(
    "text", ["bread order, keep the whole thing under 20 quid", "the whole lot under 20 please, a rye loaf"]
)
def test_a_quality_of_the_whole_order_is_no_value(text):
    got = stated_values(BAKERY, text, NOW)
    assert got.get("loaf") is None or got["loaf"].value == "rye", got


def test_a_value_named_as_a_kind_still_counts():
    assert stated_values(BAKERY, "a wholemeal loaf, budget stuff", NOW)["loaf"].value == "wholemeal"


@pytest.mark.parametrize(
    "text",
    [
        "renew my insurance for both buildings and contents, 1 year",
        "insurance for the buildings and the content",  # one of them said in another form
        "home cover for the building and the contents",
    ],
)
def test_two_values_joined_for_a_parameter_of_one_value_give_neither(text):
    assert "cover" not in stated_values(INSURANCE, text, NOW)


def test_a_value_with_and_in_its_own_words_is_one_value():
    schema = {
        "type": "object",
        "properties": {"service": {"type": "string", "enum": ["wash", "wash_and_dry"]}},
    }
    assert stated_values(schema, "a wash and dry on friday", NOW)["service"].value == "wash_and_dry"


def test_a_contrast_is_not_two_values():
    schema = {"type": "object", "properties": {"channel": {"type": "string", "enum": ["email", "sms"]}}}
    assert stated_values(schema, "text me about it rather than an email", NOW)["channel"].value == "sms"


@pytest.mark.parametrize(
    "text",
    [
        "guitar lesson friday, I'm far too shy for video so nothing on camera",
        "guitar lesson on friday - my signal is too patchy for phone calls",
    ],
)
def test_what_something_is_too_much_for_is_turned_down(text):
    got = stated_values(LESSON, text, NOW)
    assert got.get("format") is None or got["format"].value == "in_person", got


def test_what_something_is_said_to_be_adjective_to_is_no_place():
    schema = {
        "type": "object",
        "properties": {"destination": {"type": "string"}, "pets": {"type": "integer"}},
    }
    got = stated_values(
        schema, "a cab for me and the dog, she's scared to death, allergic to horses too", NOW
    )
    assert "destination" not in got, got


def test_one_of_the_things_themselves_is_nothing_to_leave_out():
    schema = {"type": "object", "properties": {"exclude": {"type": "array", "items": {"type": "string"}}}}
    got = stated_values(schema, "five light lunches rather than two heavy ones, and no aubergine", NOW)
    assert got["exclude"].value == ["aubergine"], got


def test_what_was_nearly_said_is_no_value():
    schema = {
        "type": "object",
        "properties": {"plan": {"type": "string", "enum": ["weekly", "fortnightly", "monthly"]}},
    }
    got = stated_values(schema, "gardener please - I was going to say fortnightly but make it monthly", NOW)
    assert got["plan"].value == "monthly", got
