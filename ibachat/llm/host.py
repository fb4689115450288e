"""The embedded model kept loaded beside the resident server, so ``ask`` does not load it per command.

The resident server (``ibachat/server.py``) forks a child per command; llama.cpp's threads do not
survive a fork, so the model cannot live in the server itself. It lives in a process of its own,
started by the server (``start``): ``python -m ibachat.llm.host GGUF`` loads the GGUF with
llama.cpp's own HTTP server (xllamacpp, the same C++ server ``llama-server`` runs) on a free port of
127.0.0.1, behind a bearer key made for this run (another local user cannot use it), prints one
JSON line with its URL, and lives until its standard input closes (the server stops, or is killed).

The server records the host (``attach``) before it forks; in a child, ``EmbeddedLLM`` asks
``resident(path)`` and streams through the OpenAI-compatible backend when the host serves its own
GGUF. The request is the one the in-process model gets (same messages, schema and sampling), so
the answer is the same; a host that does not answer is dropped and the model loads in the child.
"""

from __future__ import annotations

import json
import os
import secrets
import select
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

START_TIMEOUT = 60.0  # seconds the host may take to load the model and report its URL
KEY_ENV = "IBACHAT_MODEL_HOST_KEY"


@dataclass(frozen=True)
class Host:
    url: str  # http://127.0.0.1:PORT/v1
    key: str
    model_path: str
    pid: int


_resident: Host | None = None
_proc: subprocess.Popen[bytes] | None = None


def resident(model_path: Path | str | None) -> Host | None:
    """The host serving ``model_path`` in this process's server, if any."""
    if _resident is None or model_path is None:
        return None
    return _resident if os.path.realpath(model_path) == _resident.model_path else None


def forget() -> None:
    """Stop using the host here (it did not answer); the model then loads in this process."""
    global _resident
    _resident = None


def start(model_path: Path, timeout: float = START_TIMEOUT) -> Host | str:
    """Start the host for ``model_path``; the host, or one line saying why not."""
    global _resident, _proc
    key = secrets.token_urlsafe(24)
    env = dict(os.environ, **{KEY_ENV: key}, OMP_WAIT_POLICY="PASSIVE")
    try:
        proc = subprocess.Popen(
            [sys.executable, "-m", "ibachat.llm.host", str(model_path)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=env,
            start_new_session=True,  # the caller's Ctrl-C is for the command, not the model
        )
    except OSError as exc:
        return f"cannot start the model host: {exc.strerror}"
    assert proc.stdout is not None and proc.stderr is not None
    deadline = time.monotonic() + timeout
    line = b""
    while not line.endswith(b"\n"):
        left = deadline - time.monotonic()
        ready, _, _ = select.select([proc.stdout], [], [], max(0.0, left))
        if not ready:
            _end(proc)
            return f"the model host did not report within {timeout:g} s"
        got = os.read(proc.stdout.fileno(), 4096)
        if not got:
            err = proc.stderr.read().decode(errors="replace").strip().splitlines()
            _end(proc)
            return f"the model host stopped: {err[-1] if err else 'no reason given'}"
        line += got
    try:
        url = str(json.loads(line)["url"])
    except (ValueError, KeyError, TypeError):
        _end(proc)
        return f"the model host said something unexpected: {line[:80]!r}"
    _proc = proc
    _resident = Host(url, key, os.path.realpath(model_path), proc.pid)
    return _resident


def stop() -> None:
    """Close the host's input (it exits) and wait for it briefly."""
    global _proc
    proc, _proc = _proc, None
    forget()
    if proc is not None:
        _end(proc)


def _end(proc: subprocess.Popen[bytes]) -> None:
    for stream in (proc.stdin, proc.stdout, proc.stderr):
        if stream is not None:
            stream.close()
    try:
        proc.wait(timeout=5.0)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def serve(model_path: str) -> int:
    """In the host process: load the model, report the URL, serve until stdin closes."""
    os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
    key = os.environ.pop(KEY_ENV, "")
    if not key:
        print("no key given: the host is started by the resident server", file=sys.stderr)
        return 2
    from ibachat.llm.llama import import_xllamacpp, server_params

    xllamacpp = import_xllamacpp()
    params: Any = server_params(Path(model_path))
    params.api_keys = [key]
    try:
        server = xllamacpp.Server(params)
    except (RuntimeError, ValueError) as exc:
        print(f"cannot load {model_path}: {exc}", file=sys.stderr)
        return 1
    sys.stdout.write(json.dumps({"url": f"{server.listening_address}/v1"}) + "\n")
    sys.stdout.flush()
    while os.read(0, 4096):
        pass  # nothing is sent: the input closes when the server goes
    os._exit(0)  # the native server's teardown can block; the process is ending anyway


if __name__ == "__main__":
    if len(sys.argv) != 2:
        print("usage: python -m ibachat.llm.host MODEL.gguf", file=sys.stderr)
        sys.exit(2)
    sys.exit(serve(sys.argv[1]))
