"""A change the user made, said with a path ("gone all the way to X", "gone over to X"), is a want of
where it went (session 30: "all the way" had been read as a verdict that swallowed the thing, and "over
to" as "X over Y", a contrast that turned the new choice into something avoided). Said in words written
for these tests; each check failed on the code before this change, the last is its guard."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from ibachat.agent.reading.events import extract_events
from memory.types import Turn

T0 = datetime(2026, 3, 1, 10, 0, tzinfo=timezone.utc)


def _open(text: str) -> set[tuple[str, int]]:
    turns = [Turn(1, "s", "user", text, T0), Turn(2, "s", "assistant", "Noted.", T0)]
    return {(e.value, e.polarity) for e in extract_events(turns) if e.dimension == "open"}


@pytest.mark.parametrize(
    ("text", "thing"),
    [
        ("honestly I've gone all the way to the decaf beans now", "decaf beans"),
        ("we've gone over to paper statements for the bank stuff", "paper statements for the bank stuff"),
    ],
)
def test_where_a_change_went_is_wanted(text: str, thing: str) -> None:
    assert (thing, 1) in _open(text), _open(text)


def test_one_thing_over_another_is_still_a_contrast() -> None:
    got = _open("I'd pick the bus over the tram any day")
    assert ("tram", -1) in got, got
