"""A chat model that plays back queued replies: for tests of logic, never offered to users.

Each ``chat`` call pops the next reply:

- ``str``: streamed as the reply text;
- ``dict`` or ``list``: returned as JSON text;
- ``Reply``: its text and tool calls (to script a tool call);
- an ``Exception`` instance: raised while iterating;
- ``"<timeout>"``: raises ``ModelUnavailable("timed out")``;
- a callable ``f(call: ScriptedCall)``: called, and its result handled as above.

Every call is recorded in ``.calls``. An empty queue raises ``ScriptExhausted`` (a test bug).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from ibachat.errors import ModelUnavailable
from ibachat.llm.base import LLM, Chunk, Message, Reply, ToolSpec

TIMEOUT = "<timeout>"


class ScriptExhausted(AssertionError):
    """The code under test asked the scripted model for more replies than the test queued."""


@dataclass
class ScriptedCall:
    """What one ``chat`` call was given."""

    messages: list[Message]
    schema: dict[str, Any] | None
    tools: list[ToolSpec] | None
    max_tokens: int
    temperature: float
    timeout: float | None

    @property
    def prompt(self) -> str:
        """The last user message (what most tests want to look at)."""
        for message in reversed(self.messages):
            if message.role == "user":
                return message.content
        return ""


ScriptedReply = str | dict | list | Reply | BaseException | Callable[[ScriptedCall], Any]


def _words(text: str) -> int:
    return len(text.split())


def _pieces(text: str, parts: int = 3) -> list[str]:
    """Split ``text`` into at most ``parts`` consecutive pieces that join back to it."""
    if not text:
        return []
    size = max(1, -(-len(text) // parts))
    return [text[i : i + size] for i in range(0, len(text), size)]


class ScriptedLLM(LLM):
    """Plays back ``replies`` in order; see the module docstring for what a reply may be."""

    name = "scripted"
    can_stream = True
    supports_schema = True

    def __init__(self, replies: Iterable[ScriptedReply] = (), *, supports_tools: bool = True) -> None:
        self._queue: list[ScriptedReply] = list(replies)
        self.calls: list[ScriptedCall] = []
        self.supports_tools = supports_tools
        self.closed = False

    def add(self, *replies: ScriptedReply) -> None:
        """Queue more replies."""
        self._queue.extend(replies)

    @property
    def remaining(self) -> int:
        return len(self._queue)

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
        """Record the call and pop its reply now; the reply is streamed (or raised) on iteration."""
        call = ScriptedCall(
            list(messages),
            schema,
            list(tools) if tools is not None else None,
            max_tokens,
            temperature,
            timeout,
        )
        self.calls.append(call)
        if not self._queue:
            raise ScriptExhausted(
                f"ScriptedLLM has no reply left for call #{len(self.calls)}: queue more replies in the test"
            )
        reply = self._queue.pop(0)
        return self._play(call, reply)

    def _play(self, call: ScriptedCall, reply: ScriptedReply) -> Iterator[Chunk]:
        if callable(reply) and not isinstance(reply, (BaseException, type)):
            reply = reply(call)
        if isinstance(reply, BaseException):
            raise reply
        if reply == TIMEOUT:
            raise ModelUnavailable("timed out")
        tool_calls: list[dict[str, Any]] = []
        if isinstance(reply, Reply):
            text, tool_calls = reply.text, [dict(c) for c in reply.tool_calls]
        elif isinstance(reply, str):
            text = reply
        elif isinstance(reply, (dict, list)):
            text = json.dumps(reply)
        else:
            raise TypeError(f"ScriptedLLM cannot play a reply of type {type(reply).__name__}")
        for piece in _pieces(text):
            yield Chunk(text=piece)
        prompt_tokens = sum(_words(m.content) for m in call.messages)
        yield Chunk(
            done=True,
            tool_calls=tool_calls,
            prompt_tokens=prompt_tokens,
            completion_tokens=_words(text),
        )

    def close(self) -> None:
        self.closed = True
