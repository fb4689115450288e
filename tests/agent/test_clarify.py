"""Reading a reply as the answer to a clarifying question (issue 11, item 2)."""

from __future__ import annotations

import pytest

from ibachat.agent.execution.clarify import options, question_param, read_answer

TIE = "For restaurant, do you want Taco Loco or Sichuan House?"
OPEN = "Which restaurant should I use?"
SPICE = "For spice level, do you want mild or hot?"
SPICES = {"type": "string", "enum": ["none", "mild", "medium", "hot"]}
NAME = {"type": "string"}


@pytest.mark.parametrize(
    ("question", "prop", "reply", "value"),
    [
        (TIE, NAME, "Sichuan House", "Sichuan House"),
        (TIE, NAME, "sichuan house please", "Sichuan House"),
        (TIE, NAME, "ok, Taco Loco", "Taco Loco"),
        (TIE, NAME, "the first one", "Taco Loco"),
        (TIE, NAME, "let's go with the second", "Sichuan House"),
        (TIE, NAME, "Golden Dragon", "Golden Dragon"),
        (OPEN, NAME, "from Luigi's", "Luigi's"),
        (SPICE, SPICES, "hot please", "hot"),
        (SPICE, SPICES, "medium", "medium"),
        (TIE, NAME, "thanks", None),
        (TIE, NAME, "yes", None),
        (TIE, NAME, "no thanks", None),
        (TIE, NAME, "what about tomorrow?", None),
        (OPEN, NAME, "I don't know", None),
        (SPICE, SPICES, "whatever", None),
        (TIE, NAME, "Order me dinner from somewhere nice and cheap tonight please", None),
    ],
)
def test_a_reply_gives_the_value_it_names_or_none(question, prop, reply, value):
    assert read_answer(reply, question, prop) == value


def test_the_question_names_its_parameter_and_options():
    assert question_param(SPICE, ["spice_level", "restaurant"]) == "spice_level"
    assert question_param(OPEN, ["restaurant", "items"]) == "restaurant"
    assert options(TIE) == ["Taco Loco", "Sichuan House"] and options(OPEN) == []
