"""Requests said without the usual verbs (session 25): "I should like to ...", "I'm after ...", things
counted and got "from" a named place with no verb at all; and what such requests say: a reminder's
text is what follows "about" when the only "to" belongs to another clause ("so I've time to get a
gift"), a texting "pls" is never a thing asked for, a short form of an allowed value in a list
("tech") stays in it to the call, and a quote of words said apart stands when each part does.

Tools are ones nobody on the team wrote (a florist, a deli, a garden centre, a podcast digest).
"""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from ibachat.agent.alignment.request_values import stated_values
from ibachat.agent.execution.reasons import quoted_in
from ibachat.agent.execution.router import route
from ibachat.agent.reading.acts import read_act

NOW = datetime(2027, 3, 9, 9, 30, tzinfo=timezone.utc)


def _tool(name: str, description: str, props: dict) -> dict:
    return {"name": name, "description": description, "parameters": {"type": "object", "properties": props}}


FLORIST = _tool(
    "order_flowers",
    "Order a bouquet from a florist for delivery.",
    {"florist": {"type": "string"}, "stems": {"type": "array", "items": {"type": "string"}}},
)
DELI = _tool(
    "order_deli",
    "Order sandwiches and salads from a deli for collection.",
    {"deli": {"type": "string"}, "items": {"type": "array", "items": {"type": "string"}}},
)
GARDEN = _tool(
    "book_garden_visit",
    "Book a gardener to visit and tidy the garden.",
    {"date": {"type": "string", "format": "date"}, "jobs": {"type": "array", "items": {"type": "string"}}},
)
TOOLS = [FLORIST, DELI, GARDEN]


@pytest.mark.parametrize(
    "text",
    [
        "I should like to book a gardener for Thursday to tidy the borders",
        "I'm after a gardener on Thursday for the hedges",
    ],
)
def test_a_want_in_other_words_is_a_request(text: str) -> None:
    assert read_act(text).kind == "request"


@pytest.mark.parametrize(
    "text",
    [
        "they're after me to finish the report",
        "I'm after some advice on hedges",
        "we had two rolls from Dell's",
    ],
)
def test_what_is_no_request_stays_none(text: str) -> None:
    assert read_act(text).kind != "request"


def test_things_counted_from_a_named_place_are_an_order(minilm) -> None:
    r = route("two pastrami ryes and a slaw from Katz Corner", TOOLS, minilm)
    assert r.kind == "tool" and r.tool["name"] == "order_deli", (r.kind, r.why)


REMINDER = {
    "type": "object",
    "properties": {"text": {"type": "string"}, "when": {"type": "string", "format": "date-time"}},
}


@pytest.mark.parametrize(
    ("text", "said"),
    [
        (
            "remind me about Gran's 90th on the 12th at 6pm - a day early so I've time to get flowers",
            "Gran's 90th",
        ),
        ("remind me to ring the vet on Friday so she has time to order the tablets", "ring the vet"),
    ],
)
def test_a_reminder_is_of_what_follows_about_or_its_own_to(text: str, said: str) -> None:
    got = stated_values(REMINDER, text, NOW)
    assert got["text"].value == said


def test_a_texting_please_is_no_thing_asked_for() -> None:
    schema = {"type": "object", "properties": {"items": {"type": "array", "items": {"type": "string"}}}}
    got = stated_values(schema, "deli run pls: pastrami, pickles, rye bread", NOW)
    assert got["items"].value == ["pastrami", "pickles", "rye bread"]


def test_a_short_form_in_a_list_of_allowed_values_reaches_the_call(tmp_path) -> None:
    from ibachat.agent.planner import Planner
    from memory.memory import Memory

    digest = _tool(
        "subscribe_podcasts",
        "Subscribe to a weekly podcast digest on chosen subjects.",
        {
            "subjects": {
                "type": "array",
                "items": {"type": "string", "enum": ["history", "technology", "comedy", "economics"]},
            }
        },
    )
    memory = Memory.open(tmp_path / "m", embedder="minilm", fsync=False)
    out = Planner(memory, None).act(
        "subscribe me to a podcast digest on comedy, tech and history", now=NOW, tools=[digest]
    )
    assert out.tool_call is not None
    assert sorted(out.tool_call.arguments.get("subjects") or []) == ["comedy", "history", "technology"]


def test_a_quote_of_words_said_apart_stands_when_each_part_does() -> None:
    task = "a digest on comedy, tech and history"
    assert quoted_in("comedy; tech; history", task)
    assert not quoted_in("comedy; science", task)


@pytest.mark.parametrize(
    "text",
    [
        "Could the osteopath see me on Thursday afternoon?",
        "can the farrier look at my mare's hooves tomorrow?",
    ],
)
def test_someone_who_serves_asked_to_see_to_the_user_at_a_time_is_a_request(text: str) -> None:
    act = read_act(text)
    assert act.kind == "request"
    # what is asked for is the one who serves, never what they see to ("my car" is no car to hire)
    assert act.requests[0].head in ("osteopath", "farrier")


@pytest.mark.parametrize(
    "text",
    [
        "can the osteopath see children on Saturdays?",  # what is done, asked: nothing of the user's
        "could my sister see you on Friday?",  # "you": the assistant is no one who serves here
        "can the kids stay up late tonight?",
    ],
)
def test_questions_about_what_others_do_stay_questions(text: str) -> None:
    assert read_act(text).kind != "request"


ITEMS = {
    "type": "object",
    "properties": {"deli": {"type": "string"}, "items": {"type": "array", "items": {"type": "string"}}},
    "required": ["items"],
}


@pytest.mark.parametrize(
    ("text", "items"),
    [
        # no verb before them: the first noun phrase and its conjuncts, whole; "make it ..." says how
        ("egg mayo baguette and crisps from Katz Corner, make it quick", ["egg mayo baguette", "crisps"]),
        (
            "pastrami sandwiches and coleslaw from Katz Corner, make it extra mustard",
            ["pastrami sandwiches", "coleslaw"],
        ),
        # a first word that is a verb, parsed as part of a compound noun
        ("order pastrami sandwiches and coleslaw from Katz Corner", ["pastrami sandwiches", "coleslaw"]),
        # the thing asked for spelled out after a dash: the list, not "my usual order"
        (
            "can you get my usual order in - bagels, lox, capers - from Katz Corner",
            ["bagels", "lox", "capers"],
        ),
    ],
)
def test_the_things_of_a_request_said_without_the_usual_verb(text: str, items: list[str]) -> None:
    got = stated_values(ITEMS, text, NOW)
    assert got["items"].value == items


DIGEST = {
    "type": "object",
    "properties": {
        "subjects": {
            "type": "array",
            "items": {"type": "string", "enum": ["history", "comedy", "economics", "film"]},
        },
        "skip_subjects": {
            "type": "array",
            "items": {"type": "string", "enum": ["history", "comedy", "economics", "film"]},
        },
    },
}


@pytest.mark.parametrize(
    "text",
    [
        "a digest on history and comedy, none of the economics stuff",
        "podcasts: history + comedy please, skip anything economics",
    ],
)
def test_a_value_turned_down_in_its_clause_leaves_the_list_it_would_join(text: str) -> None:
    got = stated_values(DIGEST, text, NOW)
    assert got["subjects"].value == ["history", "comedy"]
    assert got["skip_subjects"].value == ["economics"]


VAN = {
    "type": "object",
    "properties": {
        "depot": {"type": "string"},
        "bike_rack": {"type": "boolean", "default": False},
        "awning": {"type": "boolean", "default": False},
    },
}


@pytest.mark.parametrize(
    ("text", "quote"),
    [
        ("campervan from the Bristol depot, no need for a bike rack", "no need for a bike rack"),
        ("campervan from the Bristol depot - bike rack not needed", "bike rack not needed"),
    ],
)
def test_what_is_not_needed_is_turned_down_in_the_request_s_own_words(text: str, quote: str) -> None:
    got = stated_values(VAN, text, NOW)
    assert got["bike_rack"].value is False and got["bike_rack"].quote == quote
    assert quoted_in(got["bike_rack"].quote, text)


@pytest.mark.parametrize(
    "text",
    [
        "For the bank holiday I need a gardener on Monday",  # a phrase before the user, then the want
        "After lunch we'd like a gardener to come round",
    ],
)
def test_a_want_after_an_opening_phrase_is_a_request(text: str) -> None:
    assert read_act(text).kind == "request"


def test_places_after_a_break_in_a_told_opening_are_asked() -> None:
    from ibachat.agent.reading.frame import read_frame

    places = read_frame("Going to Gran's for New Year - get us a coach from Derby to Hull on the 30th").places
    told = {p.span.text: p.told for p in places}
    assert told.get("Derby") is False and told.get("Hull") is False  # the trip asked for after it


OUTING = {
    "type": "object",
    "properties": {
        "kind": {"type": "string", "enum": ["cinema", "concert", "sport", "museum"]},
        "seats": {"type": "integer", "minimum": 1},
    },
}


@pytest.mark.parametrize(
    ("text", "kind", "said"),
    [
        ("two seats for the new Bond film on Friday", "cinema", "film"),
        ("get us into the Wolves fixture on Saturday, 3 seats", "sport", "fixture"),
    ],
)
def test_an_allowed_value_named_by_another_word_of_its_kind(text: str, kind: str, said: str) -> None:
    got = stated_values(OUTING, text, NOW)
    assert got["kind"].value == kind and got["kind"].quote == said


def test_a_word_of_a_kind_used_as_a_verb_names_no_value() -> None:
    assert "kind" not in stated_values(OUTING, "we'll play it by ear, two seats for Saturday", NOW)


CALENDAR = {
    "type": "object",
    "properties": {
        "title": {"type": "string"},
        "day": {"type": "string", "format": "date"},
        "minutes": {"type": "integer", "minimum": 5},
    },
}


@pytest.mark.parametrize(
    ("text", "title"),
    [
        ("hold 90 minutes on Thursday for tax paperwork", "tax paperwork"),
        ("keep two hours free on Friday morning for piano practice", "piano practice"),
    ],
)
def test_a_stretch_of_time_is_titled_by_what_it_is_held_for(text: str, title: str) -> None:
    assert stated_values(CALENDAR, text, NOW)["title"].value == title


def test_time_held_for_someone_has_no_title_of_them() -> None:
    assert "title" not in stated_values(CALENDAR, "hold 90 minutes on Thursday for my sister", NOW)


LETTER = {
    "type": "object",
    "properties": {
        "recipient": {"type": "string"},
        "message": {"type": "string", "description": "what the card says"},
        "closing_line": {"type": "string", "description": "how the card is signed"},
        "bcc_self": {"type": "boolean", "description": "send a blind copy to the user", "default": False},
    },
}


def test_a_value_said_with_its_parameter_s_whole_name() -> None:
    got = stated_values(LETTER, "card to Aunt Rosa saying get well soon, Big hugs as the closing line", NOW)
    assert got["closing_line"].value == "Big hugs"
    assert got["message"].value == "get well soon"  # the closing line is no part of the message
    got = stated_values(
        LETTER, "card to Aunt Rosa saying get well soon, closing line with Love from us all", NOW
    )
    assert got["closing_line"].value == "Love from us all"


@pytest.mark.parametrize(
    ("text", "value"), [("card to Rosa, and bcc me", True), ("card to Rosa, don't bcc me", False)]
)
def test_a_flag_for_the_user_is_said_as_me(text: str, value: bool) -> None:
    got = stated_values(LETTER, text, NOW)
    assert got["bcc_self"].value is value and quoted_in(got["bcc_self"].quote, text)


PLAN = {
    "type": "object",
    "properties": {
        "days": {"type": "integer", "minimum": 1},
        "kcal_per_day": {"type": "integer", "minimum": 800, "maximum": 4000},
    },
}


@pytest.mark.parametrize("text", ["a 4-day reset, about 1600 cals", "4 day reset plan, 1600 kcal"])
def test_a_unit_said_short_and_without_its_rate(text: str) -> None:
    assert stated_values(PLAN, text, NOW).get("kcal_per_day").value == 1600


def test_a_parameter_turned_down_by_another_word_for_it() -> None:
    schema = {
        "type": "object",
        "properties": {"replacements": {"type": "string", "enum": ["allowed", "ask", "never"]}},
    }
    got = stated_values(schema, "veg box for Friday, and please don't swap anything this time", NOW)
    assert got["replacements"].value == "never" and quoted_in(
        got["replacements"].quote, "please don't swap anything"
    )


HAMPER = {
    "type": "object",
    "properties": {
        "needs": {"type": "array", "items": {"type": "string", "enum": ["egg_free", "nut_free", "vegan"]}},
    },
}


@pytest.mark.parametrize(
    ("text", "needs", "quote"),
    [
        ("a picnic hamper for Sunday - my son is allergic to eggs", ["egg_free"], "allergic to eggs"),
        ("a picnic hamper for Sunday, no nuts please", ["nut_free"], "no nuts"),
        # the allergy said after the thing
        ("picnic hamper for the 6th, my niece has an egg allergy", ["egg_free"], "egg allergy"),
        (
            "hamper for Sunday, one vegan and one with a nut allergy",
            ["vegan", "nut_free"],
            "vegan; nut allergy",
        ),
    ],
)
def test_a_thing_kept_away_asks_for_the_value_free_of_it(text: str, needs: list[str], quote: str) -> None:
    got = stated_values(HAMPER, text, NOW)
    assert got["needs"].value == needs and got["needs"].quote == quote


def test_a_thing_said_plainly_asks_for_nothing_free_of_it() -> None:
    assert "needs" not in stated_values(HAMPER, "a picnic hamper for Sunday with that nut cake again", NOW)


@pytest.mark.parametrize(
    "text",
    [
        "can you do ferries as well or only trains?",  # what the assistant can do, asked
        "could you book hostels too?",
        "I can't stand group chats. honestly just hate them.",  # a feeling with its "I" left out
    ],
)
def test_what_can_be_done_and_a_feeling_are_no_requests(text: str) -> None:
    assert read_act(text).kind != "request"


def test_a_kind_asked_for_with_its_particulars_is_still_a_request() -> None:
    assert read_act("can you book ferries to Calais for Friday as well?").kind == "request"
