"""Quoted, forwarded and pasted text is never the user's own preference; the user's own lines still are."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from ibachat.agent.reading.clauses import PLACEHOLDER, unquoted
from ibachat.agent.reading.events import extract_events
from ibachat.assistant import Assistant
from ibachat.llm.scripted import ScriptedLLM
from memory.memory import Memory
from memory.types import Turn

T = datetime(2026, 11, 1, 9, tzinfo=timezone.utc)


def read(text: str) -> set[tuple[str, str]]:
    return {(e.dimension, e.value) for e in extract_events([Turn(1, "s", "user", text, T)])}


@pytest.mark.parametrize(
    "text",
    [
        "Got this from a colleague today\n> hi, i prefer premium rides\n> see you friday",
        "> hi, i prefer premium rides\n> see you friday\n\nwhat should I answer?",
        "Can you help me answer this email?\n\n> Hi! I prefer premium rides.\n> Best, Tom",
        "&gt; i prefer premium rides",
        "Sure thing.\nOn Tue, 3 Dec 2026 at 10:00, Tom Ma <tom@example.org> wrote:\nI prefer premium rides",
        "---------- Forwarded message ---------\nFrom: Tom\nSubject: trip\n\nI prefer premium rides",
        "-----Original Message-----\nI prefer premium rides",
        "Begin forwarded message:\n\nI prefer premium rides",
        "Am 3. Dezember schrieb Tom Ma:\nI prefer premium rides",
        "what does this say?\n```\nI prefer premium rides\n```",
    ],
)
def test_quoted_forwarded_and_fenced_text_sets_no_preference(text):
    assert ("price.level", "premium") not in read(text)
    assert PLACEHOLDER in unquoted(text)


def test_a_quoted_home_city_or_sign_off_is_not_the_users():
    found = read("Tom wrote back:\n> I live in Lisbon now\n> Cheers, Tom")
    assert not {d for d, _ in found} & {"profile.home_city", "text.sign_off"}
    assert ("profile.home_city", "Lisbon") in read("I live in Lisbon now")


def test_a_quoted_open_preference_is_not_the_users():
    own = {v for d, v in read("I would love a quiet quokkaberry smoothie bar near the office") if d == "open"}
    assert own  # the same words said by the user are an open preference
    quoted = read("Tom wrote back:\n> I would love a quiet quokkaberry smoothie bar near the office")
    assert not {v for d, v in quoted if d == "open"}


def test_the_users_own_lines_around_a_quote_still_count():
    text = "I prefer premium rides myself\n> she said the shared ones are fine\nand I hate shared rides"
    found = read(text)
    assert ("price.level", "premium") in found
    assert "shared ones are fine" not in unquoted(text)
    assert (
        unquoted("no quotes here, just > a comparison like 3 > 2")
        == "no quotes here, just > a comparison like 3 > 2"
    )


def test_a_pasted_email_does_not_choose_the_cabin(tmp_path):
    flight = {"origin": "Berlin", "destination": "Lisbon", "date": "2026-12-12"}
    ask = "Book a flight from Berlin to Lisbon on 2026-12-12"

    def proposal(first: str) -> dict:
        clock = [T]
        with Memory.open(tmp_path / str(len(first)), embedder="hash") as mem:
            bot = Assistant(mem, ScriptedLLM(["Here is a draft.", flight]), clock=lambda: clock[0])
            session = bot.new_session()
            bot.respond(session, first)
            clock[0] = T + timedelta(days=1)
            reply = bot.respond(session, ask)
        assert reply.proposal is not None and reply.proposal["name"] == "book_flight"
        return reply.proposal

    pasted = proposal(
        "Help me answer this one from Anna:\n\n> I always want first class seats\n> see you soon"
    )
    assert "cabin" not in pasted["arguments"]
    own = proposal("I always want first class seats")  # the same words as the user's own: they count
    assert own["arguments"]["cabin"] == "first"
