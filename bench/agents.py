"""The agents IBA-Bench compares. Each turns (task, memory, now) into a text or a tool call.

- ``iba``: the IBA-Agent planner (deep retrieval, alignment, synthesis); ablations switch one off.
- ``rag``: one query (the task), top-k hybrid evidence pasted into the prompt, then act, no alignment.
- ``full``: the whole history in the prompt, newest turns kept when it exceeds the model's window.
- ``none``: the task alone, no memory.

``full`` and ``none`` need a chat model; ``iba`` and ``rag`` run on the planner's deterministic
floor without one.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Protocol

from ibachat.errors import ConfigError, ModelOutputError

AGENTS = ("iba", "rag", "full", "none")
ABLATIONS = ("deep-retrieval", "alignment", "synthesis")
DEFAULT_WINDOW = 8192  # tokens, when the model does not say
ANSWER_TOKENS = 768
CHARS_PER_TOKEN = 4


@dataclass
class AgentOutput:
    text: str | None = None
    tool_call: dict[str, Any] | None = None  # {"name", "arguments"}
    info: dict[str, Any] = field(default_factory=dict)  # evidence ids, fallbacks, plan summary


class Agent(Protocol):
    name: str
    uses_memory: bool

    def act(self, task: Mapping[str, Any], memory: Any, *, now: datetime) -> AgentOutput: ...


def _call_dict(call: Any) -> dict[str, Any] | None:
    if call is None:
        return None
    if isinstance(call, Mapping):
        return {"name": str(call.get("name", "")), "arguments": dict(call.get("arguments") or {})}
    return {"name": str(call.name), "arguments": dict(call.arguments or {})}


def _plan_info(outcome: Any) -> dict[str, Any]:
    """What to keep of a planner outcome: evidence turn ids, preferences applied, fallbacks."""
    info: dict[str, Any] = {}
    counters = getattr(outcome, "counters", None)
    if counters is not None:
        info["fallbacks"] = list(getattr(counters, "fallbacks", []) or [])
    plan = getattr(outcome, "plan", None)
    evidence = getattr(plan, "evidence", None)
    items = getattr(evidence, "items", evidence)  # an Evidence, or the plan's list of EvidenceUse
    if isinstance(items, list):
        ids = [getattr(item, "turn_id", getattr(getattr(item, "turn", None), "id", None)) for item in items]
        info["evidence_ids"] = [i for i in ids if i is not None]
    prefs = getattr(plan, "preferences", None)
    if isinstance(prefs, list):
        info["preferences"] = [
            f"{getattr(p, 'target', '')}: {getattr(p, 'dimension', '')}={getattr(p, 'value', '')} ({getattr(p, 'status', '')})"
            for p in prefs[:30]
        ]
    return info


class PlannerAgent:
    """``iba`` (optionally ablated) and ``rag``: the project's planner in the matching mode."""

    uses_memory = True

    def __init__(self, llm: Any = None, *, mode: str = "iba", ablate: str | None = None) -> None:
        if mode not in ("iba", "rag"):
            raise ConfigError(f"the planner agent runs in mode iba or rag, not {mode!r}")
        if ablate is not None and (mode != "iba" or ablate not in ABLATIONS):
            raise ConfigError(
                f"ablation {ablate!r} applies to the iba agent only: one of {', '.join(ABLATIONS)}"
            )
        self.llm, self.mode, self.ablate = llm, mode, ablate
        self.name = mode if ablate is None else f"{mode}-no-{ablate}"

    def act(self, task: Mapping[str, Any], memory: Any, *, now: datetime) -> AgentOutput:
        from ibachat.agent.planner import Planner

        planner = Planner(memory, self.llm, mode=self.mode, ablate=self.ablate)
        spec = task["task"]
        outcome = planner.act(spec["prompt"], now=now, tools=list(spec.get("tools") or []))
        call = _call_dict(getattr(outcome, "tool_call", None))
        text = getattr(outcome, "text", None)
        info = _plan_info(outcome)
        questions = getattr(getattr(outcome, "plan", None), "clarifications", None) or []
        if call is None and not text and questions:
            text, info["clarify"] = (
                " ".join(map(str, questions)),
                True,
            )  # a question back is what the user sees
        return AgentOutput(text, call, info)


def _render_history(turns: Sequence[Any], budget_chars: int) -> tuple[str, int]:
    """The newest turns that fit ``budget_chars``, in time order; returns (text, turns dropped)."""
    lines: list[str] = []
    used = 0
    for turn in reversed(turns):
        line = f"[{turn.time:%Y-%m-%d %H:%M}] {turn.role}: {' '.join(turn.text.split())}"
        if used + len(line) + 1 > budget_chars:
            break
        lines.append(line)
        used += len(line) + 1
    return "\n".join(reversed(lines)), len(turns) - len(lines)


def action_schema(tools: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """JSON Schema of one call of one of ``tools``: ``{"name": TOOL, "arguments": {...}}``."""
    options = [
        {
            "type": "object",
            "properties": {
                "name": {"enum": [tool["name"]]},
                "arguments": tool.get("parameters") or {"type": "object"},
            },
            "required": ["name", "arguments"],
        }
        for tool in tools
    ]
    return options[0] if len(options) == 1 else {"anyOf": options}


class ContextAgent:
    """``full`` (whole history in the prompt) and ``none`` (no memory): one model call, no planner."""

    def __init__(self, llm: Any, *, full: bool, window_tokens: int | None = None) -> None:
        name = "full" if full else "none"
        if llm is None:
            raise ConfigError(f"the {name!r} agent needs a chat model: pass --model")
        self.llm, self.full, self.name = llm, full, name
        self.uses_memory = full
        self.window = int(window_tokens or getattr(llm, "n_ctx", None) or DEFAULT_WINDOW)

    def _messages(
        self, task: Mapping[str, Any], memory: Any, now: datetime
    ) -> tuple[list[Any], dict[str, Any]]:
        from ibachat.llm.base import Message

        spec = task["task"]
        tools = list(spec.get("tools") or [])
        system = f"You are a personal assistant. The current time is {now.isoformat()}."
        if tools:
            system += (
                " Fulfil the request by calling exactly one of these tools. Reply with JSON only: "
                '{"name": TOOL, "arguments": {...}}.\nTools:\n' + json.dumps(tools, ensure_ascii=False)
            )
        info: dict[str, Any] = {}
        if self.full and memory is not None:
            turns = list(memory.iter_turns(newest_first=False))
            spare = self.window - ANSWER_TOKENS - (len(system) + len(spec["prompt"])) // CHARS_PER_TOKEN - 64
            history, dropped = _render_history(turns, max(0, spare) * CHARS_PER_TOKEN)
            info.update(history_turns=len(turns) - dropped, history_dropped=dropped)
            system += (
                "\n\nEverything the user and you said before, oldest first. "
                "Use it to do what this user would want.\n" + history
            )
        return [Message("system", system), Message("user", spec["prompt"])], info

    def act(self, task: Mapping[str, Any], memory: Any, *, now: datetime) -> AgentOutput:
        messages, info = self._messages(task, memory, now)
        if not task["task"].get("tools"):
            reply = self.llm.complete(messages, max_tokens=ANSWER_TOKENS)
            return AgentOutput(reply.text.strip(), None, info)
        reply = self.llm.complete(
            messages, schema=action_schema(task["task"]["tools"]), max_tokens=ANSWER_TOKENS
        )
        if reply.tool_calls:
            return AgentOutput(reply.text or None, _call_dict(reply.tool_calls[0]), info)
        try:
            call = reply.json()
        except ModelOutputError as exc:
            info["fallbacks"] = [f"action: {exc}"]
            return AgentOutput(reply.text, None, info)
        if not isinstance(call, dict) or not isinstance(call.get("name"), str):
            info["fallbacks"] = ["action: reply is not {name, arguments}"]
            return AgentOutput(reply.text, None, info)
        args = call.get("arguments") if isinstance(call.get("arguments"), dict) else {}
        return AgentOutput(None, {"name": call["name"], "arguments": args}, info)


def make_agent(
    name: str, llm: Any = None, *, ablate: str | None = None, window_tokens: int | None = None
) -> Agent:
    """The agent called ``name`` (one of AGENTS) over chat model ``llm`` (None: no model)."""
    if name not in AGENTS:
        raise ConfigError(f"unknown agent {name!r}: use one of {', '.join(AGENTS)}")
    if ablate is not None and name != "iba":
        raise ConfigError(f"--ablate applies to the iba agent only, not {name!r}")
    if name in ("iba", "rag"):
        return PlannerAgent(llm, mode=name, ablate=ablate)
    return ContextAgent(llm, full=name == "full", window_tokens=window_tokens)
