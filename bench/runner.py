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

import contextlib
import hashlib
import json
import os
import platform
import tempfile
import time
import traceback
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import asdict, dataclass, field, replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from bench.agents import AGENTS, Agent, AgentOutput, MeteredLLM, SharedCacheEmbedder, make_agent
from bench.evaluate import evaluate_task, score_error
from bench.report import git_revision, progress_bar
from ibachat.errors import IbachatError
from ibachat.llm.base import LLM
from memory.embedders.base import Embedder
from memory.errors import BadInput
from memory.types import parse_time

MAX_TEXT_CHARS = 4000  # of the agent's text kept in the results
EXECUTORS = ("local", "ray")


@dataclass
class RunConfig:
    """Everything a worker process needs to rebuild the run (plain data, so it pickles)."""

    agent: str = "iba"
    ablate: str | None = None
    model: str | None = None  # chat model spec; None runs the planner's floor with no model
    embedder: str | None = None  # embedder spec; None is the offline default
    judges: list[str] = field(default_factory=list)
    cache_dir: str | None = None  # shared embedding cache; default <home>/bench/embed-cache
    window_tokens: int | None = None
    replica: int = 0  # this worker's index: spreads a multi-server model spec over its servers

    @property
    def label(self) -> str:
        return self.agent if not self.ablate else f"{self.agent}-no-{self.ablate}"


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


def history_records(task: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The task's sessions as memory records, in time order; turn i of a session is at its time + i s."""
    records = []
    for session in sorted(task["history"], key=lambda s: parse_time(s["time"])):
        start = parse_time(session["time"])
        for index, turn in enumerate(session["turns"]):
            record = {
                "session_id": session["session_id"],
                "role": turn["role"],
                "text": turn["text"],
                "time": start + timedelta(seconds=index),
                "source": "bench",
            }
            if turn.get("tool_call"):
                record["tool_call"] = turn["tool_call"]
            records.append(record)
    return records


def _turn_keys(task: Mapping[str, Any]) -> list[tuple[str, int]]:
    """(session id, turn index) of each record of ``history_records(task)``, in the same order."""
    keys = []
    for session in sorted(task["history"], key=lambda s: parse_time(s["time"])):
        keys.extend((session["session_id"], index) for index in range(len(session["turns"])))
    return keys


def _evidence_recall(
    task: Mapping[str, Any], turn_ids: Mapping[tuple[str, int], int], used: Sequence[int] | None
) -> float | None:
    """The share of the checks' evidence turns that the agent's plan used (None when not measurable)."""
    wanted = {
        turn_ids[(ev["session_id"], ev["turn"])]
        for check in task.get("checks", [])
        for ev in check.get("evidence") or []
        if (ev["session_id"], ev["turn"]) in turn_ids
    }
    if not wanted or used is None:
        return None
    return round(len(wanted.intersection(used)) / len(wanted), 4)


def history_key(task: Mapping[str, Any]) -> str:
    """Tasks with the same key have the same history, so one memory built from it serves them all."""
    raw = json.dumps(task["history"], sort_keys=True, ensure_ascii=False, default=str).encode("utf-8")
    return hashlib.blake2b(raw, digest_size=16).hexdigest()


@dataclass
class _Kept:
    """The memory of the last history a ``keep_memory`` worker built, and where it lives."""

    key: str
    folder: tempfile.TemporaryDirectory[str]
    memory: Any
    turn_ids: dict[tuple[str, int], int]

    def close(self) -> None:
        try:
            self.memory.close()
        finally:
            self.folder.cleanup()


class Worker:
    """Builds the agent, embedder and judges once, then runs tasks one by one.

    With ``keep_memory`` the memory built for a task's history is kept for the next task with the
    same history (the agents only read it), so tasks grouped by history build it once.
    """

    def __init__(
        self,
        config: RunConfig,
        *,
        agent: Agent | None = None,
        llm: LLM | None = None,
        judges: Sequence[LLM] | None = None,
        embedder: Embedder | None = None,
        keep_memory: bool = False,
    ) -> None:
        from memory.paths import home

        self.config = config
        self.keep_memory = keep_memory
        self._kept: _Kept | None = None
        self.reused = False  # the last task ran on the memory kept from the task before
        cache = Path(config.cache_dir) if config.cache_dir else home() / "bench" / "embed-cache"
        self._embedder_arg = embedder
        self._cache_dir = cache
        self._embedder: Embedder | None = None
        if llm is None and config.model:
            from ibachat.llm.select import resolve_model

            llm = resolve_model(config.model, replica=config.replica)
        self.llm = MeteredLLM(llm) if llm is not None else None
        if judges is None and config.judges:
            from ibachat.llm.select import resolve_model

            judges = [resolve_model(spec, replica=config.replica) for spec in config.judges]
        self.judges = [MeteredLLM(j) for j in judges or []]
        self.agent = agent or make_agent(
            config.agent, self.llm, ablate=config.ablate, window_tokens=config.window_tokens
        )

    @property
    def embedder(self) -> Embedder:
        if self._embedder is None:
            from memory.embedders.registry import load_embedder
            from memory.paths import ensure_private_dir

            inner = self._embedder_arg or load_embedder(self.config.embedder)
            self._embedder = SharedCacheEmbedder(inner, ensure_private_dir(self._cache_dir))
        return self._embedder

    def run(self, task: Mapping[str, Any]) -> dict[str, Any]:
        """Run and score one task; never raises for a failing task."""
        if self.llm:
            self.llm.reset()
        for judge in self.judges:
            judge.reset()
        timings = {"ingest": 0.0, "planning": 0.0, "model": 0.0, "judge": 0.0, "total": 0.0}
        start = time.perf_counter()
        output = AgentOutput()
        memory = None
        turn_ids: dict[tuple[str, int], int] = {}
        self.reused = False
        try:
            with contextlib.ExitStack() as stack:
                if self.agent.uses_memory:
                    memory, turn_ids = self._memory(task, stack)
                timings["ingest"] = _ms(start)
                acted = time.perf_counter()
                output = self.agent.act(task, memory, now=parse_time(task["now"]))
                timings["planning"] = _ms(acted)
            judged = time.perf_counter()
            score = evaluate_task(task, output, judges=self.judges)
            timings["judge"] = _ms(judged)
        except Exception as exc:  # noqa: BLE001 - a failing task is recorded with score 0 and its error
            where = traceback.extract_tb(exc.__traceback__)[-1]
            message = f"{type(exc).__name__}: {exc}".splitlines()[0][:500]
            score = score_error(task, f"{message} ({Path(where.filename).name}:{where.lineno})")
        timings["total"] = _ms(start)
        usage = (
            self.llm.usage
            if self.llm
            else {"calls": 0, "prompt_tokens": 0, "completion_tokens": 0, "ms": 0.0}
        )
        timings["model"] = round(usage["ms"], 3)
        timings["planning"] = round(max(0.0, timings["planning"] - usage["ms"]), 3)
        record = {"type": "task", **score.to_dict()}
        record["output"] = {
            "text": (output.text or "")[:MAX_TEXT_CHARS] or None,
            "tool_call": output.tool_call,
        }
        record["info"] = output.info
        recall = _evidence_recall(task, turn_ids, output.info.get("evidence_ids"))
        if recall is not None:
            record["evidence_recall"] = recall
        record["timings_ms"] = {k: round(v, 3) for k, v in timings.items()}
        if self.keep_memory and self.agent.uses_memory:
            record["memory_reused"] = self.reused
        record["model"] = {k: int(usage[k]) for k in ("calls", "prompt_tokens", "completion_tokens")}
        record["model"]["judge_calls"] = int(sum(j.usage["calls"] for j in self.judges))
        return record

    def _memory(
        self, task: Mapping[str, Any], stack: contextlib.ExitStack
    ) -> tuple[Any, dict[tuple[str, int], int]]:
        """The task's history in a memory: fresh (closed by ``stack``), or the kept one."""
        key = history_key(task) if self.keep_memory else ""
        self.reused = self._kept is not None and self._kept.key == key
        if self._kept is not None and self.reused:
            return self._kept.memory, self._kept.turn_ids
        self.close()
        folder = tempfile.TemporaryDirectory(prefix="ibachat-bench-")
        try:
            from ibachat.agent.ingest import ingest
            from memory.memory import Memory

            memory = Memory.open(Path(folder.name) / "memory", embedder=self.embedder, fsync=False)
        except BaseException:
            folder.cleanup()
            raise
        kept = _Kept(key, folder, memory, {})
        if not self.keep_memory:
            stack.callback(kept.close)
        try:
            turns = ingest(memory, history_records(task))
            kept.turn_ids = dict(zip(_turn_keys(task), (t.id for t in turns), strict=True))
        except BaseException:
            if self.keep_memory:
                kept.close()
            raise
        if self.keep_memory:
            self._kept = kept
        return memory, kept.turn_ids

    def close(self) -> None:
        """Drop the kept memory, if any."""
        kept, self._kept = self._kept, None
        if kept is not None:
            kept.close()


def _ms(start: float) -> float:
    return 1000 * (time.perf_counter() - start)


_WORKER: Worker | None = None


def _init_worker(config: RunConfig, counter: Any = None) -> None:
    """``counter`` (a shared int) numbers the pool's processes, so they spread over model servers."""
    global _WORKER
    os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
    if counter is not None:
        with counter.get_lock():
            config = replace(config, replica=counter.value)
            counter.value += 1
    _WORKER = Worker(config)


def _run_in_worker(task: dict[str, Any]) -> dict[str, Any]:
    assert _WORKER is not None, "worker not initialised"
    return _WORKER.run(task)


# ---------------------------------------------------------------- the results file


def read_results(path: Path, *, repair: bool = False) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """(meta lines, task lines) of a results file. A torn last line is ignored, or cut off with ``repair``.

    A bad line in the middle of the file is an error: that file was not written by this runner.
    """
    metas: list[dict[str, Any]] = []
    tasks: list[dict[str, Any]] = []
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return metas, tasks
    good = data.rfind(b"\n") + 1  # bytes after the last newline are a torn write
    for number, line in enumerate(data[:good].splitlines(), 1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            raise BadInput(f"{path} line {number} is not a results record ({exc})") from exc
        (metas if row.get("type") == "meta" else tasks).append(row)
    if repair and good < len(data):
        os.truncate(path, good)
    return metas, tasks


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
            max_workers=jobs, mp_context=context, initializer=_init_worker, initargs=(config, counter)
        )
        flying: dict[Future[dict[str, Any]], Mapping[str, Any]] = {}
        broken, finished_here = False, 0
        try:
            while queue or flying:
                while queue and len(flying) < 2 * jobs and not broken:
                    task = queue.pop()
                    flying[pool.submit(_run_in_worker, dict(task))] = task
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
