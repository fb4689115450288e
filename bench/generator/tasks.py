"""Checks, gold actions and the no-memory baseline for generated tasks."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

from bench.evaluate import FAIL, PASS, evaluate_check, evaluate_task, normalize_output
from bench.generator.catalog import get_dim
from bench.generator.dims import Dim
from bench.generator.personas import Persona
from bench.generator.scenarios import Scenario
from ibachat.agent.execution.tools import REGISTRY

Check = dict[str, Any]

BASELINE_TEXT = (
    "Here is a general answer that should suit most people. Start by looking at the main goal and the "
    "time you have available, then pick the option that feels most practical. It often helps to write "
    "down two or three priorities before deciding, because that makes the trade-offs easier to see. Keep "
    "the plan flexible, since circumstances change and a rigid plan is hard to follow. If something is "
    "unclear, it is worth checking the details with the people involved before committing to anything. "
    "Small steps taken consistently usually work better than big changes made all at once. Leave some "
    "room for rest and for the unexpected, and review how things are going after a few days. Ask for "
    "help early rather than late, as most people are glad to lend a hand. In the end, the best choice is "
    "the one you can stick with comfortably over time. Let me know if you would like me to adjust anything "
    "or go into more detail on a particular part of this."
)


def baseline_arguments(parameters: Mapping[str, Any]) -> dict[str, Any]:
    """What an agent with no memory fills in: the default, else the first enum value, else mid-range."""
    args: dict[str, Any] = {}
    for name, schema in parameters.get("properties", {}).items():
        kind = schema.get("type")
        if "default" in schema:
            args[name] = schema["default"]
        elif "enum" in schema:
            args[name] = schema["enum"][0]
        elif kind in ("integer", "number") and "minimum" in schema and "maximum" in schema:
            mid = (schema["minimum"] + schema["maximum"]) / 2
            args[name] = int(mid) if kind == "integer" else mid
        elif kind == "boolean":
            args[name] = False
        elif kind == "array":
            args[name] = []
        else:
            args[name] = "unspecified"
    return args


def baseline_output(task: Mapping[str, Any]) -> dict[str, Any]:
    """The no-memory policy's output: the first offered tool with schema defaults, or generic prose."""
    tools = task["task"].get("tools") or []
    if task["task_type"] == "action" and tools:
        return {
            "tool_call": {"name": tools[0]["name"], "arguments": baseline_arguments(tools[0]["parameters"])}
        }
    return {"text": BASELINE_TEXT}


def no_memory_baseline(task: Mapping[str, Any]) -> dict[str, Any]:
    """Run the no-memory policy through the task's checks (via bench.evaluate)."""
    output = baseline_output(task)
    score = evaluate_task(task, output)
    return {
        "output": output,
        "failed": [c.id for c in score.checks if c.status == FAIL],
        "passed": [c.id for c in score.checks if c.status == PASS],
        "fails": any(c.status == FAIL for c in score.checks),
        "soft": score.soft,
    }


def baseline_fails(check: Check, tool: str | None) -> bool:
    """Whether the no-memory policy fails one check (used while choosing checks)."""
    return _baseline_fails(json.dumps(check, sort_keys=True), tool)


@lru_cache(maxsize=65536)
def _baseline_fails(check_json: str, tool: str | None) -> bool:
    check = json.loads(check_json)
    if tool is None:
        output: dict[str, Any] = {"text": BASELINE_TEXT}
    else:
        output = {"tool_call": {"name": tool, "arguments": baseline_arguments(REGISTRY[tool].parameters)}}
    text, calls = normalize_output(output)
    return evaluate_check(check, text, calls).status == FAIL


# ---------------------------------------------------------------- checks from preferences


def _union(lists: Sequence[Sequence[Any]]) -> list[Any]:
    out: list[Any] = []
    for items in lists:
        for item in items:
            if item not in out:
                out.append(item)
    return out


def constraint_checks(d: Dim, allowed: Sequence[Any], tool: str | None) -> list[Check]:
    """Checks (without ids) saying the output respects ``allowed`` values of ``d``."""
    if tool is None:
        rules = [d.text.get(v) for v in allowed]
        if not rules or any(not r for r in rules):
            return []
        by_kind: dict[str, list[dict[str, Any]]] = {}
        for rule in rules:
            for kind, expect in rule or ():
                by_kind.setdefault(kind, []).append(expect)
        out = []
        for kind, expects in by_kind.items():
            if len(expects) != len(rules):
                continue
            if kind in ("text_contains_any",):
                expect: dict[str, Any] = {"any": _union([e["any"] for e in expects])}
            elif kind == "text_contains_none":
                common = [t for t in expects[0]["none"] if all(t in e["none"] for e in expects)]
                if not common:
                    continue
                expect = {"none": common}
            elif kind == "text_max_words":
                expect = {"max": max(e["max"] for e in expects)}
            elif kind == "text_min_words":
                expect = {"min": min(e["min"] for e in expects)}
            else:
                if any(e != expects[0] for e in expects):
                    continue
                expect = dict(expects[0])
            out.append({"dimension": d.key, "kind": kind, "target": "text", "expect": expect})
        return out
    out = []
    for bind in d.bindings:
        if bind.tool != tool:
            continue
        if bind.kind == "param_contains_none":  # a prohibition: the value must not appear here
            banned = [bind.accept.get(v) for v in allowed]
            if all(banned):
                common = [t for t in banned[0] if all(t in x for x in banned)]
                if common:
                    out.append(
                        {
                            "dimension": d.key,
                            "kind": bind.kind,
                            "target": bind.target,
                            "expect": {"none": common},
                        }
                    )
            continue
        args = [bind.arg.get(v) for v in allowed]
        if any(a is None for a in args):
            continue
        accepted = [bind.accept.get(v, a) for v, a in zip(allowed, args, strict=True)]
        ptype = bind.ptype
        if bind.kind == "param_contains_any" or ptype == "array":
            kind, expect = "param_contains_any", {"any": _union(accepted)}
        elif ptype in ("integer", "number"):
            bounds = [a if isinstance(a, tuple) else (a, a) for a in accepted]
            kind, expect = "param_range", {"min": min(b[0] for b in bounds), "max": max(b[1] for b in bounds)}
        else:
            kind, expect = "param_in", {"in": _union([a if isinstance(a, list) else [a] for a in accepted])}
        out.append({"dimension": d.key, "kind": kind, "target": bind.target, "expect": expect})
    return out


def rejection_checks(d: Dim, rejected: Any, tool: str) -> list[Check]:
    out = []
    for bind in d.bindings:
        arg = bind.arg.get(rejected)
        if bind.tool != tool or arg is None or bind.kind or bind.ptype in ("integer", "number"):
            continue
        if bind.ptype == "array":
            out.append(
                {
                    "dimension": d.key,
                    "kind": "param_contains_none",
                    "target": bind.target,
                    "expect": {"none": list(arg)},
                }
            )
        else:
            out.append(
                {
                    "dimension": d.key,
                    "kind": "param_not_in",
                    "target": bind.target,
                    "expect": {"not_in": [arg]},
                }
            )
    return out


def gold_arguments(
    scenario: Scenario, tool: str, slots_args: Mapping[str, Any], value_of: Mapping[str, Any]
) -> dict[str, Any]:
    """The action a persona would want: prompt-given arguments plus each dimension's argument."""
    args = dict(slots_args)
    for key in scenario.dims:
        bind = get_dim(key).binding(tool)
        if bind is None:
            continue
        arg = bind.arg.get(value_of[key])
        if arg is None:
            continue
        args[bind.param] = sorted(set(args.get(bind.param, [])) | set(arg)) if isinstance(arg, list) else arg
    return args


def active(persona: Persona, key: str, now: Any, states: Sequence[Any]) -> tuple[tuple[Any, ...], Any]:
    """The allowed values of ``key`` at ``now`` and the state imposing them (or None)."""
    for span in states:
        if span.start <= now < span.end and key in span.state.overrides:
            return tuple(span.state.overrides[key]), span
    return (persona.prefs[key],), None
