"""Run an agent over IBA-Bench tasks: fresh memory per task, results appended one line per task.

The results file (``<out>/<label>.jsonl``) starts with a ``meta`` line (agent, models, suite,
config, git revision) and gets one ``task`` line per finished task, flushed and fsynced; it is
never rewritten. ``resume`` skips the task ids already there (a torn last line from a kill is
cut off, so that task runs again). A task that raises is recorded with score 0 and its error.

Executors: ``local`` runs tasks here (``jobs`` processes); ``ray`` ships them to Ray workers
(``bench/executor_ray.py``, imported only then), which append through the same writer here and
close the file with a second ``meta`` line carrying the executor's counts (workers lost, tasks
retried). ``resume`` works across executors: both skip the same finished task ids.
"""

from __future__ import annotations

import json
import os
import platform
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from bench.agents import AGENTS, Agent
from bench.evaluate import score_error
from bench.report import git_revision, progress_bar, read_results
from bench.worker import RunConfig, Worker, init_worker, run_in_worker
from ibachat.errors import IbachatError
from ibachat.llm.base import LLM
from memory.embedders.base import Embedder
from memory.errors import BadInput

EXECUTORS = ("local", "ray")


@dataclass
class RunSummary:
    label: str
    results: Path
    tasks: int  # asked for
    ran: int  # run now
    skipped: int  # already in the results file (resume)
    errors: int  # of those run now
    soft: float | None  # mean over every task in the file (0-100)
    strict: float | None  # share of tasks with all checks passed (0-100)
    wall_s: float
    timings_ms: dict[str, float] = field(default_factory=dict)  # totals of this run
    model: dict[str, int] = field(default_factory=dict)
    executor: dict[str, Any] = field(default_factory=dict)  # name, workers; Ray: workers lost, retried

    def to_dict(self) -> dict[str, Any]:
        out = asdict(self)
        out["results"] = str(self.results)
        return out


# ---------------------------------------------------------------- one task


# ---------------------------------------------------------------- the results file


def _suite_info(tasks: Sequence[Mapping[str, Any]], suite: Mapping[str, Any] | None) -> dict[str, Any]:
    names = sorted({str(t["suite"]) for t in tasks if t.get("suite")})
    seeds = sorted(
        {t["meta"]["seed"] for t in tasks if isinstance(t.get("meta"), dict) and "seed" in t["meta"]}
    )
    info: dict[str, Any] = {"names": names, "seeds": seeds, "tasks": len(tasks)}
    info.update(suite or {})
    return info


def _meta(
    config: RunConfig,
    tasks: Sequence[Mapping[str, Any]],
    suite: Mapping[str, Any] | None,
    jobs: int,
    embedder_id: str | None,
    executor: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    return {
        "type": "meta",
        "label": config.label,
        "agent": config.agent,
        "ablate": config.ablate,
        "model": config.model,
        "embedder": config.embedder,
        "embedder_id": embedder_id,
        "judges": list(config.judges),
        "suite": _suite_info(tasks, suite),
        "config": {"jobs": jobs, "window_tokens": config.window_tokens, **(executor or {})},
        "git_revision": git_revision(),
        "started": datetime.now(UTC).isoformat(timespec="seconds"),
        "python": platform.python_version(),
    }


_SAME_RUN = ("agent", "ablate", "model", "embedder", "judges")


class _Appender:
    """Append-only JSONL writer: each line is written whole, flushed and fsynced."""

    def __init__(self, path: Path) -> None:
        self.fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)

    def write(self, row: Mapping[str, Any]) -> None:
        view = memoryview((json.dumps(row, ensure_ascii=False, default=str) + "\n").encode("utf-8"))
        while view:
            view = view[os.write(self.fd, view) :]
        os.fsync(self.fd)

    def close(self) -> None:
        os.close(self.fd)


# ---------------------------------------------------------------- the run


def run_bench(
    tasks: Sequence[Mapping[str, Any]],
    *,
    agent: str = "iba",
    ablate: str | None = None,
    model: str | LLM | None = None,
    embedder: str | Embedder | None = None,
    judges: Sequence[str | LLM] = (),
    jobs: int = 1,
    out_dir: Path | str,
    resume: bool = False,
    progress: bool = True,
    suite: Mapping[str, Any] | None = None,
    cache_dir: Path | str | None = None,
    window_tokens: int | None = None,
    agent_impl: Agent | None = None,
    on_result: Callable[[dict[str, Any]], None] | None = None,
    executor: str = "local",
    address: str | None = None,
) -> RunSummary:
    """Run ``agent`` over ``tasks``; see the module docstring. Objects (an LLM, an Embedder,
    ``agent_impl``) are for in-process runs; with ``jobs > 1`` pass specs, each worker loads its own.

    ``executor="ray"`` runs ``jobs`` Ray workers on the cluster at ``address`` (``auto``,
    ``ray://HOST:PORT``; ``None`` starts a local one, or uses the one this process joined)."""
    if agent not in AGENTS:
        raise BadInput(f"unknown agent {agent!r}: use one of {', '.join(AGENTS)}")
    if jobs < 1:
        raise BadInput(f"jobs must be at least 1, got {jobs}")
    if executor not in EXECUTORS:
        raise BadInput(f"unknown executor {executor!r}: use one of {', '.join(EXECUTORS)}")
    if address and executor != "ray":
        raise BadInput("--address names a Ray cluster: add --executor ray")
    objects = [x for x in (model, embedder, agent_impl, *judges) if x is not None and not isinstance(x, str)]
    if (jobs > 1 or executor != "local") and objects:
        raise BadInput(
            "with jobs > 1 or Ray pass model, embedder and judges as specs: each worker loads its own"
        )
    config = RunConfig(
        agent=agent,
        ablate=ablate,
        model=model if isinstance(model, str) else getattr(model, "name", None),
        embedder=embedder if isinstance(embedder, str) else getattr(embedder, "model_id", None),
        judges=[j if isinstance(j, str) else getattr(j, "name", "judge") for j in judges],
        cache_dir=str(cache_dir) if cache_dir else None,
        window_tokens=window_tokens,
    )
    from memory.paths import ensure_private_dir

    out = ensure_private_dir(Path(out_dir))  # 0700, missing parents too, whatever the umask
    path = out / f"{config.label}.jsonl"
    metas, done_rows = read_results(path, repair=resume)
    if (metas or done_rows) and not resume:
        raise BadInput(f"{path} already holds results: pass --resume to continue it, or choose another --out")
    if resume and metas:
        last = metas[-1]
        changed = [k for k in _SAME_RUN if last.get(k) != asdict(config).get(k)]
        if changed:
            raise BadInput(
                f"cannot resume {path}: it was run with other {', '.join(changed)}; choose another --out"
            )
    done_ids = {row["task_id"] for row in done_rows}
    todo = [t for t in tasks if t["id"] not in done_ids]
    start = time.perf_counter()
    cluster = None
    if executor == "ray":  # joined now: no Ray, or a wrong address, fails before the results file is touched
        from bench.executor_ray import RayCluster

        cluster = RayCluster(address, jobs)
    # built here even for a pool: a bad agent/model spec fails now, in one line, before any process starts
    try:
        worker = Worker(
            config,
            agent=agent_impl,
            llm=model if isinstance(model, LLM) else None,
            judges=[j for j in judges if isinstance(j, LLM)] or None,
            embedder=embedder if isinstance(embedder, Embedder) else None,
        )
        embedder_id = worker.embedder.model_id if worker.agent.uses_memory else config.embedder
    except BaseException:
        if cluster is not None:
            cluster.close()
        raise
    writer = _Appender(path)
    new_rows: list[dict[str, Any]] = []
    where = {"executor": executor, "address": address} if executor != "local" else {}
    stats: dict[str, Any] = {"name": executor, "workers": jobs}
    try:
        meta = _meta(config, tasks, suite, jobs, embedder_id, where)
        writer.write(meta)
        with progress_bar(progress, len(tasks), len(tasks) - len(todo), config.label) as advance:

            def record(row: dict[str, Any]) -> None:
                row["label"] = config.label
                writer.write(row)
                new_rows.append(row)
                advance(row)
                if on_result:
                    on_result(row)

            if cluster is not None:
                stats.update(cluster.run(config, todo, jobs, record))
                # the closing meta line: the same run, with what the executor went through
                writer.write(
                    {**meta, "finished": datetime.now(UTC).isoformat(timespec="seconds"), "executor": stats}
                )
            elif jobs == 1:
                for task in todo:
                    record(worker.run(task))
            else:
                _run_pool(config, todo, jobs, record)
    finally:
        writer.close()
        if cluster is not None:
            cluster.close()
    _, all_rows = read_results(path)
    summary = _summary(config.label, path, tasks, todo, new_rows, all_rows, time.perf_counter() - start)
    summary.executor = stats
    return summary


def _run_pool(
    config: RunConfig, todo: Sequence[Mapping[str, Any]], jobs: int, record: Callable[[dict[str, Any]], None]
) -> None:
    """Run tasks in ``jobs`` spawned processes, at most 2 * jobs in flight.

    When a worker process dies (a crash in native code, out of memory), the tasks in flight are
    recorded as failed and a new pool takes the rest; two pools dying before finishing any task
    stop the run.
    """
    import multiprocessing

    context = multiprocessing.get_context("spawn")
    counter = context.Value("i", 0)
    queue = list(todo)[::-1]
    barren = 0  # pools in a row that died without finishing a task
    while queue:
        pool = ProcessPoolExecutor(
            max_workers=jobs, mp_context=context, initializer=init_worker, initargs=(config, counter)
        )
        flying: dict[Future[dict[str, Any]], Mapping[str, Any]] = {}
        broken, finished_here = False, 0
        try:
            while queue or flying:
                while queue and len(flying) < 2 * jobs and not broken:
                    task = queue.pop()
                    flying[pool.submit(run_in_worker, dict(task))] = task
                finished, _ = wait(flying, return_when=FIRST_COMPLETED)
                for future in finished:
                    task = flying.pop(future)
                    try:
                        row = future.result()
                    except BrokenProcessPool:
                        broken = True
                        row = {
                            "type": "task",
                            **score_error(
                                task, "a worker process died while this task was in flight"
                            ).to_dict(),
                        }
                    else:
                        finished_here += 1
                    record(row)
                if broken and not flying:
                    break
        finally:
            pool.shutdown(wait=True, cancel_futures=True)
        barren = barren + 1 if broken and not finished_here else 0
        if barren >= 2:
            raise IbachatError("worker processes keep dying before finishing a task; try --jobs 1 to see why")


def _summary(
    label: str,
    path: Path,
    tasks: Sequence[Mapping[str, Any]],
    todo: Sequence[Mapping[str, Any]],
    new_rows: Iterable[dict[str, Any]],
    all_rows: Sequence[dict[str, Any]],
    wall_s: float,
) -> RunSummary:
    new_rows = list(new_rows)
    wanted = {t["id"] for t in tasks}
    rows = [r for r in all_rows if r["task_id"] in wanted]
    softs = [r["soft"] for r in rows if r.get("soft") is not None]
    stricts = [r["strict"] for r in rows if r.get("strict") is not None]
    timings: dict[str, float] = {}
    model: dict[str, int] = {}
    for row in new_rows:
        for key, value in (row.get("timings_ms") or {}).items():
            timings[key] = round(timings.get(key, 0.0) + value, 3)
        for key, value in (row.get("model") or {}).items():
            model[key] = model.get(key, 0) + int(value)
    return RunSummary(
        label=label,
        results=path,
        tasks=len(tasks),
        ran=len(new_rows),
        skipped=len(tasks) - len(todo),
        errors=sum(1 for r in new_rows if r.get("error")),
        soft=round(sum(softs) / len(softs), 2) if softs else None,
        strict=round(100 * sum(stricts) / len(stricts), 2) if stricts else None,
        wall_s=round(wall_s, 2),
        timings_ms=timings,
        model=model,
    )
