"""PrefEval as IBA-Bench action tasks, on the planner's floor (no chat model): strict accuracy per
form x filler size x split (tune / held-out topics) x agent, and the agents' speed.

    python bench_scripts/bench_prefeval.py [--data ../shared/data/prefeval-dev] [--agents iba none]
        [--forms explicit choice persona] [--fillers 50 300] [--limit-per-topic 5] [--split all] [--jobs 1]
        [--seed 0] [--locomo locomo10.zip] [--out .bench-out/prefeval] [--json FILE]

Tasks are built by ``bench/prefeval.py`` (the preference block among ``filler`` unrelated turns,
the four replies shuffled, chance 0.25); each agent runs them through ``bench.runner.run_bench``
(a fresh store per task; the embedding cache under ``--out`` is shared by every run, so filler
text is embedded once). Results files stay under ``--out/<timestamp>/`` for ``ibachat bench report``.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("HF_HUB_OFFLINE", "1")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.prefeval import FORMS, HELD_OUT, iter_tasks  # noqa: E402
from bench.runner import run_bench  # noqa: E402
from memory.errors import BadInput  # noqa: E402

AGENTS = ("iba", "rag", "none")


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "data" / "prefeval-dev")
    parser.add_argument("--agents", nargs="+", choices=AGENTS, default=["iba", "none"])
    parser.add_argument("--forms", nargs="+", choices=FORMS, default=list(FORMS))
    parser.add_argument("--fillers", nargs="+", type=int, default=[50, 300])
    parser.add_argument("--limit-per-topic", type=int, default=5, help="pairs per topic (default 5)")
    parser.add_argument("--split", choices=("all", "tune", "held-out"), default="all", help="topics to run")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--locomo", type=Path, help="also draw filler from LoCoMo sessions")
    parser.add_argument("--out", type=Path, default=ROOT / ".bench-out" / "prefeval")
    parser.add_argument("--json", dest="json_out", type=Path, help="also write the table as JSON here")
    return parser.parse_args(argv)


def _cell(rows: list[dict[str, Any]]) -> dict[str, Any]:
    stricts = [bool(r.get("strict")) for r in rows]
    return {"n": len(rows), "strict": round(sum(stricts) / len(stricts), 3) if rows else None}


def measure(args: argparse.Namespace) -> dict[str, Any]:
    tasks = list(
        iter_tasks(
            args.data,
            forms=args.forms,
            fillers=args.fillers,
            seed=args.seed,
            limit_per_topic=args.limit_per_topic,
            locomo=args.locomo,
            split=args.split,
        )
    )
    meta = {t["id"]: t["meta"] for t in tasks}
    run_dir = args.out / time.strftime("%Y%m%d-%H%M%S")
    table: dict[str, dict[str, Any]] = {}
    speed: dict[str, dict[str, Any]] = {}
    for agent in args.agents:
        rows: list[dict[str, Any]] = []
        summary = run_bench(
            tasks,
            agent=agent,
            jobs=args.jobs,
            out_dir=run_dir,
            progress=False,
            suite={"path": str(args.data), "source": "prefeval"},
            cache_dir=args.out / "embed-cache",
            on_result=rows.append,
        )
        groups: dict[tuple[str, int, str], list[dict[str, Any]]] = defaultdict(list)
        for row in rows:
            m = meta[row["task_id"]]
            groups[(m["form"], m["filler"], m["split"])].append(row)
            groups[(m["form"], m["filler"], "all")].append(row)
        for (form, filler, split), cell_rows in groups.items():
            table.setdefault(f"{form}|{filler}|{split}", {})[agent] = _cell(cell_rows)
        totals = [r["timings_ms"]["total"] for r in rows]
        by_filler: dict[int, list[float]] = defaultdict(list)
        for row in rows:
            by_filler[meta[row["task_id"]]["filler"]].append(row["timings_ms"]["total"])
        speed[agent] = {
            "tasks": len(rows),
            "errors": summary.errors,
            "wall_s": summary.wall_s,
            "tasks_per_s": round(len(rows) / summary.wall_s, 2) if summary.wall_s else None,
            "p50_ms": round(statistics.median(totals), 1) if totals else None,
            "p95_ms": round(statistics.quantiles(totals, n=20)[-1], 1) if len(totals) >= 2 else None,
            "p50_ms_by_filler": {n: round(statistics.median(v), 1) for n, v in sorted(by_filler.items())},
            "results": str(summary.results),
        }
    return {
        "table": table,
        "speed": speed,
        "tasks": len(tasks),
        "held_out": list(HELD_OUT),
        "args": vars(args),
    }


def print_table(result: dict[str, Any], agents: list[str]) -> None:
    head = f"{'form':<9} {'filler':>6} {'split':<9} {'n':>4}  " + "  ".join(f"{a:>6}" for a in agents)
    print(head)
    print("-" * len(head))
    order = {"tune": 0, "held-out": 1, "all": 2}
    keys = sorted(
        result["table"],
        key=lambda k: (FORMS.index(k.split("|")[0]), int(k.split("|")[1]), order[k.split("|")[2]]),
    )
    for key in keys:
        form, filler, split = key.split("|")
        cells = result["table"][key]
        n = next(iter(cells.values()))["n"]
        values = "  ".join(f"{cells[a]['strict']:>6.3f}" if a in cells else f"{'-':>6}" for a in agents)
        print(f"{form:<9} {filler:>6} {split:<9} {n:>4}  {values}")
    print(f"\nstrict accuracy (chance 0.25); held-out topics: {', '.join(result['held_out'])}")
    for agent, s in result["speed"].items():
        print(
            f"{agent}: {s['tasks']} tasks, {s['errors']} failed, {s['wall_s']} s, {s['tasks_per_s']} tasks/s, "
            f"per task p50 {s['p50_ms']} ms, p95 {s['p95_ms']} ms "
            f"(p50 by filler: {', '.join(f'{n}: {v} ms' for n, v in s['p50_ms_by_filler'].items())}) "
            f"-> {s['results']}"
        )


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    try:
        result = measure(args)
    except BadInput as exc:
        print(f"bench_prefeval: {exc}", file=sys.stderr)
        return 1
    print_table(result, args.agents)
    if args.json_out:
        args.json_out.write_text(json.dumps(result, indent=2, default=str) + "\n", "utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
