"""Any OpenAI-compatible chat server (vLLM, llama.cpp's ``llama-server``, LM Studio, Ollama's ``/v1``).

Plain HTTP through ``httpx`` (already a dependency of the Ollama client), not the ``openai``
package: the few routes used here (``/chat/completions`` streamed as server-sent events,
``/models``) are stable across these servers, and owning the loop keeps errors to one line.

A spec names one or more endpoints: ``NAME@http://HOST:PORT/v1``, several joined by commas
(``NAME@http://a:8000/v1,http://b:8000/v1``; an entry without a name takes the previous one's).
A missing URL comes from ``$OPENAI_BASE_URL``; an empty name asks the server's ``/models``.
There is no default server: nothing leaves the machine unless a URL says so.
``$OPENAI_API_KEY`` (or ``api_key``) is sent as a bearer token when set.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from ibachat.errors import ConfigError, ModelOutputError, ModelUnavailable
from ibachat.llm.base import LLM, Chunk, Message, ToolSpec, openai_request

DEFAULT_TIMEOUT = 120.0  # seconds a whole reply may take
CONNECT_TIMEOUT = 5.0
RETRIES = 2  # extra attempts on a connection failure, 429 or 5xx, before any text arrived
_RETRY_STATUS = {408, 429, 500, 502, 503, 504}


@dataclass(frozen=True)
class Endpoint:
    name: str  # the model name sent in requests ("" = ask the server)
    url: str  # base URL ending in /v1 (or whatever prefix the server uses)


def _clean_url(url: str) -> str:
    url = url.strip().rstrip("/")
    if not url.startswith(("http://", "https://")):
        raise ConfigError(f"server URL {url!r} must start with http:// or https://")
    return url


def parse_endpoints(arg: str | None) -> list[Endpoint]:
    """``"NAME@URL,URL2,NAME3@URL3"`` -> endpoints; a URL-less spec uses ``$OPENAI_BASE_URL``."""
    entries = [e.strip() for e in (arg or "").split(",") if e.strip()] or [""]
    out: list[Endpoint] = []
    name = ""
    for entry in entries:
        if entry.startswith(("http://", "https://")):
            url = entry
        else:
            head, sep, tail = entry.rpartition("@")
            name, url = (head, tail) if sep else (entry, "")
        url = url or os.environ.get("OPENAI_BASE_URL", "")
        if not url:
            raise ConfigError(
                f"openai:{arg or ''} names no server: use openai:NAME@http://HOST:PORT/v1 or set OPENAI_BASE_URL"
            )
        out.append(Endpoint(name.strip(), _clean_url(url)))
    return out


def format_endpoints(endpoints: Sequence[Endpoint]) -> str:
    """The spec text for ``endpoints`` (the inverse of ``parse_endpoints``)."""
    return ",".join(f"{e.name}@{e.url}" if e.name else e.url for e in endpoints)


def endpoints_from_toml(path: str | os.PathLike[str], default_name: str = "") -> list[Endpoint]:
    """Servers named in a small TOML file: ``model = "NAME"`` (optional) and ``[[server]]`` tables
    with ``url`` and an optional ``model``. ConfigError, in one line, for anything else."""
    import tomllib

    try:
        with open(path, "rb") as handle:
            data = tomllib.load(handle)
    except OSError as exc:
        raise ConfigError(f"cannot read the servers file {path}: {exc.strerror or exc}") from exc
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"the servers file {path} is not TOML: {exc}") from exc
    unknown = sorted(set(data) - {"model", "server"})
    servers = data.get("server")
    if unknown or not isinstance(servers, list) or not servers:
        extra = f" (unknown keys: {', '.join(unknown)})" if unknown else ""
        raise ConfigError(f'{path} must hold [[server]] tables with url = "http://HOST:PORT/v1"{extra}')
    name = str(data.get("model") or default_name)
    out = []
    for number, server in enumerate(servers, 1):
        if (
            not isinstance(server, dict)
            or not isinstance(server.get("url"), str)
            or set(server) - {"url", "model"}
        ):
            raise ConfigError(f'{path}: server {number} needs url = "..." and at most model = "..."')
        out.append(Endpoint(str(server.get("model") or name), _clean_url(server["url"])))
    return out


def _headers(api_key: str | None) -> dict[str, str]:
    key = api_key if api_key is not None else os.environ.get("OPENAI_API_KEY", "")
    return {"Authorization": f"Bearer {key}"} if key else {}


def list_models(url: str, *, api_key: str | None = None, timeout: float = 2.0) -> list[str]:
    """The model ids ``GET {url}/models`` lists; ModelUnavailable when the server does not answer."""
    import httpx

    try:
        response = httpx.get(f"{url}/models", headers=_headers(api_key), timeout=timeout)
    except httpx.TimeoutException as exc:
        raise ModelUnavailable(f"the model server at {url} did not answer within {timeout:g} s") from exc
    except httpx.TransportError as exc:
        raise _down(url) from exc
    if response.status_code in (401, 403):
        raise ModelUnavailable(f"the model server at {url} refused the API key: set OPENAI_API_KEY")
    if response.status_code != 200:
        raise ModelUnavailable(f"the model server at {url} answered {response.status_code} to /models")
    try:
        data = response.json().get("data") or []
    except (ValueError, AttributeError) as exc:
        raise ModelUnavailable(
            f"{url}/models did not answer JSON: is it an OpenAI-compatible server?"
        ) from exc
    return [str(m.get("id")) for m in data if isinstance(m, dict) and m.get("id")]


def _down(url: str) -> ModelUnavailable:
    return ModelUnavailable(f"cannot reach the model server at {url}: is it running?")


def _tiny(model: str) -> bool:
    from ibachat.llm.ollama_backend import _tiny as tiny

    return tiny(model.replace("_", "-"))


class _ToolCalls:
    """Accumulates streamed tool-call deltas (``index``, name once, arguments in fragments)."""

    def __init__(self) -> None:
        self.parts: dict[int, dict[str, str]] = {}

    def feed(self, deltas: Sequence[dict[str, Any]]) -> None:
        for position, delta in enumerate(deltas):
            index = delta.get("index", position)
            slot = self.parts.setdefault(int(index), {"name": "", "arguments": ""})
            function = delta.get("function") or {}
            slot["name"] += function.get("name") or ""
            arguments = function.get("arguments")
            if isinstance(arguments, dict):  # some servers send the object whole
                arguments = json.dumps(arguments)
            slot["arguments"] += arguments or ""

    def calls(self) -> list[dict[str, Any]]:
        out = []
        for _, slot in sorted(self.parts.items()):
            raw = slot["arguments"].strip() or "{}"
            try:
                arguments = json.loads(raw)
            except json.JSONDecodeError as exc:
                raise ModelOutputError(
                    f"the model called {slot['name'] or 'a tool'} with malformed JSON arguments ({exc.msg})"
                ) from exc
            if not isinstance(arguments, dict):
                raise ModelOutputError(
                    f"the model called {slot['name']} with arguments that are not an object"
                )
            out.append({"name": slot["name"], "arguments": arguments})
        return out


class OpenAILLM(LLM):
    """A model behind an OpenAI-compatible ``/chat/completions``. Constructing one connects to nothing.

    With several endpoints, ``replica`` picks the one this instance calls first (a bench worker
    passes its index, so workers spread over the servers); the others are tried in turn when it
    cannot be reached.
    """

    name = "openai"
    can_stream = True
    supports_schema = True
    supports_tools = True

    def __init__(
        self,
        endpoints: str | Sequence[Endpoint] | None = None,
        *,
        api_key: str | None = None,
        timeout: float = DEFAULT_TIMEOUT,
        retries: int = RETRIES,
        replica: int = 0,
    ) -> None:
        found = parse_endpoints(endpoints) if endpoints is None or isinstance(endpoints, str) else endpoints
        if not found:
            raise ConfigError("an OpenAI-compatible model needs at least one server URL")
        start = replica % len(found)
        self.endpoints = list(found[start:]) + list(found[:start])
        self.api_key = api_key
        self.timeout = timeout
        self.retries = retries
        self._served: dict[str, str] = {}  # url -> the name /models gave, for endpoints without one
        self.capable = not _tiny(self.endpoints[0].name)

    @property
    def model(self) -> str:
        return self.endpoints[0].name

    @property
    def url(self) -> str:
        return self.endpoints[0].url

    def describe(self) -> dict[str, Any]:
        return {"backend": "openai", "model": self.model, "urls": [e.url for e in self.endpoints]}

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
        request = openai_request(messages, schema=schema, max_tokens=max_tokens, temperature=temperature)
        if tools:
            request["tools"] = [
                {
                    "type": "function",
                    "function": {"name": t.name, "description": t.description, "parameters": t.parameters},
                }
                for t in tools
            ]
        return self.send(request, timeout)

    def send(self, request: dict[str, Any], timeout: float | None = None) -> Iterator[Chunk]:
        """Stream a chat request already in the OpenAI shape (``model`` is filled in here)."""
        return self._stream(request, self.timeout if timeout is None else timeout)

    def _name_for(self, endpoint: Endpoint, timeout: float) -> str:
        if endpoint.name:
            return endpoint.name
        if endpoint.url not in self._served:
            ids = list_models(endpoint.url, api_key=self.api_key, timeout=min(timeout, CONNECT_TIMEOUT))
            if not ids:
                raise ModelUnavailable(f"the model server at {endpoint.url} lists no model: name one")
            self._served[endpoint.url] = ids[0]
        return self._served[endpoint.url]

    def _stream(self, request: dict[str, Any], timeout: float) -> Iterator[Chunk]:
        import httpx

        deadline = time.monotonic() + timeout
        failure: Exception | None = None
        # every server once (failover, no pause), then the retries, with a growing pause
        attempts = max(self.retries + 1, len(self.endpoints))
        for attempt in range(attempts):
            endpoint = self.endpoints[attempt % len(self.endpoints)]
            if attempt >= len(self.endpoints):
                time.sleep(min(0.25 * 2**attempt, max(0.0, deadline - time.monotonic())))
            left = deadline - time.monotonic()
            if left <= 0:
                break
            started = False
            try:
                body = dict(request, model=self._name_for(endpoint, left))
            except ModelUnavailable as exc:  # its /models did not answer: try the next
                failure = exc
                continue
            try:
                for chunk in self._attempt(endpoint, body, left, deadline):
                    started = True
                    yield chunk
                return
            except _Retry as exc:
                failure = exc.error
                if started:
                    raise exc.error from None
            except (httpx.ConnectError, httpx.ConnectTimeout) as exc:
                failure = _down(endpoint.url)
                failure.__cause__ = exc
            except httpx.TimeoutException as exc:
                if started:
                    raise ModelUnavailable(
                        f"the model server at {endpoint.url} stopped answering within {timeout:g} s"
                    ) from exc
                failure = ModelUnavailable(
                    f"the model server at {endpoint.url} did not answer within {timeout:g} s"
                )
            except httpx.TransportError as exc:
                if started:
                    raise ModelUnavailable(
                        f"lost the connection to the model server at {endpoint.url}"
                    ) from exc
                failure = ModelUnavailable(
                    f"lost the connection to the model server at {endpoint.url}: {exc}"
                )
        raise failure or ModelUnavailable(
            f"the model server at {self.url} did not answer within {timeout:g} s"
        )

    def _attempt(
        self, endpoint: Endpoint, body: dict[str, Any], left: float, deadline: float
    ) -> Iterator[Chunk]:
        import httpx

        limits = httpx.Timeout(left, connect=min(left, CONNECT_TIMEOUT))
        from ibachat.llm.ollama_backend import _ThinkStripper

        calls = _ToolCalls()
        stripper = _ThinkStripper()  # a reasoning model's leading <think> block, when the server leaves it in
        prompt_tokens = completion_tokens = 0
        with httpx.Client(timeout=limits, headers=_headers(self.api_key)) as client:
            with client.stream("POST", f"{endpoint.url}/chat/completions", json=body) as response:
                if response.status_code != 200:
                    response.read()
                    raise self._status_error(endpoint, body["model"], response)
                for line in response.iter_lines():
                    if time.monotonic() > deadline:
                        raise httpx.ReadTimeout("total time exceeded")
                    data = _event(line)
                    if data is None:
                        continue
                    if data == "[DONE]":
                        break
                    if "error" in data:
                        raise ModelOutputError(f"the model server at {endpoint.url} failed: {_message(data)}")
                    usage = data.get("usage")
                    if usage:
                        prompt_tokens = int(usage.get("prompt_tokens") or 0)
                        completion_tokens = int(usage.get("completion_tokens") or 0)
                    for choice in data.get("choices") or []:
                        delta = choice.get("delta") or choice.get("message") or {}
                        if delta.get("tool_calls"):
                            calls.feed(delta["tool_calls"])
                        text = stripper.feed(delta.get("content") or "")
                        if text:
                            yield Chunk(text=text)
        rest = stripper.flush()
        if rest:
            yield Chunk(text=rest)
        found = calls.calls()
        if found:
            yield Chunk(tool_calls=found)
        yield Chunk(done=True, prompt_tokens=prompt_tokens, completion_tokens=completion_tokens)

    def _status_error(self, endpoint: Endpoint, name: str, response: Any) -> Exception:
        status, detail = response.status_code, _message(_json_or_text(response))
        where = f"the model server at {endpoint.url}"
        if status in (401, 403):
            return ModelUnavailable(f"{where} refused the API key ({status}): set OPENAI_API_KEY")
        if status == 404:
            if "model" in detail.lower():
                return ModelUnavailable(f"{where} has no model '{name}' ({detail})")
            return ModelUnavailable(f"{where} answered 404 for /chat/completions: is the URL's /v1 right?")
        if status in _RETRY_STATUS:
            return _Retry(ModelUnavailable(f"{where} failed ({status}): {detail}"))
        return ModelOutputError(f"{where} rejected the request ({status}): {detail}")


class _Retry(Exception):  # noqa: N818 - internal signal, carries the error to raise when retries run out
    def __init__(self, error: Exception) -> None:
        super().__init__(str(error))
        self.error = error


def _event(line: str) -> Any:
    """The JSON of one server-sent ``data:`` line, ``"[DONE]"``, or None for anything else."""
    if not line.startswith("data:"):
        return None
    payload = line[5:].strip()
    if payload == "[DONE]":
        return payload
    try:
        return json.loads(payload)
    except json.JSONDecodeError as exc:
        raise ModelOutputError(f"the model server sent a malformed stream event ({exc.msg})") from exc


def _json_or_text(response: Any) -> Any:
    try:
        return response.json()
    except ValueError:
        return response.text


def _message(data: Any) -> str:
    error = data.get("error", data) if isinstance(data, dict) else data
    if isinstance(error, dict):
        error = error.get("message") or error
    return " ".join(str(error).split())[:300]
