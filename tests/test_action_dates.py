"""Issue 11, item 1: the date an action runs on is the one the request states, through `ask --yes --json`."""

from __future__ import annotations

import json
from datetime import datetime

import pytest

from ibachat.cli import main

NOW = "2026-12-03T14:00:00+00:00"  # a Thursday
# (how the request says the day, the day it means, relative to NOW)
DATES = [
    ("on the 12th", "2026-12-12"),
    ("on Friday", "2026-12-04"),
    ("next Tuesday", "2026-12-08"),
    ("tomorrow evening", "2026-12-04"),
    ("on the 3rd of January", "2027-01-03"),
    ("in two weeks", "2026-12-17"),
    ("this weekend", "2026-12-05"),
    ("on Sunday 20 December", "2026-12-20"),  # the date said in full, not the coming Sunday
]


def ask_json(capsys, *args: str) -> tuple[int, dict, str]:
    code = main(["--embedder", "hash", "ask", "--yes", "--json", *args])
    out, err = capsys.readouterr()
    return code, (json.loads(out) if code == 0 else {}), err


@pytest.mark.parametrize(("when", "day"), DATES)
def test_the_floor_books_the_day_the_request_states(monkeypatch, capsys, when, day):
    monkeypatch.setenv("IBACHAT_NOW", NOW)
    code, reply, err = ask_json(capsys, "--model", "none", f"Book a flight from Berlin to Denver {when}")
    assert code == 0, err
    assert reply["result"]["status"] == "confirmed"
    assert reply["result"]["arguments"]["date"] == day
    assert when.removeprefix("on ") in reply["proposal"]["reasons"]["date"]


def test_a_bad_fixed_now_is_one_line_and_stores_nothing(monkeypatch, capsys):
    monkeypatch.setenv("IBACHAT_NOW", "next thursday")
    code = main(["--embedder", "hash", "ask", "--model", "none", "Book a flight to Oslo tomorrow"])
    _, err = capsys.readouterr()
    assert (
        code != 0 and "IBACHAT_NOW" in err and "Traceback" not in err and len(err.strip().splitlines()) == 1
    )
    assert main(["--embedder", "hash", "memory", "stats", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["turns"] == 0


def test_a_model_may_pick_the_hour_but_never_the_day(tmp_path):
    from ibachat.assistant import Assistant
    from ibachat.llm.scripted import ScriptedLLM
    from memory.memory import Memory

    now = datetime.fromisoformat(NOW)
    with Memory.open(tmp_path / "home", embedder="hash") as memory:
        wrong_day = {"text": "call mum", "when": "2026-12-03T08:00:00+00:00"}
        right_day = {"text": "call mum", "when": "2026-12-04T08:00:00+00:00"}
        bot = Assistant(memory, ScriptedLLM([wrong_day, right_day]), clock=lambda: now)
        asked = bot.respond("s", "Remind me to call mum on Friday")  # a day and no time: asked, not guessed
        assert asked.proposal is None and asked.clarify == "What time on Friday should I use for when?"
        bot = Assistant(memory, ScriptedLLM([wrong_day, right_day]), clock=lambda: now)
        moved = bot.respond("s2", "Remind me to call mum on Friday evening").proposal
        assert moved["arguments"]["when"] == "2026-12-04T19:00:00+00:00"
        assert moved["reasons"]["when"] == 'your request: "on Friday evening"; evening: its usual time'
        assert bot.respond("s3", "Remind me to call mum at 8am on Friday").proposal["arguments"]["when"] == (
            "2026-12-04T08:00:00+00:00"
        )


def test_a_question_asked_by_one_ask_is_answered_by_the_next(monkeypatch, capsys):
    """Issue 11, item 2 through `ask`: the answer, in the same session, completes the action."""
    from memory.memory import Memory
    from tests.actions_history import past_dinners

    monkeypatch.setenv("IBACHAT_NOW", NOW)
    with Memory.open(embedder="hash") as memory:
        past_dinners(memory, datetime.fromisoformat(NOW))
        before = len(memory.ledger.all())
    code, asked, err = ask_json(capsys, "--model", "none", "Order me dinner")
    assert code == 0, err
    assert (
        asked["proposal"] is None and "Sichuan House" in asked["clarify"] and "Taco Loco" in asked["clarify"]
    )
    code, dishes, err = ask_json(capsys, "--model", "none", "Sichuan House")
    assert code == 0, err
    assert (
        dishes["proposal"] is None
        and dishes["clarify"] == "For items, do you want mapo tofu or dan dan noodles?"
    )
    code, done, err = ask_json(capsys, "--model", "none", "dan dan noodles")
    assert code == 0, err
    assert done["clarify"] is None and done["result"]["status"] == "confirmed"
    assert done["result"]["arguments"]["items"] == ["dan dan noodles"]
    assert done["result"]["arguments"]["restaurant"] == "Sichuan House"
    assert "your answer" in done["proposal"]["reasons"]["restaurant"]
    with Memory.open(embedder="hash") as memory:
        for turn_id in (dishes["user_turn"], done["user_turn"]):
            answer = memory.get(turn_id)
            assert answer.text in ("Sichuan House", "dan dan noodles")
            assert not [e for e in memory.ledger.all() if answer.id in e.evidence]
        added = memory.ledger.all()[before:]
        assert added and all(e.kind == "chose" for e in added)  # only what ran was learnt
    code, again, _ = ask_json(capsys, "--model", "none", "Sichuan House")  # nothing is waiting any more
    assert code == 0 and again["proposal"] is None
