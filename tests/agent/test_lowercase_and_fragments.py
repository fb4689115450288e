"""Messages typed the way people text: all in lower case, with shortenings, as a thing and its details.

Probes in words of our own (other places, shows and plans than any routing set's), each failing on the
code before these mechanisms:

- an all-lower-case message has its names read as names (a word the dictionary has as no common word),
  so "cab to gatwick" is a ride to a place and not "to gatwick" as a verb; its places fill the call;
- a number that counts a common noun ("2 weeks") is a count, and a day the day reader reads ("fri
  evening", "next thurs") makes a phrase timed, so a thing with a count and a day is asked for;
- texting days ("2moro", "tmr") are read as days and quoted as typed;
- a thing named and a question about it ("... any good?") asks an opinion, never an action;
- what a thing is for, when that has a name ("2 seats for Hamlet"), weighs for a tool with a title.
"""

from __future__ import annotations

from datetime import date, datetime, timezone

import pytest

from ibachat.agent.execution.router import route
from ibachat.agent.execution.tools import as_task_tool, tools_for
from ibachat.agent.reading.acts import read_act, truecased
from ibachat.agent.reading.frame import read_frame
from ibachat.agent.reading.when import read_when

TOOLS = [as_task_tool(t) for t in tools_for()]
NOW = datetime(2026, 12, 1, 10, 0, tzinfo=timezone.utc)  # a Tuesday


@pytest.fixture(scope="module")
def minilm():
    from memory.embedders.registry import load_embedder

    return load_embedder("minilm").embed_batch


def test_names_in_a_lower_case_message_are_read_as_names_and_nothing_else_changes_case():
    assert truecased("cab to gatwick 5am tomorrow") == "cab to Gatwick 5am tomorrow"
    assert truecased("the rose by the bill") == "the rose by the bill"  # common words stay as typed
    assert truecased("Cab to gatwick") == "Cab to gatwick"  # the user's own casing is kept
    # "I" and words in capitals for stress say nothing of how the user writes names
    assert truecased("i need a cab to gatwick, NOT a minivan") == "i need a cab to Gatwick, NOT a minivan"
    assert truecased("I need a cab to gatwick") == "I need a cab to Gatwick"


@pytest.mark.parametrize(
    ("message", "tool"),
    [
        ("cab to gatwick 5am tmrw", "book_ride"),
        ("2 seats for Hamlet fri evening", "book_tickets"),
    ],
)
def test_texted_requests_reach_their_tool(minilm, message, tool):
    found = route(message, TOOLS, minilm)
    assert found.kind == "tool" and found.tool is not None and found.tool["name"] == tool, found.why


@pytest.mark.parametrize(
    "message",
    [
        "i flew to malaga last week",
        "my flight to gatwick got cancelled lol",
        "we drove from leeds to york yesterday",
        "meal plan from my dietitian: 5 days, low salt. any good?",
        "workout plan from a youtuber: 6 days, no rest. too much?",
        "omg lol my dog ate the whole pizza off the counter",
    ],
)
def test_stories_and_questions_about_a_thing_stay_text(minilm, message):
    assert route(message, TOOLS, minilm).kind == "text"


def test_a_thing_and_a_question_about_it_is_no_request():
    assert read_act("meal plan from my dietitian: 5 days, low salt. any good?").kind != "request"


def test_a_count_of_weeks_makes_a_plan_a_request():
    act = read_act("workout plan 6 weeks")
    assert act.kind == "request" and act.requests[0].form == "fragment"


def test_seats_for_a_named_show_at_a_named_place_is_never_a_table_alone(minilm):
    found = route("2 seats for Hamlet at the Globe fri evening", TOOLS, minilm)
    names = {t["name"] for t in found.options} if found.kind == "ask" else {(found.tool or {}).get("name")}
    assert "book_tickets" in names, found.why


def test_the_places_of_a_lower_case_journey_fill_both_ends():
    places = {p.role: p.span.text for p in read_frame("flight dublin to lisbon next fri").places}
    assert places == {"origin": "dublin", "destination": "lisbon"}  # the user's own spelling


@pytest.mark.parametrize(
    ("message", "day", "words"),
    [("dentist 2moro pm", date(2026, 12, 2), "2moro"), ("yoga tmr at 6pm", date(2026, 12, 2), "tmr")],
)
def test_texting_days_are_read_and_quoted_as_typed(message, day, words):
    when = read_when(message, NOW)
    assert when.day == day
    assert when.day_words == words


@pytest.mark.parametrize(
    ("message", "ends"),
    [
        ("get me a cab home from the airport at 6", {"destination": "home", "origin": "the airport"}),
        ("could you sort a car home from the rehearsal at ten?", {"destination": "home"}),
        ("fly me home to Oslo from Rome on the 9th", {"destination": "Oslo", "origin": "Rome"}),
    ],
)
def test_home_with_no_preposition_is_where_a_trip_ends_unless_a_place_is_said_with_to(message, ends):
    places = {p.role: p.span.text for p in read_frame(message).places if p.role in ends}
    assert places == ends


def test_a_place_said_with_no_preposition_fills_only_its_own_role():
    from ibachat.agent.alignment.request_values import stated_values

    schema = {
        "type": "object",
        "properties": {
            "pickup_location": {"type": "string", "description": "where the car is collected"},
            "pickup_date": {"type": "string", "format": "date"},
        },
    }
    got = stated_values(schema, "book a car home for saturday", now=NOW)
    assert "pickup_location" not in got  # "home" is where it goes, never where it is collected


@pytest.mark.parametrize(
    ("message", "head"),
    [
        ("I need a lift home from the pub around 11, can you sort it?", "lift"),
        ("we want a cake for the party at the office on friday, could you order one?", "cake"),
        ("I'm nearly out of my inhaler, can you reorder it", "inhaler"),
    ],
)
def test_a_pronoun_stands_for_the_thing_wanted_not_a_place_it_is_at(message, head):
    requests = read_act(message).requests
    assert requests and requests[-1].head == head


@pytest.mark.parametrize("message", ["book me a taxi home at midnight", "get me a minicab home from the gig"])
def test_the_vehicle_before_home_is_the_thing_asked_for(minilm, message):
    found = route(message, TOOLS, minilm)
    assert found.kind == "tool" and found.tool is not None and found.tool["name"] == "book_ride", found.why
