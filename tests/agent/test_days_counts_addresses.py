"""Days, head counts and addresses as a request says them (session 25): a day's name said "on" a
day before a date is the first day; a day's name at either end of a stretch; a stay said by its two
ends ("in on ... and out on ..."); offsets without "from" ("three weeks today"); counts of people that
add up ("2 adults and 2 kids"); ends of a move given as house numbers and streets; a tool named by the
thing asked for (a guard: a move is not a cab).

Schemas are tools nobody on the team wrote (a campsite, a canal boat hire, a removal firm, a ski
school, a courier); sentences are in voices unlike the catalogue's tests.
"""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from ibachat.agent.alignment.request_values import stated_values
from ibachat.agent.execution.router import route
from ibachat.agent.reading.when import read_when

NOW = datetime(2027, 3, 9, 9, 30, tzinfo=timezone.utc)  # a Tuesday


def _schema(props: dict, required: tuple[str, ...] = ()) -> dict:
    return {"type": "object", "properties": props, "required": list(required)}


CAMPSITE = _schema(
    {
        "site": {"type": "string", "description": "campsite name"},
        "arrival": {"type": "string", "format": "date"},
        "nights": {"type": "integer", "minimum": 1, "maximum": 28},
        "campers": {"type": "integer", "minimum": 1, "maximum": 12, "description": "people staying"},
    }
)
SKI_SCHOOL = _schema(
    {
        "resort": {"type": "string"},
        "grown_ups": {"type": "integer", "minimum": 0, "maximum": 10, "description": "adults in the group"},
        "children": {"type": "integer", "minimum": 0, "maximum": 10},
        "start": {"type": "string", "format": "date"},
    }
)
REMOVALS = _schema(
    {
        "collect_from": {"type": "string", "description": "address we pack up at"},
        "deliver_to": {"type": "string", "description": "address the things are taken to"},
        "move_day": {"type": "string", "format": "date"},
    }
)
COURIER = _schema(
    {
        "sender_address": {"type": "string", "description": "address sending from"},
        "recipient_address": {"type": "string", "description": "address sending to"},
    }
)


def _said(schema: dict, text: str) -> dict:
    return {k: v.value for k, v in stated_values(schema, text, NOW).items()}


@pytest.mark.parametrize(
    ("text", "day"),
    [
        # the named day comes first in the words; the grammar's later form ("the 3rd") had won
        ("pitch for the van, arriving on Good Friday and leaving on the 3rd", "2027-03-26"),
        ("could you hold it on St Patrick's Day, or the 20th if that's gone", "2027-03-17"),
        # a day's name said for what the trip is for, and the day it is on said after it
        ("heading home for St Patrick's Day - get me the coach on the 16th", "2027-03-16"),
        # a relative word in a clause told before the date asked for is not the request's day
        ("the strap snapped this morning, can you book the repair for 5/4?", None),
    ],
)
def test_the_first_day_said_is_the_day(text: str, day: str | None) -> None:
    got = read_when(text, NOW)
    assert (str(got.day) if got.day else None) == day
    assert day is not None or got.question is not None  # "5/4": 5 April or 4 May, asked


@pytest.mark.parametrize("text", ["a pitch, arriving on Easter Monday", "hold two for Black Friday, ta"])
def test_a_name_that_ends_in_a_weekday_is_no_weekday(text: str) -> None:
    got = read_when(text, NOW)  # neither is a public holiday here: a question, never the coming Monday
    assert got.day is None and got.question is not None


def test_a_person_and_then_a_weekday_is_the_weekday() -> None:
    assert str(read_when("dinner with Sam Friday at 8pm", NOW).day) == "2027-03-12"
    assert str(read_when("Ask Tom Monday about the van", NOW).day) == "2027-03-15"


def test_offsets_said_without_from() -> None:
    assert str(read_when("the boat, three weeks today", NOW).day) == "2027-03-30"
    assert str(read_when("a week Friday works for us", NOW).day) == "2027-03-19"
    # "for two weeks today" says how long, from today: no offset
    assert str(read_when("book it for two weeks today", NOW).day) == "2027-03-09"
    # "3 days Friday to Sunday" is a stretch, not three days on from Friday
    assert str(read_when("3 days Friday to Sunday", NOW).day) == "2027-03-12"


def test_a_stretch_with_a_named_day_at_an_end() -> None:
    got = _said(CAMPSITE, "Hollow Oak campsite from Good Friday until Easter Sunday please")
    assert got.get("arrival") == "2027-03-26" and got.get("nights") == 2


@pytest.mark.parametrize(
    "text",
    [
        "Hollow Oak, we're in on the 12th and out on the 15th",
        "Hollow Oak - arriving Friday, leaving Monday",
    ],
)
def test_a_stay_said_by_its_two_ends(text: str) -> None:
    got = _said(CAMPSITE, text)
    assert got.get("arrival") == "2027-03-12" and got.get("nights") == 3


@pytest.mark.parametrize(
    ("text", "campers"),
    [
        ("Hollow Oak on the 12th for 3 nights, 2 adults and 3 kids", 5),
        ("Hollow Oak on the 12th: me, my 2 brothers & 3 cousins", 6),
        # the 2 are of the 6: no sum without "and" or "plus"
        ("Hollow Oak on the 12th for 6 guests, 2 kids", 6),
    ],
)
def test_counts_of_people_that_add_up(text: str, campers: int) -> None:
    assert _said(CAMPSITE, text).get("campers") == campers


def test_a_kind_of_person_beside_a_noun_not_known_for_people_is_no_party() -> None:
    # "grandparents" is in no list here: the toddlers alone are not everyone, so nothing is stated
    got = _said(CAMPSITE, "Hollow Oak on the 12th, four grandparents plus two toddlers")
    assert got.get("campers") is None
    # a party said as "for 4" stays the party beside a count of things
    assert _said(CAMPSITE, "Hollow Oak on the 12th for 4 and 2 dogs").get("campers") == 4


def test_a_total_leaves_each_kind_its_own_count() -> None:
    got = _said(SKI_SCHOOL, "lessons in Morzine from Saturday for 2 adults and 3 children")
    assert got.get("children") == 3
    assert got.get("grown_ups") in (None, 2)  # never the total


@pytest.mark.parametrize(
    ("schema", "text", "start", "end"),
    [
        (REMOVALS, "removal van, 12 Elm Road to 3 Station Street, Friday", "12 Elm Road", "3 Station Street"),
        (
            REMOVALS,
            "we're leaving a tiny studio at 4B Canal Walk for 19 Orchard Close on the 20th, pls book it",
            None,
            None,
        ),
        (
            COURIER,
            "send a parcel from my mum's place at 7 Rowan Drive to 88 Fern Hill",
            "7 Rowan Drive",
            "88 Fern Hill",
        ),
    ],
)
def test_the_two_ends_of_a_move(schema: dict, text: str, start: str | None, end: str | None) -> None:
    got = _said(schema, text)
    names = list(schema["properties"])
    if start is not None:
        assert got.get(names[0]) == start and got.get(names[1]) == end
    # never one address for both ends
    assert got.get(names[0]) is None or got.get(names[0]) != got.get(names[1])


def _tool(name: str, description: str, props: dict) -> dict:
    return {"name": name, "description": description, "parameters": _schema(props)}


GOERS = [
    _tool(
        "hire_removal_men",
        "Book removal men and a van to move a household.",
        {"from_address": {"type": "string"}, "to_address": {"type": "string"}},
    ),
    _tool(
        "book_cab",
        "Book a cab from one place to another.",
        {"pickup": {"type": "string"}, "destination": {"type": "string"}},
    ),
    _tool(
        "book_coach",
        "Book a long-distance coach from one city to another.",
        {"origin": {"type": "string"}, "destination": {"type": "string"}},
    ),
]


def test_a_move_and_a_cab_go_to_their_own_tools(minilm) -> None:
    r = route("get me removal men from 5 Kings Parade over to 77 Hill Rise next Saturday", GOERS, minilm)
    assert r.kind == "tool" and r.tool["name"] == "hire_removal_men", (r.kind, r.why)
    r = route("a cab from the station to the hotel please", GOERS, minilm)
    assert r.kind == "tool" and r.tool["name"] == "book_cab", (r.kind, r.why)


CLEANSE = _schema(
    {
        "days": {"type": "integer", "minimum": 1, "maximum": 30},
        "kcal_per_day": {"type": "integer", "minimum": 800, "maximum": 4000},
    }
)


@pytest.mark.parametrize(
    ("text", "days", "kcal"),
    [
        # "at 1,500" is a number with a thousands comma, never 1 o'clock; "a day" is what the kcal are per
        ("a 5-day juice cleanse at 1,500 kcal a day", 5, 1500),
        ("set me up a twelve-day cleanse, 1,200 kcal a day", 12, 1200),
    ],
)
def test_a_length_said_before_its_thing_and_a_number_with_a_comma(text: str, days: int, kcal: int) -> None:
    got = _said(CLEANSE, text)
    assert got.get("days") == days and got.get("kcal_per_day") == kcal
