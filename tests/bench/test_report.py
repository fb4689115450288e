"""Reports: numbers per domain and static/dynamic, agents side by side, JSON and self-contained HTML."""

from __future__ import annotations

import io
import json
import re
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest

from bench.agents import AgentOutput
from bench.report import build_report, git_revision, load_runs, print_report, render_html
from bench.runner import run_bench
from bench.validate import load_suite
from memory.errors import BadInput

MINI = Path(__file__).parent / "data" / "mini_suite.jsonl"


class Scripted:
    """An agent (no memory) answering from a table; a task not in it raises."""

    name = "scripted"
    uses_memory = False

    def __init__(self, outputs: dict[str, dict[str, Any]]) -> None:
        self.outputs = outputs

    def act(self, task: dict[str, Any], memory: Any, *, now: datetime) -> AgentOutput:
        if task["id"] not in self.outputs:
            raise ValueError("no answer")
        return AgentOutput(**self.outputs[task["id"]])


BOOKING = {"name": "book_restaurant", "arguments": {"cuisine": "thai", "spice_level": "hot", "party_size": 4}}
EMAIL = "Hi team,\n- Review moves to Monday\n- Same room"


@pytest.fixture
def results(tmp_path) -> Path:
    tasks = load_suite(MINI)
    out = tmp_path / "results"
    # iba: booking violates the dynamic spice check (3/4), the email is perfect, health fails, flight missing
    run_bench(
        tasks,
        agent="iba",
        agent_impl=Scripted(
            {
                "mini-0001": {"tool_call": BOOKING},
                "mini-0002": {"text": EMAIL},
                "mini-0003": {"text": "- one two three\n- four five"},
            }
        ),
        embedder="hash",
        out_dir=out,
        progress=False,
    )
    run_bench(
        tasks,
        agent="none",
        agent_impl=Scripted({"mini-0002": {"text": "Dear Sir, " + "word " * 120}}),
        embedder="hash",
        out_dir=out,
        progress=False,
    )
    return out


def test_report_numbers_side_by_side(results):
    report = build_report([results])
    runs = {r["label"]: r for r in report["runs"]}
    assert set(runs) == {"iba", "none"}
    iba, none = runs["iba"], runs["none"]
    assert iba["tasks"] == 4 and iba["errors"] == 1 and none["errors"] == 3
    assert iba["by_domain"]["consumption"] == {"n": 1, "soft": 75.0, "strict": 0.0}
    assert iba["by_domain"]["writing"] == {"n": 1, "soft": 100.0, "strict": 100.0}
    assert iba["by_domain"]["health"]["soft"] == pytest.approx(100 / 3, abs=0.01)  # min words passes only
    assert iba["by_domain"]["transportation"]["soft"] == 0.0
    # dynamic checks: spice (failed), greeting (passed), soft food (failed); the flight has none
    assert iba["static"]["n"] == 4 and iba["dynamic"]["n"] == 3
    assert iba["dynamic"]["soft"] == pytest.approx(100 / 3, abs=0.01) and iba["dynamic"][
        "strict"
    ] == pytest.approx(33.33)
    assert iba["static"]["soft"] == pytest.approx((100 + 100 + 50 + 0) / 4)
    assert none["by_domain"]["writing"] == {"n": 1, "soft": 0.0, "strict": 0.0}
    assert iba["unscored_checks"] == 1  # the judge check, no judge configured
    assert iba["suite"]["names"] == ["mini-suite v1"] and iba["suite"]["seeds"] == [0]
    assert iba["git_revision"] and report["report_git_revision"]
    assert report["domains"] == ["consumption", "health", "transportation", "writing"]
    assert set(report["scenarios"]) == {"restaurant_booking", "email_draft", "meal_advice", "flight_booking"}
    json.dumps(report)  # --json output is plain JSON


def test_terminal_report_prints_every_run(results):
    from rich.console import Console

    buffer = io.StringIO()
    print_report(build_report([results]), Console(file=buffer, width=160, color_system=None), scenarios=True)
    text = buffer.getvalue()
    assert "iba" in text and "none" in text and "consumption" in text and "flight_booking" in text
    assert " 75.0 /   0.0" in text and "█" in text


def test_html_report_is_self_contained(results, tmp_path):
    page = render_html(build_report([results / "iba.jsonl", results / "none.jsonl"]))
    assert page.startswith("<!DOCTYPE html>") and page.count("<svg") == 2
    assert "<script" not in page.lower() and "<link" not in page.lower()
    assert not re.search(r"""(src|href)\s*=\s*["']?\s*(https?:)?//""", page, re.IGNORECASE)
    assert "http" not in page
    assert "mini-suite v1" in page and "restaurant_booking" in page and git_revision()[:7] in page
    assert "<rect" in page and "75.0" in page


def test_report_inputs_are_checked(tmp_path, results):
    with pytest.raises(BadInput, match="no such results"):
        build_report([tmp_path / "missing"])
    (tmp_path / "empty").mkdir()
    with pytest.raises(BadInput, match="no results files"):
        build_report([tmp_path / "empty"])
    stray = tmp_path / "stray.jsonl"
    stray.write_text('{"type": "task", "task_id": "x"}\n')
    with pytest.raises(BadInput, match="no meta line"):
        load_runs([stray])
    # the same label from two folders stays apart
    twin = tmp_path / "again"
    twin.mkdir()
    (twin / "iba.jsonl").write_bytes((results / "iba.jsonl").read_bytes())
    labels = [r.label for r in load_runs([results / "iba.jsonl", twin / "iba.jsonl"])]
    assert len(set(labels)) == 2


def test_git_revision_outside_a_repository(tmp_path):
    assert git_revision(tmp_path) == "unknown"
    assert re.fullmatch(r"[0-9a-f]{40}(\+dirty)?", git_revision())


def test_report_command(results, tmp_path):
    from click.testing import CliRunner

    from bench.cli import bench

    runner = CliRunner()
    page = tmp_path / "report.html"
    result = runner.invoke(bench, ["report", str(results), "--json", "--html", str(page)])
    assert result.exit_code == 0, result.output
    assert {r["label"] for r in json.loads(result.stdout)["runs"]} == {"iba", "none"}
    assert page.read_text().startswith("<!DOCTYPE html>")
    result = runner.invoke(bench, ["report", str(results), "--scenarios"])
    assert result.exit_code == 0 and "restaurant_booking" in result.stdout
    result = runner.invoke(bench, ["report", str(tmp_path / "nothing")])
    assert result.exit_code == 1 and "no such results" in result.output


def test_reason_honesty_counts_request_reasons_without_the_words_and_plan_reasons_without_evidence():
    from bench.report import reason_honesty

    def row(request: str, sources: dict[str, dict[str, Any]]) -> dict[str, Any]:
        return {"info": {"request": request, "sources": sources}}

    rows = [
        row(
            "Book a table for 2 at Casa Lupo, Saturday",
            {
                "restaurant": {"kind": "request", "quote": "Casa Lupo", "evidence": []},
                "party_size": {"kind": "request", "quote": "for 2", "evidence": []},
                "spice": {"kind": "plan", "quote": "", "evidence": [14]},
                "seating": {"kind": "default", "quote": "", "evidence": []},
            },
        ),
        row(
            "Order me dinner",
            {
                "items": {"kind": "request", "quote": "pizza; garlic bread", "evidence": []},  # not said
                "budget": {"kind": "plan", "quote": "", "evidence": []},  # rests on nothing
            },
        ),
        {"info": {}},  # a baseline: no sources
    ]
    got = reason_honesty(rows)
    assert got == {
        "values": 6,
        "request_unquoted": round(100 / 6, 2),
        "plan_without_evidence": round(100 / 6, 2),
    }
    assert reason_honesty([{"info": {}}]) == {
        "values": 0,
        "request_unquoted": None,
        "plan_without_evidence": None,
    }
