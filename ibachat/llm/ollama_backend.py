"""Ollama through its official Python client: streaming chat, JSON Schema ``format``, native tools.

The host is ``host``, else ``$OLLAMA_HOST``, else ``127.0.0.1:11434`` (the client's own rule).
Connection problems become ``ModelUnavailable`` with the command that fixes them.
"""

from __future__ import annotations

import os
import re
import time
import urllib.parse
from collections.abc import Iterator, Sequence
from typing import Any

from ibachat.errors import ModelOutputError, ModelUnavailable
from ibachat.llm.base import LLM, Chunk, Message, ToolSpec

DEFAULT_MODEL = "qwen3:4b"
DEFAULT_PORT = 11434
# Model families and name parts that mark an embedding model, not a chat model.
_EMBEDDING_FAMILIES = {"bert", "nomic-bert", "jina-bert", "xlm-roberta", "bge", "gte"}


def ollama_host(host: str | None = None) -> str:
    """The base URL the client will use: ``host``, else ``$OLLAMA_HOST``, else the default."""
    raw = (host or os.environ.get("OLLAMA_HOST") or "").strip()
    scheme, sep, rest = raw.partition("://")
    if not sep:
        scheme, rest, port = "http", raw, DEFAULT_PORT
    else:
        port = 443 if scheme == "https" else 80
    split = urllib.parse.urlsplit(f"{scheme}://{rest}")
    name = split.hostname or "127.0.0.1"
    if ":" in name:
        name = f"[{name}]"
    path = split.path.strip("/")
    return f"{scheme}://{name}:{split.port or port}" + (f"/{path}" if path else "")


def _client(host: str, timeout: float | None) -> Any:
    import ollama

    return ollama.Client(host=host, timeout=timeout)


def _down(host: str) -> ModelUnavailable:
    return ModelUnavailable(f"cannot reach Ollama at {host}: start it with `ollama serve`")


def is_reachable(host: str | None = None, timeout: float = 0.5) -> bool:
    """True when an Ollama server answers ``/api/tags`` at ``host`` within ``timeout`` seconds."""
    try:
        list_models(host, timeout=timeout)
    except ModelUnavailable:
        return False
    return True


def is_chat_model(name: str, family: str | None = None) -> bool:
    """False for embedding models (by family or name), which cannot chat."""
    if family and family.lower() in _EMBEDDING_FAMILIES:
        return False
    return "embed" not in name.lower()


def list_models(host: str | None = None, timeout: float = 2.0) -> list[dict[str, Any]]:
    """The models Ollama has pulled: ``[{"name", "family", "parameter_size", "size", "chat"}]``."""
    import httpx
    import ollama

    url = ollama_host(host)
    try:
        with _client(url, timeout) as client:
            listing = client.list()
    except (ConnectionError, httpx.TransportError) as exc:
        raise _down(url) from exc
    except ollama.ResponseError as exc:
        raise ModelUnavailable(f"Ollama at {url} failed to list models: {exc.error}") from exc
    models = []
    for m in listing.models:
        details = m.details
        family = details.family if details else None
        name = m.model or ""
        models.append(
            {
                "name": name,
                "family": family,
                "parameter_size": details.parameter_size if details else None,
                "size": int(m.size or 0),
                "chat": is_chat_model(name, family),
            }
        )
    return models


class _ThinkStripper:
    """Drops a leading ``<think>...</think>`` block from streamed text (thinking models)."""

    OPEN, CLOSE = "<think>", "</think>"

    def __init__(self) -> None:
        self._buffer = ""
        self._state = "start"  # start | thinking | gap | text

    def feed(self, text: str) -> str:
        if self._state == "text":
            return text
        if self._state == "gap":  # whitespace after </think> is dropped too
            return self._after(text)
        self._buffer += text
        if self._state == "start":
            head = self._buffer.lstrip()
            if self.OPEN.startswith(head):
                return ""  # could still become "<think>"
            if not head.startswith(self.OPEN):
                self._state, out, self._buffer = "text", self._buffer, ""
                return out
            self._state = "thinking"
        end = self._buffer.find(self.CLOSE)
        if end < 0:
            return ""
        rest, self._buffer = self._buffer[end + len(self.CLOSE) :], ""
        return self._after(rest)

    def _after(self, text: str) -> str:
        text = text.lstrip()
        self._state = "text" if text else "gap"
        return text

    def flush(self) -> str:
        out = self._buffer if self._state == "start" else ""
        self._buffer = ""
        return out


def _tiny(model: str) -> bool:
    size = re.search(r"[:-](\d+(?:\.\d+)?)([mb])\b", model.lower())
    if size is None:
        return False
    number, unit = float(size.group(1)), size.group(2)
    return unit == "m" or number < 1


class OllamaLLM(LLM):
    """A model served by Ollama. Constructing one connects to nothing."""

    name = "ollama"
    can_stream = True
    supports_schema = True
    supports_tools = True

    def __init__(
        self, model: str = DEFAULT_MODEL, host: str | None = None, *, think: bool | None = None
    ) -> None:
        if not model:
            raise ValueError("an Ollama model name is required, e.g. qwen3:4b")
        self.model = model
        self.host = ollama_host(host)
        self.think = think  # None: leave it to the model; a leading <think> block is dropped anyway
        # A served model of a billion parameters or more is trusted with the planner's sub-steps
        # (query expansion, refinement); sub-billion ones ("smollm2:135m", "qwen2.5:0.5b") are not.
        self.capable = not _tiny(model)

    def describe(self) -> dict[str, Any]:
        return {"backend": "ollama", "model": self.model, "host": self.host}

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
        request: dict[str, Any] = {
            "model": self.model,
            "messages": [{"role": m.role, "content": m.content} for m in messages],
            "stream": True,
            "options": {"temperature": temperature, "num_predict": max_tokens},
        }
        if schema is not None:
            request["format"] = schema
        if tools:
            request["tools"] = [
                {
                    "type": "function",
                    "function": {"name": t.name, "description": t.description, "parameters": t.parameters},
                }
                for t in tools
            ]
        if self.think is not None:
            request["think"] = self.think
        return self._stream(request, timeout)

    def _stream(self, request: dict[str, Any], timeout: float | None) -> Iterator[Chunk]:
        import httpx
        import ollama

        deadline = None if timeout is None else time.monotonic() + timeout
        stripper = _ThinkStripper()
        try:
            with _client(self.host, timeout) as client:
                for part in client.chat(**request):
                    if deadline is not None and time.monotonic() > deadline:
                        raise httpx.ReadTimeout("total time exceeded")
                    message = part.message
                    text = stripper.feed(message.content or "")
                    calls = [
                        {"name": c.function.name, "arguments": dict(c.function.arguments or {})}
                        for c in (message.tool_calls or [])
                    ]
                    if part.done:
                        text += stripper.flush()
                        if text or calls:
                            yield Chunk(text=text, tool_calls=calls)
                        yield Chunk(
                            done=True,
                            prompt_tokens=part.prompt_eval_count or 0,
                            completion_tokens=part.eval_count or 0,
                        )
                        return
                    if text or calls:
                        yield Chunk(text=text, tool_calls=calls)
        except (ConnectionError, httpx.ConnectError, httpx.ConnectTimeout) as exc:
            raise _down(self.host) from exc
        except httpx.TimeoutException as exc:
            within = f" within {timeout:g} s" if timeout is not None else ""
            raise ModelUnavailable(f"Ollama at {self.host} did not answer{within}") from exc
        except httpx.TransportError as exc:
            raise ModelUnavailable(f"lost the connection to Ollama at {self.host}: {exc}") from exc
        except ollama.ResponseError as exc:
            raise self._response_error(exc) from exc
        raise ModelOutputError(f"Ollama at {self.host} ended the reply without a final message")

    def _response_error(self, exc: Any) -> Exception:
        error = str(exc.error)
        if exc.status_code == 404:
            if "model" in error.lower():
                return ModelUnavailable(f"Ollama has no model '{self.model}': run `ollama pull {self.model}`")
            return ModelUnavailable(f"{self.host} answered 404 ({error}): is it an Ollama server?")
        if exc.status_code >= 500:
            return ModelUnavailable(f"Ollama at {self.host} failed: {error}")
        return ModelOutputError(f"Ollama rejected the request: {error}")
