"""Search latency of the store's indexes at 100k turns, query vector given, BLAS pinned or not.

    python bench_scripts/bench_store_search.py [--n 100000] [--queries 200] [--out FILE]

Builds a ``VectorIndex`` (MiniLM-sized 384-d unit vectors around 64 topics) and a
``LexicalIndex`` (filler chat lines) in memory, then times, interleaved query by query in two loops:
exact vector search with BLAS pinned to one thread (as ``VectorIndex`` does) and with
BLAS free (one loop), then HNSW search, BM25 search, and hybrid = HNSW + BM25 + RRF, the work of
``Memory.search(mode="hybrid", vector=...)`` without reading turns. Prints p50/p95 in ms,
and how far float16 storage moves exact search: the share of each query's float32 top 10
that the float16-rounded vectors also rank in their top 10.
The filler is a worst case for BM25: 12 words a line from a 40-word vocabulary, so each query
word matches about a quarter of all turns (real chat spreads over far more words).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from pathlib import Path

import numpy as np

os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from memory.hybrid import rrf_fuse  # noqa: E402
from memory.lexical import LexicalIndex  # noqa: E402
from memory.memory import RRF_C  # noqa: E402
from memory.vector import VectorIndex  # noqa: E402

WORDS = (
    "coffee dentist flight train hotel budget report meeting gym salad pasta spicy window aisle email "
    "draft reminder grandma birthday invoice project deadline weekend hiking movie concert doctor refill "
    "allergy vegan steak sushi taxi ride morning evening quiet cheap fast short long formal casual bullet"
).split()


def pct(values: list[float], q: float) -> float:
    return round(float(np.percentile(np.array(values), q)), 3)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=100_000)
    ap.add_argument("--queries", type=int, default=200)
    ap.add_argument("--out", type=Path)
    args = ap.parse_args()
    rng = np.random.default_rng(0)
    words = random.Random(0)
    centers = rng.standard_normal((64, 384)).astype(np.float32)
    vecs = centers[rng.integers(0, 64, args.n)] + 0.6 * rng.standard_normal((args.n, 384)).astype(np.float32)
    vecs /= np.linalg.norm(vecs, axis=1, keepdims=True)
    t0 = time.perf_counter()
    index = VectorIndex(384)
    index.add(np.arange(1, args.n + 1), vecs)
    lexical = LexicalIndex()
    lexical.add(list(range(1, args.n + 1)), [" ".join(words.choices(WORDS, k=12)) for _ in range(args.n)])
    built = time.perf_counter() - t0
    t0 = time.perf_counter()
    index.build_graph()
    graph_s = time.perf_counter() - t0
    queries = [vecs[i] + 0.3 * rng.standard_normal(384).astype(np.float32) for i in range(args.queries)]
    texts = ["what did I say about " + " ".join(words.choices(WORDS, k=4)) for _ in range(args.queries)]
    times: dict[str, list[float]] = {
        "exact_pinned": [],
        "exact_free": [],
        "hnsw": [],
        "bm25": [],
        "hybrid": [],
    }
    for q in queries:  # the exact scans first: at 100k each streams 150 MB, tens of ms of CPU
        t = time.perf_counter()
        index.search(q, 10, exact=True)
        times["exact_pinned"].append(time.perf_counter() - t)
        t = time.perf_counter()
        scores = index._vecs[: len(index)] @ q  # the same product with BLAS threads left free
        np.argpartition(-scores, 9)[:10]
        times["exact_free"].append(time.perf_counter() - t)
    # then what a hybrid search does, in a loop of its own: interleaved with the exact scans, a
    # busy machine preempts it for their CPU time, and that, not the search, is what gets timed
    short = 0
    for q, text in zip(queries, texts):
        t = time.perf_counter()
        index.search(q, 10, exact=False)
        times["hnsw"].append(time.perf_counter() - t)
        t = time.perf_counter()
        lexical.search(text, 30)
        times["bm25"].append(time.perf_counter() - t)
        t = time.perf_counter()
        rrf_fuse([("dense", index.search(q, 30)), ("lexical", lexical.search(text, 30))], k=10, c=RRF_C)
        times["hybrid"].append(time.perf_counter() - t)
        short += len(index._graph.search(q, 30).keys) < 30  # HNSW came back short: exact fallback
    exact32 = np.argsort(-(vecs @ np.stack(queries).T), axis=0)[:10].T
    exact16 = np.argsort(-(vecs.astype(np.float16).astype(np.float32) @ np.stack(queries).T), axis=0)[:10].T
    agree = float(np.mean([len(set(a) & set(b)) / 10 for a, b in zip(exact32, exact16)]))
    report = {
        "n": args.n,
        "f16_vs_f32_exact_top10_agreement": round(agree, 4),
        "queries": args.queries,
        "build_s": round(built, 1),
        "hnsw_build_s": round(graph_s, 1),
        "load_average": os.getloadavg()[0],
        "hnsw_short_of_30": short,
        **{f"{k}_ms_p50": pct([1000 * v for v in vals], 50) for k, vals in times.items()},
        **{f"{k}_ms_p95": pct([1000 * v for v in vals], 95) for k, vals in times.items()},
    }
    print(json.dumps(report, indent=1))
    if args.out:
        args.out.write_text(json.dumps(report, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
