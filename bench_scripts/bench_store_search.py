"""Search latency of the store's indexes at 100k turns, query vector given, BLAS pinned or not.

    python bench_scripts/bench_store_search.py [--n 100000] [--queries 200] [--out FILE]

Builds a ``VectorIndex`` (MiniLM-sized 384-d unit vectors around 64 topics) and a
``LexicalIndex`` (filler chat lines) in memory, then times, interleaved query by query in two loops:
exact vector search with BLAS pinned to one thread (as ``VectorIndex`` does) and with
BLAS free (one loop), then HNSW search, BM25 search, and hybrid = HNSW + BM25 + RRF, the work of
``Memory.search(mode="hybrid", vector=...)`` without reading turns. Prints p50/p95 in ms,
HNSW recall@10 against exact search on the same queries, the load average before and after,
and how far float16 storage moves exact search: the share of each query's float32 top 10
that the float16-rounded vectors also rank in their top 10.
The filler is a worst case for BM25: 12 words a line from a 40-word vocabulary, so each query
word matches about a quarter of all turns (real chat spreads over far more words). The
``zipf_*`` figures time BM25 and hybrid again over a second lexical index of the same size whose
lines (4 to 30 words) draw from a Zipf vocabulary (see ``zipf_lines``), closer to real chat.
"""

from __future__ import annotations

import argparse
import itertools
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


def zipf_lines(n: int, count: int, rng: random.Random) -> tuple[list[str], list[str]]:
    """``n`` lines of 4 to 30 words from a 20,000-word Zipf vocabulary, and ``count`` queries.

    Word ``r`` (from 0) is drawn with weight ``1 / (r + 101)``: the Zipf law of running text with
    its first 100 ranks, the function words that BM25 drops as stopwords, left out; the commonest
    word is then in about 3% of lines. A query asks about 4 words of a random line.
    """
    syllables = [c + v for c in "bdfgklmnprtvz" for v in "aeiou"]  # no "s": plurals are folded
    vocab = [a + b + c for a in syllables for b in syllables for c in syllables][:20_000]
    cum = list(itertools.accumulate(1.0 / (rank + 101) for rank in range(len(vocab))))
    lines = [" ".join(rng.choices(vocab, cum_weights=cum, k=rng.randint(4, 30))) for _ in range(n)]
    queries = [
        "what did I say about " + " ".join(rng.sample(line.split(), 4))
        for line in rng.choices([line for line in lines if len(line.split()) >= 4], k=count)
    ]
    return lines, queries


def time_search(index: VectorIndex, lexical: LexicalIndex, queries: list, texts: list[str]) -> dict:
    """HNSW, BM25 and hybrid (HNSW + BM25 + RRF) per query, in seconds, interleaved."""
    times: dict[str, list[float]] = {"hnsw": [], "bm25": [], "hybrid": []}
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
    return times


def pct(values: list[float], q: float) -> float:
    return round(float(np.percentile(np.array(values), q)), 3)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=100_000)
    ap.add_argument("--queries", type=int, default=200)
    ap.add_argument("--out", type=Path)
    ap.add_argument("--no-zipf", dest="zipf", action="store_false", help="skip the Zipf-vocabulary corpus")
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
    load_before = os.getloadavg()[0]
    times: dict[str, list[float]] = {"exact_pinned": [], "exact_free": []}
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
    times.update(time_search(index, lexical, queries, texts))
    short = sum(len(index._graph.search(q, 30).keys) < 30 for q in queries)  # HNSW short: exact fallback
    recall = float(
        np.mean(
            [
                len(
                    {h.id for h in index.search(q, 10, exact=False)}
                    & {h.id for h in index.search(q, 10, exact=True)}
                )
                / 10
                for q in queries
            ]
        )
    )
    if args.zipf:
        lines, zipf_texts = zipf_lines(args.n, args.queries, words)
        zipf_lexical = LexicalIndex()
        zipf_lexical.add(list(range(1, args.n + 1)), lines)
        del lines
        zipf = time_search(index, zipf_lexical, queries, zipf_texts)
        times.update({"zipf_bm25": zipf["bm25"], "zipf_hybrid": zipf["hybrid"]})
    exact32 = np.argsort(-(vecs @ np.stack(queries).T), axis=0)[:10].T
    exact16 = np.argsort(-(vecs.astype(np.float16).astype(np.float32) @ np.stack(queries).T), axis=0)[:10].T
    agree = float(np.mean([len(set(a) & set(b)) / 10 for a, b in zip(exact32, exact16)]))
    report = {
        "n": args.n,
        "f16_vs_f32_exact_top10_agreement": round(agree, 4),
        "queries": args.queries,
        "build_s": round(built, 1),
        "hnsw_build_s": round(graph_s, 1),
        "load_average_before": round(load_before, 2),
        "load_average": round(os.getloadavg()[0], 2),
        "hnsw_recall_at_10": round(recall, 4),
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
