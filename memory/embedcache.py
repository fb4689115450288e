"""Embeddings cached by (model id, text hash), so a text is embedded once per model.

One append-only file per model in the caller's folder. It starts with a header (magic,
ndim, model id) and holds blocks, one per ``put_many`` call: a block header (magic,
record count, crc32 of the payload) and records of a 16-byte text key and an ndim
float32 vector. Each block is fsynced. On open, the first block that is short or fails
its checksum (a write cut by a kill) ends the file: it is truncated there.

A cache may be backed by a vector index that tags its vectors with these keys (see
:meth:`memory.vector.VectorIndex.vectors_for_tags`): lookups fall through to it, and
:meth:`EmbeddingCache.compact` drops from the file what the saved index already holds, so
each vector is on disk once. The file then holds what the index does not: vectors not yet
saved in it (a journal that a crash recovers from) and texts of turns kept out of it.
"""

from __future__ import annotations

import hashlib
import os
import re
import struct
import zlib
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from memory.atomic import atomic_write_bytes
from memory.errors import BadInput, CorruptFile

FILE_MAGIC = b"IBAEMBC1"
BLOCK_MAGIC = b"EBK1"
_FILE_HEAD = struct.Struct("<8sIH")  # magic, ndim, length of the model id that follows
_BLOCK_HEAD = struct.Struct("<4sII")  # magic, record count, crc32 of the records
KEY_BYTES = 16
_BLOCK_RECORDS = 4096  # records per block when the file is rewritten


def text_key(text: str) -> bytes:
    """The cache key of ``text``: a 16-byte blake2b digest of its UTF-8 bytes."""
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=KEY_BYTES).digest()


def cache_file_name(model_id: str, ndim: int) -> str:
    """A safe file name for a model id that may hold ``/``, ``:`` or anything else."""
    slug = re.sub(r"[^A-Za-z0-9._-]+", "_", model_id).strip("._")[:60] or "model"
    digest = hashlib.blake2b(model_id.encode("utf-8"), digest_size=6).hexdigest()
    return f"{slug}-{digest}-{ndim}d.emb"


class VectorSource(Protocol):
    """Where a cache looks for vectors it does not hold itself (a tagged vector index)."""

    def vectors_for_tags(self, tags: Sequence[bytes]) -> list[np.ndarray | None]: ...

    def held_tags(self) -> set[bytes]: ...


class EmbeddingCache:
    """Vectors by text for one model. Reads its file on first use, not on construction."""

    def __init__(
        self,
        folder: Path,
        model_id: str,
        ndim: int,
        backing: VectorSource | None = None,
        *,
        readonly: bool = False,
    ) -> None:
        if int(ndim) <= 0:
            raise BadInput(f"embedding cache needs a positive dimension, got {ndim}")
        self.folder = Path(folder)
        self.model_id = model_id
        self.ndim = int(ndim)
        self.path = self.folder / cache_file_name(model_id, self.ndim)
        self.stats: dict[str, int] = {"hits": 0, "misses": 0}
        self._rec = np.dtype([("key", f"V{KEY_BYTES}"), ("vec", "<f4", (self.ndim,))])
        self._rows: dict[bytes, int] | None = None
        self._vecs = np.zeros((0, self.ndim), dtype=np.float32)
        self._n = 0
        self.backing = backing
        self._file_keys: set[bytes] | None = None  # keys alone, for embed_to_file
        self.readonly = readonly  # a reader beside a writer: new vectors stay in memory

    # ----- public ----------------------------------------------------------------------

    def get_many(self, texts: Sequence[str]) -> list[np.ndarray | None]:
        """The cached vector of each text (a copy), or None where there is none."""
        rows = self._open()
        out: list[np.ndarray | None] = []
        misses: list[int] = []
        for i, text in enumerate(texts):
            row = rows.get(text_key(text))
            if row is None:
                misses.append(i)
                out.append(None)
            else:
                out.append(self._vecs[row].copy())
        if misses and self.backing is not None:
            found = self.backing.vectors_for_tags([text_key(texts[i]) for i in misses])
            for i, vec in zip(misses, found):
                out[i] = None if vec is None else np.asarray(vec, dtype=np.float32)
        hits = sum(v is not None for v in out)
        self.stats["hits"] += hits
        self.stats["misses"] += len(out) - hits
        return out

    def put_many(self, texts: Sequence[str], vectors: np.ndarray) -> None:
        """Store vectors for texts not yet cached; one fsynced block per call."""
        vecs = self._check(vectors, len(texts))
        rows = self._open()
        keys: list[bytes] = []
        picked: list[int] = []
        seen: set[bytes] = set()
        for i, text in enumerate(texts):
            key = text_key(text)
            if key not in rows and key not in seen:
                seen.add(key)
                keys.append(key)
                picked.append(i)
        if not keys:
            return
        new = vecs[picked]
        if not self.readonly:
            self._append_file(self._block(keys, new))
        self._append_memory(keys, new)

    def embed_with(self, embedder: Any, texts: Sequence[str]) -> np.ndarray:
        """Vectors for ``texts``: cached ones reused, each distinct miss embedded once and stored."""
        found = self.get_many(texts)
        missing: dict[str, None] = {}
        for text, vec in zip(texts, found):
            if vec is None:
                missing.setdefault(text, None)
        fresh: dict[str, np.ndarray] = {}
        if missing:
            todo = list(missing)
            vecs = self._check(embedder.embed_batch(todo), len(todo))
            self.put_many(todo, vecs)
            fresh = dict(zip(todo, vecs))
        out = np.empty((len(texts), self.ndim), dtype=np.float32)
        for i, (text, vec) in enumerate(zip(texts, found)):
            out[i] = vec if vec is not None else fresh[text]
        return out

    def embed_to_file(self, embedder: Any, texts: Sequence[str]) -> int:
        """Embed the texts the file lacks and append them, keeping no vector in memory.

        For a large import: only the file's keys are read (16 bytes a text, not its vector),
        so memory does not grow with the vectors. Returns how many texts were already there.
        Once the cache is open for lookups (:meth:`get_many`), this is :meth:`embed_with`.
        """
        if self._rows is not None:
            found = sum(v is not None for v in self.get_many(texts))
            self.embed_with(embedder, texts)
            return found
        if self._file_keys is None:
            self._file_keys = self._read_keys()
        keys = [text_key(t) for t in texts]
        todo: dict[bytes, str] = {}
        for key, text in zip(keys, texts):
            if key not in self._file_keys:
                todo.setdefault(key, text)
        if todo:
            vecs = self._check(embedder.embed_batch(list(todo.values())), len(todo))
            self._append_file(self._block(list(todo), vecs))
            self._file_keys.update(todo)
        return sum(key in self._file_keys and key not in todo for key in keys)

    def _read_keys(self) -> set[bytes]:
        """The keys of the file's good blocks (a torn tail is cut, as on open)."""
        keys: set[bytes] = set()
        try:
            size = self.path.stat().st_size
        except FileNotFoundError:
            return keys
        head = self._file_header()
        rec = self._rec.itemsize
        with open(self.path, "rb") as fh:
            start = fh.read(len(head))
            if len(start) < len(head) or start[:8] != FILE_MAGIC:
                raise CorruptFile(f"{self.path} is not an embedding cache; delete it to rebuild")
            if start != head:
                raise CorruptFile(f"{self.path} belongs to another model or dimension; delete it to rebuild")
            pos = len(head)
            while pos + _BLOCK_HEAD.size <= size:
                magic, count, crc = _BLOCK_HEAD.unpack(fh.read(_BLOCK_HEAD.size))
                payload = fh.read(count * rec) if magic == BLOCK_MAGIC else b""
                if magic != BLOCK_MAGIC or len(payload) < count * rec or zlib.crc32(payload) != crc:
                    break
                blob = np.frombuffer(payload, dtype=self._rec)["key"].tobytes()
                keys.update(blob[i : i + KEY_BYTES] for i in range(0, len(blob), KEY_BYTES))
                pos += _BLOCK_HEAD.size + count * rec
        if pos < size and not self.readonly:
            os.truncate(self.path, pos)  # a torn or garbled tail from an interrupted write
        return keys

    def forget_texts(self, texts: Iterable[str]) -> int:
        """Remove these texts' vectors from memory and from the file; returns how many."""
        rows = self._open()
        return self._rewrite_without({key for key in map(text_key, texts) if key in rows})

    def compact(self, held: Callable[[bytes], bool]) -> int:
        """Drop from the file the vectors for which ``held(key)`` is true (the saved index has them).

        Call it only once the index holding them is durable on disk; returns how many went.
        """
        rows = self._open()
        return self._rewrite_without({key for key in rows if held(key)})

    def own_len(self) -> int:
        """Vectors in this cache's own file (not counting the backing index)."""
        return len(self._open())

    def _rewrite_without(self, gone: set[bytes]) -> int:
        rows = self._open()
        if not gone or self.readonly:
            return 0
        keep = [(key, row) for key, row in rows.items() if key not in gone]
        keys = [key for key, _ in keep]
        vecs = self._vecs[[row for _, row in keep]] if keep else np.zeros((0, self.ndim), np.float32)
        parts = [self._file_header()]
        for start in range(0, len(keys), _BLOCK_RECORDS):
            end = start + _BLOCK_RECORDS
            parts.append(self._block(keys[start:end], vecs[start:end]))
        atomic_write_bytes(self.path, b"".join(parts))
        self._rows = {}
        self._vecs = np.zeros((0, self.ndim), dtype=np.float32)
        self._n = 0
        self._append_memory(keys, vecs)
        return len(gone)

    def __len__(self) -> int:
        """Distinct texts with a vector, in the file or in the backing index."""
        if self.backing is None:
            return len(self._open())
        return len(self._open().keys() | self.backing.held_tags())

    # ----- file ------------------------------------------------------------------------

    def _file_header(self) -> bytes:
        model = self.model_id.encode("utf-8")
        return _FILE_HEAD.pack(FILE_MAGIC, self.ndim, len(model)) + model

    def _block(self, keys: list[bytes], vecs: np.ndarray) -> bytes:
        records = np.zeros(len(keys), dtype=self._rec)
        records["key"] = np.frombuffer(b"".join(keys), dtype=f"V{KEY_BYTES}")
        records["vec"] = vecs
        payload = records.tobytes()
        return _BLOCK_HEAD.pack(BLOCK_MAGIC, len(keys), zlib.crc32(payload)) + payload

    def _append_file(self, block: bytes) -> None:
        if not self.path.exists():
            self.folder.mkdir(parents=True, exist_ok=True)
            atomic_write_bytes(self.path, self._file_header())
        fd = os.open(self.path, os.O_WRONLY | os.O_APPEND)
        try:
            view = memoryview(block)
            while view:
                view = view[os.write(fd, view) :]
            os.fsync(fd)
        finally:
            os.close(fd)

    def _open(self) -> dict[bytes, int]:
        if self._rows is not None:
            return self._rows
        self._file_keys = None
        self._rows = {}
        try:
            data = self.path.read_bytes()
        except FileNotFoundError:
            return self._rows
        except OSError as err:
            raise CorruptFile(f"cannot read embedding cache {self.path}: {err.strerror}") from err
        good = self._parse(data)
        if good < len(data) and not self.readonly:  # a torn or garbled tail from an interrupted write
            try:
                os.truncate(self.path, good)
            except OSError as err:
                raise CorruptFile(f"cannot repair embedding cache {self.path}: {err.strerror}") from err
        return self._rows

    def _parse(self, data: bytes) -> int:
        """Load the records of ``data``; return the length of its good prefix."""
        head = self._file_header()
        if len(data) < len(head) or data[:8] != FILE_MAGIC:
            raise CorruptFile(f"{self.path} is not an embedding cache; delete it to rebuild")
        if data[: len(head)] != head:
            raise CorruptFile(f"{self.path} belongs to another model or dimension; delete it to rebuild")
        pos = len(head)
        rec = self._rec.itemsize
        while pos + _BLOCK_HEAD.size <= len(data):
            magic, count, crc = _BLOCK_HEAD.unpack_from(data, pos)
            start = pos + _BLOCK_HEAD.size
            end = start + count * rec
            if magic != BLOCK_MAGIC or end > len(data) or zlib.crc32(memoryview(data)[start:end]) != crc:
                break
            records = np.frombuffer(data, dtype=self._rec, count=count, offset=start)
            blob = records["key"].tobytes()
            keys = [blob[i : i + KEY_BYTES] for i in range(0, len(blob), KEY_BYTES)]
            self._append_memory(keys, records["vec"])
            pos = end
        return pos

    # ----- memory ------------------------------------------------------------------------

    def _append_memory(self, keys: list[bytes], vecs: np.ndarray) -> None:
        rows = self._rows if self._rows is not None else {}
        self._rows = rows
        need = self._n + len(keys)
        if need > len(self._vecs):
            grown = np.zeros((max(need, 64, len(self._vecs) * 3 // 2), self.ndim), dtype=np.float32)
            grown[: self._n] = self._vecs[: self._n]
            self._vecs = grown
        targets = np.empty(len(keys), dtype=np.int64)
        for i, key in enumerate(keys):
            row = rows.get(key)
            if row is None:
                row = rows[key] = self._n
                self._n += 1
            targets[i] = row
        self._vecs[targets] = vecs

    def _check(self, vectors: Any, count: int) -> np.ndarray:
        vecs = np.asarray(vectors, dtype=np.float32)
        if vecs.shape != (count, self.ndim):
            raise BadInput(f"expected vectors of shape ({count}, {self.ndim}), got {vecs.shape}")
        if not np.isfinite(vecs).all():
            raise BadInput("embedding vectors contain NaN or infinity")
        return vecs
