"""A thing the user brings their own of is one the tool need not provide (session 30: "I've got my own
padlock" had set padlock_included to true). A tool written for this test; the first check failed before
this change, the second guards a thing asked for."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from ibachat.agent.alignment.request_values import stated_values

NOW = datetime(2026, 12, 1, 10, 0, tzinfo=timezone.utc)
HIRE = {
    "type": "object",
    "properties": {
        "towels_included": {"type": "boolean", "description": "the venue provides towels"},
        "racket_hire": {"type": "boolean", "description": "hire rackets at the desk"},
    },
}


@pytest.mark.parametrize(
    ("text", "param"),
    [
        ("book the squash court for 7, we'll bring our own rackets", "racket_hire"),
        ("pool session at 6 please, I've got my own towels", "towels_included"),
    ],
)
def test_what_the_user_brings_is_not_provided(text, param):
    said = stated_values(HIRE, text, NOW)
    assert said[param].value is False and "own" in said[param].quote, said


def test_a_thing_asked_for_is_provided():
    said = stated_values(HIRE, "book the squash court for 7 with racket hire please", NOW)
    assert said["racket_hire"].value is True, said
