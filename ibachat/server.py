"""A resident warm process for the command line, as ``ollama serve`` is for ``ollama run``.

A cold ``ibachat ask`` pays for Python's imports, the English parser and the embedder before it
reads a word (seconds on a small machine). The server pays that once: it loads them, listens on
``<home>/server.sock`` (the home is private, 0700) and, for each command, **forks a child that
runs the command exactly as the ``ibachat`` process would** (``ibachat.cli.main``), on the
caller's own terminal (its stdin, stdout and stderr are passed over the socket), in its working
folder and environment. The child opens the memory, takes its locks and exits like any command;
the server itself never opens the store. The caller forwards Ctrl-C and waits for the exit code.

- ``ibachat server start|stop|status``; started on first use when the config says
  ``server = "auto"`` (the default), never when ``IBACHAT_SERVER=off``.
- It stops when idle (``IBACHAT_SERVER_IDLE``, default 900 s), when its socket is removed, and
  refuses (so the caller runs the command itself) a caller whose ibachat files differ from its
  own (an upgrade or an edit since it started).
- Routed: ``ask``, ``memory``, ``doctor``, ``config``. The chat and the TUI (long sessions that
  want the terminal's signals) and ``bench`` run in their own process.

The client half (``server_client.py``) imports the standard library only: it runs before anything else.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import sys
import time
from pathlib import Path
from typing import Any

from ibachat.server_client import (  # noqa: F401 - the client half, also reached as ibachat.server.*
    GLOBAL_VALUE_OPTIONS,
    IDLE_S,
    ROUTED,
    SOCKET,
    _message,
    autostart,
    command_of,
    disabled,
    fingerprint,
    home,
    request,
    run_remote,
    socket_path,
    start_detached,
)


# ------------------------------------------------------------------ server
def preload() -> dict[str, float]:
    """Import and load what every routed command needs; seconds per part."""
    times: dict[str, float] = {}
    t0 = time.perf_counter()
    import ibachat.cli  # noqa: F401 - registers the commands
    from ibachat.agent import planner  # noqa: F401
    from ibachat.agent.reading.parse import nlp
    from ibachat.commands import ask, memory_cmd  # noqa: F401

    times["import_s"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    nlp()("Book a table for two on Friday.")
    times["parser_s"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    from ibachat.errors import USER_ERRORS
    from memory.embedders.registry import load_embedder

    try:
        embedder = load_embedder("minilm")
        embedder.load()
        embedder.embed_batch(["warm"])
    except USER_ERRORS as exc:
        print(f"embedder not preloaded: {exc}", file=sys.stderr)
    times["embedder_s"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    warm_up()
    # what is loaded now lives as long as the server: kept out of the collector's full passes
    # (``planner.warm``), in the server and in every child it forks (a full pass over the loaded
    # models and indexes took tens of milliseconds inside a child's request), and its pages stay
    # shared with the children
    from ibachat.agent.planner import warm

    warm()
    times["warm_up_s"] = time.perf_counter() - t0
    return times


def keep_model() -> str:
    """Start the model host (``ibachat/llm/host.py``) when the config's chat model is the embedded
    one, so that ``ask`` streams from a loaded model; what was done, in words."""
    from ibachat.config import load_config
    from ibachat.errors import USER_ERRORS
    from ibachat.llm import host
    from ibachat.llm.select import choose

    try:
        cfg, _ = load_config()
        choice = choose(cfg.model, probe_timeout=0.5)
    except USER_ERRORS as exc:
        return f"no model kept loaded: {exc}"
    if choice.backend != "embedded" or not choice.ready:
        return f"no model kept loaded ({choice.backend}: {choice.reason})"
    t0 = time.perf_counter()
    got = host.start(Path(choice.model))
    if isinstance(got, str):
        print(f"ibachat server: {got}; each ask loads the model itself", file=sys.stderr)
        return f"no model kept loaded: {got}"
    return f"embedded model kept loaded by pid {got.pid} ({time.perf_counter() - t0:.2f} s)"


def warm_up() -> None:
    """Run the routed commands once on a scratch home (deleted after), so that what every command
    builds on first use and keeps by text (the catalogue's parses and derived texts, compiled
    patterns, lazily imported modules) is built before the first child forks. Nothing of the
    user's home is read or written."""
    import contextlib
    import io
    import tempfile

    from ibachat.cli import main

    saved = dict(os.environ)
    with tempfile.TemporaryDirectory(prefix="ibachat-warm-") as scratch:
        os.environ.update(
            IBACHAT_HOME=scratch, IBACHAT_CONFIG=str(Path(scratch) / "none.toml"), IBACHAT_SERVER="off"
        )
        os.environ.pop("IBACHAT_EMBEDDER", None)
        out, err = io.StringIO(), io.StringIO()
        try:
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                for argv in (
                    ["ask", "--model", "none", "--json", "Book a table for two on Friday at 7pm"],
                    ["ask", "--model", "none", "--json", "What should I cook tonight?"],
                    # a span from now: dateparser is loaded and its first parse (about 0.2 s) is done
                    ["ask", "--model", "none", "--json", "Remind me in two hours to call the bank"],
                    # weeks for a days parameter: the units library is loaded (about 0.4 s)
                    ["ask", "--model", "none", "--json", "Draw up a training schedule for three weeks"],
                    ["memory", "search", "table"],
                    ["memory", "show"],
                ):
                    if main(argv) != 0:
                        print(
                            f"warm-up {' '.join(argv[:2])} failed: {err.getvalue()[-300:]}", file=sys.stderr
                        )
        finally:
            os.environ.clear()
            os.environ.update(saved)


class _Server:
    def __init__(self, home_dir: Path, idle_s: float) -> None:
        self.home = home_dir
        self.path = socket_path(home_dir)
        self.idle_s = idle_s
        self.children: dict[int, tuple[socket.socket, float]] = {}
        self.started = time.time()
        self.last = time.monotonic()
        self.served = 0
        self.recent: list[dict[str, Any]] = []
        self.loaded: dict[str, float] = {}
        self.fingerprint = fingerprint()
        self.model = ""

    def run(self) -> int:
        import fcntl

        lock = open(self.home / "server.lock", "a+b")  # noqa: SIM115 - held for the server's life
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return 0  # another server holds this home
        self.loaded = preload()
        self.model = keep_model()
        if self.path.exists():
            self.path.unlink()  # a socket left by a server that was killed: we hold the lock
        listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        listener.bind(str(self.path))
        listener.listen(16)
        inode = self.path.stat().st_ino
        wake_r, wake_w = os.pipe()
        os.set_blocking(wake_w, False)
        signal.set_wakeup_fd(wake_w)
        signal.signal(signal.SIGCHLD, lambda *_: None)
        signal.signal(signal.SIGTERM, lambda *_: None)  # handled below: the loop ends
        stopping = False
        print(
            f"ibachat server {os.getpid()} ready at {self.path} ({self._loaded_text()}); {self.model}",
            flush=True,
        )
        import select

        try:
            while True:
                self._reap()
                if stopping and not self.children:
                    break
                try:
                    ready, _, _ = select.select([listener, wake_r], [], [], 5.0)
                except InterruptedError:
                    ready = []
                if wake_r in ready:
                    got = os.read(wake_r, 512)
                    if bytes([signal.SIGTERM]) in got:
                        stopping = True
                if listener in ready and not stopping:
                    conn, _ = listener.accept()
                    stopping = self._handle(conn, listener, (wake_r, wake_w)) or stopping
                idle = not self.children and time.monotonic() - self.last > self.idle_s
                try:
                    moved = self.path.stat().st_ino != inode
                except FileNotFoundError:
                    moved = True
                if idle or moved:
                    stopping = True
        finally:
            from ibachat.llm import host

            host.stop()
            listener.close()
            try:
                if self.path.stat().st_ino == inode:
                    self.path.unlink()
            except FileNotFoundError:
                pass
            lock.close()
        return 0

    def _loaded_text(self) -> str:
        return ", ".join(f"{k.removesuffix('_s')} {v:.2f} s" for k, v in self.loaded.items())

    def _handle(self, conn: socket.socket, listener: socket.socket, pipe: tuple[int, int]) -> bool:
        """One connection: a command (forked) or a control request. True when asked to stop."""
        conn.settimeout(5.0)
        try:
            _, fds, _, _ = socket.recv_fds(conn, 1, 3)
            header = _message(conn.makefile("rb"))
        except (OSError, ValueError):
            conn.close()
            return False
        conn.settimeout(None)
        self.last = time.monotonic()
        op = (header or {}).get("op")
        if op != "run":
            for fd in fds:
                os.close(fd)
            reply: dict[str, Any] = {
                "pid": os.getpid(),
                "home": str(self.home),
                "since": self.started,
                "served": self.served,
                "running": len(self.children),
                "idle_stop_s": self.idle_s,
                "loaded": self.loaded,
                "model": self.model,
                "recent": self.recent[-10:],
            }
            self._send(conn, reply)
            conn.close()
            return op == "stop"
        assert header is not None
        if header.get("fingerprint") != self.fingerprint or len(fds) != 3:
            for fd in fds:
                os.close(fd)
            self._send(conn, {"refused": "the caller's ibachat differs from the server's; stopping"})
            conn.close()
            return True  # stale after an upgrade: the caller runs the command, the next one restarts us
        sys.stdout.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:
            _child(header, fds, [conn, listener], pipe)
        for fd in fds:
            os.close(fd)
        self.served += 1
        self.children[pid] = (conn, time.monotonic())
        self._send(conn, {"pid": pid})
        return False

    def _reap(self) -> None:
        while self.children:
            try:
                pid, status, usage = os.wait4(-1, os.WNOHANG)
            except ChildProcessError:
                return
            if pid == 0:
                return
            conn, t0 = self.children.pop(pid, (None, 0.0))
            if conn is None:
                continue
            rc = os.waitstatus_to_exitcode(status)
            rc = rc if rc >= 0 else 128 - rc  # killed by a signal: the shell's convention
            row = {
                "rc": rc,
                "wall_s": round(time.monotonic() - t0, 3),
                "maxrss_mb": round(usage.ru_maxrss / 1024, 1),
            }
            self.recent = [*self.recent[-49:], row]
            self._send(conn, row)
            conn.close()
            self.last = time.monotonic()

    @staticmethod
    def _send(conn: socket.socket, message: dict[str, Any]) -> None:
        try:
            conn.sendall(json.dumps(message).encode() + b"\n")
        except OSError:
            pass  # the caller has gone (killed); the command still runs to its end


def _child(header: dict[str, Any], fds: list[int], close: list[socket.socket], pipe: tuple[int, int]) -> None:
    """In the forked child: become the caller's ``ibachat`` process and run its command."""
    code = 1
    try:
        signal.set_wakeup_fd(-1)
        for signum in (signal.SIGCHLD, signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT):
            signal.signal(signum, signal.SIG_DFL)
        signal.signal(signal.SIGINT, signal.default_int_handler)
        for sock in close:
            sock.close()
        for fd in pipe:
            os.close(fd)
        for target, fd in enumerate(fds):
            os.dup2(fd, target)
            os.close(fd)
        import io

        sys.stdin = io.TextIOWrapper(io.FileIO(0, "rb", closefd=False), encoding="utf-8")
        sys.stdout = io.TextIOWrapper(
            io.FileIO(1, "wb", closefd=False), encoding="utf-8", line_buffering=os.isatty(1)
        )
        sys.stderr = io.TextIOWrapper(
            io.FileIO(2, "wb", closefd=False),
            encoding="utf-8",
            errors="backslashreplace",
            line_buffering=True,
        )
        os.environ.clear()
        os.environ.update(header.get("env") or {})
        os.environ["IBACHAT_IN_SERVER"] = "1"
        try:
            os.chdir(header.get("cwd") or "/")
        except OSError as exc:
            print(f"ibachat: error: cannot enter the working folder: {exc.strerror}", file=sys.stderr)
            return
        argv = [str(a) for a in header.get("argv") or []]
        sys.argv = ["ibachat", *argv]
        from ibachat.cli import main

        code = main(argv)
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else 1
    finally:
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except (OSError, ValueError):
                pass  # the caller's terminal went away; nothing more can be said there
        os._exit(code)


def main_serve(idle_s: float | None = None) -> int:
    """Run the server for ``$IBACHAT_HOME`` (or the default home) in this process until it stops."""
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
    os.environ["TOKENIZERS_PARALLELISM"] = "false"  # the tokenizer's thread pool does not survive fork
    from memory.paths import ensure_private_dir, private_umask

    private_umask()
    if idle_s is None:
        try:
            idle_s = float(os.environ.get("IBACHAT_SERVER_IDLE", IDLE_S))
        except ValueError:
            idle_s = IDLE_S
    home_dir = home()
    ensure_private_dir(home_dir)
    if len(os.fsencode(socket_path(home_dir))) >= 100:
        print(f"ibachat: error: the home's path is too long for a socket: {home_dir}", file=sys.stderr)
        return 1
    return _Server(home_dir, idle_s).run()


def launch() -> None:
    """The ``ibachat`` console script: the resident server runs the command when there is one;
    otherwise this process does (and starts the server for the next command)."""
    argv = sys.argv[1:]
    code = run_remote(argv)
    if code is None:
        from ibachat.cli import main

        code = main(argv)
        if code == 0:
            autostart(argv)
    sys.exit(code)
