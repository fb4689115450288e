"""Plain unit tests of the UI's logic: safe text, input history, plan text, slash commands, undo."""

from __future__ import annotations

import io
import subprocess
import sys
from datetime import UTC, datetime, timedelta

import pytest
from rich.console import Console

from ibachat.tui.commands import SLASH_COMMANDS, parse_slash
from ibachat.tui.plantext import evidence_items, plan_sections, proposal_reasons
from ibachat.tui.safe import RENDER_LIMIT, safe, safe_line
from ibachat.tui.undo import UndoBuffer
from ibachat.tui.widgets.chat_input import InputHistory
from memory.embedders.hashing import HashEmbedder
from memory.ledger import PreferenceEvent
from memory.memory import Memory

T0 = datetime(2026, 3, 1, 9, tzinfo=UTC)
NASTY = "[bold]x[/] [link=https://evil.example]click[/link] [/] \x1b[31mred\x1b[0m \x07"


def render(text) -> str:
    console = Console(width=200, record=True, color_system=None, file=io.StringIO())
    console.print(text)
    return console.export_text()


def test_markup_and_escapes_are_shown_literally():
    shown = render(safe(NASTY))
    assert "[bold]x[/]" in shown and "[link=https://evil.example]click[/link]" in shown
    assert "\x1b" not in shown and "\\x1b[31mred" in shown and "\\x07" in shown


def test_long_text_is_cut_for_display_and_says_how_much():
    text = "a" * (RENDER_LIMIT + 5000)
    shown = safe(text).plain
    assert len(shown) < RENDER_LIMIT + 50 and "+5,000 chars" in shown
    assert safe_line("one\ntwo   three", 100).plain == "one two three"
    assert safe_line("x" * 50, 10).plain == "x" * 9 + "…"


def test_input_history_walks_back_and_returns_to_the_draft():
    history = InputHistory(["first", "second"])
    assert history.back("draft") == "second"
    assert history.back("second") == "first"
    assert history.back("first") is None  # at the oldest entry
    assert history.forward() == "second"
    assert history.forward() == "draft"
    assert history.forward() is None
    history.add("third")
    history.add("third")  # no duplicate in a row
    assert history.entries == ["first", "second", "third"]


def test_slash_commands_parse_and_the_required_ones_exist():
    assert parse_slash("/Rename   My trip ") == ("/rename", "My trip")
    assert {"/plan", "/memory", "/forget", "/incognito", "/model", "/help", "/quit"} <= set(SLASH_COMMANDS)


PLAN = {
    "evidence": [{"turn_id": 4, "role": "user", "snippet": "I hate [b]olives[/b]", "why": ["correction", "recent"]}],
    "preferences": [
        {"dimension": "food.olives", "value": "olives", "polarity": -1, "kind": "corrected", "status": "active",
         "valid_from": "2026-02-01T00:00:00+00:00", "valid_until": None, "note": "", "subject": "no olives"},
        {"dimension": "food.olives", "value": "olives", "polarity": 1, "kind": "stated", "status": "superseded",
         "valid_from": "2025-01-01T00:00:00+00:00", "valid_until": None, "note": "later correction", "subject": ""},
    ],
    "conflicts": [{"key": "food.olives", "how": "later correction wins", "why": "2026-02-01 > 2025-01-01"}],
    "params": {"toppings": {"chosen": ["basil"], "avoid": ["olives"], "reason": "you corrected this on 1 Feb"},
               "size": {"chosen": None}},
    "text": None,
    "clarifications": [],
}  # fmt: skip


def test_plan_sections_split_applied_from_left_out():
    assert evidence_items(PLAN) == [(4, "correction, recent", "I hate [b]olives[/b]")]
    sections = dict(plan_sections(PLAN))
    assert sections["Preferences applied"] == [
        "-food.olives = olives (corrected, since 2026-02-01): no olives"
    ]
    assert sections["Left out"][0].startswith("superseded: +food.olives")
    assert sections["Conflicts resolved"] == ["food.olives: later correction wins (2026-02-01 > 2025-01-01)"]
    assert sections["Directives"] == ["toppings: use basil, never olives (you corrected this on 1 Feb)"]
    assert "Asked before acting" not in sections


def test_proposal_reasons_fall_back_to_the_plan():
    class Plan:
        def to_dict(self):
            return PLAN

    class Reply:
        plan = Plan()
        proposal = {"name": "order_pizza", "arguments": {"toppings": ["basil"]}, "reasons": {"size": "usual"}}

    assert proposal_reasons(Reply()) == {"toppings": "you corrected this on 1 Feb", "size": "usual"}


@pytest.fixture
def memory(tmp_path):
    with Memory.open(tmp_path / "home", embedder=HashEmbedder(32), fsync=False) as mem:
        yield mem


def test_forget_a_turn_then_undo_restores_it_with_its_ledger_event_and_plan(memory):
    turns = memory.add_turns(
        [
            {"session_id": "s", "role": "user", "text": "no olives on my pizza", "time": T0},
            {"session_id": "s", "role": "assistant", "text": "noted", "time": T0 + timedelta(seconds=1)},
        ]
    )
    memory.ledger.add(
        PreferenceEvent("food.olives", "olives", "stated", T0, polarity=-1, evidence=(turns[0].id,))
    )
    memory.plans.save(turns[1].id, {"task": "t"})
    memory.set_never_use(turns[0].id)
    undo = UndoBuffer(memory)
    removed = undo.forget_turns([turns[0].id, turns[1].id])
    assert len(removed) == 2 and len(memory) == 0 and len(memory.ledger) == 0
    assert memory.search("olives", 5, mode="lexical") == []
    assert undo.pending == "2 turns"
    assert undo.undo() == "2 turns"
    back = sorted(memory.iter_turns(newest_first=False), key=lambda t: t.id)
    assert [t.text for t in back] == ["no olives on my pizza", "noted"]
    assert [t.id for t in back] == [turns[0].id, turns[1].id]  # the same ids, not new ones
    assert back[0].flags == ("never_use",)
    assert memory.ledger.all() == []  # back, and still muted: its turn is still "never use"
    [event] = memory.ledger.all(muted=True)
    assert event.evidence == (back[0].id,) and event.polarity == -1
    assert memory.plans.get(back[1].id) == {"task": "t"}
    assert undo.undo() is None


def test_forget_a_preference_then_undo_keeps_its_pin_and_supersession(memory):
    old = memory.ledger.add(PreferenceEvent("drink", "tea", "stated", T0))
    new = memory.ledger.add(PreferenceEvent("drink", "coffee", "updated", T0 + timedelta(days=1)))
    memory.ledger.supersede(old.id, new.id)
    memory.ledger.pin(new.id)
    undo = UndoBuffer(memory)
    undo.forget_event(new.id)
    assert [e.id for e in memory.ledger.active(T0 + timedelta(days=2))] == [old.id]
    assert undo.undo() == "preference drink"
    active = memory.ledger.active(T0 + timedelta(days=2))
    assert [e.id for e in active] == [new.id] and active[0].pinned


def test_undo_expires_after_its_window(memory):
    now = [0.0]
    turn = memory.add_turn("s", "user", "hello", time=T0)
    undo = UndoBuffer(memory, window=10, clock=lambda: now[0])
    undo.forget_turns([turn.id])
    now[0] = 11.0
    assert undo.pending is None and undo.undo() is None and len(memory) == 0


def _modules_after(module: str) -> set[str]:
    code = f"import importlib, sys; importlib.import_module({module!r}); print(' '.join(sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    return {name.split(".")[0] for name in out.split()}


def test_the_app_and_the_repl_import_nothing_heavy():
    heavy = {"torch", "FlagEmbedding", "transformers", "xllamacpp", "usearch", "bench"}
    assert not _modules_after("ibachat.tui.app") & heavy
    assert not _modules_after("ibachat.repl") & (heavy | {"textual", "prompt_toolkit"})
