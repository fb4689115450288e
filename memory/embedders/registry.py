"""Embedder specs (``minilm``, ``bge-m3[:folder]``, ``path:folder``, ``ollama:MODEL``, ``hash[:N]``).

``load_embedder`` builds an embedder without loading its model; ``describe_embedder`` says
where a spec's model lives and whether it can load, without importing torch.
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
from pathlib import Path
from typing import Any

from memory.embedders.base import Embedder
from memory.errors import EmbedderUnavailable

ACCEPTED = (
    'accepted embedders: "minilm" (the offline default), "bge-m3", "bge-m3:/model/folder", '
    '"path:/model/folder" (or just a folder path), "ollama:MODEL", "hash" or "hash:N"'
)


def parse_spec(spec: str | None) -> tuple[str, str]:
    """Split a spec into (kind, argument); kind is minilm, bge-m3, path, ollama or hash."""
    text = (spec or "").strip()
    if text in ("", "default", "minilm"):
        return "minilm", ""
    head, sep, rest = text.partition(":")
    rest = rest.strip()
    if head == "bge-m3":
        return "bge-m3", rest
    if head == "ollama":
        return "ollama", rest
    if head == "hash":
        if sep and not (rest.isdigit() and int(rest) >= 2):
            raise EmbedderUnavailable(
                f"hash embedder size must be a whole number of at least 2, got {rest!r}"
            )
        return "hash", rest or "64"
    if head == "path" and sep:
        if not rest:
            raise EmbedderUnavailable('"path:" needs a model folder, e.g. path:/models/all-MiniLM-L6-v2')
        return "path", rest
    if Path(text).expanduser().is_dir():
        return "path", text
    raise EmbedderUnavailable(f"unknown embedder {text!r}; {ACCEPTED}")


def _model_folder(arg: str) -> Path:
    folder = Path(arg).expanduser()
    if not folder.is_dir():
        raise EmbedderUnavailable(f"no model folder at {folder}; {ACCEPTED}")
    return folder


def load_embedder(spec: str | None, *, ollama_host: str | None = None) -> Embedder:
    """The embedder a spec names. Nothing is loaded yet; a bad spec raises ``EmbedderUnavailable``."""
    kind, arg = parse_spec(spec)
    if kind == "minilm":
        from memory.embedders.flag import minilm_embedder

        return minilm_embedder()
    if kind == "bge-m3":
        from memory.embedders.flag import BGE_M3, BGEM3Embedder

        return BGEM3Embedder(str(_model_folder(arg)) if arg else BGE_M3)
    if kind == "path":
        from memory.embedders.flag import FlagSentenceEmbedder, pooling_of

        folder = _model_folder(arg)
        return FlagSentenceEmbedder(folder, pooling=pooling_of(folder))
    if kind == "ollama":
        from memory.embedders.ollama_embed import DEFAULT_MODEL, OllamaEmbedder

        return OllamaEmbedder(arg or DEFAULT_MODEL, host=ollama_host)
    from memory.embedders.hashing import HashEmbedder

    return HashEmbedder(int(arg))


def _torch_stack_problem() -> str | None:
    """Why FlagEmbedding could not load, found without importing it (None if it looks fine)."""
    for module, package in (("torch", "torch"), ("FlagEmbedding", "'FlagEmbedding>=1.3,<1.5'")):
        if importlib.util.find_spec(module) is None:
            return f"{module} is not installed; pip install {package}"
    try:
        version = importlib.metadata.version("transformers")
    except importlib.metadata.PackageNotFoundError:
        return "transformers is not installed; pip install 'transformers<5.24'"
    if tuple(int(p) for p in version.split(".")[:2] if p.isdigit()) >= (5, 24):
        return f"FlagEmbedding needs transformers<5.24 (found {version}); pip install 'transformers<5.24'"
    return None


def describe_embedder(spec: str | None, *, ollama_host: str | None = None) -> dict[str, Any]:
    """name, kind, model_id, where, available, reason: for ``ibachat doctor``; loads no model, no torch.

    For ``ollama:`` specs this asks the server (3 s timeout) whether it has the model.
    """
    info: dict[str, Any] = {
        "name": (spec or "minilm").strip() or "minilm",
        "kind": "unknown",
        "model_id": None,
        "where": None,
        "available": False,
        "reason": "",
    }
    try:
        kind, _ = parse_spec(spec)
        info["kind"] = kind
        emb = load_embedder(spec, ollama_host=ollama_host)
        info["model_id"] = emb.model_id
        if kind == "hash":
            info["where"] = "built in"
        elif kind == "ollama":
            from memory.embedders.ollama_embed import OllamaEmbedder

            assert isinstance(emb, OllamaEmbedder)
            info["where"] = emb.url
            OllamaEmbedder(emb.model, host=ollama_host, timeout=3.0).load()
        elif kind == "minilm":
            from memory.embedders.numpy_bert import NumpyBertEmbedder

            assert isinstance(emb, NumpyBertEmbedder)
            info["where"] = str(emb.folder)
            for name in ("model.safetensors", "tokenizer.json"):
                if not (emb.folder / name).is_file():
                    raise EmbedderUnavailable(f"no {name} in {emb.folder}")
        else:
            from memory.embedders.flag import TorchEmbedder, has_weights

            assert isinstance(emb, TorchEmbedder)
            folder = emb.folder
            info["where"] = str(folder)
            if not has_weights(folder):
                raise EmbedderUnavailable(
                    f"no model weights (model.safetensors or pytorch_model.bin) in {folder}"
                )
            problem = _torch_stack_problem()
            if problem:
                raise EmbedderUnavailable(problem)
    except EmbedderUnavailable as err:
        info["reason"] = str(err)
        return info
    info["available"] = True
    return info
