"""The suite generator: reproducible, complete, schema-valid, consistent with its histories, memory-dependent."""

from __future__ import annotations

import hashlib
import json
import random
import re
import subprocess
import sys

import pytest
from jsonschema import Draft202012Validator, FormatChecker

from bench.evaluate import CHECK_KINDS, FAIL, PASS, count_words, evaluate_check, evaluate_task
from bench.generator import (
    generate_suite,
    make_personas,
    no_memory_baseline,
    persona_distinctness,
    suite_stats,
    write_suite,
)
from bench.generator import phrasing as ph
from bench.generator.catalog import all_dims, get_dim
from bench.generator.scenarios import SCENARIOS
from bench.generator.states import STATE_BY_KEY
from bench.generator.suite import dumps
from bench.validate import SCHEMA_FILE, validate_suite
from ibachat.agent.execution.tools import REGISTRY, execute

PERSONAS, TARGET = 40, 700
CUE_KINDS = ("behaviour", "statement", "update", "correction", "rejection", "exception", "state")


@pytest.fixture(scope="module")
def suite() -> list[dict]:
    info: dict = {}
    tasks = list(generate_suite(0, PERSONAS, target_tasks=TARGET, stats=info))
    assert tasks, info
    return tasks


@pytest.fixture(scope="module")
def personas() -> dict:
    return {p.id: p for p in make_personas(0, PERSONAS)}


def _turn(task: dict, ref: dict) -> dict:
    session = next(s for s in task["history"] if s["session_id"] == ref["session_id"])
    return session["turns"][ref["turn"]]


def test_same_seed_gives_the_same_bytes_and_another_seed_differs(suite, tmp_path):
    again = list(generate_suite(0, PERSONAS, target_tasks=TARGET))
    assert [dumps(t) for t in again] == [dumps(t) for t in suite]
    other = list(generate_suite(1, 12, target_tasks=120))
    assert {t["id"] for t in other} != {t["id"] for t in suite[: len(other)]} or [
        dumps(t) for t in other
    ] != [dumps(t) for t in suite[: len(other)]]
    stats = write_suite(tmp_path / "a.jsonl", seed=1, personas=12, target_tasks=120)
    write_suite(tmp_path / "b.jsonl", seed=1, personas=12, target_tasks=120)
    digest = [hashlib.sha256((tmp_path / n).read_bytes()).hexdigest() for n in ("a.jsonl", "b.jsonl")]
    assert digest[0] == digest[1]
    assert (tmp_path / "a.jsonl").read_text().splitlines() == [dumps(t) for t in other]
    assert stats["tasks"] == len(other) and stats["bytes"] == (tmp_path / "a.jsonl").stat().st_size


def test_nine_domains_sixty_six_scenarios_and_a_third_actions(suite):
    assert len({s.name for s in SCENARIOS}) == 66
    assert len({s.domain for s in SCENARIOS}) == 9
    stats = suite_stats(suite)
    assert len(stats["domains"]) == 9 and stats["scenarios"] == 66
    assert stats["action_fraction"] >= 1 / 3
    assert abs(stats["tasks"] - TARGET) <= TARGET * 0.02
    action = {t["scenario"] for t in suite if t["task_type"] == "action"}
    assert len(action) >= 16
    assert 0.1 < stats["dynamic_check_fraction"] < 0.6
    assert stats["phases"].get("inside", 0) > 0 and stats["phases"].get("after", 0) > 0
    assert 0 < stats["judge_checks"] < stats["checks"] * 0.05
    assert {c["kind"] for t in suite for c in t["checks"]} == set(CHECK_KINDS)


def test_every_scenario_calls_tools_of_the_product():
    """The scenarios name the product's tools; the product names no scenario (issue 22)."""
    called = {t for scen in SCENARIOS for t in scen.tools}
    assert called == set(REGISTRY)  # and every tool of the product is exercised by one


def test_a_sample_validates_against_the_schema_and_the_suite_validator(suite, tmp_path):
    sample = suite[::7]
    validator = Draft202012Validator(json.loads(SCHEMA_FILE.read_text()), format_checker=FormatChecker())
    for task in sample:
        errors = list(validator.iter_errors(task))
        assert not errors, (task["id"], errors[0].message)
    path = tmp_path / "sample.jsonl"
    path.write_text("".join(dumps(t) + "\n" for t in sample), encoding="utf-8")
    report = validate_suite(path)
    assert report.ok, report.summary()


def test_histories_are_long_noisy_dated_and_before_now(suite):
    from memory.types import parse_time

    for task in suite[::5]:
        turns = sum(len(s["turns"]) for s in task["history"])
        assert 80 <= turns <= 400, (task["id"], turns)
        now = parse_time(task["now"])
        times = [parse_time(s["time"]) for s in task["history"]]
        assert all(t < now for t in times)
        assert (max(times) - min(times)).days >= 60  # spread over months
        ids = [s["session_id"] for s in task["history"]]
        assert len(ids) == len(set(ids))
        cue_turns = {(c[0], c[1]) for c in task["meta"]["cues"]}
        assert len(cue_turns) < turns / 2  # most turns carry no preference cue


def test_every_check_cites_real_user_or_tool_turns(suite):
    for task in suite:
        for check in task["checks"]:
            assert check.get("dimension") and check.get("evidence"), (task["id"], check)
            for ref in check["evidence"]:
                assert _turn(task, ref)["role"] in ("user", "tool"), (task["id"], check["id"])


def test_behaviour_evidence_agrees_with_what_the_check_expects(suite):
    """A past tool call cited as evidence must itself satisfy the check (stale calls are not cited)."""
    cited = 0
    for task in suite:
        for check in task["checks"]:
            if not check["kind"].startswith("param_") or check["kind"] in (
                "param_not_in",
                "param_contains_none",
            ):
                continue
            tool = check["target"].split(".")[0]
            for ref in check["evidence"]:
                turn = _turn(task, ref)
                call = turn.get("tool_call")
                if call and call["name"] == tool:
                    cited += 1
                    assert evaluate_check(check, None, [call]).status == PASS, (task["id"], check, call)
    assert cited > 100


def test_past_calls_never_contradict_a_static_preference(suite):
    """Where a preference never changed, every past call of that tool agrees with the check (one-offs aside)."""
    checked = 0
    for task in suite:
        exceptions = {(c[0], c[3]) for c in task["meta"]["cues"] if c[2] == "exception"}
        for check in task["checks"]:
            if check["dynamic"] or check["kind"] not in ("param_in", "param_range", "param_contains_any"):
                continue
            tool, param = check["target"].split(".", 1)
            if tool == "create_event":  # meetings and focus blocks set the same parameter differently
                continue
            for session in task["history"]:
                if (session["session_id"], check["dimension"]) in exceptions:
                    continue
                for turn in session["turns"]:
                    call = turn.get("tool_call")
                    if call and call["name"] == tool and param in call["arguments"]:
                        checked += 1
                        assert evaluate_check(check, None, [call]).status == PASS, (task["id"], check, call)
    assert checked > 500


def test_expectations_follow_the_persona_and_its_states(suite, personas):
    """Static checks accept the persona's long-term value; checks inside a state accept the override only."""
    conflicts = 0
    for task in suite:
        persona, tool = personas[task["persona_id"]], None
        if task["task_type"] == "action":
            tool = task["gold"]["action"]["name"]
        state = STATE_BY_KEY.get(task["meta"]["state"] or "")
        for check in task["checks"]:
            if check["kind"] not in ("param_in", "param_range", "param_contains_any") or not tool:
                continue
            dim = get_dim(check["dimension"])
            bind = next(b for b in dim.bindings if b.target == check["target"])
            long_term = bind.arg.get(persona.prefs[dim.key])
            call = [{"name": tool, "arguments": {bind.param: long_term}}]
            overridden = (
                state is not None and dim.key in state.overrides and task["meta"]["phase"] == "inside"
            )
            if not overridden and long_term is not None:
                assert evaluate_check(check, None, call).status == PASS, (task["id"], check)
            if (
                overridden
                and persona.prefs[dim.key] not in state.overrides[dim.key]
                and long_term is not None
            ):
                conflicts += 1
                assert evaluate_check(check, None, call).status == FAIL, (task["id"], check)
    assert conflicts > 10  # long-term versus short-term conflicts are exercised


def test_gold_actions_are_valid_calls_that_pass_every_check(suite):
    for task in suite:
        if task["task_type"] != "action":
            assert "tools" not in task["task"]
            continue
        gold = task["gold"]["action"]
        execute(gold["name"], gold["arguments"])  # raises on a schema violation
        score = evaluate_task(task, {"tool_call": gold})
        assert all(c.status != FAIL for c in score.checks), (
            task["id"],
            [c for c in score.checks if c.status == FAIL],
        )


def test_generation_checks_can_all_be_met_at_once(suite):
    """A text built from the checks passes them all: no contradictory length, terms or format."""
    for task in suite:
        if task["task_type"] != "generation":
            continue
        text = _satisfying_text(task["checks"])
        failed = [c for c in evaluate_task(task, {"text": text}).checks if c.status == FAIL]
        assert not failed, (task["id"], failed, text)


def _satisfying_text(checks: list[dict]) -> str:
    must = [c["expect"]["any"][0] for c in checks if c["kind"] == "text_contains_any"]
    fmt = next((c["expect"]["format"] for c in checks if c["kind"] == "text_format"), "prose")
    low = max([c["expect"]["min"] for c in checks if c["kind"] == "text_min_words"], default=40)
    high = min([c["expect"]["max"] for c in checks if c["kind"] == "text_max_words"], default=400)
    words = max(low, min(60, high)) - count_words(" ".join(must))
    filler = ["plan"] * max(words, 0)
    lines = [" ".join(filler[i : i + 10]) for i in range(0, len(filler), 10)] + must
    if fmt == "bullets":
        return "\n".join(f"- {line}" for line in lines)
    if fmt == "numbered":
        return "\n".join(f"{i}. {line}" for i, line in enumerate(lines, 1))
    return " ".join(lines) + "."


def test_the_no_memory_agent_fails_every_task(suite):
    results = [no_memory_baseline(t) for t in suite]
    assert all(r["fails"] for r in results), [
        t["id"] for t, r in zip(suite, results, strict=True) if not r["fails"]
    ]
    assert all(r["output"] for r in results)


def test_prompts_name_no_preference(suite):
    for task in suite:
        prompt = task["task"]["prompt"].lower()
        for check in task["checks"]:
            values = check.get("expect", {}).get("in") or check.get("expect", {}).get("any") or []
            for value in values:
                if isinstance(value, str) and len(value) > 3 and check["dimension"] != "home.city":
                    word = value.replace("_", " ").lower()
                    assert not re.search(rf"\b{re.escape(word)}\b", prompt), (task["id"], value, prompt)


def test_every_cue_kind_has_many_surface_forms(suite):
    forms = suite_stats(suite)["surface_forms"]
    for kind in CUE_KINDS:
        assert forms.get(kind, 0) >= 8, (kind, forms)
    rng = random.Random(3)
    slots = {
        "p": "an aisle seat",
        "o": "a window seat",
        "w": "a window seat",
        "x": "mild",
        "t": "flights",
        "guest": "my dad",
    }
    for kind in ("statement", "update", "correction", "rejection", "exception"):
        texts = {ph.render(kind, rng, slots)[0] for _ in range(80)}
        assert len(texts) >= 8, kind


def test_personas_are_behaviourally_distinct():
    people = make_personas(0, 60)
    report = persona_distinctness(people)
    assert report["unique_vector_fraction"] == 1.0
    assert report["dimensions"] == len(all_dims())
    assert report["mean_pairwise_hamming"] > 0.6 and report["min_pairwise_hamming"] >= 0.5
    plain = persona_distinctness(make_personas(0, 60, tries=1))
    assert report["min_pairwise_hamming"] >= plain["min_pairwise_hamming"]


def test_bad_sizes_are_rejected_with_one_line():
    from memory.errors import BadInput

    with pytest.raises(BadInput, match="must be positive"):
        next(generate_suite(0, 0))


def test_importing_the_generator_touches_no_heavy_module():
    code = "import sys, bench.generator; print(sorted(m for m in ('torch', 'numpy', 'textual', 'usearch') if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
