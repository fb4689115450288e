"""SIGKILL `memory import` of a 3,000-turn file at random moments: the store holds none or all of it."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from memory.embedders.hashing import HashEmbedder
from memory.memory import Memory
from memory.staging import PENDING
from memory.store import TurnStore

ROOT = Path(__file__).resolve().parents[2]
TURNS = 3000


def _write_file(path: Path) -> Path:
    with open(path, "w", encoding="utf-8") as f:
        for i in range(TURNS):
            row = {
                "session_id": f"s{i // 25}",
                "role": "user" if i % 2 == 0 else "assistant",
                "text": f"imported line {i} on subject {i % 41}" + (" filler" * 300 if i % 97 == 0 else ""),
                "time": f"2025-04-{1 + i // 150:02d}T08:{(i // 60) % 60:02d}:{i % 60:02d}Z",
            }
            f.write(json.dumps(row) + "\n")
    return path


def _run(home: Path, src: Path) -> subprocess.Popen:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "IBACHAT_HOME": str(home)}
    return subprocess.Popen(
        [sys.executable, str(ROOT / "tests/memory/import_child.py"), str(src)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )


def _count(home: Path, *, readonly: bool) -> int:
    return len(TurnStore(home / "turns", readonly=readonly)) if (home / "turns").is_dir() else 0


@pytest.mark.slow
def test_sigkill_during_import_leaves_none_or_all_and_reimport_adds_no_duplicates(tmp_path):
    rng = random.Random(11)
    src = _write_file(tmp_path / "big.jsonl")
    # a reference run, timed from "ready" to exit: the window the kills are spread over
    child = _run(tmp_path / "reference", src)
    assert child.stdout.readline().strip() == "ready"
    start = time.monotonic()
    _, err = child.communicate()
    window = time.monotonic() - start
    assert child.returncode == 0, err
    assert _count(tmp_path / "reference", readonly=True) == TURNS

    kills, outcomes, mid_stage, trial = 0, {0: 0, TURNS: 0}, 0, 0
    home = tmp_path / "home-0"
    while kills < 22:
        trial += 1
        assert trial < 80, f"only {kills} kills landed during an import"
        child = _run(home, src)
        assert child.stdout.readline().strip() == "ready", child.stderr.read()
        time.sleep(window * 0.9 * rng.random() ** 0.5)  # biased late, where the segments are written
        if child.poll() is not None:  # finished before the kill: not a kill
            child.communicate()
            home = tmp_path / f"home-{trial}"
            continue
        child.send_signal(signal.SIGKILL)
        child.communicate()
        kills += 1
        mid_stage += (home / "turns" / PENDING).exists()
        seen = _count(home, readonly=True)  # a reader skips an uncommitted stage
        assert seen in (0, TURNS), f"kill {kills}: a reader sees {seen} of {TURNS} turns"
        with Memory.open(home, embedder=HashEmbedder(64)) as mem:  # a writer rolls it back
            assert len(mem) == seen
            assert not (home / "turns" / PENDING).exists()
        outcomes[seen] += 1
        if seen == TURNS:
            home = tmp_path / f"home-{trial}"  # re-importing here only skips: start afresh
    print(f"kills {kills} in {trial} trials, outcomes {outcomes}, killed mid-stage {mid_stage}")
    assert kills >= 20 and outcomes[0] > 0, (outcomes, mid_stage)

    # the last home was killed (or is fresh): finish the import, then import again
    for _ in range(2):
        child = _run(home, src)
        _, err = child.communicate()
        assert child.returncode == 0, err
    assert "skipped 3,000 already remembered" in " ".join(err.split())
    with Memory.open(home, embedder=HashEmbedder(64)) as mem:
        assert len(mem) == TURNS
        texts = [t.text for t in mem.iter_turns()]
        assert len(set(texts)) == TURNS
        vectors, lexical = mem._indexes()
        assert len(vectors) == len(lexical) == TURNS
        assert mem.search("imported line 2999", 1, mode="lexical")
