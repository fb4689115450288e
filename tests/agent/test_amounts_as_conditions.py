"""An amount said as the condition of what follows: "any meeting longer than 45 minutes and I zone
out" avoids what is over 45 minutes (at most 45); "anything further than 5 miles, forget it" at most 5;
"if it's older than a fortnight it's not worth it" at most 14 days; while a consequence that is good
("and I'm happy", "I'm in") keeps the range. An approximation between the comparator and the amount
("past about an hour") reads through. In words written for these tests (meetings, walks, articles,
parking, cake); the first five failed on the code before this change (the bound came out the other way
or not at all), the guards passed.
"""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from ibachat.agent.reading.open_events import open_events
from ibachat.agent.reading.open_prefs import NUMBER_DIM
from memory.types import Turn


def _bounds(text: str) -> set[str]:
    turn = Turn(1, "s", "user", text, datetime(2026, 5, 1, tzinfo=timezone.utc))
    return {e.value for e in open_events(turn, "") if e.dimension == NUMBER_DIM}


@pytest.mark.parametrize(
    ("text", "bound"),
    [
        ("any meeting longer than 45 minutes and I zone out", "minutes<=45"),
        ("anything further than 5 km, forget it", "distance<=5"),
        ("if the article is older than a fortnight it's not worth my time", "minutes<=20160"),
        ("honestly any film past about two hours and i'm asleep", "minutes<=120"),
        ("anything over £8 for parking and we're driving round the block", "money<=8"),
        # what such a thing is said to be, after a copula
        ("any podcast longer than 40 minutes is useless on my commute", "minutes<=40"),
        ("anything over 25 minutes is torture for the kids", "minutes<=25"),  # by its valence
        ("any drive longer than 4 hours is awful with the dog", "minutes<=240"),
    ],
)
def test_a_range_with_a_bad_consequence_is_avoided(text, bound):
    assert bound in _bounds(text), _bounds(text)


@pytest.mark.parametrize(
    ("text", "bound"),
    [
        ("anything under £15 for the cake and I'm happy", "money<=15"),
        ("if it's under 20 minutes i'm in", "minutes<=20"),
        ("meetings after 11 only", "hour>=11"),
        ("anything over an hour is perfect for a proper session", "minutes>=60"),
    ],
)
def test_a_range_with_a_good_consequence_or_none_is_kept(text, bound):
    assert bound in _bounds(text), _bounds(text)
