"""No terminal escape in remembered or typed text reaches the screen raw, in any panel of the app.

The screen's strips (what Textual writes to the terminal, cell by cell) are read after each
step: the chat with a user message and an answer holding OSC, CSI and C1 controls, the plan
view with evidence from such turns, a tool card, the session list with such a title, the memory
screen's turns and preferences, a turn dialog, search results and a notification.
"""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from textual.widgets import DataTable

from ibachat.tui.screens.dialogs import SearchDialog, TurnDialog
from ibachat.tui.screens.memory_screen import MemoryScreen
from ibachat.tui.widgets.plan_view import EvidenceLink
from ibachat.tui.widgets.tool_card import ToolCard
from tests.test_escapes import NASTY
from tests.tui.conftest import SIZE, T0, send, settle

pytestmark = pytest.mark.anyio
DAY = (T0 - timedelta(days=1)).isoformat()  # before the app's clock: the past it remembers
RAW = re.compile(r"[\x00-\x08\x0a-\x1f\x7f-\x9f]")  # inside a cell, a newline is raw too


def raw_on_screen(app) -> list[str]:
    """Control characters in the text of what is drawn (Textual's own escapes are not text)."""
    found = []
    for strip in app.screen._compositor.render_strips():
        for segment in strip:
            if segment.control is None and RAW.search(segment.text):
                found.append(segment.text)
    return found


async def test_no_panel_draws_a_control_character(build, memory):
    memory.add_turns(
        [
            {
                "session_id": "old",
                "role": "user",
                "text": f"I love quiet window seats on trains {NASTY}",
                "time": DAY,
            },
            {
                "session_id": "old",
                "time": DAY,
                "role": "tool",
                "text": f"booked {NASTY}",
                "tool_call": {"name": "book_train", "arguments": {"seat": f"window {NASTY}"}},
            },
        ]
    )
    from ibachat.agent.ingest import catch_up

    catch_up(memory)
    app, assistant, _ = build([f"Sure: window seats {NASTY}", "{}"])
    seen: dict[str, list[str]] = {}
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assistant.rename_session(app.session_id, f"title {NASTY}")
        await send(pilot, f"Which seat on the train do I like? {NASTY}")
        seen["chat"] = raw_on_screen(app)
        await pilot.press("f3")  # the plan behind the answer, evidence from the stored turns
        await settle(pilot)
        assert app._last_answer.query(EvidenceLink), "the stored turns were used as evidence"
        seen["plan"] = raw_on_screen(app)
        link = app._last_answer.query(EvidenceLink).first()
        link.focus()
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, TurnDialog)
        seen["turn dialog"] = raw_on_screen(app)
        await pilot.press("escape")
        await settle(pilot)
        await send(pilot, f"book a table at Luigi's for dinner tomorrow at 7pm for 2 people {NASTY}")
        assert app.query(ToolCard)
        seen["tool card"] = raw_on_screen(app)
        await pilot.press("ctrl+g")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, MemoryScreen) and screen.query_one("#turns", DataTable).row_count >= 4
        seen["memory: turns"] = raw_on_screen(app)
        screen.query_one("#memory-tabs").active = "tab-prefs"
        await settle(pilot)
        assert screen.query_one("#prefs", DataTable).row_count
        seen["memory: preferences"] = raw_on_screen(app)
        await pilot.press("escape")
        await settle(pilot)
        await pilot.press("ctrl+f")
        await settle(pilot)
        await pilot.press(*"trains")
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, SearchDialog) and app.screen.results
        seen["search"] = raw_on_screen(app)
        await pilot.press("escape")
        await settle(pilot)
        app.notify(f"failed: {NASTY}", title=f"error {NASTY}")
        await settle(pilot)
        seen["notification"] = raw_on_screen(app)
    assert {panel: found for panel, found in seen.items() if found} == {}
