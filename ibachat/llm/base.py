"""The chat-model interface: one streaming ``chat`` generator; ``complete`` is built on it."""

from __future__ import annotations

import json
from abc import ABC, abstractmethod
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from ibachat.errors import ModelOutputError


@dataclass
class Message:
    role: str  # system | user | assistant | tool
    content: str


@dataclass
class ToolSpec:
    name: str
    description: str
    parameters: dict[str, Any]  # JSON Schema of the arguments


@dataclass
class Chunk:
    """One piece of a streamed reply. The last chunk has ``done=True`` and the token counts."""

    text: str = ""
    done: bool = False
    tool_calls: list[dict[str, Any]] = field(default_factory=list)  # [{"name", "arguments"}]
    prompt_tokens: int = 0
    completion_tokens: int = 0


@dataclass
class Reply:
    text: str
    tool_calls: list[dict[str, Any]]
    prompt_tokens: int
    completion_tokens: int

    def json(self) -> Any:
        """Parse the reply as JSON, tolerating a fenced block; raises ModelOutputError."""
        return parse_json_reply(self.text)


def parse_json_reply(text: str) -> Any:
    raw = text.strip()
    if raw.startswith("```"):
        raw = raw.strip("`")
        if raw.startswith("json"):
            raw = raw[4:]
    if not raw:
        raise ModelOutputError("the model returned an empty reply")
    try:
        return json.loads(raw)
    except json.JSONDecodeError as exc:
        raise ModelOutputError(f"the model returned malformed JSON ({exc.msg} at char {exc.pos})") from exc


class LLM(ABC):
    """A chat model. Constructing one loads nothing; the first call loads or connects."""

    name: str = "llm"
    can_stream: bool = True
    supports_schema: bool = True
    supports_tools: bool = False
    capable: bool = False  # good enough for planner sub-steps (query expansion); not tiny embedded models

    @abstractmethod
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
        """Stream the reply. With ``schema`` the reply text is JSON valid under it."""

    def complete(self, messages: Sequence[Message], **kwargs: Any) -> Reply:
        text: list[str] = []
        calls: list[dict[str, Any]] = []
        prompt_tokens = completion_tokens = 0
        for chunk in self.chat(messages, **kwargs):
            text.append(chunk.text)
            calls.extend(chunk.tool_calls)
            if chunk.done:
                prompt_tokens, completion_tokens = chunk.prompt_tokens, chunk.completion_tokens
        return Reply("".join(text), calls, prompt_tokens, completion_tokens)

    def close(self) -> None:  # noqa: B027 - optional
        """Release the model (threads, memory)."""


def openai_request(
    messages: Sequence[Message], *, schema: dict[str, Any] | None, max_tokens: int, temperature: float
) -> dict[str, Any]:
    """A streamed chat request in the OpenAI shape, as llama.cpp (in this process or behind HTTP) and
    any OpenAI-compatible server take it. A tool result becomes a user turn that says so (``role:
    tool`` needs a tool_call_id we lack, and small models' chat templates reject it); with ``schema``
    the reply is constrained to JSON valid under it."""
    request: dict[str, Any] = {
        "messages": [
            {"role": "user", "content": f"[tool result]\n{m.content}"}
            if m.role == "tool"
            else {"role": m.role, "content": m.content}
            for m in messages
        ],
        "max_tokens": max_tokens,
        "temperature": temperature,
        "stream": True,
        "stream_options": {"include_usage": True},
    }
    if schema is not None:
        request["response_format"] = {
            "type": "json_schema",
            "json_schema": {"name": "reply", "schema": schema},
        }
    return request
