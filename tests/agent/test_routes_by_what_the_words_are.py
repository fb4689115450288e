"""What a word is decides which tool, if any, it points to (session 33). On the code before: "a
refurbished iPad Air" booked a flight (a product's name word), "a Lego set" set a reminder (a tool's
verb as a noun), "pause my membership" fitted no tool that freezes one, "anniversary 🥂 can you get
us into ..." was a question, a verbless order ending "thanks legend" was a statement, and "can she be
seen at the vet friday?" was a question.

Probes in words of our own; the catalogue's tools or tools of our own, an empty store and MiniLM.
"""

from __future__ import annotations

import pytest

from ibachat.agent.reading.acts import read_act

GYM = [
    {
        "name": "freeze_club_membership",
        "description": "Freeze a sports club membership for a number of months.",
        "parameters": {
            "type": "object",
            "properties": {"club": {"type": "string"}, "months": {"type": "integer"}},
            "required": ["club"],
        },
    }
]
PET = [
    {
        "name": "book_pet_clinic",
        "description": "Book an appointment at the vet for a pet.",
        "parameters": {
            "type": "object",
            "properties": {"pet_name": {"type": "string"}, "date": {"type": "string", "format": "date"}},
        },
    }
]


def _name(route):
    return (route.tool or {}).get("name")


@pytest.mark.parametrize(
    "text",
    [
        "order a refurbished MacBook Air, under £700",  # "Air" names no flight
        "buy the Kindle Paperwhite Signature Edition for my dad",
    ],
)
def test_a_word_of_a_product_name_points_to_no_other_tool(empty_planner, catalogue_tools, text):
    assert _name(empty_planner.route(text, catalogue_tools)) in (None, "buy_product")


@pytest.mark.parametrize(
    "text",
    [
        "get my niece a Lego set for her birthday, it needs to arrive by saturday",
        "order a book about volcanoes for my nephew",
    ],
)
def test_a_tool_verb_said_as_a_noun_names_no_tool(empty_planner, catalogue_tools, text):
    assert _name(empty_planner.route(text, catalogue_tools)) not in (
        "set_reminder",
        "book_table",
        "book_hotel",
    )


def test_a_verb_of_the_same_act_by_meaning(empty_planner):
    r = empty_planner.route("pause my climbing wall membership from january, 2 months", GYM)
    assert _name(r) == "freeze_club_membership", r.why


def test_a_device_verb_fits_no_booking(empty_planner, catalogue_tools):
    assert empty_planner.route("pause the podcast", catalogue_tools).kind == "text"


@pytest.mark.parametrize(
    "text",
    [
        "it's our first date night in months 💃 can you get us a table at Nonna's for 8 on friday?",
        "so done with this week 😩 book me a massage for saturday",
    ],
)
def test_a_pictograph_ends_what_was_said_before_it(text):
    assert read_act(text).kind == "request"


def test_a_pictograph_for_a_thing_stays_in_the_phrase():
    act = read_act("get me a ☕ from the corner place")
    assert act.kind == "request" and "☕" in act.requests[0].clause


@pytest.mark.parametrize(
    "text",
    [
        "two medium mochas from Brew Lab for 9:30 thanks pal",
        "large americano from the station kiosk for 7:45 cheers hun",
    ],
)
def test_thanks_after_a_verbless_order(text):
    assert read_act(text).kind == "request"


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("my rabbit Clover stopped eating yesterday, can he be seen at the vet tomorrow?", "request"),
        ("could I see a podiatrist this week, my heel is killing me", "request"),
        ("can I see you tomorrow?", "question"),
        ("can he speak Portuguese?", "question"),
    ],
)
def test_asking_to_be_seen_by_one_who_serves(text, kind):
    assert read_act(text).kind == kind


def test_asking_to_be_seen_at_the_vet_routes_to_it(empty_planner):
    r = empty_planner.route(
        "my rabbit Clover stopped eating yesterday, can he be seen at the vet tomorrow?", PET
    )
    assert _name(r) == "book_pet_clinic", r.why


LESSONS = [
    {
        "name": "book_swim_lesson",
        "description": "Book a private swimming lesson",
        "parameters": {
            "type": "object",
            "properties": {"swimmer": {"type": "string"}, "date": {"type": "string", "format": "date"}},
            "required": ["swimmer", "date"],
        },
    }
]


@pytest.mark.parametrize(
    "text",
    [
        "book ollie's next lesson with mrs green, saturday at 11am",
        "book isla's next lesson with mrs khan, saturday at 10am",
    ],
)
def test_a_word_that_picks_which_one_is_no_quality_of_the_thing(empty_planner, text):
    """ "next", "usual" say which lesson, not what kind: a fragment with them still fits the tool."""
    assert _name(empty_planner.route(text, LESSONS)) == "book_swim_lesson"


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("bristol to cardiff on sunday, there'll be three of us", "request"),
        ("exeter to plymouth the day after tomorrow", "request"),
        ("Bath to Bristol takes twenty minutes by train", "statement"),
        ("exeter to plymouth was a slog yesterday", "statement"),
        ("we just relocated to Leeds", "statement"),  # the words before "to" are no place
        ("I'm off to Lisbon on friday, can't wait", "statement"),
    ],
)
def test_a_journey_by_its_two_ends_and_a_time(text, kind):
    assert read_act(text).kind == kind, read_act(text).why


def test_a_journey_by_its_two_ends_asks_how_to_go(empty_planner, catalogue_tools):
    r = empty_planner.route("exeter to plymouth the day after tomorrow", catalogue_tools)
    goes = {"book_train", "book_flight", "book_ride", "rent_car"}
    assert r.kind == "ask" and {o["name"] for o in r.options} <= goes or _name(r) in goes, r.why


@pytest.mark.parametrize(
    ("text", "tool"),
    [
        ("could you get us a booking at Zizzi for two tonight around 8?", "book_table"),
        ("sort me a rental from Gatwick, automatic, picking up friday, back sunday", "rent_car"),
    ],
)
def test_the_act_said_as_a_noun_made_from_its_verb_still_names_the_tool(
    empty_planner, catalogue_tools, text, tool
):
    """A guard beside the rule above: "a booking", "a rental" are the act itself, not a thing."""
    r = empty_planner.route(text, catalogue_tools)
    assert _name(r) == tool or (r.kind == "ask" and tool in {o["name"] for o in r.options}), r.why


@pytest.mark.parametrize("text", ["set the thermostat to 19 before bed", "put the oven on 180 for the roast"])
def test_a_verb_that_does_anything_names_no_tool_for_a_thing_it_does_not_hold(
    empty_planner, catalogue_tools, text
):
    """ "set" is set_reminder's act, but setting a thermostat is no reminder (before: set_reminder)."""
    assert _name(empty_planner.route(text, catalogue_tools)) != "set_reminder"


@pytest.mark.parametrize(
    "text", ["set a reminder for the dentist at 4", "put a reminder in for the recycling, thursday 7am"]
)
def test_with_its_own_thing_the_general_verb_still_names_it(empty_planner, catalogue_tools, text):
    assert _name(empty_planner.route(text, catalogue_tools)) == "set_reminder"


@pytest.mark.parametrize(
    "text", ["heating in the spare room to 20 degrees from 7am", "lights in the hall to 30 percent after 9"]
)
def test_a_thing_set_to_an_amount_is_asked_for(text):
    """A thing and "to" an amount, with no verb, asks for it to be set (before: a statement)."""
    assert read_act(text).kind == "request"


def test_a_return_to_an_amount_is_no_request():
    assert read_act("back to 100 percent after the flu").kind != "request"
