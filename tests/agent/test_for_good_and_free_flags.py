"""A thing to avoid said to last for good is no passing state, even when said beside one; and a flag
named for being free of something ("dairy_free_kitchen", "no_nuts_menu") is set when the user avoids
it (session 33). On the code before, "I can't eat dairy ... for good" said beside an upset stomach
ended with the stomach's assumed few days, and a flag named "X_free ..." took nothing from avoiding X.

Probes in words and tools of our own; the store and MiniLM are real.
"""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from ibachat.agent.ingest import ingest
from ibachat.agent.planner import Planner
from ibachat.agent.reading.events import extract_events
from memory.memory import Memory
from memory.types import Turn
from tests.agent.histories import History

T = datetime(2026, 3, 2, 9, 0, tzinfo=timezone.utc)
CAFE = {
    "name": "order_brunch",
    "description": "Order brunch for delivery from a cafe",
    "parameters": {
        "type": "object",
        "properties": {
            "cafe": {"type": "string"},
            "dairy_free_kitchen": {"type": "boolean", "description": "made away from milk and butter"},
            "extra_toast": {"type": "boolean"},
        },
        "required": ["cafe"],
    },
}


@pytest.mark.parametrize(
    "text",
    [
        "my tummy is in bits this week, and I'm off dairy for good now",
        "the consultant was clear: no dairy. for good.",  # a guard: its words passed before
    ],
)
def test_avoided_for_good_beside_a_passing_state_lasts(text):
    """(and a stretch said of it alone still ends: ``test_passing_for_a_week_still_ends``)"""
    turn = Turn(id=1, session_id="s", role="user", text=text, time=T)
    dairy = [e for e in extract_events([turn]) if "dairy" in e.value and e.polarity < 0]
    assert dairy and all(e.valid_until is None for e in dairy), [(e.dimension, e.valid_until) for e in dairy]


def test_passing_for_a_week_still_ends():
    turn = Turn(id=1, session_id="s", role="user", text="I'm off dairy this week, doing a detox", time=T)
    dairy = [e for e in extract_events([turn]) if "dairy" in e.value and e.polarity < 0]
    assert dairy and all(e.valid_until is not None for e in dairy)


@pytest.fixture(scope="module")
def minilm():
    from memory.embedders.registry import load_embedder

    return load_embedder("minilm")


def test_a_flag_named_free_of_what_is_avoided_is_set(tmp_path, minilm):
    history = History(seed=13).noise(3, 0, 6)
    history.say(8, ("user", "I can't eat dairy, it wrecks me"), ("assistant", "Noted."))
    history.noise(2, 10, 14)
    memory = Memory.open(tmp_path / "m", embedder=minilm, fsync=False)
    ingest(memory, history.records())
    try:
        out = Planner(memory).act("order brunch from Kin Cafe please", now=history.at(20, 9), tools=[CAFE])
    finally:
        memory.close()
    assert out.tool_call is not None and out.tool_call.arguments.get("dairy_free_kitchen") is True, (
        out.tool_call and (out.tool_call.arguments, out.tool_call.reasons)
    )
    assert "extra_toast" not in out.tool_call.arguments or out.tool_call.arguments["extra_toast"] is False
