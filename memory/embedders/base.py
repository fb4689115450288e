"""The embedder interface: implement ``embed_batch``; everything else is built on it."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence

import numpy as np


class Embedder(ABC):
    """Turns texts into L2-normalised float32 vectors of ``ndim`` dimensions.

    ``model_id`` names the model and its settings; embeddings are cached by
    (model_id, text hash), so two embedders that give different vectors must have
    different ids. Constructing an embedder loads nothing: the model is loaded on the
    first ``embed_batch`` (or by ``load()``).
    """

    model_id: str
    ndim: int

    @abstractmethod
    def embed_batch(self, texts: Sequence[str]) -> np.ndarray:
        """Return an array of shape (len(texts), ndim), dtype float32, rows of unit length."""

    def load(self) -> None:  # noqa: B027 - optional hook, default does nothing
        """Load the model now (for progress display); ``embed_batch`` loads it if needed."""

    def embed(self, text: str) -> np.ndarray:
        return self.embed_batch([text])[0]
