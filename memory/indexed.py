"""What the embedding cache sees of the vector index: indexed texts' vectors by cache key.

The cache keeps no copy of a vector the saved index holds (see :mod:`memory.memory`), so
its lookups fall through to the loaded index and, while an index is being rebuilt, to the
old index file, whose vectors are still right for their texts.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np

    from memory.memory import Memory
    from memory.vector import VectorIndex


class IndexedVectors:
    """The cache's view of the vectors the indexes hold: the loaded index, and during a
    rebuild the old index file (its vectors are still right for their texts)."""

    def __init__(self, mem: Memory) -> None:
        self._mem = mem

    def _sources(self) -> list[VectorIndex]:
        mem = self._mem
        if mem._vectors is None:
            mem._indexes()
        return [v for v in (mem._vectors, mem._donor) if v is not None]

    def vectors_for_tags(self, tags: Sequence[bytes]) -> list[np.ndarray | None]:
        out: list[np.ndarray | None] = [None] * len(tags)
        for source in self._sources():
            todo = [i for i, v in enumerate(out) if v is None]
            if not todo:
                break
            for i, vec in zip(todo, source.vectors_for_tags([tags[i] for i in todo])):
                out[i] = vec
        return out

    def held_tags(self) -> set[bytes]:
        return set().union(*(source.held_tags() for source in self._sources()))


def read_donor(path: Path, ndim: int) -> VectorIndex | None:
    """The vectors of an index file that is not loaded as the index (damaged record, rebuild)."""
    from memory.errors import CorruptFile
    from memory.vector import VectorIndex

    try:
        return VectorIndex.load(path, ndim)
    except CorruptFile:
        return None
