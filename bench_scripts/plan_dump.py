"""Dump every plan the planner benchmark makes, without timings, to compare two versions of the code.

    python bench_scripts/plan_dump.py --cache DIR [--turns 10000] [--tasks 50] --out FILE
    python bench_scripts/plan_dump.py --compare A.json B.json

Uses ``bench_planner``'s store and tasks; each task is acted on at the floor (no model) and
with the scripted capable model. What is dumped is ``Outcome.to_dict()`` less its timings
(counters' ``timings_ms``, evidence stats' ``ms``), so two runs of one version agree exactly.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import bench_planner as bp  # noqa: E402


def _strip(obj: Any) -> Any:
    if isinstance(obj, dict):
        return {k: _strip(v) for k, v in obj.items() if k not in ("timings_ms", "ms")}
    if isinstance(obj, list):
        return [_strip(v) for v in obj]
    return obj


def dump(cache: Path, turns: int, n: int) -> list[dict[str, Any]]:
    from ibachat.agent.planner import Planner

    memory, _ = bp.build(cache, turns)
    out = []
    try:
        for label, llm, kw in (("floor", None, {}), ("scripted", bp.scripted(), {"refine": True})):
            for task, tool in bp.tasks(n):
                outcome = Planner(memory, llm, **kw).act(task, now=bp.NOW, tools=[tool] if tool else None)
                out.append({"run": label, "task": task, "outcome": _strip(outcome.to_dict())})
    finally:
        memory.close()
    return out


def compare(a: Path, b: Path) -> int:
    left, right = json.loads(a.read_text()), json.loads(b.read_text())
    if len(left) != len(right):
        print(f"different numbers of plans: {len(left)} vs {len(right)}")
        return 1
    bad = 0
    for x, y in zip(left, right, strict=True):
        if x != y:
            bad += 1
            keys = [k for k in x["outcome"] if x["outcome"].get(k) != y["outcome"].get(k)]
            plan_keys = [
                k for k in x["outcome"]["plan"] if x["outcome"]["plan"].get(k) != y["outcome"]["plan"].get(k)
            ]
            print(f"DIFFERENT [{x['run']}] {x['task']!r}: {keys} plan: {plan_keys}")
    print(f"{len(left) - bad}/{len(left)} outcomes identical")
    return 1 if bad else 0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cache", type=Path)
    ap.add_argument("--turns", type=int, default=10000)
    ap.add_argument("--tasks", type=int, default=50)
    ap.add_argument("--out", type=Path)
    ap.add_argument("--compare", nargs=2, type=Path)
    args = ap.parse_args()
    if args.compare:
        raise SystemExit(compare(*args.compare))
    if args.cache is None or args.out is None:
        ap.error("--cache and --out are needed to dump")
    args.out.write_text(json.dumps(dump(args.cache, args.turns, args.tasks), indent=1, default=str) + "\n")


if __name__ == "__main__":
    main()
