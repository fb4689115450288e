"""Short words the small parser misreads (session 26): a weekday written short that is also an English
word ("weds", "sat", "sun") is a day only where a day is said, and then it does not turn a command into
a statement; an apostrophe between letters inside quotes ("'Mum's'") does not end the quote; and of the
two parses of a command, the one that finds more things joined to its object is the list asked for, and
"a" before a plural says the parse ran two things together ("a white bloomer and cheese scones").

Tools are ones nobody on the team wrote (a sports centre, a barber, a print shop, a bakery).
"""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from ibachat.agent.alignment.request_values import stated_values
from ibachat.agent.reading.acts import read_act
from ibachat.agent.reading.when import read_when

NOW = datetime(2027, 5, 4, 9, 0, tzinfo=timezone.utc)  # a Tuesday


def _tool(name: str, description: str, props: dict, required: list[str]) -> dict:
    schema = {"type": "object", "properties": props, "required": required}
    return {"name": name, "description": description, "parameters": schema}


COURT = _tool(
    "book_court",
    "Book a badminton or squash court at a sports centre.",
    {
        "centre": {"type": "string", "description": "sports centre"},
        "date": {"type": "string", "format": "date"},
        "start": {
            "type": "string",
            "pattern": "^([01][0-9]|2[0-3]):[0-5][0-9]$",
            "description": "start time",
        },
    },
    ["date", "start"],
)
PRINTS = _tool(
    "order_prints",
    "Order printed photos or posters from a print shop.",
    {
        "caption": {"type": "string", "description": "caption printed under the photo"},
        "shop": {"type": "string"},
    },
    ["caption"],
)
BAKERY = _tool(
    "order_bakes",
    "Order bread and cakes from a bakery for collection.",
    {"bakery": {"type": "string"}, "items": {"type": "array", "items": {"type": "string"}}},
    ["items"],
)


@pytest.mark.parametrize(
    ("text", "day"),
    [
        ("squash court at Eastside weds at 6:45 please", "2027-05-05"),
        ("cn u get us a court sat at 10", "2027-05-08"),
        ("court for sun, 11am", "2027-05-09"),
        ("see if there's a court free weds", "2027-05-05"),
    ],
)
def test_a_short_weekday_where_a_day_is_said(text: str, day: str) -> None:
    assert str(read_when(text, NOW).day) == day


@pytest.mark.parametrize(
    ("text", "day"),
    [
        ("we sat by the river on Thursday and loved it", "2027-05-06"),
        ("my cousin weds her girlfriend on the 15th", "2027-05-15"),
        ("remind me the sun rises at 5 on Friday", "2027-05-07"),
        ("the kids sat their exams", "None"),
    ],
)
def test_a_short_weekday_that_is_the_word_is_no_day(text: str, day: str) -> None:
    assert str(read_when(text, NOW).day) == day


@pytest.mark.parametrize(
    "text",
    [
        "book a court at Eastside weds at 6:45",
        "reserve the squash court weds at 7 for two of us",
    ],
)
def test_a_command_with_a_short_weekday_stays_a_command(text: str) -> None:
    act = read_act(text)
    assert act.kind == "request" and act.requests


def test_a_command_with_a_short_weekday_fills_the_day_and_time() -> None:
    got = stated_values(COURT["parameters"], "book a court at Eastside weds at 6:45pm", NOW)
    assert got["date"].value == "2027-05-05" and got["start"].value == "18:45"


@pytest.mark.parametrize(
    ("text", "caption"),
    [
        ("print this one with the caption 'Grandad's 80th' from Snappy Prints", "Grandad's 80th"),
        ("order a poster captioned ‘Rosie’s first day’ from Snappy Prints", "Rosie’s first day"),
    ],
)
def test_an_apostrophe_inside_quotes_does_not_end_them(text: str, caption: str) -> None:
    got = stated_values(PRINTS["parameters"], text, NOW)
    assert got["caption"].value == caption


@pytest.mark.parametrize(
    ("text", "items"),
    [
        # the plain parse makes "prawn" a second verb with "sandwiches" its object
        ("order a focaccia and prawn sandwiches from Crumbs", ["focaccia", "prawn sandwiches"]),
        # "a" cannot count "scones": two things, not one kind of scone
        ("order a white bloomer and cheese scones from Crumbs", ["white bloomer", "cheese scones"]),
        ("order a lemon drizzle and chocolate brownies from Crumbs", ["lemon drizzle", "chocolate brownies"]),
        # one thing stays one: no plural for "a" to miscount
        ("order a chicken and mushroom pie from Crumbs", ["chicken and mushroom pie"]),
        ("order a sourdough loaf and almond croissants from Crumbs", ["sourdough loaf", "almond croissants"]),
    ],
)
def test_the_parse_that_finds_every_thing_joined_is_the_list(text: str, items: list[str]) -> None:
    got = stated_values(BAKERY["parameters"], text, NOW)
    assert got["items"].value == items


SEATS = _tool(
    "reserve_seats",
    "Reserve seats at a venue for a performance or a screening.",
    {
        "kind": {"type": "string", "enum": ["movie", "comedy", "opera", "dance"]},
        "title": {"type": "string", "description": "title of the performance"},
        "seats": {"type": "integer", "minimum": 1, "maximum": 10},
    },
    ["title"],
)


@pytest.mark.parametrize(
    ("text", "title"),
    [
        ("reserve 2 seats for the documentary Frozen Planet II on Sunday", "Frozen Planet II"),
        ("reserve seats for the new Paddington film, 3 of us", "Paddington"),
        ("4 seats for the opera La Traviata on the 12th", "La Traviata"),
        # a colon inside the name, a format and a day after it
        ("2 seats for the documentary Planet Earth: Oceans in 3D on Friday", "Planet Earth: Oceans"),
    ],
)
def test_a_title_after_the_words_of_its_kind(text: str, title: str) -> None:
    assert stated_values(SEATS["parameters"], text, NOW)["title"].value == title


def test_a_hyphenated_word_of_a_kind_names_its_value() -> None:
    got = stated_values(SEATS["parameters"], "2 seats for Jo Brand's stand-up on Friday", NOW)
    assert got["kind"].value == "comedy"


BIKE = _tool(
    "book_bike_repair",
    "Book a bike repair at a cycle workshop.",
    {
        "date": {"type": "string", "format": "date"},
        "problem": {"type": "string", "description": "what needs fixing"},
    },
    ["date", "problem"],
)


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        (
            "book the bike workshop for Saturday, I bent my back wheel on a kerb",
            "I bent my back wheel on a kerb",
        ),
        ("bike repair on Friday for my squeaky brakes", "my squeaky brakes"),
        ("can you book a bike repair tomorrow about the gears slipping", "the gears slipping"),
        # "about" runs to its clause's end, short of a day said after it
        (
            "bike repair please, about the back brake that keeps squealing, on Saturday",
            "the back brake that keeps squealing",
        ),
        ("bike repair thurs pls, snapped a chain on the way home lol", "snapped a chain on the way home"),
    ],
)
def test_why_it_is_needed_is_the_reason(text: str, problem: str) -> None:
    assert stated_values(BIKE["parameters"], text, NOW)["problem"].value == problem


@pytest.mark.parametrize(
    "text",
    [
        "book a bike repair for Friday, I booked one last month but missed it",
        "bike repair for my lunch break on Friday",
        "book a bike repair for my son on Friday",
    ],
)
def test_what_was_done_about_it_whom_and_when_are_no_reason(text: str) -> None:
    assert "problem" not in stated_values(BIKE["parameters"], text, NOW)


def test_one_word_after_for_my_may_be_whom_it_is_for() -> None:
    assert "problem" not in stated_values(
        BIKE["parameters"], "book a bike repair for my nephew's on Friday", NOW
    )
    assert "problem" not in stated_values(
        BIKE["parameters"], "book a bike repair for my racer on Friday", NOW
    )


DIGEST = _tool(
    "start_digest",
    "Start a weekly podcast digest.",
    {
        "subjects": {"type": "array", "items": {"type": "string", "enum": ["history", "film", "science"]}},
        "episode_length": {"type": "string", "enum": ["short", "medium", "long"], "default": "medium"},
        "starred": {"type": "boolean", "description": "star it in the library", "default": False},
    },
    [],
)


def test_a_value_after_a_colon_is_a_value_where_no_words_are_kept() -> None:
    got = stated_values(DIGEST["parameters"], "podcast digest: history + film, short only", NOW)
    assert got["episode_length"].value == "short" and got["subjects"].value == ["history", "film"]


@pytest.mark.parametrize(("text", "value"), [("start a history digest and star it", True),
                                             ("start a history digest, don't star it", False)])  # fmt: skip
def test_a_flag_said_as_its_verb_is_set(text: str, value: bool) -> None:
    assert stated_values(DIGEST["parameters"], text, NOW)["starred"].value is value


def test_a_flag_said_as_its_verb_reaches_the_call_with_its_words(tmp_path) -> None:
    from ibachat.agent.planner import Planner
    from memory.memory import Memory

    memory = Memory.open(tmp_path / "m", embedder="minilm", fsync=False)
    try:
        out = Planner(memory, None).act("start a history podcast digest and star it", now=NOW, tools=[DIGEST])
    finally:
        memory.close()
    assert out.tool_call is not None and out.tool_call.arguments.get("starred") is True
    assert "star" in out.tool_call.reasons["starred"]


DELI = _tool(
    "order_deli",
    "Order sandwiches and sides from a deli for delivery.",
    {
        "deli": {"type": "string"},
        "items": {"type": "array", "items": {"type": "string"}},
        "size": {"type": "string", "enum": ["regular", "large"], "default": "regular"},
    },
    ["items"],
)
NOTE = _tool(
    "jot_note",
    "Keep a note in the notebook.",
    {"title": {"type": "string"}, "text": {"type": "string"}},
    ["text"],
)


def test_a_quality_read_as_another_value_is_no_part_of_the_thing() -> None:
    got = stated_values(DELI["parameters"], "get me a large pastrami sandwich from Katz Corner", NOW)
    assert got["size"].value == "large" and got["items"].value == ["pastrami sandwich"]


def test_a_dish_whose_first_word_is_a_verb_is_no_command() -> None:
    # "jerk" is an English verb, but no request is made with it: the dish is named whole (the parse still
    # splits the second dish, "plantain fritters", which this does not mend)
    got = stated_values(
        DELI["parameters"], "jerk chicken and plantain fritters from Island Grill, tip 10%", NOW
    )
    assert got["items"].value[0] == "jerk chicken"


def test_words_after_a_colon_run_through_their_semicolons() -> None:
    got = stated_values(
        NOTE["parameters"], "note titled 'Camping': book the ferry; pack the tent; buy gas.", NOW
    )
    assert got["text"].value == "book the ferry; pack the tent; buy gas"


BIKE_HIRE = _tool(
    "hire_bike",
    "Hire a bike for some days.",
    {
        "pickup_point": {"type": "string", "description": "where to collect the bike"},
        "start": {"type": "string", "format": "date"},
    },
    ["pickup_point", "start"],
)


@pytest.mark.parametrize(
    ("text", "where"),
    [
        ("hire me a bike from Evans Cycles in Bristol tomorrow", "Evans Cycles in Bristol"),
        (
            "hire a bike from the Brompton hub at Waterloo Station on Friday",
            "Brompton hub at Waterloo Station",
        ),
        ("hire a bike from Evans Cycles in May", "Evans Cycles"),
    ],
)
def test_a_place_that_serves_and_where_it_stands_are_one_place(text: str, where: str) -> None:
    assert stated_values(BIKE_HIRE["parameters"], text, NOW)["pickup_point"].value == where


# Read from the errors of this session's unseen set (values10), written after it was run once; the probes
# are in other words and other tools.
GARAGE = _tool(
    "book_service",
    "Book a car service at a garage.",
    {
        "date": {"type": "string", "format": "date"},
        "drop_off": {
            "type": "string",
            "pattern": "^([01][0-9]|2[0-3]):[0-5][0-9]$",
            "description": "time, HH:MM",
        },
        "odometer_miles": {"type": "integer", "minimum": 0, "maximum": 500000},
    },
    ["date"],
)
OUTING = _tool(
    "book_outing",
    "Book places on a day out.",
    {
        "date": {"type": "string", "format": "date"},
        "people": {"type": "integer", "minimum": 1, "maximum": 20},
    },
    ["date", "people"],
)


@pytest.mark.parametrize(("text", "day"), [("car service thurs 9.45, please", "2027-05-06"),
                                           ("service on Monday at 10.30", "2027-05-10")])  # fmt: skip
def test_a_time_written_with_a_dot_is_no_date(text: str, day: str) -> None:
    assert stated_values(GARAGE["parameters"], text, NOW)["date"].value == day


def test_thousands_said_after_digits() -> None:
    got = stated_values(GARAGE["parameters"], "service on Friday, she's done 48 thousand miles", NOW)
    assert got["odometer_miles"].value == 48000


def test_no_make_it_corrects_what_came_before() -> None:
    got = stated_values(OUTING["parameters"], "day out on Wednesday, no, make it Thursday, for 3", NOW)
    assert got["date"].value == "2027-05-06"


@pytest.mark.parametrize(
    ("text", "people"),
    [
        ("zoo trip Saturday for me, my husband and our two kids", 4),
        ("day out on Sunday, me plus two friends", 3),
    ],
)
def test_people_listed_before_a_count_of_others_are_counted_with_them(text: str, people: int) -> None:
    assert stated_values(OUTING["parameters"], text, NOW)["people"].value == people


@pytest.mark.parametrize(
    "text",
    [
        "i only get a ten minute window on the train so keep it short",
        "the coach gives you a 20 min window on the ferry, no more",
    ],
)
def test_a_span_of_time_is_no_seat(text):
    """Session 29: "a ten minute window on the train" had been a wish for a window seat (the second is
    a guard)."""
    from ibachat.agent.reading.events import extract_events
    from memory.types import Turn

    turn = Turn(1, "s", "user", text, NOW)
    assert not [e for e in extract_events([turn]) if e.dimension == "travel.seat"]
