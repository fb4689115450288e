"""What surrounds a request (session 27): how often, said before the command ("every other Thursday at 6
remind me"); capitals for stress ("NO minivans"), which are no casing of names and do not turn the command
down; a meal at a named place ("supper at The Ivy, 3 of us"), which is a table there, not a meal brought
from it; a name with a small word inside it ("Fish by the Sea", "Bread of Heaven"); a label in capitals
before what is wrong ("EMERGENCY our dog ..."); either of two days ("the 14th or 15th, whichever"), which
is a question; a month said once for a stretch ("from the 4th to the 11th of March"); weights, volumes
and sizes with their units ("3 kilos", "11 lbs", "a 750ml bottle"); a country among the places; a part
of a day gone by ("since last night"), which is no time for the request; an emoji that ends what happened.

The tools beside the catalogue's are ones nobody on the team wrote (a courier, a vet, a tailor, a kayak
hire, a juice bar); the words are not those of the sets these were found on.
"""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from ibachat.agent.alignment.request_values import stated_values, tool_about
from ibachat.agent.execution.router import route
from ibachat.agent.reading.acts import read_act
from ibachat.agent.reading.when import read_when

NOW = datetime(2026, 12, 1, 10, 0, tzinfo=timezone.utc)  # a Tuesday


def _tool(name: str, description: str, props: dict) -> dict:
    return {"name": name, "description": description, "parameters": {"type": "object", "properties": props}}


COURIER = _tool(
    "send_courier",
    "Send a parcel by courier, collected from the sender.",
    {
        "weight_kg": {"type": "number", "description": "parcel weight in kg", "minimum": 0.1, "maximum": 30},
        "country": {"type": "string", "description": "country it goes to"},
        "length_cm": {"type": "number", "description": "longest side, cm"},
        "express": {"type": "boolean"},
    },
)
VET = _tool(
    "book_vet",
    "Book a vet appointment for a pet.",
    {
        "pet": {"type": "string", "description": "pet's name"},
        "date": {"type": "string", "format": "date"},
        "time_of_day": {"type": "string", "enum": ["morning", "afternoon", "evening"]},
        "problem": {"type": "string", "description": "what is wrong"},
    },
)
TAILOR = _tool(
    "book_tailor",
    "Book a fitting with a tailor for alterations.",
    {
        "tailor": {"type": "string", "description": "tailor's shop"},
        "garment": {"type": "string", "enum": ["suit", "dress", "trousers", "coat"]},
        "date": {"type": "string", "format": "date"},
    },
)
KAYAK = _tool(
    "hire_kayak",
    "Hire a kayak or canoe for a day on the river.",
    {
        "boat": {"type": "string", "enum": ["kayak", "canoe", "tandem_kayak"]},
        "date": {"type": "string", "format": "date"},
        "people": {"type": "integer", "minimum": 1, "maximum": 6},
    },
)
JUICE = _tool(
    "order_juice",
    "Order cold-pressed juice from a juice bar for delivery.",
    {
        "flavour": {"type": "string", "enum": ["green", "citrus", "berry", "beetroot"]},
        "bottle_ml": {"type": "integer", "description": "bottle size in ml", "minimum": 100, "maximum": 2000},
        "bottles": {"type": "integer", "minimum": 1, "maximum": 12},
    },
)


def _values(tool: dict, text: str) -> dict:
    return {n: v.value for n, v in stated_values(tool["parameters"], text, NOW, tool_about(tool)).items()}


# ------------------------------------------------------------------------------------------- routing
@pytest.mark.parametrize(
    "text",
    [
        "every other thursday at 6pm remind me to water the orchids",
        "weekends at 9 remind me to take the dog out",
        "each month on the 1st remind me to pay the window cleaner",
    ],
)
def test_how_often_said_before_the_command_leaves_the_command(catalogue_tools, minilm, text: str) -> None:
    r = route(text, catalogue_tools, minilm)
    assert r.kind == "tool" and r.tool["name"] == "set_reminder", r.why


@pytest.mark.parametrize(
    "text", ["every weekday at 5pm the car park fills up", "most mornings I forget my keys at home"]
)
def test_how_often_before_a_statement_asks_nothing(catalogue_tools, minilm, text: str) -> None:
    assert route(text, catalogue_tools, minilm).kind == "text"


@pytest.mark.parametrize(
    ("text", "tool"),
    [
        ("cab to stansted at 5am tomorrow, NO minivans", "book_ride"),
        ("flight manchester to rome on the 9th, aisle, NOT the red-eye", "book_flight"),
    ],
)
def test_capitals_for_stress_are_no_casing_of_names(catalogue_tools, minilm, text: str, tool: str) -> None:
    r = route(text, catalogue_tools, minilm)
    assert r.kind == "tool" and r.tool["name"] == tool, r.why


def test_capitals_for_stress_in_a_complaint_stay_a_complaint(catalogue_tools, minilm) -> None:
    assert route("the bus to york was SO late again", catalogue_tools, minilm).kind == "text"


def test_not_after_the_command_and_a_comma_turns_down_a_thing_not_the_command(minilm) -> None:
    act = read_act("hire me a kayak for saturday, NOT the inflatable one")
    assert act.kind == "request" and act.requests[0].verb == "hire"
    assert read_act("don't hire me a kayak for saturday").kind == "negated"


@pytest.mark.parametrize(
    "text",
    [
        "supper at The Ivy next friday 8pm, 3 of us",
        "birthday lunch at Rosa's on the 12th at 1pm for six, somewhere with space for a pram",
    ],
)
def test_a_meal_at_a_named_place_is_a_table_there(catalogue_tools, minilm, text: str) -> None:
    r = route(text, catalogue_tools, minilm)
    assert r.kind == "tool" and r.tool["name"] == "book_table", r.why


@pytest.mark.parametrize(
    ("text", "tool"),
    [
        ("oat cortado at Grind for 8:15", "order_coffee"),  # a coffee at the café is one to pick up there
        ("3 tickets for Cats at the Palladium on saturday", "book_tickets"),
    ],
)
def test_a_thing_at_a_place_stays_with_the_tool_that_holds_it(
    catalogue_tools, minilm, text: str, tool: str
) -> None:
    r = route(text, catalogue_tools, minilm)
    assert r.kind == "tool" and r.tool["name"] == tool, r.why


def test_a_meal_at_a_place_gone_by_reports_it(catalogue_tools, minilm) -> None:
    assert route("lovely supper at The Ivy last night, 3 of us", catalogue_tools, minilm).kind == "text"


# -------------------------------------------------------------------------------------------- values
@pytest.mark.parametrize(
    ("tool", "text", "name", "value"),
    [
        (TAILOR, "suit fitting at Stitch by Stitch on friday", "tailor", "Stitch by Stitch"),
        (TAILOR, "can you book the coat in at Threads of Gold tomorrow", "tailor", "Threads of Gold"),
        (TAILOR, "dress alterations at Sew This Way on the 9th", "tailor", "Sew This Way"),
    ],
)
def test_a_name_goes_on_over_a_small_word_between_capitals(tool, text, name, value) -> None:
    assert _values(tool, text).get(name) == value


def test_a_name_stops_at_a_day_after_by(catalogue_tools) -> None:
    table = next(t for t in catalogue_tools if t["name"] == "book_table")
    assert _values(table, "book a table at Mildreds by Friday for 2 at 7pm")["restaurant"] == "Mildreds"


def test_a_label_in_capitals_is_no_part_of_what_is_wrong() -> None:
    got = _values(VET, "EMERGENCY our dog ate a bar of chocolate and is being sick, need a vet today")
    assert got.get("problem", "").startswith("our dog ate"), got


@pytest.mark.parametrize(
    "text",
    [
        "vet for Biscuit on the 14th or 15th, whichever is easier",
        "kayak for two on saturday or sunday, either is fine",
    ],
)
def test_either_of_two_days_is_asked(text: str) -> None:
    when = read_when(text, NOW)
    assert when.day is None and when.question and "or" in when.question


def test_one_day_and_a_vague_alternative_is_that_day() -> None:
    assert read_when("the 12th, or earlier if you can", NOW).day is not None


def test_a_month_said_once_holds_for_both_ends(catalogue_tools) -> None:
    hotel = next(t for t in catalogue_tools if t["name"] == "book_hotel")
    got = _values(hotel, "a room in Bruges from the 4th to the 11th of March")
    assert got["check_in"] == "2027-03-04" and got["nights"] == 7


@pytest.mark.parametrize(
    ("tool", "text", "name", "value"),
    [
        (COURIER, "courier a box of books to Leeds, about 3 kilos", "weight_kg", 3.0),
        (COURIER, "send the amp, it weighs 11 lbs", "weight_kg", 4.99),
        (COURIER, "a 2.5 kg parcel to Bristol, express", "weight_kg", 2.5),
        (COURIER, "a tube 90 centimetres long to my brother", "length_cm", 90.0),
        (JUICE, "four 750ml bottles of the green one", "bottle_ml", 750),
        (JUICE, "a 1.5 litre bottle of berry", "bottle_ml", 1500),
    ],
)
def test_weights_volumes_and_sizes_in_the_parameter_s_unit(tool, text, name, value) -> None:
    got = _values(tool, text).get(name)
    assert got == pytest.approx(value, abs=0.01), _values(tool, text)


def test_a_count_of_things_is_no_measure() -> None:
    assert _values(JUICE, "2 bottles of citrus please").get("bottles") == 2


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("courier this to my aunt in Lyon, France, 2 kilos", "France"),
        ("send it to Spain for my cousin, it's 1kg", "Spain"),
    ],
)
def test_a_country_parameter_takes_the_country(text: str, value: str) -> None:
    assert _values(COURIER, text).get("country") == value


def test_a_person_or_a_town_is_no_country() -> None:
    assert "country" not in _values(COURIER, "courier this to my friend in Porto, it's 2 kilos")


def test_a_part_of_a_day_gone_by_is_no_time_for_the_request() -> None:
    got = _values(VET, "vet for Mochi on thursday, she's been limping since last night")
    assert "time_of_day" not in got, got
    assert _values(VET, "vet for Mochi thursday arvo please")["time_of_day"] == "afternoon"


def test_an_emoji_ends_what_happened() -> None:
    appointment = _tool(
        "book_nurse",
        "Book a practice nurse appointment.",
        {
            "reason": {"type": "string", "description": "reason for the visit"},
            "date": {"type": "string", "format": "date"},
        },
    )
    got = _values(appointment, "nurse on friday pls, cut my hand on a tin this morning 😬 earliest slot")
    assert got["reason"] == "cut my hand on a tin this morning", got


@pytest.mark.parametrize(
    ("text", "word"),
    [
        ("the dog food, but he doesn't get on with the crunchy kind", "crunchy"),
        ("I'm not keen on the decaf", "decaf"),
        ("she can't put up with the noise", "noise"),
    ],
)
def test_a_thing_a_phrasal_verb_or_a_quality_turns_down_is_turned_down(text: str, word: str) -> None:
    from ibachat.agent.reading.frame import read_frame

    assert word in read_frame(text).negated


def test_a_flag_turned_down_by_a_phrasal_verb_is_false() -> None:
    pharmacy = _tool(
        "collect_prescription",
        "Collect a repeat prescription from a chemist.",
        {
            "medicine": {"type": "string"},
            "generic_ok": {"type": "boolean", "description": "a generic will do"},
        },
    )
    got = _values(pharmacy, "collect my nan's statins from the chemist, she doesn't get on with the generic")
    assert got.get("generic_ok") is False, got


@pytest.mark.parametrize(
    ("text", "day"),
    [
        ("a van for the bank holiday weekend, collecting it Thursday", "2026-12-03"),
        ("kayak hire this weekend, on the water sunday morning", "2026-12-06"),
    ],
)
def test_a_weekday_said_beside_a_weekend_is_the_day(text: str, day: str) -> None:
    assert str(read_when(text, NOW).day) == day


@pytest.mark.parametrize(
    "text", ["a cottage this weekend, not Sunday though", "the weekend after my Monday shift"]
)
def test_a_weekday_turned_down_or_owned_leaves_the_weekend(text: str) -> None:
    assert str(read_when(text, NOW).day) == "2026-12-05"


@pytest.mark.parametrize(
    ("text", "tool"),
    [
        ("can I book a table for 4 at Dishoom tomorrow at 7pm?", "book_table"),
        ("could I order a large oat latte from Grind for 9", "order_coffee"),
    ],
)
def test_asking_to_do_a_thing_oneself_is_a_request(catalogue_tools, minilm, text: str, tool: str) -> None:
    r = route(text, catalogue_tools, minilm)
    assert r.kind == "tool" and r.tool["name"] == tool, r.why


def test_asking_whether_a_thing_can_be_done_stays_a_question() -> None:
    assert read_act("can I book trains through you or only flights?").kind == "question"


def test_two_days_under_a_negation_are_both_meant() -> None:
    when = read_when("Leo won't be at nursery today or tomorrow, he has chickenpox", NOW)
    assert when.question is None and str(when.day) == "2026-12-01"


def test_a_present_clause_after_a_fragment_tells_about_the_thing_asked_for(minilm) -> None:
    r = route("dog walker for Tuesday at noon, an hour, she is a bit nervous with big dogs", [WALKER], minilm)
    assert r.kind == "tool" and r.tool["name"] == "book_dog_walker", r.why


def test_a_past_clause_after_a_fragment_tells_what_was(catalogue_tools, minilm) -> None:
    text = "brilliant supper at Rosa's on saturday, 6 of us, the puddings were huge"
    assert route(text, catalogue_tools, minilm).kind == "text"


def test_a_pharmacy_said_with_at_still_takes_the_refill(catalogue_tools, minilm) -> None:
    r = route("Need my inhaler topped up at Lloyds on Park Road, brand only", catalogue_tools, minilm)
    assert r.kind == "tool" and r.tool["name"] == "refill_prescription", r.why


WALKER = _tool(
    "book_dog_walker",
    "Book a dog walker for a walk of some minutes.",
    {
        "date": {"type": "string", "format": "date"},
        "minutes": {"type": "integer", "minimum": 15, "maximum": 120},
        "dog_name": {"type": "string"},
    },
)


@pytest.mark.parametrize(
    ("text", "tool"),
    [
        ("hotel in Bath, 2 nights from friday, parking included", "book_hotel"),
        ("flight LHR to Oslo 3 March, aisle, 2 checked bags", "book_flight"),
        ("twin room in York from friday, 2 nights, no parking needed", "book_hotel"),
    ],
)
def test_a_participle_after_a_fragment_is_no_clause_told(
    catalogue_tools, minilm, text: str, tool: str
) -> None:
    r = route(text, catalogue_tools, minilm)
    assert r.kind == "tool" and r.tool["name"] == tool, r.why


OPTICIAN = _tool(
    "book_optician",
    "Book an eye test or a glasses repair at an optician.",
    {
        "reason": {"type": "string", "description": "what is wrong"},
        "date": {"type": "string", "format": "date"},
    },
)
PARCEL = _tool(
    "send_parcel",
    "Send a parcel by courier.",
    {"address": {"type": "string", "description": "delivery address"}},
)
TUTOR = _tool(
    "book_tutor",
    "Book a tutor for lessons.",
    {"student_names": {"type": "array", "items": {"type": "string"}}, "subject": {"type": "string"}},
)


def test_a_clause_joined_with_its_own_subject_is_no_part_of_what_is_wrong() -> None:
    got = _values(OPTICIAN, "my reading glasses cracked yesterday so I need the optician on friday")
    assert got["reason"] == "my reading glasses cracked" and got["date"] == "2026-12-04"


@pytest.mark.parametrize(
    ("text", "address"),
    [
        ("post it to Unit 4, 19 Mill Lane please", "Unit 4, 19 Mill Lane"),
        ("flowers to 9 Abbey Road, Bath BA1 2QT on friday", "9 Abbey Road, Bath BA1 2QT"),  # town, postcode
        ("deliver to 7 Rowan Drive, Tuesday morning", "7 Rowan Drive"),  # a day is no town
    ],
)
def test_a_street_town_and_postcode_after_a_comma_go_on_with_the_address(text: str, address: str) -> None:
    assert _values(PARCEL, text)["address"] == address


@pytest.mark.parametrize(
    ("text", "names"),
    [
        ("a maths tutor for Amelia and Josh", ["Amelia", "Josh"]),
        ("book piano lessons for Leo", ["Leo"]),
        ("a tutor for Saturday mornings", None),  # a day is no name
        ("a tutor for the twins", None),
    ],
)
def test_a_list_of_names_takes_the_names_said_for_whom_it_is(text: str, names: list[str] | None) -> None:
    assert _values(TUTOR, text).get("student_names") == names


INSURED = _tool(
    "post_parcel",
    "Post a parcel with cover.",
    {
        "weight_kg": {"type": "number", "description": "weight in kg"},
        "insured_value": {"type": "number", "description": "cover in pounds"},
    },
)


def test_a_currency_in_a_description_is_money_not_a_weight() -> None:
    got = _values(INSURED, "post this to my brother, it's about three and a half kilos")
    assert got == {"weight_kg": 3.5}, got


@pytest.mark.parametrize(
    ("text", "clock"),
    [
        ("keep friday from half eight till noon clear for the audit", "08:30"),
        ("a sitter on saturday from 6 till midnight", "18:00"),
    ],
)
def test_a_stretch_that_ends_at_noon_or_midnight_says_the_half_of_its_start(text: str, clock: str) -> None:
    assert read_when(text, NOW).time == clock


SHOP_ORDER = _tool(
    "order_shopping",
    "Order a supermarket delivery.",
    {
        "items": {"type": "array", "items": {"type": "string"}},
        "substitutions": {"type": "string", "enum": ["allow", "ask_first", "never"]},
    },
)
MEETING = _tool(
    "book_meeting",
    "Put a meeting in the calendar and invite people.",
    {"title": {"type": "string"}, "guests": {"type": "array", "items": {"type": "string"}}},
)


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("shopping: rice, leeks. don't swap anything without asking me first", "ask_first"),
        ("shopping: rice, leeks. don't substitute anything", "never"),
        ("shopping: rice, leeks. don't swap anything without a good reason", None),  # no value says so
    ],
)
def test_a_turned_down_act_with_what_it_may_follow_is_no_never(text: str, value: str | None) -> None:
    assert _values(SHOP_ORDER, text).get("substitutions") == value


def test_a_name_listed_with_an_email_address_is_invited_too() -> None:
    got = _values(MEETING, "set up a meeting called 'Roadmap', invite dana@studio.io and Kofi.")
    assert got.get("guests") == ["dana@studio.io", "Kofi"], got


def test_a_measure_of_a_thing_the_parse_took_for_a_gerund_keeps_the_thing() -> None:
    from ibachat.agent.reading.frame import read_frame

    assert [s.text for s in read_frame("I need a pair of hiking socks by friday").verb_objects] == [
        "pair of hiking socks"
    ]
