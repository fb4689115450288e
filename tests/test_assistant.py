"""The assistant's turn loop through the real store: text vs action, approve, reject, incognito, secrets."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from ibachat.assistant import Assistant
from ibachat.llm.scripted import ScriptedLLM
from memory.memory import Memory

NOW = datetime(2026, 11, 30, 12, tzinfo=timezone.utc)


@pytest.fixture
def memory(tmp_path):
    mem = Memory.open(tmp_path / "home", embedder="hash")
    yield mem
    mem.close()


def make(memory, replies):
    return Assistant(memory, ScriptedLLM(replies), clock=lambda: NOW)


def test_small_talk_is_answered_in_text_and_both_turns_are_stored(memory):
    bot = make(memory, ["Cats purr at about 25 Hz."])
    sid = bot.new_session("cats")
    reply = bot.respond(sid, "Tell me something nice about cats")
    assert reply.proposal is None and reply.text == "Cats purr at about 25 Hz."
    assert [t.role for t in memory.session(sid)] == ["user", "assistant"]
    assert bot.plan_for(reply.assistant_turn.id) is not None  # the plan is saved with the turn
    assert [s.title for s in bot.sessions()] == ["cats"]


def test_an_action_is_proposed_with_reasons_and_runs_only_when_approved(memory):
    # the model asks for an aisle seat; the plan's narrowed schema and checks keep the window
    bot = make(memory, [{"origin": "Berlin", "destination": "Denver", "date": "2026-12-12", "seat": "aisle"}])
    sid = bot.new_session()
    history = [
        ("user", "No aisle seat please, I get bumped by the trolley every time."),
        ("user", "Window again for me, I like to sleep against the wall."),
    ]
    for role, text in history:
        bot._store(sid, role, text)
    reply = bot.respond(sid, "Book my flight from Berlin to Denver on 2026-12-12")
    assert reply.proposal is not None and reply.proposal["name"] == "book_flight"
    assert reply.proposal["arguments"]["seat"] == "window"
    assert "seat" in reply.proposal["reasons"]
    assert not [t for t in memory.session(sid) if t.role == "tool"]  # nothing ran yet
    result = bot.approve(reply)
    assert result["status"] == "confirmed"
    tool_turns = [t for t in memory.session(sid) if t.role == "tool"]
    assert tool_turns and tool_turns[0].tool_call["name"] == "book_flight"


def test_a_rejection_becomes_a_preference_event_in_the_users_name(memory):
    bot = make(memory, [{"restaurant": "Thai Orchid", "items": ["pad thai"]}])
    sid = bot.new_session()
    reply = bot.respond(sid, "Order dinner from Thai Orchid: pad thai")
    assert reply.proposal is not None
    bot.reject(reply, "too expensive, and no more deliveries after 9pm")
    rejected = [e for e in memory.ledger.all() if e.kind == "rejected" and e.dimension == "order_food"]
    assert rejected and rejected[0].speaker == "user" and rejected[0].polarity == -1


def test_incognito_stores_nothing_and_secrets_are_redacted_before_storing(memory):
    bot = make(memory, ["Noted.", "Sure."])
    secret = bot.new_session(incognito=True)
    bot.respond(secret, "my bank password is hunter2")
    assert len(memory) == 0 and not memory.ledger.all()
    sid = bot.new_session()
    reply = bot.respond(sid, "my card is 4111 1111 1111 1111, api key sk-abcdefghijklmnopqrstuv")
    stored = memory.get(reply.user_turn.id).text
    assert "4111" not in stored and "sk-abc" not in stored
    assert reply.redactions == ["api key", "card number"]


def test_nothing_half_done_is_kept_when_the_model_is_down(memory):
    from ibachat.errors import ModelUnavailable

    bot = make(
        memory, [ModelUnavailable("cannot reach Ollama at http://127.0.0.1:1: start it with `ollama serve`")]
    )
    sid = bot.new_session()
    with pytest.raises(ModelUnavailable, match="ollama serve"):
        bot.respond(sid, "What should I cook tonight?")
    assert memory.session(sid) == [] and not memory.ledger.all()  # no question without its answer


def test_sessions_rename_and_delete(memory):
    bot = make(memory, ["A.", "B."])
    sid = bot.new_session("old")
    bot.respond(sid, "hello there")
    bot.rename_session(sid, "new")
    assert bot.sessions()[0].title == "new"
    assert bot.delete_session(sid) == 2 and len(memory) == 0


def test_a_required_detail_nobody_gave_is_asked_for_not_guessed(memory):
    bot = make(memory, [{}, {}])  # the model adds nothing: the floor fills what the request says
    sid = bot.new_session()
    reply = bot.respond(sid, "book a table for dinner tomorrow at 7pm for 2 people")
    assert reply.proposal is None and reply.clarify == "Which restaurant should I use?"
    reply = bot.respond(sid, "book a table at Luigi's tomorrow at 7pm for 2 people")
    assert (
        reply.proposal is not None
        and reply.proposal["arguments"]["restaurant"]
        != "book a table at Luigi's tomorrow at 7pm for 2 people"
    )


def test_content_the_request_itself_gives_is_not_asked_for(memory):
    bot = make(memory, [{}])
    reply = bot.respond(bot.new_session(), "Can you remind me to call grandma on Sunday at 10am?")
    assert reply.clarify is None and reply.proposal is not None and reply.proposal["name"] == "set_reminder"
    assert reply.proposal["arguments"]["text"] == "call grandma"  # the content, not the whole request
