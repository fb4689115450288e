"""Time from `ibachat chat` to the first usable screen, with 100k remembered turns.

The store is built in bulk with ``Memory.add_turns(..., index=False)``: no embedding, and the
indexes are out of date, so the app starts with all of its slow work still ahead (embedder,
index reconciliation, model) and must draw its screen without waiting for any of it.

Each run starts the real command in a pseudo-terminal and reads its output until the input's
placeholder has been drawn (the screen is up and the input has focus); then it sends Ctrl+Q and
checks that the app leaves promptly even though loading was still going on.

    python bench_scripts/bench_tui_startup.py [--turns 100000] [--runs 5] [--model embedded]
"""

from __future__ import annotations

import argparse
import json
import os
import pty
import select
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

READY_MARK = b"Enter sends"  # in the input's placeholder (its first letter is under the blinking cursor)
BUDGET_S = 1.0


def build_store(home: Path, turns: int) -> float:
    from memory.memory import Memory

    t0 = time.perf_counter()
    start = datetime(2025, 1, 1, tzinfo=UTC)
    step = 5000
    with Memory.open(home, embedder="hash", fsync=False) as mem:
        for first in range(0, turns, step):
            mem.add_turns(
                [
                    {
                        "session_id": f"bench-{i // 40:05d}",
                        "role": "user" if i % 2 == 0 else "assistant",
                        "text": f"turn {i}: remembered words about topic {i % 97} and errand {i % 13}",
                        "time": start + timedelta(minutes=i),
                    }
                    for i in range(first, min(first + step, turns))
                ],
                index=False,
            )
    return time.perf_counter() - t0


def one_run(home: Path, args: list[str], timeout: float = 30.0) -> tuple[float, float]:
    """Seconds until the usable screen, and seconds from Ctrl+Q until the process exited."""
    env = dict(
        os.environ, IBACHAT_HOME=str(home), IBACHAT_CONFIG=str(home / "config.toml"), TERM="xterm-256color"
    )
    env.setdefault("OMP_WAIT_POLICY", "PASSIVE")
    env.setdefault("HF_HUB_OFFLINE", "1")
    main_fd, child_fd = pty.openpty()
    os.set_blocking(main_fd, False)
    cmd = [sys.executable, "-m", "ibachat.cli", *args, "chat"]
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, stdin=child_fd, stdout=child_fd, stderr=child_fd, env=env, close_fds=True)
    os.close(child_fd)
    seen = b""
    ready = None
    try:
        while time.perf_counter() - t0 < timeout:
            readable, _, _ = select.select([main_fd], [], [], 0.01)
            if readable:
                try:
                    seen += os.read(main_fd, 65536)
                except OSError:
                    break
                if READY_MARK in seen:
                    ready = time.perf_counter() - t0
                    break
        if ready is None:
            raise RuntimeError(f"no usable screen within {timeout} s; output tail: {seen[-400:]!r}")
        t1 = time.perf_counter()
        os.write(main_fd, b"\x11")  # Ctrl+Q
        while proc.poll() is None and time.perf_counter() - t1 < timeout:
            try:
                os.read(main_fd, 65536)
            except (BlockingIOError, OSError):
                time.sleep(0.01)
        if proc.poll() is None:
            raise RuntimeError("the app did not leave within the timeout after Ctrl+Q")
        return ready, time.perf_counter() - t1
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        os.close(main_fd)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=100_000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--model", default="embedded", help="--model given to ibachat (default: embedded)")
    parser.add_argument(
        "--embedder", default=None, help="--embedder given to ibachat (default: the config's)"
    )
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    opts = parser.parse_args()
    args = ["--model", opts.model] + (["--embedder", opts.embedder] if opts.embedder else [])
    with tempfile.TemporaryDirectory(prefix="ibachat-bench-tui-") as tmp:
        home = Path(tmp) / "home"
        build_s = build_store(home, opts.turns)
        times, exits = [], []
        for _ in range(opts.runs):
            ready, leave = one_run(home, args)
            times.append(ready)
            exits.append(leave)
    result = {
        "turns": opts.turns,
        "build_store_s": round(build_s, 2),
        "runs": opts.runs,
        "first_usable_screen_s": [round(t, 3) for t in times],
        "median_s": round(statistics.median(times), 3),
        "exit_after_ctrl_q_s_median": round(statistics.median(exits), 3),
        "budget_s": BUDGET_S,
        "ok": statistics.median(times) < BUDGET_S,
    }
    if opts.json:
        print(json.dumps(result))
    else:
        print(f"store: {opts.turns:,} turns built in {build_s:.1f} s (unindexed)")
        print("first usable screen: " + ", ".join(f"{t:.3f}" for t in times) + " s")
        print(
            f"median {result['median_s']:.3f} s (budget {BUDGET_S:.1f} s): {'OK' if result['ok'] else 'TOO SLOW'}"
        )
        print(f"leaving with Ctrl+Q while still loading: median {result['exit_after_ctrl_q_s_median']:.3f} s")
    return 0 if result["ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
