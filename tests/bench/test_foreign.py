"""The foreign-tools variant: a total, deterministic rewrite that keeps every check's meaning, in words
the planner has never seen."""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from jsonschema import Draft202012Validator, FormatChecker

from bench.cli import bench
from bench.evaluate import FAIL, PASS, evaluate_check, evaluate_task, normalize_output
from bench.generator import generate_suite, no_memory_baseline
from bench.generator.foreign import (
    TABLE,
    foreign_task,
    map_call,
    map_check,
    map_tool,
    map_value,
    param_name,
    tool_name,
)
from bench.generator.suite import dumps, write_suite
from bench.runner import run_bench
from bench.validate import validate_suite
from ibachat.agent.execution.tools import REGISTRY, as_task_tool
from memory.errors import BadInput

ROOT = Path(__file__).resolve().parents[2]
PERSONAS, TARGET = 12, 240


@pytest.fixture(scope="module")
def pair() -> list[tuple[dict, dict]]:
    canonical = list(generate_suite(0, PERSONAS, target_tasks=TARGET))
    return [(t, foreign_task(t)) for t in canonical]


def _enum(schema: dict) -> list:
    return schema.get("enum") or (schema.get("items") or {}).get("enum") or []


def _words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9]+", re.sub(r"([a-z0-9])([A-Z])", r"\1 \2", text).lower())


def _grams(words: list[str], n: int) -> set[tuple[str, ...]]:
    return {tuple(words[i : i + n]) for i in range(len(words) - n + 1)}


def test_every_tool_parameter_and_enum_value_of_the_registry_is_rewritten():
    assert set(TABLE) == set(REGISTRY)
    assert len({t.name for t in TABLE.values()}) == len(TABLE)
    for name, tool in REGISTRY.items():
        props = tool.parameters["properties"]
        spec = TABLE[name]
        assert set(spec.params) == set(props), name
        new_names = [p.name for p in spec.params.values()]
        assert len(set(new_names)) == len(new_names), name
        assert spec.name != name and spec.description != tool.description
        for param, schema in props.items():
            p = spec.params[param]
            assert p.name != param and p.description != schema.get("description"), (name, param)
            values = _enum(schema)
            if values:
                assert p.values is not None and set(values) <= set(p.values), (name, param)
                assert len({json.dumps(p.values[v]) for v in values}) == len(values), (name, param)
                assert all(v != p.values[v] for v in values), (name, param)
        rewritten = map_tool(as_task_tool(tool))
        Draft202012Validator.check_schema(rewritten["parameters"])
        assert rewritten["parameters"]["required"] == [
            param_name(name, r) for r in tool.parameters["required"]
        ]
    # the shapes change where they fit: booleans from enums, integer scales, other units
    assert REGISTRY["book_train"].parameters["properties"]["travel_class"]["type"] == "string"
    train = map_tool(as_task_tool(REGISTRY["book_train"]))["parameters"]["properties"]
    assert train["premiumCarriage"] == {
        "type": "boolean",
        "description": TABLE["book_train"].params["travel_class"].description,
        "default": False,
    }
    food = map_tool(as_task_tool(REGISTRY["order_food"]))["parameters"]["properties"]
    assert food["chilliScale"]["type"] == "integer" and "enum" not in food["chilliScale"]
    assert (
        food["chilliScale"]["minimum"],
        food["chilliScale"]["maximum"],
        food["chilliScale"]["default"],
    ) == (
        0,
        3,
        2,
    )
    assert food["gratuityFraction"]["type"] == "number" and food["gratuityFraction"]["maximum"] == 0.3
    assert food["skipUtensils"]["default"] is False  # cutlery defaulted to true: the flag is turned round
    assert map_value("create_event", "duration_minutes", 50) == 3000
    assert map_value("order_food", "tip_percent", 15) == 0.15
    assert map_value("refill_prescription", "supply_days", 90) == 3


def test_no_rewritten_word_occurs_in_the_planner():
    source = " ".join(p.read_text("utf-8") for p in sorted((ROOT / "ibachat").rglob("*.py")))
    words = _words(source)
    assert len(words) > 10000
    seen = {n: _grams(words, n) for n in range(1, 7)}
    tokens = {t.casefold() for t in re.findall(r"[A-Za-z0-9_\-]+", source)}
    identifiers: set[str] = set()
    descriptions: set[str] = set()
    for spec in TABLE.values():
        identifiers.add(spec.name)
        descriptions.add(spec.description)
        for p in spec.params.values():
            identifiers.add(p.name)
            descriptions.add(p.description)
            identifiers.update(v for v in (p.values or {}).values() if isinstance(v, str))
    # an identifier is neither a token of ibachat/ nor, split into its words, a word sequence there
    as_token = sorted(i for i in identifiers if i.casefold() in tokens)
    as_words = sorted(i for i in identifiers if tuple(_words(i)) in seen[min(6, len(_words(i)))])
    assert not as_token and not as_words, (as_token, as_words)
    # descriptions share no four words in a row with ibachat/
    shared = {d: [" ".join(g) for g in _grams(_words(d), 4) & seen[4]] for d in descriptions}
    assert not {d: g for d, g in shared.items() if g}


def test_the_rewrite_is_deterministic_and_leaves_the_canonical_task_alone(pair):
    canonical, foreign = pair[0]
    before = dumps(canonical)
    assert dumps(foreign_task(canonical)) == dumps(foreign) and dumps(canonical) == before
    again = list(generate_suite(0, PERSONAS, target_tasks=TARGET, variant="foreign"))
    assert [dumps(t) for t in again] == [dumps(f) for _, f in pair]
    assert [f["id"] for _, f in pair] == [c["id"] for c, _ in pair]
    assert all(f["suite"].endswith("+foreign") and f["meta"]["variant"] == "foreign" for _, f in pair)
    with pytest.raises(BadInput, match="variant"):
        next(generate_suite(0, 2, target_tasks=10, variant="alien"))


def test_the_fresh_variant_keeps_the_past_calls_on_the_old_tools(pair):
    canonical, foreign = next((c, f) for c, f in pair if c["task_type"] == "action")
    fresh = foreign_task(canonical, past_calls=False)
    assert fresh["history"] == canonical["history"] and fresh["history"] != foreign["history"]
    assert fresh["task"] == foreign["task"] and fresh["checks"] == foreign["checks"]
    assert fresh["meta"]["variant"] == "foreign-fresh" and fresh["suite"].endswith("+foreign-fresh")


def test_nothing_the_agent_sees_names_a_canonical_tool_parameter_or_value(pair):
    canonical: set[str] = set(REGISTRY)
    for tool in REGISTRY.values():
        for param, schema in tool.parameters["properties"].items():
            canonical.add(param)
            canonical.update(v for v in _enum(schema) if isinstance(v, str))
    spelt = {n for n in canonical if "_" in n}  # one-word names ("seat", "date") are plain English
    assert len(spelt) > 60
    leaks = set()
    for _, task in pair:
        seen = json.dumps({"history": task["history"], "now": task["now"], "task": task["task"]})
        leaks |= set(re.findall(r"[a-z0-9_]+", seen)) & spelt
        leaks |= set(re.findall(r"\b(?:BOOK|ORDE|CREA|MSG|NOTE|REM|SUB|RENT|REFI|BUY)-[0-9A-F]{8}\b", seen))
    assert not leaks


def _tool_of(task: dict, name: str) -> dict:
    return next(t for t in task["task"]["tools"] if t["name"] == name)


def test_gold_and_past_calls_fit_the_foreign_schemas(pair, tmp_path):
    calls = 0
    for canonical, foreign in pair:
        if not foreign.get("gold"):
            continue
        tools = {t["name"]: t for t in foreign["task"]["tools"]}
        gold = foreign["gold"]["action"]
        Draft202012Validator(tools[gold["name"]]["parameters"], format_checker=FormatChecker()).validate(
            gold["arguments"]
        )
        assert gold == map_call(canonical["gold"]["action"])
    for _, foreign in pair:
        for session in foreign["history"]:
            for turn in session["turns"]:
                call = turn.get("tool_call")
                if not call:
                    continue
                calls += 1
                old = next(n for n in REGISTRY if TABLE[n].name == call["name"])
                schema = map_tool(as_task_tool(REGISTRY[old]))["parameters"]
                Draft202012Validator(schema, format_checker=FormatChecker()).validate(call["arguments"])
                assert turn["text"].startswith(call["name"] + " {")
                assert json.loads(turn["text"].split(" ", 1)[1].rsplit(" -> ", 1)[0]) == call["arguments"]
    assert calls > 100
    stats = write_suite(tmp_path / "f.jsonl", 0, 4, target_tasks=60, variant="foreign")
    report = validate_suite(tmp_path / "f.jsonl")
    assert report.ok and report.valid == stats["tasks"] > 0 and stats["variant"] == "foreign"


def _alternatives(schema: dict) -> list:
    if schema.get("type") == "boolean":
        return [True, False]
    if "enum" in schema:
        return list(schema["enum"])
    if schema.get("type") == "integer" and schema.get("maximum", 99) - schema.get("minimum", 0) <= 10:
        return list(range(schema["minimum"], schema["maximum"] + 1))
    return []


def test_every_check_judges_a_call_and_its_mapped_call_alike(pair):
    """Gold passes both; changing one parameter to each of its values flips the same checks in both."""
    compared = failed = 0
    for canonical, foreign in pair:
        gold = canonical.get("gold")
        if not gold:
            continue
        name, args = gold["action"]["name"], gold["action"]["arguments"]
        props = REGISTRY[name].parameters["properties"]
        variants = [args]
        for param, schema in props.items():
            variants += [{**args, param: v} for v in _alternatives(schema) if v != args.get(param)]
        for variant in variants:
            call = {"name": name, "arguments": variant}
            text, calls = normalize_output({"tool_call": call})
            ftext, fcalls = normalize_output({"tool_call": map_call(call)})
            for check, fcheck in zip(canonical["checks"], foreign["checks"], strict=True):
                if check["kind"] == "judge":
                    continue
                status = evaluate_check(check, text, calls).status
                assert evaluate_check(fcheck, ftext, fcalls).status == status, (
                    canonical["id"],
                    check,
                    variant,
                )
                compared += 1
                failed += status == FAIL
        assert evaluate_task(foreign, {"tool_call": map_call(gold["action"])}).strict is not False
        assert no_memory_baseline(foreign)["soft"] == no_memory_baseline(canonical)["soft"]
    assert compared > 1000 and 0.05 < failed / compared < 0.95


def test_an_off_preference_value_fails_the_foreign_check(pair):
    tried = 0
    for _, foreign in pair:
        for check in foreign["checks"]:
            if check["kind"] != "param_in" or not foreign.get("gold"):
                continue
            tool, param = check["target"].split(".", 1)
            schema = _tool_of(foreign, tool)["parameters"]["properties"][param]
            off = [v for v in _alternatives(schema) if v not in check["expect"]["in"]]
            if not off:
                continue
            gold = foreign["gold"]["action"]
            args = {**gold["arguments"], param: off[0]}
            text, calls = normalize_output({"tool_call": {"name": gold["name"], "arguments": args}})
            assert evaluate_check(check, text, calls).status == FAIL
            good = {**gold["arguments"], param: check["expect"]["in"][0]}
            text, calls = normalize_output({"tool_call": {"name": gold["name"], "arguments": good}})
            assert evaluate_check(check, text, calls).status == PASS
            tried += 1
    assert tried > 50


def test_ranges_follow_the_unit_change():
    check = {"id": "c1", "kind": "param_range", "target": "create_event.duration_minutes"}
    check["expect"] = {"min": 45, "max": 90}
    assert map_check(check) == {
        **check,
        "target": "calendarInsert.lengthSeconds",
        "expect": {"min": 2700, "max": 5400},
    }
    calories = map_check({**check, "target": "create_meal_plan.calories_per_day", "expect": {"min": 2500}})
    assert calories["target"] == "dietSchedule.dailyKilojoules" and calories["expect"] == {"min": 10460}
    free = map_check(
        {**check, "kind": "param_in", "target": "book_flight.origin", "expect": {"in": ["Porto"]}}
    )
    assert free["target"] == "airfareReserve.fromAirport" and free["expect"] == {"in": ["Porto"]}
    none = map_check(
        {
            **check,
            "kind": "param_contains_none",
            "target": "order_food.dietary",
            "expect": {"none": ["vegan"]},
        }
    )
    assert none["expect"] == {"none": [map_value("order_food", "dietary", ["vegan"])[0]]}
    assert map_check({"id": "c2", "kind": "tool_called", "expect": {"name": "book_train"}})["expect"] == {
        "name": tool_name("book_train")
    }
    with pytest.raises(BadInput, match="no (foreign )?spelling"):
        map_check({**check, "target": "order_teleport.speed"})
    with pytest.raises(BadInput, match="no (foreign )?spelling"):
        map_value("book_flight", "seat", "on_the_wing")


def test_cli_generates_the_foreign_variant_and_rejects_a_bad_one(tmp_path):
    runner = CliRunner()
    out = tmp_path / "f.jsonl"
    result = runner.invoke(bench, ["generate", "--personas", "3", "--foreign-tools", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["variant"] == "foreign"
    first = json.loads(out.read_text().splitlines()[0])
    assert first["meta"]["variant"] == "foreign"
    result = runner.invoke(bench, ["generate", "--variant", "alien", "--out", str(out)])
    assert result.exit_code == 2 and "alien" in result.output


def test_the_planner_runs_foreign_tasks_and_its_calls_fit_their_schemas(pair, tmp_path):
    tasks = [f for _, f in pair if f["task_type"] == "action"][:3]
    rows: list[dict] = []
    summary = run_bench(
        tasks, agent="iba", embedder="hash", out_dir=tmp_path, progress=False, on_result=rows.append
    )
    assert summary.errors == 0 and summary.ran == len(tasks)
    for task, row in zip(tasks, rows, strict=True):
        call = row["output"]["tool_call"]
        assert call is not None, row
        schema = _tool_of(task, call["name"])["parameters"]
        Draft202012Validator(schema, format_checker=FormatChecker()).validate(call["arguments"])
    assert copy.deepcopy(tasks) == tasks


def _script():
    import importlib.util

    spec = importlib.util.spec_from_file_location(
        "bench_foreign", ROOT / "bench_scripts" / "bench_foreign.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_comparison_script_runs_both_variants_on_the_same_tasks(tmp_path, capsys):
    script = _script()
    out = tmp_path / "table.json"
    args = [
        "--limit",
        "4",
        "--embedder",
        "hash",
        "--out",
        str(tmp_path / "runs"),
        "--quiet",
        "--json",
        str(out),
    ]
    assert script.main([*args, "--fresh"]) == 0
    data = json.loads(out.read_text())
    table = data["table"]
    assert [r["tasks"] for r in table["(all)"].values()] == [4, 4, 4]
    assert all(v["soft"] is not None for v in table["(all)"].values())
    checks = {b: [v["checks"] for v in by.values()] for b, by in data["by_past_calls"].items()}
    assert all(len(set(n)) == 1 for n in checks.values()) and sum(n[0] for n in checks.values()) > 0
    printed = capsys.readouterr().out
    assert "soft foreign" in printed and "soft foreign-fresh" in printed and "(all)" in printed
    assert script.main(["--limit", "0"]) == 1
    assert capsys.readouterr().err.startswith("error: ")
