"""A small server on 127.0.0.1 that speaks Ollama's HTTP API in front of any ``LLM`` (tests only).

It serves one model name (``smollm2:135m`` by default) backed by, usually, the real embedded
model. Endpoints: ``GET /api/tags``, ``GET /api/version``, ``POST /api/show``, ``POST /api/chat``
(NDJSON stream or one JSON object; ``format`` as a JSON Schema or ``"json"``; ``tools``;
``options.num_predict`` and ``options.temperature``). Unknown models get Ollama's 404.

For a backend with no native tools (the embedded model), ``tools`` are served the way a small
model can: the reply is constrained to ``{"name": <a tool>, "arguments": {...}}`` and returned
as ``message.tool_calls``. ``delay`` (seconds) holds every chat reply back, for timeout tests.

    with OllamaTestServer(EmbeddedLLM()) as server:
        OllamaLLM("smollm2:135m", host=server.url).complete(...)
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from ibachat.errors import IbachatError, ModelOutputError
from ibachat.llm.base import LLM, Chunk, Message, ToolSpec

MODEL_NAME = "smollm2:135m"
VERSION = "0.12.6"
DEFAULT_NUM_PREDICT = 256


def _now() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())


def tool_call_schema(tools: list[dict[str, Any]]) -> dict[str, Any]:
    """A JSON Schema whose instances are one call of one of ``tools`` (Ollama's tool format)."""
    options = []
    for tool in tools:
        fn = tool.get("function", tool)
        options.append(
            {
                "type": "object",
                "properties": {
                    "name": {"type": "string", "enum": [fn["name"]]},
                    "arguments": fn.get("parameters") or {"type": "object"},
                },
                "required": ["name", "arguments"],
            }
        )
    return options[0] if len(options) == 1 else {"anyOf": options}


def _status(exc: IbachatError) -> int:
    """400 for a request the model cannot serve (bad schema, too long), 500 otherwise."""
    return 400 if isinstance(exc, ModelOutputError) else 500


def tool_prompt(tools: list[dict[str, Any]]) -> str:
    """The system text that tells the model which tools it has (as Ollama's templates do)."""
    lines = ["You can call one of these tools; reply with the call as JSON."]
    for tool in tools:
        fn = tool.get("function", tool)
        lines.append(f"- {fn['name']}: {fn.get('description', '')}")
    return "\n".join(lines)


class OllamaTestServer:
    """Start with ``start()`` or ``with``; ``url`` is the base URL for ``OLLAMA_HOST``."""

    def __init__(self, llm: LLM, model_name: str = MODEL_NAME, *, model_size: int = 0) -> None:
        self.llm = llm
        self.model_name = model_name
        self.model_size = model_size
        self.delay = 0.0
        self.requests: list[dict[str, Any]] = []  # bodies of /api/chat requests, in order
        self._stopping = threading.Event()
        self._httpd: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        if self._httpd is None:
            raise RuntimeError("the test server is not running")
        host, port = self._httpd.server_address[:2]
        return f"http://{host}:{port}"

    def start(self) -> OllamaTestServer:
        handler = type("Handler", (_Handler,), {"owner": self})
        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(
            target=self._httpd.serve_forever,
            kwargs={"poll_interval": 0.05},
            name="ollama-test-server",
            daemon=True,
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stopping.set()
        if self._httpd is not None:
            self._httpd.shutdown()
            self._httpd.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)
        self._httpd = self._thread = None

    def __enter__(self) -> OllamaTestServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # what the endpoints return

    def details(self) -> dict[str, Any]:
        return {
            "parent_model": "",
            "format": "gguf",
            "family": "llama",
            "families": ["llama"],
            "parameter_size": "135M",
            "quantization_level": "Q4_1",
        }

    def tags(self) -> dict[str, Any]:
        return {
            "models": [
                {
                    "name": self.model_name,
                    "model": self.model_name,
                    "modified_at": _now(),
                    "size": self.model_size,
                    "digest": "0" * 64,
                    "details": self.details(),
                }
            ]
        }

    def show(self) -> dict[str, Any]:
        return {
            "modelfile": f"FROM {self.model_name}",
            "parameters": "",
            "template": "{{ .Prompt }}",
            "details": self.details(),
            "model_info": {"general.architecture": "llama", "general.parameter_count": 134515008},
            "capabilities": ["completion", "tools"],
            "modified_at": _now(),
        }


class _Handler(BaseHTTPRequestHandler):
    owner: OllamaTestServer
    protocol_version = "HTTP/1.1"

    def handle(self) -> None:
        try:
            super().handle()
        except (ConnectionResetError, BrokenPipeError):
            pass  # the client closed a kept-alive connection

    def log_message(self, format: str, *args: Any) -> None:
        """Quiet: tests read results, not access logs."""

    # plumbing

    def _body(self) -> dict[str, Any]:
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        return json.loads(raw) if raw.strip() else {}

    def _json(self, status: int, payload: dict[str, Any]) -> None:
        data = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json; charset=utf-8")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def _chunk(self, payload: dict[str, Any]) -> None:
        data = (json.dumps(payload) + "\n").encode()
        self.wfile.write(b"%x\r\n%s\r\n" % (len(data), data))
        self.wfile.flush()

    def _not_found(self, model: str) -> None:
        self._json(404, {"error": f'model "{model}" not found, try pulling it first'})

    # endpoints

    def do_GET(self) -> None:  # noqa: N802 - BaseHTTPRequestHandler's naming
        if self.path == "/api/tags":
            self._json(200, self.owner.tags())
        elif self.path == "/api/version":
            self._json(200, {"version": VERSION})
        elif self.path == "/":
            self._json(200, {"status": "Ollama is running"})
        else:
            self._json(404, {"error": "404 page not found"})

    def do_POST(self) -> None:  # noqa: N802
        try:
            body = self._body()
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            self._json(400, {"error": f"invalid JSON: {exc}"})
            return
        if self.path == "/api/show":
            model = body.get("model") or body.get("name") or ""
            if model != self.owner.model_name:
                self._json(404, {"error": f"model '{model}' not found"})
            else:
                self._json(200, self.owner.show())
        elif self.path == "/api/chat":
            self._chat(body)
        else:
            self._json(404, {"error": "404 page not found"})

    def _chat(self, body: dict[str, Any]) -> None:
        owner = self.owner
        owner.requests.append(body)
        model = body.get("model", "")
        if model != owner.model_name:
            self._not_found(model)
            return
        if owner.delay and owner._stopping.wait(owner.delay):
            return
        messages = [
            Message(m.get("role", "user"), m.get("content") or "") for m in body.get("messages") or []
        ]
        options = body.get("options") or {}
        num_predict = int(options.get("num_predict") or DEFAULT_NUM_PREDICT)
        kwargs: dict[str, Any] = {
            "max_tokens": num_predict,
            "temperature": float(options.get("temperature", 0.8)),
        }
        fmt = body.get("format")
        if fmt == "json":
            kwargs["schema"] = {"type": "object"}
        elif isinstance(fmt, dict):
            kwargs["schema"] = fmt
        tools = body.get("tools") or []
        tools_by_schema = bool(tools) and not owner.llm.supports_tools
        if tools_by_schema:
            kwargs["schema"] = tool_call_schema(tools)
            messages.insert(0, Message("system", tool_prompt(tools)))
        elif tools:
            kwargs["tools"] = [
                ToolSpec(
                    t["function"]["name"],
                    t["function"].get("description", ""),
                    t["function"].get("parameters", {}),
                )
                for t in tools
            ]
        started = time.monotonic_ns()
        stream = owner.llm.chat(messages, **kwargs)
        try:
            first = next(stream, None)
        except IbachatError as exc:
            self._json(_status(exc), {"error": str(exc)})
            return
        try:
            self._reply(body, stream, first, started, num_predict, tools_by_schema)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client went away (a timeout): stop generating
        finally:
            stream.close()

    def _reply(
        self,
        body: dict[str, Any],
        stream: Iterator[Chunk],
        first: Chunk | None,
        started: int,
        num_predict: int,
        tools_by_schema: bool,
    ) -> None:
        model = self.owner.model_name
        streaming = body.get("stream", True)
        text: list[str] = []
        calls: list[dict[str, Any]] = []
        final = None
        if streaming:
            self.send_response(200)
            self.send_header("Content-Type", "application/x-ndjson")
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
        chunk = first
        try:
            while chunk is not None:
                if chunk.done:
                    final = chunk
                calls.extend(
                    {"function": {"name": c["name"], "arguments": c["arguments"]}} for c in chunk.tool_calls
                )
                if chunk.text:
                    text.append(chunk.text)
                    if streaming and not tools_by_schema:
                        message = {"role": "assistant", "content": chunk.text}
                        self._chunk({"model": model, "created_at": _now(), "message": message, "done": False})
                chunk = next(stream, None)
        except IbachatError as exc:
            if streaming:
                self._chunk({"error": str(exc)})
                self.wfile.write(b"0\r\n\r\n")
            else:
                self._json(_status(exc), {"error": str(exc)})
            return
        content = "".join(text)
        if tools_by_schema:
            try:
                call = json.loads(content)
            except json.JSONDecodeError:
                call = None  # a truncated call: answer with the text, as a model would
            if isinstance(call, dict) and "name" in call:
                calls.append({"function": {"name": call["name"], "arguments": call.get("arguments") or {}}})
                content = ""
        prompt_tokens = final.prompt_tokens if final else 0
        completion_tokens = final.completion_tokens if final else 0
        elapsed = time.monotonic_ns() - started
        # A stream already carried the text, except where it was held back to parse a tool call.
        final_text = content if not streaming or tools_by_schema else ""
        message: dict[str, Any] = {"role": "assistant", "content": final_text}
        if calls:
            message["tool_calls"] = calls
        done = {
            "model": model,
            "created_at": _now(),
            "message": message,
            "done": True,
            "done_reason": "length" if completion_tokens >= num_predict else "stop",
            "total_duration": elapsed,
            "load_duration": 0,
            "prompt_eval_count": prompt_tokens,
            "prompt_eval_duration": 0,
            "eval_count": completion_tokens,
            "eval_duration": elapsed,
        }
        if streaming:
            self._chunk(done)
            self.wfile.write(b"0\r\n\r\n")
            self.wfile.flush()
        else:
            self._json(200, done)
