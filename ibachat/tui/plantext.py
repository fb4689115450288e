"""An alignment plan (``AlignmentPlan.to_dict()``) as titled lists of lines, for the TUI and the REPL."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

SIGN = {1: "+", -1: "-", 0: "~"}


def words(value: Any) -> str:
    if isinstance(value, (list, tuple)):
        return ", ".join(str(v) for v in value)
    if isinstance(value, dict):
        return ", ".join(f"{k}={v}" for k, v in value.items())
    return "" if value is None else str(value)


def evidence_items(plan: dict[str, Any]) -> list[tuple[int, str, str]]:
    """(turn id, why it was kept, snippet) for each piece of evidence."""
    return [
        (int(e["turn_id"]), words(e.get("why")), str(e.get("snippet", "")))
        for e in plan.get("evidence") or []
    ]


def param_reasons(plan: dict[str, Any]) -> dict[str, str]:
    """The reason the plan gives for each tool parameter it has a directive for."""
    return {name: str(p.get("reason")) for name, p in (plan.get("params") or {}).items() if p.get("reason")}


def proposal_reasons(reply: Any) -> dict[str, str]:
    """Per parameter, the reason for its value: the proposal's own, else the plan's directive."""
    plan = reply.plan.to_dict() if getattr(reply, "plan", None) is not None else {}
    return {**param_reasons(plan), **(reply.proposal.get("reasons") or {})}


def _preference(p: dict[str, Any]) -> str:
    since = str(p.get("valid_from") or "")[:10]
    until = str(p.get("valid_until") or "")[:10]
    when = f"{since}..{until}" if until else f"since {since}"
    line = f"{SIGN.get(p.get('polarity', 1), '+')}{p.get('dimension')} = {p.get('value')} ({p.get('kind')}, {when})"
    note = p.get("note") or p.get("subject")
    return line + (f": {note}" if note else "")


def _params(params: dict[str, Any]) -> Iterable[str]:
    for name, p in params.items():
        bits = []
        if p.get("chosen") is not None:
            bits.append(f"use {words(p['chosen'])}")
        if p.get("allowed"):
            bits.append(f"allowed {words(p['allowed'])}")
        if p.get("avoid"):
            bits.append(f"never {words(p['avoid'])}")
        if p.get("maximum") is not None:
            bits.append(f"at most {p['maximum']}")
        if p.get("minimum") is not None:
            bits.append(f"at least {p['minimum']}")
        if bits:
            reason = f" ({p['reason']})" if p.get("reason") else ""
            yield f"{name}: " + ", ".join(bits) + reason


def _text(text: dict[str, Any] | None) -> Iterable[str]:
    if not text:
        return
    if text.get("tone"):
        yield "tone: " + words(text["tone"])
    if text.get("max_words"):
        yield f"length: at most {text['max_words']} words"
    if text.get("min_words"):
        yield f"length: at least {text['min_words']} words"
    if text.get("structure"):
        yield f"structure: {text['structure']}"
    if text.get("avoid_words"):
        yield "never use: " + words(text["avoid_words"])
    if text.get("use_words"):
        yield "use: " + words(text["use_words"])
    if text.get("no_emoji"):
        yield "no emoji"
    for note in text.get("notes") or []:
        yield f"keep in mind: {note}"


def plan_sections(plan: dict[str, Any]) -> list[tuple[str, list[str]]]:
    """The non-empty sections after the evidence: preferences applied, conflicts, directives, left out."""
    prefs = plan.get("preferences") or []
    applied = [_preference(p) for p in prefs if p.get("status") == "active"]
    left_out = [f"{p.get('status')}: {_preference(p)}" for p in prefs if p.get("status") != "active"]
    conflicts = [
        f"{c.get('key')}: {c.get('how')}" + (f" ({c['why']})" if c.get("why") else "")
        for c in plan.get("conflicts") or []
    ]
    directives = list(_params(plan.get("params") or {})) + list(_text(plan.get("text")))
    sections = [
        ("Preferences applied", applied),
        ("Conflicts resolved", conflicts),
        ("Directives", directives),
        ("Asked before acting", [str(q) for q in plan.get("clarifications") or []]),
        ("Left out", left_out),
    ]
    return [(title, lines) for title, lines in sections if lines]
