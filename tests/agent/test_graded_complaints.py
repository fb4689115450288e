"""A complaint after a call moves a graded choice (values in the order of a scale) one value past the
last one, away from the end the complaint says was overdone; a reply that agrees to the assistant's
offer for next time ("I can ask for less next time." - "yes please") is the user's complaint; and "N
is not ADJ" says there was not enough of ADJ (session 33). On the code before, the complained-of value
came back as "chosen once before", and "yes" to a sentence telling what was done counted as a second
choice of it ("habit: chose medium 2 time(s)").

Probes in words and tools of our own. The store and MiniLM are real.
"""

from __future__ import annotations

import pytest

from ibachat.agent.ingest import ingest
from ibachat.agent.planner import Planner
from ibachat.agent.reading.complaints import complaints
from memory.memory import Memory
from tests.agent.histories import History, call

PIZZA = {
    "name": "order_pizza",
    "description": "Order a pizza for delivery",
    "parameters": {
        "type": "object",
        "properties": {
            "pizza": {"type": "string"},
            "crust": {"enum": ["thin", "classic", "deep_pan", "stuffed"], "description": "crust thickness"},
            "cheese": {"enum": ["none", "light", "regular", "extra"], "description": "how much cheese"},
        },
        "required": ["pizza"],
    },
}
BATH = {
    "name": "run_bath",
    "description": "Run a bath at home",
    "parameters": {
        "type": "object",
        "properties": {"water_temp_c": {"type": "integer", "minimum": 30, "maximum": 45}},
        "required": ["water_temp_c"],
    },
}


@pytest.fixture(scope="module")
def minilm():
    from memory.embedders.registry import load_embedder

    return load_embedder("minilm")


_PEPPERONI = (
    ("user", "order me a pepperoni"),
    ("assistant", "Done.", call("order_pizza", pizza="pepperoni", crust="deep_pan", cheese="regular")),
)


def _act(tmp_path, minilm, tool, first, reply, request):
    history = History(seed=7).noise(3, 0, 6)
    history.say(8, *first)
    history.say(10, *reply)
    history.noise(2, 12, 16)
    memory = Memory.open(tmp_path / "m", embedder=minilm, fsync=False)
    ingest(memory, history.records())
    try:
        return Planner(memory).act(request, now=history.at(20, 18), tools=[tool])
    finally:
        memory.close()


def test_agreeing_to_less_next_time_moves_the_choice_down(tmp_path, minilm):
    out = _act(
        tmp_path,
        minilm,
        PIZZA,
        (
            ("user", "pizza night, a margherita please"),
            (
                "assistant",
                "Ordered.",
                call("order_pizza", pizza="margherita", crust="classic", cheese="extra"),
            ),
        ),
        (
            ("user", "that margherita was swimming in grease, I felt ill after"),
            ("assistant", "Sorry! That was extra cheese. I can ask for less next time."),
            ("user", "yes please, a lot less"),
        ),
        "margherita again tonight please",
    )
    args = out.tool_call.arguments
    assert args.get("cheese") == "regular", (args, out.tool_call.reasons)
    assert "2 time" not in out.tool_call.reasons.get("cheese", "")


def _pepperoni_after(tmp_path, minilm, reply):
    return _act(tmp_path, minilm, PIZZA, _PEPPERONI, reply, "order me a pepperoni again please")


def test_a_complaint_by_its_own_adjective_moves_away_from_that_end(tmp_path, minilm):
    out = _pepperoni_after(
        tmp_path,
        minilm,
        (("user", "the pepperoni base was way too thick, like eating a loaf"), ("assistant", "Noted.")),
    )
    assert out.tool_call.arguments.get("crust") in ("thin", "classic"), out.tool_call.reasons


def test_no_complaint_keeps_the_last_choice(tmp_path, minilm):
    out = _pepperoni_after(
        tmp_path, minilm, (("user", "what's a good film for tonight?"), ("assistant", "Try Paddington 2."))
    )
    assert out.tool_call.arguments.get("crust") == "deep_pan"


@pytest.mark.parametrize(
    ("text", "label"),
    [
        ("38 is NOT hot, I was shivering", "not hot enough"),
        ("the tea wasn't strong at all", "not strong enough"),
        ("it's not urgent, whenever suits", None),
        ("that was not bad actually", None),
    ],
)
def test_an_amount_said_not_to_be_enough(text, label):
    got = [c.label for c in complaints(text)]
    assert got == ([label] if label else []), got


def test_n_is_not_adj_moves_the_number_past_it(tmp_path, minilm):
    out = _act(
        tmp_path,
        minilm,
        BATH,
        (("user", "run me a bath"), ("assistant", "Running it.", call("run_bath", water_temp_c=36))),
        (("user", "36 is NOT hot. lukewarm puddle."), ("assistant", "Sorry about that.")),
        "run me a bath please",
    )
    assert out.tool_call.arguments.get("water_temp_c", 0) > 36, out.tool_call.reasons


@pytest.mark.parametrize(
    ("labels", "adjective", "way"),
    [
        (["none", "light", "medium", "heavy"], "much", 1),
        (["heavy", "medium", "light", "none"], "much", -1),
        (["light", "medium", "firm"], "hard", 1),
        (["firm", "medium", "soft"], "hard", -1),
        (["notification", "email", "sms"], "much", 0),  # no scale: "too much to read" moves no channel
        (["public", "private", "busy"], "brief", 0),
    ],
)
def test_which_end_a_complaint_says_was_overdone(labels, adjective, way):
    """Only a choice whose end values are pole words or "none" is a scale (the suite's reminder channel
    and event visibility had been moved by "too brief" and "too much to read")."""
    from ibachat.agent.alignment.complaint_plan import _end_overdone

    assert _end_overdone(labels, adjective) == way
