"""Dense vector index: exact search for small stores, usearch HNSW for large ones.

A float32 copy of every vector is kept in memory: exact search is a numpy matmul over
it, ``get_vectors`` reads it, and HNSW hits are re-scored from it, so a score means the
same thing whichever path found it. ``Hit.score`` is cosine similarity (``metric="cos"``)
or the dot product (``metric="ip"``); higher is more similar.

Files: while no HNSW graph exists the index is saved in a flat format of its own
(header, ids, vectors, crc32); once the graph is built it is saved by usearch, so the
graph survives a restart. Both are written to a temporary sibling and renamed.
"""

from __future__ import annotations

import math
import os
import struct
import zlib
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from memory.atomic import commit_temp, temp_path_for
from memory.errors import BadInput, CorruptFile, NotFound
from memory.types import Hit

METRICS = ("cos", "ip")
FLAT_MAGIC = b"IBAVECF1"
_FLAT_HEADER = struct.Struct("<8sIIQ")  # magic, ndim, metric index, count
_CRC = struct.Struct("<I")
_MIN_CAPACITY = 64


PENDING_LIMIT = 4096  # buffered inserts merged into the HNSW graph at once
BLAS_THREADS = 1  # threads a search's matrix-vector product may use (see ``blas_threads``)
_CONTROLLER: Any = None


def blas_threads(limit: int = BLAS_THREADS) -> Any:
    """A context that pins the BLAS thread pool for one search.

    A matrix-vector product over 100k x 384 floats takes a few ms on one thread, but swings
    from a fraction of a ms to many ms when BLAS spreads it over threads that a busy machine
    cannot give it, so a search runs on one thread. threadpoolctl's controller is built once
    (it scans the loaded libraries, ~1 ms); each pin then costs microseconds.
    """
    global _CONTROLLER
    if _CONTROLLER is None:
        from threadpoolctl import ThreadpoolController

        _CONTROLLER = ThreadpoolController()
    return _CONTROLLER.limit(limits=limit, user_api="blas")


class VectorIndex:
    """Vectors by turn id. Not thread-safe: one writer, and no search during a write."""

    def __init__(
        self,
        ndim: int,
        *,
        metric: str = "cos",
        hnsw_threshold: int = 20_000,
        expansion_search: int = 64,
    ) -> None:
        if int(ndim) <= 0:
            raise BadInput(f"vector index needs a positive dimension, got {ndim}")
        if metric not in METRICS:
            raise BadInput(f"unknown vector metric {metric!r}; use one of {', '.join(METRICS)}")
        self.ndim = int(ndim)
        self.metric = metric
        self.hnsw_threshold = int(hnsw_threshold)
        self.expansion_search = int(expansion_search)
        self._vecs = np.zeros((0, self.ndim), dtype=np.float32)
        self._inv = np.zeros(0, dtype=np.float32)  # 1/|v| for cos, 1 for ip
        self._keys = np.zeros(0, dtype=np.int64)
        self._n = 0
        self._row: dict[int, int] = {}
        self._graph: Any = None  # usearch.index.Index once built
        # Ids added since the graph was built and not yet inserted into it: searched exactly and
        # merged into the graph in one batch (at save, or when the buffer is full), so one insert
        # costs an array append whatever the index size (an HNSW insert costs ~1 ms here).
        self._pending: set[int] = set()
        self.dirty = False

    # ----- files -----------------------------------------------------------------

    @classmethod
    def load(cls, path: Path, ndim: int, **kw: Any) -> VectorIndex:
        """Read ``path``; a missing file gives an empty index, a bad one raises CorruptFile."""
        path = Path(path)
        index = cls(ndim, **kw)
        try:
            with open(path, "rb") as f:
                magic = f.read(len(FLAT_MAGIC))
        except FileNotFoundError:
            return index
        except OSError as err:
            raise CorruptFile(f"cannot read vector index {path}: {err.strerror}") from err
        if magic == FLAT_MAGIC:
            index._load_flat(path)
        else:
            index._load_usearch(path)
        index.dirty = False
        return index

    def _load_flat(self, path: Path) -> None:
        try:
            data = path.read_bytes()
        except OSError as err:
            raise CorruptFile(f"cannot read vector index {path}: {err.strerror}") from err
        head = _FLAT_HEADER.size
        if len(data) < head + _CRC.size:
            raise CorruptFile(f"vector index {path} is truncated")
        _, ndim, metric_i, count = _FLAT_HEADER.unpack_from(data)
        if ndim != self.ndim:
            raise CorruptFile(f"vector index {path} holds {ndim}-d vectors, expected {self.ndim}-d")
        if metric_i >= len(METRICS) or METRICS[metric_i] != self.metric:
            raise CorruptFile(f"vector index {path} was built for another metric")
        body = count * 8 + count * ndim * 4
        if len(data) != head + body + _CRC.size:
            raise CorruptFile(f"vector index {path} has the wrong size for {count} vectors")
        (crc,) = _CRC.unpack_from(data, head + body)
        if zlib.crc32(memoryview(data)[head : head + body]) != crc:
            raise CorruptFile(f"vector index {path} fails its checksum")
        keys = np.frombuffer(data, dtype="<i8", count=count, offset=head)
        vecs = np.frombuffer(data, dtype="<f4", count=count * ndim, offset=head + count * 8)
        self._replace_all(keys.astype(np.int64), vecs.reshape(count, ndim).astype(np.float32))

    def _load_usearch(self, path: Path) -> None:
        from usearch.index import Index

        try:
            meta = Index.metadata(str(path))
            graph = Index.restore(str(path)) if meta is not None else None
        except (ValueError, RuntimeError) as err:
            raise CorruptFile(f"vector index {path} is unreadable: {err}") from err
        if graph is None or meta is None:
            raise CorruptFile(f"vector index {path} is unreadable")
        if int(meta["dimensions"]) != self.ndim:
            raise CorruptFile(
                f"vector index {path} holds {meta['dimensions']}-d vectors, expected {self.ndim}-d"
            )
        if graph.metric_kind != _usearch_metric(self.metric):
            raise CorruptFile(f"vector index {path} was built for another metric")
        keys = np.asarray(graph.keys, dtype=np.uint64).astype(np.int64)
        if len(keys):
            vecs = np.vstack(graph.get(keys, dtype=np.float32)).astype(np.float32, copy=False)
        else:
            vecs = np.zeros((0, self.ndim), dtype=np.float32)
        self._replace_all(keys, vecs)
        graph.expansion_search = self.expansion_search
        self._graph = graph

    def save(self, path: Path) -> None:
        """Write atomically: the previous file stays intact until the new one is complete."""
        path = Path(path)
        tmp = temp_path_for(path)
        try:
            if self._graph is not None:
                self.flush()
                self._graph.save(str(tmp))
            else:
                self._write_flat(tmp)
            commit_temp(tmp, path)
        except BaseException:
            tmp.unlink(missing_ok=True)
            raise
        self.dirty = False

    def _write_flat(self, tmp: Path) -> None:
        n = self._n
        keys = np.ascontiguousarray(self._keys[:n], dtype="<i8")
        vecs = np.ascontiguousarray(self._vecs[:n], dtype="<f4")
        header = _FLAT_HEADER.pack(FLAT_MAGIC, self.ndim, METRICS.index(self.metric), n)
        crc = zlib.crc32(vecs.tobytes(), zlib.crc32(keys.tobytes()))
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "wb") as f:
            f.write(header)
            f.write(keys.tobytes())
            f.write(vecs.tobytes())
            f.write(_CRC.pack(crc))

    # ----- contents ----------------------------------------------------------------

    def add(self, ids: Sequence[int] | np.ndarray, vectors: np.ndarray) -> None:
        """Add vectors by id; an id already present is replaced. Within one call the last wins."""
        keys = np.asarray(ids, dtype=np.int64).reshape(-1)
        vecs = np.asarray(vectors, dtype=np.float32)
        if vecs.ndim == 1 and len(keys) == 1:
            vecs = vecs.reshape(1, -1)
        if vecs.ndim != 2 or vecs.shape[1] != self.ndim:
            raise BadInput(f"vectors must have shape (n, {self.ndim}), got {vecs.shape}")
        if len(keys) != len(vecs):
            raise BadInput(f"{len(keys)} ids for {len(vecs)} vectors")
        if len(keys) == 0:
            return
        if keys.min() < 0:
            raise BadInput("vector ids must not be negative")
        if not np.isfinite(vecs).all():
            raise BadInput("vectors contain NaN or infinity")
        _, last = np.unique(keys[::-1], return_index=True)
        if len(last) != len(keys):  # duplicates in this call: keep each id's last vector
            keep = np.sort(len(keys) - 1 - last)
            keys, vecs = keys[keep], vecs[keep]
        self.remove(int(k) for k in keys if int(k) in self._row)
        start = self._n
        self._reserve(start + len(keys))
        self._vecs[start : start + len(keys)] = vecs
        self._inv[start : start + len(keys)] = self._inverse_norms(vecs)
        self._keys[start : start + len(keys)] = keys
        for offset, key in enumerate(keys.tolist()):
            self._row[key] = start + offset
        self._n = start + len(keys)
        if self._graph is not None:
            self._pending.update(keys.tolist())
            if len(self._pending) >= PENDING_LIMIT:
                self.flush()
        self.dirty = True

    def flush(self) -> None:
        """Insert the buffered vectors into the HNSW graph (one batch)."""
        if self._graph is None or not self._pending:
            return
        keys = np.fromiter(self._pending, dtype=np.int64, count=len(self._pending))
        rows = np.asarray([self._row[int(k)] for k in keys], dtype=np.int64)
        self._graph.add(keys.astype(np.uint64), self._vecs[rows])
        self._pending.clear()

    def remove(self, ids: Iterable[int]) -> int:
        """Remove these ids (absent ones are ignored); returns how many were removed."""
        gone: list[int] = []
        for key in ids:
            row = self._row.pop(int(key), None)
            if row is None:
                continue
            last = self._n - 1
            if row != last:
                moved = int(self._keys[last])
                self._vecs[row] = self._vecs[last]
                self._inv[row] = self._inv[last]
                self._keys[row] = moved
                self._row[moved] = row
            self._n = last
            gone.append(int(key))
        if gone:
            if self._graph is not None:
                in_graph = [key for key in gone if key not in self._pending]
                self._pending.difference_update(gone)
                if in_graph:
                    keys = np.asarray(in_graph, dtype=np.uint64)
                    self._graph.remove(keys)
                    # usearch keeps a removed vector in its slot (and in the saved file) until the
                    # slot is reused: overwrite the freed slots with a constant and remove that, so
                    # a forgotten turn's vector is in no file
                    self._graph.add(keys, np.ones((len(keys), self.ndim), dtype=np.float32))
                    self._graph.remove(keys)
            self.dirty = True
        return len(gone)

    def get_vectors(self, ids: Sequence[int]) -> np.ndarray:
        """The stored float32 vectors of ``ids``, shape (len(ids), ndim)."""
        rows = []
        for key in ids:
            row = self._row.get(int(key))
            if row is None:
                raise NotFound(f"turn {int(key)} has no vector in the index")
            rows.append(row)
        return self._vecs[np.asarray(rows, dtype=np.int64)].copy()

    def ids(self) -> np.ndarray:
        return self._keys[: self._n].copy()

    def __len__(self) -> int:
        return self._n

    def __contains__(self, id: object) -> bool:
        return isinstance(id, (int, np.integer)) and int(id) in self._row

    @property
    def has_graph(self) -> bool:
        return self._graph is not None

    def build_graph(self) -> None:
        """Build the HNSW graph now (search builds it when first needed); slow for large sets."""
        if self._graph is not None:
            return
        from usearch.index import Index

        graph = Index(
            ndim=self.ndim,
            metric=_usearch_metric(self.metric),
            dtype="f32",
            expansion_search=self.expansion_search,
        )
        if self._n:
            graph.add(self._keys[: self._n].astype(np.uint64), self._vecs[: self._n])
        self._graph = graph
        self._pending.clear()
        self.dirty = True  # the file format changes to usearch on the next save

    # ----- search --------------------------------------------------------------------

    def search(
        self,
        query: np.ndarray,
        k: int = 10,
        *,
        exact: bool | None = None,
        allowed: set[int] | None = None,
    ) -> list[Hit]:
        """The ``k`` most similar vectors. ``exact=None`` picks HNSW at ``hnsw_threshold``.

        ``allowed`` keeps only those ids: HNSW results are oversampled and filtered, and
        when too few survive (or the set is small) the allowed subset is searched exactly.
        """
        q = np.asarray(query, dtype=np.float32).reshape(-1)
        if q.shape[0] != self.ndim:
            raise BadInput(f"query must have {self.ndim} dimensions, got {q.shape[0]}")
        if not np.isfinite(q).all():
            raise BadInput("query contains NaN or infinity")
        n = self._n
        if k <= 0 or n == 0 or (allowed is not None and not allowed):
            return []
        use_graph = exact is False or (exact is None and n >= self.hnsw_threshold)
        if use_graph and k < n:
            if allowed is None:
                hits = self._graph_search(q, k, None)
                if len(hits) >= k:
                    return hits
            elif len(allowed) >= n // 2:
                share = min(1.0, len(allowed) / n)
                hits = self._graph_search(q, min(n, math.ceil(2 * k / share) + 10), allowed)
                if len(hits) >= k:
                    return hits[:k]
        return self._exact(q, k, allowed)

    def _graph_search(self, q: np.ndarray, count: int, allowed: set[int] | None) -> list[Hit]:
        self.build_graph()
        matches = self._graph.search(q, count)
        keys = np.asarray(matches.keys, dtype=np.uint64).astype(np.int64).tolist()
        keys += list(self._pending)  # not in the graph yet: scored exactly below
        if allowed is not None:
            keys = [key for key in keys if key in allowed]
        rows = np.asarray([self._row[key] for key in keys if key in self._row], dtype=np.int64)
        return self._rank(rows, self._scores(q, rows), count)

    def _exact(self, q: np.ndarray, k: int, allowed: set[int] | None) -> list[Hit]:
        n = self._n
        if allowed is None:
            return self._rank(np.arange(n), self._scores(q, None), k)
        if len(allowed) * 4 < n:  # small subset: score only its rows
            rows = np.asarray([self._row[i] for i in allowed if i in self._row], dtype=np.int64)
            return self._rank(rows, self._scores(q, rows), k)
        # large subset: score everything, then widen the top until k allowed ones survive
        scores = self._scores(q, None)
        want = min(n, math.ceil(2 * k * n / len(allowed)) + 10)
        while True:
            top = np.argpartition(-scores, want - 1)[:want] if want < n else np.arange(n)
            keys = self._keys[top].tolist()
            keep = top[np.fromiter((key in allowed for key in keys), dtype=bool, count=len(keys))]
            if len(keep) >= k or want == n:
                return self._rank(keep, scores[keep], k)
            want = min(n, want * 4)

    def _scores(self, q: np.ndarray, rows: np.ndarray | None) -> np.ndarray:
        qn = float(np.linalg.norm(q)) if self.metric == "cos" else 1.0
        qinv = np.float32(1.0 / qn) if qn > 0 else np.float32(0.0)
        with blas_threads():
            if rows is None:
                return (self._vecs[: self._n] @ q) * self._inv[: self._n] * qinv
            return (self._vecs[rows] @ q) * self._inv[rows] * qinv

    def _rank(self, rows: np.ndarray, scores: np.ndarray, k: int) -> list[Hit]:
        if len(rows) == 0:
            return []
        if k < len(scores):
            top = np.argpartition(-scores, k - 1)[:k]
        else:
            top = np.arange(len(scores))
        top = top[np.lexsort((self._keys[rows[top]], -scores[top]))]
        return [Hit(int(self._keys[rows[i]]), float(scores[i])) for i in top]

    # ----- internals -------------------------------------------------------------

    def _inverse_norms(self, vecs: np.ndarray) -> np.ndarray:
        if self.metric != "cos":
            return np.ones(len(vecs), dtype=np.float32)
        norms = np.linalg.norm(vecs, axis=1)
        inv = np.zeros_like(norms)
        np.divide(1.0, norms, out=inv, where=norms > 0)
        return inv.astype(np.float32)

    def _reserve(self, size: int) -> None:
        cap = len(self._keys)
        if size <= cap:
            return
        new_cap = max(size, _MIN_CAPACITY, cap + cap // 2)
        vecs = np.zeros((new_cap, self.ndim), dtype=np.float32)
        vecs[: self._n] = self._vecs[: self._n]
        inv = np.zeros(new_cap, dtype=np.float32)
        inv[: self._n] = self._inv[: self._n]
        keys = np.zeros(new_cap, dtype=np.int64)
        keys[: self._n] = self._keys[: self._n]
        self._vecs, self._inv, self._keys = vecs, inv, keys

    def _replace_all(self, keys: np.ndarray, vecs: np.ndarray) -> None:
        if len(np.unique(keys)) != len(keys):
            raise CorruptFile("vector index file repeats an id")
        self._vecs = np.ascontiguousarray(vecs, dtype=np.float32)
        self._inv = self._inverse_norms(self._vecs)
        self._keys = np.ascontiguousarray(keys, dtype=np.int64)
        self._n = len(keys)
        self._row = {key: row for row, key in enumerate(self._keys.tolist())}
        self._graph = None
        self._pending = set()


def _usearch_metric(metric: str) -> Any:
    from usearch.index import MetricKind

    return MetricKind.Cos if metric == "cos" else MetricKind.IP
