"""The client half of the resident server (``ibachat/server.py``): the standard library only, as it
runs before anything else in every ``ibachat`` command. Finding the home's socket, passing a
command over it (``run_remote``), asking the server for its status or to stop (``request``) and
starting it in the background (``start_detached``, ``autostart``)."""

from __future__ import annotations

import json
import os
import signal
import socket
import sys
from pathlib import Path
from typing import Any

ROUTED = frozenset({"ask", "memory", "doctor", "config"})
GLOBAL_VALUE_OPTIONS = frozenset({"--model", "--embedder"})
IDLE_S = 900.0
SOCKET = "server.sock"
# the server in a process of its own (it imports the commands, which this half must not)
SERVE = "import sys; from ibachat.server import main_serve; sys.exit(main_serve())"


def home() -> Path:
    from memory.paths import home as data_home

    return data_home()


def socket_path(home_dir: Path) -> Path:
    return home_dir / SOCKET


def fingerprint() -> str:
    """What the running code is: the interpreter, and every file of the two packages by size and
    modification time. A server whose fingerprint differs from its caller's refuses it."""
    parts = [sys.executable]
    for package in ("ibachat", "memory"):
        root = Path(__file__).resolve().parent.parent / package
        stack = [root]
        while stack:
            with os.scandir(stack.pop()) as entries:
                for item in entries:
                    if item.is_dir(follow_symlinks=False):
                        if item.name != "__pycache__":
                            stack.append(Path(item.path))
                    elif item.name.endswith((".py", ".json", ".tcss")):
                        st = item.stat()
                        parts.append(f"{item.path}:{st.st_size}:{st.st_mtime_ns}")
    parts.sort()
    import hashlib

    return hashlib.sha256("\n".join(parts).encode()).hexdigest()[:16]


def command_of(argv: list[str]) -> str | None:
    """The subcommand an argument list names (after the global options), or None."""
    skip = False
    for arg in argv:
        if skip:
            skip = False
            continue
        if arg in GLOBAL_VALUE_OPTIONS:
            skip = True
            continue
        if arg.startswith("-"):
            continue
        return arg
    return None


def disabled() -> bool:
    return os.environ.get("IBACHAT_SERVER", "").strip().lower() == "off"


# ------------------------------------------------------------------ client
def run_remote(argv: list[str]) -> int | None:
    """Run the command in the resident server; None when there is none to run it (the caller runs
    it itself). Once the server has started the command its exit code is returned, whatever happens."""
    if disabled() or command_of(argv) not in ROUTED:
        return None
    try:
        path = socket_path(home())
    except (OSError, ValueError):
        return None
    if len(os.fsencode(path)) >= 100 or not path.exists():
        return None
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        sock.connect(str(path))
        socket.send_fds(sock, [b"F"], [0, 1, 2])
        header = {
            "op": "run",
            "argv": argv,
            "cwd": os.getcwd(),
            "env": dict(os.environ),
            "fingerprint": fingerprint(),
        }
        sock.sendall(json.dumps(header).encode() + b"\n")
        reader = sock.makefile("rb")
        first = _message(reader)
    except (OSError, ValueError):
        sock.close()
        return None  # no server there (a stale socket) or it refused before starting anything
    if first is None or "pid" not in first:
        sock.close()
        return None
    pid = int(first["pid"])
    previous = {}

    def forward(signum: int, _frame: Any) -> None:
        try:
            os.kill(pid, signum)
        except ProcessLookupError:
            pass  # the command has just finished; its exit code is on its way

    for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT):
        previous[signum] = signal.signal(signum, forward)
    try:
        last = _message(reader)
    except (OSError, ValueError):
        last = None
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)
        sock.close()
    if last is None or "rc" not in last:
        os.write(2, b"ibachat: error: the resident server stopped during the command\n")
        return 1
    return int(last["rc"])


def _message(reader: Any) -> dict[str, Any] | None:
    line = reader.readline(1 << 20)
    if not line:
        return None
    value = json.loads(line)
    return value if isinstance(value, dict) else None


def request(home_dir: Path, op: str, timeout: float = 5.0) -> dict[str, Any] | None:
    """A control request (``status``, ``stop``) to the server of a home; None when none answers."""
    path = socket_path(home_dir)
    if not path.exists():
        return None
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.settimeout(timeout)
    try:
        sock.connect(str(path))
        socket.send_fds(sock, [b"F"], [])
        sock.sendall(json.dumps({"op": op}).encode() + b"\n")
        return _message(sock.makefile("rb"))
    except (OSError, ValueError):
        return None
    finally:
        sock.close()


# ------------------------------------------------------------------ starting
def start_detached(home_dir: Path) -> None:
    """Start the server in the background (its own session; output to ``<home>/server.log``)."""
    import subprocess

    log = home_dir / "server.log"
    with open(log, "ab") as out:
        subprocess.Popen(
            [
                sys.executable,
                "-c",
                SERVE,
            ],
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=out,
            start_new_session=True,
            close_fds=True,
            env={**os.environ, "IBACHAT_HOME": str(home_dir)},
        )


def autostart(argv: list[str]) -> None:
    """After a routed command ran in its own process: start the server for the next one, when the
    config allows it and the home exists (a command that failed before making it starts nothing)."""
    if disabled() or os.environ.get("IBACHAT_IN_SERVER") or command_of(argv) not in ROUTED:
        return
    from ibachat.config import load_config
    from ibachat.errors import ConfigError

    try:
        cfg, _ = load_config()
        home_dir = home()
    except (ConfigError, OSError, ValueError):
        return
    if cfg.server != "auto" or not (home_dir / "turns").is_dir() or not os.access(home_dir, os.W_OK):
        return
    if len(os.fsencode(socket_path(home_dir))) >= 100 or request(home_dir, "status", timeout=1.0):
        return
    try:
        start_detached(home_dir)
    except OSError:
        return  # the server is a speed-up: a command that could not start it has still done its work
