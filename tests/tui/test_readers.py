"""Readers work beside a writer: while the app holds the writer lock, `memory search`, `show`,
`prefs`, `export` and `stats` (separate processes) read what is committed; a second writer is
refused with one line."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.tui.conftest import SIZE, send, settle

pytestmark = pytest.mark.anyio
ROOT = Path(__file__).resolve().parents[2]


def cli(home: Path, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "IBACHAT_HOME": str(home)}
    return subprocess.run(
        [sys.executable, "-m", "ibachat.cli", "--embedder", "hash", *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )


async def test_search_and_the_other_readers_run_while_the_app_holds_the_writer_lock(build, memory):
    app, _, _ = build(["Noted, window seats."])
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await send(pilot, "I always want a window seat on the zephyrline trains")
        assert memory._lock.held  # the app's memory is the writer
        home = memory.home
        found = cli(home, "memory", "search", "zephyrline", "--json")
        assert found.returncode == 0, found.stderr
        hits = json.loads(found.stdout)
        assert hits and "zephyrline" in hits[0]["text"] and "writing" not in found.stderr
        shown = cli(home, "memory", "show", "--json", "-n", "0")
        assert shown.returncode == 0 and any("zephyrline" in t["text"] for t in json.loads(shown.stdout))
        for args in (("memory", "prefs", "--json"), ("memory", "export"), ("memory", "stats", "--json")):
            done = cli(home, *args)
            assert done.returncode == 0 and "Traceback" not in done.stderr, (args, done.stderr)
        refused = cli(home, "memory", "never", "1")  # only a writer is refused
        assert refused.returncode == 1 and len(refused.stderr.strip().splitlines()) == 1
        assert "is writing" in refused.stderr
