"""The suite validator: every problem has a line number and one line of explanation."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from bench.validate import load_suite, validate_suite
from memory.errors import BadInput

DATA = Path(__file__).parent / "data"
MINI = DATA / "mini_suite.jsonl"


def mini_tasks() -> list[dict]:
    return [json.loads(line) for line in MINI.read_text().splitlines() if line.strip()]


def write(path: Path, lines: list[object]) -> Path:
    with open(path, "w", encoding="utf-8") as handle:
        for line in lines:
            handle.write((line if isinstance(line, str) else json.dumps(line)) + "\n")
    return path


def test_fixture_suite_is_valid():
    report = validate_suite(MINI)
    assert report.ok, report.summary()
    assert report.valid == 4
    assert report.domains == {"consumption": 1, "writing": 1, "health": 1, "transportation": 1}
    assert report.suites == {"mini-suite v1"}


def test_each_problem_is_reported_with_its_line(tmp_path):
    tasks = mini_tasks()
    wrong_domain = copy.deepcopy(tasks[1])
    wrong_domain["id"] = "x-domain"
    wrong_domain["domain"] = "cooking"
    unknown_kind = copy.deepcopy(tasks[2])
    unknown_kind["id"] = "x-kind"
    unknown_kind["checks"][0]["kind"] = "text_vibes"
    bad_evidence = copy.deepcopy(tasks[3])
    bad_evidence["id"] = "x-evidence"
    bad_evidence["checks"][0]["evidence"] = [
        {"session_id": "f1", "turn": 9},
        {"session_id": "nope", "turn": 0},
    ]
    bad_time = copy.deepcopy(tasks[0])
    bad_time["id"] = "x-time"
    bad_time["now"] = "yesterday at noon"
    path = write(
        tmp_path / "suite.jsonl",
        [
            tasks[0],
            '{"id": "broken", "domain": ',
            wrong_domain,
            "",
            unknown_kind,
            bad_evidence,
            tasks[0],
            bad_time,
        ],
    )
    report = validate_suite(path)
    assert not report.ok
    by_line = {}
    for issue in report.issues:
        by_line.setdefault(issue.line, []).append(issue.message)
    assert set(by_line) == {2, 3, 5, 6, 7, 8}
    assert "not JSON" in by_line[2][0]
    assert "unknown domain" in by_line[3][0] and "cooking" in by_line[3][0]
    assert "unknown check kind" in by_line[5][0] and "text_vibes" in by_line[5][0]
    assert any("turn 9 is outside session 'f1'" in m for m in by_line[6])
    assert any("session 'nope' is not in the history" in m for m in by_line[6])
    assert by_line[7] == ["duplicate id 'mini-0001' (first on line 1)"]
    assert "date-time" in by_line[8][0]
    assert report.valid == 1
    summary = report.summary(first=2)
    assert "\n" not in summary and "line 2" in summary and "and 5 more" in summary


def test_expect_shapes_targets_and_tools(tmp_path):
    task = mini_tasks()[0]
    task["checks"] = [
        {"id": "a", "kind": "param_in", "target": "book_restaurant.cuisine", "expect": {"in": []}},
        {"id": "b", "kind": "param_range", "target": "book_restaurant.party_size", "expect": {}},
        {"id": "c", "kind": "param_in", "target": "cuisine", "expect": {"in": ["x"]}},
        {"id": "d", "kind": "param_in", "target": "order_taxi.car", "expect": {"in": ["x"]}},
        {"id": "d", "kind": "judge"},
    ]
    report = validate_suite(write(tmp_path / "s.jsonl", [task]))
    messages = [i.message for i in report.issues]
    assert any(m.startswith("checks[0].expect.in:") for m in messages)
    assert any(m.startswith("checks[1].expect:") for m in messages)
    assert any("needs TOOL.PARAM" in m for m in messages)
    # five problems are shown per line, then a count
    assert messages[-1] == "and 1 more problems"
    assert len(messages) == 6 and report.problems == 6
    assert "6 problem(s) in 1 lines" in report.summary(first=1) and "and 5 more" in report.summary(first=1)


def test_history_errors_keep_their_path_and_shared_histories_are_checked_once(tmp_path):
    first, second = mini_tasks()[0], mini_tasks()[0]
    second["id"] = "same-history"
    third = copy.deepcopy(first)
    third["id"] = "bad-history"
    third["history"][1]["turns"][0]["role"] = "robot"
    third["history"][2]["time"] = "2025-02-11"
    report = validate_suite(write(tmp_path / "s.jsonl", [first, second, third]))
    assert report.valid == 2
    messages = [i.message for i in report.issues]
    assert all(i.line == 3 for i in report.issues)
    assert any(m.startswith("history[1].turns[0].role: 'robot' is not one of") for m in messages)
    assert any(m.startswith('history[2].time: "2025-02-11" is not an RFC 3339') for m in messages)


def test_a_50mb_line_is_an_error_not_a_crash(tmp_path):
    task = mini_tasks()[2]
    big = copy.deepcopy(task)
    big["id"] = "huge"
    big["history"][0]["turns"].append({"role": "user", "text": "x" * (50 * 1024 * 1024)})
    path = tmp_path / "big.jsonl"
    with open(path, "w") as handle:
        handle.write(json.dumps(task) + "\n")
        json.dump(big, handle)
        handle.write("\n")
        handle.write("not json\n")
    report = validate_suite(path)
    assert [i.line for i in report.issues] == [2, 3]
    assert "50.0 MB, over the 16 MB limit" in report.issues[0].message
    assert report.valid == 1
    # with a higher limit the same line is parsed and is valid
    report = validate_suite(path, max_line_bytes=64 * 1024 * 1024)
    assert [i.line for i in report.issues] == [3]


def test_load_suite_filters_and_refuses_invalid_suites(tmp_path):
    tasks = load_suite(MINI, domains=["writing", "health"])
    assert [t["id"] for t in tasks] == ["mini-0002", "mini-0003"]
    assert [t["id"] for t in load_suite(MINI, scenario="flight_booking")] == ["mini-0004"]
    assert len(load_suite(MINI, limit=2)) == 2
    with pytest.raises(BadInput, match="unknown domain"):
        load_suite(MINI, domains=["cooking"])
    broken = write(tmp_path / "broken.jsonl", [*mini_tasks(), "{oops", "[1, 2]"])
    with pytest.raises(BadInput) as info:
        load_suite(broken, limit=1)
    message = str(info.value)
    assert "\n" not in message and "nothing was run" in message
    assert "line 5: not JSON" in message and "line 6: a task must be a JSON object" in message
    with pytest.raises(BadInput, match="no such suite"):
        load_suite(tmp_path / "missing.jsonl")
    with pytest.raises(BadInput, match="no tasks"):
        load_suite(write(tmp_path / "empty.jsonl", [""]))


def test_validate_command(tmp_path):
    from click.testing import CliRunner

    from bench.cli import bench

    runner = CliRunner()
    result = runner.invoke(bench, ["validate", str(MINI)])
    assert result.exit_code == 0, result.output
    assert "4 tasks, valid" in result.output
    broken = write(tmp_path / "broken.jsonl", [mini_tasks()[0], "{oops"])
    result = runner.invoke(bench, ["validate", str(broken)])
    assert result.exit_code == 1
    assert "line 2: not JSON" in result.output and "Traceback" not in result.output
    result = runner.invoke(bench, ["validate", "--json", str(broken)])
    assert json.loads(result.stdout)["issues"][0]["line"] == 2
    result = runner.invoke(bench, ["validate", str(tmp_path / "missing.jsonl")])
    assert result.exit_code == 1 and "no such suite file" in result.output


def test_a_validated_suite_is_trusted_only_while_it_is_unchanged(tmp_path):
    import os

    suite = tmp_path / "suite.jsonl"
    suite.write_bytes(MINI.read_bytes())
    first = load_suite(suite)
    assert load_suite(suite) == first  # second load: from the stamp, same tasks
    assert load_suite(suite, limit=1) == first[:1]
    bad = json.loads(MINI.read_text().splitlines()[0])
    bad["domain"] = "astrology"
    with suite.open("a") as handle:
        handle.write(json.dumps(bad) + "\n")
    os.utime(suite, ns=(1, 1))  # even with an old mtime, the size changed
    with pytest.raises(BadInput, match="invalid suite"):
        load_suite(suite)
