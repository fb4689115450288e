"""Memory-store figures for issue 2: insert latency, hybrid search latency, recall, CLI start-up.

    python bench_scripts/bench_store.py [--sizes 1000 10000 100000] [--out results/bench_store.json]

Stores are built in bulk up to each size (filler turns get pseudo-random unit vectors written
into the embedding cache, so building 100k turns does not take an hour of MiniLM time); the
measured inserts and queries then go through the real path: TinyDB segments with fsync, usearch,
BM25, and the real offline MiniLM embedder for "embedding included" and query embedding.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import numpy as np

os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
os.environ.setdefault("HF_HUB_OFFLINE", "1")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from memory.memory import Memory  # noqa: E402

WORDS = (
    "coffee dentist flight train hotel budget report meeting gym salad pasta spicy window aisle email "
    "draft reminder grandma birthday invoice project deadline weekend hiking movie concert doctor refill "
    "allergy vegan steak sushi taxi ride morning evening quiet cheap fast short long formal casual bullet "
    "summary Denver Paris Tokyo Monday Friday 7am 9pm 14th invoice#2231 Mochi Priya Tomasz"
).split()


def filler(rng: random.Random, n: int, start: datetime) -> list[dict]:
    out = []
    for i in range(n):
        words = rng.choices(WORDS, k=rng.randint(6, 24))
        out.append(
            {
                "session_id": f"s{i // 12}",
                "role": "user" if i % 2 == 0 else "assistant",
                "text": " ".join(words) + f" ({i})",
                "time": (start + timedelta(minutes=7 * i)).isoformat(),
            }
        )
    return out


def build(home: Path, n: int, embedder, rng: random.Random) -> Memory:
    mem = Memory.open(home, embedder=embedder)
    recs = filler(rng, n, datetime(2025, 1, 1, tzinfo=UTC))
    nprng = np.random.default_rng(0)
    centers = nprng.standard_normal((64, embedder.ndim)).astype(np.float32)
    step = 2048
    for s in range(0, n, step):
        chunk = recs[s : s + step]
        vecs = centers[nprng.integers(0, 64, len(chunk))] + 0.6 * nprng.standard_normal(
            (len(chunk), embedder.ndim)
        ).astype(np.float32)
        vecs /= np.linalg.norm(vecs, axis=1, keepdims=True)
        mem.cache.put_many([r["text"] for r in chunk], vecs)
        mem.add_turns(chunk)
    vectors, _ = mem._indexes()
    if len(vectors) >= 20000:  # HNSW from here on: build the graph once, saved with the index
        t0 = time.perf_counter()
        vectors.build_graph()
        mem.hnsw_build_s = time.perf_counter() - t0
    mem.save_indexes()
    return mem


def pct(values: list[float], q: float) -> float:
    return float(np.percentile(np.array(values), q))


def measure_inserts(mem: Memory, rng: random.Random, count: int, *, embed: bool) -> list[float]:
    times = []
    now = datetime(2026, 6, 1, tzinfo=UTC)
    for i in range(count):
        text = f"new turn {rng.random():.12f} " + " ".join(rng.choices(WORDS, k=12))
        if not embed:  # embedding excluded: the vector is already in the cache
            mem.cache.put_many([text], _unit(mem.embedder.ndim, rng))
        t0 = time.perf_counter()
        mem.add_turn("bench", "user", text, time=now + timedelta(seconds=i))
        times.append((time.perf_counter() - t0) * 1000)
    return times


def _unit(ndim: int, rng: random.Random) -> np.ndarray:
    v = np.array([rng.gauss(0, 1) for _ in range(ndim)], dtype=np.float32)
    return (v / np.linalg.norm(v))[None, :]


def measure_search(mem: Memory, rng: random.Random, count: int) -> list[float]:
    times = []
    for _ in range(count):
        q = "what did I say about " + " ".join(rng.choices(WORDS, k=4)) + f" {rng.random():.6f}"
        t0 = time.perf_counter()
        mem.search(q, 10, mode="hybrid")  # query embedding included (a fresh query each time)
        times.append((time.perf_counter() - t0) * 1000)
    return times


def measure_search_given(mem: Memory, rng: random.Random, count: int) -> list[float]:
    """Hybrid search with the query vector given (embedding excluded), after a warm-up."""
    queries = ["what did I say about " + " ".join(rng.choices(WORDS, k=4)) for _ in range(count)]
    vecs = mem.embed_queries(queries)
    for q, v in zip(queries[:5], vecs[:5]):
        mem.search(q, 10, mode="hybrid", vector=v)
    times = []
    for q, v in zip(queries, vecs):
        t0 = time.perf_counter()
        mem.search(q, 10, mode="hybrid", vector=v)
        times.append((time.perf_counter() - t0) * 1000)
    return times


def folder_mb(path: Path) -> float:
    return round(sum(f.stat().st_size for f in path.rglob("*") if f.is_file()) / 1e6, 1)


def hnsw_recall(mem: Memory, rng: random.Random, count: int = 100) -> dict:
    vectors, _ = mem._indexes()
    ids = vectors.ids()
    recalls, t_exact, t_graph = [], [], []
    for _ in range(count):
        q = (
            vectors.get_vectors([int(ids[rng.randrange(len(ids))])])[0]
            + 0.3 * _unit(mem.embedder.ndim, rng)[0]
        )
        t0 = time.perf_counter()
        exact = {h.id for h in vectors.search(q, 10, exact=True)}
        t1 = time.perf_counter()
        graph = {h.id for h in vectors.search(q, 10, exact=False)}
        t2 = time.perf_counter()
        recalls.append(len(exact & graph) / 10)
        t_exact.append((t1 - t0) * 1000)
        t_graph.append((t2 - t1) * 1000)
    return {
        "recall_at_10": statistics.mean(recalls),
        "exact_ms_p50": pct(t_exact, 50),
        "hnsw_ms_p50": pct(t_graph, 50),
    }


def first_output_seconds(cmd: list[str], env: dict, expect: bytes) -> float:
    """Seconds until the command's first line of real output (checked against ``expect``)."""
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env)
    assert proc.stdout is not None
    first = proc.stdout.readline()
    elapsed = time.perf_counter() - t0
    if not first.startswith(expect):
        raise SystemExit(f"{' '.join(cmd)}: unexpected first output {first[:80]!r}")
    proc.kill()
    proc.wait()
    return elapsed


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000, 100000])
    ap.add_argument("--inserts", type=int, default=100)
    ap.add_argument("--queries", type=int, default=100)
    ap.add_argument("--out", type=Path, default=ROOT / "results" / "bench_store.json")
    args = ap.parse_args()
    from memory.embedders.registry import load_embedder

    embedder = load_embedder("minilm")
    embedder.load()
    rng = random.Random(1)
    report: dict = {"embedder": embedder.model_id, "sizes": {}}
    exe = str(Path(sys.executable).with_name("ibachat"))
    for n in args.sizes:
        with tempfile.TemporaryDirectory() as tmp:
            home = Path(tmp) / "home"
            t0 = time.perf_counter()
            mem = build(home, n, embedder, rng)
            built = time.perf_counter() - t0
            excl = measure_inserts(mem, rng, args.inserts, embed=False)
            incl = measure_inserts(mem, rng, args.inserts, embed=True)
            search = measure_search(mem, rng, args.queries)
            given = measure_search_given(mem, rng, args.queries)
            row = {
                "build_s": round(built, 1),
                "insert_ms_excl_embedding_p50": pct(excl, 50),
                "insert_ms_excl_embedding_p95": pct(excl, 95),
                "insert_ms_incl_embedding_p50": pct(incl, 50),
                "insert_ms_incl_embedding_p95": pct(incl, 95),
                "hybrid_search_ms_p50": pct(search, 50),
                "hybrid_search_ms_p95": pct(search, 95),
                "hybrid_search_vector_given_ms_p50": pct(given, 50),
                "hybrid_search_vector_given_ms_p95": pct(given, 95),
            }
            if hasattr(mem, "hnsw_build_s"):
                row["hnsw_build_s"] = round(mem.hnsw_build_s, 1)
            if n >= 100000:
                row["hnsw_vs_exact"] = hnsw_recall(mem, rng)
            mem.close()
            row["disk_mb"] = folder_mb(home)
            row["disk_mb_by_folder"] = {p.name: folder_mb(p) for p in sorted(home.iterdir()) if p.is_dir()}
            env = {**os.environ, "IBACHAT_HOME": str(home)}
            row["memory_show_first_output_s"] = statistics.median(
                first_output_seconds([exe, "memory", "show", "-n", "20"], env, b"#") for _ in range(3)
            )
            report["sizes"][n] = row
            print(n, json.dumps(row), flush=True)
    report["help_s"] = statistics.median(
        first_output_seconds([exe, "--help"], dict(os.environ), b"Usage:") for _ in range(5)
    )
    first, last = report["sizes"][min(args.sizes)], report["sizes"][max(args.sizes)]
    report["insert_ratio_largest_vs_smallest"] = (
        last["insert_ms_excl_embedding_p50"] / first["insert_ms_excl_embedding_p50"]
    )
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=2))
    print(json.dumps(report, indent=2))
    ok = report["insert_ratio_largest_vs_smallest"] <= 2.0 and report["help_s"] < 0.5
    ok = ok and all(r["memory_show_first_output_s"] < 1.0 for r in report["sizes"].values())
    print("PASS" if ok else "FAIL: see the figures above")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
