"""Issue 11, items 2-5: clarifications that fill the pending action, a true reason for every value,
a ledger that learns what a reply or a rejection was about, and "the usual" that does not guess."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from ibachat.agent.reading.events import REPLY_FLAG
from ibachat.assistant import Assistant
from ibachat.llm.scripted import ScriptedLLM
from memory.memory import Memory
from tests.actions_history import past_calls, past_dinners

NOW = datetime(2026, 12, 3, 18, tzinfo=timezone.utc)  # a Thursday evening


@pytest.fixture
def memory(tmp_path):
    mem = Memory.open(tmp_path / "home", embedder="hash")
    yield mem
    mem.close()


def bot(memory, replies=None) -> Assistant:
    """The floor (no model), or a scripted model with ``replies``."""
    return Assistant(memory, ScriptedLLM(list(replies)) if replies is not None else None, clock=lambda: NOW)


def events_of(memory, turn_id: int) -> list:
    return [e for e in memory.ledger.all() if turn_id in e.evidence]


# ------------------------------------------------------------------ 2: a clarification round trip
def test_the_answer_to_the_question_fills_the_pending_action_and_is_no_preference(memory):
    past_dinners(memory, NOW)
    assistant = bot(memory)
    sid = assistant.new_session()
    asked = assistant.respond(sid, "Order me dinner")
    assert asked.proposal is None and asked.clarify is not None
    assert "Sichuan House" in asked.clarify and "Taco Loco" in asked.clarify
    before = len(memory.ledger.all())

    dishes = assistant.respond(sid, "Sichuan House")
    # no dish was named and the past orders there differ: the next question offers them, nothing is invented
    assert (
        dishes.proposal is None and dishes.clarify == "For items, do you want mapo tofu or dan dan noodles?"
    )
    assert REPLY_FLAG in dishes.user_turn.flags and events_of(memory, dishes.user_turn.id) == []
    reply = assistant.respond(sid, "the first one")
    assert reply.clarify is None and reply.proposal is not None
    assert reply.proposal["name"] == "order_food" and reply.proposal["arguments"]["items"] == ["mapo tofu"]
    args, reasons = reply.proposal["arguments"], reply.proposal["reasons"]
    assert args["restaurant"] == "Sichuan House" and "your answer" in reasons["restaurant"]
    assert args["spice_level"] == "hot" and "past call" in reasons["spice_level"]  # as at Sichuan House
    # the answer is stored, flagged, and no preference came from it (no "food.spice +hot stated")
    assert dishes.user_turn.text == "Sichuan House" and REPLY_FLAG in reply.user_turn.flags
    assert events_of(memory, reply.user_turn.id) == [] and len(memory.ledger.all()) == before
    assert assistant.approve(reply)["status"] == "confirmed"
    assert next(memory.iter_turns(role="tool")).tool_call["arguments"]["restaurant"] == "Sichuan House"


def test_a_request_that_names_the_choice_is_not_asked_again(memory):
    past_dinners(memory, NOW)
    assistant = bot(memory)
    reply = assistant.respond(assistant.new_session(), "Order me dinner from Sichuan House: the mapo tofu")
    assert reply.clarify is None and reply.proposal is not None
    assert reply.proposal["arguments"]["restaurant"] == "Sichuan House"
    assert reply.proposal["reasons"]["restaurant"] == 'your request: "Sichuan House"'
    asked = assistant.respond(assistant.new_session(), "Order me dinner from Sichuan House")
    assert asked.clarify == "For items, do you want mapo tofu or dan dan noodles?"  # the place, not the dish


def test_a_new_request_or_a_question_back_is_not_taken_for_the_answer(memory):
    past_dinners(memory, NOW)
    assistant = bot(memory)
    sid = assistant.new_session()
    assert assistant.respond(sid, "Order me dinner").clarify
    flight = assistant.respond(sid, "Book a flight from Berlin to Oslo tomorrow")
    assert flight.proposal is not None and flight.proposal["name"] == "book_flight"
    assert assistant.respond(sid, "Sichuan House").proposal is None  # nothing is pending any more
    assert assistant.respond(sid, "Order me dinner").clarify
    back = assistant.respond(sid, "which one was cheaper?")
    assert back.proposal is None and REPLY_FLAG not in back.user_turn.flags


@pytest.mark.parametrize("chatter", ["thanks", "I don't know", "ok", "never mind"])
def test_a_short_reply_that_names_nothing_is_not_an_answer(memory, chatter):
    past_dinners(memory, NOW)
    assistant = bot(memory)
    sid = assistant.new_session()
    assert assistant.respond(sid, "Order me dinner").clarify
    reply = assistant.respond(sid, chatter)
    assert reply.proposal is None and REPLY_FLAG not in reply.user_turn.flags


def test_the_first_one_answers_a_question_between_two(memory):
    past_dinners(memory, NOW)
    assistant = bot(memory)
    sid = assistant.new_session()
    asked = assistant.respond(sid, "Order me dinner")
    first = asked.clarify.split(" want ")[1].split(" or ")[0]
    reply = assistant.respond(sid, "the first one, please")
    assert (
        reply.plan.params["restaurant"].chosen == first and reply.plan.params["restaurant"].source == "answer"
    )


# ------------------------------------------------------------------ 3: every value has a true reason
FLIGHT = "Book a flight from Berlin to Denver on the 12th"


def test_a_models_values_without_a_reason_are_not_proposed(memory):
    invented = {
        "origin": "Berlin",
        "destination": "Denver",
        "date": "2026-12-03",  # today: the request says the 12th
        "cabin": "business",
        "checked_bags": 3,
        "max_price": 50.0,
        "departure_window": "morning",
    }
    reply = bot(memory, [invented]).respond("s", FLIGHT)
    args, reasons = reply.proposal["arguments"], reply.proposal["reasons"]
    assert args["date"] == "2026-12-12" and "the 12th" in reasons["date"]
    assert "max_price" not in args  # no default, no reason: left unset
    assert args["checked_bags"] == 1 and reasons["checked_bags"] == "default"
    assert args["cabin"] == "economy" and args["departure_window"] == "any"
    assert set(reasons) == set(args) and all(reasons.values())


def test_a_value_the_request_names_is_kept_with_that_reason(memory):
    reply = bot(memory, [{"cabin": "business"}]).respond(
        "s", "Book a flight from Berlin to Denver on the 14th, business please"
    )
    assert reply.proposal["arguments"]["cabin"] == "business"
    assert reply.proposal["reasons"]["cabin"] == 'your request: "business"'
    undated = bot(memory).respond("s2", "Book a flight from Berlin to Denver, business please")
    assert undated.proposal is None and undated.clarify == "Which day should I use for date?"  # never today


def test_the_reason_is_for_the_value_shown_not_for_the_plans_habit(memory):
    lisbon = {
        "name": "book_flight",
        "arguments": {"origin": "Berlin", "destination": "Lisbon", "date": "2026-11-01"},
    }
    past_calls(memory, NOW, [("Book a flight from Berlin to Lisbon", lisbon)] * 3)
    reply = bot(memory).respond("s", "Book a flight from Berlin to Porto on Friday")
    args, reasons = reply.proposal["arguments"], reply.proposal["reasons"]
    assert args["destination"] == "Porto" and reasons["destination"] == 'your request: "Porto"'
    assert "Lisbon" not in reasons["destination"]


def test_an_edited_card_shows_what_ran_with_the_edit_as_its_reason(memory):
    assistant = bot(memory)
    reply = assistant.respond("s", FLIGHT)
    edited = {**reply.proposal["arguments"], "seat": "window", "date": "2026-12-13"}
    result = assistant.approve(reply, edited)
    assert result["arguments"]["date"] == "2026-12-13"
    assert reply.proposal["arguments"] == edited
    assert (
        reply.proposal["reasons"]["seat"] == "your edit" and reply.proposal["reasons"]["date"] == "your edit"
    )
    assert reply.proposal["reasons"]["origin"] == 'your request: "Berlin"'


def test_one_edited_call_is_not_called_a_habit(memory):
    assistant = bot(memory)
    first = assistant.respond("s", FLIGHT)
    assistant.approve(first, {**first.proposal["arguments"], "seat": "window"})
    later = bot(memory).respond("s", "Book a flight from Berlin to Oslo on Friday")
    assert later.proposal["arguments"]["seat"] == "window"
    assert later.proposal["reasons"]["seat"] == "chosen once before (one past call: not a habit yet)"


# ------------------------------------------------------------------ 4: what a rejection teaches
def test_rejecting_a_flights_meal_is_about_that_meal_not_the_diet(memory):
    assistant = bot(memory)
    reply = assistant.respond("s", FLIGHT)
    reply.proposal["arguments"]["meal"] = "vegetarian"  # the card as proposed to a user with that habit
    assistant.reject(reply, "not the vegetarian meal this time")
    events = memory.ledger.all()
    assert ("book_flight.meal", "vegetarian", -1) in [(e.dimension, e.value, e.polarity) for e in events]
    assert not [e for e in events if e.dimension.startswith(("food.", "diet"))], events
    assert all(e.kind == "rejected" and e.speaker == "user" for e in events)


def test_a_card_rejected_without_a_reason_teaches_nothing_about_its_values(memory):
    assistant = bot(memory)
    reply = assistant.respond("s", "Order dinner from Sichuan House: mapo tofu")
    assistant.reject(reply)
    [event] = [e for e in memory.ledger.all() if reply.user_turn.id not in e.evidence]
    assert event.dimension == "order_food" and event.kind == "rejected"


# ------------------------------------------------------------------ 5: "the usual" and avoid-lists
def test_the_usual_thai_place_is_not_one_of_the_others(memory):
    past_dinners(memory, NOW)
    assistant = bot(memory)
    reply = assistant.respond(assistant.new_session(), "Order dinner from the usual Thai place")
    assert reply.proposal is None and reply.clarify is not None
    assert "Thai" in reply.clarify and " or " not in reply.clarify


def test_the_usual_thai_place_is_the_thai_one_when_there_is_one(memory):
    past_dinners(memory, NOW)
    past_calls(
        memory,
        NOW,
        [
            (
                "Order Thai food",
                {
                    "name": "order_food",
                    "arguments": {
                        "restaurant": "Thai Orchid",
                        "items": ["pad thai"],
                        "spice_level": "medium",
                    },
                },
            )
        ],
        session="thai",
    )
    assistant = bot(memory)
    reply = assistant.respond(assistant.new_session(), "Order dinner from the usual Thai place")
    assert reply.proposal is not None and reply.proposal["arguments"]["restaurant"] == "Thai Orchid"


def test_rejected_cards_do_not_put_every_spice_level_on_the_avoid_list(memory):
    past_dinners(memory, NOW)
    assistant = bot(memory)
    sid = assistant.new_session()
    for spice in ("mild", "medium", "hot", "none"):
        reply = assistant.respond(sid, "Order dinner from Taco Loco: nachos")
        reply.proposal["arguments"]["spice_level"] = spice
        assistant.reject(reply, "too expensive tonight")
    plan = assistant.respond(sid, "Order dinner from Taco Loco: nachos").plan
    avoid = plan.params["spice_level"].avoid
    assert set(avoid) != {"mild", "medium", "hot", "none"} and not avoid
