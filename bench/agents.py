"""The agents IBA-Bench compares, and the models they and the judges run on.

Each agent turns (task, memory, now) into a text or a tool call:

- ``iba``: the IBA-Agent planner (deep retrieval, alignment, synthesis); ablations switch one off.
- ``rag``: one query (the task), top-k hybrid evidence pasted into the prompt, then act, no alignment.
- ``full``: the whole history in the prompt, newest turns kept when it exceeds the model's window.
- ``none``: the task alone, no memory.

With a chat model, ``full`` and ``none`` are single model calls (no planner). Without one, every
agent runs on the planner's deterministic floor in its mode (``none``: nothing remembered;
``full``: the recent history pasted, no retrieval or alignment), so they compare like for like.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any, Protocol

from ibachat.errors import ConfigError, ModelOutputError
from ibachat.llm.base import LLM, Chunk, Message, ToolSpec
from memory.embedders.base import Embedder

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
    """The project's planner in the agent's mode: ``iba`` (optionally ablated) and ``rag``; and
    ``none``/``full`` when no chat model is given, so that all four compare on the same floor."""

    def __init__(self, llm: Any = None, *, mode: str = "iba", ablate: str | None = None) -> None:
        if mode not in AGENTS:
            raise ConfigError(f"the planner agent runs in mode {', '.join(AGENTS)}, not {mode!r}")
        self.uses_memory = mode != "none"
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
        # the one action path, exactly as chat runs it (with the task's own tools on offer)
        outcome = planner.act(spec["prompt"], now=now, tools=list(spec.get("tools") or []))
        call = _call_dict(getattr(outcome, "tool_call", None))
        text = getattr(outcome, "text", None)
        info = _plan_info(outcome)
        route = getattr(outcome, "route", None)
        if route is not None:
            info["route"] = route.kind
        question = getattr(outcome, "question", None)
        if question:
            info["clarify"] = question  # what the user would be asked before the call runs
        if call is None and not text and question:
            text = question  # a question back (which tool, which day) is what the user sees
        tool_call = getattr(outcome, "tool_call", None)
        if tool_call is not None and call is not None:
            info["reasons"] = dict(getattr(tool_call, "reasons", {}) or {})
            info["sources"] = {k: asdict(v) for k, v in (getattr(tool_call, "sources", {}) or {}).items()}
            info["request"] = spec["prompt"]
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


# ---------------------------------------------------------------- what agents and judges run on


class MeteredLLM(LLM):
    """Wraps a chat model to count calls, tokens and the time spent in it."""

    def __init__(self, inner: LLM) -> None:
        self.inner = inner
        self.name = getattr(inner, "name", "llm")
        self.can_stream = inner.can_stream
        self.supports_schema = inner.supports_schema
        self.supports_tools = inner.supports_tools
        if hasattr(inner, "n_ctx"):
            self.n_ctx = inner.n_ctx
        self.reset()

    def reset(self) -> dict[str, float]:
        old = dict(getattr(self, "usage", {}))
        self.usage: dict[str, float] = {"calls": 0, "prompt_tokens": 0, "completion_tokens": 0, "ms": 0.0}
        return old

    def chat(
        self,
        messages: Sequence[Message],
        *,
        schema: dict[str, Any] | None = None,
        tools: Sequence[ToolSpec] | None = None,
        max_tokens: int = 512,
        temperature: float = 0.0,
        timeout: float | None = None,
    ) -> Iterator[Chunk]:
        self.usage["calls"] += 1
        start = time.perf_counter()
        try:
            stream = self.inner.chat(
                messages,
                schema=schema,
                tools=tools,
                max_tokens=max_tokens,
                temperature=temperature,
                timeout=timeout,
            )
            for chunk in stream:
                if chunk.done:
                    self.usage["prompt_tokens"] += chunk.prompt_tokens
                    self.usage["completion_tokens"] += chunk.completion_tokens
                yield chunk
        finally:
            self.usage["ms"] += 1000 * (time.perf_counter() - start)

    def close(self) -> None:
        self.inner.close()


class SharedCacheEmbedder(Embedder):
    """An embedder backed by one persistent embedding cache, read once per process.

    Each task's fresh store keeps its own small cache; this one lets a history shared by many
    tasks be embedded once for the whole suite, without every store re-reading the big file.
    """

    def __init__(self, inner: Embedder, folder: Path) -> None:
        from memory.embedcache import EmbeddingCache

        self.inner = inner
        self.model_id, self.ndim = inner.model_id, inner.ndim
        self.cache = EmbeddingCache(folder, inner.model_id, inner.ndim)

    def load(self) -> None:
        self.inner.load()

    def embed_batch(self, texts: Sequence[str]) -> Any:
        return self.cache.embed_with(self.inner, list(texts))


# ---------------------------------------------------------------- choosing an agent


def make_agent(
    name: str, llm: Any = None, *, ablate: str | None = None, window_tokens: int | None = None
) -> Agent:
    """The agent called ``name`` (one of AGENTS) over chat model ``llm`` (None: no model)."""
    if name not in AGENTS:
        raise ConfigError(f"unknown agent {name!r}: use one of {', '.join(AGENTS)}")
    if ablate is not None and name != "iba":
        raise ConfigError(f"--ablate applies to the iba agent only, not {name!r}")
    if name in ("iba", "rag") or llm is None:
        return PlannerAgent(llm, mode=name, ablate=ablate)
    return ContextAgent(llm, full=name == "full", window_tokens=window_tokens)
