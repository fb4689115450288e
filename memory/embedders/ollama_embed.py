"""Embeddings from an Ollama server (``/api/embed``) through the ``ollama`` client."""

from __future__ import annotations

import os
import threading
from collections.abc import Sequence
from typing import Any
from urllib.parse import urlsplit

import numpy as np

from memory.embedders.base import Embedder
from memory.errors import EmbedderUnavailable

DEFAULT_HOST = "http://127.0.0.1:11434"
DEFAULT_MODEL = "nomic-embed-text"
MAX_CHARS = 16000  # Ollama truncates to the model's context; this only keeps requests small
BATCH_SIZE = 32


def ollama_url(host: str | None = None) -> str:
    """``host``, else ``$OLLAMA_HOST``, else the default, as ``scheme://host:port[/path]`` (as ollama reads it)."""
    given = (host or os.environ.get("OLLAMA_HOST") or DEFAULT_HOST).strip()
    has_scheme = "://" in given
    parts = urlsplit((given if has_scheme else "http://" + given).rstrip("/"))
    try:
        port = parts.port
    except ValueError:
        raise EmbedderUnavailable(f"not a valid Ollama address: {given!r}") from None
    if port is None:
        port = (443 if parts.scheme == "https" else 80) if has_scheme else 11434
    hostname = parts.hostname or "127.0.0.1"
    if ":" in hostname:  # an IPv6 literal
        hostname = f"[{hostname}]"
    return f"{parts.scheme}://{hostname}:{port}{parts.path}"


class OllamaEmbedder(Embedder):
    """An Ollama embedding model; ``ndim`` comes from the server (``/api/show``, or the first reply)."""

    batch_size = BATCH_SIZE

    def __init__(
        self, model: str = DEFAULT_MODEL, host: str | None = None, *, timeout: float = 120.0
    ) -> None:
        if not model.strip():
            raise EmbedderUnavailable("an Ollama embedder needs a model name, e.g. ollama:nomic-embed-text")
        self.model = model.strip()
        self.host = host
        self.timeout = timeout
        self.model_id = f"ollama:{self.model}"
        self._ndim: int | None = None
        self._client: Any = None
        self._lock = threading.Lock()

    @property
    def url(self) -> str:
        return ollama_url(self.host)

    @property
    def ndim(self) -> int:  # type: ignore[override]
        if self._ndim is None:
            self.load()
        assert self._ndim is not None
        return self._ndim

    def _get_client(self) -> Any:
        with self._lock:
            if self._client is None:
                import httpx
                import ollama

                timeout = httpx.Timeout(self.timeout, connect=min(5.0, self.timeout))
                self._client = ollama.Client(host=self.url, timeout=timeout)
            return self._client

    def _call(self, method: str, **kwargs: Any) -> Any:
        """Call the client, turning its failures into one line a person can act on."""
        import httpx
        import ollama

        client = self._get_client()
        try:
            return getattr(client, method)(model=self.model, **kwargs)
        except ollama.ResponseError as err:
            text = str(err.error)
            if err.status_code == 404 or "not found" in text.lower():
                raise EmbedderUnavailable(
                    f"Ollama at {self.url} has no model '{self.model}'; run `ollama pull {self.model}`"
                ) from None
            raise EmbedderUnavailable(
                f"Ollama at {self.url} could not embed with '{self.model}': {text} (HTTP {err.status_code})"
            ) from None
        except httpx.TimeoutException:
            raise EmbedderUnavailable(
                f"Ollama at {self.url} did not answer within {self.timeout:g} s for '{self.model}'"
            ) from None
        except (ConnectionError, httpx.TransportError):
            raise EmbedderUnavailable(
                f"cannot reach Ollama at {self.url} for embedding model '{self.model}'; "
                "start it with `ollama serve` (or set OLLAMA_HOST)"
            ) from None

    def load(self) -> None:
        """Ask the server for the model's embedding size (also checks the server and the model)."""
        if self._ndim is not None:
            return
        info = self._call("show").modelinfo or {}
        sizes = [v for k, v in info.items() if k.endswith(".embedding_length") and isinstance(v, int)]
        if sizes:
            self._ndim = sizes[0]
        else:
            self.embed_batch(["dimension probe"])

    def embed_batch(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.ndim), dtype=np.float32)
        rows: list[np.ndarray] = []
        clipped = [t[:MAX_CHARS] if t.strip() else " " for t in texts]
        for start in range(0, len(clipped), self.batch_size):
            chunk = clipped[start : start + self.batch_size]
            reply = self._call("embed", input=chunk)
            vecs = np.asarray(reply.embeddings, dtype=np.float32)
            if vecs.ndim != 2 or vecs.shape[0] != len(chunk) or vecs.shape[1] == 0:
                raise EmbedderUnavailable(
                    f"Ollama at {self.url} gave {vecs.shape} embeddings for {len(chunk)} texts with '{self.model}'"
                )
            if self._ndim is None:
                self._ndim = int(vecs.shape[1])
            elif vecs.shape[1] != self._ndim:
                raise EmbedderUnavailable(
                    f"Ollama model '{self.model}' gave {vecs.shape[1]}-d vectors, expected {self._ndim}"
                )
            rows.append(vecs)
        out = np.concatenate(rows)
        norms = np.linalg.norm(out, axis=1, keepdims=True)
        zero = norms[:, 0] == 0.0
        out[zero, 0] = 1.0  # a zero vector has no direction; give it a fixed one
        norms[zero] = 1.0
        return (out / norms).astype(np.float32)
