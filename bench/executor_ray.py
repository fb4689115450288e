"""Run IBA-Bench tasks on Ray workers (``pip install 'ibachat[ray]'``); ``ray`` is imported only here.

The driver (``run_bench``) keeps the results file. Tasks are grouped by history and a whole
group goes to one worker, a Ray actor that keeps the memory it built for the group's history
(``Worker(keep_memory=True)``) in a home of its own on its node, so each history is ingested
once per worker. Each task is one actor call, so its result comes back as soon as it is scored
and the driver appends it at once. An actor holds at most two groups, so a slow worker never
hoards work.

When a worker dies (killed, out of memory, its node gone), the tasks it had not returned go back
to the queue, a new worker takes its place, and the run's closing meta line counts both. A task
is recorded once: only a returned result is recorded, and nothing is queued twice.
"""

from __future__ import annotations

import os
import shutil
import socket
import tempfile
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict
from pathlib import Path
from typing import Any

from bench.evaluate import score_error
from bench.worker import RunConfig, Worker, history_key
from ibachat.errors import ConfigError, IbachatError

LOCAL_OBJECT_STORE = 256 * 1024 * 1024  # bytes, for a cluster started here: tasks are small
HOLD = 2  # groups one worker may hold (one running, one waiting)


def group_by_history(tasks: Sequence[Mapping[str, Any]]) -> list[list[dict[str, Any]]]:
    """Tasks with the same history together, groups and tasks in their first order."""
    groups: dict[str, list[dict[str, Any]]] = {}
    for task in tasks:
        groups.setdefault(history_key(task), []).append(dict(task))
    return list(groups.values())


def _import_ray() -> Any:
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")  # no telemetry, as everywhere in ibachat
    try:
        import ray
    except ImportError:
        raise ConfigError("the Ray executor needs Ray: pip install 'ibachat[ray]'") from None
    return ray


def connect(ray: Any, address: str | None, workers: int) -> bool:
    """Join the cluster at ``address``, or start one on 127.0.0.1; True when this call started it."""
    if ray.is_initialized():
        return False
    options: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False, "configure_logging": False}
    try:
        if address:
            ray.init(address=address, **options)
        else:
            ray.init(
                num_cpus=workers,
                object_store_memory=LOCAL_OBJECT_STORE,
                _node_ip_address="127.0.0.1",
                **options,
            )
    except (ConnectionError, RuntimeError, ValueError) as exc:
        where = address or "a local cluster"
        raise IbachatError(f"cannot start or join Ray at {where}: {str(exc).splitlines()[0]}") from exc
    return True


HOME_PREFIX = "ibachat-ray-"


def _remove_stale_homes() -> None:
    """Homes of workers on this node that died without cleaning up (their pid is gone)."""
    root = Path(tempfile.gettempdir())
    for folder in root.glob(f"{HOME_PREFIX}*-*"):
        pid = folder.name[len(HOME_PREFIX) :].split("-", 1)[0]
        if pid.isdigit() and not _alive(int(pid)):
            shutil.rmtree(folder, ignore_errors=True)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


class BenchActor:
    """One Ray worker: a ``Worker`` in a home of its own, keeping the memory of the current history."""

    def __init__(self, config: dict[str, Any], replica: int) -> None:
        _remove_stale_homes()
        self._home = tempfile.TemporaryDirectory(prefix=f"{HOME_PREFIX}{os.getpid()}-")
        os.environ["IBACHAT_HOME"] = self._home.name
        os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
        self.worker = Worker(RunConfig(**{**config, "replica": replica}), keep_memory=True)
        self.ident = {"node": socket.gethostname(), "pid": os.getpid(), "replica": replica}

    def ready(self) -> dict[str, Any]:
        return self.ident

    def run(self, task: dict[str, Any]) -> dict[str, Any]:
        row = self.worker.run(task)
        row["worker"] = self.ident
        return row

    def close(self) -> None:
        self.worker.close()
        self._home.cleanup()


class _Slot:
    """The driver's view of one actor: its handle, the calls it has not returned, its groups."""

    def __init__(self, handle: Any, replica: int) -> None:
        self.handle = handle
        self.replica = replica
        self.flying: dict[Any, dict[str, Any]] = {}  # object ref -> task, in submission order
        self.groups: list[set[Any]] = []  # refs of each group given and not finished
        self.ready = False  # started (its ``ready`` call returned): only then is it given work

    def give(self, group: Sequence[dict[str, Any]], owner: dict[Any, _Slot]) -> None:
        refs = set()
        for task in group:
            ref = self.handle.run.remote(task)
            self.flying[ref] = task
            owner[ref] = self
            refs.add(ref)
        self.groups.append(refs)

    def done(self, ref: Any, owner: dict[Any, _Slot]) -> dict[str, Any]:
        del owner[ref]
        for refs in self.groups:
            refs.discard(ref)
        self.groups = [refs for refs in self.groups if refs]
        return self.flying.pop(ref)


class RayCluster:
    """The cluster a run uses: joined (or started on 127.0.0.1) on construction, so that a missing
    Ray or a wrong address fails in one line before the results file is touched; ``close()``
    stops it when this object started it."""

    def __init__(self, address: str | None, workers: int) -> None:
        self.ray = _import_ray()
        self.started = connect(self.ray, address, workers)

    def run(
        self,
        config: RunConfig,
        todo: Sequence[Mapping[str, Any]],
        workers: int,
        record: Callable[[dict[str, Any]], None],
        *,
        max_lost: int | None = None,
    ) -> dict[str, Any]:
        return run_on_ray(config, todo, workers, record, ray=self.ray, max_lost=max_lost)

    def close(self) -> None:
        if self.started:
            self.started = False
            self.ray.shutdown()


def run_on_ray(
    config: RunConfig,
    todo: Sequence[Mapping[str, Any]],
    workers: int,
    record: Callable[[dict[str, Any]], None],
    *,
    ray: Any = None,
    address: str | None = None,
    max_lost: int | None = None,
) -> dict[str, Any]:
    """Run ``todo`` on ``workers`` Ray actors, calling ``record(row)`` once per task, in the driver.

    ``ray`` is a connected Ray module (``RayCluster.ray``); without it this call joins
    ``address`` (or starts a local cluster) and stops what it started. Returns the executor's
    counts for the run's meta line. More than ``max_lost`` dead workers (default
    ``2 * workers + 2``) stop the run with an error; what was recorded stays.
    """
    started = False
    if ray is None:
        ray = _import_ray()
        started = connect(ray, address, workers)
    limit = 2 * workers + 2 if max_lost is None else max_lost
    queue = deque(group_by_history(todo))
    stats: dict[str, Any] = {"histories": len(queue), "workers_lost": 0, "tasks_retried": 0}
    actor_class = ray.remote(num_cpus=1, max_restarts=0, max_task_retries=0)(BenchActor)
    plain = asdict(config)
    slots: list[_Slot] = []
    owner: dict[Any, _Slot] = {}  # task call -> its worker
    pings: dict[Any, _Slot] = {}  # ``ready`` call -> a worker not yet started

    def start(replica: int) -> _Slot:
        # a worker gets work only once it runs: one the cluster cannot place yet (no free CPU,
        # an autoscaler still adding nodes) holds no tasks hostage meanwhile
        slot = _Slot(actor_class.remote(plain, replica), replica)
        pings[slot.handle.ready.remote()] = slot
        return slot

    dead = (ray.exceptions.RayActorError, ray.exceptions.WorkerCrashedError)
    try:
        slots = [start(i) for i in range(min(workers, len(queue)))]
        while queue or owner:
            for slot in slots:
                while slot.ready and queue and len(slot.groups) < HOLD:
                    slot.give(queue.popleft(), owner)
            [ref], _ = ray.wait([*owner, *pings], num_returns=1)
            if ref in pings:
                slot = pings.pop(ref)
                try:
                    ray.get(ref)
                    slot.ready = True
                except dead as exc:  # it died starting (a node gone, ibachat missing there)
                    stats["workers_lost"] += 1
                    _stop_if_too_many(stats, limit, exc)
                    slots[slots.index(slot)] = start(slot.replica)
                continue
            slot = owner[ref]
            try:
                row = ray.get(ref)
            except dead as exc:
                _lost(ray, slot, owner, queue, record, stats)
                _stop_if_too_many(stats, limit, exc)
                slots[slots.index(slot)] = start(slot.replica)
                continue
            except ray.exceptions.RayTaskError as exc:  # the worker could not even score it
                task = slot.flying[ref]
                row = {"type": "task", **score_error(task, f"Ray task failed: {_first_line(exc)}").to_dict()}
            slot.done(ref, owner)
            record(row)
        return stats
    finally:
        _shutdown(ray, slots, started)


def _lost(
    ray: Any,
    slot: _Slot,
    owner: dict[Any, _Slot],
    queue: deque[list[dict[str, Any]]],
    record: Callable[[dict[str, Any]], None],
    stats: dict[str, Any],
) -> None:
    """A dead worker: record what it did return, queue the rest first, in their groups."""
    stats["workers_lost"] += 1
    again = []
    for ref in list(slot.flying):
        task = slot.done(ref, owner)
        ready, _ = ray.wait([ref], timeout=0)
        row = None
        if ready:
            try:
                row = ray.get(ref)
            except ray.exceptions.RayError:
                row = None  # it died with the worker: run it again
        if row is None:
            again.append(task)
        else:
            record(row)
    stats["tasks_retried"] += len(again)
    for group in reversed(group_by_history(again)):
        queue.appendleft(group)


def _stop_if_too_many(stats: Mapping[str, Any], limit: int, exc: BaseException) -> None:
    if stats["workers_lost"] > limit:
        raise IbachatError(
            f"{stats['workers_lost']} Ray workers died; stopping (finished tasks are recorded); "
            f"the last: {_last_line(exc)}"
        ) from None


def _last_line(exc: BaseException) -> str:
    """The end of a Ray error's text: the worker's own exception, when it raised one."""
    lines = [line.strip() for line in str(exc).splitlines() if line.strip()]
    return (lines[-1] if lines else type(exc).__name__)[:300]


def _first_line(exc: BaseException) -> str:
    return (str(exc).strip().splitlines() or [type(exc).__name__])[0][:300]


def _shutdown(ray: Any, slots: Sequence[_Slot], started: bool) -> None:
    """Let live workers clean their homes, then end them; stop the cluster when this run started it."""
    try:
        closing = []
        for slot in slots:
            if not slot.ready:
                continue  # never started: nothing to clean, and it would never answer
            try:
                closing.append(slot.handle.close.remote())
            except ray.exceptions.RayError:
                continue
        if closing:
            ray.wait(closing, num_returns=len(closing), timeout=10)
        for slot in slots:
            ray.kill(slot.handle)
    finally:
        if started:
            ray.shutdown()
