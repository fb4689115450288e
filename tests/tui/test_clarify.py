"""Issue 11, items 2 and 4 in the front ends: a clarification round trip in the TUI and the REPL
(the question, the answer, the completed action, no preference from the answer), and an edited
tool card that shows what ran."""

from __future__ import annotations

import json

import pytest

from ibachat.agent.reading.events import REPLY_FLAG
from ibachat.tui.screens.dialogs import EditArgsDialog
from ibachat.tui.widgets.messages import AssistantMessage, UserMessage
from ibachat.tui.widgets.tool_card import ToolCard
from tests.actions_history import past_dinners
from tests.tui.conftest import SIZE, T0, screen_text, send, settle
from tests.tui.test_repl import Shell


def _answer_events(memory) -> list:
    answers = [t.id for t in memory.iter_turns(role="user") if REPLY_FLAG in t.flags]
    assert answers, "the answer was stored"
    return [e for e in memory.ledger.all() if set(e.evidence) & set(answers)]


@pytest.mark.anyio
async def test_the_tui_asks_takes_the_answer_and_completes_the_action(build, memory):
    past_dinners(memory, T0)
    app, _, _ = build(["{}"] * 4)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await send(pilot, "Order me dinner")
        question = app.query(AssistantMessage).last()
        assert question.has_class("-clarify") and not app.query(ToolCard)
        text = screen_text(app)
        assert "Sichuan House" in text and "Taco Loco" in text
        events = len(memory.ledger.all())

        await send(pilot, "Sichuan House")
        assert app.query(UserMessage).last().text == "Sichuan House"
        dishes = app.query(AssistantMessage).last()  # no dish named, and the past orders there differ
        assert dishes.has_class("-clarify") and "mapo tofu" in screen_text(app) and not app.query(ToolCard)
        await send(pilot, "mapo tofu")
        card = app.query_one(ToolCard)
        assert card.arguments["items"] == ["mapo tofu"]
        assert card.proposal["name"] == "order_food" and card.arguments["restaurant"] == "Sichuan House"
        rows = [str(w.render()) for w in card.query(".tool-param")]
        assert any(r.startswith("restaurant = Sichuan House") and "your answer" in r for r in rows), rows
        await pilot.click("#approve")
        await settle(pilot)
        assert card.has_class("-approved")
    ran = next(memory.iter_turns(role="tool"))  # the newest
    assert ran.tool_call["arguments"]["restaurant"] == "Sichuan House"
    assert _answer_events(memory) == [] and len(memory.ledger.all()) > events  # only the call was learnt


@pytest.mark.anyio
async def test_an_edited_card_shows_the_new_values_next_to_approved(build, memory):
    app, _, _ = build(["{}"])
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await send(pilot, "Book a flight from Berlin to Denver on the 12th")
        card = app.query_one(ToolCard)
        rows = [str(w.render()) for w in card.query(".tool-param")]
        assert any(r.startswith("date = 2026-03-12") and "the 12th" in r for r in rows), rows  # not today
        card.focus()
        await pilot.press("e")
        await settle(pilot)
        assert isinstance(app.screen, EditArgsDialog)
        args = app.screen.arguments | {"destination": "Boulder", "seat": "window"}
        app.screen.query_one("#args").load_text(json.dumps(args))
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert card.has_class("-approved")
        rows = [str(w.render()) for w in card.query(".tool-param")]
        assert any(r.startswith("destination = Boulder") and "your edit" in r for r in rows), rows
        assert any(r.startswith("seat = window") and "your edit" in r for r in rows), rows
        assert not any("Denver" in r for r in rows), rows


def test_the_repl_asks_takes_the_answer_and_completes_the_action(memory):
    past_dinners(memory, T0)
    shell = Shell(memory, ["{}"] * 4)
    assert shell("Order me dinner", "Sichuan House", "the second one", "/approve") == 0
    out = shell.out
    asked = out.index("do you want")  # the question, then the card, then what ran
    assert "Sichuan House" in out[asked:].splitlines()[0]
    card = out.index("Proposed action: order_food")
    assert asked < card < out.index("done: ")
    assert "your answer" in out[card:]
    ran = next(memory.iter_turns(role="tool"))  # the newest
    assert ran.tool_call["arguments"]["restaurant"] == "Sichuan House"
    assert _answer_events(memory) == []
