"""Chat routing: a message becomes a tool action only when it asks for one."""

from __future__ import annotations

import pytest

from ibachat.agent.execution.router import route
from ibachat.agent.execution.tools import as_task_tool, tools_for

TOOLS = [as_task_tool(t) for t in tools_for()]


@pytest.mark.parametrize(
    ("message", "tool"),
    [
        ("Order dinner from the usual Thai place", "order_food"),
        ("Book my flight to Denver on the 12th", "book_flight"),
        ("Can you remind me to call grandma on Sunday?", "set_reminder"),
        ("please get me a coffee", "order_coffee"),
        ("Get me a taxi to the airport at 6", "book_ride"),
        ("Could you book a table for two at Luigi's tomorrow at 8?", "book_table"),
        ("Schedule a call with Tom on Monday at 10", "create_event"),
        ("Book the dentist for next week", "book_appointment"),
        ("Rent a car in Lisbon for 3 days", "rent_car"),
        ("Make me a meal plan for the week", "create_meal_plan"),
        ("ok so reserve two seats for the jazz gig on Friday", "book_tickets"),
    ],
)
def test_requests_for_actions_pick_the_tool(message, tool):
    chosen = route(message, TOOLS)
    assert chosen is not None and chosen["name"] == tool


@pytest.mark.parametrize(
    "message",
    [
        "What is the capital of Australia?",
        "I ordered pizza yesterday and it was cold",
        "how do I book a flight cheaply?",
        "Tell me a joke",
        "Draft a note to my landlord about the broken heater",
        "Hello!",
        "my sister booked a hotel in Rome, is that a good area?",
    ],
)
def test_questions_stories_and_writing_get_text(message):
    assert route(message, TOOLS) is None
