"""Score one agent output against a task's checks, deterministically (judges optional).

Rules every check follows:

- String comparisons ignore case and surrounding/repeated whitespace; a string that reads as a
  number compares equal to that number (``"2" == 2``).
- ``target`` is ``TOOL.PARAM`` for ``param_*`` kinds; PARAM may be a dotted path into nested
  objects (``flight.passengers.0.seat``); a path step over a list without an index maps over its
  items, and a list-valued parameter contributes each of its items as a value.
- A ``param_*`` or ``tool_called`` check fails when the named tool was not called. When the tool
  was called but the parameter is absent (or null), the positive kinds (``param_in``,
  ``param_range``, ``param_contains_any``) fail and the negative kinds (``param_not_in``,
  ``param_contains_none``) pass: leaving a parameter out does not violate a prohibition.
- ``text_*`` checks fail when the output has no text.
- ``judge`` checks are scored only by a panel of judges; without one they are *unscored*, never
  guessed, and left out of the score.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from datetime import date, time
from typing import Any

from bench.results import FAIL, PASS, UNSCORED, CheckResult
from memory.types import parse_time

# The shape of ``expect`` for each kind (JSON Schema); the validator checks suites against these.
_STR_LIST = {"type": "array", "items": {"type": "string"}, "minItems": 1}
_ANY_LIST = {"type": "array", "minItems": 1}
_BOUND = {"type": ["number", "string"]}
EXPECT_SCHEMAS: dict[str, dict[str, Any]] = {
    "tool_called": {"type": "object", "required": ["name"], "properties": {"name": {"type": "string"}}},
    "param_in": {"type": "object", "required": ["in"], "properties": {"in": _ANY_LIST}},
    "param_not_in": {"type": "object", "required": ["not_in"], "properties": {"not_in": _ANY_LIST}},
    "param_range": {
        "type": "object",
        "properties": {"min": _BOUND, "max": _BOUND},
        "anyOf": [{"required": ["min"]}, {"required": ["max"]}],
    },
    "param_contains_any": {"type": "object", "required": ["any"], "properties": {"any": _STR_LIST}},
    "param_contains_none": {"type": "object", "required": ["none"], "properties": {"none": _STR_LIST}},
    "text_max_words": {
        "type": "object",
        "required": ["max"],
        "properties": {"max": {"type": "integer", "minimum": 0}},
    },
    "text_min_words": {
        "type": "object",
        "required": ["min"],
        "properties": {"min": {"type": "integer", "minimum": 0}},
    },
    "text_contains_any": {"type": "object", "required": ["any"], "properties": {"any": _STR_LIST}},
    "text_contains_none": {"type": "object", "required": ["none"], "properties": {"none": _STR_LIST}},
    "text_format": {
        "type": "object",
        "required": ["format"],
        "properties": {"format": {"enum": ["bullets", "numbered", "prose"]}},
    },
}
CHECK_KINDS: tuple[str, ...] = (*EXPECT_SCHEMAS, "judge")
PARAM_KINDS = tuple(k for k in CHECK_KINDS if k.startswith("param_"))
TEXT_KINDS = tuple(k for k in CHECK_KINDS if k.startswith("text_"))


@dataclass
class TaskScore:
    """Per-check results and the task's scores; ``soft`` is 0-100, ``None`` when nothing was scored."""

    task_id: str
    domain: str
    scenario: str
    task_type: str
    checks: list[CheckResult] = field(default_factory=list)
    error: str | None = None
    judge_calls: int = 0

    def _soft(self, dynamic: bool | None) -> float | None:
        picked = [c for c in self.checks if c.scored and (dynamic is None or c.dynamic == dynamic)]
        if not picked:
            return None
        return 100.0 * sum(c.status == PASS for c in picked) / len(picked)

    def _strict(self, dynamic: bool | None) -> bool | None:
        picked = [c for c in self.checks if c.scored and (dynamic is None or c.dynamic == dynamic)]
        return all(c.status == PASS for c in picked) if picked else None

    @property
    def soft(self) -> float | None:
        return 0.0 if self.error else self._soft(None)

    @property
    def strict(self) -> bool | None:
        return False if self.error else self._strict(None)

    def to_dict(self) -> dict[str, Any]:
        return {
            "task_id": self.task_id,
            "domain": self.domain,
            "scenario": self.scenario,
            "task_type": self.task_type,
            "soft": self.soft,
            "strict": self.strict,
            "soft_static": self._soft(False),
            "soft_dynamic": self._soft(True),
            "strict_static": self._strict(False),
            "strict_dynamic": self._strict(True),
            "error": self.error,
            "judge_calls": self.judge_calls,
            "checks": [asdict(c) for c in self.checks],
        }


# ---------------------------------------------------------------- output normalisation


def normalize_output(output: Any) -> tuple[str | None, list[dict[str, Any]]]:
    """Accept a mapping or an object with ``text`` and ``tool_call``/``tool_calls``."""

    def get(name: str) -> Any:
        if isinstance(output, Mapping):
            return output.get(name)
        return getattr(output, name, None)

    text = get("text")
    calls: list[dict[str, Any]] = []
    raw = list(get("tool_calls") or [])
    if get("tool_call") is not None:
        raw.insert(0, get("tool_call"))
    for call in raw:
        if isinstance(call, Mapping):
            name, args = call.get("name"), call.get("arguments")
        else:
            name, args = getattr(call, "name", None), getattr(call, "arguments", None)
        if isinstance(args, str):
            try:
                args = json.loads(args)
            except json.JSONDecodeError:
                args = {}
        calls.append({"name": str(name or ""), "arguments": args if isinstance(args, Mapping) else {}})
    return (str(text) if text is not None else None), calls


# ---------------------------------------------------------------- value helpers


def _fold(text: str) -> str:
    return " ".join(text.split()).casefold()


def _as_number(value: Any) -> float | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        return float(value) if math.isfinite(value) else None
    if isinstance(value, str):
        try:
            number = float(value.strip())
        except ValueError:
            return None
        return number if math.isfinite(number) else None
    return None


def _key(value: Any) -> tuple[str, Any]:
    """A comparable identity: numbers by value, strings folded, structures as canonical JSON."""
    if isinstance(value, bool):
        return ("bool", value)
    number = _as_number(value)
    if number is not None:
        return ("num", number)
    if isinstance(value, str):
        return ("str", _fold(value))
    if value is None:
        return ("null", None)
    return ("json", _fold(json.dumps(value, sort_keys=True, default=str)))


_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
_TIME = re.compile(r"\d{1,2}:\d{2}(:\d{2}(\.\d+)?)?")


def _orderable(value: Any) -> tuple[str, Any] | None:
    """A number, or an ISO date / time / date-time string, as something ``<`` can compare."""
    number = _as_number(value)
    if number is not None:
        return ("num", number)
    if not isinstance(value, str):
        return None
    text = value.strip()
    try:
        if _DATE.fullmatch(text):
            return ("date", date.fromisoformat(text))
        if _TIME.fullmatch(text):
            return ("time", time.fromisoformat(text.zfill(len(text) + (text.index(":") == 1))))
        return ("datetime", parse_time(text))
    except ValueError:
        return None


def _comparable(a: tuple[str, Any], b: tuple[str, Any]) -> tuple[Any, Any] | None:
    """The two values in one comparable type (a date-time meets a date on its date), else None."""
    if a[0] == b[0]:
        return a[1], b[1]
    if {a[0], b[0]} == {"date", "datetime"}:
        left = a[1].date() if a[0] == "datetime" else a[1]
        right = b[1].date() if b[0] == "datetime" else b[1]
        return left, right
    return None


_MISSING = object()


def _values_at(obj: Any, parts: Sequence[str]) -> list[Any]:
    """All values found at a dotted path; list steps without an index map over the items."""
    if not parts:
        return [obj]
    head, rest = parts[0], parts[1:]
    if isinstance(obj, Mapping):
        if head in obj:
            return _values_at(obj[head], rest)
        for key in obj:
            if str(key).casefold() == head.casefold():
                return _values_at(obj[key], rest)
        return []
    if isinstance(obj, list):
        if head.lstrip("-").isdigit():
            index = int(head)
            return _values_at(obj[index], rest) if -len(obj) <= index < len(obj) else []
        found: list[Any] = []
        for item in obj:
            found.extend(_values_at(item, parts))
        return found
    return []


def _param_values(arguments: Mapping[str, Any], path: str) -> Any:
    """The flattened values at ``path``, or ``_MISSING`` when absent or null."""
    raw = _values_at(arguments, [p for p in path.split(".") if p])
    values: list[Any] = []
    for value in raw:
        if isinstance(value, list):
            values.extend(v for v in value if v is not None)
        elif value is not None:
            values.append(value)
    if not raw or all(v is None for v in raw):
        return _MISSING
    return values


def _term_pattern(term: str) -> re.Pattern[str]:
    """Match ``term`` case-insensitively, as whole words where it starts/ends with a letter or digit."""
    body = r"\s+".join(re.escape(part) for part in term.split())
    if term[:1].isalnum():
        body = r"(?<![^\W_])" + body
    if term[-1:].isalnum():
        body += r"(?![^\W_])"
    return re.compile(body, re.IGNORECASE)


def _contains(haystack: str, term: str) -> bool:
    return bool(term.strip()) and _term_pattern(term.strip()).search(haystack) is not None


def _leaf_strings(value: Any) -> list[str]:
    if isinstance(value, Mapping):
        return [s for v in value.values() for s in _leaf_strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in _leaf_strings(v)]
    return [] if value is None else [str(value)]


# ---------------------------------------------------------------- text measures

_WORD = re.compile(r"[^\W_]+(?:['’\-][^\W_]+)*")
_BULLET = re.compile(r"^ {0,3}[-*+•‣◦–]\s+\S")
_NUMBERED = re.compile(r"^ {0,3}\(?\d{1,3}[.)]\s+\S")
_HEADING = re.compile(r"^ {0,3}#{1,6}\s")


def count_words(text: str) -> int:
    """Words are runs of letters/digits, joined by inner apostrophes or hyphens; list markers are not words."""
    return len(_WORD.findall(text))


def text_layout(text: str) -> dict[str, int]:
    """Count the lines and words of ``text`` by kind: bullet items, numbered items, headings, other.

    Blank lines are ignored. An item is a line starting (after at most 3 spaces) with a bullet
    marker (``- * + • ‣ ◦ –``) or a number (``1.``, ``2)``, ``(3)``) and a space. A line indented by
    2+ spaces or a tab right after an item (or its continuation) belongs to that item. A heading is
    a Markdown ``#`` line. Everything else is "other" (greetings, lead-ins, sign-offs, prose).
    """
    counts = {k: 0 for k in ("bullets", "numbered", "headings", "other")}
    words = dict.fromkeys(counts, 0)
    current = None  # the item kind a continuation line belongs to
    for line in text.splitlines():
        if not line.strip():
            continue
        if current and line.startswith(("  ", "\t")):
            words[current] += count_words(line)
            continue
        if _BULLET.match(line):
            kind = current = "bullets"
        elif _NUMBERED.match(line):
            kind = current = "numbered"
        else:
            kind, current = ("headings" if _HEADING.match(line) else "other"), None
        counts[kind] += 1
        words[kind] += count_words(line)
    return {**counts, **{f"{k}_words": v for k, v in words.items()}}


def check_format(text: str, wanted: str) -> tuple[bool, str]:
    """``bullets`` / ``numbered``: at least 2 items of that kind, no item of the other kind, and the
    items hold at least half of the words (a greeting, a lead-in and a sign-off are fine; a long
    text with a short list inside is not). ``prose``: some words, no list items, no headings."""
    layout = text_layout(text)
    total = sum(layout[f"{k}_words"] for k in ("bullets", "numbered", "headings", "other"))
    seen = (
        f"{layout['bullets']} bullet items, {layout['numbered']} numbered items, "
        f"{layout['headings']} headings, {layout['other']} other lines"
    )
    if wanted == "prose":
        ok = layout["bullets"] == layout["numbered"] == layout["headings"] == 0 and total > 0
        return ok, f"prose wanted; found {seen}"
    other_kind = "numbered" if wanted == "bullets" else "bullets"
    items, share = layout[wanted], layout[f"{wanted}_words"] / total if total else 0.0
    ok = items >= 2 and layout[other_kind] == 0 and share >= 0.5
    return ok, f"{wanted} wanted; found {seen}; {share:.0%} of the words in {wanted} items"


# ---------------------------------------------------------------- the checks


def _target_tool(target: str) -> tuple[str, str]:
    tool, _, path = target.partition(".")
    return tool.strip(), path.strip()


def _find_call(calls: list[dict[str, Any]], tool: str) -> dict[str, Any] | None:
    for call in calls:
        if call["name"].casefold() == tool.casefold():
            return call
    return None


def _called(calls: list[dict[str, Any]]) -> str:
    return ", ".join(repr(c["name"]) for c in calls) or "no tool"


def _check_param(
    kind: str, target: str, expect: Mapping[str, Any], calls: list[dict[str, Any]]
) -> tuple[bool, str]:
    tool, path = _target_tool(target)
    call = _find_call(calls, tool)
    if call is None:
        return False, f"{tool!r} was not called ({_called(calls)} called)"
    values = _param_values(call["arguments"], path)
    shown = "absent" if values is _MISSING else json.dumps(values, default=str, ensure_ascii=False)[:200]
    if kind == "param_in":
        allowed = {_key(v) for v in expect["in"]}
        if values is _MISSING or not values:
            return False, f"{path} is {shown}"
        bad = [v for v in values if _key(v) not in allowed]
        return not bad, f"{path} = {shown}" + (f"; not allowed: {bad}" if bad else "")
    if kind == "param_not_in":
        if values is _MISSING:
            return True, f"{path} absent"
        forbidden = {_key(v) for v in expect["not_in"]}
        bad = [v for v in values if _key(v) in forbidden]
        return not bad, f"{path} = {shown}" + (f"; forbidden: {bad}" if bad else "")
    if kind == "param_range":
        if values is _MISSING or not values:
            return False, f"{path} is {shown}"
        low, high = _orderable(expect.get("min")), _orderable(expect.get("max"))
        for value in values:
            point = _orderable(value)
            for bound, name in ((low, "min"), (high, "max")):
                if bound is None and expect.get(name) is not None:
                    return False, f"bound {name}={expect[name]!r} is not a number, date or time"
                if bound is None:
                    continue
                pair = _comparable(point, bound) if point is not None else None
                if pair is None:
                    return False, f"{path} = {value!r} cannot be compared with {name}={expect[name]!r}"
                if (name == "min" and pair[0] < pair[1]) or (name == "max" and pair[0] > pair[1]):
                    return False, f"{path} = {value!r} is outside [{expect.get('min')}, {expect.get('max')}]"
        return True, f"{path} = {shown} within [{expect.get('min')}, {expect.get('max')}]"
    strings = [] if values is _MISSING else _leaf_strings(values)
    if kind == "param_contains_any":
        hits = [t for t in expect["any"] if any(_contains(s, t) for s in strings)]
        return bool(hits), f"{path} = {shown}; " + (
            f"contains {hits}" if hits else "contains none of the terms"
        )
    # param_contains_none
    hits = [t for t in expect["none"] if any(_contains(s, t) for s in strings)]
    return not hits, f"{path} = {shown}; " + (f"contains {hits}" if hits else "contains none of them")


def _check_text(kind: str, expect: Mapping[str, Any], text: str) -> tuple[bool, str]:
    if kind == "text_max_words":
        words = count_words(text)
        return words <= int(expect["max"]), f"{words} words (max {expect['max']})"
    if kind == "text_min_words":
        words = count_words(text)
        return words >= int(expect["min"]), f"{words} words (min {expect['min']})"
    if kind == "text_contains_any":
        hits = [t for t in expect["any"] if _contains(text, t)]
        return bool(hits), f"contains {hits}" if hits else f"contains none of {expect['any']}"
    if kind == "text_contains_none":
        hits = [t for t in expect["none"] if _contains(text, t)]
        return not hits, f"contains {hits}" if hits else "contains none of the terms"
    return check_format(text, str(expect["format"]))


def evaluate_check(check: Mapping[str, Any], text: str | None, calls: list[dict[str, Any]]) -> CheckResult:
    """One deterministic check (``judge`` checks come back unscored: see ``evaluate_task``)."""
    kind = str(check.get("kind"))
    result = CheckResult(
        id=str(check.get("id", "")),
        kind=kind,
        status=UNSCORED,
        reason="",
        dynamic=bool(check.get("dynamic", False)),
        dimension=check.get("dimension"),
    )
    expect = check.get("expect") or {}
    if kind == "judge":
        result.reason = "no judge configured"
        return result
    if kind == "tool_called":
        name = str(expect.get("name") or _target_tool(str(check.get("target", "")))[0])
        ok = _find_call(calls, name) is not None
        reason = f"{name!r} called" if ok else f"{name!r} not called ({_called(calls)} called)"
    elif kind in PARAM_KINDS:
        ok, reason = _check_param(kind, str(check.get("target", "")), expect, calls)
    elif kind in TEXT_KINDS:
        if text is None or not text.strip():
            ok, reason = False, "the output has no text"
        else:
            ok, reason = _check_text(kind, expect, text)
    else:
        ok, reason = False, f"unknown check kind {kind!r}"
    result.status, result.reason = (PASS if ok else FAIL), reason
    return result


def evaluate_task(task: Mapping[str, Any], output: Any, *, judges: Sequence[Any] | None = None) -> TaskScore:
    """Score ``output`` (text and/or tool call) on every check of ``task``."""
    text, calls = normalize_output(output)
    score = _empty_score(task)
    for check in task.get("checks", []):
        result = evaluate_check(check, text, calls)
        if result.kind == "judge" and judges:
            from bench.judges import judge_check

            result, used = judge_check(check, task, text, calls, judges)
            score.judge_calls += used
        score.checks.append(result)
    return score


def score_error(task: Mapping[str, Any], error: str) -> TaskScore:
    """A task whose agent raised: every check fails with the error, so soft is 0 and strict False."""
    score = _empty_score(task)
    score.error = error
    for check in task.get("checks", []):
        score.checks.append(
            CheckResult(
                id=str(check.get("id", "")),
                kind=str(check.get("kind")),
                status=FAIL,
                reason=f"task failed: {error}",
                dynamic=bool(check.get("dynamic", False)),
                dimension=check.get("dimension"),
            )
        )
    return score


def _empty_score(task: Mapping[str, Any]) -> TaskScore:
    return TaskScore(
        task_id=str(task.get("id", "")),
        domain=str(task.get("domain", "")),
        scenario=str(task.get("scenario", "")),
        task_type=str(task.get("task_type", "")),
    )
