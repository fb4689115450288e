"""Peak memory and time of `ibachat memory import` against the size of the file.

Writes a JSON Lines file of N short turns (about 115 bytes a line), imports it with the real
command in a child process, and reports the child's peak resident set size (``ru_maxrss`` of
the finished child: what ``/usr/bin/time -v`` calls "Maximum resident set size") and its wall
time. The import streams, so the peak should stay flat as N grows; the first `memory search`
afterwards is timed too (it loads the indexes, whose size does grow with the store).

    python bench_scripts/bench_import.py [--lines 50000 1000000] [--embedder hash] [--search]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def write_file(path: Path, lines: int) -> int:
    with open(path, "w", encoding="utf-8") as f:
        for i in range(lines):
            row = {
                "session_id": f"s{i // 40}",
                "role": "user" if i % 2 == 0 else "assistant",
                "text": f"log line {i} of batch {i % 977}",
                "time": f"2025-{1 + (i // 100000) % 12:02d}-{1 + (i // 4000) % 28:02d}T"
                f"{(i // 600) % 24:02d}:{(i // 10) % 60:02d}:{i % 60:02d}Z",
            }
            f.write(json.dumps(row) + "\n")
    return path.stat().st_size


def run_child(home: Path, embedder: str, *args: str) -> tuple[float, float, str]:
    """(wall seconds, peak RSS in MB of this child alone, stderr)."""
    env = {**os.environ, "IBACHAT_HOME": str(home), "PYTHONPATH": str(ROOT)}
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "ibachat.cli", "--embedder", embedder, *args],
        env=env,
        capture_output=True,
        text=True,
    )
    wall = time.perf_counter() - start
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(args)} failed: {done.stderr[-2000:]}")
    if peak <= before:
        print("  (peak RSS not above an earlier child's: run one size per process for exact figures)")
    return wall, peak / 1024, done.stderr


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, nargs="+", default=[50_000, 200_000])
    parser.add_argument("--embedder", default="hash")
    parser.add_argument("--search", action="store_true", help="time the first search after the import")
    args = parser.parse_args()
    for lines in sorted(args.lines):
        with tempfile.TemporaryDirectory(prefix="ibachat-bench-import-") as tmp:
            src = Path(tmp) / "turns.jsonl"
            size = write_file(src, lines)
            home = Path(tmp) / "home"
            wall, peak, _ = run_child(home, args.embedder, "memory", "import", str(src))
            print(f"{lines:>9,} lines {size / 1e6:7.1f} MB: import {wall:7.1f} s, peak RSS {peak:7.1f} MB")
            if args.search:
                wall, peak, _ = run_child(home, args.embedder, "memory", "search", "log line 7")
                print(f"{'':>9} first search after it {wall:7.1f} s, peak RSS {peak:7.1f} MB (indexes built)")


if __name__ == "__main__":
    main()
