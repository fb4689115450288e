"""One benchmark worker: builds the agent, embedder and judges once, then runs tasks one by one
(in this process, in a pool process, or in a Ray actor), each on a fresh memory of its history."""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import tempfile
import time
import traceback
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import timedelta
from pathlib import Path
from typing import Any

from bench.agents import Agent, AgentOutput, MeteredLLM, SharedCacheEmbedder, make_agent
from bench.evaluate import evaluate_task, score_error
from ibachat.llm.base import LLM
from memory.embedders.base import Embedder
from memory.types import parse_time

MAX_TEXT_CHARS = 4000  # of the agent's text kept in the results


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


def init_worker(config: RunConfig, counter: Any = None) -> None:
    """``counter`` (a shared int) numbers the pool's processes, so they spread over model servers."""
    global _WORKER
    os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
    if counter is not None:
        with counter.get_lock():
            config = replace(config, replica=counter.value)
            counter.value += 1
    _WORKER = Worker(config)


def run_in_worker(task: dict[str, Any]) -> dict[str, Any]:
    assert _WORKER is not None, "worker not initialised"
    return _WORKER.run(task)
