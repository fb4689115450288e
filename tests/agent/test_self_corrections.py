"""A request that corrects itself ("Wednesday, no wait, Thursday", "3 nights, or rather 4") gives the
corrected value, quoted in the user's own words; an apology or "I mean" that corrects nothing changes
nothing. Probes in words of our own, on tools the development probes did not use; on the code before,
the first value said was taken ("Wednesday", 3 nights, standard class).
"""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from ibachat.agent.alignment.request_values import stated_values
from ibachat.agent.execution.tools import as_task_tool, tools_for
from ibachat.agent.reading.corrections import corrected

NOW = datetime(2026, 12, 1, 10, 0, tzinfo=timezone.utc)  # a Tuesday


def _params(name: str) -> dict:
    return next(as_task_tool(t) for t in tools_for() if t.name == name)["parameters"]


@pytest.mark.parametrize(
    ("tool", "text", "param", "value"),
    [
        (
            "book_fitness_class",
            "book a spin class on Wednesday, no wait, Thursday at 7am",
            "date",
            "2026-12-03",
        ),
        ("book_hotel", "a hotel in Porto from the 10th for 3 nights, or rather 4", "nights", 4),
        (
            "book_train",
            "train to York on Friday, standard class - scratch that, first",
            "travel_class",
            "first",
        ),
        ("create_event", "call with the bank at 2pm, sorry, I mean 3pm, tomorrow", "start_time", "15:00"),
        # session 30: an adverb after the marker, and a span of time the parser tags as no entity
        ("book_hotel", "a room in Cork from the 8th for a week... no actually just five nights", "nights", 5),
        ("book_fitness_class", "yoga on Wednesday, sorry, actually Thursday, 6pm", "date", "2026-12-03"),
    ],
)
def test_the_corrected_value_is_the_one_taken(tool, text, param, value):
    said = stated_values(_params(tool), text, NOW)
    assert param in said and said[param].value == value, said.get(param)
    words = " ".join(text.lower().replace(",", " ").split())
    assert " ".join(said[param].quote.lower().replace(",", " ").split()) in words  # the user's own words


@pytest.mark.parametrize(
    "text",
    [
        "sorry to be a pain, can you book a taxi for 6pm",
        "I mean to book the dentist soon, nothing yet",
        "book a table for 4, sorry for the short notice",
        "order a large latte, no wait, a medium one",  # a quality of the same thing: left as said
    ],
)
def test_words_that_correct_nothing_are_left_alone(text):
    assert corrected(text) == text
