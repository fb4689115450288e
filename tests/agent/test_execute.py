"""Execution under the plan, and the planner's fallbacks when a model misbehaves."""

from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone

import jsonschema
import pytest
from rich.console import Console

from ibachat.agent.alignment.plan_types import AlignmentPlan, ParamDirective, TextDirectives
from ibachat.agent.execution.execute import check_text, fix_text, narrow_schema, write_text
from ibachat.agent.execution.router import route
from ibachat.agent.ingest import ingest
from ibachat.agent.planner import Planner
from ibachat.errors import ConfigError, ModelUnavailable
from ibachat.llm.base import Reply
from ibachat.llm.scripted import ScriptedLLM
from memory.memory import Memory

NOW = datetime(2025, 6, 2, 12, tzinfo=timezone.utc)
FLIGHT = {
    "name": "book_flight",
    "description": "Book a flight ticket.",
    "parameters": {
        "type": "object",
        "properties": {
            "destination": {"type": "string", "minLength": 1},
            "seat": {"type": "string", "enum": ["any", "window", "aisle", "middle"], "default": "any"},
            "cabin": {
                "type": "string",
                "enum": ["economy", "premium_economy", "business", "first"],
                "default": "economy",
            },
            "max_price": {"type": "number", "minimum": 50, "maximum": 5000},
            "bags": {"type": "integer", "minimum": 0, "maximum": 3},
        },
        "required": ["destination", "seat"],
        "additionalProperties": False,
    },
}
HOTEL = {
    "name": "book_hotel",
    "description": "Reserve a hotel room in a city.",
    "parameters": {"type": "object", "properties": {"city": {"type": "string"}}},
}


def plan_with(**params: ParamDirective) -> AlignmentPlan:
    return AlignmentPlan("task", NOW, params=params)


def test_narrow_schema_cuts_enums_and_applies_bounds():
    plan = plan_with(
        seat=ParamDirective(
            "seat", "enum", chosen="window", allowed=["any", "window", "middle"], avoid=["aisle"]
        ),
        cabin=ParamDirective("cabin", "enum", chosen="economy", certain=True),
        max_price=ParamDirective("max_price", "number", chosen=300, maximum=300, certain=True),
    )
    narrowed = narrow_schema(FLIGHT["parameters"], plan)
    props = narrowed["properties"]
    assert props["seat"]["enum"] == ["any", "window", "middle"]
    assert props["cabin"]["enum"] == ["economy"]
    assert props["max_price"]["maximum"] == 300 and "cabin" in narrowed["required"]
    assert FLIGHT["parameters"]["properties"]["seat"]["enum"] == [
        "any",
        "window",
        "aisle",
        "middle",
    ]  # untouched


@pytest.fixture
def seat_memory(tmp_path):
    t0 = NOW - timedelta(days=60)
    records = []
    for i, (role, text) in enumerate(
        [
            ("assistant", "Shall I book you an aisle seat to Denver?"),
            ("user", "No, not the aisle again. I always fly economy and keep it under $400."),
            ("user", "My cat knocked a plant over today."),
            ("assistant", "Oh no, is the plant okay?"),
        ]
    ):
        records.append({"session_id": "s1", "role": role, "text": text, "time": t0 + timedelta(minutes=i)})
    memory = Memory.open(tmp_path / "m", embedder="hash", fsync=False)
    ingest(memory, records)
    yield memory
    memory.close()


def test_a_model_that_picks_a_forbidden_value_still_gives_a_plan_respecting_call(seat_memory):
    llm = ScriptedLLM(
        [{"destination": "Denver", "seat": "aisle", "cabin": "first", "max_price": 2000, "lounge": True}]
    )
    out = Planner(seat_memory, llm).act("Book me a flight to Denver.", now=NOW, tools=[FLIGHT])
    args = out.tool_call.arguments
    jsonschema.validate(args, FLIGHT["parameters"])
    assert args["seat"] == "window" and args["cabin"] == "economy" and args["max_price"] <= 400
    assert out.counters.model_calls == 1 and any("repaired" in f for f in out.counters.fallbacks)
    assert llm.calls[0].schema["properties"]["seat"]["enum"] == [
        "window"
    ]  # the model saw the narrowed schema


@pytest.mark.parametrize("reply", ["{broken json", "", "<timeout>", ModelUnavailable("backend crashed")])
def test_broken_model_output_falls_back_to_the_floor(seat_memory, reply):
    llm = ScriptedLLM([reply, reply])  # refinement, then the tool call
    out = Planner(seat_memory, llm, refine=True).act("Book me a flight to Denver.", now=NOW, tools=[FLIGHT])
    assert out.tool_call.arguments["seat"] == "window" and out.tool_call.arguments["destination"] == "Denver"
    assert [f.split(":")[0] for f in out.counters.fallbacks] == ["refine", "execute"]
    assert out.counters.model_calls == 2


def test_refinement_adds_cited_preferences_and_drops_the_rest(seat_memory):
    user_turn = next(t for t in seat_memory.iter_turns() if t.text.startswith("My cat"))
    bot_turn = next(t for t in seat_memory.iter_turns() if t.role == "assistant")
    llm = ScriptedLLM(
        [
            {
                "add": [
                    {"turn_id": user_turn.id, "target": "bags", "value": "2", "polarity": 1},
                    {"turn_id": bot_turn.id, "target": "cabin", "value": "first", "polarity": 1},
                    {"turn_id": user_turn.id, "target": "cabin", "value": "platinum", "polarity": 1},
                ]
            },
            Reply('{"destination": "Denver", "seat": "window"}', [], 10, 5),
        ]
    )
    planner = Planner(seat_memory, llm, refine=True)
    out = planner.act("Book me a flight to Denver.", now=NOW, tools=[FLIGHT])
    assert out.tool_call.arguments["bags"] == 2 and out.tool_call.arguments["cabin"] == "economy"
    added = [p for p in out.plan.preferences if p.extractor == "scripted"]
    assert [(p.value, p.status) for p in added] == [("2", "active")]
    assert "refine: dropped 2 unusable item(s)" in out.counters.fallbacks


def test_floor_only_planner_makes_no_model_calls(seat_memory):
    out = Planner(seat_memory).act("Book me a flight to Denver.", now=NOW, tools=[FLIGHT])
    assert out.counters.model_calls == 0 and out.tool_call.arguments["seat"] == "window"
    assert out.counters.timings_ms["plan_ms"] > 0
    data = json.loads(json.dumps(out.to_dict()))
    assert data["plan"]["params"]["seat"]["chosen"] == "window"
    assert any(p["kind"] == "rejected" for p in data["plan"]["preferences"])


@pytest.mark.parametrize(
    ("mode", "ablate"),
    [
        ("iba", "alignment"),
        ("iba", "synthesis"),
        ("iba", "deep-retrieval"),
        ("rag", None),
        ("full", None),
        ("none", None),
    ],
)
def test_modes_and_ablations_all_complete(seat_memory, mode, ablate):
    out = Planner(seat_memory, mode=mode, ablate=ablate).act(
        "Book me a flight to Denver.", now=NOW, tools=[FLIGHT]
    )
    jsonschema.validate(out.tool_call.arguments, FLIGHT["parameters"])
    if mode == "iba" and ablate == "alignment":
        assert (
            out.plan.params["seat"].chosen is None and out.plan.context_notes
        )  # evidence pasted, not aligned
    if mode == "none":
        assert out.plan.evidence == [] and out.tool_call.arguments["seat"] == "any"


def test_unknown_mode_is_a_one_line_error(seat_memory):
    with pytest.raises(ConfigError, match="unknown planner mode"):
        Planner(seat_memory, mode="magic")
    with pytest.raises(ConfigError, match="unknown ablation"):
        Planner(seat_memory, ablate="everything")


def test_without_an_embedder_the_tool_is_the_one_whose_words_the_request_holds():
    assert route("Find me a hotel room in Porto", [FLIGHT, HOTEL]).tool["name"] == "book_hotel"
    assert route("Book a flight to Oslo", [FLIGHT, HOTEL]).tool["name"] == "book_flight"
    assert route("anything", [HOTEL]).kind == "text"  # not a request at all
    assert route("Book me a massage", [FLIGHT, HOTEL]).kind == "text"  # a request no tool's words name


DIRECTIVES = TextDirectives(max_words=25, structure="bullets", avoid_words=["synergy"], no_emoji=True)
LONG = (
    "Our synergy this quarter was strong 🚀. Revenue grew in every region and the team shipped two releases. "
    "Hiring is on track, and churn fell for the third month. Next quarter we focus on onboarding and support."
)


def test_check_and_deterministic_fix():
    problems = check_text(LONG, DIRECTIVES)
    assert len(problems) == 4
    fixed = fix_text(LONG, DIRECTIVES)
    assert check_text(fixed, DIRECTIVES) == []
    assert fixed.startswith("- ") and "synergy" not in fixed.lower()
    assert fix_text("One. Two three.", TextDirectives(structure="prose")) == "One. Two three."


def test_text_gets_one_repair_round_then_a_deterministic_fix():
    plan = AlignmentPlan("Summarise the quarter", NOW, text=DIRECTIVES)
    llm = ScriptedLLM([LONG, LONG])
    streamed: list[str] = []
    text = write_text("Summarise the quarter", plan, llm=llm, stream=streamed.append)
    assert check_text(text, DIRECTIVES) == []
    # the first draft streamed until it ran past the word limit (then it was stopped); the repair did not
    assert LONG.startswith("".join(streamed))
    assert plan.counters.model_calls == 2 and plan.counters.fallbacks[0].startswith("answer: stopped")
    assert any(f.startswith("repair: deterministic fix") for f in plan.counters.fallbacks)
    assert "at most 25 words" in llm.calls[1].prompt and "synergy" in llm.calls[1].prompt
    good = "- Revenue grew everywhere.\n- Two releases shipped.\n- Churn fell."
    plan2 = AlignmentPlan("Summarise the quarter", NOW, text=DIRECTIVES)
    assert write_text("Summarise the quarter", plan2, llm=ScriptedLLM([LONG, good])) == good
    assert all(f.startswith("answer: stopped") for f in plan2.counters.fallbacks)  # the repair sufficed
    system = llm.calls[0].messages[0].content
    assert "Never use these words" in system and "at most 25 words" in system and "bullet" in system


def test_text_without_a_model_still_completes():
    plan = AlignmentPlan("hi", NOW, text=TextDirectives(max_words=10))
    text = write_text("hi", plan, llm=None)
    assert text and check_text(text, plan.text) == [] and plan.counters.fallbacks


def test_plan_renders_user_text_without_markup(seat_memory):
    seat_memory.add_turn("s2", "user", "I [bold]hate[/bold] the aisle seat", time=NOW - timedelta(days=1))
    from ibachat.agent.ingest import catch_up

    assert catch_up(seat_memory) == 1
    plan = Planner(seat_memory).plan("Book a flight to Denver", now=NOW, tool=FLIGHT)
    console = Console(record=True, width=200)
    plan.render(console)
    out = console.export_text()
    assert "[bold]hate[/bold]" in out and "window" in out


def test_string_habits_fill_text_parameters_unless_the_task_says_otherwise(tmp_path):
    email = {
        "name": "send_email",
        "description": "Send an email.",
        "parameters": {
            "type": "object",
            "properties": {
                "to": {"type": "string"},
                "body": {"type": "string"},
                "sign_off": {"type": "string"},
            },
            "required": ["to", "body"],
        },
    }
    flight = {
        "name": "fly",
        "description": "Book a flight.",
        "parameters": {
            "type": "object",
            "properties": {"origin": {"type": "string"}, "destination": {"type": "string"}},
            "required": ["origin", "destination"],
        },
    }
    memory = Memory.open(tmp_path / "m", embedder="hash", fsync=False)
    t0 = NOW - timedelta(days=30)
    recs = [
        {
            "session_id": f"s{i}",
            "role": "tool",
            "text": "sent",
            "time": t0 + timedelta(days=i),
            "tool_call": {
                "name": "send_email",
                "arguments": {"to": "Kofi", "body": "hi", "sign_off": "Warm wishes"},
            },
        }
        for i in range(3)
    ] + [{"session_id": "h", "role": "user", "text": "I live in Berlin.", "time": t0}]
    ingest(memory, recs)
    args = (
        Planner(memory)
        .act("Email Marco that the deadline moves a week.", now=NOW, tools=[email])
        .tool_call.arguments
    )
    assert args["sign_off"] == "Warm wishes" and args["to"] == "Marco"
    assert (
        Planner(memory).act("Book a flight to Rome.", now=NOW, tools=[flight]).tool_call.arguments["origin"]
        == "Berlin"
    )
    assert (
        Planner(memory)
        .act("Book a flight from Paris to Rome.", now=NOW, tools=[flight])
        .tool_call.arguments["origin"]
        == "Paris"
    )
    memory.close()


def test_the_nth_means_that_day_of_this_month_or_the_next():
    from datetime import date

    from ibachat.agent.execution.slots import date_question, task_date

    now = datetime(2026, 11, 30, 9, tzinfo=timezone.utc)
    assert task_date("Book my flight to Denver on the 12th", now) == date(2026, 12, 12)
    assert task_date("dinner on the 30th", now) == date(2026, 11, 30)
    # November has no 31st: the last of November, or the 31st a month on? Asked, not guessed.
    assert task_date("the 31st works", now) is None
    assert (
        date_question("the 31st works", now)
        == "November has no 31st: do you mean 30 November or 31 December?"
    )
    assert task_date("the 31st works", datetime(2026, 12, 2, tzinfo=timezone.utc)) == date(2026, 12, 31)
    assert task_date("dentist on the 5th", datetime(2026, 1, 2, tzinfo=timezone.utc)) == date(2026, 1, 5)


def test_offsets_from_a_day_and_spans_from_now_are_read_by_the_grammar():
    from datetime import date

    from ibachat.agent.reading.when import read_when

    now = datetime(2026, 12, 3, 14, tzinfo=timezone.utc)  # a Thursday
    days = {
        "Saturday fortnight": date(2026, 12, 19),
        "tomorrow week": date(2026, 12, 11),
        "three days after tomorrow": date(2026, 12, 7),
        "two weeks on Thursday": date(2026, 12, 24),
        "this coming Thursday": date(2026, 12, 10),
    }
    for words, day in days.items():
        assert read_when(f"book it {words}", now).day == day, words
    soon = read_when("remind me in half an hour", now)
    assert (soon.day, soon.time) == (date(2026, 12, 3), "14:30")
    assert read_when("remind me in a couple of hours", now).question  # how many is not said
    assert read_when("the 45th", now).day is None


def test_an_answer_that_repeats_a_line_is_stopped_and_the_repeats_left_out():
    looping = "Rest is key.\n" + "Try gentle stretching.\n" * 20 + "And more."
    plan = AlignmentPlan("How do I recover?", NOW, text=TextDirectives())
    text = write_text("How do I recover?", plan, llm=ScriptedLLM([looping]))
    assert text.count("Try gentle stretching.") == 1 and "And more." not in text
    assert any("repeating itself" in f for f in plan.counters.fallbacks)


def test_a_numbered_list_that_repeats_its_item_is_stopped_and_the_repeats_left_out():
    items = "\n".join(f"{n}. Don't forget to wear a raincoat." for n in range(2, 40))
    looping = f"1. Don't forget to wear socks.\n{items}\n- don't forget to wear a raincoat\n"
    plan = AlignmentPlan("Any tips for a rainy day?", NOW, text=TextDirectives())
    text = write_text("Any tips for a rainy day?", plan, llm=ScriptedLLM([looping]))
    assert text == "1. Don't forget to wear socks.\n2. Don't forget to wear a raincoat."
    assert any("repeating itself" in f for f in plan.counters.fallbacks)
    # a list whose items differ is no loop, numbered or not
    varied = "\n".join(f"{n}. Visit museum number {n}." for n in range(1, 8))
    assert (
        write_text("Ideas?", AlignmentPlan("Ideas?", NOW, text=TextDirectives()), llm=ScriptedLLM([varied]))
        == varied
    )


def test_one_value_for_both_ends_of_a_trip_is_dropped_but_equal_enum_values_are_not():
    from ibachat.agent.execution.execute import _same_place

    now = datetime(2026, 12, 1, 10, tzinfo=timezone.utc)
    trip = {
        "properties": {
            "origin": {"type": "string"},
            "destination": {"type": "string"},
            "intensity": {"type": "string", "enum": ["low", "high"]},
            "impact": {"type": "string", "enum": ["low", "high"]},
        }
    }
    args = {"origin": "Madrid", "destination": "Madrid", "intensity": "low", "impact": "low"}
    assert _same_place(args, trip, "Book me a flight to Madrid next Friday", now) == ["origin"]
    assert args == {"destination": "Madrid", "intensity": "low", "impact": "low"}


def test_between_two_tools_that_fit_the_one_the_users_past_calls_went_to_is_taken(tmp_path, minilm):
    from ibachat.agent.execution.tools import as_task_tool, get_tool
    from ibachat.agent.planner import Planner

    trip = [as_task_tool(get_tool("book_flight")), as_task_tool(get_tool("book_train"))]
    memory = Memory.open(tmp_path / "m", embedder=minilm, fsync=False)
    t0 = NOW - timedelta(days=40)
    ingest(
        memory,
        [
            {
                "session_id": f"s{i}",
                "role": "tool",
                "text": "booked",
                "time": t0 + timedelta(days=7 * i),
                "tool_call": {"name": "book_train", "arguments": {"destination": city, "date": "2026-10-01"}},
            }
            for i, city in enumerate(["York", "Durham", "Leeds"])
        ],
    )
    out = Planner(memory).act("Take me to Ghent on Thursday 12 March.", now=NOW, tools=trip)
    assert out.tool_call is not None and out.tool_call.name == "book_train", (out.question, out.route.why)
    assert "book_train run 3 time(s) before" in out.route.why
    empty = Memory.open(tmp_path / "e", embedder=minilm, fsync=False)
    assert Planner(empty).act("Take me to Ghent on Thursday 12 March.", now=NOW, tools=trip).question
    memory.close()
    empty.close()


@pytest.fixture(scope="module")
def minilm():
    from memory.embedders.registry import load_embedder

    return load_embedder("minilm")


def test_schema_error_agrees_with_jsonschema_and_checks_the_schema_once():
    from ibachat.agent.execution.tools import schema_error

    cases = [
        ({"type": "integer", "minimum": 1, "maximum": 8}, 3),
        ({"type": "integer", "minimum": 1, "maximum": 8}, 9),
        ({"type": "string", "enum": ["hot", "mild"]}, "medium"),
        ({"type": "array", "items": {"type": "string", "maxLength": 4}}, ["ok", "too long"]),
        ({"type": "string", "pattern": "^[0-9]{2}:[0-9]{2}$"}, "7pm"),
    ]
    for schema, value in cases:
        try:
            jsonschema.validate(value, schema)
            expected = None
        except jsonschema.ValidationError as err:
            expected = (err.validator, err.message)
        got = schema_error(value, schema)
        assert (None if got is None else (got.validator, got.message)) == expected, (schema, value)
    with pytest.raises(jsonschema.SchemaError):  # a malformed schema is refused, as validate refuses it
        schema_error(1, {"type": "integer", "minimum": "one"})
