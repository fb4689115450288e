"""A question states no wish, with or without its question mark, in chat voices written for these tests.

Users type questions without "?" and behind a greeting or a lead-in ("hey how do i ...", "quick one:
is it ..."). Read as statements, "how do i stop my dog pulling on the lead" was a standing wish to
avoid "dog pulling on the lead". A request of the assistant ("can you avoid the motorway") and a
statement that opens with a wh-word ("when I was eight, ...") are no questions.
"""

from __future__ import annotations

import pytest

from ibachat.agent.reading.clauses import is_question
from ibachat.agent.reading.open_prefs import read_open


@pytest.mark.parametrize(
    "sentence",
    [
        "hey how do i stop my dog pulling on the lead",
        "quick one: is it bad to water succulents every day",
        "sorry another q, how long does sourdough starter last without feeding",
        "whats the quickest way to descale a kettle",
        "how many coats of varnish does a table need",
        "evening all - should i prune roses in autumn",
        "is 'alot' ever right",
    ],
)
def test_a_question_without_its_mark_is_a_question_and_no_wish(sentence):
    assert is_question(sentence)
    assert read_open(sentence) == []


@pytest.mark.parametrize(
    "sentence",
    [
        "when i was eight i fell off a pony and i still hate horses",
        "what i really want is a quiet table",
        "i never water succulents in winter",
        "can you avoid the motorway on the way home",
        "how about the blue one",
    ],
)
def test_a_statement_or_a_request_is_no_question(sentence):
    assert not is_question(sentence)


def test_a_wish_said_after_the_question_in_another_sentence_is_kept():
    found = {(p.phrase, p.polarity) for p in read_open("how do i clean suede. i hate harsh sprays though")}
    assert any(phrase.startswith("harsh sprays") and pol == -1 for phrase, pol in found), found


@pytest.mark.parametrize("text", ['from now on sign off with "…"', "stop saying '...' in replies"])
def test_a_quoted_placeholder_names_no_word_to_use_or_avoid(text):
    from datetime import datetime, timezone

    from ibachat.agent.reading.facts import numbers
    from memory.types import Turn

    turn = Turn(1, "s", "user", text, datetime(2026, 1, 1, tzinfo=timezone.utc))
    assert [e for e in numbers(turn, text, "rules") if e.dimension.startswith("text.")] == []


@pytest.mark.parametrize(
    "text",
    ["no thanks, the lift's fine", "no worries, ill sort the parking myself", "no wait, i got that wrong"],
)
def test_a_set_reply_after_no_refuses_nothing(text):
    from datetime import datetime, timezone

    from ibachat.agent.reading.open_events import open_events
    from memory.types import Turn

    assert read_open(text) == []
    turn = Turn(1, "s", "user", text, datetime(2026, 1, 1, tzinfo=timezone.utc))
    assert [e.value for e in open_events(turn, "")] == []
