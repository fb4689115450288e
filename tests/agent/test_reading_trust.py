"""Issue 18, item 6: only phrases about the user's wants, with a stance, become wishes; states last as
long as said, once; a correction in the user's words supersedes the value it contradicts.

Probes in words of our own (not the daily-use history's, not the issue's)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from ibachat.agent.ingest import ingest
from ibachat.agent.reading.check import checked
from ibachat.agent.reading.clauses import normalise
from ibachat.agent.reading.open_prefs import read_open
from ibachat.agent.reading.polarity import analyse
from ibachat.agent.reading.quantities import quantities
from memory.memory import Memory


def _stances(sentence: str) -> dict[str, int | None]:
    return {m.value: m.polarity for m in analyse(normalise(sentence))}


@pytest.mark.parametrize(
    ("sentence", "value"),
    [
        ("Honestly I'm not picky, chicken, fish, veggies, whatever you've got", "meat"),
        ("We aren't fussy eaters at all, beef, fish, tofu, we'll have anything", "vegetarian"),
    ],
)
def test_a_not_does_not_reach_past_a_comma_into_a_list_it_does_not_govern(sentence, value):
    assert _stances(sentence).get(value) in (None, 1)


def test_a_not_still_governs_its_own_object():
    assert _stances("I do not want meat, fish or eggs").get("meat") == -1


@pytest.mark.parametrize("sentence", ["nah, ah well, whatever", "yeah I just want to vent", "hah, fine"])
def test_a_word_ending_in_ah_is_no_hour(sentence):
    assert quantities(sentence) == []


@pytest.mark.parametrize(
    ("said", "minutes"),
    [("two and a half hours", 150), ("an hour and a half", 90), ("flights under 3h", 180), ("90 min", 90)],
)
def test_durations_with_halves_and_abbreviations(said, minutes):
    assert [q.value for q in quantities(said)] == [minutes]


@pytest.mark.parametrize(
    "sentence",
    [
        "Right, I need to get to Leeds on the 14th.",
        "I need a taxi to the station tomorrow.",
        "I want a table for four on Saturday.",
    ],
)
def test_a_want_of_something_done_on_one_day_is_no_standing_wish(sentence):
    assert [p.phrase for p in checked(read_open(sentence, ""))] == []


def test_a_want_for_the_weekday_it_is_today_is_still_one_day():
    # "on Saturday" said on a Saturday is a question (today or next week?), and still no standing wish
    from datetime import UTC, datetime

    today = datetime.now(UTC).strftime("%A")
    assert [p.phrase for p in checked(read_open(f"We need a quiet corner table on {today}.", ""))] == []


@pytest.mark.parametrize("sentence", ["I always want a quiet room.", "I need aisle seats on Mondays."])
def test_a_standing_want_is_kept(sentence):
    assert checked(read_open(sentence, ""))


@pytest.fixture
def home(tmp_path, minilm):
    mem = Memory.open(tmp_path / "m", embedder=minilm, fsync=False)
    yield mem
    mem.close()


@pytest.fixture(scope="module")
def minilm():
    from memory.embedders.registry import load_embedder

    return load_embedder("minilm")


def _say(mem, when: datetime, *texts: str) -> None:
    ingest(
        mem,
        [
            {"session_id": f"s{i}", "role": "user", "text": t, "time": (when + timedelta(days=i)).isoformat()}
            for i, t in enumerate(texts)
        ],
    )


def test_one_turn_tells_of_one_state_and_telling_it_again_moves_nothing(home):
    start = datetime(2026, 3, 2, 9, tzinfo=UTC)
    _say(
        home,
        start,
        "Fell off my bike on Saturday and fractured my wrist. I'm in a splint for the next four weeks.",
        "typing one-handed with this wrist in a splint is a pain",
    )
    injuries = [e for e in home.ledger.active(start + timedelta(days=3)) if e.dimension.startswith("state.")]
    assert len(injuries) == 1, injuries
    assert injuries[0].valid_until.date() == (start + timedelta(weeks=4)).date()


def test_an_update_in_the_users_words_replaces_the_diet_it_contradicts(home):
    start = datetime(2026, 1, 5, 9, tzinfo=UTC)
    _say(
        home,
        start,
        "I'm vegan these days, properly, no animal products at all.",
        "Update: I'm having eggs and cheese again, still no meat or fish though.",
    )
    diets = {e.value for e in home.ledger.active(start + timedelta(days=5)) if e.dimension == "food.diet"}
    assert "vegan" not in diets and "vegetarian" in diets, diets


def test_a_requests_house_number_and_time_are_the_requests_not_a_bound(home):
    """Issue 20, item 7: "from 7 Mill Lane ... at 8am" is an address and a time, never `hour>=7`."""
    from ibachat.agent.reading.acts import read_act
    from ibachat.agent.reading.frame import read_frame

    said = "Get me a cab from 7 Mill Lane to Leeds station on Friday at 8am"
    assert read_act(said).asks  # "8am" is no negation of the command
    assert [(p.prep, p.span.text) for p in read_frame(said).places] == [
        ("from", "7 Mill Lane"),
        ("to", "Leeds station"),
    ]
    assert not [a for a in read_frame(said).amounts if a.value == 7]
    _say(home, datetime(2026, 3, 2, 9, tzinfo=UTC), said, "Could you read this article out to me?")
    assert [e for e in home.ledger.all() if e.speaker == "user"] == []


def _phrases(sentence: str) -> list[str]:
    return [p.phrase for p in checked(read_open(sentence, ""))]


@pytest.mark.parametrize(
    ("sentence", "whole"),
    [
        ("I steer clear of cafés that play loud music.", "cafés that play loud music"),
        ("We never book tours that include elephant rides.", "tours that include elephant rides"),
        ("I'd rather not eat at places serving dishes containing peanuts.", "peanuts"),
        ("I stay away from bars that mostly play techno music.", "bars that mostly play techno music"),
        ("I avoid hotels that usually charge guests resort fees.", "resort fees"),
        ("I avoid shows that heavily feature graphic violence.", "graphic violence"),
    ],
)
def test_a_relative_clause_and_its_object_stay_with_the_thing_they_say_which(sentence, whole):
    """The small parser reads some relative clauses as complements and some nouns as verbs ("foods
    containing *gluten*" as VBP): a finite verb starts a new clause only with its own subject or after
    a break, and a verb whose subject is "that" / "which" is a relative clause."""
    assert any(whole in p for p in _phrases(sentence))


def test_an_or_inside_a_part_does_not_split_the_phrase_at_it():
    """'fabrics like linen or hemp' names fabrics with examples: no part 'fabrics like linen'."""
    found = _phrases("I really dislike wearing synthetic fabrics like nylon or polyester.")
    assert not any(p.endswith("like nylon") for p in found)
    assert any("nylon or polyester" in p for p in found)


def test_a_noun_the_rules_read_as_a_command_is_no_request():
    """'silk and *lace* dresses': the parse reads 'lace' as part of a noun phrase, so the sentence is no
    request to the assistant and its stance is kept."""
    assert any("dresses" in p for p in _phrases("I hate wearing silk and lace dresses to weddings."))


def test_the_thing_of_a_clause_the_user_speaks_in_is_kept_without_the_clause():
    """ "... but i'd take the risotto over it any day": the wish is the risotto, not "i'd take"."""
    found = _phrases("the pasta is fine but i'd take the risotto over it any day of the week")
    assert "the risotto" in found


def test_a_request_that_tells_a_habit_keeps_the_habit():
    """'as usual' says the request is what the user always asks for: that part is a standing wish (and
    "bung", which the small model tags as a past verb, is no story)."""
    found = _phrases("garlic bread for the table please, and bung in a side of olives as usual")
    assert any("olives" in p for p in found)


@pytest.mark.parametrize(
    ("sentence", "scope"),
    [
        ("back row is fine but i'd rather sit near the aisle", ""),  # lower case: no one named
        ("Omar can't eat shellfish", "for:Omar"),
    ],
)
def test_a_thing_in_lower_case_is_no_person_the_statement_is_about(sentence, scope):
    from ibachat.agent.reading.about import scope_of

    assert scope_of(sentence) == scope


@pytest.mark.parametrize(
    ("said", "expected"),
    [
        ("talks that run past 45 minutes", [(45, ">=")]),
        ("I won't go beyond £150 a night", [(150, "<=")]),
        ("meet at half past 6", [(6.5, "=")]),  # a clock's "past" is no bound (and the clock is 6:30)
        ("ten past 9 works", [(9 + 10 / 60, "=")]),
    ],
)
def test_past_and_beyond_bound_an_amount_with_a_unit_only(said, expected):
    assert [(q.value, q.op) for q in quantities(said)] == expected
