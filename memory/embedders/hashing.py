"""A tiny deterministic embedder: signed feature hashing of words and character trigrams.

No model and no torch; for tests and for the ``hash`` spec. Texts that share words or
spellings get close vectors; it knows nothing of meaning.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence

import numpy as np

from memory.embedders.base import Embedder
from memory.errors import EmbedderUnavailable

MAX_CHARS = 8000
_WORD = re.compile(r"\w+", re.UNICODE)
_TRIGRAM_WEIGHT = 0.5


def _bucket(feature: str, ndim: int) -> tuple[int, float]:
    digest = int.from_bytes(hashlib.blake2b(feature.encode("utf-8"), digest_size=8).digest(), "little")
    return (digest >> 1) % ndim, (1.0 if digest & 1 else -1.0)


class HashEmbedder(Embedder):
    """Feature hashing of lowercased word unigrams and char trigrams into ``ndim`` signed buckets."""

    def __init__(self, ndim: int = 64) -> None:
        if not isinstance(ndim, int) or ndim < 2:
            raise EmbedderUnavailable(f"hash embedder needs at least 2 dimensions, got {ndim!r}")
        self.ndim = ndim
        self.model_id = f"hash-{ndim}"

    def features(self, text: str) -> dict[str, float]:
        """The weighted features of one text (words ``w:``, trigrams ``c:``)."""
        feats: dict[str, float] = {}
        for word in _WORD.findall(text[:MAX_CHARS].lower()):
            feats["w:" + word] = feats.get("w:" + word, 0.0) + 1.0
            padded = f" {word} "
            for i in range(len(padded) - 2):
                key = "c:" + padded[i : i + 3]
                feats[key] = feats.get(key, 0.0) + _TRIGRAM_WEIGHT
        return feats

    def embed_batch(self, texts: Sequence[str]) -> np.ndarray:
        out = np.zeros((len(texts), self.ndim), dtype=np.float32)
        for row, text in enumerate(texts):
            feats = self.features(text) or {"<empty>": 1.0}
            for feat, weight in feats.items():
                col, sign = _bucket(feat, self.ndim)
                out[row, col] += sign * weight
            norm = float(np.linalg.norm(out[row]))
            if norm == 0.0:  # every feature cancelled out: fall back to the empty-text vector
                col, sign = _bucket("<empty>", self.ndim)
                out[row, col] = sign
            else:
                out[row] /= norm
        return out
