""" "Away from", "far from", "apart from" name no place the request sets out from (session 30: "a quiet
room away from the lifts" had made "the lifts" the hotel's city). In words written for this test."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from ibachat.agent.alignment.request_values import stated_values
from ibachat.agent.execution.tools import as_task_tool, tools_for

NOW = datetime(2026, 12, 1, 10, 0, tzinfo=timezone.utc)


def _params(name: str) -> dict:
    return next(as_task_tool(t) for t in tools_for() if t.name == name)["parameters"]


@pytest.mark.parametrize(
    "text",
    [
        "two nights from friday, somewhere quiet, a room away from the ice machine",
        "two nights from friday, a room far from the nightclub please",
    ],
)
def test_what_a_room_is_away_from_is_no_city(text):
    said = stated_values(_params("book_hotel"), text, NOW)
    assert "city" not in said, said["city"]


def test_a_journey_from_a_place_still_sets_out_from_it():
    said = stated_values(_params("book_ride"), "a cab from the Old Vic to Waterloo at 6pm", NOW)
    assert (said["pickup"].value, said["destination"].value) == ("the Old Vic", "Waterloo"), said
