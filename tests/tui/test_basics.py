"""Pilot tests of the interaction basics: stopping an answer, pasting, a busy store, the memory
screen's keys, keyboard session switching, a narrow terminal (issue 11, items 7-13)."""

from __future__ import annotations

import pytest
from textual import events
from textual.widgets import DataTable, Input

from ibachat.config import Config
from ibachat.tui.app import IbachatApp
from ibachat.tui.loader import load_assistant
from ibachat.tui.screens.memory_screen import MemoryScreen
from ibachat.tui.widgets.chat_input import ChatInput
from ibachat.tui.widgets.messages import AssistantMessage, UserMessage
from ibachat.tui.widgets.sessions import SessionList
from ibachat.tui.widgets.status import Banner
from memory.ledger import PreferenceEvent
from tests.tui.conftest import SIZE, T0, StreamingLLM, screen_text, send, settle, wait_until

pytestmark = pytest.mark.anyio


@pytest.mark.parametrize("key", ["escape", "ctrl+c"])
async def test_a_streamed_answer_stops_on_esc_or_ctrl_c_and_the_session_goes_on(build, memory, key):
    llm = StreamingLLM(["Fine."])
    app, _, _ = build(llm=llm)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        chat_input = app.query_one(ChatInput)
        chat_input.insert("tell me a very long story")
        await pilot.press("enter")
        await wait_until(pilot, llm.streaming.is_set, "the answer streaming")
        answer = app.query_one(AssistantMessage)
        await wait_until(pilot, lambda: "word0" in answer.text, "the first words on screen")
        await wait_until(pilot, lambda: "esc Stop" in screen_text(app), "the footer offering to stop")
        await pilot.press(key)
        await settle(pilot)
        assert llm.stopped.is_set() and app.is_running
        # on a busy machine the mark is drawn a frame or two after the stop: wait for it, never sleep
        await wait_until(
            pilot,
            lambda: answer.has_class("-stopped") and "(stopped)" in screen_text(app),
            "the answer marked stopped on screen",
        )
        assert len(memory) == 0  # nothing half done: the question is not kept without its answer
        assert not any(n.severity == "error" for n in app._notifications)
        await send(pilot, "and now a short one")
        assert app.query(AssistantMessage).last().text == "Fine." and len(memory) == 2
        assert "esc Stop" not in screen_text(app)  # nothing to stop any more


async def test_ctrl_c_with_no_answer_streaming_keeps_its_usual_meaning(build):
    app, _, _ = build([])
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("ctrl+c")
        await settle(pilot)
        assert app.is_running and app.focused is app.query_one(ChatInput)


async def test_a_short_bracketed_paste_is_inserted_once(build):
    app, _, _ = build([])
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        chat_input = app.query_one(ChatInput)
        chat_input.focus()
        app.post_message(events.Paste("pasted words"))  # as the terminal driver sends it
        await wait_until(pilot, lambda: chat_input.text != "", "the paste")
        assert chat_input.text == "pasted words"


async def test_a_second_app_on_a_locked_home_says_the_store_is_busy_and_takes_no_message(tmp_path):
    from memory.memory import Memory

    home = tmp_path / "home"
    cfg = Config(model="embedded", embedder="hash")
    with Memory.open(home, embedder="hash", fsync=False):  # the first instance holds the lock
        app = IbachatApp(lambda progress: load_assistant(cfg, progress=progress, home=home))
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot)
            assert app.query_one(Banner).display
            assert "another ibachat process" in screen_text(app)
            chat_input = app.query_one(ChatInput)
            assert chat_input.read_only
            await pilot.press(*"hello?")
            await pilot.press("enter")
            await settle(pilot)
            assert not app.query(UserMessage) and not app.busy  # no "…" waiting forever


async def test_the_preferences_tab_shows_wanted_and_avoided(build, memory):
    memory.ledger.add(PreferenceEvent("travel.seat", "window", "rejected", T0, polarity=-1, subject="no"))
    memory.ledger.add(PreferenceEvent("drink", "tea", "stated", T0, subject="I drink tea"))
    app, _, _ = build([])
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("ctrl+g")
        await settle(pilot)
        app.screen.query_one("#memory-tabs").active = "tab-prefs"
        await settle(pilot)
        table = app.screen.query_one("#prefs", DataTable)
        rows = {str(table.get_row_at(n)[2]): str(table.get_row_at(n)[0]) for n in range(table.row_count)}
        assert rows == {"window": "- avoid", "tea": "+ want"}


async def test_memory_screen_keys_act_on_the_highlighted_row_and_letters_stay_out_of_the_search(
    build, memory
):
    turns = memory.add_turns(
        [{"session_id": "s", "role": "user", "text": f"note number {i}", "time": T0} for i in range(6)]
    )
    memory.ledger.add(PreferenceEvent("drink", "tea", "stated", T0, evidence=(turns[2].id,), subject="tea"))
    app, _, _ = build([])
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("ctrl+g")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, MemoryScreen)
        table = screen.query_one("#turns", DataTable)
        query = screen.query_one("#turn-query", Input)
        # a click on another tab and back: the keys still go to the table, not the search box
        await pilot.click("#--content-tab-tab-prefs")
        await settle(pilot)
        await pilot.click("#--content-tab-tab-turns")
        await settle(pilot)
        await pilot.press("r")
        await settle(pilot)
        assert query.value == "" and screen.query_one("#as-of", Input).value == ""
        # f forgets the row the cursor is on, after the keyboard moved it
        await pilot.press("down", "down")
        wanted = int(table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value)
        await pilot.press("f")
        await settle(pilot)
        assert wanted not in {t.id for t in memory.iter_turns()} and len(memory) == 5
        assert any(f"turn #{wanted}" in n.message for n in app._notifications)
        await pilot.press("u")
        await settle(pilot)
        assert wanted in {t.id for t in memory.iter_turns()}  # the same id, not a new one
        assert any(f"Restored turn #{wanted}" in n.message for n in app._notifications)
        # ... and the row a click put the cursor on
        await pilot.click("#turns", offset=(3, 4))  # the header is line 0: the fourth row
        await settle(pilot)
        assert table.cursor_row == 3
        clicked = int(table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value)
        await pilot.press("f")
        await settle(pilot)
        assert clicked not in {t.id for t in memory.iter_turns()} and len(memory) == 5
        await pilot.press("u")
        await settle(pilot)
        # p on the Turns tab pins the preference that turn gave
        table.move_cursor(row=table.get_row_index(str(turns[2].id)))
        await pilot.press("p")
        await settle(pilot)
        assert all(e.pinned for e in memory.ledger.all())
        # "/" goes to the search box; Enter searches and gives the keys back to the table
        await pilot.press("slash")
        assert screen.focused is query
        await pilot.press(*"number 4")
        await pilot.press("enter")
        await settle(pilot)
        assert screen.focused is table and query.value == "number 4"


async def test_sessions_switch_by_keyboard_and_focus_returns_to_the_input(build):
    app, assistant, _ = build(["One.", "Two."])
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        first = app.session_id
        await send(pilot, "the first session")
        await pilot.press("ctrl+n")
        await settle(pilot)
        second = app.session_id
        await send(pilot, "the second session")
        order = [item.session_id for item in app.query_one(SessionList).children]
        step = "alt+down" if order.index(first) > order.index(second) else "alt+up"
        await pilot.press(step)
        await settle(pilot)
        assert app.session_id == first and app.focused is app.query_one(ChatInput)
        assert [v.text for v in app.query(UserMessage)] == ["the first session"]
        sidebar = app.query_one(SessionList)
        sidebar.focus()
        sidebar.index = order.index(second)
        await pilot.press("enter")
        await settle(pilot)
        assert app.session_id == second and app.focused is app.query_one(ChatInput)


async def test_at_60_by_15_the_sidebar_gives_its_width_to_the_chat(build):
    app, _, _ = build([])
    async with app.run_test(size=(60, 15)) as pilot:
        await settle(pilot)
        sidebar = app.query_one(SessionList)
        assert sidebar.region.width == 0 and app.query_one("#chat").region.width >= 56
        await pilot.press("ctrl+b")  # still there when asked for
        await settle(pilot)
        assert 0 < sidebar.region.width <= 24
    wide, _, _ = build([])
    async with wide.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert wide.query_one(SessionList).region.width == 32


async def test_an_answer_still_waiting_its_turn_can_be_stopped_too(build, memory):
    import threading

    from ibachat.tui.loader import Loaded

    _, assistant, llm = build(["Never asked for."])
    release = threading.Event()

    def slow_loader(progress):
        release.wait(120)  # released by the test; the bound only keeps a broken test from hanging
        return Loaded(assistant)

    app = IbachatApp(slow_loader, clock=lambda: T0)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press(*"hello early")
        await pilot.press("enter")
        await wait_until(pilot, lambda: bool(app.query(AssistantMessage)), "the queued message on screen")
        await pilot.press("escape")
        release.set()
        await settle(pilot)
        answer = app.query_one(AssistantMessage)
        assert answer.has_class("-stopped") and len(memory) == 0 and llm.remaining == 1
