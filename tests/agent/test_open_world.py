"""The open-world layer, mechanism by mechanism, on histories and tools written for these tests.

None of the tools below is in ibachat's catalogue and none of their parameter names, descriptions or
values appears in ibachat/: the planner has only each tool's JSON Schema and the user's own words
(buried in small talk) to go on. The real store and the offline MiniLM embedder are used throughout.
"""

from __future__ import annotations

import pytest

from ibachat.agent.execution.router import route
from ibachat.agent.ingest import ingest
from ibachat.agent.planner import Planner
from ibachat.agent.reading.open_prefs import read_open
from ibachat.agent.reading.quantities import quantities
from memory.memory import Memory
from tests.agent.histories import History


def tool(name: str, description: str, props: dict, required: list[str] | None = None) -> dict:
    return {
        "name": name,
        "description": description,
        "parameters": {"type": "object", "properties": props, "required": required or list(props)},
    }


@pytest.fixture(scope="module")
def minilm():
    from memory.embedders.registry import load_embedder

    return load_embedder("minilm")


@pytest.fixture
def plan_with(tmp_path, minilm):
    stores: list[Memory] = []

    def run(history: History, task: str, tools: list[dict], day: float):
        memory = Memory.open(tmp_path / f"m{len(stores)}", embedder=minilm, fsync=False)
        stores.append(memory)
        ingest(memory, history.records())
        return Planner(memory).act(task, now=history.at(day, 10), tools=tools)

    yield run
    for m in stores:
        m.close()


def noisy(seed: int) -> History:
    return History(seed=seed).noise(12, 0, 40)


# ---------------------------------------------------------------------------- reading
@pytest.mark.parametrize(
    ("text", "phrase", "polarity"),
    [
        ("Honestly I can't bear musicals with endless singing", "musicals with endless singing", -1),
        ("I've got a real soft spot for old black and white westerns", "old black and white westerns", 1),
        ("Crowded hostels don't appeal to me at all", "crowded hostels", -1),
        ("I'd take a slow ferry over a cramped coach any day", "cramped coach", -1),
        ("I never drink anything with caffeine after lunch", "caffeine after lunch", -1),
        ("Guided group tours are just not my scene", "guided group tours", -1),
    ],
)
def test_stance_polarity_and_its_object_in_unseen_words(text, phrase, polarity):
    found = {(p.phrase, p.polarity) for p in read_open(text)}
    assert (phrase, polarity) in found, found


@pytest.mark.parametrize(
    "text",
    [
        "My uncle can't bear musicals",  # someone else's taste
        "The review said everyone adores the westerns",  # reported
        "A chef who hates onions opened a bistro here",  # a relative clause's own subject
        "The crowded ferry last week was chaotic",  # an event, not a preference
    ],
)
def test_other_peoples_tastes_and_events_are_not_the_users(text):
    assert read_open(text) == []


def test_amounts_with_units_and_comparators():
    got = {(q.unit, q.op, q.value) for q in quantities("keep my mornings clear, nothing before 10:30am")}
    # "before" bounds from above, and "nothing" turns it round: things at 10:30 or later
    assert ("hour", "<=", 10.5) not in got and ("hour", ">=", 10.5) in got
    got = {
        (q.unit, q.op, q.value)
        for q in quantities("a ten minute nudge is pointless, make it three quarters of an hour")
    }
    assert ("minutes", "=", 10.0) in got
    got = {(q.unit, q.op, q.value) for q in quantities("spend no more than €80 on it")}
    assert got == {("money", "<=", 80.0)}
    assert quantities("we met in 1998 and got two dogs") == []


# ---------------------------------------------------------------------------- grounding into foreign tools
VENUE = tool(
    "pick_evening_spot",
    "Choose where the evening out happens",
    {"spot": {"type": "string", "enum": ["karaoke pub", "rooftop jazz terrace", "candle-lit wine cellar"]}},
)


def test_a_choice_among_offered_options_is_wanted_and_the_others_passed_over(plan_with):
    h = noisy(11).say(
        20,
        ("user", "Where should we go on Friday night?"),
        (
            "assistant",
            "A few ideas:\n1. A rowdy karaoke bar downtown\n2. A quiet little wine cellar with candles\n"
            "3. A rooftop terrace with a live band",
        ),
        ("user", "Number two please, the others sound far too loud for me."),
    )
    out = plan_with(h, "Sort out our night out next Saturday", [VENUE], 45)
    assert out.tool_call.arguments["spot"] == "candle-lit wine cellar", out.plan.params["spot"]
    assert out.plan.params["spot"].reason.startswith("you picked"), out.plan.params["spot"].reason


SCREENING = tool(
    "reserve_screening",
    "Get seats at a cinema",
    {"genre": {"type": "string", "enum": ["slasher horror", "romantic comedy", "nature documentary"]}},
)


def test_a_turned_down_offer_is_avoided(plan_with):
    h = noisy(12).say(
        15,
        ("user", "Anything good on at the pictures this week?"),
        ("assistant", "How about the new slasher horror at the Odeon?"),
        ("user", "god no, I had nightmares for a week after the last one"),
    )
    out = plan_with(h, "Grab me a seat for something tonight", [SCREENING], 30)
    # nothing says which of the other two: it asks, and does not offer the one turned down
    assert "genre" not in out.tool_call.arguments, out.plan.params["genre"]
    assert out.question and "romantic comedy" in out.question and "slasher" not in out.question


STAY = tool(
    "lodging_lookup",
    "Look for a place to spend the night",
    {
        "town": {"type": "string", "description": "where to stay"},
        "hounds_welcome": {"type": "boolean", "description": "the place accepts guests with dogs"},
        "smoke_ok": {"type": "boolean", "description": "smoking is permitted in the room"},
        "nightly_cap": {"type": "number", "description": "the most to pay per night, in pounds"},
    },
)


def test_life_facts_booleans_caps_and_spans(plan_with):
    h = (
        noisy(13)
        .say(5, ("user", "My spaniel Biscuit comes with me on every trip, she's family."))
        .say(9, ("user", "Cigarette smoke makes me feel awful, I can't be around it."))
        .say(14, ("user", "For a room I won't go over £95 a night."))
    )
    out = plan_with(h, "find me somewhere to stay in Whitby for next weekend", [STAY], 40)
    args = out.tool_call.arguments
    assert args["town"] == "Whitby"
    assert args["hounds_welcome"] is True, out.plan.params["hounds_welcome"]
    assert args["smoke_ok"] is False, out.plan.params["smoke_ok"]
    assert args["nightly_cap"] == 95


DIARY = tool(
    "diary_slot",
    "Put a call or meeting on the calendar",
    {
        "first_hour": {
            "type": "integer",
            "minimum": 0,
            "maximum": 23,
            "description": "start hour of the meeting",
        },
        "length_minutes": {"type": "integer", "minimum": 5, "maximum": 240},
        "heads_up_minutes": {
            "type": "integer",
            "minimum": 0,
            "maximum": 120,
            "description": "alert before it starts",
        },
    },
)


def test_numbers_the_request_states_and_bounds_from_the_history(plan_with):
    h = (
        noisy(14)
        .say(6, ("user", "Block my mornings please, meetings after 11 only."))
        .say(12, ("user", "A 5 minute alert is useless to me, give me half an hour before things start."))
    )
    out = plan_with(h, "set up a 45 minute call with Priya tomorrow", [DIARY], 30)
    args = out.tool_call.arguments
    assert args["length_minutes"] == 45  # stated in the request: never overridden
    assert args["first_hour"] >= 11, out.plan.params["first_hour"]
    assert args["heads_up_minutes"] == 30, out.plan.params["heads_up_minutes"]


def test_a_short_term_state_constrains_a_foreign_parameter_while_it_lasts(plan_with):
    kitchen = tool(
        "kitchen_ticket",
        "Send a dish order to the kitchen",
        {"chew": {"type": "string", "enum": ["crispy and crunchy", "soft and smooth"]}},
    )
    h = noisy(15).say(
        30, ("user", "Just had two teeth pulled, so for the next week I can only manage soft mushy food.")
    )
    during = plan_with(h, "order me some dinner", [kitchen], 32)
    assert during.tool_call.arguments["chew"] == "soft and smooth", during.plan.params["chew"]
    after = plan_with(h, "order me some dinner", [kitchen], 60)
    assert after.plan.params["chew"].source != "open" or after.plan.params["chew"].chosen != "soft and smooth"


# ---------------------------------------------------------------------------- routing and text
FOREIGN = [
    tool("summon_vehicle", "Dispatch a driver to pick the rider up", {}),
    tool("meal_dispatch", "Have a meal delivered from a kitchen nearby", {}),
    tool("calendar_insert", "Put a meeting or call on the calendar", {}),
]


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ("I'm starving, order me some dinner please", "meal_dispatch"),
        ("could you get a car to take me to the station at 6", "summon_vehicle"),
        ("set up a meeting with Dana on Thursday", "calendar_insert"),
        ("I could murder a pizza, can you sort that out", "meal_dispatch"),
        ("What time does the station open?", None),
        ("I ordered a curry last night and it was lovely", None),
        ("Write a short poem about taxis", None),
    ],
)
def test_routing_by_the_tools_own_descriptions(minilm, message, expected):
    chosen = route(message, FOREIGN, embed=minilm.embed_batch)
    assert (chosen.tool["name"] if chosen.kind == "tool" else None) == expected, chosen.why


def test_text_answers_carry_open_preferences(plan_with):
    h = noisy(16).say(
        8, ("user", "I find podcasts with two hosts bantering unbearable, I like a single calm narrator.")
    )
    out = plan_with(h, "Recommend a podcast for my commute", [], 20)
    notes = " ".join(out.plan.text.notes)
    assert "single calm narrator" in notes and "podcasts with two hosts bantering" in notes, notes


GRILL = tool(
    "grill_house_order",
    "Order a plate from the grill house",
    {
        "plate": {"type": "string", "description": "the main dish"},
        "eating_style": {"type": "string", "enum": ["omnivore", "veggie", "plant_only"]},
    },
)


def test_a_newer_word_beats_the_habit_and_the_plan_stays_consistent(plan_with):
    from tests.agent.histories import call

    h = noisy(21)
    for d in range(2, 30, 6):
        h.say(
            d,
            ("user", "The usual from the grill house please."),
            ("tool", "Done.", call("grill_house_order", plate="Ribeye steak", eating_style="omnivore")),
        )
    h.say(32, ("user", "Big news: I'm going fully vegetarian from today."))
    out = plan_with(h, "Order my usual from the grill house", [GRILL], 34)
    args = out.tool_call.arguments
    assert args["eating_style"] == "veggie", out.plan.params["eating_style"]
    assert "steak" not in str(args.get("plate", "")).lower(), out.plan.params["plate"]
    before = plan_with(h, "Order my usual from the grill house", [GRILL], 31)  # before the change: the habit
    assert before.tool_call.arguments == {"plate": "Ribeye steak", "eating_style": "omnivore"}
