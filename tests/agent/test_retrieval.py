"""Deep Retrieval through the real memory store: facets, needles in a noisy history, emptiness."""

from __future__ import annotations

import json
import random
import re
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from ibachat.agent.retrieval.deep import deep_retrieve
from ibachat.agent.retrieval.facets import EXPAND_SCHEMA, expand, template_facets, tool_facets
from ibachat.agent.types import PlannerCounters
from ibachat.errors import ConfigError
from ibachat.llm.scripted import TIMEOUT, ScriptedLLM
from memory.errors import NotFound
from memory.memory import Memory

NOW = datetime(2025, 6, 1, 18, 0, tzinfo=UTC)

FLIGHT_TOOL = {
    "name": "book_flight",
    "description": "Book a plane ticket",
    "parameters": {
        "type": "object",
        "properties": {
            "destination": {"type": "string", "description": "City to fly to"},
            "departure_time": {"type": "string", "enum": ["morning", "afternoon", "evening"]},
            "seat": {
                "type": "string",
                "description": "Seat preference",
                "enum": ["aisle", "window", "middle"],
            },
            "fareClass": {"type": "string", "enum": ["economy", "premium_economy", "business"]},
        },
        "required": ["destination"],
    },
}
FOOD_TOOL = {
    "name": "order_food",
    "description": "Order a meal for delivery",
    "parameters": {
        "type": "object",
        "properties": {
            "dish": {"type": "string", "description": "What to eat"},
            "spice": {"type": "string", "description": "Heat level", "enum": ["mild", "medium", "hot"]},
        },
    },
}

# ---------------------------------------------------------------- a noisy history in our own words
# "{a|b}" picks one option per use, so the noise repeats itself only now and then.
SMALL_TALK = [
    (
        "{morning|evening}! slept {terribly|badly}, the neighbours had a {party|row} until 3",
        "Oof. Coffee helps?",
    ),
    ("the {garden|balcony pots} finally {has|have} {tomatoes|beans|courgettes} coming in", "Lovely!"),
    (
        "can you remind me to {call my mum|pay the rent|water the plants|book the vet} on {Sunday|Tuesday}",
        "Reminder set.",
    ),
    (
        "my {laptop fan|fridge|boiler} keeps {whirring|humming|clicking}, should I worry",
        "Usually it's harmless; check it.",
    ),
    (
        "watched a documentary about {octopuses|volcanoes|bees|deep sea fish} last night",
        "Sounds fascinating.",
    ),
    ("need to renew the {car insurance|passport|gym card} before the {12th|20th}", "Want a reminder?"),
    (
        "how many {grams are in an ounce|cups are in a litre|feet are in a metre} again",
        "Here's the conversion.",
    ),
    ("the {bus|train|tram} was {late|packed} again this {morning|evening}", "Annoying!"),
    (
        "help me word a text to the {landlord|plumber|neighbour} about the {leaky tap|noise|broken gate}",
        "Here's a draft.",
    ),
    (
        "my {cousin|aunt|old roommate} visits {soon|in June}, any {museum|park|gallery} ideas",
        "A few ideas below.",
    ),
    ("finished the {1000|500} piece {puzzle|jigsaw} at last", "That takes patience!"),
    ("put {oats|rice|lentils}, {bananas|apples} and {dish soap|bin bags} on the shopping list", "Added."),
    ("the cat knocked the {fern|mug|pen pot} off the {shelf|desk} again", "Maybe move it?"),
    ("is upgrading my {phone|tablet|laptop} worth it this year", "If it still works well, probably not."),
    ("set a timer for {twenty|forty} minutes", "Timer running."),
    ("the {match|final|derby} went to {penalties|extra time}, so tense", "What a finish!"),
    ("my {sister|brother|best friend} got {engaged|a new job|a puppy}!", "Wonderful news."),
    ("the printer is {jammed|out of ink} again", "Try the rear tray."),
    ("remind me what the {cabin|office|studio} wifi password was", "You saved it in your notes."),
    ("paid the {electricity|water|phone} bill {today|this afternoon}", "Marked as done."),
    (
        "thinking of repainting the {hallway|bedroom|kitchen} a pale {green|blue|grey}",
        "That would look calm.",
    ),
    ("any tips for getting a toddler to {nap|eat greens|tidy up}", "A steady routine usually helps."),
    ("I {baked bread|made jam|brewed kombucha} for the first time", "How did it turn out?"),
    ("our book club is reading a {mystery|fantasy|history} book {soon|next}", "Sounds fun."),
    (
        "the {heating|shower|washing machine} is making a {clicking|banging} noise",
        "Could be air or a loose part.",
    ),
    ("what time does the {pharmacy|post office|library} close on {Saturdays|Sundays}", "It closes at 5pm."),
    ("found a great {hiking trail|cycle path|swimming spot} near the {lake|river|hills}", "Nice find!"),
    ("I need a birthday gift idea for my {dad|niece|boss}", "Some ideas below."),
    ("the {wifi|electricity} went out for an hour {today|last night}", "Glad it's back."),
    (
        "can you explain {compound interest|how tides work|what a mortgage offset is}",
        "Here is the short version.",
    ),
]
FOODISH = [
    ("made a big pot of {lentil|tomato|pea} soup for the week", "Sounds hearty."),
    ("we tried the new {bakery|deli|noodle bar} on {Pine|Oak} Street", "How was it?"),
    ("picked up fresh {strawberries|cherries|peas} at the market", "Perfect season for them."),
    ("had leftover {pasta|rice|stew} for lunch again", "Easy and filling."),
]
_CHOICE = re.compile(r"\{([^{}]*)\}")


def _fill(rng: random.Random, text: str) -> str:
    return _CHOICE.sub(lambda m: rng.choice(m.group(1).split("|")), text)


def _session(recs: list[dict], sid: str, when: datetime, pairs: list[tuple[str, str]]) -> None:
    for i, (user, assistant) in enumerate(pairs):
        recs.append(
            {"session_id": sid, "role": "user", "text": user, "time": when + timedelta(minutes=2 * i)}
        )
        recs.append(
            {
                "session_id": sid,
                "role": "assistant",
                "text": assistant,
                "time": when + timedelta(minutes=2 * i + 1),
            }
        )


def _tool_turn(recs: list[dict], sid: str, when: datetime, name: str, args: dict, text: str) -> None:
    recs.append({"session_id": sid, "role": "user", "text": f"please {text}", "time": when})
    recs.append(
        {
            "session_id": sid,
            "role": "tool",
            "text": f"{name} done: " + ", ".join(f"{k} {v}" for k, v in args.items()),
            "time": when + timedelta(minutes=1),
            "tool_call": {"name": name, "arguments": args},
        }
    )


NEEDLES = {
    "aisle_habit": "I always pick the aisle seat when I fly, so I can stretch my legs",
    "window_fix": "actually no, make it the window seat, I can't stand being squeezed by the aisle",
    "spicy_habit": "I love really spicy food, the hotter the better",
    "tooth": "had my wisdom tooth pulled on Monday, the dentist says soft food only for the next two weeks",
    "sichuan_no": "no, not that one, it gave me a stomach ache last time",
    "whole_milk": "I take my coffee with whole milk and two sugars",
    "oat_milk": "I switched to oat milk for my coffee, dairy doesn't agree with me anymore",
    "evening_user": "I prefer evening flights, early mornings wreck me",
    "morning_claim": "You mentioned you prefer morning flights, so I picked the 7am departure.",
    "email_tone": "keep emails to my boss short and formal, no exclamation marks",
    "ankle": "sprained my ankle at football, so no stairs or long walks for a couple of weeks",
}


def build_history(seed: int = 7, sessions: int = 90) -> list[dict]:
    """About 400 turns over a year: small talk, errands, tool calls, and the needles above."""
    rng = random.Random(seed)
    recs: list[dict] = []
    for s in range(sessions):
        when = NOW - timedelta(days=rng.uniform(1, 365), hours=rng.uniform(0, 10))
        pairs = rng.sample(SMALL_TALK + FOODISH, rng.randint(1, 3))
        _session(recs, f"chat-{s}", when, [(_fill(rng, u), _fill(rng, a)) for u, a in pairs])
    for i, days in enumerate((320, 260, 190, 130, 95)):
        _tool_turn(
            recs,
            f"food-{i}",
            NOW - timedelta(days=days),
            "order_food",
            {"dish": "dan dan noodles", "spice": "hot"},
            "order the noodles again",
        )
    for i, days in enumerate((230, 180, 150)):
        _tool_turn(
            recs,
            f"fly-{i}",
            NOW - timedelta(days=days),
            "book_flight",
            {"destination": "Porto", "seat": "aisle"},
            "get me on the Porto flight",
        )
    for i, days in enumerate((40, 25, 12, 3)):
        _tool_turn(
            recs, f"timer-{i}", NOW - timedelta(days=days), "set_timer", {"minutes": 10}, "set a tea timer"
        )
    t = NOW - timedelta(days=240)
    _session(recs, "n-aisle", t, [(NEEDLES["aisle_habit"], "Good to know, I'll keep that in mind.")])
    t = NOW - timedelta(days=20)
    recs.append(
        {"session_id": "n-fix", "role": "user", "text": "book the Thursday flight to Oslo", "time": t}
    )
    recs.append(
        {
            "session_id": "n-fix",
            "role": "assistant",
            "text": "I've reserved aisle seat 22C on the Oslo flight.",
            "time": t + timedelta(minutes=1),
        }
    )
    recs.append(
        {
            "session_id": "n-fix",
            "role": "user",
            "text": NEEDLES["window_fix"],
            "time": t + timedelta(minutes=2),
        }
    )
    recs.append(
        {
            "session_id": "n-fix",
            "role": "assistant",
            "text": "Done, you're in 22A by the window now.",
            "time": t + timedelta(minutes=3),
        }
    )
    _session(
        recs, "n-spicy", NOW - timedelta(days=300), [(NEEDLES["spicy_habit"], "Noted, extra chilli it is.")]
    )
    _session(
        recs,
        "n-tooth",
        NOW - timedelta(days=5),
        [(NEEDLES["tooth"], "Ouch, get well soon. Soups and smoothies then.")],
    )
    t = NOW - timedelta(days=40)
    recs.append(
        {
            "session_id": "n-rej",
            "role": "assistant",
            "text": "How about the Sichuan place on Elm Street for dinner?",
            "time": t,
        }
    )
    recs.append(
        {
            "session_id": "n-rej",
            "role": "user",
            "text": NEEDLES["sichuan_no"],
            "time": t + timedelta(minutes=1),
        }
    )
    _session(
        recs,
        "n-milk-old",
        NOW - timedelta(days=200),
        [(NEEDLES["whole_milk"], "Got it, whole milk, two sugars.")],
    )
    _session(
        recs, "n-milk-new", NOW - timedelta(days=15), [(NEEDLES["oat_milk"], "Oat milk from now on, noted.")]
    )
    _session(
        recs,
        "n-evening",
        NOW - timedelta(days=100),
        [(NEEDLES["evening_user"], "Evening flights, understood.")],
    )
    recs.append(
        {
            "session_id": "n-claim",
            "role": "assistant",
            "text": NEEDLES["morning_claim"],
            "time": NOW - timedelta(days=60),
        }
    )
    _session(
        recs, "n-email", NOW - timedelta(days=70), [(NEEDLES["email_tone"], "Understood: brief and formal.")]
    )
    _session(recs, "n-ankle", NOW - timedelta(days=4), [(NEEDLES["ankle"], "Ouch! Rest it well.")])
    recs.sort(key=lambda r: r["time"])
    return recs


# ---------------------------------------------------------------- fixtures
@pytest.fixture(scope="module")
def minilm():
    from memory.embedders.registry import load_embedder

    return load_embedder("minilm")


@pytest.fixture(scope="module")
def minilm_store(tmp_path_factory, minilm):
    mem = Memory.open(tmp_path_factory.mktemp("minilm-store"), embedder=minilm, fsync=False)
    mem.add_turns(build_history())
    yield mem
    mem.close()


@pytest.fixture()
def hash_store(tmp_path: Path):
    mem = Memory.open(tmp_path / "hash-store", embedder="hash:256", fsync=False)
    mem.add_turns(build_history(sessions=60))
    yield mem
    mem.close()


def texts(evidence) -> list[str]:
    return [item.turn.text for item in evidence.items]


def rank(evidence, text: str) -> int:
    found = texts(evidence)
    assert text in found, f"{text!r} not in evidence: {found}"
    return found.index(text)


# ---------------------------------------------------------------- facets
def test_one_facet_per_tool_parameter():
    facets = dict(tool_facets(FLIGHT_TOOL))
    assert list(facets) == ["param:destination", "param:departure_time", "param:seat", "param:fareClass"]
    assert facets["param:seat"] == "seat preference aisle window middle"
    assert facets["param:fareClass"] == "fare class economy premium business"
    names = [name for name, _ in template_facets("book a flight to Rome", FLIGHT_TOOL)]
    for facet in ("task", "tone", "structure", "tradeoffs", "corrections", "habits", "states"):
        assert facet in names
    assert names.count("param:seat") == 1
    assert tool_facets({"name": "x", "parameters": {"type": "object"}}) == []


def test_facet_queries_carry_the_tasks_own_words():
    for name, query in template_facets("Draft a polite email to my landlord"):
        assert "landlord" in query, name


def test_capable_model_adds_subqueries_and_counts_tokens():
    llm = ScriptedLLM(
        [{"queries": ["seat choice on planes", "  ", "seat choice on planes", "airline complaints"]}]
    )
    llm.capable = True
    counters = PlannerCounters()
    facets = expand("book a flight to Rome", FLIGHT_TOOL, llm, counters)
    assert ("llm:1", "seat choice on planes") in facets and ("llm:2", "airline complaints") in facets
    assert counters.model_calls == 1 and counters.completion_tokens > 0 and not counters.fallbacks
    assert llm.calls[0].schema == EXPAND_SCHEMA


@pytest.mark.parametrize(
    ("reply", "reason"),
    [
        ("{not json", "malformed JSON"),
        ({"queries": []}, "no usable queries"),
        ({"queries": "seat"}, "no list of queries"),
        (TIMEOUT, "timed out"),
        ("", "empty reply"),
    ],
)
def test_bad_model_output_falls_back_to_templates(reply, reason):
    llm = ScriptedLLM([reply])
    llm.capable = True
    counters = PlannerCounters()
    facets = expand("book a flight", FLIGHT_TOOL, llm, counters)
    assert facets == template_facets("book a flight", FLIGHT_TOOL)
    assert len(counters.fallbacks) == 1 and counters.fallbacks[0].startswith("expand: ")
    assert reason in counters.fallbacks[0]


def test_small_model_is_not_asked():
    llm = ScriptedLLM([])  # not capable: any call would exhaust the script
    assert expand("book a flight", None, llm) == template_facets("book a flight")
    assert llm.calls == []


# ---------------------------------------------------------------- the real store, hash embedder (fast)
def test_deep_evidence_shape_and_stats(hash_store):
    counters = PlannerCounters()
    ev = deep_retrieve(
        hash_store, "book a flight to Rome", now=NOW, tool=FLIGHT_TOOL, budget=8, counters=counters
    )
    assert 0 < len(ev.items) <= 8
    assert ("param:seat", "seat preference aisle window middle") in ev.subqueries
    for key in ("candidates", "dropped_duplicates", "kept", "ms"):
        assert key in ev.stats
    assert {"expand", "embed", "search", "context", "select", "total"} <= set(ev.stats["ms"])
    assert counters.timings_ms["retrieve"] == ev.stats["ms"]["total"]
    scores = [item.score for item in ev.items]
    assert scores == sorted(scores, reverse=True)
    assert all(item.why for item in ev.items)
    fix = ev.items[rank(ev, NEEDLES["window_fix"])]
    assert "correction" in fix.why and "facet: seat" in fix.why
    assert [t.text for t in fix.context][0] == "I've reserved aisle seat 22C on the Oslo flight."


def test_baseline_modes(hash_store):
    for mode in ("single", "dense", "lexical"):
        ev = deep_retrieve(hash_store, "whole milk coffee", now=NOW, budget=5, mode=mode)
        assert ev.subqueries == [("task", "whole milk coffee")]
        assert 0 < len(ev.items) <= 5 and ev.stats["mode"] == mode
        assert all(not item.context for item in ev.items)
    with pytest.raises(ConfigError, match="unknown retrieval mode"):
        deep_retrieve(hash_store, "x", now=NOW, mode="fancy")


def test_near_duplicates_collapse_into_one_item(tmp_path):
    with Memory.open(tmp_path / "dups", embedder="hash:256", fsync=False) as mem:
        for i in range(5):
            mem.add_turn(f"s{i}", "user", "I take my tea with honey", time=NOW - timedelta(days=10 + i))
        mem.add_turn("x", "user", "I walk the dog at seven", time=NOW - timedelta(days=2))
        ev = deep_retrieve(mem, "make me a tea", now=NOW)
    tea = [item for item in ev.items if "tea" in item.turn.text]
    assert len(tea) == 1 and "said 5 times" in tea[0].why
    assert tea[0].turn.time == NOW - timedelta(days=10)  # the most recent copy is the one kept
    assert ev.stats["dropped_duplicates"] == 4


def test_never_use_and_future_turns_are_not_evidence(tmp_path):
    with Memory.open(tmp_path / "flags", embedder="hash:256", fsync=False) as mem:
        hidden = mem.add_turn("a", "user", "I like green tea", time=NOW - timedelta(days=3))
        mem.add_turn("b", "user", "I like black tea", time=NOW + timedelta(days=3))
        mem.add_turn("c", "user", "I like mint tea", time=NOW - timedelta(days=4))
        mem.set_never_use(hidden.id)
        ev = deep_retrieve(mem, "brew some tea", now=NOW)
    assert texts(ev) == ["I like mint tea"]


def test_empty_memory_and_zero_budget(tmp_path):
    with Memory.open(tmp_path / "empty", embedder="hash:256", fsync=False) as mem:
        assert deep_retrieve(mem, "anything", now=NOW).items == []
        mem.add_turn("a", "user", "I like tea", time=NOW - timedelta(days=1))
        assert deep_retrieve(mem, "tea", now=NOW, budget=0).items == []


# ---------------------------------------------------------------- the real store, offline MiniLM
def test_correction_outranks_the_older_habit_and_past_bookings(minilm_store):
    ev = deep_retrieve(minilm_store, "book me a flight to Rome for the conference", now=NOW, tool=FLIGHT_TOOL)
    fix = rank(ev, NEEDLES["window_fix"])
    assert fix < rank(ev, NEEDLES["aisle_habit"])
    aisle_bookings = [
        i for i, item in enumerate(ev.items) if item.turn.role == "tool" and "aisle" in item.turn.text
    ]
    assert all(fix < i for i in aisle_bookings)
    assert len(ev.items) <= 12


def test_temporary_state_outranks_the_stale_taste(minilm_store):
    ev = deep_retrieve(minilm_store, "order dinner for tonight", now=NOW, tool=FOOD_TOOL)
    tooth = rank(ev, NEEDLES["tooth"])
    assert tooth < rank(ev, NEEDLES["spicy_habit"])
    assert "temporary state" in ev.items[tooth].why
    assert NEEDLES["sichuan_no"] in texts(ev)
    rejection = ev.items[rank(ev, NEEDLES["sichuan_no"])]
    assert "rejection" in rejection.why
    assert any("Sichuan" in t.text for t in rejection.context)
    past = [item for item in ev.items if item.turn.tool_call and item.turn.tool_call["name"] == "order_food"]
    assert past and any(w.startswith("past call of order_food") for w in past[0].why)


def test_update_outranks_what_it_replaced(minilm_store):
    ev = deep_retrieve(minilm_store, "order my usual coffee from the cafe", now=NOW)
    assert rank(ev, NEEDLES["oat_milk"]) < rank(ev, NEEDLES["whole_milk"])
    assert "update" in ev.items[rank(ev, NEEDLES["oat_milk"])].why


def test_assistant_claim_ranks_below_the_users_statement(minilm_store):
    ev = deep_retrieve(minilm_store, "find me a flight to Vienna next week", now=NOW, tool=FLIGHT_TOOL)
    assert rank(ev, NEEDLES["evening_user"]) < rank(ev, NEEDLES["morning_claim"])


def test_tone_facet_finds_the_writing_preference(minilm_store):
    ev = deep_retrieve(minilm_store, "write an email to my boss asking for Friday off", now=NOW)
    assert rank(ev, NEEDLES["email_tone"]) < 3


@pytest.mark.parametrize(
    "task", ["what's the capital of Peru?", "explain how a transistor amplifies a signal"]
)
def test_unrelated_task_gets_no_evidence(minilm_store, task):
    ev = deep_retrieve(minilm_store, task, now=NOW)
    assert ev.items == [], [(i.turn.text, i.why) for i in ev.items]
    assert ev.stats["empty"] and ev.stats["empty_reason"] == "nothing in memory bears on the task"
    # The single-query baseline, by contrast, injects whatever came top.
    assert deep_retrieve(minilm_store, task, now=NOW, mode="single").items


def test_deep_finds_needles_the_single_query_misses(minilm_store):
    task = "book me a flight to Rome for the conference"
    single = texts(deep_retrieve(minilm_store, task, now=NOW, tool=FLIGHT_TOOL, mode="single"))
    deep = texts(deep_retrieve(minilm_store, task, now=NOW, tool=FLIGHT_TOOL))
    wanted = {NEEDLES["window_fix"], NEEDLES["evening_user"]}
    assert wanted <= set(deep)
    assert len(wanted & set(single)) < len(wanted)


def test_many_past_calls_are_folded_with_a_summary(tmp_path):
    with Memory.open(tmp_path / "calls", embedder="hash:256", fsync=False) as mem:
        for i in range(8):
            spice = "hot" if i < 6 else "mild"
            mem.add_turn(
                f"o{i}",
                "tool",
                f"order_food {spice} noodles number {i}",
                time=NOW - timedelta(days=30 + 7 * i),
                tool_call={"name": "order_food", "arguments": {"dish": "noodles", "spice": spice}},
            )
        ev = deep_retrieve(mem, "order noodles for dinner", now=NOW, tool=FOOD_TOOL)
    calls = [item for item in ev.items if item.turn.role == "tool"]
    assert len(calls) == 3 and ev.stats["folded_tool_calls"] == 5
    assert "8 past calls of order_food found: dish=noodles 8/8, spice=hot 6/8" in calls[0].why


def test_a_stated_preference_sharing_a_word_makes_evidence_non_empty(minilm_store):
    ev = deep_retrieve(minilm_store, "summarise the emails from my boss", now=NOW)
    assert NEEDLES["email_tone"] in texts(ev)


def test_a_fresh_state_found_by_its_facet_counts_for_an_unworded_task(minilm_store):
    # MiniLM sees little in common between the task and the injury; the health facet does.
    ev = deep_retrieve(minilm_store, "plan a day out in the city this weekend", now=NOW)
    assert rank(ev, NEEDLES["ankle"]) < 3
    assert "temporary state" in ev.items[rank(ev, NEEDLES["ankle"])].why


def test_model_subqueries_are_searched_and_counted(hash_store):
    llm = ScriptedLLM([{"queries": ["window seat", "Oslo flight"]}])
    llm.capable = True
    counters = PlannerCounters()
    ev = deep_retrieve(hash_store, "book a trip", now=NOW, llm=llm, counters=counters)
    assert ("llm:1", "window seat") in ev.subqueries and counters.model_calls == 1
    assert "expand_model" in ev.stats["ms"] and not counters.fallbacks
    fix = ev.items[rank(ev, NEEDLES["window_fix"])]
    assert "facet: llm:1" in fix.why


class _LosesOneVector:
    """The real store, except that one turn's vector is missing (indexed after the search)."""

    def __init__(self, mem: Memory, missing: int) -> None:
        self._mem, self._missing = mem, missing

    def __getattr__(self, name):
        return getattr(self._mem, name)

    def __len__(self) -> int:
        return len(self._mem)

    def vectors(self, ids):
        if self._missing in ids:
            raise NotFound(f"turn {self._missing} has no vector in the index")
        return self._mem.vectors(ids)


def test_a_candidate_without_a_vector_is_left_out(tmp_path):
    with Memory.open(tmp_path / "gap", embedder="hash:256", fsync=False) as mem:
        lost = mem.add_turn("a", "user", "I like green tea", time=NOW - timedelta(days=3))
        mem.add_turn("b", "user", "I like mint tea", time=NOW - timedelta(days=4))
        ev = deep_retrieve(_LosesOneVector(mem, lost.id), "brew some tea", now=NOW)
    assert texts(ev) == ["I like mint tea"]


def test_requests_fold_with_their_calls(tmp_path):
    with Memory.open(tmp_path / "requests", embedder="hash:256", fsync=False) as mem:
        for i in range(6):
            when = NOW - timedelta(days=20 + 9 * i)
            mem.add_turn(f"o{i}", "user", f"please order the noodles, number {i}", time=when)
            mem.add_turn(
                f"o{i}",
                "tool",
                f"order_food noodles number {i} spice {'hot' if i % 2 else 'mild'}",
                time=when + timedelta(minutes=1),
                tool_call={"name": "order_food", "arguments": {"dish": f"noodles {i}", "spice": "hot"}},
            )
        ev = deep_retrieve(mem, "order noodles for dinner", now=NOW, tool=FOOD_TOOL)
    calls = [item.turn.session_id for item in ev.items if item.turn.role == "tool"]
    requests = [item.turn.session_id for item in ev.items if item.turn.role == "user"]
    assert len(calls) == 3 and ev.stats["folded_tool_calls"] == 3
    assert set(requests) <= set(calls)  # a request stays only with its kept call
    assert ev.stats["folded_requests"] == 3


def test_calls_with_other_arguments_are_not_duplicates(tmp_path):
    text = "send mum the photos from the trip to the lake and the mountains last summer"
    with Memory.open(tmp_path / "calls", embedder="hash:256", fsync=False) as mem:
        for i, day in enumerate(("2025-03-21", "2025-05-29", "2025-03-21")):
            args = {"text": text, "when": day, "channel": "notification", "lead_minutes": 1440}
            mem.add_turn(
                f"r{i}",
                "tool",
                f"set_reminder {json.dumps(args)}",
                time=NOW - timedelta(days=30 * (i + 1)),
                tool_call={"name": "set_reminder", "arguments": args},
            )
        ev = deep_retrieve(mem, "remind me to send mum the photos", now=NOW)
    days = sorted(item.turn.tool_call["arguments"]["when"] for item in ev.items)
    assert days == ["2025-03-21", "2025-05-29"]  # the identical third call folds into the first
    assert ev.stats["dropped_duplicates"] == 1


def test_session_context_fills_only_free_budget(tmp_path):
    with Memory.open(tmp_path / "context", embedder="hash:256", fsync=False) as mem:
        t = NOW - timedelta(days=3)
        mem.add_turn("s", "user", "I like green tea in the morning", time=t)
        mem.add_turn("s", "assistant", "Noted, a calm start.", time=t + timedelta(minutes=1))
        ranked = deep_retrieve(mem, "brew some green tea", now=NOW, budget=1)
        filled = deep_retrieve(mem, "brew some green tea", now=NOW, budget=5)
    assert texts(ranked) == ["I like green tea in the morning"]
    assert texts(filled) == ["I like green tea in the morning", "Noted, a calm start."]
    assert filled.items[1].why[0] == "context of a kept turn"
    assert filled.items[1].score < filled.items[0].score
