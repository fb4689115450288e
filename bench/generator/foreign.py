"""The foreign-tools variant of a suite: the same tasks, histories and checks, every tool rewritten.

``foreign_task`` applies the deterministic ``TABLE`` (``foreign_tools_a`` / ``_b``) to one task:
the offered tools (names, parameters, descriptions, enum spellings, units, shapes), every check
(``TOOL.PARAM`` targets renamed, expected values mapped through the same value map or unit
change, ranges rescaled), the gold action, and the past tool calls inside the history (their
``tool_call`` and the turn's text, since the user made them with the same tools). Meaning is kept,
so an agent that reads tool schemas scores the same on both variants. An agent keyed on our
parameter names can still copy whatever values the history shows this tool was given before; the
``foreign-fresh`` variant (history calls left on the canonical tools) takes that away too.
The table stays in ``bench/``: the agent never sees it.
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Iterable, Iterator, Mapping
from fractions import Fraction
from typing import Any

from bench.generator.foreign_spec import P, T
from bench.generator.foreign_tools_a import TOOLS_A
from bench.generator.foreign_tools_b import TOOLS_B
from memory.errors import BadInput

TABLE: dict[str, T] = {**TOOLS_A, **TOOLS_B}  # canonical tool name -> its foreign spelling
VARIANT = "foreign"
# "foreign-fresh": the offered tools are foreign but the history's past calls keep the canonical
# tools, as for a user who switched provider: nothing can be copied from a past call of this tool.
FRESH = "foreign-fresh"
VARIANTS = ("canonical", VARIANT, FRESH)


def _tool(name: str) -> T:
    spec = TABLE.get(name)
    if spec is None:
        raise BadInput(f"the foreign-tools variant has no spelling for tool {name!r}")
    return spec


def _param(tool: str, param: str) -> P:
    spec = _tool(tool).params.get(param)
    if spec is None:
        raise BadInput(f"the foreign-tools variant has no spelling for {tool}.{param}")
    return spec


def tool_name(name: str) -> str:
    return _tool(name).name


def param_name(tool: str, param: str) -> str:
    return _param(tool, param).name


def _scaled(value: Any, factor: Fraction) -> Any:
    """``value * factor`` exactly, as an int when whole, else the nearest float (0.15, not 0.150000001)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return value
    exact = (Fraction(value) if isinstance(value, int) else Fraction(repr(value))) * factor
    return int(exact) if exact.denominator == 1 else float(exact)


def _one(spec: P, value: Any, where: str) -> Any:
    if spec.values is not None:
        if isinstance(value, bool) or value not in spec.values:
            raise BadInput(f"{where}: no foreign spelling for the value {value!r}")
        return spec.values[value]
    if spec.invert and isinstance(value, bool):
        return not value
    if spec.factor is not None:
        return _scaled(value, spec.factor)
    return value


def map_value(tool: str, param: str, value: Any) -> Any:
    """The foreign form of ``value`` of ``tool.param`` (each item of a list); free text is kept."""
    spec, where = _param(tool, param), f"{tool}.{param}"
    if isinstance(value, list):
        return [_one(spec, v, where) for v in value]
    return _one(spec, value, where)


def map_arguments(tool: str, arguments: Mapping[str, Any]) -> dict[str, Any]:
    return {param_name(tool, k): map_value(tool, k, v) for k, v in arguments.items()}


def map_call(call: Mapping[str, Any]) -> dict[str, Any]:
    name = str(call["name"])
    return {**call, "name": tool_name(name), "arguments": map_arguments(name, call.get("arguments") or {})}


# ---------------------------------------------------------------- schemas


def _rewrite_enum(spec: P, node: dict[str, Any]) -> None:
    new = [spec.values[v] for v in node["enum"]]  # type: ignore[index]
    if all(isinstance(v, bool) for v in new):  # a two-value enum becomes a boolean
        del node["enum"]
        node["type"] = "boolean"
    elif spec.scale:  # an ordered enum becomes an integer scale
        del node["enum"]
        node.update(type="integer", minimum=min(new), maximum=max(new))
    else:
        node["enum"] = new
        node["type"] = "integer" if all(isinstance(v, int) for v in new) else "string"


def map_schema(tool: str, param: str, prop: Mapping[str, Any]) -> dict[str, Any]:
    """The foreign JSON Schema of one parameter (description, enum, bounds and default rewritten)."""
    spec = _param(tool, param)
    out = copy.deepcopy(dict(prop))
    out["description"] = spec.description
    items = out.get("items") if out.get("type") == "array" else None
    if isinstance(items, dict) and "description" in items:
        items["description"] = "one of them"
    if spec.values is not None:
        _rewrite_enum(spec, items if isinstance(items, dict) and "enum" in items else out)
    elif spec.factor is not None:
        for key in ("minimum", "maximum"):
            if key in out:
                out[key] = _scaled(out[key], spec.factor)
        if spec.factor.denominator != 1:
            out["type"] = "number"
    if "default" in out:
        out["default"] = map_value(tool, param, out["default"])
    return out


def map_tool(task_tool: Mapping[str, Any]) -> dict[str, Any]:
    """A ``task.tools`` item rewritten: name, description and parameters."""
    name = str(task_tool["name"])
    spec = _tool(name)
    params = copy.deepcopy(dict(task_tool.get("parameters") or {}))
    props = params.get("properties") or {}
    params["properties"] = {param_name(name, k): map_schema(name, k, v) for k, v in props.items()}
    if "required" in params:
        params["required"] = [param_name(name, k) for k in params["required"]]
    return {**task_tool, "name": spec.name, "description": spec.description, "parameters": params}


# ---------------------------------------------------------------- checks and histories


def _split(target: str) -> tuple[str, str, str]:
    tool, _, path = target.partition(".")
    param, dot, rest = path.partition(".")
    return tool, param, dot + rest


def map_check(check: Mapping[str, Any]) -> dict[str, Any]:
    """A check against the foreign tools: target renamed, expected values and bounds mapped."""
    out = copy.deepcopy(dict(check))
    kind, expect = out["kind"], out.get("expect") or {}
    if kind == "tool_called":
        expect["name"] = tool_name(expect["name"])
        return out
    if not kind.startswith("param_"):
        return out
    tool, param, rest = _split(str(out["target"]))
    out["target"] = f"{tool_name(tool)}.{param_name(tool, param)}{rest}"
    spec = _param(tool, param)
    free_text = spec.values is None and not spec.invert and spec.factor is None
    if rest or free_text:  # a nested path or free text: the expected words stay as they are
        return out
    for key in ("in", "not_in", "any", "none"):
        if key in expect:
            mapped = [map_value(tool, param, v) for v in expect[key]]
            expect[key] = list(dict.fromkeys(mapped))
    for key in ("min", "max"):
        if key in expect:
            expect[key] = map_value(tool, param, expect[key])
    return out


def _map_turn(turn: Mapping[str, Any]) -> dict[str, Any]:
    call = turn.get("tool_call")
    if not call:
        return dict(turn)
    new = map_call(call)
    out = {**turn, "tool_call": new}
    text = str(turn.get("text", ""))
    old_name = str(call["name"])
    _, arrow, outcome = text.rpartition(" -> ")
    if text.startswith(old_name + " ") and arrow:  # the generator's "name {args} -> status ref"
        body = json.dumps(new["arguments"], ensure_ascii=False, separators=(", ", ": "))
        out["text"] = f"{new['name']} {body} -> {outcome}"
    else:
        out["text"] = text.replace(old_name, new["name"])
    return out


_REF = re.compile(r"\b[A-Z]{2,4}-[0-9A-F]{8}\b")


def _map_session(session: Mapping[str, Any]) -> dict[str, Any]:
    """A session's turns rewritten; a call's confirmation ("BOOK-1A2B3C4D", whose prefix names
    the canonical tool) takes the foreign tool's prefix wherever the session mentions it."""
    turns = [_map_turn(t) for t in session["turns"]]
    refs: dict[str, str] = {}
    for turn in turns:
        call = turn.get("tool_call")
        if call:
            prefix = "".join(re.findall(r"^[a-z]|[A-Z]", call["name"]))[:4].upper()  # hailCab: HC
            for ref in _REF.findall(str(turn.get("text", ""))):
                refs[ref] = f"{prefix}-{ref.split('-')[1]}"
    if refs:
        for turn in turns:
            turn["text"] = _REF.sub(lambda m: refs.get(m.group(0), m.group(0)), str(turn.get("text", "")))
    return {**session, "turns": turns}


def map_history(history: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    return [_map_session(s) for s in history]


def foreign_task(task: Mapping[str, Any], *, past_calls: bool = True) -> dict[str, Any]:
    """The task with every tool rewritten (a new dict; ``task`` is left as it was); with
    ``past_calls=False`` the history's calls stay as they were (the ``foreign-fresh`` variant)."""
    variant = VARIANT if past_calls else FRESH
    out = copy.deepcopy(dict(task))
    out["suite"] = f"{task['suite']}+{variant}"
    if out.get("history") and past_calls:
        out["history"] = map_history(out["history"])
    spec = out["task"]
    if spec.get("tools"):
        spec["tools"] = [map_tool(t) for t in spec["tools"]]
    out["checks"] = [map_check(c) for c in out.get("checks", [])]
    gold = out.get("gold") or {}
    if gold.get("action"):
        gold["action"] = map_call(gold["action"])
    out["meta"] = {**(out.get("meta") or {}), "variant": variant}
    return out


def foreign_suite(tasks: Iterable[Mapping[str, Any]]) -> Iterator[dict[str, Any]]:
    for task in tasks:
        yield foreign_task(task)
