"""A request that names again what one past call used ("book it in at kwik motors", "same as before at
harbour vets") takes that value as the user's own words, quoted as typed, with the remembered spelling:
no question "Which garage should I use?", no "chosen once before". A value the request says only as
"just the X" takes the value of X alone. Written in domains and voices unlike the development sets'.
"""

from __future__ import annotations

import pytest

VETS = {
    "name": "book_vet_visit",
    "description": "Book a pet into a veterinary practice",
    "parameters": {
        "type": "object",
        "properties": {
            "practice": {"type": "string"},
            "pet": {"type": "string"},
            "visit": {"enum": ["jabs_only", "health_check", "jabs_and_check"]},
        },
        "required": ["practice", "pet", "visit"],
    },
}


@pytest.fixture(scope="module")
def minilm():
    from memory.embedders.registry import load_embedder

    return load_embedder("minilm")


def _act(tmp_path, minilm, request: str):
    from ibachat.agent.ingest import ingest
    from ibachat.agent.planner import Planner
    from memory.memory import Memory
    from tests.agent.histories import History, call

    h = History(seed=5).noise(4, 0, 30)
    h.say(
        3,
        ("user", "get mochi seen for a check up"),
        (
            "tool",
            "Booked.",
            call("book_vet_visit", practice="Harbour Vets", pet="Mochi", visit="jabs_and_check"),
        ),
    )
    memory = Memory.open(tmp_path / "m", embedder=minilm, fsync=False)
    try:
        ingest(memory, h.records())
        return Planner(memory).act(request, now=h.at(31, 10), tools=[VETS])
    finally:
        memory.close()


def test_a_past_name_said_again_is_the_request_s(tmp_path, minilm):
    out = _act(tmp_path, minilm, "can you get mochi in at harbour vets, just the jabs this time")
    assert out.tool_call is not None, out.question
    assert out.tool_call.arguments["practice"] == "Harbour Vets"
    assert out.tool_call.reasons["practice"] == 'your request: "harbour vets"'
    assert out.tool_call.arguments["visit"] == "jabs_only"
    assert (
        out.tool_call.reasons["visit"].startswith('your request: "')
        and "jabs" in out.tool_call.reasons["visit"]
    )
    assert "Which practice" not in (out.question or "")


def test_a_past_name_not_said_is_no_request(tmp_path, minilm):
    out = _act(tmp_path, minilm, "can you book mochi in for her jabs and a check")
    call = out.tool_call
    reason = call.reasons.get("practice", "") if call is not None else ""
    assert "your request" not in reason
