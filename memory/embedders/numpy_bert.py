"""A BERT sentence encoder in numpy: the offline MiniLM default without torch.

The weights come from the folder's ``model.safetensors`` (the ``safetensors`` numpy API), the
tokens from its ``tokenizer.json`` (the ``tokenizers`` library, as transformers' fast tokenizer
uses it); the forward pass is the plain BERT encoder (post-layer-norm, exact GELU), then mean
or CLS pooling and L2 normalisation, as ``FlagSentenceEmbedder`` does with FlagEmbedding. The
vectors agree with the torch path to float32 rounding (cosine >= 0.9999, tested), so the id is
the same and a stored index stays valid. Importing this module imports neither; loading takes
about a tenth of a second and ~90 MB, against seconds and ~600 MB for torch + FlagEmbedding.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from memory.embedders.base import Embedder
from memory.errors import EmbedderUnavailable

MAX_CHARS = 8000  # as in flag.py: texts are cut before tokenising
BATCH_SIZE = 32
_SQRT_HALF = 1.0 / math.sqrt(2.0)


_ERFC_FIT = (
    0.17087277,
    -0.82215223,
    1.48851587,
    -1.13520398,
    0.27886807,
    -0.18628806,
    0.09678418,
    0.37409196,
    1.00002368,
    -1.26551223,
)


def _erf(x: np.ndarray) -> np.ndarray:
    """erf to ~1.2e-7 absolute (Numerical Recipes' erfc Chebyshev fit), elementwise, in float32.

    numpy has no erf and scipy costs a quarter of a second to import; float32 itself rounds at 6e-8.
    """
    z = np.abs(x)
    t = 1.0 / (1.0 + 0.5 * z)
    poly = np.full_like(t, _ERFC_FIT[0])
    for coef in _ERFC_FIT[1:]:
        poly *= t
        poly += np.float32(coef)
    z *= z
    poly -= z
    np.exp(poly, out=poly)
    poly *= t  # erfc(|x|)
    return np.copysign(1.0 - poly, x)


def _gelu(x: np.ndarray) -> np.ndarray:
    """The exact (erf) GELU of BERT's ``hidden_act = "gelu"``."""
    out = _erf(x * np.float32(_SQRT_HALF))
    out += 1.0
    out *= x
    out *= 0.5
    return out


def _layer_norm(x: np.ndarray, weight: np.ndarray, bias: np.ndarray, eps: float) -> np.ndarray:
    mean = x.mean(axis=-1, keepdims=True)
    centred = x - mean
    var = np.mean(centred * centred, axis=-1, keepdims=True)
    return centred / np.sqrt(var + eps) * weight + bias


class _Layer:
    """One encoder layer's weights, transposed once for ``x @ W``; q, k and v fused into one matrix."""

    def __init__(self, w: dict[str, np.ndarray], prefix: str) -> None:
        att = prefix + "attention."
        self.qkv = np.ascontiguousarray(
            np.concatenate([w[f"{att}self.{n}.weight"] for n in ("query", "key", "value")], axis=0).T
        )
        self.qkv_b = np.concatenate([w[f"{att}self.{n}.bias"] for n in ("query", "key", "value")])
        self.out = np.ascontiguousarray(w[f"{att}output.dense.weight"].T)
        self.out_b = w[f"{att}output.dense.bias"]
        self.ln1 = (w[f"{att}output.LayerNorm.weight"], w[f"{att}output.LayerNorm.bias"])
        self.inter = np.ascontiguousarray(w[f"{prefix}intermediate.dense.weight"].T)
        self.inter_b = w[f"{prefix}intermediate.dense.bias"]
        self.down = np.ascontiguousarray(w[f"{prefix}output.dense.weight"].T)
        self.down_b = w[f"{prefix}output.dense.bias"]
        self.ln2 = (w[f"{prefix}output.LayerNorm.weight"], w[f"{prefix}output.LayerNorm.bias"])


# weights and tokenizers already read in this process, by (folder, requested max length): a second
# embedder of the same model (each Memory makes its own) and a resident server's forked children
# share them instead of reading the file again
_LOADED: dict[tuple[str, int | None], Any] = {}


class NumpyBertEmbedder(Embedder):
    """A BERT sentence model (``model_type`` bert, safetensors weights, ``tokenizer.json``) in numpy."""

    batch_size = BATCH_SIZE

    def __init__(
        self, folder: str | Path, *, model_id: str, pooling: str = "mean", max_length: int | None = None
    ):
        if pooling not in ("mean", "cls"):
            raise EmbedderUnavailable(f"pooling must be 'mean' or 'cls', got {pooling!r}")
        self.folder = Path(folder)
        self.path_or_name = str(folder)
        self.model_id = model_id
        self.pooling = pooling
        self.max_length = max_length
        self._config: dict[str, Any] | None = None
        self._model: (
            tuple[Any, np.ndarray, np.ndarray, tuple[np.ndarray, np.ndarray], list[_Layer]] | None
        ) = None
        self._lock = threading.Lock()
        self.threads = 1

    @property
    def config(self) -> dict[str, Any]:
        if self._config is None:
            from memory.embedders.settings import read_json

            config = read_json(self.folder / "config.json")
            if config.get("model_type") != "bert":
                raise EmbedderUnavailable(
                    f"{self.folder} is not a BERT model (model_type {config.get('model_type')!r})"
                )
            for key in ("hidden_size", "num_attention_heads", "num_hidden_layers"):
                if not isinstance(config.get(key), int) or config[key] < 1:
                    raise EmbedderUnavailable(f"cannot read {key} from {self.folder / 'config.json'}")
            if config.get("hidden_act", "gelu") != "gelu":
                raise EmbedderUnavailable(
                    f"{self.folder}: activation {config.get('hidden_act')!r} is not gelu"
                )
            self._config = config
        return self._config

    @property
    def ndim(self) -> int:  # type: ignore[override]
        return int(self.config["hidden_size"])

    @property
    def loaded(self) -> bool:
        return self._model is not None

    def load(self) -> None:
        if self._model is not None:
            return
        from memory.embedders.settings import torch_threads

        self.threads = torch_threads()  # IBACHAT_TORCH_THREADS (default 1) pins BLAS as it pins torch
        with self._lock:
            if self._model is None:
                key = (str(self.folder.resolve()), self.max_length)
                if key not in _LOADED:
                    _LOADED[key] = (self._load(), self.max_length)
                self._model, self.max_length = _LOADED[key]

    def _load(self) -> tuple[Any, np.ndarray, np.ndarray, tuple[np.ndarray, np.ndarray], list[_Layer]]:
        from safetensors import SafetensorError
        from safetensors.numpy import load_file
        from tokenizers import Tokenizer

        config = self.config
        if self.max_length is None:
            from memory.embedders.settings import read_json

            st_config = self.folder / "sentence_bert_config.json"
            limit = read_json(st_config).get("max_seq_length") if st_config.is_file() else None
            self.max_length = limit if isinstance(limit, int) else 512
        self.max_length = max(2, min(self.max_length, int(config.get("max_position_embeddings", 512))))
        for name in ("tokenizer.json", "model.safetensors"):
            if not (self.folder / name).is_file():
                raise EmbedderUnavailable(f"cannot load embedding model from {self.folder}: no {name}")
        try:
            tokenizer = Tokenizer.from_file(str(self.folder / "tokenizer.json"))
        except Exception as err:  # noqa: BLE001 - tokenizers raises a bare Exception for a file it cannot parse
            raise EmbedderUnavailable(
                f"cannot read {self.folder / 'tokenizer.json'}: {_one_line(err)}"
            ) from None
        try:
            weights = load_file(str(self.folder / "model.safetensors"))
        except (OSError, ValueError, SafetensorError) as err:
            raise EmbedderUnavailable(
                f"cannot load embedding model from {self.folder}: {_one_line(err)}"
            ) from None
        tokenizer.enable_truncation(self.max_length)
        tokenizer.enable_padding(pad_id=int(config.get("pad_token_id", 0) or 0), pad_token="[PAD]")
        prefix = "bert." if "bert.embeddings.word_embeddings.weight" in weights else ""
        try:
            emb = prefix + "embeddings."
            word = weights[emb + "word_embeddings.weight"]
            # positions and token type 0 folded into one table: every row of a BERT input uses type 0
            pos = (
                weights[emb + "position_embeddings.weight"] + weights[emb + "token_type_embeddings.weight"][0]
            )
            ln = (weights[emb + "LayerNorm.weight"], weights[emb + "LayerNorm.bias"])
            layers = [
                _Layer(weights, f"{prefix}encoder.layer.{i}.") for i in range(config["num_hidden_layers"])
            ]
        except KeyError as err:
            raise EmbedderUnavailable(
                f"cannot load embedding model from {self.folder}: no weight {err}"
            ) from None
        if word.shape[1] != self.ndim:
            raise EmbedderUnavailable(
                f"cannot load '{self.folder}': config says {self.ndim} dims, model has {word.shape[1]}"
            )
        return tokenizer, word, np.ascontiguousarray(pos, dtype=np.float32), ln, layers

    def embed_batch(self, texts: Sequence[str]) -> np.ndarray:
        texts = [t[:MAX_CHARS] for t in texts]
        if not texts:
            return np.zeros((0, self.ndim), dtype=np.float32)
        self.load()
        from memory.vector import blas_threads

        out = np.empty((len(texts), self.ndim), dtype=np.float32)
        order = sorted(range(len(texts)), key=lambda i: -len(texts[i]))
        with blas_threads(self.threads):
            for start in range(0, len(order), self.batch_size):
                idx = order[start : start + self.batch_size]
                out[idx] = self._encode([texts[i] for i in idx])
        return out

    def _encode(self, texts: list[str]) -> np.ndarray:
        assert self._model is not None
        tokenizer, word, pos, ln, layers = self._model
        encs = tokenizer.encode_batch(texts)
        ids = np.array([e.ids for e in encs], dtype=np.int64)
        mask = np.array([e.attention_mask for e in encs], dtype=np.float32)
        batch, length = ids.shape
        eps = float(self.config.get("layer_norm_eps", 1e-12))
        heads = int(self.config["num_attention_heads"])
        dim = self.ndim
        head_dim = dim // heads
        x = _layer_norm(word[ids] + pos[:length], *ln, eps)
        # padding gets the most negative float32 added before the softmax, as transformers does
        bias = ((1.0 - mask) * np.finfo(np.float32).min)[:, None, None, :]
        scale = np.float32(1.0 / math.sqrt(head_dim))
        for layer in layers:
            qkv = (x @ layer.qkv + layer.qkv_b).reshape(batch, length, 3, heads, head_dim)
            q = qkv[:, :, 0].transpose(0, 2, 1, 3)
            k = qkv[:, :, 1].transpose(0, 2, 3, 1)
            v = qkv[:, :, 2].transpose(0, 2, 1, 3)
            scores = (q @ k) * scale + bias
            scores -= scores.max(axis=-1, keepdims=True)
            np.exp(scores, out=scores)
            scores /= scores.sum(axis=-1, keepdims=True)
            ctx = (scores @ v).transpose(0, 2, 1, 3).reshape(batch, length, dim)
            x = _layer_norm(x + (ctx @ layer.out + layer.out_b), *layer.ln1, eps)
            hidden = _gelu(x @ layer.inter + layer.inter_b)
            x = _layer_norm(x + (hidden @ layer.down + layer.down_b), *layer.ln2, eps)
        if self.pooling == "cls":
            vecs = x[:, 0]
        else:
            vecs = (x * mask[:, :, None]).sum(axis=1) / np.maximum(mask.sum(axis=1, keepdims=True), 1e-9)
        norms = np.linalg.norm(vecs, axis=1, keepdims=True)
        return (vecs / np.maximum(norms, 1e-12)).astype(np.float32)


def _one_line(err: BaseException) -> str:
    text = str(err).strip().splitlines()
    return (text[0] if text else type(err).__name__)[:200]
