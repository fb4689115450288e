"""A remembered history of past tool calls for the action tests (issue 11): stored through ``ingest``."""

from __future__ import annotations

import json
from datetime import datetime, timedelta

from ibachat.agent.ingest import ingest

# (restaurant, dish, spice level): two places the user orders from, each with its own spice habit
DINNERS = [
    ("Sichuan House", "mapo tofu", "hot"),
    ("Taco Loco", "al pastor tacos", "mild"),
    ("Sichuan House", "dan dan noodles", "hot"),
    ("Taco Loco", "a bean burrito", "mild"),
]


def past_calls(memory, now: datetime, calls: list[tuple[str, dict]], session: str = "past") -> None:
    """Each (request, call) as a user turn and the tool turn that ran, on consecutive days before ``now``."""
    records = []
    for i, (request, call) in enumerate(calls):
        at = now - timedelta(days=len(calls) + 1 - i)
        records.append({"session_id": session, "role": "user", "text": request, "time": at})
        records.append(
            {
                "session_id": session,
                "role": "tool",
                "text": json.dumps({"call": call, "result": {"status": "confirmed"}}),
                "time": at + timedelta(minutes=1),
                "tool_call": call,
            }
        )
    ingest(memory, records)


def past_dinners(memory, now: datetime, dinners=DINNERS) -> None:
    past_calls(
        memory,
        now,
        [
            (
                f"Order dinner from {place}: {dish}",
                {
                    "name": "order_food",
                    "arguments": {"restaurant": place, "items": [dish], "spice_level": spice},
                },
            )
            for place, dish, spice in dinners
        ],
    )
