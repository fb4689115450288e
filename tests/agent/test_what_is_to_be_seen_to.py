"""What is wrong, when the request asks for someone to look at, check or treat a thing it describes: that
thing and what is said of it, not the request around it (session 33: "My dad needs a skin specialist to
look at the rash that's spread ..." gave the whole clause, the need included). A bare thing ("my dog's
paw") is no account of what is wrong.

Probes in words and a tool of our own.
"""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from ibachat.agent.alignment.request_values import stated_values

NOW = datetime(2026, 12, 1, 10, 0, tzinfo=timezone.utc)
PLUMBER = {
    "type": "object",
    "properties": {
        "date": {"type": "string", "format": "date"},
        "problem": {"type": "string", "description": "what is wrong, in the user's words"},
    },
}


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        (
            "My landlord needs a plumber to look at the damp patch that keeps spreading under the sink",
            "the damp patch that keeps spreading under the sink",
        ),
        (
            "we want someone to check the crack that's opened up above the back door, friday if poss",
            "the crack that's opened up above the back door",
        ),
    ],
)
def test_what_is_to_be_seen_to_is_what_is_wrong(text, problem):
    assert stated_values(PLUMBER, text, NOW)["problem"].value == problem


def test_a_bare_thing_to_look_at_is_not_what_is_wrong():
    got = stated_values(PLUMBER, "I need a plumber to look at my boiler", NOW)
    assert got.get("problem") is None or got["problem"].value != "my boiler"


def test_one_to_be_seen_is_no_thing_wrong():
    """ "to see a plumber about the leak": the plumber is who sees to it, not what is wrong."""
    got = stated_values(PLUMBER, "can you get me in to see a plumber about the leak under the bath", NOW)
    assert got.get("problem") is None or "plumber" not in got["problem"].value
