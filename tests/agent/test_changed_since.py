"""A change the user announces after a habit ("the vet says it's the kidney-care biscuits from now on")
is not overridden by the one past call before it: the old value is not reused unasked. A carer's word
about the user or theirs ("the physio says ...") is a rule the user keeps, not someone else's taste; a
cleft ("it's the X") names X. Written in domains unlike the development sets'.
"""

from __future__ import annotations

import pytest

from ibachat.agent.reading.open_prefs import read_open


@pytest.mark.parametrize(
    ("said", "phrase"),
    [
        ("the physio says it's the low-impact classes from now on", "low-impact classes"),
        ("my gp said oat milk from now on", "oat milk"),
        ("it's the unscented pods from now on, the baby's skin flares up otherwise", "unscented pods"),
    ],
)
def test_a_carers_word_and_a_cleft_name_the_thing(said, phrase):
    assert phrase in [p.phrase for p in read_open(said) if p.polarity > 0]


@pytest.mark.parametrize(
    "said",
    [
        "my sister says she loves jazz these days",
        "my sister says she's only drinking oat milk from now on",
        "dave says he's going vegan from now on",
    ],
)
def test_someone_elses_taste_stays_theirs(said):
    assert [p.phrase for p in read_open(said) if p.polarity > 0] == []


LAUNDRY = {
    "name": "order_laundry_pods",
    "description": "Order laundry detergent pods for delivery",
    "parameters": {
        "type": "object",
        "properties": {
            "scent": {"enum": ["spring_meadow", "tropical", "unscented_sensitive", "lavender"]},
            "pods": {"type": "integer", "enum": [20, 40, 60]},
        },
        "required": ["scent", "pods"],
    },
}


@pytest.fixture(scope="module")
def minilm():
    from memory.embedders.registry import load_embedder

    return load_embedder("minilm")


@pytest.mark.parametrize(
    ("later", "kept"),
    [
        (
            "the health visitor says it's the unscented sensitive stuff from now on for the baby's eczema",
            False,
        ),
        ("we're repainting the nursery yellow this weekend", True),
    ],
)
def test_a_change_since_the_one_past_call_is_not_overridden(tmp_path, minilm, later, kept):
    from ibachat.agent.ingest import ingest
    from ibachat.agent.planner import Planner
    from memory.memory import Memory
    from tests.agent.histories import History, call

    h = History(seed=3).noise(4, 0, 30)
    h.say(
        2,
        ("user", "get me the usual washing pods"),
        ("tool", "Ordered.", call("order_laundry_pods", scent="tropical", pods=40)),
    )
    h.say(12, ("user", later), ("assistant", "Noted."))
    memory = Memory.open(tmp_path / "m", embedder=minilm, fsync=False)
    try:
        ingest(memory, h.records())
        out = Planner(memory).act("reorder the washing pods please", now=h.at(31, 10), tools=[LAUNDRY])
    finally:
        memory.close()
    got = out.tool_call.arguments.get("scent") if out.tool_call else None
    if kept:
        assert got == "tropical", out.plan.params["scent"]
    else:
        assert got != "tropical", out.plan.params["scent"]


def test_a_clock_among_the_values_carries_its_part_of_day():
    """'12:15' is defined as lunchtime, so 'my lunch hour' meets it by meaning."""
    from ibachat.agent.alignment.grounding import defined

    assert defined("12:15") == "12:15 (lunchtime)"
    assert defined("06:30") == "06:30 (early morning)"
    assert defined("19:45") == "19:45 (evening)"


SWIM = {
    "name": "book_swim_lesson",
    "description": "Book a swimming lesson at the leisure centre",
    "parameters": {
        "type": "object",
        "properties": {
            "date": {"type": "string", "format": "date"},
            "slot": {"enum": ["07:00", "10:30", "13:00", "18:30"], "description": "lesson start times"},
        },
        "required": ["date", "slot"],
    },
}


def test_a_part_of_day_said_since_picks_the_clock_in_it(tmp_path, minilm):
    from ibachat.agent.ingest import ingest
    from ibachat.agent.planner import Planner
    from memory.memory import Memory
    from tests.agent.histories import History, call

    h = History(seed=4).noise(4, 0, 30)
    h.say(
        2,
        ("user", "swim lesson tuesday, the early one"),
        ("tool", "Booked.", call("book_swim_lesson", date="2025-01-07", slot="07:00")),
    )
    h.say(
        10,
        ("user", "new shifts start monday, so from now on it has to be an evening slot for me"),
        ("assistant", "Got it."),
    )
    memory = Memory.open(tmp_path / "m", embedder=minilm, fsync=False)
    try:
        ingest(memory, h.records())
        out = Planner(memory).act("book my swim lesson for thursday", now=h.at(31, 10), tools=[SWIM])
    finally:
        memory.close()
    got = out.tool_call.arguments.get("slot") if out.tool_call else None
    assert got in (None, "18:30"), out.plan.params["slot"]


@pytest.mark.parametrize(
    ("text", "asked"),
    [
        ("reserve it for me, the actual paper copy this time", ["paper copy"]),
        ("a mild one for a change please", []),  # no noun: nothing named
        ("get me a flat white for a change", ["flat white"]),
        ("get me into Frozen, actually no, do Paddington instead", []),
        ("I was late this time", []),
    ],
)
def test_a_thing_asked_for_this_time_is_asked_for(text, asked):
    from datetime import datetime, timezone

    from ibachat.agent.reading.events import task_events

    got = [e.value for e in task_events(text, datetime(2026, 4, 8, tzinfo=timezone.utc)) if e.kind == "asked"]
    assert [v for v in got if v in asked] == asked and all(v in asked for v in got)


TEA = {
    "name": "order_tea",
    "description": "Order tea from the tea merchant",
    "parameters": {
        "type": "object",
        "properties": {
            "blend": {"type": "string"},
            "form": {"enum": ["tea_bags", "loose_leaf", "pyramid_bags"]},
        },
        "required": ["blend", "form"],
    },
}


def test_what_the_request_asks_for_this_time_beats_the_one_past_call_and_is_quoted(tmp_path, minilm):
    from ibachat.agent.ingest import ingest
    from ibachat.agent.planner import Planner
    from memory.memory import Memory
    from tests.agent.histories import History, call

    h = History(seed=8).noise(4, 0, 30)
    h.say(
        2,
        ("user", "earl grey please"),
        ("tool", "Ordered.", call("order_tea", blend="Earl Grey", form="tea_bags")),
    )
    memory = Memory.open(tmp_path / "m", embedder=minilm, fsync=False)
    try:
        ingest(memory, h.records())
        out = Planner(memory).act(
            "order more earl grey, the loose stuff this time", now=h.at(31, 10), tools=[TEA]
        )
    finally:
        memory.close()
    assert out.tool_call is not None
    form, why = out.tool_call.arguments.get("form"), out.tool_call.reasons.get("form", "")
    assert form != "tea_bags", out.plan.params["form"]
    assert form is None or why.startswith('your request: "'), why


@pytest.mark.parametrize(
    ("said", "phrases"),
    [
        ("biscuit went for a spaniel at the beach again", []),
        ("the twins went for the bouncy castle straight away", []),
        ("I always go for the corner table", ["corner table"]),
        ("it has to be a ground floor flat for me", ["ground floor flat"]),
    ],
)
def test_a_verb_of_liking_with_someone_elses_subject_is_theirs(said, phrases):
    from ibachat.agent.reading.check import checked

    assert [p.phrase for p in checked(read_open(said)) if "core" not in p.tags] == phrases
