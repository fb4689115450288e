"""Dense vector index: exact search for small stores, usearch HNSW for large ones.

A float32 copy of every vector is kept in memory: exact search is a numpy matmul over
it, ``get_vectors`` reads it, and HNSW hits are re-scored from it, so a score means the
same thing whichever path found it. ``Hit.score`` is cosine similarity (``metric="cos"``)
or the dot product (``metric="ip"``); higher is more similar.

The file stores the vectors once, as float16 by default (``storage="f32"`` keeps full
precision): after a restart the index searches the rounded values, which moves a cosine
by ~1e-4 and leaves top-10 lists unchanged in all but rare ties. Each vector may carry
a tag, the embedding-cache key of the text it embeds: the cache finds indexed texts'
vectors here (``vectors_for_tags``) instead of keeping a second copy. The file format is
in :mod:`memory.vecfile`; it is written to a temporary sibling and renamed.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from memory import vecfile
from memory.atomic import commit_temp, temp_path_for
from memory.errors import BadInput, CorruptFile, NotFound
from memory.types import Hit
from memory.vecfile import METRICS, STORAGE, TAG_BYTES

_MIN_CAPACITY = 64
NO_TAG = bytes(TAG_BYTES)


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
        storage: str = "f16",
    ) -> None:
        if int(ndim) <= 0:
            raise BadInput(f"vector index needs a positive dimension, got {ndim}")
        if metric not in METRICS:
            raise BadInput(f"unknown vector metric {metric!r}; use one of {', '.join(METRICS)}")
        if storage not in STORAGE:
            raise BadInput(f"unknown vector storage {storage!r}; use one of {', '.join(STORAGE)}")
        self.storage = storage
        self.ndim = int(ndim)
        self.metric = metric
        self.hnsw_threshold = int(hnsw_threshold)
        self.expansion_search = int(expansion_search)
        self._vecs = np.zeros((0, self.ndim), dtype=np.float32)
        self._inv = np.zeros(0, dtype=np.float32)  # 1/|v| for cos, 1 for ip
        self._keys = np.zeros(0, dtype=np.int64)
        self._tags = np.zeros(0, dtype=f"V{TAG_BYTES}")
        self._n = 0
        self._row: dict[int, int] = {}
        self._by_tag: dict[bytes, int] | None = None  # tag -> an id holding it, built on first use
        self._graph: Any = None  # usearch.index.Index once built
        # Ids added since the graph was built and not yet inserted into it: searched exactly and
        # merged into the graph in one batch (at save, or when the buffer is full), so one insert
        # costs an array append whatever the index size (an HNSW insert costs ~1 ms here).
        self._pending: set[int] = set()
        self._pending_rows: np.ndarray | None = None  # their rows, kept until a write
        self.dirty = False

    # ----- files -----------------------------------------------------------------

    @classmethod
    def load(cls, path: Path, ndim: int, **kw: Any) -> VectorIndex:
        """Read ``path``; a missing file gives an empty index, a bad one raises CorruptFile."""
        index = cls(ndim, **kw)
        loaded = vecfile.read(Path(path), index.ndim, index.metric)
        if loaded is None:
            return index
        tags = loaded.tags if loaded.tags is not None else np.zeros(len(loaded.keys), f"V{TAG_BYTES}")
        index._replace_all(loaded.keys, loaded.vecs, tags)
        if loaded.graph is not None:
            loaded.graph.expansion_search = index.expansion_search
            index._graph = loaded.graph
        index.dirty = loaded.tags is None  # an older file: rewritten with tags on the next save
        return index

    def save(self, path: Path) -> None:
        """Write atomically: the previous file stays intact until the new one is complete."""
        path = Path(path)
        tmp = temp_path_for(path)
        n = self._n
        try:
            self.flush()
            vecfile.write(
                tmp,
                ndim=self.ndim,
                metric=self.metric,
                storage=self.storage,
                keys=self._keys[:n],
                tags=self._tags[:n],
                vecs=self._vecs[:n],
                graph=self._graph,
            )
            commit_temp(tmp, path)
        except BaseException:
            tmp.unlink(missing_ok=True)
            raise
        self.dirty = False

    # ----- contents ----------------------------------------------------------------

    def add(
        self,
        ids: Sequence[int] | np.ndarray,
        vectors: np.ndarray,
        tags: Sequence[bytes] | None = None,
    ) -> None:
        """Add vectors by id; an id already present is replaced. Within one call the last wins.

        ``tags`` (16 bytes each, see :func:`memory.embedcache.text_key`) name the texts embedded.
        """
        keys = np.asarray(ids, dtype=np.int64).reshape(-1)
        vecs = np.asarray(vectors, dtype=np.float32)
        tag_arr = self._tag_array(tags, len(keys))
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
            keys, vecs, tag_arr = keys[keep], vecs[keep], tag_arr[keep]
        self.remove(int(k) for k in keys if int(k) in self._row)
        start = self._n
        self._reserve(start + len(keys))
        self._check_range(vecs)
        self._vecs[start : start + len(keys)] = vecs
        self._tags[start : start + len(keys)] = tag_arr
        if self._by_tag is not None:
            for key, tag in zip(keys.tolist(), tag_arr.tolist()):
                if tag != NO_TAG:
                    self._by_tag.setdefault(tag, key)
        self._inv[start : start + len(keys)] = self._inverse_norms(vecs)
        self._keys[start : start + len(keys)] = keys
        for offset, key in enumerate(keys.tolist()):
            self._row[key] = start + offset
        self._n = start + len(keys)
        if self._graph is not None:
            self._pending.update(keys.tolist())
            self._pending_rows = None
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
        self._pending_rows = None

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
                self._tags[row] = self._tags[last]
                self._keys[row] = moved
                self._row[moved] = row
            self._n = last
            gone.append(int(key))
        if gone:
            self._by_tag = None  # rebuilt on the next lookup
            self._pending_rows = None  # rows moved
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

    # ----- tags ------------------------------------------------------------------------

    def vectors_for_tags(self, tags: Sequence[bytes]) -> list[np.ndarray | None]:
        """The vector of some id tagged with each tag (a copy), or None where no id has it."""
        by_tag = self._tag_map()
        out: list[np.ndarray | None] = []
        for tag in tags:
            key = by_tag.get(bytes(tag))
            out.append(None if key is None else self._vecs[self._row[key]].copy())
        return out

    def has_tag(self, tag: bytes) -> bool:
        return bytes(tag) in self._tag_map()

    def tag_count(self) -> int:
        """How many distinct tags the index holds."""
        return len(self._tag_map())

    def held_tags(self) -> set[bytes]:
        return set(self._tag_map())

    def untagged_ids(self) -> list[int]:
        """Ids whose vector carries no tag (read from a file written before tags existed)."""
        blank = self._tags[: self._n] == np.void(NO_TAG)
        return self._keys[: self._n][blank].tolist()

    def set_tags(self, ids: Sequence[int], tags: Sequence[bytes]) -> None:
        """Tag vectors already held (ids not held are ignored)."""
        for key, tag in zip(ids, tags):
            row = self._row.get(int(key))
            if row is not None:
                self._tags[row] = np.void(bytes(tag))
                self.dirty = True
        self._by_tag = None

    def _tag_map(self) -> dict[bytes, int]:
        if self._by_tag is None:
            tags = self._tags[: self._n].tolist()
            self._by_tag = {}
            for key, tag in zip(self._keys[: self._n].tolist(), tags):
                if tag != NO_TAG:
                    self._by_tag.setdefault(tag, key)
        return self._by_tag

    def _tag_array(self, tags: Sequence[bytes] | None, count: int) -> np.ndarray:
        if tags is None:
            return np.zeros(count, dtype=f"V{TAG_BYTES}")
        if len(tags) != count or any(len(t) != TAG_BYTES for t in tags):
            raise BadInput(f"expected {count} tags of {TAG_BYTES} bytes")
        return np.frombuffer(b"".join(bytes(t) for t in tags), dtype=f"V{TAG_BYTES}").copy()

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
            dtype=self.storage,
            expansion_search=self.expansion_search,
        )
        if self._n:
            graph.add(self._keys[: self._n].astype(np.uint64), self._vecs[: self._n])
        self._graph = graph
        self._pending.clear()
        self._pending_rows = None
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

    def search_many(self, queries: np.ndarray, ks: Sequence[int]) -> list[list[Hit]]:
        """``search(queries[j], ks[j])`` for each row: where the search is exact, every query is scored
        in one matrix product, which reads the stored vectors once instead of once per query."""
        qs = np.asarray(queries, dtype=np.float32)
        if qs.ndim != 2 or qs.shape[1] != self.ndim:
            raise BadInput(f"queries must be rows of {self.ndim} dimensions, got shape {qs.shape}")
        if len(ks) != len(qs):
            raise BadInput(f"{len(qs)} queries but {len(ks)} depths")
        n = self._n
        if n >= self.hnsw_threshold or len(qs) < 2:
            return [self.search(q, k) for q, k in zip(qs, ks, strict=True)]
        if not np.isfinite(qs).all():
            raise BadInput("query contains NaN or infinity")
        if n == 0:
            return [[] for _ in ks]
        norms = np.linalg.norm(qs, axis=1) if self.metric == "cos" else np.ones(len(qs), dtype=np.float32)
        qinv = np.where(norms > 0, 1.0 / np.maximum(norms, 1e-30), 0.0).astype(np.float32)
        with blas_threads():
            scores = (self._vecs[:n] @ qs.T) * self._inv[:n, None] * qinv[None, :]
        rows = np.arange(n)
        return [
            self._rank(rows, np.ascontiguousarray(scores[:, j]), k) if k > 0 else [] for j, k in enumerate(ks)
        ]

    def _graph_search(self, q: np.ndarray, count: int, allowed: set[int] | None) -> list[Hit]:
        self.build_graph()
        # one thread: a single query gains nothing from a pool (threads=0, every core, cost ~25 us here)
        keys = self._graph.search(q, count, threads=1).keys.tolist()
        row = self._row
        if allowed is None:
            rows = np.array([row[key] for key in keys if key in row], dtype=np.int64)
            if self._pending:  # not in the graph yet: scored exactly with the graph's hits
                if self._pending_rows is None:
                    self._pending_rows = np.array([row[key] for key in self._pending], dtype=np.int64)
                rows = np.concatenate([rows, self._pending_rows])
        else:
            keys = [key for key in keys + list(self._pending) if key in allowed]
            rows = np.array([row[key] for key in keys if key in row], dtype=np.int64)
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
        # to 1e-6: one text stored twice scores the same whether it was scored alone or in a batch (the
        # matrix products round the last bit differently by row), so ties below are true ties
        scores = np.round(scores, 6)
        if k < len(scores):
            # the k best, and among scores tied at the k-th the lowest ids, so that a tie (the same
            # text said twice) is settled the same way by every path (one query, or many in one pass)
            neg = -scores
            kth = np.partition(neg, k - 1)[k - 1]
            above = np.flatnonzero(neg < kth)
            tied = np.flatnonzero(neg == kth)
            if len(above) + len(tied) > k:
                tied = tied[np.argsort(self._keys[rows[tied]], kind="stable")[: k - len(above)]]
            top = np.concatenate([above, tied])
            rows, scores = rows[top], scores[top]
        keys = self._keys[rows]
        order = np.lexsort((keys, -scores))
        return [Hit(key, score) for key, score in zip(keys[order].tolist(), scores[order].tolist())]

    # ----- internals -------------------------------------------------------------

    def _check_range(self, vecs: np.ndarray) -> None:
        if self.storage == "f16" and np.abs(vecs).max(initial=0.0) > 65000.0:
            raise BadInput("vector components beyond +-65000 do not fit float16 storage")

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
        tags = np.zeros(new_cap, dtype=f"V{TAG_BYTES}")
        tags[: self._n] = self._tags[: self._n]
        self._vecs, self._inv, self._keys, self._tags = vecs, inv, keys, tags

    def _replace_all(self, keys: np.ndarray, vecs: np.ndarray, tags: np.ndarray) -> None:
        if len(np.unique(keys)) != len(keys):
            raise CorruptFile("vector index file repeats an id")
        self._vecs = np.ascontiguousarray(vecs, dtype=np.float32)
        self._tags = np.ascontiguousarray(tags, dtype=f"V{TAG_BYTES}")
        self._by_tag = None
        self._inv = self._inverse_norms(self._vecs)
        self._keys = np.ascontiguousarray(keys, dtype=np.int64)
        self._n = len(keys)
        self._row = {key: row for row, key in enumerate(self._keys.tolist())}
        self._graph = None
        self._pending = set()
        self._pending_rows = None


def _usearch_metric(metric: str) -> Any:
    return vecfile.usearch_metric(metric)
