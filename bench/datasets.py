"""Any dataset ``ibachat bench retrieval`` reads, by format: the loaders of ``bench/loaders.py`` and
PrefEval's folder (``bench/prefeval.py``), which builds on them."""

from __future__ import annotations

from pathlib import Path

from bench.loaders import FORMATS, Dataset, detect_format, load_iba, load_jsonl, load_locomo, load_longmemeval
from bench.prefeval import load_prefeval
from memory.errors import BadInput


def load_dataset(path: Path | str, fmt: str | None = None, *, limit: int | None = None) -> Dataset:
    """Load a dataset in ``fmt`` (detected from the file when None); ``limit`` caps an IBA suite's tasks."""
    fmt = fmt or detect_format(path)
    if fmt == "iba":
        return load_iba(path, limit=limit)
    if fmt == "prefeval":  # a PrefEval folder: all forms at 50 filler turns (bench/prefeval.py)
        return load_prefeval(path, limit=limit)
    if fmt == "locomo":
        return load_locomo(path)
    if fmt == "longmemeval":
        return load_longmemeval(path)
    if fmt == "jsonl":
        return load_jsonl(path)
    raise BadInput(f"unknown dataset format {fmt!r} (known: {', '.join(FORMATS)})")
