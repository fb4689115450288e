"""A request that names again what one past call used ("book it in at kwik motors", "same as before at
harbour vets") takes that value as the user's own words, quoted as typed, with the remembered spelling:
no question "Which garage should I use?", no "chosen once before". A value the request says only as
"just the X" takes the value of X alone. Written in domains and voices unlike the development sets'.
"""

from __future__ import annotations

import pytest

VETS = {
    "name": "book_vet_visit",
    "description": "Book a pet into a veterinary practice",
    "parameters": {
        "type": "object",
        "properties": {
            "practice": {"type": "string"},
            "pet": {"type": "string"},
            "visit": {"enum": ["jabs_only", "health_check", "jabs_and_check"]},
        },
        "required": ["practice", "pet", "visit"],
    },
}


@pytest.fixture(scope="module")
def minilm():
    from memory.embedders.registry import load_embedder

    return load_embedder("minilm")


def _act(tmp_path, minilm, request: str):
    from ibachat.agent.ingest import ingest
    from ibachat.agent.planner import Planner
    from memory.memory import Memory
    from tests.agent.histories import History, call

    h = History(seed=5).noise(4, 0, 30)
    h.say(
        3,
        ("user", "get mochi seen for a check up"),
        (
            "tool",
            "Booked.",
            call("book_vet_visit", practice="Harbour Vets", pet="Mochi", visit="jabs_and_check"),
        ),
    )
    memory = Memory.open(tmp_path / "m", embedder=minilm, fsync=False)
    try:
        ingest(memory, h.records())
        return Planner(memory).act(request, now=h.at(31, 10), tools=[VETS])
    finally:
        memory.close()


def test_a_past_name_said_again_is_the_request_s(tmp_path, minilm):
    out = _act(tmp_path, minilm, "can you get mochi in at harbour vets, just the jabs this time")
    assert out.tool_call is not None, out.question
    assert out.tool_call.arguments["practice"] == "Harbour Vets"
    assert out.tool_call.reasons["practice"] == 'your request: "harbour vets"'
    assert out.tool_call.arguments["visit"] == "jabs_only"
    assert (
        out.tool_call.reasons["visit"].startswith('your request: "')
        and "jabs" in out.tool_call.reasons["visit"]
    )
    assert "Which practice" not in (out.question or "")


def test_a_past_name_not_said_is_no_request(tmp_path, minilm):
    out = _act(tmp_path, minilm, "can you book mochi in for her jabs and a check")
    call = out.tool_call
    reason = call.reasons.get("practice", "") if call is not None else ""
    assert "your request" not in reason


CLAY = {
    "name": "book_workshop",
    "description": "Book a place on a craft workshop",
    "parameters": {
        "type": "object",
        "properties": {
            "studio": {"type": "string"},
            "workshop": {"type": "string"},
            "date": {"type": "string", "format": "date"},
        },
        "required": ["studio", "workshop", "date"],
    },
}


def test_a_lower_case_thing_named_again_and_the_rest_as_the_call_spelled_it(tmp_path, minilm):
    from ibachat.agent.ingest import ingest
    from ibachat.agent.planner import Planner
    from memory.memory import Memory
    from tests.agent.histories import History, call

    h = History(seed=9).noise(4, 0, 30)
    h.say(
        2,
        ("user", "sign me up for a wheel session saturday"),
        ("tool", "Booked.", call("book_workshop", studio="Clay Barn", workshop="pottery", date="2025-01-04")),
    )
    memory = Memory.open(tmp_path / "m", embedder=minilm, fsync=False)
    try:
        ingest(memory, h.records())
        out = Planner(memory).act("book me into pottery on saturday pls", now=h.at(31, 10), tools=[CLAY])
    finally:
        memory.close()
    assert out.tool_call is not None, out.question
    assert out.tool_call.reasons["workshop"] == 'your request: "pottery"'
    assert out.tool_call.arguments.get("studio") in (None, "Clay Barn")  # never "clay barn"


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("can you order my coffee, a flat white as always", "request"),
        ("could you get me a cab to the station at 7, same firm as usual", "request"),
        ("always book me an aisle seat", "standing"),
        ("can you always order oat milk from now on", "question"),
    ],
)
def test_as_always_points_back_and_is_no_rule(text, kind):
    """'same size bag as always' is the thing as before; only a rule for the future ('always', 'from now
    on') makes a request a standing one."""
    from ibachat.agent.reading.acts import read_act

    assert read_act(text).kind == kind


GROOM = {
    "name": "book_grooming",
    "description": "Book a dog grooming session",
    "parameters": {
        "type": "object",
        "properties": {
            "salon": {"type": "string"},
            "dog": {"type": "string"},
            "date": {"type": "string", "format": "date"},
        },
        "required": ["salon", "dog", "date"],
    },
}


@pytest.mark.parametrize("with_call", [True, False])
def test_a_request_that_names_a_past_call_s_place_is_for_that_tool(tmp_path, minilm, with_call):
    from ibachat.agent.ingest import ingest
    from ibachat.agent.planner import Planner
    from memory.memory import Memory
    from tests.agent.histories import History, call

    h = History(seed=11).noise(4, 0, 30)
    if with_call:
        h.say(
            2,
            ("user", "get pickle a wash and trim thursday"),
            ("tool", "Booked.", call("book_grooming", salon="Fluff & Puff", dog="Pickle", date="2025-01-02")),
        )
    memory = Memory.open(tmp_path / "m", embedder=minilm, fsync=False)
    try:
        ingest(memory, h.records())
        planner = Planner(memory)
        r = planner.route("pop him in at fluff & puff again on friday", [GROOM, CLAY])
    finally:
        memory.close()
    if with_call:
        assert r.kind == "tool" and r.tool["name"] == "book_grooming", r.why
    else:
        assert r.kind == "text", r.why


@pytest.mark.parametrize(
    ("text", "time"),
    [
        ("book me in at the barber any time before noon on saturday", None),
        ("a slot after 6pm on friday please", None),
        ("book me in at the barber at noon on saturday", "12:00"),
    ],
)
def test_a_clock_said_as_a_bound_is_no_time(text, time):
    from datetime import datetime, timezone

    from ibachat.agent.alignment.request_values import stated_values

    params = {
        "type": "object",
        "properties": {
            "date": {"type": "string", "format": "date"},
            "time": {"type": "string", "pattern": "^[0-2][0-9]:[0-5][0-9]$"},
        },
    }
    got = stated_values(params, text, datetime(2026, 3, 20, 10, tzinfo=timezone.utc)).get("time")
    assert (got.value if got else None) == time


def test_an_ampersand_joins_a_name_in_lower_case():
    from ibachat.agent.reading.frame import read_frame

    assert [p.span.text for p in read_frame("order the cake from crumbs & co for saturday").places] == [
        "crumbs & co"
    ]


@pytest.mark.parametrize("text", ["book a table at Luigi's and", "a room at the Ritz &", "lunch at Wok This"])
def test_a_name_cut_off_at_the_end_reads_without_error(text):
    from ibachat.agent.reading.frame import read_frame

    assert read_frame(text).places


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("reorder my amoxicillin pls", "amoxicillin"),
        ("refill my inhaler please", "inhaler"),
        ("refill the ventolin, thanks", "ventolin"),
    ],
)
def test_a_please_at_the_end_is_no_part_of_the_thing(text, value):
    from datetime import datetime, timezone

    from ibachat.agent.alignment.request_values import stated_values

    params = {"type": "object", "properties": {"medication": {"type": "string"}}, "required": ["medication"]}
    got = stated_values(params, text, datetime(2026, 4, 8, tzinfo=timezone.utc)).get("medication")
    assert got is not None and got.value == value and got.quote == value


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("write up (but don't post yet) a note for the team about friday's fire drill", "request"),
        ("reserve (not confirm, just hold) two seats for the matinee", "request"),
        ("get me a taxi to the station? (only joking, I'll walk)", "statement"),
        ("(don't order anything yet) just thinking about dinner", "statement"),
    ],
)
def test_an_aside_in_brackets_is_no_part_of_what_is_asked(text, kind):
    from ibachat.agent.reading.acts import read_act

    got = read_act(text).kind
    assert (got == "request") == (kind == "request"), read_act(text).why


@pytest.mark.parametrize(
    ("value", "task", "said"),
    [
        ("Shine Cleaners", "book Shine for thursday 28th, 9am start", "Shine"),
        ("Harbour Vets", "Harbour is fine, just book it", ""),  # where a sentence starts: no name
        ("Harbour Vets", "get her in at harbour on friday", ""),  # no capital: a common word
        ("Pulse Gym", "spin at Pulse on thursday please", "Pulse"),
    ],
)
def test_a_name_said_by_its_first_word_with_its_capital(value, task, said):
    from ibachat.agent.alignment.plan import repeated

    assert repeated(value, task) == said
