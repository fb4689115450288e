"""Every check kind passes and fails where it should; judges vote; failed tasks score 0."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bench.evaluate import (
    CHECK_KINDS,
    count_words,
    evaluate_check,
    evaluate_task,
    normalize_output,
    score_error,
    text_layout,
)
from ibachat.agent.types import ToolCall
from ibachat.errors import ModelUnavailable
from ibachat.llm.scripted import ScriptedLLM

MINI = Path(__file__).parent / "data" / "mini_suite.jsonl"


def mini(index: int) -> dict:
    return json.loads(MINI.read_text().splitlines()[index])


def run(
    kind: str, expect: dict, *, text: str | None = None, call: dict | None = None, target: str = ""
) -> str:
    check = {"id": "c", "kind": kind, "expect": expect, "target": target}
    calls = normalize_output({"text": text, "tool_call": call})[1]
    return evaluate_check(check, text, calls).status


CALL = {
    "name": "Book_Flight",
    "arguments": {
        "seat": "Aisle, row 12",
        "price": "180.5",
        "depart": "2025-05-09T08:30:00+02:00",
        "time": "9:30",
        "tags": ["Window", "quiet"],
        "passengers": [{"name": "Ana", "meal": "Vegetarian"}, {"name": "Sam", "meal": "vegan"}],
        "options": {"bags": {"count": 2}},
        "note": None,
    },
}

CASES = [
    # kind, expect, target, text, call, expected status
    ("tool_called", {"name": "book_flight"}, "", None, CALL, "pass"),
    ("tool_called", {"name": "book_hotel"}, "", None, CALL, "fail"),
    ("tool_called", {"name": "book_flight"}, "", "I booked it.", None, "fail"),
    ("param_in", {"in": ["aisle, ROW 12"]}, "book_flight.seat", None, CALL, "pass"),
    ("param_in", {"in": ["window"]}, "book_flight.seat", None, CALL, "fail"),
    ("param_in", {"in": [2]}, "book_flight.options.bags.count", None, CALL, "pass"),
    ("param_in", {"in": ["vegetarian", "vegan"]}, "book_flight.passengers.meal", None, CALL, "pass"),
    ("param_in", {"in": ["vegetarian"]}, "book_flight.passengers.meal", None, CALL, "fail"),
    ("param_in", {"in": ["vegetarian"]}, "book_flight.passengers.0.meal", None, CALL, "pass"),
    ("param_in", {"in": ["x"]}, "book_flight.missing", None, CALL, "fail"),
    ("param_in", {"in": ["x"]}, "book_flight.note", None, CALL, "fail"),
    ("param_in", {"in": ["x"]}, "book_hotel.seat", None, CALL, "fail"),
    ("param_not_in", {"not_in": ["window"]}, "book_flight.tags", None, CALL, "fail"),
    ("param_not_in", {"not_in": ["middle"]}, "book_flight.tags", None, CALL, "pass"),
    ("param_not_in", {"not_in": ["middle"]}, "book_flight.missing", None, CALL, "pass"),
    ("param_not_in", {"not_in": ["middle"]}, "book_flight.seat", None, None, "fail"),
    ("param_range", {"min": 100, "max": 200}, "book_flight.price", None, CALL, "pass"),
    ("param_range", {"max": 150}, "book_flight.price", None, CALL, "fail"),
    ("param_range", {"min": 3}, "book_flight.options.bags.count", None, CALL, "fail"),
    (
        "param_range",
        {"min": "2025-05-09T06:00:00Z", "max": "2025-05-09T07:00:00Z"},
        "book_flight.depart",
        None,
        CALL,
        "pass",
    ),
    ("param_range", {"max": "2025-05-09T06:00:00Z"}, "book_flight.depart", None, CALL, "fail"),
    ("param_range", {"min": "2025-05-09", "max": "2025-05-09"}, "book_flight.depart", None, CALL, "pass"),
    ("param_range", {"min": "08:00", "max": "10:00"}, "book_flight.time", None, CALL, "pass"),
    ("param_range", {"min": "10:00"}, "book_flight.time", None, CALL, "fail"),
    ("param_range", {"min": 1}, "book_flight.seat", None, CALL, "fail"),
    ("param_range", {"min": 1}, "book_flight.missing", None, CALL, "fail"),
    ("param_contains_any", {"any": ["aisle"]}, "book_flight.seat", None, CALL, "pass"),
    ("param_contains_any", {"any": ["window"]}, "book_flight.tags", None, CALL, "pass"),
    ("param_contains_any", {"any": ["row 1"]}, "book_flight.seat", None, CALL, "fail"),
    ("param_contains_any", {"any": ["sam"]}, "book_flight.passengers", None, CALL, "pass"),
    ("param_contains_none", {"none": ["middle"]}, "book_flight.seat", None, CALL, "pass"),
    ("param_contains_none", {"none": ["AISLE"]}, "book_flight.seat", None, CALL, "fail"),
    ("param_contains_none", {"none": ["x"]}, "book_flight.missing", None, CALL, "pass"),
    ("text_max_words", {"max": 5}, "text", "One two three - four five.", None, "pass"),
    ("text_max_words", {"max": 4}, "text", "One two three - four five.", None, "fail"),
    ("text_max_words", {"max": 4}, "text", None, CALL, "fail"),
    ("text_min_words", {"min": 3}, "text", "Don't over-think it", None, "pass"),
    ("text_min_words", {"min": 4}, "text", "Don't over-think it", None, "fail"),
    ("text_contains_any", {"any": ["Soup", "tea"]}, "text", "Try a warm soup.", None, "pass"),
    ("text_contains_any", {"any": ["tea"]}, "text", "A steak tonight.", None, "fail"),
    ("text_contains_any", {"any": ["ice cream"]}, "text", "Some ICE\n  cream?", None, "pass"),
    ("text_contains_none", {"none": ["dear sir"]}, "text", "Hi team,", None, "pass"),
    ("text_contains_none", {"none": ["dear sir"]}, "text", "Dear Sir, hello", None, "fail"),
    ("text_format", {"format": "bullets"}, "text", "Plan:\n- a\n- b\n  more on b\nThanks", None, "pass"),
    ("text_format", {"format": "bullets"}, "text", "- only one item\nand a line\nand another", None, "fail"),
    (
        "text_format",
        {"format": "bullets"},
        "text",
        "Hi team,\n\nUpdate:\n- review moves to Monday\n- same room as before\n\nThanks,\nAna",
        None,
        "pass",
    ),
    (
        "text_format",
        {"format": "bullets"},
        "text",
        "A long paragraph of prose that goes on and on about many things.\n- a\n- b",
        None,
        "fail",
    ),
    ("text_format", {"format": "bullets"}, "text", "1. a\n2. b", None, "fail"),
    ("text_format", {"format": "numbered"}, "text", "Steps:\n1. a\n2) b\n(3) c", None, "pass"),
    ("text_format", {"format": "numbered"}, "text", "1. a\n- b\n- c", None, "fail"),
    ("text_format", {"format": "prose"}, "text", "A plain paragraph.\n\nAnother one.", None, "pass"),
    ("text_format", {"format": "prose"}, "text", "Intro\n- a point", None, "fail"),
    ("text_format", {"format": "prose"}, "text", "# Title\nBody text.", None, "fail"),
]


@pytest.mark.parametrize(("kind", "expect", "target", "text", "call", "status"), CASES)
def test_check_kinds(kind, expect, target, text, call, status):
    assert run(kind, expect, text=text, call=call, target=target) == status


def test_every_kind_has_a_pass_and_a_fail_case():
    seen = {(kind, status) for kind, *_rest, status in CASES}
    for kind in CHECK_KINDS:
        if kind != "judge":
            assert (kind, "pass") in seen and (kind, "fail") in seen, kind


def test_word_count_and_layout():
    assert count_words("- Hello, world! It's a well-known 3-step plan.") == 7
    layout = text_layout("Intro:\n\n* a b\n    detail here\n* c\n# H\nend")
    assert {k: layout[k] for k in ("bullets", "numbered", "headings", "other")} == {
        "bullets": 2,
        "numbered": 0,
        "headings": 1,
        "other": 2,
    }
    assert layout["bullets_words"] == 5 and layout["other_words"] == 2


def test_task_score_soft_strict_dynamic_split_and_objects():
    task = mini(0)
    output = {
        "tool_call": ToolCall("book_restaurant", {"cuisine": "Thai", "spice_level": "hot", "party_size": 4})
    }
    score = evaluate_task(task, output)
    statuses = {c.id: c.status for c in score.checks}
    assert statuses == {"c1": "pass", "c2": "fail", "c3": "pass", "c4": "pass"}
    assert score.soft == 75.0 and score.strict is False
    row = score.to_dict()
    assert row["soft_dynamic"] == 0.0 and row["soft_static"] == 100.0
    assert row["strict_static"] is True and row["strict_dynamic"] is False
    assert "hot" in score.checks[1].reason
    # arguments as a JSON string (some backends stream them that way)
    fixed = {
        "tool_call": {
            "name": "book_restaurant",
            "arguments": json.dumps({"cuisine": "thai", "party_size": 4}),
        }
    }
    assert evaluate_task(task, fixed).strict is True


def test_judge_checks_are_unscored_without_judges():
    task = mini(1)
    text = "Hi team,\n- Review moves from Friday to Monday\n- Same time, same room"
    score = evaluate_task(task, {"text": text})
    judge = score.checks[-1]
    assert judge.status == "unscored" and judge.reason == "no judge configured"
    assert score.soft == 100.0 and score.strict is True  # the judge check is left out, not guessed
    only_judge = dict(task, checks=[task["checks"][-1]])
    empty = evaluate_task(only_judge, {"text": text})
    assert empty.soft is None and empty.strict is None


def test_three_judges_majority():
    task = dict(mini(1), checks=[mini(1)["checks"][-1]])
    ok, no = {"pass": True, "reason": "casual"}, {"pass": False, "reason": "stiff"}
    judges = [ScriptedLLM([ok]), ScriptedLLM([no]), ScriptedLLM([ok])]
    score = evaluate_task(task, {"text": "Hey all!"}, judges=judges)
    assert score.checks[0].status == "pass" and score.judge_calls == 3
    assert "2 pass / 1 fail of 3 judges" in score.checks[0].reason
    call = judges[0].calls[0]
    assert call.schema["required"] == ["pass", "reason"]
    assert "casual and friendly" in call.prompt and "Hey all!" in call.prompt

    judges = [ScriptedLLM([no]), ScriptedLLM(["not json"]), ScriptedLLM([no])]
    assert evaluate_task(task, {"text": "Dear Sir"}, judges=judges).checks[0].status == "fail"

    # one vote each way and one judge down: no majority, so unscored
    judges = [ScriptedLLM([ok]), ScriptedLLM([ModelUnavailable("judge down")]), ScriptedLLM([no])]
    result = evaluate_task(task, {"text": "Hi"}, judges=judges).checks[0]
    assert result.status == "unscored" and "judge down" in result.reason


def test_a_failed_task_scores_zero_with_its_error():
    score = score_error(mini(0), "RuntimeError: planner exploded")
    assert score.soft == 0.0 and score.strict is False
    assert score.error == "RuntimeError: planner exploded"
    assert all(c.status == "fail" for c in score.checks)
    assert score.to_dict()["soft_dynamic"] == 0.0
