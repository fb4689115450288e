"""A panel of chat models grading an answer against a rubric (``judge`` checks of a suite)."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from bench.results import FAIL, PASS, UNSCORED, CheckResult
from ibachat.errors import IbachatError
from ibachat.llm.base import Message

JUDGE_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"pass": {"type": "boolean"}, "reason": {"type": "string"}},
    "required": ["pass", "reason"],
}
_JUDGE_SYSTEM = (
    "You grade one answer of a personal assistant against a rubric. Judge only what the rubric asks. "
    'Reply with JSON only: {"pass": true or false, "reason": "one short sentence"}.'
)


def _judge_prompt(
    check: Mapping[str, Any], task: Mapping[str, Any], text: str | None, calls: list[dict[str, Any]]
) -> str:
    shown = text if text is not None else ""
    if calls:
        shown += ("\n" if shown else "") + "Tool calls: " + json.dumps(calls, ensure_ascii=False, default=str)
    prompt = (task.get("task") or {}).get("prompt", "")
    return f"User request:\n{prompt}\n\nRubric:\n{check.get('rubric', '')}\n\nAssistant output:\n{shown or '(empty)'}"


def judge_check(
    check: Mapping[str, Any],
    task: Mapping[str, Any],
    text: str | None,
    calls: list[dict[str, Any]],
    judges: Sequence[Any],
) -> tuple[CheckResult, int]:
    """Ask every judge; a verdict needs more than half the panel. Returns the result and calls made.

    A judge that fails or answers off-schema abstains; without a majority the check is unscored.
    """
    messages = [Message("system", _JUDGE_SYSTEM), Message("user", _judge_prompt(check, task, text, calls))]
    votes: list[bool] = []
    notes: list[str] = []
    for index, judge in enumerate(judges):
        name = getattr(judge, "name", f"judge{index}")
        try:
            verdict = judge.complete(messages, schema=JUDGE_SCHEMA, max_tokens=200, temperature=0.0).json()
        except IbachatError as exc:
            notes.append(f"{name}: abstained ({exc})")
            continue
        if not isinstance(verdict, dict) or not isinstance(verdict.get("pass"), bool):
            notes.append(f"{name}: abstained (reply not {{pass: bool, reason}})")
            continue
        votes.append(verdict["pass"])
        notes.append(
            f"{name}: {'pass' if verdict['pass'] else 'fail'} ({str(verdict.get('reason', ''))[:200]})"
        )
    half = len(judges) / 2
    yes, no = sum(votes), len(votes) - sum(votes)
    status = PASS if yes > half else FAIL if no > half else UNSCORED
    result = CheckResult(
        id=str(check.get("id", "")),
        kind="judge",
        status=status,
        reason=f"{yes} pass / {no} fail of {len(judges)} judges; " + "; ".join(notes),
        dynamic=bool(check.get("dynamic", False)),
        dimension=check.get("dimension"),
    )
    return result, len(judges)
