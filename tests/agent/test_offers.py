"""Options the assistant offered and the one the user's reply took, in words written for these tests
(vets, flats, cakes, music lessons, garages; not the development sets' domains).

An offer is read by its layout (markers, lines, a list of alternatives after a colon); a reply takes an
option by position, by a measure every option carries (price, clock time, length), by a word only one
option has, or by description, which is settled by meaning at ingest. A negated or refused reference
takes nothing. Through the planner, the pick fills the tool's own enum and boolean, with the pick as
its reason. The store and MiniLM are real.
"""

from __future__ import annotations

import pytest

from ibachat.agent.ingest import ingest
from ibachat.agent.planner import Planner
from ibachat.agent.reading.offers import offered, picked
from memory.memory import Memory
from tests.agent.histories import History

FLATS = (
    "Three flats fit: (1) a studio near the station, £900; (2) a two-bed with a garden, £1,250; "
    "(3) a loft by the canal, £1,100. Want viewings?"
)
CAKES = "For the party: a) lemon drizzle, b) chocolate fudge, c) carrot with walnuts."
VET = (
    "The vet can see Biscuit: Monday at 09:15 with Dr Osei, Tuesday at 16:40 with Dr Lam, or Friday at 12:00."
)
LESSONS = "Two teachers have space:\n- Ana, jazz piano, Thursdays\n- Tom, classical guitar, Saturdays"


@pytest.mark.parametrize(
    ("text", "options"),
    [
        (
            FLATS,
            [
                "a studio near the station, £900",
                "a two-bed with a garden, £1,250",
                "a loft by the canal, £1,100",
            ],
        ),
        (CAKES, ["lemon drizzle", "chocolate fudge", "carrot with walnuts"]),
        (
            VET,
            ["Monday at 09:15 with Dr Osei", "Tuesday at 16:40 with Dr Lam", "Friday at 12:00"],
        ),
        (LESSONS, ["Ana, jazz piano, Thursdays", "Tom, classical guitar, Saturdays"]),
    ],
)
def test_an_offer_is_read_by_its_layout(text, options):
    offer = offered(text)
    assert offer is not None and offer.options == options


@pytest.mark.parametrize(
    "text",
    [
        "The longest bridges are the Danyang-Kunshan, the Changhua-Kaohsiung and the Tianjin viaduct.",
        "Boil the kettle, warm the pot, then add the leaves.",
        "Sure: I'll book it for Friday.",
    ],
)
def test_an_answer_or_a_single_plan_is_no_offer(text):
    assert offered(text) is None


@pytest.mark.parametrize(
    ("text", "reply", "index", "how"),
    [
        (FLATS, "defo the third one, i love water", 2, "position"),
        (FLATS, "number 2 if the landlord takes cats", 1, "position"),
        (FLATS, "whichever's cheapest, money's tight", 0, "measure"),
        (FLATS, "the priciest is fine tbh, my bonus came in", 1, "measure"),
        (CAKES, "b!! obviously", 1, "position"),
        (CAKES, "go with c", 2, "position"),
        (CAKES, "the walnut one, she loves nuts", 2, "word"),
        (VET, "the later one works, i'm at work till 3", 1, "measure"),
        (VET, "friday please", 2, "word"),
        (LESSONS, "the latter, my daughter wants guitar", 1, "position"),
        (LESSONS, "jazz, definitely", 0, "word"),
    ],
)
def test_a_reply_takes_one_option(text, reply, index, how):
    found = picked(reply, offered(text))
    assert found is not None and (found.index, found.how) == (index, how)


@pytest.mark.parametrize(
    ("text", "reply"),
    [
        (FLATS, "none of those, can you look wider?"),
        (CAKES, "definitely not the lemon one"),
        (VET, "not friday, i'm away"),
        (LESSONS, "hmm, let me ask her first"),
        (CAKES, "can you find vegan ones instead?"),
    ],
)
def test_a_refusal_or_a_negated_reference_takes_nothing(text, reply):
    found = picked(reply, offered(text))
    assert found is None or found.index is None and found.how != "described"


PLUMBER = "Would you like the plumber on Tuesday morning or on Thursday after 4?"
SURVEY = "I can do the survey by phone, by video call, or in person at the branch."
DEPOSITS = (
    "I can hold the van at Hertz (£60/day, £300 deposit), Sixt (£52/day, £500 deposit), "
    "or Enterprise (£58/day, £250 deposit)."
)
GYMS = "For the swim sessions: either Parkside Leisure on the 4th or the Lido on the 12th?"
TRADES = "Three builders can quote: Oak & Sons (4.1★, 8 miles), Brickwise (4.8★, 3 miles) or HomeFix (4.5★, 12 miles)?"
LIFTS = "Shall I book the airport run as a shared shuttle or as a private car that waits for you?"


@pytest.mark.parametrize(
    ("text", "options"),
    [
        (PLUMBER, ["on Tuesday morning", "on Thursday after 4"]),
        (SURVEY, ["by phone", "by video call", "in person at the branch"]),
        (GYMS, ["Parkside Leisure on the 4th", "the Lido on the 12th"]),
    ],
)
def test_alternatives_joined_by_or_are_an_offer_in_a_turn_that_asks_or_offers(text, options):
    offer = offered(text)
    assert offer is not None and offer.options == options


@pytest.mark.parametrize(
    ("text", "reply", "index"),
    [
        (DEPOSITS, "option b, the car's cheaper per day", 1),
        (DEPOSITS, "the middle one", 1),
        (DEPOSITS, "whichever has the lowest deposit", 2),
        (GYMS, "whichever's sooner", 0),
        (TRADES, "the best rated one", 1),
        (TRADES, "the nearest one, obviously", 1),
        (SURVEY, "video, i'm not leaving the house", 1),
        (LIFTS, "the one where i don't have to share", 1),
    ],
)
def test_a_reply_takes_an_option_by_its_measure_or_its_own_words(text, reply, index):
    found = picked(reply, offered(text))
    assert found is not None and found.index == index, found


@pytest.mark.parametrize(
    ("text", "reply"),
    [
        (DEPOSITS, "what's the difference between them"),
        (TRADES, "let me check with my partner first, she dealt with the last builder"),
        (SURVEY, "i'll think about it"),
    ],
)
def test_a_question_or_a_choice_put_off_takes_nothing(text, reply):
    found = picked(reply, offered(text))
    assert found is None or found.index is None and found.how != "described"


def test_a_description_is_left_to_meaning():
    found = picked("the one where the dog can run about outside", offered(FLATS))
    assert found is not None and found.index is None and found.how == "described"
    assert "dog" in found.described


# ---------------------------------------------------------------------------------- through the planner
SERVICE = {
    "name": "garage_service",
    "description": "Book the car in at the garage",
    "parameters": {
        "type": "object",
        "properties": {
            "package": {"type": "string", "enum": ["interim", "full", "major"]},
            "courtesy_car": {"type": "boolean", "description": "a courtesy car while yours is in"},
        },
        "required": ["package", "courtesy_car"],
    },
}
OFFER = (
    "The garage has three packages: (1) interim check, £95, done while you wait; (2) full service with a "
    "courtesy car, £210; (3) major service, £340, car kept two days. Shall I book one?"
)


@pytest.fixture(scope="module")
def minilm():
    from memory.embedders.registry import load_embedder

    return load_embedder("minilm")


def _act(tmp_path, minilm, reply: str, offer: str = OFFER):
    history = History(seed=11).noise(6, 0, 20)
    history.say(
        7,
        ("user", "the car's due its service, what are my options"),
        ("assistant", offer),
        ("user", reply),
        ("assistant", "Okay, tell me when to book it."),
    )
    history.noise(4, 9, 20)
    memory = Memory.open(tmp_path / "m", embedder=minilm, fsync=False)
    try:
        ingest(memory, history.records())
        out = Planner(memory).act("book the car in for its service", now=history.at(14, 10), tools=[SERVICE])
    finally:
        memory.close()
    assert out.tool_call is not None, out.text
    return out.tool_call


def test_a_pick_by_position_fills_the_enum_and_the_flag_it_came_with(tmp_path, minilm):
    call = _act(tmp_path, minilm, "the second one i think, i need wheels for the school run")
    assert call.arguments.get("package") == "full"
    assert call.arguments.get("courtesy_car") is True
    assert "picked" in call.reasons["package"]


def test_a_pick_by_description_is_settled_by_meaning(tmp_path, minilm):
    call = _act(tmp_path, minilm, "the one where i can wait for it, no way i'm leaving it for days")
    assert call.arguments.get("package") == "interim"


def test_a_refusal_fills_nothing(tmp_path, minilm):
    call = _act(tmp_path, minilm, "none of those, i'll ring them myself")
    assert "package" not in call.arguments


PODCAST = {
    "name": "publish_episode",
    "description": "Publish a podcast episode",
    "parameters": {
        "type": "object",
        "properties": {
            "title": {
                "type": "string",
                "enum": ["Hills", "Why Hills Hurt: Notes From The Back", "Gradients"],
            },
        },
        "required": ["title"],
    },
}


def test_a_title_among_offered_ones_is_the_pick_not_the_request_words(tmp_path, minilm):
    history = History(seed=12).noise(6, 0, 20)
    history.say(
        7,
        ("user", "name my episode about cycling up hills"),
        (
            "assistant",
            "Three ideas: (a) 'Hills', (b) 'Why Hills Hurt: Notes From The Back', (c) 'Gradients'.",
        ),
        ("user", "the long one, it's funnier"),
        ("assistant", "Good choice."),
    )
    memory = Memory.open(tmp_path / "m", embedder=minilm, fsync=False)
    try:
        ingest(memory, history.records())
        out = Planner(memory).act("put the cycling episode up", now=history.at(9, 10), tools=[PODCAST])
    finally:
        memory.close()
    assert (
        out.tool_call is not None
        and out.tool_call.arguments.get("title") == "Why Hills Hurt: Notes From The Back"
    )
