"""SIGKILL a writer at random moments: the store always opens, acknowledged turns survive, indexes reconcile."""

from __future__ import annotations

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

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow
def test_sigkill_during_inserts_never_loses_an_acknowledged_turn(tmp_path):
    rng = random.Random(7)
    home = tmp_path / "home"
    acknowledged: dict[int, int] = {}
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    kills = 0
    for _ in range(20):
        child = subprocess.Popen(
            [sys.executable, str(ROOT / "tests/memory/crash_child.py"), str(home)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
        )
        first = child.stdout.readline()  # wait until it is really writing
        assert first, child.stderr.read()
        time.sleep(rng.uniform(0.0, 0.4))
        child.send_signal(signal.SIGKILL)
        out, _ = child.communicate()
        kills += 1
        for line in (first + out).splitlines():
            turn_id, n = line.split()
            acknowledged[int(turn_id)] = int(n)
        # the lock died with the process: the next writer gets in
    assert kills == 20 and len(acknowledged) > 40
    embedded: list[str] = []

    class Counting(HashEmbedder):
        def embed_batch(self, texts):
            embedded.extend(texts)
            return super().embed_batch(texts)

    mem = Memory.open(home, embedder=Counting(32))
    try:
        for turn_id, n in acknowledged.items():
            assert mem.get(turn_id).text.startswith(f"crash turn {n} ")
        assert not list(home.rglob("*.tmp-*"))
        mem.reconcile()
        store_ids = set(mem.store.ids())
        vectors, lexical = mem._indexes()
        assert {int(i) for i in vectors.ids()} == store_ids
        assert {int(i) for i in lexical.ids()} == store_ids
        # a vector is journalled in the cache until an index save holds it: a kill costs at most
        # the turn it cut between the store and the cache
        assert len(embedded) <= kills
        hit = mem.search(f"crash turn {max(acknowledged.values())}", 3, mode="lexical")
        assert hit
    finally:
        mem.close()
