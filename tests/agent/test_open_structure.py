"""What the shape of a sentence says about the thing wanted or avoided, in words written for these tests.

Each mechanism here carries to words nobody listed: a relative or copular clause ("furniture that is
flat-packed"), a verb or gerund in front of the object ("reading long legal documents"), a kind and its
examples ("cheeses like brie, camembert or stilton"), an effect the thing always has ("they make me
nauseous": lasting, not a passing state), the one option of several that lacks what the others share,
and a bound every option breaks (the nearest one still wins). The store and MiniLM are real.
"""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from ibachat.agent.ingest import ingest
from ibachat.agent.planner import Planner
from ibachat.agent.reading.open_events import open_events
from ibachat.agent.reading.open_prefs import cores, read_open
from memory.memory import Memory
from memory.types import Turn
from tests.agent.histories import History

T = datetime(2026, 3, 2, 9, tzinfo=timezone.utc)


@pytest.mark.parametrize(
    ("text", "phrase", "polarity"),
    [
        ("I refuse to buy any furniture that is flat-packed", "flat-packed", -1),
        ("I can't bear cheeses like brie, camembert or stilton", "camembert", -1),
        ("I can't bear cheeses like brie, camembert or stilton", "cheeses", -1),
        ("I can't stand reading long legal documents", "long legal documents", -1),
        ("I refuse to sit through any lectures that are recorded", "recorded", -1),
        ("I'd rather stay in hostels that aren't noisy", "noisy", -1),
        ("I love desserts made with fruits such as plums, figs and quinces", "figs", 1),
    ],
)
def test_the_object_of_a_stance_yields_its_core_by_clause_structure(text, phrase, polarity):
    found = {(p.phrase, p.polarity) for p in read_open(text)}
    assert (phrase, polarity) in found, found


def test_a_list_item_does_not_keep_its_conjunction_and_a_modifier_noun_stays_whole():
    assert ("high-ceilinged rooms", 1) in cores("studios with skylights or high-ceilinged rooms")
    assert all(
        not c.startswith(("or ", "and ")) for c, _ in cores("studios with skylights or high-ceilinged rooms")
    )
    assert cores("sailing boats") == []  # one noun after an -ing word: a compound, not a verb's object


@pytest.mark.parametrize(
    ("text", "lasting"),
    [
        ("I avoid long coach rides because they make me nauseous", True),
        ("Spinning classes make me nauseous, so none of those", True),
        ("I'm feeling nauseous at the moment, so no rich sauces please", False),
    ],
)
def test_an_effect_the_thing_always_has_is_a_lasting_stance_not_a_passing_state(text, lasting):
    events = open_events(Turn(1, "s", "user", text, T), "")
    assert events, text
    assert all((e.valid_until is None) == lasting for e in events), [(e.value, e.valid_until) for e in events]


def _tool(name: str, description: str, param: str, options: list[str]) -> dict:
    return {
        "name": name,
        "description": description,
        "parameters": {
            "type": "object",
            "properties": {param: {"type": "string", "enum": options, "description": "which one"}},
            "required": [param],
        },
    }


@pytest.fixture(scope="module")
def minilm():
    from memory.embedders.registry import load_embedder

    return load_embedder("minilm")


def _act(tmp_path, minilm, said: str, task: str, tool: dict):
    history = History(seed=5).noise(8, 0, 20).say(9, ("user", said), ("assistant", "Noted, thanks."))
    history.noise(4, 10, 20)
    memory = Memory.open(tmp_path / "m", embedder=minilm, fsync=False)
    try:
        ingest(memory, history.records())
        out = Planner(memory).act(task, now=history.at(22, 10), tools=[tool])
    finally:
        memory.close()
    assert out.tool_call is not None, out.text
    return next(iter(out.tool_call.arguments.values()))


def test_the_odd_one_out_wins_when_the_others_share_what_is_avoided(tmp_path, minilm):
    options = [
        "A watercolour harbour scene in a chunky gold frame",
        "An oil portrait of a spaniel, ornate gold frame",
        "A pencil picture of pine trees, plain oak frame",  # shares "picture" with the avoided phrase
        "A gold frame mirror-backed floral still life",
    ]
    tool = _tool("hang_artwork", "Pick a framed picture for the hallway wall", "artwork", options)
    picked = _act(
        tmp_path,
        minilm,
        "Honestly I can't bear pictures in gold frames.",
        "Pick a picture for my hallway",
        tool,
    )
    assert picked == options[2]


def test_when_every_option_breaks_a_limit_the_nearest_one_is_picked(tmp_path, minilm):
    options = [
        "Harbour lights documentary (150 minutes)",
        "Mountain relay film (105 minutes)",
        "Desert saga (3 hours)",
    ]
    tool = _tool("queue_screening", "Queue a film for the community cinema night", "screening", options)
    picked = _act(
        tmp_path,
        minilm,
        "I won't sit through films of more than ninety minutes.",
        "Queue a film for cinema night",
        tool,
    )
    assert picked == options[1]


# ---------------------------------------------------------------------------- complaints about an outcome
NUDGE = {
    "name": "nudge_me",
    "description": "Send the user a nudge on their phone ahead of something on their calendar",
    "parameters": {
        "type": "object",
        "properties": {
            "what": {"type": "string", "description": "what the nudge is about"},
            "heads_up_mins": {"type": "integer", "description": "minutes of notice before it starts"},
        },
        "required": ["what", "heads_up_mins"],
    },
}
KICKOFF = {
    "name": "plan_jog",
    "description": "Put a jog with the running club in the diary",
    "parameters": {
        "type": "object",
        "properties": {
            "kickoff_hour": {
                "type": "integer",
                "minimum": 0,
                "maximum": 23,
                "description": "hour of day it starts",
            },
            "stretch_mins": {"type": "integer", "description": "how long the jog lasts, in minutes"},
        },
        "required": ["kickoff_hour", "stretch_mins"],
    },
}


def _calls(history: History, day: float, tool: str, request: str, **values):
    from tests.agent.histories import call

    history.say(day, ("user", request), ("tool", "Done.", call(tool, **values)))


def _run(tmp_path, minilm, history: History, task: str, tool: dict, day: float):
    memory = Memory.open(tmp_path / f"c{day}", embedder=minilm, fsync=False)
    try:
        ingest(memory, history.records())
        out = Planner(memory).act(task, now=history.at(day, 10), tools=[tool])
    finally:
        memory.close()
    assert out.tool_call is not None, out.text
    return out


def test_a_nudge_that_came_too_late_means_more_notice_next_time(tmp_path, minilm):
    h = History(seed=11).noise(6, 0, 12)
    _calls(h, 2, "nudge_me", "Nudge me before the vet appointment", what="vet appointment", heads_up_mins=20)
    _calls(h, 8, "nudge_me", "Nudge me before the school pickup", what="school pickup", heads_up_mins=5)
    h.say(
        8.5,
        ("user", "That nudge came way too late, I was already stuck in traffic."),
        ("assistant", "Sorry!"),
    )
    out = _run(tmp_path, minilm, h, "Nudge me before the plumber comes", NUDGE, 14)
    assert out.tool_call.arguments["heads_up_mins"] == 20  # more than 5: the notice they used before
    assert "too late" in out.plan.params["heads_up_mins"].reason


def test_without_a_complaint_the_last_value_is_not_moved(tmp_path, minilm):
    h = History(seed=11).noise(6, 0, 12)
    _calls(h, 2, "nudge_me", "Nudge me before the vet appointment", what="vet appointment", heads_up_mins=20)
    _calls(h, 8, "nudge_me", "Nudge me before the school pickup", what="school pickup", heads_up_mins=5)
    h.say(8.5, ("user", "Thanks, that worked nicely."), ("assistant", "Glad to hear it."))
    out = _run(tmp_path, minilm, h, "Nudge me before the plumber comes", NUDGE, 14)
    assert "too" not in (out.plan.params["heads_up_mins"].reason or "")


@pytest.mark.parametrize(
    ("said", "param", "check"),
    [
        ("Seven was far too early for me, I could barely open my eyes.", "kickoff_hour", lambda v: v > 7),
        ("Honestly that run was not long enough to be worth the trip.", "stretch_mins", lambda v: v > 30),
        ("That jog dragged on, it was way too long.", "stretch_mins", lambda v: v < 30),
    ],
)
def test_a_complaint_moves_the_amount_on_its_own_scale_the_right_way(tmp_path, minilm, said, param, check):
    h = History(seed=12).noise(6, 0, 12)
    _calls(h, 5, "plan_jog", "Put the club jog in the diary", kickoff_hour=7, stretch_mins=30)
    h.say(5.5, ("user", said), ("assistant", "Noted."))
    out = _run(tmp_path, minilm, h, "Put the club jog in the diary again", KICKOFF, 12)
    other = "stretch_mins" if param == "kickoff_hour" else "kickoff_hour"
    assert check(out.tool_call.arguments[param]), out.plan.params[param]
    assert "too" not in (out.plan.params[other].reason or "") and "enough" not in (
        out.plan.params[other].reason or ""
    )


# ---------------------------------------------------------------------------- habits and later words
BREW = {
    "name": "brew_run",
    "description": "Order a hot drink from the kiosk by the station",
    "parameters": {
        "type": "object",
        "properties": {
            "cup": {"type": "string", "enum": ["tiny", "regular", "huge"], "description": "cup size"},
            "dairy": {"type": "string", "enum": ["cow", "soya", "none"], "description": "what goes in it"},
        },
        "required": ["cup", "dairy"],
    },
}


def test_a_habit_gives_way_only_to_later_words_about_one_of_its_values(tmp_path, minilm):
    h = History(seed=13).noise(6, 0, 14)
    for day in (1, 3, 5):
        _calls(h, day, "brew_run", "The usual from the kiosk please", cup="tiny", dairy="cow")
    h.say(8, ("user", "Honestly I prefer quiet evenings in."), ("assistant", "Nice."))
    h.say(9, ("user", "I've gone off cow's milk, soya from now on."), ("assistant", "Noted."))
    out = _run(tmp_path, minilm, h, "The usual from the kiosk please", BREW, 15)
    assert out.tool_call.arguments["cup"] == "tiny", out.plan.params["cup"]  # evenings are not about cups
    assert out.tool_call.arguments["dairy"] == "soya", out.plan.params["dairy"]
