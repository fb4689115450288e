"""iba on the canonical suite and on its foreign-tools variant, same tasks: soft and strict per domain.

    python bench_scripts/bench_foreign.py [--limit 1000] [--jobs 1] [--seed 0] [--data SUITE.jsonl]
                                          [--agent iba] [--embedder SPEC] [--out .bench-out/foreign]
                                          [--resume] [--fresh] [--json FILE]

Takes the first ``--limit`` tasks of the suite (``--data``, else the generated seed-``--seed``
suite, whose first tasks are generated on the fly), rewrites them with
``bench.generator.foreign.foreign_task`` (every tool renamed and re-spelt: names, parameters,
descriptions, enum values, units; the histories' past calls too) and runs the agent on both
through ``bench.runner.run_bench`` with the planner's floor (no chat model). Both runs share one
embedding cache, so the second embeds almost nothing. Prints, per domain and overall (and over
the action tasks alone), soft (0-100) and strict (% of tasks with every check passed) for both
variants and the difference (foreign minus canonical), then the action tasks' parameter checks
split by whether a past call of the same tool in the history already shows an accepted value
(copying it needs no reading of names) or not (the value must come from what the user said).
``--fresh`` adds a third run, ``foreign-fresh``: the offered tools are foreign but the history's
past calls keep the canonical tools, as for a user new to these tools.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("HF_HUB_OFFLINE", "1")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.generator import generate_suite  # noqa: E402
from bench.generator.foreign import foreign_task  # noqa: E402
from bench.runner import read_results, run_bench  # noqa: E402
from bench.validate import load_suite  # noqa: E402
from memory.errors import BadInput  # noqa: E402


def first_tasks(data: Path | None, seed: int, limit: int) -> list[dict[str, Any]]:
    if data is not None:
        return load_suite(data, limit=limit)
    return list(itertools.islice(generate_suite(seed), limit))  # the suite file's first lines, in order


def _scores(rows: list[dict[str, Any]]) -> dict[str, float | int | None]:
    soft = [r["soft"] for r in rows if r.get("soft") is not None]
    strict = [r["strict"] for r in rows if r.get("strict") is not None]
    return {
        "tasks": len(rows),
        "soft": round(sum(soft) / len(soft), 2) if soft else None,
        "strict": round(100 * sum(strict) / len(strict), 2) if strict else None,
    }


def table(rows: dict[str, list[dict[str, Any]]]) -> dict[str, dict[str, dict[str, Any]]]:
    """{group: {variant: scores}} for each domain, the action tasks and all tasks."""
    groups: dict[str, dict[str, list[dict[str, Any]]]] = {}
    for variant, results in rows.items():
        for row in results:
            for group in (
                row["domain"],
                *(["(action tasks)"] if row["task_type"] == "action" else []),
                "(all)",
            ):
                groups.setdefault(group, {v: [] for v in rows})[variant].append(row)
    order = sorted(g for g in groups if not g.startswith("(")) + ["(action tasks)", "(all)"]
    return {g: {v: _scores(groups[g][v]) for v in rows} for g in order if g in groups}


BUCKETS = ("shown by a past call", "not shown by a past call")


def coverage(task: dict[str, Any]) -> list[str | None]:
    """Per check: whether a past call of the same tool in the history already used an accepted value
    (a planner can copy it without reading any name), or not (the value must come from what the
    user said). None for checks other than ``param_in`` / ``param_range``."""
    from bench.evaluate import evaluate_check

    past: dict[str, list[dict[str, Any]]] = {}
    for session in task.get("history") or []:
        for turn in session["turns"]:
            call = turn.get("tool_call")
            if call:
                past.setdefault(str(call["name"]).casefold(), []).append(call)
    out: list[str | None] = []
    for check in task["checks"]:
        if check["kind"] not in ("param_in", "param_range"):
            out.append(None)
            continue
        calls = past.get(str(check["target"]).split(".", 1)[0].casefold(), [])
        shown = any(evaluate_check(check, None, [c]).status == "pass" for c in calls)
        out.append(BUCKETS[0] if shown else BUCKETS[1])
    return out


def by_coverage(
    tasks: list[dict[str, Any]], rows: dict[str, list[dict[str, Any]]]
) -> dict[str, dict[str, dict[str, Any]]]:
    """{bucket: {variant: {checks, passed %}}} over the action tasks' param_in / param_range checks."""
    buckets = {t["id"]: coverage(t) for t in tasks if t["task_type"] == "action"}
    result: dict[str, dict[str, dict[str, Any]]] = {b: {} for b in BUCKETS}
    for variant, results in rows.items():
        counts = {b: [0, 0] for b in BUCKETS}
        for row in results:
            for bucket, check in zip(buckets.get(row["task_id"], []), row["checks"], strict=False):
                if bucket is not None and check["status"] in ("pass", "fail"):
                    counts[bucket][0] += 1
                    counts[bucket][1] += check["status"] == "pass"
        for bucket, (n, ok) in counts.items():
            result[bucket][variant] = {"checks": n, "passed": round(100 * ok / n, 1) if n else None}
    return result


def render_coverage(result: dict[str, dict[str, dict[str, Any]]]) -> str:
    lines = ["action checks (param_in / param_range) by whether the history's past calls show the value:"]
    for bucket, by in result.items():
        c = by["canonical"]
        cells = ", ".join(
            f"{v} {_cell(x['passed'])}%"
            + ("" if v == "canonical" else f" ({_diff(c['passed'], x['passed'])})")
            for v, x in by.items()
        )
        lines.append(f"  {bucket:<26}{c['checks']:>5} checks  passed: {cells}")
    return "\n".join(lines)


def _diff(a: float | None, b: float | None) -> str:
    return "-" if a is None or b is None else f"{b - a:+.1f}"


def _cell(value: float | None) -> str:
    return "-" if value is None else f"{value:.1f}"


def render(result: dict[str, dict[str, dict[str, Any]]]) -> str:
    variants = list(next(iter(result.values())))
    others = variants[1:]
    head = f"{'domain':<16}{'tasks':>6}  {'soft canon':>10}"
    head += "".join(f"{'soft ' + v:>{len(v) + 7}}{'diff':>7}" for v in others)
    head += f"  {'strict canon':>12}" + "".join(f"{'strict ' + v:>{len(v) + 9}}{'diff':>7}" for v in others)
    lines = [head, "-" * len(head)]
    for group, by in result.items():
        c = by["canonical"]
        line = f"{group:<16}{c['tasks']:>6}  {_cell(c['soft']):>10}"
        for v in others:
            line += f"{_cell(by[v]['soft']):>{len(v) + 7}}{_diff(c['soft'], by[v]['soft']):>7}"
        line += f"  {_cell(c['strict']):>12}"
        for v in others:
            line += f"{_cell(by[v]['strict']):>{len(v) + 9}}{_diff(c['strict'], by[v]['strict']):>7}"
        lines.append(line)
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--limit", type=int, default=1000, help="the first N tasks of the suite (default 1000)"
    )
    parser.add_argument("--jobs", type=int, default=1, help="worker processes per run")
    parser.add_argument("--seed", type=int, default=0, help="suite seed when --data is not given")
    parser.add_argument("--data", type=Path, help="a canonical suite (.jsonl); default: generate seed --seed")
    parser.add_argument("--agent", default="iba", help="agent to run (default iba, planner floor, no model)")
    parser.add_argument("--embedder", help="embedder spec (default: the runner's offline default)")
    parser.add_argument("--out", type=Path, default=ROOT / ".bench-out" / "foreign", help="results folder")
    parser.add_argument("--resume", action="store_true", help="continue the results already in --out")
    parser.add_argument("--json", dest="json_file", type=Path, help="also write the table as JSON here")
    parser.add_argument(
        "--fresh",
        action="store_true",
        help="also run foreign-fresh: foreign tools, but the history's past calls keep the old tools",
    )
    parser.add_argument("--quiet", action="store_true", help="no progress bars")
    args = parser.parse_args(argv)
    try:
        if args.limit < 1 or args.jobs < 1:
            raise BadInput("--limit and --jobs must be at least 1")
        started = time.perf_counter()
        canonical = first_tasks(args.data, args.seed, args.limit)
        if not canonical:
            raise BadInput("the suite has no task")
        suites = {"canonical": canonical, "foreign": [foreign_task(t) for t in canonical]}
        if args.fresh:
            suites["foreign-fresh"] = [foreign_task(t, past_calls=False) for t in canonical]
        rows: dict[str, list[dict[str, Any]]] = {}
        timings: dict[str, float] = {}
        for variant in suites:
            out = args.out / variant
            began = time.perf_counter()
            summary = run_bench(
                suites[variant],
                agent=args.agent,
                embedder=args.embedder,
                jobs=args.jobs,
                out_dir=out,
                resume=args.resume,
                progress=not args.quiet,
                suite={
                    "path": str(args.data) if args.data else f"generated seed {args.seed}",
                    "variant": variant,
                },
            )
            timings[variant] = round(time.perf_counter() - began, 1)
            wanted = {t["id"] for t in suites[variant]}
            rows[variant] = [r for r in read_results(summary.results)[1] if r["task_id"] in wanted]
            if summary.errors:
                print(
                    f"{variant}: {summary.errors} tasks failed (scored 0); see {summary.results}",
                    file=sys.stderr,
                )
    except (BadInput, OSError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    result = table(rows)
    print(
        f"{args.agent} on the first {len(canonical)} tasks, canonical vs foreign tools (soft 0-100, strict %)"
    )
    print(render(result))
    covered = by_coverage(canonical, rows)
    print(render_coverage(covered))
    print(f"wall: {timings} s, total {time.perf_counter() - started:.0f} s; results in {args.out}")
    if args.json_file:
        payload = {
            "agent": args.agent,
            "limit": len(canonical),
            "seconds": timings,
            "table": result,
            "by_past_calls": covered,
        }
        args.json_file.write_text(json.dumps(payload, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
