"""Requests without a verb that the reader had taken for statements (session 30): a journey from a
street address the tagger took for a date ("from 9 Ash Grove"), a thing asked for at a clock said in
words ("at twenty past four"), and a thing asked for with "please" after a story and a dash or comma.
Each request check failed on the code before this change; the statements beside them are its guards.
In words written for these tests (a minicab, a nail bar, a skip, a locksmith).
"""

from __future__ import annotations

import pytest

from ibachat.agent.reading.acts import read_act


@pytest.mark.parametrize(
    "text",
    [
        "cab from 21 Elm Road to Euston on sunday morning",  # the tagger's date: "21 Elm Road to"
        "a trim for Biscuit tomorrow at quarter past two",
        "We're clearing out the loft this weekend — a skip on the drive by Friday please",
        "Locked myself out again, an emergency locksmith to 4 Fern Close please",
    ],
)
def test_a_request_without_a_verb_is_asked(text: str) -> None:
    act = read_act(text)
    assert act.kind == "request", act


@pytest.mark.parametrize(
    "text",
    [
        "flights from March 3 to March 9 were all full",
        "great lunch at Nonna's on friday at half twelve, the pasta was unreal",
        "physio at quarter past three tomorrow, dreading it",
        "the cottage was gorgeous, hot tub on the deck",
        "thanks so much, that's all for now please",
    ],
)
def test_what_only_tells_stays_told(text: str) -> None:
    assert read_act(text).kind != "request"


@pytest.mark.parametrize(
    "text",
    [
        "could you renew my parking permit for the Fiesta, and keep renewing it every year from now on.",
        "top up my oyster card with 30 quid, and always do that on the first of the month.",
    ],
)
def test_a_rule_joined_after_a_request_leaves_the_request_asked(text: str) -> None:
    # the rule for the future belongs to the second verb; the first still asks for something now
    act = read_act(text)
    assert act.kind == "request" and act.requests[0].verb in ("renew", "top up"), act


@pytest.mark.parametrize(
    "text", ["always renew my parking permit for me", "renew my parking permit every year from now on"]
)
def test_a_rule_on_the_request_itself_stays_a_rule(text: str) -> None:
    assert read_act(text).kind == "standing"


@pytest.mark.parametrize(
    ("text", "tool"),
    [
        ("I need a ticket from Derby to Sheffield on Monday", "book_train"),  # a journey wanted, no verb
        ("book a ticket from Derby to Sheffield", "book_train"),  # "Sheffield" tagged a common noun
        ("I need two tickets to Swan Lake on Friday", "book_tickets"),  # a show is no journey
    ],
)
def test_a_ticket_from_one_place_to_another_is_a_journey(text: str, tool: str) -> None:
    from ibachat.agent.execution.router import route
    from ibachat.agent.meaning import catalogue

    got = route(text, catalogue())
    assert got.kind == "tool" and got.tool["name"] == tool, (got.kind, got.why)


@pytest.mark.parametrize(
    ("text", "obj"),
    [
        ("I need some hiking socks, merino if possible", "some hiking socks"),  # "some" before a thing
        ("we want some fresh basil and a lemon", "some fresh basil"),
    ],
)
def test_a_want_with_some_before_its_thing_is_a_want(text: str, obj: str) -> None:
    act = read_act(text)
    assert act.kind == "request" and act.requests[0].form == "want", act
    assert act.requests[0].obj.startswith(obj), act


@pytest.mark.parametrize("text", ["I need some", "we want more", "I'm after some advice on the garden"])
def test_a_want_of_nothing_named_asks_for_no_thing(text: str) -> None:
    assert read_act(text).kind != "request"
