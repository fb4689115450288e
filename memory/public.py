"""Vectors of public texts, on disk: the product's own words, never the user's.

The planner embeds the same texts in every process: tool descriptions, parameter descriptions,
enum values, cue word lists. They say nothing about the user, so unlike a query's vector
(``Memory.embed_queries`` keeps those in RAM only) theirs may be kept. They live in their own
``EmbeddingCache`` file under ``<cache>/public/`` (by model id and blake2b of the text, as turns
are), which no index backs and no compaction or forget touches. Only the writer-lock owner writes
it; a reader beside a writer keeps what it embeds in RAM.

Nothing but texts declared public (:meth:`PublicVectors.declare`, the planner's catalogue) or given
to ``Memory.embed_public`` enters the file: a text the user typed that is not one of them is never
stored here. A text is embedded when it is first needed, not when it is declared.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from memory.embedcache import EmbeddingCache
from memory.paths import ensure_private_dir

FOLDER = "public"


class PublicVectors:
    """Public texts' vectors for one embedder: looked up by text, embedded once per home and model."""

    def __init__(self, cache_dir: Path, embedder: Any, *, readonly: bool = False) -> None:
        self.folder = Path(cache_dir) / FOLDER
        self.embedder = embedder
        self.readonly = readonly
        self._cache: EmbeddingCache | None = None
        self.declared: set[str] = set()

    @property
    def cache(self) -> EmbeddingCache:
        if self._cache is None:
            if not self.readonly:
                ensure_private_dir(self.folder)
            self._cache = EmbeddingCache(
                self.folder, self.embedder.model_id, self.embedder.ndim, readonly=self.readonly
            )
        return self._cache

    def get_many(self, texts: Sequence[str]) -> list[np.ndarray | None]:
        """The stored vector of each text, or None."""
        return self.cache.get_many(texts)

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """Vectors of public texts: stored ones read, the others embedded once and stored."""
        return self.cache.embed_with(self.embedder, texts)

    def declare(self, texts: Iterable[str]) -> None:
        """Name texts as public: a lookup through ``Memory.embed_queries`` that misses embeds and keeps them."""
        self.declared.update(texts)

    def is_public(self, text: str) -> bool:
        return text in self.declared
