"""Requests said in parts (session 26): a verbless fragment that states a tool's own values is a request
for it, even with a quality the tool has no value for ("low-sodium" beside "10 days, 1,600 kcal"); a
fragment put in a day gone by ("last night") reports what was; and a thing wanted, then a command after a
comma whose pronoun stands for it ("we need a X, just buy one"), is that command done to that thing.

Tools are ones nobody on the team wrote (a boat hire, a dog groomer, a diet coach, a hardware shop).
"""

from __future__ import annotations

import pytest

from ibachat.agent.execution.router import route
from ibachat.agent.reading.acts import read_act


def _tool(name: str, description: str, props: dict) -> dict:
    return {"name": name, "description": description, "parameters": {"type": "object", "properties": props}}


BOAT = _tool(
    "hire_boat",
    "Hire a rowing boat or a motor boat on the lake by the hour.",
    {
        "boat_type": {"type": "string", "enum": ["rowing", "motor", "pedalo"]},
        "hours": {"type": "integer", "minimum": 1, "maximum": 8},
        "people": {"type": "integer", "minimum": 1, "maximum": 8},
        "date": {"type": "string", "format": "date"},
        "life_jackets": {"type": "boolean"},
    },
)
GROOMER = _tool(
    "book_grooming",
    "Book a dog groomer for a wash, cut or nail trim.",
    {
        "salon": {"type": "string", "description": "grooming salon"},
        "service": {"type": "string", "enum": ["wash", "full_groom", "nail_trim"]},
        "dog_size": {"type": "string", "enum": ["small", "medium", "large"]},
        "date": {"type": "string", "format": "date"},
    },
)
DIET = _tool(
    "plan_diet",
    "Write a diet plan of meals for some days.",
    {
        "days": {"type": "integer", "minimum": 1, "maximum": 30},
        "kcal_per_day": {"type": "integer", "minimum": 1000, "maximum": 4000},
        "style": {"type": "string", "enum": ["balanced", "vegetarian", "vegan", "keto"]},
        "avoid": {"type": "array", "items": {"type": "string"}},
    },
)
HARDWARE = _tool(
    "buy_hardware",
    "Buy tools and hardware from a DIY shop for delivery.",
    {"item": {"type": "string"}, "max_price": {"type": "number"}},
)
TOOLS = [BOAT, GROOMER, DIET, HARDWARE]


@pytest.mark.parametrize(
    ("text", "tool"),
    [
        # "low-fat" is no style the tool has; the days, the calories and what to avoid are its own
        ("fortnight low-fat diet plan, 1400 kcal, no dairy", "plan_diet"),
        # "chunky", "relaxed", "cheap": qualities the tool has no value for, beside its own values
        ("chunky pedalo for 3 people, two hours, with life jackets", "hire_boat"),
        ("relaxed motor boat, 4 people, 3 hours", "hire_boat"),
        ("cheap rowing boat for two, an hour", "hire_boat"),
    ],
)
def test_a_fragment_that_states_the_tool_s_own_values_is_a_request(minilm, text: str, tool: str) -> None:
    r = route(text, TOOLS, minilm)
    assert r.kind == "tool" and r.tool["name"] == tool, r.why


@pytest.mark.parametrize(
    "text",
    [
        "pedalo on the lake last weekend, 4 of us, two hours, brilliant",
        "full groom at Waggy Tails yesterday, she looks like a new dog",
    ],
)
def test_a_fragment_in_a_day_gone_by_reports_it(minilm, text: str) -> None:
    assert route(text, TOOLS, minilm).kind == "text"


def test_a_fragment_that_states_nothing_of_the_tool_stays_a_comment(minilm) -> None:
    assert route("awful boat, leaky and slow", TOOLS, minilm).kind == "text"


@pytest.mark.parametrize(
    ("text", "verb", "thing"),
    [
        ("we need a new spirit level, a cheap one is fine, just buy one", "buy", "spirit level"),
        ("I need a hedge trimmer for Saturday, order one from the DIY shop", "order", "hedge trimmer"),
    ],
)
def test_a_want_then_a_command_on_its_pronoun_is_that_command_on_the_thing(
    text: str, verb: str, thing: str
) -> None:
    first = read_act(text).requests[0]
    assert first.verb == verb and thing in first.obj


def test_a_want_then_a_command_on_its_pronoun_routes_by_the_command(minilm) -> None:
    from ibachat.agent.meaning import catalogue

    r = route("we need a new cordless drill, a cheap one is fine, just buy one", catalogue(), minilm)
    assert r.kind == "tool" and r.tool["name"] == "buy_product", r.why


def test_a_want_then_a_plan_of_one_s_own_stays_a_want() -> None:
    act = read_act("we need a plumber, I'll call one tomorrow")
    assert all(r.verb is None for r in act.requests)


@pytest.mark.parametrize(
    ("text", "tool"),
    [
        ("motor boat for 4 tomorrow at 10, we'll be at the jetty by 9:45", "hire_boat"),
        ("2 hours on a rowing boat this Saturday at 11 — I'll bring the life jackets", "hire_boat"),
    ],
)
def test_a_thing_asked_for_then_the_user_s_own_plan_is_still_asked_for(minilm, text: str, tool: str) -> None:
    r = route(text, TOOLS, minilm)
    assert r.kind == "tool" and r.tool["name"] == tool, r.why


@pytest.mark.parametrize(
    "text",
    [
        "pedalo on the lake last weekend, I'll never do that again",
        "big groom day tomorrow, we'll see how she copes",
    ],
)
def test_a_comment_then_the_user_s_own_plan_stays_text(minilm, text: str) -> None:
    assert route(text, TOOLS, minilm).kind == "text"


@pytest.mark.parametrize(
    ("text", "head"),
    [
        ("my husband needs running shoes size 10 by friday, order some please", "shoe"),
        ("my daughter needs wellies size 11 for school, can you order some", "wellie"),
    ],
)
def test_a_pronoun_stands_for_the_thing_not_its_measure(text: str, head: str) -> None:
    first = read_act(text).requests[0]
    assert first.head == head, first


@pytest.mark.parametrize(
    "text",
    [
        "hire us a rowing boat for 2 hours tomorrow at 10?",
        "Can't face the crowds. Get us a motor boat for an hour on Sunday, would you?",
    ],
)
def test_a_command_with_a_question_mark_or_tag_is_a_request(minilm, text: str) -> None:
    r = route(text, TOOLS, minilm)
    assert r.kind == "tool" and r.tool["name"] == "hire_boat", r.why


@pytest.mark.parametrize(
    "text",
    [
        "fancy a boat on the lake?",
        "hire a rowing boat or a pedalo?",
        "do boat hire places usually give you life jackets?",
        "remind me, what time does the lake close?",
    ],
)
def test_a_wish_or_a_choice_asked_stays_a_question(text: str) -> None:
    assert read_act(text).kind == "question"


def test_a_command_whose_object_s_clause_the_parse_made_its_subject() -> None:
    act = read_act("Draft a message to the club saying Sunday's match is off, don't send it yet")
    assert act.requests and act.requests[0].verb == "draft"


def test_a_verb_written_with_its_prefix_apart_is_the_verb() -> None:
    act = read_act("re-book the groomer for Friday please")
    assert act.requests and act.requests[0].verb == "rebook"
