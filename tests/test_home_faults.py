"""A home that cannot be used as a command needs: one line, a non-zero exit, and no change.

For every command: a home on a read-only mount (root cannot write there either), a home owned
by another user (the command runs as ``nobody``), and a file where each folder should be (the
home itself, ``turns``, ``index``, ``ledger``, ``plans``, ``cache``). The home is compared byte
for byte before and after. Readers still read where they can (a read-only home).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from tests.home_fault_child import COMMANDS, WRITERS, run_all

ROOT = Path(__file__).resolve().parents[1]
PLACES = ("home", "turns", "index", "ledger", "plans", "cache")


def snapshot(path: Path) -> dict[str, bytes | None]:
    """Every file's bytes and every folder (None) under ``path``; a file home is itself."""
    if path.is_file():
        return {".": path.read_bytes()}
    return {
        str(p.relative_to(path)): (p.read_bytes() if p.is_file() else None) for p in sorted(path.rglob("*"))
    }


@pytest.fixture(scope="module")
def seed(tmp_path_factory) -> tuple[Path, Path]:
    """A home with turns, ledger events, a plan, saved indexes and a cache; and a file to import."""
    folder = tmp_path_factory.mktemp("seed")
    home = folder / "home"
    src = folder / "more.jsonl"
    rows = [
        {
            "session_id": "s",
            "role": "user",
            "text": f"I like quiet trains {i}",
            "time": f"2026-01-02T18:0{i}:00Z",
        }
        for i in range(5)
    ]
    src.write_text("".join(json.dumps(r) + "\n" for r in rows), "utf-8")
    env = {**os.environ, "IBACHAT_HOME": str(home), "PYTHONPATH": str(ROOT)}
    for args in (["memory", "import", str(src)], ["ask", "--model", "none", "Book a quiet hotel"]):
        done = subprocess.run(
            [sys.executable, "-m", "ibachat.cli", "--embedder", "hash", *args],
            env=env,
            capture_output=True,
            text=True,
        )
        assert done.returncode == 0, done.stderr
    for part in ("turns", "index", "ledger", "plans", "cache"):
        assert (home / part).is_dir(), part
    more = folder / "other.jsonl"
    more.write_text(json.dumps({**rows[0], "text": "a new turn to import"}) + "\n", "utf-8")
    return home, more


def assert_one_line_refusal(name: str, code: int, err: str) -> None:
    lines = err.strip().splitlines()
    assert code != 0, (name, err)
    assert len(lines) == 1 and "Traceback" not in err, (name, err)
    assert lines[0].startswith(("ibachat: error:", "Error:")), (name, err)


@pytest.mark.parametrize("place", PLACES)
def test_a_file_where_a_folder_should_be_is_one_line_and_no_change(seed, tmp_path, place):
    home = tmp_path / "home"
    shutil.copytree(seed[0], home)
    target = home if place == "home" else home / place
    shutil.rmtree(target)
    target.write_bytes(b"not a folder\n")
    before = snapshot(home)
    results = run_all(str(home), str(seed[1]))
    for name, (code, err) in results.items():
        if name == "doctor":
            assert code == 1 and "Traceback" not in err, err
        else:
            assert_one_line_refusal(name, code, err)
            assert "folder" in err or "a file" in err, (name, err)
        assert snapshot(home) == before, name


def _outside_tmp_path() -> Path:
    """A folder other users can reach (pytest's tmp folders are root's alone)."""
    folder = Path(tempfile.mkdtemp(prefix="ibachat-faults-", dir="/tmp"))
    os.chmod(folder, 0o755)
    return folder


def _child(prefix: list[str], home: Path, src: Path) -> dict[str, tuple[int, str]]:
    env = {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "HOME": str(home.parent),
        "IBACHAT_CONFIG": str(home.parent / "config.toml"),  # none: the defaults
    }
    done = subprocess.run(
        [*prefix, sys.executable, "-m", "tests.home_fault_child", str(home), str(src)],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return {k: tuple(v) for k, v in json.loads(done.stdout.strip().splitlines()[-1]).items()}


def _check_read_only(results: dict[str, tuple[int, str]], before: dict, home: Path, why: str) -> None:
    assert set(results) == set(COMMANDS)
    for name, (code, err) in results.items():
        if name in WRITERS:
            assert_one_line_refusal(name, code, err)
            assert why in err, (name, err)
        elif name == "doctor":
            assert code == 1 and "Traceback" not in err, err
        else:  # readers read
            assert code == 0 and "Traceback" not in err, (name, err)
    assert snapshot(home) == before


def _can(cmd: list[str]) -> bool:
    try:
        return subprocess.run(cmd, capture_output=True, timeout=30).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return False


def test_a_read_only_home_refuses_every_writer_in_one_line_and_readers_still_read(seed):
    probe = ["unshare", "-m", "sh", "-c", "mount --bind /tmp /tmp && mount -o remount,ro,bind /tmp /tmp"]
    if not _can(probe):
        pytest.skip("cannot make a private read-only bind mount here (needs unshare and mount rights)")
    folder = _outside_tmp_path()
    try:
        home = folder / "home"
        shutil.copytree(seed[0], home)
        before = snapshot(home)
        mount = f'mount --bind {home} {home} && mount -o remount,ro,bind {home} {home} && exec "$@"'
        results = _child(["unshare", "-m", "sh", "-c", mount, "sh"], home, seed[1])
        _check_read_only(results, before, home, "read-only file system")
    finally:
        shutil.rmtree(folder)


def test_another_users_home_refuses_every_writer_in_one_line_and_readers_still_read(seed):
    as_nobody = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]
    if os.geteuid() != 0 or not _can([*as_nobody, sys.executable, "-c", "pass"]):
        pytest.skip("needs root and setpriv to run a command as another user")
    folder = _outside_tmp_path()
    try:
        home = folder / "home"
        shutil.copytree(seed[0], home)
        for path in [home, *home.rglob("*")]:  # readable by everyone, writable by its owner alone
            os.chmod(path, 0o755 if path.is_dir() else 0o644)
        before = snapshot(home)
        src = folder / "other.jsonl"
        shutil.copy(seed[1], src)
        os.chmod(src, 0o644)
        results = _child(as_nobody, home, src)
        _check_read_only(results, before, home, "not writable by this user")
    finally:
        shutil.rmtree(folder)
