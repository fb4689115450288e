"""What follows a break (session 28): a command after a dash that follows a statement of one's own
("Knackered after the night shift — order ..."), read with the command's own verbs and not the
statement's; a habit told before a dash that does not swallow the command after it, while a story told
with commas and "and" stays a story; "could do with" as a want; a name booked ("reserve Padella") as the
place booked at, for a tool that books no thing of its own; a word that may be a verb after a
statement ("the cottage was gorgeous, bath in the garden") that commands nothing unless it says it is a
command; a thing and how one feels about it ("physio on thursday, dreading it"), which is told.

The words are not those of the sets these were found on, and the tools beside the catalogue's are ones
nobody on the team wrote (a salon, a tutor)."""

from __future__ import annotations

import pytest

from ibachat.agent.execution.router import route
from ibachat.agent.reading.acts import read_act
from tests.agent.test_what_surrounds_a_request import _tool, _values


@pytest.mark.parametrize(
    ("text", "verb"),
    [
        ("Knackered after the night shift — order a veggie burger from Burger Barn to the flat", "order"),
        ("It's been a brutal week – book me a sports massage on Saturday please", "book"),
        ("The boiler's making that noise again — get a plumber round tomorrow morning", "get"),
    ],
)
def test_a_command_after_a_dash_that_follows_a_statement_is_asked(text: str, verb: str) -> None:
    act = read_act(text)
    assert act.kind == "request" and act.requests[0].verb == verb, act


def test_a_habit_told_before_a_dash_does_not_swallow_the_command_after_it() -> None:
    act = read_act("My hay fever always flares up in June and I'm nearly out — reorder my cetirizine please.")
    assert act.kind == "request" and act.requests[0].verb == "reorder", act


@pytest.mark.parametrize(
    "text",
    [
        "every Friday I order a curry, put a film on and fall asleep by nine",
        "I usually book the early train and grab a coffee at the station",
    ],
)
def test_a_story_told_with_commas_and_and_stays_a_story(text: str) -> None:
    assert read_act(text).kind != "request"


@pytest.mark.parametrize(
    "text",
    [
        "we could really do with a window cleaner on Thursday",
        "I could do with a reminder to water the plants",
    ],
)
def test_could_do_with_is_a_want(text: str) -> None:
    act = read_act(text)
    assert act.kind == "request" and act.requests[0].form == "want", act


def test_a_reminder_one_could_do_with_is_set(catalogue_tools, minilm) -> None:
    r = route("honestly I could do with a reminder to call the bank at 4", catalogue_tools, minilm)
    assert r.kind == "tool" and r.tool["name"] == "set_reminder", r.why


SALON = _tool(
    "book_salon",
    "Book a haircut or a colour at a hair salon.",
    {
        "salon": {"type": "string", "description": "which salon"},
        "service": {"type": "string", "enum": ["cut", "colour", "blow_dry"]},
        "date": {"type": "string", "format": "date"},
    },
)
TUTOR = _tool(
    "book_tutor",
    "Book a lesson with a tutor at a tutoring centre.",
    {
        "centre": {"type": "string", "description": "tutoring centre"},
        "subject": {"type": "string", "description": "what the lesson is in"},
    },
)


@pytest.mark.parametrize(
    ("text", "salon"),
    [
        ("reserve Toni and Guy for Thursday, just a cut", None),  # split at "and": no one place, none taken
        ("book Hair Lab for Saturday", "Hair Lab"),
        ("could you book The Chop Shop on friday", "The Chop Shop"),
        ("book Friday for a blow dry", None),  # a day is no place
        ("book Colour for Friday", None),  # a value the tool offers is no place
    ],
)
def test_a_name_booked_is_the_place_booked_at(text: str, salon: str | None) -> None:
    assert _values(SALON, text).get("salon") == salon


def test_a_name_booked_with_a_tool_that_takes_a_thing_of_its_own_is_no_place() -> None:
    assert "centre" not in _values(TUTOR, "book Chemistry for Monday")


@pytest.mark.parametrize(
    "text",
    [
        "the cottage was gorgeous, bath in the garden, log burner in the lounge",
        "My week's been manic — work from home Monday, gym on Tuesday",
        "Loved Porto, fly there again someday maybe",
    ],
)
def test_a_word_that_may_be_a_verb_after_a_statement_commands_nothing(text: str) -> None:
    assert read_act(text).kind != "request", read_act(text)


@pytest.mark.parametrize(
    ("text", "verb"),
    [
        ("the printer's jammed again, email IT about it", "email"),  # a name right after the verb
        ("we need a stair gate for the baby, a standard one is fine, just buy one", "buy"),  # a count
    ],
)
def test_a_command_after_a_statement_that_says_it_is_one_is_asked(text: str, verb: str) -> None:
    act = read_act(text)
    assert act.kind == "request" and verb in [r.verb for r in act.requests], act


def test_a_verb_of_the_request_classes_is_a_word_whatever_the_dictionary() -> None:
    act = read_act("my train got cancelled, rebook me on the next one")
    assert act.kind == "request" and act.requests[0].verb == "rebook", act


@pytest.mark.parametrize(
    "text",
    [
        "physio on thursday, dreading it",
        "Driving lesson at 4 — dreading it",
        "new gym on monday, loving it already",
    ],
)
def test_a_thing_and_how_one_feels_about_it_is_told(text: str) -> None:
    assert read_act(text).kind != "request", read_act(text)


@pytest.mark.parametrize(
    "text", ["table for 3 at 7 tonight, book it", "dentist on thursday at 9, sort it pls"]
)
def test_a_thing_and_a_command_on_it_is_asked(text: str) -> None:
    assert read_act(text).kind == "request", read_act(text)


COURIER_RUN = _tool(
    "courier_run",
    "Collect a parcel and take it somewhere.",
    {
        "pickup_address": {"type": "string", "description": "collection address"},
        "dropoff_address": {"type": "string", "description": "delivery address"},
    },
)


def test_both_ends_of_a_journey_that_are_addresses_go_on_after_a_comma() -> None:
    got = _values(
        COURIER_RUN, "collect a box from Flat 2, 18 Park Road and take it to 3 Quay Street, Truro TR1 2HE"
    )
    assert got == {
        "pickup_address": "Flat 2, 18 Park Road",
        "dropoff_address": "3 Quay Street, Truro TR1 2HE",
    }, got
