"""The store against the peers a user would pick instead, on the same turns and vectors, interleaved.

    PYTHONPATH=. python bench_scripts/bench_peers.py [--n 100000] [--queries 200] [--inserts 100]

Every system gets the same ``n`` chat-like turns with the same 384-d vectors (MiniLM's size;
synthetic: unit vectors around 64 topics, as bench_store_search.py builds them, so no model
and no torch are needed) and is fed batch by batch in turn. Then, system by system in
rotating order: single-turn inserts (ms/turn, vector given), searches with the query vector
given (p50/p95, top 10), reopening from disk up to the first search result (in a fresh
process, so no library reuses what it cached in this one; the library's import is timed
apart), and disk MB.

* ibachat: ``Memory`` (TinyDB segments with fsync, usearch HNSW, BM25), hybrid and dense.
* chroma (chromadb 1.5.9): ``PersistentClient``, cosine HNSW.
* LanceDB (lancedb 0.40.0): one table, flat (exact) vector search, no ANN index built.
* mem0 (mem0ai 2.2.1): its ``Memory.add`` needs an LLM to extract facts, so its vector
  store layer is measured instead: qdrant-client in local mode (what mem0 uses with a
  local Qdrant path), cosine.

A peer that is not importable is skipped with one line. Peers live in the ``peers`` extra
(``pip install -e .[peers]``), or in a separate venv with PYTHONPATH pointing here.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
os.environ.setdefault("ANONYMIZED_TELEMETRY", "False")  # chroma: no telemetry thread
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

NDIM = 384
BATCH = 2048
WORDS = (
    "coffee dentist flight train hotel budget report meeting gym salad pasta spicy window aisle email "
    "draft reminder grandma birthday invoice project deadline weekend hiking movie concert doctor refill "
    "allergy vegan steak sushi taxi ride morning evening quiet cheap fast short long formal casual bullet "
    "summary Denver Paris Tokyo Monday Friday 7am 9pm 14th Mochi Priya Tomasz"
).split()


def turns(n: int, seed: int) -> tuple[list[str], np.ndarray]:
    rng = np.random.default_rng(seed)
    words = random.Random(seed)
    texts = [" ".join(words.choices(WORDS, k=words.randint(6, 24))) + f" ({seed}:{i})" for i in range(n)]
    centers = np.random.default_rng(0).standard_normal((64, NDIM)).astype(np.float32)
    vecs = centers[rng.integers(0, 64, n)] + 0.6 * rng.standard_normal((n, NDIM)).astype(np.float32)
    vecs /= np.linalg.norm(vecs, axis=1, keepdims=True)
    return texts, vecs


def folder_mb(path: Path) -> float:
    return round(sum(f.stat().st_size for f in path.rglob("*") if f.is_file()) / 1e6, 1)


def pct(values: Sequence[float], q: float) -> float:
    return round(float(np.percentile(np.asarray(values), q)), 3)


# ----- systems: open(), add(ids, texts, vecs), search(text, vec), close() -------------------------


class Ibachat:
    name = "ibachat"

    def __init__(self, folder: Path, mode: str = "hybrid") -> None:
        self.folder, self.mode, self.mem = folder, mode, None

    def open(self) -> None:
        from memory.embedders.base import Embedder
        from memory.memory import Memory

        class GivenVectors(Embedder):
            """Vectors come with the turns (through the cache); embedding a text is a bug here."""

            model_id = "bench/given-vectors"
            ndim = NDIM

            def embed_batch(self, texts: Sequence[str]) -> np.ndarray:
                raise RuntimeError(f"bench_peers: ibachat was asked to embed {len(texts)} texts")

        self.mem = Memory.open(self.folder, embedder=GivenVectors())

    def add(self, ids: list[int], texts: list[str], vecs: np.ndarray) -> None:
        self.mem.cache.put_many(texts, vecs)
        self.mem.add_turns(
            [{"session_id": f"s{i // 12}", "role": "user", "text": t} for i, t in zip(ids, texts)]
        )

    def finish_build(self) -> None:
        vectors, _ = self.mem._indexes()
        if len(vectors) >= vectors.hnsw_threshold:
            vectors.build_graph()  # what the first search past the threshold does, done once here
        self.mem.save_indexes()

    def search(self, text: str, vec: np.ndarray) -> list[int]:
        return [h.id for h in self.mem.search(text, 10, mode=self.mode, vector=vec)]

    def close(self) -> None:
        self.mem.close()
        self.mem = None


class Chroma:
    name = "chroma"

    def __init__(self, folder: Path) -> None:
        self.folder, self.client, self.col = folder, None, None

    def open(self) -> None:
        import chromadb

        self.client = chromadb.PersistentClient(path=str(self.folder))
        self.col = self.client.get_or_create_collection("turns", metadata={"hnsw:space": "cosine"})

    def add(self, ids: list[int], texts: list[str], vecs: np.ndarray) -> None:
        self.col.add(ids=[str(i) for i in ids], embeddings=vecs, documents=texts)

    def finish_build(self) -> None:
        pass

    def search(self, text: str, vec: np.ndarray) -> list[int]:
        res = self.col.query(query_embeddings=[vec], n_results=10)
        return [int(i) for i in res["ids"][0]]

    def close(self) -> None:
        self.col = None
        self.client = None
        gc.collect()


class Lance:
    name = "lancedb"

    def __init__(self, folder: Path) -> None:
        self.folder, self.db, self.table = folder, None, None

    def open(self) -> None:
        import lancedb

        self.db = lancedb.connect(str(self.folder))
        self.table = self.db.open_table("turns") if "turns" in self.db.table_names() else None

    def add(self, ids: list[int], texts: list[str], vecs: np.ndarray) -> None:
        import pyarrow as pa

        data = pa.table(
            {
                "id": pa.array(ids, pa.int64()),
                "text": pa.array(texts, pa.string()),
                "vector": pa.FixedSizeListArray.from_arrays(pa.array(vecs.reshape(-1), pa.float32()), NDIM),
            }
        )
        if self.table is None:
            self.table = self.db.create_table("turns", data)
        else:
            self.table.add(data)

    def finish_build(self) -> None:
        pass

    def search(self, text: str, vec: np.ndarray) -> list[int]:
        rows = self.table.search(vec).metric("cosine").limit(10).select(["id"]).to_list()
        return [int(r["id"]) for r in rows]

    def close(self) -> None:
        self.table = None
        self.db = None
        gc.collect()


class Qdrant:
    name = "mem0-qdrant-local"

    def __init__(self, folder: Path) -> None:
        self.folder, self.client = folder, None

    def open(self) -> None:
        from qdrant_client import QdrantClient, models

        self.client = QdrantClient(path=str(self.folder))
        if not self.client.collection_exists("turns"):
            self.client.create_collection(
                "turns", vectors_config=models.VectorParams(size=NDIM, distance=models.Distance.COSINE)
            )

    def add(self, ids: list[int], texts: list[str], vecs: np.ndarray) -> None:
        from qdrant_client import models

        self.client.upsert(
            "turns",
            points=models.Batch(ids=ids, vectors=vecs.tolist(), payloads=[{"data": t} for t in texts]),
        )

    def finish_build(self) -> None:
        pass

    def search(self, text: str, vec: np.ndarray) -> list[int]:
        res = self.client.query_points("turns", query=vec.tolist(), limit=10)
        return [int(p.id) for p in res.points]

    def close(self) -> None:
        self.client.close()
        self.client = None


def make(name: str, folder: Path) -> Any:
    return Ibachat(folder) if name == "ibachat" else PEERS[name][1](folder)


def open_in_child(name: str, folder: Path) -> dict[str, float]:
    """Import, open and search once in a fresh interpreter; the child times each step."""
    out = subprocess.run(
        [sys.executable, __file__, "--open-child", name, str(folder)],
        capture_output=True,
        text=True,
        check=False,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    if out.returncode != 0:
        raise SystemExit(f"bench_peers: reopening {name} failed: {out.stderr.strip()[-400:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def child(name: str, folder: Path) -> int:
    t0 = time.perf_counter()
    system = make(name, folder)
    __import__(
        {"ibachat": "memory.memory", "chroma": "chromadb", "lancedb": "lancedb"}.get(name, "qdrant_client")
    )
    t1 = time.perf_counter()
    system.open()
    vec = np.random.default_rng(9).standard_normal(NDIM).astype(np.float32)
    hits = system.search("what did I say about coffee", vec / np.linalg.norm(vec))
    t2 = time.perf_counter()
    system.close()
    assert len(hits) == 10, hits
    print(json.dumps({"import_s": round(t1 - t0, 3), "open_to_first_result_s": round(t2 - t1, 3)}))
    return 0


PEERS = {"chroma": ("chromadb", Chroma), "lancedb": ("lancedb", Lance), "mem0": ("mem0", Qdrant)}


def available(names: list[str], root: Path) -> list[Any]:
    systems: list[Any] = [Ibachat(root / "ibachat")]
    for name in names:
        module, cls = PEERS[name]
        try:
            __import__(module)
            if name == "mem0":
                __import__("qdrant_client")
        except ImportError as err:
            print(f"skipping {name}: {err} (install the 'peers' extra)", file=sys.stderr)
            continue
        systems.append(cls(root / name))
    return systems


def rotate(systems: list[Any], i: int) -> list[Any]:
    k = i % len(systems)
    return systems[k:] + systems[:k]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=100_000)
    ap.add_argument("--queries", type=int, default=200)
    ap.add_argument("--inserts", type=int, default=100)
    ap.add_argument("--peers", nargs="*", default=list(PEERS), choices=list(PEERS))
    ap.add_argument("--out", type=Path)
    ap.add_argument("--open-child", nargs=2, metavar=("SYSTEM", "FOLDER"), help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.open_child:
        return child(args.open_child[0], Path(args.open_child[1]))
    if args.n < 1 or args.queries < 1 or args.inserts < 1:
        print("bench_peers: --n, --queries and --inserts must be positive", file=sys.stderr)
        return 2
    root = Path(tempfile.mkdtemp(prefix="bench-peers-"))
    try:
        return run(args, root)
    finally:
        shutil.rmtree(root, ignore_errors=True)


def run(args: argparse.Namespace, root: Path) -> int:
    systems = available(args.peers, root)
    texts, vecs = turns(args.n, seed=1)
    new_texts, new_vecs = turns(args.inserts, seed=2)
    rng = np.random.default_rng(3)
    pick = rng.integers(0, args.n, args.queries)
    qvecs = vecs[pick] + 0.3 * rng.standard_normal((args.queries, NDIM)).astype(np.float32)
    qvecs /= np.linalg.norm(qvecs, axis=1, keepdims=True)
    words = random.Random(4)
    qtexts = ["what did I say about " + " ".join(words.choices(WORDS, k=4)) for _ in range(args.queries)]
    rows: dict[str, dict[str, Any]] = {s.name: {} for s in systems}
    build: dict[str, float] = {s.name: 0.0 for s in systems}
    for s in systems:
        s.open()
    for b, start in enumerate(range(0, args.n, BATCH)):  # batch by batch, each system in turn
        ids = list(range(start + 1, min(start + BATCH, args.n) + 1))
        for s in rotate(systems, b):
            t0 = time.perf_counter()
            s.add(ids, texts[start : start + len(ids)], vecs[start : start + len(ids)])
            build[s.name] += time.perf_counter() - t0
        print(f"built {ids[-1]}/{args.n}", file=sys.stderr, flush=True)
    for s in systems:
        t0 = time.perf_counter()
        s.finish_build()
        build[s.name] += time.perf_counter() - t0
        rows[s.name]["build_s"] = round(build[s.name], 1)
    inserts: dict[str, list[float]] = {s.name: [] for s in systems}
    for i in range(args.inserts):
        for s in rotate(systems, i):
            t0 = time.perf_counter()
            s.add([args.n + 1 + i], [new_texts[i]], new_vecs[i : i + 1])
            inserts[s.name].append(1000 * (time.perf_counter() - t0))
    dense = Ibachat(root / "ibachat", mode="dense")  # the same store, dense only
    dense.mem = systems[0].mem
    searchers = systems + [dense]
    times: dict[str, list[float]] = {id(s): [] for s in searchers}
    for s in searchers:  # warm-up: caches, lazy loads
        for q in range(min(5, args.queries)):
            s.search(qtexts[q], qvecs[q])
    for q in range(args.queries):
        for s in rotate(searchers, q):
            t0 = time.perf_counter()
            s.search(qtexts[q], qvecs[q])
            times[id(s)].append(1000 * (time.perf_counter() - t0))
    for s in systems:
        s.close()
        rows[s.name]["insert_ms_per_turn_p50"] = pct(inserts[s.name], 50)
        rows[s.name]["insert_ms_per_turn_p95"] = pct(inserts[s.name], 95)
    label = {id(s): s.name for s in systems} | {id(dense): "ibachat-dense"}
    for key, values in times.items():
        row = rows.setdefault(label[key], {})
        row["search_ms_p50"], row["search_ms_p95"] = pct(values, 50), pct(values, 95)
    for s in systems:
        rows[s.name].update(open_in_child({"mem0-qdrant-local": "mem0"}.get(s.name, s.name), s.folder))
        rows[s.name]["disk_mb"] = folder_mb(s.folder)
    report = {"n": args.n, "queries": args.queries, "load_average": os.getloadavg()[0], "systems": rows}
    print(json.dumps(report, indent=1))
    print(f"{'system':<20}{'insert ms':>10}{'open s':>9}{'p50 ms':>9}{'p95 ms':>9}{'disk MB':>9}")
    for name, r in rows.items():
        print(
            f"{name:<20}{r.get('insert_ms_per_turn_p50', float('nan')):>10.2f}"
            f"{r.get('open_to_first_result_s', float('nan')):>9.2f}{r['search_ms_p50']:>9.2f}"
            f"{r['search_ms_p95']:>9.2f}{r.get('disk_mb', float('nan')):>9.1f}"
        )
    if args.out:
        args.out.write_text(json.dumps(report, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
