"""What is true of the person holds at every tool, and its reason says what they said (session 33). On
the code before: "I can't eat dairy", said in a chat the scope check put with another activity, could
fail to reach a restaurant's dietary list (the probe here is a guard: its words passed before); a nut allergy found no "nut_free"; and a diet the user told of in words was
given as "chosen once before (one past call: not a habit yet)", though no call had been made.

Probes in words of our own; the catalogue's table booking, the store and MiniLM are real.
"""

from __future__ import annotations

import pytest

from ibachat.agent.ingest import ingest
from ibachat.agent.meaning import catalogue
from ibachat.agent.planner import Planner
from memory.memory import Memory
from tests.agent.histories import History


@pytest.fixture(scope="module")
def minilm():
    from memory.embedders.registry import load_embedder

    return load_embedder("minilm")


def _table(tmp_path, minilm, *turns):
    history = History(seed=11).noise(3, 0, 6)
    history.say(8, *turns)
    history.noise(2, 10, 14)
    memory = Memory.open(tmp_path / "m", embedder=minilm, fsync=False)
    ingest(memory, history.records())
    try:
        out = Planner(memory).act(
            "book a table at Lupa for 2 on friday at 8pm",
            now=history.at(20, 9),
            tools=[dict(t) for t in catalogue() if t["name"] == "book_table"],
        )
    finally:
        memory.close()
    assert out.tool_call is not None
    return out.tool_call


@pytest.mark.parametrize(
    ("said", "flag"),
    [
        ("I can't eat dairy, it wrecks my stomach", "dairy_free"),
        ("I'm allergic to nuts, even a trace sets me off", "nut_free"),
    ],
)
def test_an_allergy_said_anywhere_reaches_the_table(tmp_path, minilm, said, flag):
    call = _table(tmp_path, minilm, ("user", said), ("assistant", "Noted."))
    assert flag in call.arguments.get("dietary_notes", []), (call.arguments, call.reasons)


def test_a_diet_told_in_words_is_not_given_as_a_past_call(tmp_path, minilm):
    call = _table(tmp_path, minilm, ("user", "we keep halal in this house"), ("assistant", "Good to know."))
    reason = call.reasons.get("dietary_notes", "")
    assert "past call" not in reason and "chosen once" not in reason, reason
