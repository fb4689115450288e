"""Model specs: parsing, resolution, ``auto`` against a real (test) Ollama server, and ``doctor``'s view."""

from __future__ import annotations

from pathlib import Path

import pytest

from ibachat.errors import ConfigError
from ibachat.llm.embedded import EmbeddedLLM, default_model_path
from ibachat.llm.ollama_backend import OllamaLLM
from ibachat.llm.scripted import ScriptedLLM
from ibachat.llm.select import describe_model, parse_spec, resolve_model
from tests.ollama_server import OllamaTestServer


@pytest.fixture
def tag_server():
    """An Ollama-speaking server that lists smollm2:135m; nothing is generated, so no model loads."""
    with OllamaTestServer(ScriptedLLM()) as server:
        yield server


@pytest.mark.parametrize(
    ("spec", "parsed"),
    [
        (None, ("auto", None)),
        ("auto", ("auto", None)),
        (" Auto ", ("auto", None)),
        ("ollama", ("ollama", "qwen3:4b")),
        ("ollama:qwen3:4b", ("ollama", "qwen3:4b")),
        ("ollama:hf.co/org/repo:Q4_K_M", ("ollama", "hf.co/org/repo:Q4_K_M")),
        ("embedded", ("embedded", None)),
        ("embedded:/models/x.gguf", ("embedded", "/models/x.gguf")),
    ],
)
def test_parse_spec(spec, parsed):
    assert parse_spec(spec) == parsed


@pytest.mark.parametrize("spec", ["scripted", "gpt-4", "ollama:", "embedded: ", "auto:x", "llama.cpp:x"])
def test_bad_specs_name_the_accepted_forms(spec):
    with pytest.raises(ConfigError, match=r"use one of: auto, ollama:<name> .*embedded:/path/to/model\.gguf"):
        resolve_model(spec)


def test_explicit_specs_build_without_touching_anything(closed_port):
    llm = resolve_model("ollama:qwen3:4b", host=f"127.0.0.1:{closed_port}")
    assert isinstance(llm, OllamaLLM) and llm.model == "qwen3:4b"
    assert llm.host == f"http://127.0.0.1:{closed_port}"
    default = resolve_model("embedded")
    assert (
        isinstance(default, EmbeddedLLM) and default.model_path == default_model_path() and not default.loaded
    )
    other = resolve_model("embedded:~/models/x.gguf")
    assert isinstance(other, EmbeddedLLM) and other.model_path == Path("~/models/x.gguf").expanduser()


def test_auto_picks_ollama_when_it_answers(tag_server, monkeypatch):
    monkeypatch.setenv("OLLAMA_HOST", tag_server.url)
    llm = resolve_model(None)
    assert isinstance(llm, OllamaLLM) and llm.model == "smollm2:135m" and llm.host == tag_server.url
    info = describe_model("auto", prefer="smollm2:135m")
    assert info["backend"] == "ollama" and info["ready"] and "configured" in info["reason"]
    assert tag_server.requests == []  # only /api/tags was asked


def test_auto_falls_back_to_embedded_when_ollama_is_down(closed_port):
    host = f"127.0.0.1:{closed_port}"
    assert isinstance(resolve_model("auto", host=host), EmbeddedLLM)
    info = describe_model("auto", host=host)
    assert info["backend"] == "embedded" and info["ready"]
    assert info["reason"] == f"auto: Ollama does not answer at http://{host}"
    assert info["model"] == str(default_model_path())


def test_auto_ignores_embedding_only_servers():
    with OllamaTestServer(ScriptedLLM(), model_name="nomic-embed-text:latest") as server:
        info = describe_model("auto", host=server.url)
        assert isinstance(resolve_model("auto", host=server.url), EmbeddedLLM)
    assert info["backend"] == "embedded" and "has no chat model" in info["reason"]


def test_describe_reports_what_is_missing(tag_server, closed_port, tmp_path):
    pulled = describe_model("ollama:smollm2:135m", host=tag_server.url)
    assert pulled["ready"] and pulled["problem"] is None
    missing = describe_model("ollama:qwen3:4b", host=tag_server.url)
    assert (
        not missing["ready"]
        and missing["problem"] == "Ollama has no model 'qwen3:4b': run `ollama pull qwen3:4b`"
    )
    down = describe_model("ollama:qwen3:4b", host=f"127.0.0.1:{closed_port}")
    assert not down["ready"] and "start it with `ollama serve`" in down["problem"]
    no_file = describe_model(f"embedded:{tmp_path / 'x.gguf'}")
    assert not no_file["ready"] and no_file["problem"] == f"no GGUF file at {tmp_path / 'x.gguf'}"


def test_only_served_models_of_a_billion_parameters_or_more_refine_the_plan():
    from ibachat.llm.ollama_backend import OllamaLLM

    assert OllamaLLM("qwen3:4b").capable and OllamaLLM("llama3.1:8b").capable and OllamaLLM("mistral").capable
    assert not OllamaLLM("smollm2:135m").capable and not OllamaLLM("qwen2.5:0.5b").capable
