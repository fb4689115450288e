"""SIGKILL `memory import` at random moments: the store holds none or all of it; and an import
killed while staging, whose stage is then damaged (truncated, emptied, garbled, deleted; an older
version's journal likewise), shows nothing, is reported by `doctor` and rolled back by `repair`.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from ibachat.cli import main
from memory.embedders.hashing import HashEmbedder
from memory.memory import Memory
from memory.staging import PENDING, STAGING
from memory.store import TurnStore

ROOT = Path(__file__).resolve().parents[2]
TURNS = 3000


def _write_file(path: Path, turns: int = TURNS) -> Path:
    with open(path, "w", encoding="utf-8") as f:
        for i in range(turns):
            row = {
                "session_id": f"s{i // 25}",
                "role": "user" if i % 2 == 0 else "assistant",
                "text": f"imported line {i} on subject {i % 41}" + (" filler" * 300 if i % 97 == 0 else ""),
                "time": f"2025-{4 + i // 4200:02d}-{1 + (i // 150) % 28:02d}T08:{(i // 60) % 60:02d}:{i % 60:02d}Z",
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
    # a reference run, timed from "ready" to the commit of its stage (reading the turns for
    # preferences comes after, and is not what this test kills): the window the kills are spread over
    child = _run(tmp_path / "reference", src)
    assert child.stdout.readline().strip() == "ready"
    start, staged, window = time.monotonic(), False, None
    stage = tmp_path / "reference" / "turns" / STAGING
    while child.poll() is None and window is None:
        if stage.exists():
            staged = True
        elif staged:
            window = time.monotonic() - start
        time.sleep(0.005)
    _, err = child.communicate()
    window = window if window is not None else time.monotonic() - start
    assert child.returncode == 0, err
    assert _count(tmp_path / "reference", readonly=True) == TURNS

    kills, outcomes, mid_stage, trial = 0, {0: 0, TURNS: 0}, 0, 0
    home = tmp_path / "home-0"
    while kills < 22:
        trial += 1
        assert trial < 80, f"only {kills} kills landed during an import"
        child = _run(home, src)
        assert child.stdout.readline().strip() == "ready", child.stderr.read()
        time.sleep(window * 1.1 * rng.random() ** 0.5)  # biased late, where the segments are written
        if child.poll() is not None:  # finished before the kill: not a kill
            child.communicate()
            home = tmp_path / f"home-{trial}"
            continue
        child.send_signal(signal.SIGKILL)
        child.communicate()
        kills += 1
        mid_stage += (home / "turns" / STAGING).exists()
        seen = _count(home, readonly=True)  # a reader skips an uncommitted stage
        assert seen in (0, TURNS), f"kill {kills}: a reader sees {seen} of {TURNS} turns"
        with Memory.open(home, embedder=HashEmbedder(64)) as mem:  # a writer rolls it back
            assert len(mem) == seen
            assert not (home / "turns" / STAGING).exists()
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


DAMAGE = ("truncate", "empty", "garble", "delete")


def _damage(path: Path, kind: str) -> None:
    data = path.read_bytes() if path.exists() else b'{"segments": ["seg-000000.json"]}'
    if kind == "truncate":
        path.write_bytes(data[: len(data) // 2])
    elif kind == "empty":
        path.write_bytes(b"")
    elif kind == "garble":
        path.write_bytes(data[:10] + bytes(range(256)) * 4 + data[-10:])
    else:
        path.unlink(missing_ok=True)


def _doctor(capsys) -> tuple[int, dict]:
    code = main(["--embedder", "hash", "doctor", "--json"])
    rows = json.loads(capsys.readouterr().out)
    return code, next(r for r in rows if r["check"] == "memory integrity")


@pytest.mark.slow
def test_a_killed_import_with_a_damaged_stage_shows_nothing_and_doctor_and_repair_roll_it_back(
    _ibachat_home, tmp_path, capsys
):
    src = _write_file(tmp_path / "big.jsonl", 6_000)
    killed = tmp_path / "killed"
    seed = tmp_path / "seed.jsonl"
    seed.write_text(src.read_text("utf-8").splitlines()[-1] + "\n", "utf-8")
    os.environ["IBACHAT_HOME"] = str(killed)
    assert main(["--embedder", "hash", "memory", "import", str(seed)]) == 0  # one turn already held
    stage = killed / "turns" / STAGING
    for _attempt in range(5):
        child = _run(killed, src)
        assert child.stdout.readline().strip() == "ready"
        deadline = time.monotonic() + 120
        while child.poll() is None and time.monotonic() < deadline:  # wait until 3 segments are staged
            if stage.is_dir() and len(list(stage.glob("seg-*.json"))) >= 3:
                child.send_signal(signal.SIGKILL)
                break
            time.sleep(0.002)  # polling interval
        child.communicate()
        if child.returncode == -signal.SIGKILL:
            break
        shutil.rmtree(killed / "turns")  # it finished first: try again
        assert main(["--embedder", "hash", "memory", "import", str(seed)]) == 0
    else:
        pytest.fail("no kill landed while the import was staging")
    staged = sorted(stage.glob("seg-*.json"))
    assert len(staged) >= 3
    capsys.readouterr()
    for kind in DAMAGE:
        home = tmp_path / f"home-{kind}"
        shutil.copytree(killed, home)
        _damage(home / "turns" / STAGING / staged[1].name, kind)  # a staged segment
        _damage(home / "turns" / PENDING, kind)  # and the journal an older version kept
        os.environ["IBACHAT_HOME"] = str(home)
        assert _count(home, readonly=True) == 1, kind  # a reader sees nothing of the import
        code, row = _doctor(capsys)
        assert code == 1 and not row["ok"] and "interrupted import" in row["detail"], (kind, row)
        assert main(["--embedder", "hash", "memory", "repair"]) == 0
        err = capsys.readouterr().err
        assert "interrupted import was rolled back" in err and "never visible" in err, (kind, err)
        assert not (home / "turns" / STAGING).exists() and not (home / "turns" / PENDING).exists()
        code, row = _doctor(capsys)
        assert row["ok"] and "1 turns" in row["detail"], (kind, row)
        assert _count(home, readonly=True) == 1
    # and the import, run again, brings in the whole file once
    assert main(["--embedder", "hash", "memory", "import", str(src)]) == 0
    assert "skipped 1 already remembered" in " ".join(capsys.readouterr().err.split())
    assert _count(home, readonly=True) == 6_000
