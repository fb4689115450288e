"""Evidence recall@k and hit@k of memory retrieval on long histories with turn-level labels.

One fresh memory store per conversation (shared by its questions); every method ranks that
store's turns for each question:

- ``deep``: ``deep_retrieve(mode="deep")`` with no model (the planner's deterministic floor);
- ``bm25``: one query over the lexical index;
- ``dense``: one query over the vector index;
- ``hybrid``: one query, dense and lexical fused (the ``rag`` agent's retrieval).

recall@k is the fraction of a question's evidence turns among the top k, averaged over
questions; hit@k is the fraction of questions with any evidence turn in the top k.
"""

from __future__ import annotations

import tempfile
import time
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

from bench.loaders import Conversation, Dataset
from memory.errors import BadInput

METHODS = ("deep", "bm25", "dense", "hybrid")
Progress = Callable[[int, int], None]  # (questions done, total)


def _ranked(method: str, memory: Any, query: str, now: Any, depth: int, tool: Any = None) -> list[int]:
    if method == "deep":
        from ibachat.agent.retrieval.deep import deep_retrieve

        # as the planner runs it: with the tool about to be called, when the case has one
        evidence = deep_retrieve(memory, query, now=now, tool=tool, llm=None, budget=depth, mode="deep")
        return [item.turn.id for item in evidence.items]
    mode = {"bm25": "lexical", "dense": "dense", "hybrid": "hybrid"}[method]
    return [hit.id for hit in memory.search(query, depth, mode=mode)]


class _Tally:
    """Sums of recall and hit per k, overall and per category."""

    def __init__(self, ks: Sequence[int]) -> None:
        self.ks = ks
        self.groups: dict[str | None, dict[str, float]] = {}
        self.ms = 0.0

    def add(self, category: str | None, ranked: list[int], evidence: set[int]) -> None:
        for group in (None, category) if category is not None else (None,):
            sums = self.groups.setdefault(group, {"n": 0})
            sums["n"] += 1
            for k in self.ks:
                found = len(evidence.intersection(ranked[:k]))
                sums[f"recall@{k}"] = sums.get(f"recall@{k}", 0.0) + found / len(evidence)
                sums[f"hit@{k}"] = sums.get(f"hit@{k}", 0.0) + (found > 0)

    def result(self) -> dict[str, Any]:
        def mean(sums: dict[str, float]) -> dict[str, Any]:
            n = int(sums["n"])
            out: dict[str, Any] = {"n": n}
            for k in self.ks:
                out[f"recall@{k}"] = round(sums.get(f"recall@{k}", 0.0) / n, 4) if n else None
                out[f"hit@{k}"] = round(sums.get(f"hit@{k}", 0.0) / n, 4) if n else None
            return out

        overall = self.groups.get(None, {"n": 0})
        return {
            "overall": mean(overall),
            "by_category": {
                str(c): mean(s)
                for c, s in sorted(self.groups.items(), key=lambda i: str(i[0]))
                if c is not None
            },
            "ms_per_query": round(self.ms / overall["n"], 2) if overall["n"] else None,
        }


def _records(conv: Conversation) -> list[dict[str, Any]]:
    return [
        {"session_id": t.session, "role": t.role, "text": t.text, "time": t.time, "source": "import"}
        for t in conv.turns
    ]


def evaluate_retrieval(
    cases: Dataset | Iterable[Conversation],
    *,
    methods: Sequence[str] = ("deep", "bm25", "dense"),
    ks: Sequence[int] = (5, 10),
    embedder: Any = None,
    cache_dir: Path | None = None,
    limit: int | None = None,
    progress: Progress | None = None,
) -> dict[str, Any]:
    """Rank each conversation's turns for its questions with every method; see the module docstring.

    ``embedder`` is an ``Embedder`` or a spec (``"hash"``, ``"minilm"``...); ``cache_dir`` keeps
    embeddings between runs (default: a temporary folder); ``limit`` caps the questions.
    """
    from memory.embedders.registry import load_embedder
    from memory.memory import Memory

    unknown = [m for m in methods if m not in METHODS]
    if unknown or not methods:
        raise BadInput(f"unknown retrieval method(s) {unknown} (known: {', '.join(METHODS)})")
    if not ks or any(int(k) < 1 for k in ks):
        raise BadInput(f"k must be at least 1, got {list(ks)}")
    ks = sorted({int(k) for k in ks})
    depth = max(ks)
    dataset = cases if isinstance(cases, Dataset) else Dataset("cases", "objects", list(cases))
    if embedder is None or isinstance(embedder, str):
        embedder = load_embedder(embedder)
    total = dataset.questions if limit is None else min(limit, dataset.questions)
    tallies = {m: _Tally(ks) for m in methods}
    done = turns = conversations = 0
    started = time.perf_counter()
    ingest_s = 0.0
    with tempfile.TemporaryDirectory(prefix="ibachat-retrieval-") as tmp:
        cache = Path(cache_dir) if cache_dir else Path(tmp) / "cache"
        for number, conv in enumerate(dataset.conversations):
            if done >= total:
                break
            t0 = time.perf_counter()
            memory = Memory.open(
                Path(tmp) / f"store-{number}", embedder=embedder, cache_dir=cache, fsync=False
            )
            try:
                ids = [t.id for t in memory.add_turns(_records(conv))]
                ingest_s += time.perf_counter() - t0
                conversations += 1
                turns += len(ids)
                now_default = conv.default_now()
                for question in conv.questions:
                    if done >= total:
                        break
                    evidence = {ids[i] for i in question.evidence}
                    for method in methods:
                        t1 = time.perf_counter()
                        ranked = _ranked(
                            method, memory, question.query, question.now or now_default, depth, question.tool
                        )
                        tallies[method].ms += 1000 * (time.perf_counter() - t1)
                        tallies[method].add(question.category, ranked, evidence)
                    done += 1
                    if progress:
                        progress(done, total)
            finally:
                memory.close()
    return {
        "dataset": dataset.name,
        "format": dataset.format,
        "embedder": embedder.model_id,
        "ks": ks,
        "conversations": conversations,
        "turns": turns,
        "questions": done,
        "skipped": dict(dataset.skipped),
        "methods": {m: tallies[m].result() for m in methods},
        "seconds": {"total": round(time.perf_counter() - started, 2), "ingest": round(ingest_s, 2)},
    }


def retrieval_table(result: dict[str, Any]) -> Any:
    """A rich table: one row per method (and per category under it)."""
    from rich.table import Table

    ks = result["ks"]
    table = Table(
        title=f"{result['dataset']}: {result['questions']} questions, embedder {result['embedder']}"
    )
    table.add_column("method")
    table.add_column("category")
    table.add_column("n", justify="right")
    for k in ks:
        table.add_column(f"recall@{k}", justify="right")
        table.add_column(f"hit@{k}", justify="right")
    table.add_column("ms/query", justify="right")
    for method, res in result["methods"].items():
        rows = [("all", res["overall"])] + list(res["by_category"].items())
        for index, (category, row) in enumerate(rows):
            cells = [
                f"{row[f'{m}@{k}']:.3f}" if row[f"{m}@{k}"] is not None else "-"
                for k in ks
                for m in ("recall", "hit")
            ]
            ms = f"{res['ms_per_query']:.1f}" if index == 0 and res["ms_per_query"] is not None else ""
            table.add_row(method if index == 0 else "", category, str(row["n"]), *cells, ms)
        table.add_section()
    return table
