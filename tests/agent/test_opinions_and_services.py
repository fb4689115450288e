"""Opinions asked, things made from a clause, and services done to the user: read from the parse.

Probes in words of our own (other places, trips, dishes and people than any routing set's); 24 of the
37 fail on the code before these mechanisms, the rest guard what must not change with them:

- "if X were otherwise, would you ...?" asks what the assistant would do: an opinion, never an action;
  a real condition ("would you book it if they have space") stays a request;
- a verb of opinion opening a message with a clause of its own ("reckon it's worth ...", "think we
  should ...") has "do you" or "I" left out: a question or a musing, not a command;
- a verb of making takes a "what ..." clause as the thing it makes ("put together what we eat this
  week"), where a verb of telling takes it as information ("tell me what I should eat");
- "come up with", "find out about": the particle and the preposition after it make the verb;
- "ask <someone> what ..." asks for information; "ask <someone> for <thing>" asks for the thing;
- an arrow between two places is "to"; "by rail" / "by air" names which of the tools that go it is;
- "from the chemist": the kind of place a thing comes from, by meaning, names the tool whose own
  description gets it from such a place ("a prescription refill from a pharmacy");
- a thing asked for to do something to the user ("a car to collect me") is worked by someone else, so
  a tool whose own description says its thing is worked by the user ("to drive yourself") does not fit.
"""

from __future__ import annotations

import pytest

from ibachat.agent.execution.router import route
from ibachat.agent.execution.tools import as_task_tool, tools_for
from ibachat.agent.reading.acts import read_act
from ibachat.agent.reading.spellings import spelled_out

TOOLS = [as_task_tool(t) for t in tools_for()]


@pytest.fixture(scope="module")
def minilm():
    from memory.embedders.registry import load_embedder

    return load_embedder("minilm").embed_batch


def _tool(message: str, embed) -> str:
    found = route(message, TOOLS, embed)
    return found.tool["name"] if found.kind == "tool" and found.tool is not None else found.kind


@pytest.mark.parametrize(
    "message",
    [
        "If you had a free weekend, would you go to Rome or Vienna?",
        "If the tickets were half price, would you buy four?",
        "If I were training for a marathon, would you book a physio or a sports massage first?",
        "reckon it's worth booking the early ferry or nah",
        "think we should get a cab or just walk it",
        "guess I'll order the usual pizza later then",
        "ask Sam what he wants for dinner",
    ],
)
def test_opinions_and_musings_ask_for_no_action(minilm, message):
    assert not read_act(message).asks or _tool(message, minilm) == "text"


@pytest.mark.parametrize(
    ("message", "tool"),
    [
        ("Would you book me a table at Dishoom if they have space at 8?", "book_table"),
        ("reckon you could get us a table at Nando's for 7?", "book_table"),
        ("can you come up with a stretching plan for my lower back, twice a week?", "create_workout_plan"),
        ("could you come up with a week of cheap dinners for two", "create_meal_plan"),
        ("draw up what I'll train each day next week", "create_workout_plan"),
        ("can you ask the pharmacy to refill my inhaler", "refill_prescription"),
        ("paris → brussels by rail on the 15th, quiet coach", "book_train"),
        ("get me to Rome by air next week", "book_flight"),
        ("get a car to pick me up at 6 from the station", "book_ride"),
        ("I need a car to drive me to the hospital tomorrow at 8", "book_ride"),
        ("rent me a car to take us round Skye for 4 days", "rent_car"),
        ("I need a car for the weekend in Cork", "rent_car"),
    ],
)
def test_requests_in_these_forms_reach_their_tool(minilm, message, tool):
    assert _tool(message, minilm) == tool


def test_information_verbs_keep_their_clause_as_words():
    assert not read_act("tell me what I should eat after a run").asks
    assert not read_act("find out about the train times to York").asks or (
        read_act("find out about the train times to York").requests[0].verb == "find out about"
    )


def test_a_verb_of_making_takes_the_clause_as_what_it_makes():
    found = read_act("could you put together what we'll eat this week, nothing with nuts")
    assert found.asks and found.requests[0].verb == "put together"
    assert read_act("can you come up with a plan").requests[0].verb == "come up with"


def test_asking_someone_for_a_thing_asks_for_the_thing():
    request = read_act("ask the bakery for two sourdough loaves for Saturday").requests[0]
    assert request.head == "loaf"


def test_an_arrow_between_places_reads_as_to():
    assert spelled_out("paris → brussels") == "paris to brussels"
    assert spelled_out("LHR -> JFK friday") == "LHR to JFK friday"
    assert spelled_out("a -> b") == "a to b"
    assert spelled_out("x = y - > z") == "x = y - > z"  # no arrow, nothing changed


def test_a_service_to_the_user_is_read_with_its_verb():
    assert read_act("get a car to collect me from home at 4").requests[0].serves == "collect"
    assert read_act("I need a car for the weekend").requests[0].serves == ""


@pytest.mark.parametrize(
    ("message", "options"),
    [
        # the kind of thing names one tool, the thing itself another: asked, never guessed
        ("order me a new yoga mat, non-slip, under 30 quid", {"book_fitness_class", "buy_product"}),
        ("buy a coffee grinder", {"order_coffee", "buy_product"}),
        # a dish got "from" a named place: no tool that happens at a place (a class at a studio) fits
        ("get me pad thai from Thai Orchid", {"order_food", "order_coffee"}),
    ],
)
def test_a_kind_or_a_source_that_points_elsewhere_is_asked(minilm, message, options):
    found = route(message, TOOLS, minilm)
    assert found.kind == "ask" and {t["name"] for t in found.options[:2]} == options, found.why


@pytest.mark.parametrize(
    ("message", "tool"),
    [
        ("get me a train ticket to York", "book_train"),  # the ticket is the train's own thing
        ("book me a yoga class for thursday", "book_fitness_class"),
        ("book Jake a physio session next week, his knee's playing up again", "book_appointment"),
        ("Purchase a 30-metre garden hose, eco-friendly if there is one.", "buy_product"),
        ("Fly me out of Vancouver the day before, economy, aisle seat if possible", "book_flight"),
        (
            "I need to be in Toronto for a wedding on the 21st. Fly me out of Vancouver the day before",
            "book_flight",
        ),
    ],
)
def test_what_the_thing_is_decides(minilm, message, tool):
    assert _tool(message, minilm) == tool


def test_being_somewhere_is_going_there_and_a_lower_case_name_is_no_verb(minilm):
    request = read_act("I need to be at Heathrow by 6am tomorrow").requests[0]
    assert ("to", "Heathrow") in request.places and not request.venues
    assert ("from", "Vancouver") in read_act("fly me out of Vancouver on Friday").requests[0].places
    found = read_act("edinburgh -> london kings x fri morning, 2 adults")
    assert found.requests and found.requests[0].verb is None  # a journey, not the verb "edinburgh"
    assert route("I need to be at Heathrow by 6am tomorrow", TOOLS, minilm).kind == "ask"
    assert route("edinburgh -> london kings x fri morning, 2 adults", TOOLS, minilm).kind == "ask"


def test_a_word_english_has_only_as_a_noun_opens_no_command():
    found = read_act("oat flat white, large, from Pret on the corner, for 8:15")
    assert all(r.verb != "oat" for r in found.requests)
    assert read_act("text Sam that I'm late").requests[0].verb == "text"  # a verb of the request classes
    assert not read_act("signed up for a spin class and skipped every one, classic me").asks


@pytest.mark.parametrize(
    ("message", "tool"),
    [
        ("need a top-up of my usual from the chemist", "refill_prescription"),
        ("can you get more of my levothyroxine from the chemist", "refill_prescription"),
    ],
)
def test_the_kind_of_place_a_thing_comes_from_names_the_tool_that_gets_it_there(minilm, message, tool):
    assert _tool(message, minilm) == tool
