"""An amount of time said as a lead before something ("leave me 15 mins free before it", "remind me an
hour ahead") fills a parameter whose name or description holds "before", the one whose words it shares
("free", "remind"), and never the thing's own length. Probes in words of our own; the first two fail on the
code before it (the lead became the event's duration, or two leads went to one parameter), the third guards."""

from __future__ import annotations

from datetime import datetime, timezone

from ibachat.agent.alignment.request_values import stated_values
from ibachat.agent.execution.tools import as_task_tool, tools_for

NOW = datetime(2026, 12, 1, 10, 0, tzinfo=timezone.utc)
EVENT = next(as_task_tool(t) for t in tools_for() if t.name == "create_event")["parameters"]


def _values(text: str) -> dict:
    return {k: v.value for k, v in stated_values(EVENT, text, NOW).items()}


def test_a_lead_is_free_time_before_never_the_length():
    got = _values(
        "block 9 to 11 tomorrow morning for focus time, private, and leave me 15 mins free before it"
    )
    assert got.get("buffer_minutes") == 15 and got.get("duration_minutes") != 15


def test_two_leads_go_each_to_the_parameter_whose_words_they_share():
    got = _values(
        "create an event for the team lunch friday 1pm, 20 minutes free before it and remind me an hour ahead"
    )
    assert got.get("buffer_minutes") == 20 and got.get("reminder_minutes") == 60
    assert "duration_minutes" not in got


def test_a_length_stays_a_length():
    got = _values("put a 45 minute call with Jo in my calendar tomorrow at 10am")
    assert got.get("duration_minutes") == 45 and "buffer_minutes" not in got
