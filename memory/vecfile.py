"""The vector index's file: ids, text keys and one copy of the vectors, with a checksum.

Layout (little-endian)::

    header   magic "IBAVEC2\\0", ndim u32, metric u32, storage u32, count u64, graph bytes u64
    ids      count x int64
    tags     count x 16 bytes: the embedding-cache key of the text each vector embeds
    body     graph bytes > 0: a usearch index saved to a buffer (graph and vectors)
             otherwise: count x ndim vectors of the storage type (float16 or float32)
    crc32    of everything before it

The vectors are stored once, in the usearch blob when a graph exists. The tags let the
embedding cache find an indexed text's vector here, so the cache need not keep a copy.
Older files (the flat ``IBAVECF1`` format and bare usearch files, no tags) are still read.
"""

from __future__ import annotations

import os
import struct
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from memory.errors import CorruptFile

MAGIC = b"IBAVEC2\0"
FLAT1_MAGIC = b"IBAVECF1"
METRICS = ("cos", "ip")
STORAGE = ("f16", "f32")
TAG_BYTES = 16
_HEAD = struct.Struct("<8sIIIQQ")
_FLAT1_HEAD = struct.Struct("<8sIIQ")
_CRC = struct.Struct("<I")


@dataclass
class Loaded:
    keys: np.ndarray  # int64
    vecs: np.ndarray  # float32, (count, ndim)
    tags: np.ndarray | None  # V16 per key; None for a file written before tags existed
    graph: Any  # a usearch Index, or None


def read(path: Path, ndim: int, metric: str) -> Loaded | None:
    """The index in ``path``; None when the file does not exist. A bad file raises CorruptFile."""
    try:
        with open(path, "rb") as f:
            magic = f.read(8)
    except FileNotFoundError:
        return None
    except OSError as err:
        raise CorruptFile(f"cannot read vector index {path}: {err.strerror}") from err
    if magic == MAGIC:
        return _read_v2(path, _read_bytes(path), ndim, metric)
    if magic == FLAT1_MAGIC:
        return _read_flat1(path, _read_bytes(path), ndim, metric)
    return _read_usearch(path, ndim, metric)


def write(
    tmp: Path,
    *,
    ndim: int,
    metric: str,
    storage: str,
    keys: np.ndarray,
    tags: np.ndarray,
    vecs: np.ndarray,
    graph: Any,
) -> None:
    """Write the file to ``tmp`` (the caller renames it); the graph's blob replaces ``vecs``."""
    blob = bytes(graph.save()) if graph is not None else b""
    body = blob or np.ascontiguousarray(vecs, dtype=_np_dtype(storage)).tobytes()
    head = _HEAD.pack(MAGIC, ndim, METRICS.index(metric), STORAGE.index(storage), len(keys), len(blob))
    parts = [head, np.ascontiguousarray(keys, dtype="<i8").tobytes(), tags.tobytes(), body]
    crc = 0
    for part in parts:
        crc = zlib.crc32(part, crc)
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "wb") as f:
        for part in parts:
            f.write(part)
        f.write(_CRC.pack(crc))


def _np_dtype(storage: str) -> str:
    return "<f2" if storage == "f16" else "<f4"


def _read_bytes(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except OSError as err:
        raise CorruptFile(f"cannot read vector index {path}: {err.strerror}") from err


def _check_kind(path: Path, ndim: int, want_ndim: int, metric_i: int, metric: str) -> None:
    if ndim != want_ndim:
        raise CorruptFile(f"vector index {path} holds {ndim}-d vectors, expected {want_ndim}-d")
    if metric_i >= len(METRICS) or METRICS[metric_i] != metric:
        raise CorruptFile(f"vector index {path} was built for another metric")


def _read_v2(path: Path, data: bytes, want_ndim: int, metric: str) -> Loaded:
    if len(data) < _HEAD.size + _CRC.size:
        raise CorruptFile(f"vector index {path} is truncated")
    _, ndim, metric_i, storage_i, count, blob_len = _HEAD.unpack_from(data)
    _check_kind(path, ndim, want_ndim, metric_i, metric)
    if storage_i >= len(STORAGE):
        raise CorruptFile(f"vector index {path} has an unknown storage type")
    width = np.dtype(_np_dtype(STORAGE[storage_i])).itemsize
    body = blob_len if blob_len else count * ndim * width
    start = _HEAD.size
    end = start + count * (8 + TAG_BYTES) + body
    if len(data) != end + _CRC.size:
        raise CorruptFile(f"vector index {path} has the wrong size for {count} vectors")
    (crc,) = _CRC.unpack_from(data, end)
    if zlib.crc32(memoryview(data)[:end]) != crc:
        raise CorruptFile(f"vector index {path} fails its checksum")
    keys = np.frombuffer(data, dtype="<i8", count=count, offset=start).astype(np.int64)
    tags = np.frombuffer(data, dtype=f"V{TAG_BYTES}", count=count, offset=start + count * 8).copy()
    at = start + count * (8 + TAG_BYTES)
    if not blob_len:
        raw = np.frombuffer(data, dtype=_np_dtype(STORAGE[storage_i]), count=count * ndim, offset=at)
        return Loaded(keys, raw.reshape(count, ndim).astype(np.float32), tags, None)
    graph = _restore(path, memoryview(data)[at:end], ndim, metric)
    if len(graph) != count:
        raise CorruptFile(f"vector index {path}: the graph and the id list disagree")
    return Loaded(keys, _graph_vectors(path, graph, keys, ndim), tags, graph)


def _read_flat1(path: Path, data: bytes, want_ndim: int, metric: str) -> Loaded:
    head = _FLAT1_HEAD.size
    if len(data) < head + _CRC.size:
        raise CorruptFile(f"vector index {path} is truncated")
    _, ndim, metric_i, count = _FLAT1_HEAD.unpack_from(data)
    _check_kind(path, ndim, want_ndim, metric_i, metric)
    body = count * 8 + count * ndim * 4
    if len(data) != head + body + _CRC.size:
        raise CorruptFile(f"vector index {path} has the wrong size for {count} vectors")
    (crc,) = _CRC.unpack_from(data, head + body)
    if zlib.crc32(memoryview(data)[head : head + body]) != crc:
        raise CorruptFile(f"vector index {path} fails its checksum")
    keys = np.frombuffer(data, dtype="<i8", count=count, offset=head).astype(np.int64)
    vecs = np.frombuffer(data, dtype="<f4", count=count * ndim, offset=head + count * 8)
    return Loaded(keys, vecs.reshape(count, ndim).astype(np.float32), None, None)


def _read_usearch(path: Path, ndim: int, metric: str) -> Loaded:
    graph = _restore(path, str(path), ndim, metric)
    keys = np.asarray(graph.keys, dtype=np.uint64).astype(np.int64)
    return Loaded(keys, _graph_vectors(path, graph, keys, ndim), None, graph)


def _restore(path: Path, source: Any, ndim: int, metric: str) -> Any:
    from usearch.index import Index

    try:
        meta = Index.metadata(source)
        graph = Index.restore(source) if meta is not None else None
    except (ValueError, RuntimeError) as err:
        raise CorruptFile(f"vector index {path} is unreadable: {err}") from err
    if graph is None or meta is None:
        raise CorruptFile(f"vector index {path} is unreadable")
    if int(meta["dimensions"]) != ndim:
        raise CorruptFile(f"vector index {path} holds {meta['dimensions']}-d vectors, expected {ndim}-d")
    if graph.metric_kind != usearch_metric(metric):
        raise CorruptFile(f"vector index {path} was built for another metric")
    return graph


def _graph_vectors(path: Path, graph: Any, keys: np.ndarray, ndim: int) -> np.ndarray:
    if not len(keys):
        return np.zeros((0, ndim), dtype=np.float32)
    rows = graph.get(keys.astype(np.uint64), dtype=np.float32)
    if any(row is None for row in rows):
        raise CorruptFile(f"vector index {path}: the graph lacks some of its ids")
    return np.ascontiguousarray(np.stack(rows), dtype=np.float32)


def usearch_metric(metric: str) -> Any:
    from usearch.index import MetricKind

    return MetricKind.Cos if metric == "cos" else MetricKind.IP
