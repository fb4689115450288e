"""The runner: fresh memory per task, append-only results, resume after a kill, failures scored 0."""

from __future__ import annotations

import copy
import json
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest

from bench.agents import AgentOutput, ContextAgent, SharedCacheEmbedder, make_agent
from bench.runner import read_results, run_bench
from bench.validate import load_suite
from bench.worker import history_records
from ibachat.errors import ConfigError
from ibachat.llm.scripted import ScriptedLLM
from memory.embedders.hashing import HashEmbedder
from memory.errors import BadInput

MINI = Path(__file__).parent / "data" / "mini_suite.jsonl"

GOOD = {
    "mini-0001": {
        "tool_call": {
            "name": "book_restaurant",
            "arguments": {"cuisine": "thai", "spice_level": "mild", "party_size": 4},
        }
    },
    "mini-0002": {"text": "Hi team,\n- Friday's review moves to Monday\n- Same time and room"},
    "mini-0004": {
        "tool_call": {
            "name": "book_flight",
            "arguments": {
                "destination": "Porto",
                "seat": "aisle",
                "passengers": [{"name": "me", "meal": "vegetarian"}, {"name": "Sam", "meal": "Vegetarian"}],
            },
        }
    },
}


class FakeAgent:
    """Plays a fixed output per task id; raises for the others. No memory: for the runner's logic."""

    name = "fake"
    uses_memory = False

    def __init__(self) -> None:
        self.seen: list[str] = []

    def act(self, task: dict[str, Any], memory: Any, *, now: datetime) -> AgentOutput:
        self.seen.append(task["id"])
        if task["id"] not in GOOD:
            raise RuntimeError("planner exploded")
        return AgentOutput(**GOOD[task["id"]])


class CountingHash(HashEmbedder):
    def __init__(self) -> None:
        super().__init__(64)
        self.texts: list[str] = []

    def embed_batch(self, texts):
        self.texts.extend(texts)
        return super().embed_batch(texts)


def lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_history_records_follow_session_times():
    task = load_suite(MINI)[0]
    records = history_records(task)
    assert [r["session_id"] for r in records] == ["s1", "s1", "s1", "s3", "s3", "s2", "s2"]
    times = [r["time"] for r in records]
    assert times == sorted(times) and len(set(times)) == len(times)
    assert {r["source"] for r in records} == {"bench"}


def test_results_are_appended_failures_score_zero_and_resume_skips_done(tmp_path):
    tasks = load_suite(MINI)
    out = tmp_path / "out"
    agent = FakeAgent()
    summary = run_bench(tasks, agent="iba", agent_impl=agent, embedder="hash", out_dir=out, progress=False)
    assert summary.ran == 4 and summary.skipped == 0 and summary.errors == 1
    path = out / "iba.jsonl"
    rows = lines(path)
    assert rows[0]["type"] == "meta" and rows[0]["agent"] == "iba"
    assert rows[0]["suite"]["names"] == ["mini-suite v1"] and rows[0]["suite"]["seeds"] == [0]
    assert rows[0]["git_revision"]
    by_id = {r["task_id"]: r for r in rows[1:]}
    failed = by_id["mini-0003"]
    assert failed["soft"] == 0.0 and failed["strict"] is False
    assert failed["error"].startswith("RuntimeError: planner exploded (test_runner.py:")
    assert by_id["mini-0001"]["strict"] is True and by_id["mini-0002"]["soft"] == 100.0
    assert set(by_id["mini-0001"]["timings_ms"]) == {"ingest", "planning", "model", "judge", "total"}
    assert summary.soft == pytest.approx((100 + 100 + 0 + 100) / 4)

    # a second run into the same file without --resume is refused; nothing is rewritten
    before = path.read_bytes()
    with pytest.raises(BadInput, match="pass --resume"):
        run_bench(tasks, agent="iba", agent_impl=FakeAgent(), out_dir=out, progress=False)
    assert path.read_bytes() == before

    # a kill mid-write leaves a torn last line: it is ignored, then cut off and that task re-run
    torn_id = rows[-1]["task_id"]
    path.write_bytes(before[:-25])
    metas, done = read_results(path)
    assert len(done) == 3 and torn_id not in {r["task_id"] for r in done}
    again = FakeAgent()
    summary = run_bench(
        tasks, agent="iba", agent_impl=again, embedder="hash", out_dir=out, resume=True, progress=False
    )
    assert again.seen == [torn_id]
    assert summary.ran == 1 and summary.skipped == 3
    rows = lines(path)  # every line parses: the torn tail is gone
    assert [r["type"] for r in rows].count("meta") == 2
    assert sorted(r["task_id"] for r in rows if r["type"] == "task") == sorted(t["id"] for t in tasks)

    # resuming with another model is refused
    with pytest.raises(BadInput, match="other model"):
        run_bench(
            tasks,
            agent="iba",
            model="ollama:other",
            agent_impl=FakeAgent(),
            out_dir=out,
            resume=True,
            progress=False,
        )


class MemoryProbe:
    """Checks that each task sees exactly its own history in a fresh store, then answers from it."""

    name = "probe"
    uses_memory = True

    def __init__(self) -> None:
        self.sizes: dict[str, int] = {}

    def act(self, task: dict[str, Any], memory: Any, *, now: datetime) -> AgentOutput:
        self.sizes[task["id"]] = len(memory)
        hits = memory.search(task["task"]["prompt"], 3, mode="hybrid")
        text = " ".join(t.text for t in memory.get_many([h.id for h in hits])) or "nothing"
        return AgentOutput(text=text)


def test_each_task_gets_a_fresh_store_and_shared_histories_embed_once(tmp_path):
    task = load_suite(MINI, scenario="meal_advice")[0]
    twin = copy.deepcopy(task)
    twin["id"] = "mini-0003-twin"
    other = load_suite(MINI, scenario="email_draft")[0]
    probe, embedder = MemoryProbe(), CountingHash()
    summary = run_bench(
        [task, other, twin],
        agent="rag",
        agent_impl=probe,
        embedder=embedder,
        cache_dir=tmp_path / "cache",
        out_dir=tmp_path / "out",
        progress=False,
    )
    assert summary.errors == 0
    assert probe.sizes == {"mini-0003": 2, "mini-0002": 4, "mini-0003-twin": 2}
    history_texts = [t["text"] for s in task["history"] for t in s["turns"]]
    for text in history_texts:  # the twin's history came from the shared cache
        assert embedder.texts.count(text) == 1
    assert any((tmp_path / "cache").iterdir())
    row = {r["task_id"]: r for r in lines(tmp_path / "out" / "rag.jsonl")[1:]}["mini-0003"]
    assert "soft food" in row["output"]["text"] and row["timings_ms"]["ingest"] > 0


def test_shared_cache_embedder_reuses_vectors_across_processes_files(tmp_path):
    inner = CountingHash()
    first = SharedCacheEmbedder(inner, tmp_path)
    vecs = first.embed_batch(["a b", "c d"])
    second = SharedCacheEmbedder(inner, tmp_path)  # a new worker reading the same folder
    assert (second.embed_batch(["c d", "a b"]) == vecs[::-1]).all()
    assert inner.texts == ["a b", "c d"] and second.model_id == inner.model_id


def test_context_agents_call_the_model_and_report_usage(tmp_path):
    tasks = load_suite(MINI)
    action = {
        "name": "book_restaurant",
        "arguments": {"cuisine": "thai", "spice_level": "mild", "party_size": 4},
    }
    llm = ScriptedLLM(
        [action, "Hi team,\n- Review moves to Monday\n- Same room", "Soft soup.", "not json at all"]
    )
    summary = run_bench(tasks, agent="full", model=llm, embedder="hash", out_dir=tmp_path, progress=False)
    rows = {r["task_id"]: r for r in lines(tmp_path / "full.jsonl")[1:]}
    assert summary.errors == 0 and summary.model["calls"] == 4
    assert rows["mini-0001"]["output"]["tool_call"] == action and rows["mini-0001"]["strict"] is True
    assert rows["mini-0001"]["model"]["calls"] == 1 and rows["mini-0001"]["model"]["prompt_tokens"] > 0
    assert rows["mini-0001"]["timings_ms"]["model"] >= 0
    # the whole history was in the prompt, oldest first
    prompt = llm.calls[0].messages[0].content
    assert prompt.index("really hot Thai") < prompt.index("tooth pulled")
    assert llm.calls[0].schema["properties"]["name"] == {"enum": ["book_restaurant"]}
    assert llm.calls[1].schema is None
    # an action reply that is not JSON leaves no tool call: the checks fail, the run goes on
    assert rows["mini-0004"]["output"]["tool_call"] is None and rows["mini-0004"]["info"]["fallbacks"]
    assert rows["mini-0004"]["soft"] == 0.0 and rows["mini-0003"]["output"]["text"] == "Soft soup."

    # a window too small for the whole history keeps the newest turns
    from memory.memory import Memory

    with Memory.open(tmp_path / "m", embedder="hash") as memory:
        memory.add_turns(history_records(tasks[0]))
        now = datetime.now().astimezone()
        wide = ContextAgent(ScriptedLLM(), full=True, window_tokens=100_000)._messages(tasks[0], memory, now)
        assert wide[1] == {"history_turns": 7, "history_dropped": 0}
        base = len(wide[0][0].content.split("oldest first.")[0])
        narrow = ContextAgent(ScriptedLLM(), full=True, window_tokens=768 + 64 + base // 4 + 80)
        messages, info = narrow._messages(tasks[0], memory, now)
    assert 0 < info["history_dropped"] < 7
    assert "tooth pulled" in messages[0].content and "really hot Thai" not in messages[0].content


def test_agent_names_and_model_requirements():
    import bench.agents
    import bench.cli

    assert bench.cli.AGENTS == bench.agents.AGENTS and bench.cli.ABLATIONS == bench.agents.ABLATIONS
    floor_full, floor_none = make_agent("full"), make_agent("none")  # no model: the planner's floor
    assert (floor_full.name, floor_full.uses_memory) == ("full", True)
    assert (floor_none.name, floor_none.uses_memory) == ("none", False)
    with pytest.raises(ConfigError, match="needs a chat model"):
        bench.agents.ContextAgent(None, full=True)
    with pytest.raises(ConfigError, match="iba agent only"):
        make_agent("rag", ablate="alignment")
    with pytest.raises(ConfigError, match="unknown agent"):
        make_agent("gpt")
    assert make_agent("iba", ablate="deep-retrieval").name == "iba-no-deep-retrieval"
    assert make_agent("none", ScriptedLLM()).uses_memory is False
    with pytest.raises(BadInput, match="jobs > 1"):
        run_bench([], agent="iba", model=ScriptedLLM(), jobs=2, out_dir="unused", progress=False)


def _answer(call) -> Any:
    """Replies of the scripted model behind the test Ollama server, chosen by the request."""
    prompt = call.prompt
    if "table for dinner" in prompt:
        return {
            "name": "book_restaurant",
            "arguments": {"cuisine": "thai", "spice_level": "mild", "party_size": 4},
        }
    if "flights to Porto" in prompt:
        return {"name": "book_flight", "arguments": {"destination": "Porto", "seat": "middle"}}
    if "email" in prompt:
        return "Hi team,\n- The review moves to Monday\n- Same time"
    return "A warm soup or some yogurt would be gentle today."


def test_run_command_with_a_worker_pool_and_a_model_over_http(tmp_path, monkeypatch):
    """`bench run --jobs 2`: spawned workers reach the model through the Ollama HTTP API."""
    from click.testing import CliRunner

    from bench.cli import bench
    from tests.ollama_server import MODEL_NAME, OllamaTestServer

    with OllamaTestServer(ScriptedLLM([_answer] * 20)) as server:
        monkeypatch.setenv("OLLAMA_HOST", server.url)
        out = tmp_path / "out"
        args = [
            "--data",
            str(MINI),
            "--agent",
            "none",
            "--model",
            f"ollama:{MODEL_NAME}",
            "--embedder",
            "hash",
        ]
        result = CliRunner().invoke(bench, [*args, "--jobs", "2", "--out", str(out), "--json"])
        assert result.exit_code == 0, result.output
        summary = json.loads(result.stdout)[0]
        assert summary["ran"] == 4 and summary["errors"] == 0 and summary["model"]["calls"] == 4
        rows = {r["task_id"]: r for r in lines(out / "none.jsonl")[1:]}
        assert rows["mini-0001"]["strict"] is True
        assert rows["mini-0004"]["output"]["tool_call"]["arguments"]["seat"] == "middle"
        assert rows["mini-0004"]["strict"] is False  # no memory: the seat and meals are wrong
        assert len(server.requests) == 4
        # resume: everything is done, nothing runs again
        result = CliRunner().invoke(bench, [*args, "--out", str(out), "--resume", "--quiet"])
        assert result.exit_code == 0, result.output
        assert "0 run, 4 already done" in result.stdout and len(server.requests) == 4
    # bad input is one line, no traceback
    result = CliRunner().invoke(bench, ["--data", str(MINI), "--agent", "full", "--ablate", "alignment"])
    assert result.exit_code == 1 and "add --agent iba" in result.output and "Traceback" not in result.output
    result = CliRunner().invoke(bench, ["run", "--data", str(MINI), "--domain", "medical"])
    assert result.exit_code == 1 and "no task" in result.output


def test_the_real_planner_agents_and_ablations(tmp_path):
    """iba (in two worker processes), rag and the three ablations, on the planner's floor (no model)."""
    tasks = load_suite(MINI)
    summary = run_bench(tasks, agent="iba", embedder="hash", jobs=2, out_dir=tmp_path, progress=False)
    assert summary.ran == 4 and summary.errors == 0
    rows = {r["task_id"]: r for r in lines(tmp_path / "iba.jsonl")[1:]}
    booking = rows["mini-0001"]
    assert booking["output"]["tool_call"]["name"] == "book_restaurant"
    # the tooth extraction (a short-term state) overrides the love of hot curries
    assert {c["id"]: c["status"] for c in booking["checks"]}["c2"] == "pass"
    assert booking["evidence_recall"] is not None and booking["info"]["evidence_ids"]
    assert booking["timings_ms"]["ingest"] > 0 and booking["model"]["calls"] == 0
    for agent, ablate in (
        ("rag", None),
        ("iba", "deep-retrieval"),
        ("iba", "alignment"),
        ("iba", "synthesis"),
    ):
        summary = run_bench(
            tasks, agent=agent, ablate=ablate, embedder="hash", out_dir=tmp_path, progress=False
        )
        assert summary.errors == 0 and summary.ran == 4, summary.label
    assert sorted(p.name for p in tmp_path.glob("*.jsonl")) == [
        "iba-no-alignment.jsonl",
        "iba-no-deep-retrieval.jsonl",
        "iba-no-synthesis.jsonl",
        "iba.jsonl",
        "rag.jsonl",
    ]


def test_judges_score_judge_checks_in_a_run(tmp_path):
    task = load_suite(MINI, scenario="email_draft")
    ok, no = {"pass": True, "reason": "friendly"}, {"pass": False, "reason": "stiff"}
    judges = [ScriptedLLM([ok]), ScriptedLLM([ok]), ScriptedLLM([no])]
    summary = run_bench(
        task, agent="iba", agent_impl=FakeAgent(), judges=judges, out_dir=tmp_path, progress=False
    )
    row = lines(tmp_path / "iba.jsonl")[1]
    assert row["checks"][-1]["status"] == "pass" and row["model"]["judge_calls"] == 3
    assert (
        summary.model["judge_calls"] == 3 and lines(tmp_path / "iba.jsonl")[0]["judges"] == ["scripted"] * 3
    )


def test_without_out_each_run_gets_its_own_folder_and_resume_continues_the_newest(tmp_path, monkeypatch):
    import os
    import time as _time

    from click.testing import CliRunner

    from bench.cli import bench

    args = ["--data", str(MINI), "--embedder", "hash", "--quiet"]
    assert CliRunner().invoke(bench, [*args, "--limit", "2"]).exit_code == 0
    _time.sleep(1.1)  # folders are named by the second
    assert CliRunner().invoke(bench, [*args, "--limit", "2"]).exit_code == 0
    runs = sorted((Path(os.environ["IBACHAT_HOME"]) / "bench" / "results" / MINI.stem).iterdir())
    assert len(runs) == 2  # running again never collides with the earlier results
    result = CliRunner().invoke(bench, [*args, "--resume"])
    assert result.exit_code == 0 and "2 already done" in result.stdout
    tasks = [row for row in lines(runs[-1] / "iba.jsonl") if row.get("type") == "task"]
    assert len(tasks) == 4  # the newest run was continued to all 4 tasks
