"""The Ray executor on a real local Ray cluster (2 CPUs, 127.0.0.1): same results as the local runner,
a killed worker's tasks retried elsewhere, each task scored once, resume across executors."""

from __future__ import annotations

import itertools
import os
import signal
import time
from pathlib import Path

import pytest

from bench.generator import generate_suite
from bench.runner import read_results, run_bench

ray = pytest.importorskip("ray", reason="the Ray executor needs the ray extra: pip install -e '.[ray]'")

pytestmark = pytest.mark.slow
AGENTS = ("iba", "none")
# what must not differ between executors (timings, the worker that ran it, memory reuse may)
SAME = ("task_id", "label", "soft", "strict", "checks", "error", "output", "info", "evidence_recall")


@pytest.fixture(scope="module")
def cluster():
    from bench.executor_ray import _import_ray, connect

    module = _import_ray()
    started = connect(module, None, 2)
    yield module
    if started:
        module.shutdown()


@pytest.fixture(scope="module")
def tasks():
    """The first 40 tasks of the default (seed 0) suite."""
    return list(itertools.islice(generate_suite(0), 40))


@pytest.fixture(scope="module")
def cache(tmp_path_factory):
    return tmp_path_factory.mktemp("embed-cache")


@pytest.fixture(scope="module")
def local(tasks, cache, tmp_path_factory):
    """The local runner's rows per agent, by task id: the reference."""
    out = tmp_path_factory.mktemp("local")
    rows = {}
    for agent in AGENTS:
        summary = run_bench(tasks, agent=agent, embedder="hash", out_dir=out, cache_dir=cache, progress=False)
        rows[agent] = {r["task_id"]: r for r in read_results(summary.results)[1]}
    return rows


def same(row):
    return {key: row.get(key) for key in SAME}


def test_ray_gives_the_local_runners_results(cluster, tasks, cache, local, tmp_path):
    groups = len({t["meta"]["history_id"] for t in tasks})
    for agent in AGENTS:
        summary = run_bench(
            tasks, agent=agent, embedder="hash", out_dir=tmp_path, cache_dir=cache, progress=False,
            executor="ray", jobs=2,
        )  # fmt: skip
        metas, rows = read_results(summary.results)
        assert sorted(r["task_id"] for r in rows) == sorted(t["id"] for t in tasks)
        for row in rows:
            assert same(row) == same(local[agent][row["task_id"]]), row["task_id"]
        assert {r["worker"]["replica"] for r in rows} == {0, 1}  # both workers got work
        assert metas[0]["config"]["executor"] == "ray" and "finished" in metas[-1]
        assert metas[-1]["executor"] == {
            "name": "ray", "workers": 2, "histories": groups, "workers_lost": 0, "tasks_retried": 0,
        }  # fmt: skip
        assert summary.executor["workers_lost"] == 0 and summary.ran == 40
        if agent == "iba":  # each history's memory built once, on the worker that got its group
            assert sum(not r["memory_reused"] for r in rows) == groups
        else:
            assert not any("memory_reused" in r for r in rows)


def test_a_killed_worker_has_its_tasks_retried_and_each_task_is_scored_once(
    cluster, tasks, cache, local, tmp_path
):
    killed = []

    def kill_first(row):
        if not killed:
            killed.append(row["worker"]["pid"])
            os.kill(row["worker"]["pid"], signal.SIGKILL)

    summary = run_bench(
        tasks, agent="iba", embedder="hash", out_dir=tmp_path, cache_dir=cache, progress=False,
        executor="ray", jobs=2, on_result=kill_first,
    )  # fmt: skip
    metas, rows = read_results(summary.results)
    assert sorted(r["task_id"] for r in rows) == sorted(t["id"] for t in tasks)  # each once
    assert not any(r.get("error") for r in rows)
    for row in rows:
        assert same(row) == same(local["iba"][row["task_id"]]), row["task_id"]
    stats = metas[-1]["executor"]
    assert stats["workers_lost"] == 1 and stats["tasks_retried"] >= 1, stats
    assert len({r["worker"]["pid"] for r in rows}) >= 2  # the killed worker's rows and others'
    assert summary.executor == stats and summary.ran == 40


def test_resume_continues_a_local_run_on_ray(cluster, tasks, cache, local, tmp_path: Path):
    first = run_bench(tasks[:15], agent="none", embedder="hash", out_dir=tmp_path, progress=False)
    assert first.ran == 15
    again = run_bench(
        tasks, agent="none", embedder="hash", out_dir=tmp_path, cache_dir=cache, progress=False,
        executor="ray", jobs=2, resume=True,
    )  # fmt: skip
    assert again.ran == 25 and again.skipped == 15
    _, rows = read_results(again.results)
    assert sorted(r["task_id"] for r in rows) == sorted(t["id"] for t in tasks)
    assert {same(r)["task_id"]: same(r) for r in rows} == {k: same(v) for k, v in local["none"].items()}
    assert again.soft == pytest.approx(
        sum(r["soft"] for r in local["none"].values()) / len(local["none"]), abs=0.01
    )


def test_a_worker_the_cluster_cannot_place_holds_no_tasks(cluster, tasks, tmp_path):
    started = time.monotonic()
    summary = run_bench(
        tasks[:12], agent="none", embedder="hash", out_dir=tmp_path, progress=False, executor="ray", jobs=3,
    )  # fmt: skip
    _, rows = read_results(summary.results)
    assert sorted(r["task_id"] for r in rows) == sorted(t["id"] for t in tasks[:12])
    # 2 CPUs: the third worker never started, and the run did not wait for it
    assert 1 <= len({r["worker"]["replica"] for r in rows}) <= 2
    assert time.monotonic() - started < 30
