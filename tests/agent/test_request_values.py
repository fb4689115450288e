"""What "your request" gives a parameter: the request's own words, read once per tool schema.

The schemas here are tools nobody on the team wrote (a ferry, a bike hire, a florist, a vet, a piano
tuner, a skip hire), and the sentences are in other voices than the catalogue's tests: what is read
must come from the clause structure, the prepositions, the amounts and their units, not from a list of
the words used here.
"""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from ibachat.agent.alignment.request_values import stated_values
from ibachat.agent.execution.reasons import quoted_in

NOW = datetime(2027, 3, 9, 9, 30, tzinfo=timezone.utc)  # a Tuesday


def _schema(props: dict, required: tuple[str, ...] = ()) -> dict:
    return {"type": "object", "properties": props, "required": list(required)}


FERRY = _schema(
    {
        "departure_port": {"type": "string"},
        "arrival_port": {"type": "string"},
        "sailing_date": {"type": "string", "format": "date"},
        "foot_passengers": {"type": "integer", "minimum": 1, "maximum": 9},
        "vehicle": {
            "type": "string",
            "enum": ["none", "car", "van", "motorbike", "bicycle"],
            "default": "none",
        },
        "cabin_wanted": {"type": "boolean", "default": False},
    },
    ("departure_port", "arrival_port", "sailing_date"),
)
BIKE = _schema(
    {
        "hire_minutes": {"type": "integer", "minimum": 30, "maximum": 2880},
        "frame": {"type": "string", "enum": ["small", "medium", "large"]},
        "assist": {"type": "string", "enum": ["none", "low", "high"], "default": "none"},
        "collect_from": {"type": "string"},
        "max_distance_km": {"type": "number", "minimum": 1, "maximum": 300},
    }
)
FLORIST = _schema(
    {
        "recipient_address": {"type": "string"},
        "card_message": {"type": "string", "maxLength": 300},
        "stems": {"type": "integer", "minimum": 1, "maximum": 100},
        "budget_gbp": {"type": "number", "minimum": 10, "maximum": 500},
        "delivery_date": {"type": "string", "format": "date"},
        "flowers": {"type": "array", "items": {"type": "string"}},
        "avoid_flowers": {"type": "array", "items": {"type": "string"}},
    },
    ("recipient_address",),
)
VET = _schema(
    {
        "clinic": {"type": "string", "description": "the practice to book at"},
        "animal": {"type": "string"},
        "visit_reason": {"type": "string"},
        "slot": {"type": "string", "format": "date-time"},
        "home_visit": {"type": "boolean", "default": False},
    },
    ("clinic", "slot"),
)
REMINDER = _schema(
    {
        "reminder_text": {"type": "string"},
        "at": {"type": "string", "format": "date-time"},
        "advance_minutes": {"type": "integer", "minimum": 0, "maximum": 1440, "default": 10},
        "via": {"type": "string", "enum": ["push", "email", "text", "call"], "default": "push"},
    },
    ("reminder_text", "at"),
)
CLASS = _schema(
    {
        "level": {"type": "string", "enum": ["gentle", "low", "moderate", "high"]},
        "impact": {"type": "string", "enum": ["low", "high"]},
        "weeks": {"type": "integer", "minimum": 1, "maximum": 52},
        "sessions_per_week": {"type": "integer", "minimum": 1, "maximum": 7},
    }
)


def _values(schema: dict, text: str, about: str = "") -> dict:
    return {n: s.value for n, s in stated_values(schema, text, NOW, about).items()}


@pytest.mark.parametrize(
    ("schema", "text", "want"),
    [
        (
            FERRY,
            "Sort me a crossing out of Holyhead to Dublin on the 20th, two of us on foot, and a cabin",
            {
                "departure_port": "Holyhead",
                "arrival_port": "Dublin",
                "sailing_date": "2027-03-20",
                "foot_passengers": 2,
                "cabin_wanted": True,
            },
        ),
        (
            BIKE,
            "I'd like an e-bike for three and a half hours from the station kiosk, nothing over 40 miles",
            {"hire_minutes": 210, "collect_from": "the station kiosk", "max_distance_km": 64.37},
        ),
        (
            FLORIST,
            'Send a dozen tulips to 4 Rose Row on Friday with a card saying "get well soon", '
            "keep it under £45, and no lilies please",
            {
                "recipient_address": "4 Rose Row",
                "card_message": "get well soon",
                "flowers": ["tulips"],  # the dozen is their number; "stems" is not named, so left open
                "budget_gbp": 45.0,
                "delivery_date": "2027-03-12",
                "avoid_flowers": ["lilies"],
            },
        ),
        (
            VET,
            "Get Biscuit seen at Parkside Vets tomorrow at 4.15pm, he keeps scratching his ear",
            {"clinic": "Parkside Vets", "slot": "2027-03-10T16:15:00+00:00"},
        ),
    ],
)
def test_each_value_comes_from_the_words_that_name_it(schema, text, want):
    about = "order_flowers Send flowers to someone" if schema is FLORIST else ""  # the tool's own things
    got = stated_values(schema, text, NOW, about)
    values = {n: s.value for n, s in got.items()}
    for name, value in want.items():
        if isinstance(value, float):
            assert values.get(name) == pytest.approx(value, abs=0.05), name
        else:
            assert values.get(name) == value, name
    assert set(values) <= set(want) | {"animal", "visit_reason", "flowers"}  # nothing else is claimed
    for s in got.values():
        assert quoted_in(s.quote, text), s  # every reason quotes words the request holds


def test_one_end_of_a_journey_is_never_also_the_other():
    values = _values(FERRY, "Book me onto a ferry to Rosslare next Thursday")
    assert values.get("arrival_port") == "Rosslare"
    assert "departure_port" not in values
    values = _values(FERRY, "a ferry Portsmouth to Bilbao on 2 April")
    assert (values.get("departure_port"), values.get("arrival_port")) == ("Portsmouth", "Bilbao")


def test_what_is_to_be_said_or_remembered_names_no_option():
    values = _values(REMINDER, "Nudge me at 5pm today to text the landlord about the boiler")
    assert values.get("reminder_text") == "text the landlord about the boiler"
    assert "via" not in values  # "text" is inside what to be reminded of, not how
    assert values.get("at") == "2027-03-09T17:00:00+00:00"


def test_a_span_of_time_from_now_is_when_not_how_long_before():
    values = _values(REMINDER, "remind me in forty minutes to move the car")
    assert "advance_minutes" not in values
    assert values.get("reminder_text") == "move the car"


def test_a_value_two_parameters_allow_goes_to_the_one_named_beside_it():
    values = _values(CLASS, "a low impact course for eight weeks, twice a week")
    assert values.get("impact") == "low"
    assert "level" not in values
    assert values.get("weeks") == 8
    assert values.get("sessions_per_week") == 2


def test_a_rate_fills_only_a_parameter_counted_per_that_unit():
    values = _values(CLASS, "three sessions a week please")
    assert values.get("sessions_per_week") == 3
    assert "weeks" not in values  # "a week" is the rate's unit, not a length


def test_a_refused_option_is_not_chosen():
    values = _values(BIKE, "hire me a bike for two hours, I don't want any assist")
    assert values.get("hire_minutes") == 120
    assert values.get("assist") in (None, "none")  # turned down: its "none", never an amount of it


def test_a_thing_nobody_named_is_not_invented():
    assert "flowers" not in _values(FLORIST, "send some flowers to 9 Mill Street")
    values = _values(VET, "book the vet for my rabbit", about="book_vet Book a visit at a vet practice")
    assert "clinic" not in values  # no practice is named: it is asked for
    assert "visit_reason" not in values


def test_things_asked_for_fill_a_list_but_not_the_service_itself():
    values = _values(
        FLORIST, "deliver peonies, freesias and ranunculus to 2 Quay Street", about="order_flowers"
    )
    assert values.get("flowers") == ["peonies", "freesias", "ranunculus"]
    assert values.get("recipient_address") == "2 Quay Street"


GROOMER = _schema(
    {
        "dog_name": {"type": "string"},
        "arrive_by": {"type": "string", "pattern": "^([01][0-9]|2[0-3]):[0-5][0-9]$"},
        "slot_length_minutes": {"type": "integer", "minimum": 15, "maximum": 480},
        "session": {"type": "string", "enum": ["am", "pm"]},
        "repeat": {
            "type": "string",
            "enum": ["never", "weekly", "fortnightly", "monthly"],
            "default": "never",
        },
        "services": {
            "type": "array",
            "items": {"type": "string", "enum": ["bath", "nails", "trim", "teeth"]},
        },
        "skip_services": {
            "type": "array",
            "items": {"type": "string", "enum": ["bath", "nails", "trim", "teeth"]},
        },
    }
)
CABIN = _schema(
    {
        "arrive": {"type": "string", "format": "date"},
        "leave": {"type": "string", "format": "date"},
        "nights": {"type": "integer", "minimum": 1, "maximum": 30},
        "sleepers": {"type": "integer", "minimum": 1, "maximum": 12, "description": "how many people stay"},
    }
)
TUNER = _schema({"fault": {"type": "string"}, "visit_day": {"type": "string", "format": "date"}}, ("fault",))


def test_a_stretch_of_hours_gives_its_start_and_its_length():
    values = _values(GROOMER, "Can Pip come in 1 till 3pm on Thursday")
    assert values.get("arrive_by") == "13:00"
    assert values.get("slot_length_minutes") == 120


def test_a_part_of_the_day_and_how_often_fill_the_enums_that_name_them():
    values = _values(GROOMER, "book Pip a trim on Friday afternoon, every other week")
    assert values.get("session") == "pm"
    assert values.get("repeat") == "fortnightly"
    assert values.get("services") == ["trim"]


def test_allowed_values_in_a_list_split_by_what_a_negation_governs():
    values = _values(GROOMER, "a bath and a nail clip for Pip, but no teeth cleaning")
    assert values.get("services") == ["bath", "nails"]
    assert values.get("skip_services") == ["teeth"]


def test_a_stretch_of_days_gives_both_ends_and_the_nights_between():
    values = _values(CABIN, "the cabin from March 20 to March 24 for me and my two cousins")
    assert (values.get("arrive"), values.get("leave")) == ("2027-03-20", "2027-03-24")
    assert values.get("nights") == 4
    assert values.get("sleepers") == 3  # the speaker and two cousins


def test_what_is_wrong_is_the_clause_that_says_it_not_the_request():
    values = _values(TUNER, "need the tuner out next week because the middle C keeps sticking")
    assert values.get("fault") == "the middle C keeps sticking"
    values = _values(TUNER, "send a tuner on Monday, whatever day suits is fine")
    assert "fault" not in values


LAB = _schema(
    {
        "scan_name": {"type": "string"},
        "helpers": {"type": "integer", "description": "how many people come to help"},
        "start_point": {"type": "string"},
        "end_point": {"type": "string"},
    }
)


def test_a_thing_a_parameter_is_named_after_and_counts_of_people_in_other_words():
    values = _values(LAB, "book the contrast knee scan, 3 friends will help")
    assert values.get("scan_name") == "contrast knee scan"
    assert values.get("helpers") == 3
    values = _values(FERRY, "a crossing from oban to craignure on friday")
    assert (values.get("departure_port"), values.get("arrival_port")) == ("oban", "craignure")


@pytest.mark.xfail(
    reason="a word for people outside the closed class and data/people.json needs meaning", strict=True
)
def test_a_count_of_people_named_by_a_word_nobody_listed():
    assert _values(LAB, "3 volunteers will help with the scan").get("helpers") == 3


COURIER = _schema(
    {
        "collect_address": {"type": "string", "description": "street address to collect from"},
        "deliver_to": {"type": "string"},
        "collect_at": {"type": "string", "format": "date-time"},
        "parcels": {"type": "array", "items": {"type": "string"}},
        "notify": {"type": "string", "enum": ["sms", "email", "push"], "default": "push"},
    }
)


def test_a_house_number_is_no_time_and_a_place_told_of_is_not_the_request():
    values = _values(
        COURIER, "We sent one to Leeds last month. Collect from 18 Larch Avenue and take it to Hull"
    )
    assert values.get("collect_address") == "18 Larch Avenue"
    assert values.get("deliver_to") == "Hull"  # not "Leeds", told of in the past
    assert "collect_at" not in values  # "18" is no hour


def test_what_is_turned_down_rather_than_chosen_is_not_the_value():
    values = _values(COURIER, "collect the rug tomorrow at 10am from 3 Mill Row, email me rather than sms")
    assert values.get("notify") == "email"
    values = _values(COURIER, "collect the rug tomorrow at 10am, ping me instead of email")
    assert "notify" not in values


def test_a_span_of_time_from_now_in_words_and_what_to_do_stops_at_its_time():
    values = _values(REMINDER, "in an hour and a half, remind me to ring the garage on Friday at 9")
    assert values.get("reminder_text") == "ring the garage"
    values = _values(REMINDER, "remind me to stretch in an hour and a quarter")
    assert values.get("at") == "2027-03-09T10:45:00+00:00"


LETTER = _schema(
    {
        "recipient": {"type": "string"},
        "subject": {"type": "string"},
        "message": {"type": "string"},
    },
    ("recipient", "message"),
)


def test_whom_a_message_is_for_and_what_it_says_in_other_words():
    values = _values(LETTER, "write a short note to Ms Achebe saying that the parcel came today")
    assert values.get("recipient") == "Ms Achebe"
    assert values.get("message") == "the parcel came today"
    values = _values(LETTER, "fire off a message to the plumber, subject: leak")
    assert values.get("subject") == "leak"
    # whom the user names by their role is whom it is for (people who wrote our value sets without seeing
    # the code expect "my landlord", "the team", "HR" as the recipient; asking "to whom?" is no help)
    assert values.get("recipient") == "the plumber"


@pytest.mark.parametrize(
    ("text", "title"),
    [
        ("book a screening of Shrek 2 on Friday for 3 of us", "Shrek 2"),
        ("book an IMAX screening of Dune 2 tomorrow night, 2 tickets", "Dune 2"),
        ("book a screening of Gladiator on Friday for 3 of us", "Gladiator"),
    ],
)
def test_a_number_right_after_a_name_is_part_of_the_name(text, title):
    """ "a screening of Shrek 2": the sequel's number is its title's, no count (the code before gave
    "Shrek", "Dune"); a count said apart still counts ("for 3 of us")."""
    from ibachat.agent.execution.tools import as_task_tool, tools_for

    schema = next(as_task_tool(t) for t in tools_for() if t.name == "book_tickets")["parameters"]
    got = {k: v.value for k, v in stated_values(schema, text, NOW).items()}
    assert got.get("title") == title, got
    assert got.get("quantity") in (2, 3), got


@pytest.mark.parametrize(
    ("tool", "text", "param", "value"),
    [
        (
            "send_email",
            "email Dana saying the keys are under the mat, and cc me on it",
            "body",
            "the keys are under the mat",
        ),
        (
            "save_note",
            "note for the shed: rake, gloves, twine - file it in garden",
            "body",
            "rake, gloves, twine",
        ),
        (
            "send_email",
            "email Priya to say landed safely, call me when you can",
            "body",
            "landed safely, call me when you can",
        ),
        ("save_note", "save a note, name it Bike parts: chain, brake pads", "title", "Bike parts"),
    ],
)
def test_what_is_said_about_the_message_is_not_its_words(tool, text, param, value):
    """ "..., and cc me on it", "- file it in garden": a clause about the thing being made (its object
    "it") or copying the user in ends what is to be said; "call me when you can" to someone else is the
    message; "name it X" names X (the code before kept the instructions in the body and "it" in the title)."""
    from ibachat.agent.execution.tools import as_task_tool, tools_for

    schema = next(as_task_tool(t) for t in tools_for() if t.name == tool)["parameters"]
    got = {k: v.value for k, v in stated_values(schema, text, NOW).items()}
    assert got.get(param) == value, got


def test_a_participle_after_the_listed_things_is_no_thing():
    """ "...: x, y, delivered tomorrow evening": the last piece says when, not what (on the code before it
    was one of the things ordered); a participle that describes a thing ("frozen peas") stays one."""
    from ibachat.agent.execution.tools import as_task_tool, get_tool

    schema = as_task_tool(get_tool("order_groceries"))["parameters"]
    values = _values(schema, "get groceries: oat milk, frozen peas, apples, delivered tomorrow evening")
    assert values.get("items") == ["oat milk", "frozen peas", "apples"], values


RAFFLE = _schema(
    {
        "draw": {"type": "string"},
        "quantity": {"type": "integer", "minimum": 1},
        "seat_rows": {"type": "integer"},
    },
    ("draw", "quantity"),
)


@pytest.mark.parametrize(
    ("text", "quantity"),
    [
        ("the strips go on sale today, grab me three for the spring draw", 3),
        ("buy 4 for the school raffle", 4),
        ("could you get us five for saturday's draw", 5),
        ("buy tickets for the spring draw", None),
        ("buy tickets for the draw at two", None),
    ],
)
def test_a_count_whose_noun_is_left_unsaid_is_how_many(text, quantity):
    got = stated_values(RAFFLE, text, NOW)
    assert (got["quantity"].value if "quantity" in got else None) == quantity, got
    assert "seat_rows" not in got
