"""A clock parameter's default that breaks the user's own bound on the hour is not used: the plan asks
for the time and says why. In words written for these tests (a boiler engineer, a school run, a van);
the first check failed on the code before this change (the default went into the call marked
"default"), the second is its guard.
"""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from ibachat.agent.ingest import ingest
from ibachat.agent.planner import Planner
from memory.memory import Memory

NOW = datetime(2026, 11, 2, 9, 0, tzinfo=timezone.utc)  # a Monday


def _tool(default: str) -> dict:
    return {
        "name": "book_boiler_service",
        "description": "Book an engineer to service the boiler at home",
        "parameters": {
            "type": "object",
            "properties": {
                "date": {"type": "string", "format": "date"},
                "arrival_time": {
                    "type": "string",
                    "pattern": "^[0-2][0-9]:[0-5][0-9]$",
                    "default": default,
                    "description": "24h HH:MM; the engineer's usual slot unless told",
                },
            },
            "required": ["date"],
        },
    }


def _act(tmp_path: Path, default: str):
    said = NOW - timedelta(days=20)
    rows = [
        {"session_id": "a", "role": "user", "time": said.isoformat(),
         "text": "i'm at the school gates by 3pm every weekday, so nothing after 2:30pm for anything at home"},
        {"session_id": "a", "role": "assistant", "time": (said + timedelta(minutes=1)).isoformat(),
         "text": "Got it."},
    ]  # fmt: skip
    memory = Memory.open(tmp_path, embedder="minilm", fsync=False)
    ingest(memory, rows)
    return Planner(memory, None).act("get the boiler serviced on wednesday", now=NOW, tools=[_tool(default)])


def test_a_default_after_the_users_own_bound_is_asked_for(tmp_path):
    out = _act(tmp_path, "16:00")
    asked = " ".join(out.plan.clarifications)
    assert "arrival time" in asked and "16:00" in asked, out.plan.clarifications
    assert out.tool_call is None or "arrival_time" not in out.tool_call.arguments


@pytest.mark.parametrize("default", ["09:00"])
def test_a_default_inside_the_bound_stands(tmp_path, default):
    out = _act(tmp_path, default)
    assert not any("arrival time" in q for q in out.plan.clarifications), out.plan.clarifications
