"""SIGKILL `memory forget --session S` of a 10,000-turn session at random moments.

After every kill: a reader sees the whole session and its preferences, or none of either;
the store never lets turns go while the ledger still holds their words; and a retry of the
same command finishes the job, after which no file under the home holds a word of it.
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
from memory.forget import JOURNAL
from memory.memory import Memory

ROOT = Path(__file__).resolve().parents[2]
SESSION, TURNS, KEPT = "S", 10_000, 200
MARK = "zorbq"  # in the session's preference turns only, so in the ledger's words for them


def _build(home: Path, tmp: Path) -> int:
    src = tmp / "history.jsonl"
    with open(src, "w", encoding="utf-8") as f:
        for i in range(TURNS):
            text = (
                f"I really love {MARK}{i} coffee in the morning"
                if i % 50 == 0
                else f"note {i} about the weekly plan {i % 97}"
            )
            row = {"session_id": SESSION, "role": "user" if i % 2 == 0 else "assistant", "text": text}
            f.write(
                json.dumps(
                    {**row, "time": f"2026-03-{1 + i // 1000:02d}T{(i // 60) % 24:02d}:{i % 60:02d}:00Z"}
                )
            )
            f.write("\n")
        for i in range(KEPT):
            row = {"session_id": "keep", "role": "user", "text": f"I prefer aisle seats on trains {i}"}
            f.write(json.dumps({**row, "time": f"2026-04-01T10:{i % 60:02d}:{i // 60:02d}Z"}) + "\n")
    os.environ["IBACHAT_HOME"] = str(home)
    assert main(["--embedder", "hash", "memory", "import", str(src)]) == 0
    assert main(["--embedder", "hash", "memory", "search", "coffee"]) == 0  # indexes built and saved
    with Memory.open(home, embedder="hash", readonly=True) as mem:
        return sum(MARK in e.subject for e in mem.ledger.all())


def _child(home: Path) -> subprocess.Popen:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "IBACHAT_HOME": str(home)}
    return subprocess.Popen(
        [
            sys.executable,
            str(ROOT / "tests/memory/forget_child.py"),
            "memory",
            "forget",
            "--session",
            SESSION,
            "--yes",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )


def _raw_session_turns(home: Path) -> int:
    """Turns of the session in the segment files, read as bytes (no reader's view of a journal)."""
    count = 0
    for path in (home / "turns").rglob("seg-*.json"):
        data = json.loads(path.read_bytes())
        count += sum(rec["session_id"] == SESSION for rec in data["turns"].values())
    return count


def _files_with(home: Path, word: str) -> list[str]:
    done = subprocess.run(["grep", "-rlaF", word, str(home)], capture_output=True, text=True)
    assert done.returncode in (0, 1), done.stderr
    return sorted(os.path.relpath(p, home) for p in done.stdout.split())


@pytest.mark.slow
def test_sigkill_during_forget_never_leaves_the_store_without_the_ledger_and_a_retry_finishes(
    _ibachat_home, tmp_path, capsys
):
    rng = random.Random(20)
    base = tmp_path / "base"
    prefs = _build(base, tmp_path)
    assert prefs >= TURNS // 50 - 5, prefs  # the session's preferences are in the ledger, in its words
    capsys.readouterr()
    # a reference run, timed from "ready" to exit: the window the kills are spread over
    ref = tmp_path / "reference"
    shutil.copytree(base, ref)
    child = _child(ref)
    assert child.stdout.readline().strip() == "ready"
    start = time.monotonic()
    _, err = child.communicate()
    window = time.monotonic() - start
    assert child.returncode == 0 and "forgot 10000 turn(s)" in err, err

    kills = trial = 0
    outcomes = {"none": 0, "all": 0}
    mid = 0  # kills that found the forget committed but unfinished (its journal on disk)
    while kills < 20:
        trial += 1
        assert trial < 80, f"only {kills} kills landed during a forget"
        home = tmp_path / f"home-{trial}"
        shutil.copytree(base, home)
        child = _child(home)
        assert child.stdout.readline().strip() == "ready", child.stderr.read()
        time.sleep(window * rng.random())  # a random moment of the forget
        if child.poll() is not None:  # finished before the kill: not a kill
            child.communicate()
            shutil.rmtree(home)
            continue
        child.send_signal(signal.SIGKILL)
        child.communicate()
        kills += 1
        if (home / "turns" / JOURNAL).exists():
            mid += 1
            os.environ["IBACHAT_HOME"] = str(home)
            assert main(["--embedder", "hash", "doctor", "--json"]) == 1
            rows = json.loads(capsys.readouterr().out)
            row = next(r for r in rows if r["check"] == "memory integrity")
            assert not row["ok"] and "interrupted forget" in row["detail"], row
        # what a reader sees: the whole session and its preferences, or neither
        with Memory.open(home, embedder="hash", readonly=True) as mem:
            seen = sum(1 for _ in mem.iter_turns(session=SESSION))
            marked = sum(MARK in e.subject for e in mem.ledger.all())
            kept = sum(1 for _ in mem.iter_turns(session="keep"))
        assert kept == KEPT
        assert (seen, marked) in ((TURNS, prefs), (0, 0)), f"kill {kills}: {seen} turns, {marked} preferences"
        outcomes["all" if seen else "none"] += 1
        # on disk: turns leave the store last, so while any is gone the ledger holds none of them
        if _raw_session_turns(home) < TURNS:
            assert not [f for f in _files_with(home, MARK) if f.startswith("ledger")], f"kill {kills}"
        # the same command again finishes the job (or finds it was done: killed on its way out)
        # (a kill after the last file went but before the journal was cleared leaves the journal:
        # then the command finishes that forget, and says so, rather than finding nothing)
        done = (
            _raw_session_turns(home) == 0
            and not _files_with(home, MARK)
            and not (home / "turns" / JOURNAL).exists()
        )
        os.environ["IBACHAT_HOME"] = str(home)
        code = main(["--embedder", "hash", "memory", "forget", "--session", SESSION, "--yes"])
        err = capsys.readouterr().err
        if done:
            assert code == 1 and "no turn matches" in err, err
        else:
            assert code == 0, err
            assert "forgot 10000 turn(s)" in err or "finished an interrupted forget of 10,000" in err, err
        assert _raw_session_turns(home) == 0 and _files_with(home, MARK) == []
        assert main(["--embedder", "hash", "memory", "prefs", "--all", "--json"]) == 0
        listed = json.loads(capsys.readouterr().out)["events"]
        assert listed and not [e for e in listed if MARK in json.dumps(e)]
        with Memory.open(home, embedder="hash") as mem:
            assert len(mem) == KEPT and len(mem._indexes()[0]) == len(mem._indexes()[1]) == KEPT
        shutil.rmtree(home)
    print(f"kills {kills} in {trial} trials, outcomes {outcomes}, mid-transaction {mid}")
    assert outcomes["none"] > 0 and outcomes["all"] > 0 and mid > 0, (outcomes, mid)
