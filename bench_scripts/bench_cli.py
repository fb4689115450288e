"""Cold whole-process times of the commands a person types, on a 10k-turn home.

    python bench_scripts/bench_cli.py [--turns 10000] [--runs 5] [--cache .bench-out/cli]
                                      [--skip-model] [--out FILE]

hyperfine-style: each command runs once to warm the OS file cache, then ``--runs`` times;
each command runs in its own process (``IBACHAT_SERVER=off``) and then through the resident
server (``ibachat server start`` first; the client's peak memory and the forked child's, as the
server reports it). The table gives the median wall time, the median peak resident memory of the process (its
``ru_maxrss`` from ``wait4``) and, for ``ask`` with the embedded model, the time to the first
streamed character (read from a pseudo-terminal, as a person would see it). ``python -c pass``
and ``python -c "import torch"`` run in the same session as the yardsticks.

The home is built once (``bench_planner.history``, ingested as in chat) and copied before the
runs, so the turns ``ask`` stores do not carry over between invocations of this script.
"""

from __future__ import annotations

import argparse
import json
import os
import pty
import re
import select
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
os.environ.setdefault("HF_HUB_OFFLINE", "1")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

VERSION = 1
ESCAPE = re.compile(rb"\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07|[\x00-\x20]")


def build(cache: Path, turns: int) -> Path:
    """A home of ``turns`` turns with its indexes saved (built once, then reused)."""
    from bench_scripts.bench_planner import history
    from ibachat.agent.ingest import ingest
    from memory.memory import Memory

    folder = cache / f"home-v{VERSION}-{turns}"
    if (folder / "built").exists():
        return folder
    if folder.exists():
        shutil.rmtree(folder)
    t0 = time.perf_counter()
    memory = Memory.open(folder, embedder="minilm", fsync=False)
    try:
        recs = history(turns)
        for i in range(0, len(recs), 1000):
            ingest(memory, recs[i : i + 1000])
        memory.save_indexes()
    finally:
        memory.close()
    (folder / "built").write_text(f"{turns} turns in {time.perf_counter() - t0:.0f} s\n")
    return folder


def once(cmd: list[str], env: dict[str, str], *, first_char: bool) -> dict[str, float]:
    """One run: wall seconds, peak RSS in MB and (on a pty) seconds to the first visible byte."""
    t0 = time.perf_counter()
    if not first_char:
        proc = subprocess.Popen(
            cmd, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
        )
        assert proc.stderr is not None
        err = proc.stderr.read()
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - t0
        proc.returncode = os.waitstatus_to_exitcode(status)
        if proc.returncode:
            raise SystemExit(
                f"{' '.join(cmd)} failed ({proc.returncode}): {err.decode(errors='replace')[-400:]}"
            )
        return {"wall_s": wall, "rss_mb": usage.ru_maxrss / 1024}
    master, slave = pty.openpty()
    proc = subprocess.Popen(cmd, env=env, stdin=subprocess.DEVNULL, stdout=slave, stderr=subprocess.DEVNULL)
    os.close(slave)
    first = None
    seen = b""
    while True:
        ready, _, _ = select.select([master], [], [], 120)
        if not ready:
            proc.kill()
            raise SystemExit(f"{' '.join(cmd)}: no output for 120 s")
        try:
            chunk = os.read(master, 4096)
        except OSError:  # the child closed the terminal
            break
        if not chunk:
            break
        seen += chunk
        if first is None and ESCAPE.sub(b"", seen):
            first = time.perf_counter() - t0
    os.close(master)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - t0
    if os.waitstatus_to_exitcode(status):
        raise SystemExit(f"{' '.join(cmd)} failed: {seen.decode(errors='replace')[-400:]}")
    return {"wall_s": wall, "rss_mb": usage.ru_maxrss / 1024, "first_s": first if first is not None else wall}


def measure(cmd: list[str], env: dict[str, str], runs: int, *, first_char: bool = False) -> dict[str, Any]:
    once(cmd, env, first_char=first_char)  # warm-up
    rows = [once(cmd, env, first_char=first_char) for _ in range(runs)]
    out = {k: round(statistics.median(r[k] for r in rows), 3) for k in rows[0]}
    out["wall_s_min"] = round(min(r["wall_s"] for r in rows), 3)
    out["wall_s_max"] = round(max(r["wall_s"] for r in rows), 3)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--turns", type=int, default=10000)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--cache", type=Path, default=ROOT / ".bench-out" / "cli")
    ap.add_argument("--skip-model", action="store_true", help="leave out `ask` with the embedded model")
    ap.add_argument("--out", type=Path)
    ap.add_argument("--build-only", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.build_only:
        build(args.cache, args.turns)
        return
    # the home is built in a process of its own: a command forked from this one after the build would
    # start with its pages and report them as its own peak memory (ru_maxrss survives fork and exec)
    subprocess.run(
        [sys.executable, __file__, "--build-only", "--turns", str(args.turns), "--cache", str(args.cache)],
        check=True,
    )
    built = args.cache / f"home-v{VERSION}-{args.turns}"
    home = args.cache / "run-home"
    if home.exists():
        shutil.rmtree(home)
    shutil.copytree(built, home)
    env = dict(os.environ, IBACHAT_HOME=str(home), IBACHAT_CONFIG=str(home / "none.toml"), NO_COLOR="1")
    exe = [str(Path(sys.executable).with_name("ibachat"))]  # the console script a person runs
    commands: list[tuple[str, list[str], bool]] = [
        ("python -c pass", [sys.executable, "-c", "pass"], False),
        ('python -c "import torch"', [sys.executable, "-c", "import torch"], False),
        ('memory search "gardening"', [*exe, "memory", "search", "gardening"], False),
        ("memory show", [*exe, "memory", "show"], False),
        (
            'ask --model none "Book a table..."',
            [*exe, "ask", "--model", "none", "Book a table for two on Friday at 7pm"],
            False,
        ),
    ]
    if not args.skip_model:
        commands.append(
            (
                'ask "Any tips for a rainy Sunday?" (embedded)',
                [*exe, "ask", "--model", "embedded", "Any tips for a rainy Sunday?"],
                True,
            )
        )
    report: dict[str, Any] = {
        "version": VERSION,
        "turns": args.turns,
        "runs": args.runs,
        "load_avg_1m": round(os.getloadavg()[0], 2),
        "own_process": {},
        "resident_server": {},
    }
    off = dict(env, IBACHAT_SERVER="off")
    for label, cmd, first in commands:
        report["own_process"][label] = measure(cmd, off, args.runs, first_char=first)
    # the same commands through the resident server (started as a user starts it)
    from ibachat import server as srv

    on = {k: v for k, v in env.items() if k != "IBACHAT_SERVER"}
    started = subprocess.run([*exe, "server", "start"], env=on, capture_output=True, text=True, timeout=300)
    if started.returncode:
        raise SystemExit(f"server start failed: {started.stderr}")
    report["server_loaded_s"] = srv.request(home, "status")["loaded"]
    try:
        for label, cmd, first in commands[2:]:
            row = measure(cmd, on, args.runs, first_char=first)
            recent = srv.request(home, "status")["recent"][-args.runs :]
            row["child_rss_mb"] = round(statistics.median(r["maxrss_mb"] for r in recent), 1)
            row["child_wall_s"] = round(statistics.median(r["wall_s"] for r in recent), 3)
            report["resident_server"][label] = row
    finally:
        subprocess.run([*exe, "server", "stop"], env=on, capture_output=True, timeout=60)
    report["load_avg_1m_after"] = round(os.getloadavg()[0], 2)
    shutil.rmtree(home)
    width = max(len(k) for k in report["own_process"])
    print(
        f"{'command':<{width}}  {'wall s':>7}  {'min-max':>11}  {'first s':>7}  {'peak MB':>7}  | server: {'wall s':>6}  {'first s':>7}  {'client MB':>9}  {'child MB':>8}"
    )
    for label, row in report["own_process"].items():
        first = f"{row['first_s']:7.2f}" if "first_s" in row else f"{'':>7}"
        spread = f"{row['wall_s_min']:.2f}-{row['wall_s_max']:.2f}"
        line = f"{label:<{width}}  {row['wall_s']:7.2f}  {spread:>11}  {first}  {row['rss_mb']:7.0f}  |"
        srow = report["resident_server"].get(label)
        if srow:
            sfirst = f"{srow['first_s']:7.2f}" if "first_s" in srow else f"{'':>7}"
            line += f"         {srow['wall_s']:6.2f}  {sfirst}  {srow['rss_mb']:9.0f}  {srow['child_rss_mb']:8.0f}"
        print(line)
    print(
        f"{args.turns:,} turns, median of {args.runs} after one warm-up; server loaded in "
        f"{sum(report['server_loaded_s'].values()):.1f} s; load {report['load_avg_1m']} -> {report['load_avg_1m_after']}"
    )
    if args.out:
        args.out.write_text(json.dumps(report, indent=2) + "\n")


if __name__ == "__main__":
    main()
