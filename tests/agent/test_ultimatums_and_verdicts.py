"""A requirement said as an ultimatum, a verdict said with "for me", and how far a "not" reaches.

In words written for these tests (groceries, parking, hotel baths, payments, phones), none from the
development sets: "X or I'm not going" / "X or don't bother" / "X or forget it" requires X, while "X or
Y" between two options, or with a consequence that is no refusal, requires nothing; "X is ADJ for me"
takes its stance from the adjective, not from "for me"; a "not" before a comma does not turn round
what comes after it; the sentiment lexicon rates a judging word where the embedder cannot; and a wish
chooses an enum value only when it singles that value out from the others. Each check failed on the
code before this change.
"""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from pathlib import Path

import numpy as np
import pytest

from ibachat.agent.ingest import ingest
from ibachat.agent.planner import Planner
from ibachat.agent.reading.open_prefs import read_open
from memory.memory import Memory


@pytest.mark.parametrize(
    ("text", "thing"),
    [
        ("oat milk or don't bother", "oat milk"),
        ("somewhere with parking or we're not coming", "somewhere with parking"),
        ("a room with a bath or forget it", "room with a bath"),
        ("aisle seat or i'm not flying", "aisle seat"),
        ("contactless or i walk, i never carry cash", "contactless"),
    ],
)
def test_an_ultimatum_requires_the_thing_before_it(text, thing):
    found = {(p.phrase, p.polarity) for p in read_open(text)}
    assert (thing, 1) in found, found


@pytest.mark.parametrize(
    "text",
    [
        "should i take the bus or walk",
        "i might get the train or i might drive",
        "ring me tonight or i'll forget",
        "tea or coffee?",
    ],
)
def test_two_options_or_a_consequence_require_nothing(text):
    assert [p for p in read_open(text) if p.polarity > 0] == []


@pytest.mark.parametrize(
    "text", ["weekends are offline for me now", "evenings are busy for me", "mondays are hectic for me"]
)
def test_a_verdict_with_for_me_is_the_adjectives_not_a_want(text):
    found = read_open(text)
    assert all(p.polarity <= 0 for p in found), found
    assert any(p.how == "predicate" for p in found), found


@pytest.mark.parametrize(
    ("text", "wrong"),
    [
        ("we're not booking, mum can't do stairs", ("stairs", 1)),
        ("paper tickets or i'm not going, my phone always dies", ("dies", 1)),
    ],
)
def test_a_not_reaches_no_further_back_than_the_last_break(text, wrong):
    assert wrong not in {(p.phrase, p.polarity) for p in read_open(text)}


def test_the_sentiment_lexicon_rates_the_words_it_knows():
    from ibachat.agent.alignment.grounding import valence

    def always_bad(texts):  # an embedder that puts every word at the bad pole
        bad = np.array([0.0, 1.0])
        return np.array([[1.0, 0.0]] + [bad] * (len(texts) - 1))

    # "perfect" and "easier" are rated good by the lexicon; "gimmicky" it does not rate: by meaning
    assert valence(["perfect", "easier", "brutal", "gimmicky"], always_bad) == [1, 1, -1, -1]


def test_a_wish_chooses_a_value_only_when_it_singles_it_out(minilm):
    from ibachat.agent.alignment.grounding import Ranking
    from ibachat.agent.alignment.open_plan import _about_the_value

    urgency = ["routine", "soon", "same day"]
    vague = Ranking(np.zeros(3), 0.07, [("face to face", 0.18)])  # as near "soon" as "same day"
    assert not _about_the_value("soon", vague, [], minilm, urgency)
    seats = ["window", "aisle", "middle"]
    clear = Ranking(np.zeros(3), 0.5, [("aisle seat please", 0.6)])
    assert _about_the_value("aisle", clear, [], minilm, seats)


NOW = datetime(2026, 12, 3, 9, 0, tzinfo=timezone.utc)
BANK = {
    "name": "contact_bank",
    "description": "Arrange contact with the bank about an account problem",
    "parameters": {
        "type": "object",
        "properties": {
            "topic": {"type": "string"},
            "channel": {"enum": ["chatbot", "branch appointment", "phone call with an adviser"]},
            "priority": {"enum": ["routine", "soon", "same day"]},
        },
        "required": ["topic", "channel", "priority"],
    },
}


def _after(tmp_path: Path, said_text: str, task: str, tool: dict, days: int = 9):
    """The planner's outcome for ``task`` when the user said ``said_text`` ``days`` before."""
    said = NOW - timedelta(days=days)
    rows = [
        {"session_id": "a", "role": "user", "time": said.isoformat(), "text": said_text},
        {"session_id": "a", "role": "assistant", "time": (said + timedelta(minutes=1)).isoformat(),
         "text": "Noted."},
    ]  # fmt: skip
    memory = Memory.open(tmp_path, embedder="minilm", fsync=False)
    ingest(memory, rows)
    return Planner(memory, None).act(task, now=NOW, tools=[tool])


def _bank_call(tmp_path: Path, said_text: str):
    return _after(tmp_path, said_text, "sort out a call with the bank about my card", BANK)


@pytest.mark.xfail(
    strict=True,
    reason="MiniLM puts a thing near its opposite of the same topic ('real human' is nearest 'chatbot'); "
    "no offline model here tells them apart",
)
@pytest.mark.parametrize(
    ("said", "param", "wrong"),
    [
        ("the app keeps giving me a bot. a real human or don't bother", "channel", "chatbot"),
    ],
)
def test_a_wish_is_not_grounded_on_its_opposite(tmp_path: Path, said, param, wrong):
    assert _bank_call(tmp_path, said).plan.params[param].chosen != wrong


def test_the_others_are_not_what_is_avoided_when_they_are_only_of_its_topic(tmp_path: Path):
    # "waiting" is 0.3 and more from "soon" and "same day" in MiniLM, and "routine" had been chosen as
    # "the others are what you avoid"; the others must be near what is avoided as its own values are
    out = _bank_call(tmp_path, "i hate waiting, i want things sorted quickly")
    assert out.plan.params["priority"].chosen != "routine", out.plan.params["priority"]


@pytest.mark.parametrize(
    ("text", "thing", "sign"),
    [
        ("a sea view would suit us perfectly", "sea view", 1),
        ("the later sitting suits me fine tbh", "later sitting", 1),
        ("the family room doesn't appeal to me", "family room", -1),
        ("the corner booth is my favourite", "corner booth", 1),
        ("jazz brunch? honestly not my scene", "jazz brunch", -1),
        ("the silent disco? not really my thing", "silent disco", -1),
        ("a late checkout? that would suit me", "late checkout", 1),
    ],
)
def test_a_verdict_of_ones_own_after_the_thing(text, thing, sign):
    from ibachat.agent.reading.check import checked

    found = {(p.phrase, p.polarity) for p in checked(read_open(text))}
    assert (thing, sign) in found, found


@pytest.mark.parametrize(
    "text",
    [
        "my wife says the corner booth is the best",
        "what time is it? not my problem",
        "the spa was too hot for me",
    ],
)
def test_no_verdict_of_ones_own(text):
    from ibachat.agent.reading.check import checked

    assert [p for p in checked(read_open(text)) if p.polarity > 0 or "spa" in p.phrase] == []


@pytest.mark.parametrize(
    ("text", "asked", "thing"),
    [
        ("yes, strong as ever", "Same blend as last month?", "strong"),
        ("yep, spicy like always, don't hold back", "Shall I keep the curry the way you had it?", "spicy"),
    ],
)
def test_a_short_answer_keeps_the_thing_as_it_has_been(text, asked, thing):
    from ibachat.agent.reading.check import checked

    assert (thing, 1) in {(p.phrase, p.polarity) for p in checked(read_open(text, asked))}


@pytest.mark.parametrize(
    ("text", "asked"),
    [
        ("busy as ever at work lol", "How are you doing?"),
        ("the bus was late as usual", ""),
        ("knackered as ever", ""),
    ],
)
def test_how_things_are_as_ever_is_no_wish(text, asked):
    from ibachat.agent.reading.check import checked

    assert [p for p in checked(read_open(text, asked)) if p.polarity > 0] == []


GYM = {
    "name": "join_weekly_class",
    "description": "Sign up to a weekly class at the leisure centre",
    "parameters": {
        "type": "object",
        "properties": {"class": {"enum": ["water polo", "aqua fit", "zumba", "yoga", "circuits"]}},
        "required": ["class"],
    },
}


@pytest.mark.parametrize(
    "said",
    ["confession: i can't swim, never learned as a kid", "i never learnt to swim, not properly anyway"],
)
def test_what_one_cannot_do_rules_out_its_own_values_only(tmp_path: Path, said):
    out = _after(tmp_path, said, "sign me up for a weekly class", GYM, days=30)
    pd = out.plan.params["class"]
    assert pd.chosen not in ("water polo", "aqua fit"), pd
    asked = " ".join(out.plan.clarifications)
    assert "water polo" not in asked and "zumba" in asked and "yoga" in asked, asked


REPORTS = {
    "name": "generate_status_report",
    "description": "Produce a project status report",
    "parameters": {
        "type": "object",
        "properties": {"project": {"type": "string"}, "format": {"enum": ["slide_deck", "written_memo"]}},
    },
}


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("put together the monthly status report for project atlas", "tool"),
        ("write a short poem about autumn leaves", "text"),
    ],
)
def test_words_asked_for_go_to_a_tool_named_for_them(tmp_path: Path, text, kind):
    """Session 29 (the unseen open-world set): "put together the ... report" had been text, though the
    tool is named for reports; a poem stays text."""
    memory = Memory.open(tmp_path, embedder="minilm", fsync=False)
    out = Planner(memory, None).act(text, now=NOW, tools=[REPORTS])
    assert out.route.kind == kind, out.route
