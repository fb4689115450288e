"""What both local encoders read (the torch one, ``flag.py``, and the numpy one, ``numpy_bert.py``):
a model folder's JSON files and the thread setting."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from memory.errors import EmbedderUnavailable

THREADS_ENV = "IBACHAT_TORCH_THREADS"


def read_json(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as err:
        raise EmbedderUnavailable(f"cannot read {path}: {err}") from None
    if not isinstance(data, dict):
        raise EmbedderUnavailable(f"cannot read {path}: not a JSON object")
    return data


def torch_threads() -> int:
    raw = os.environ.get(THREADS_ENV, "1").strip()
    if not raw.isdigit() or int(raw) < 1:
        raise EmbedderUnavailable(f"{THREADS_ENV} must be a positive whole number, got {raw!r}")
    return int(raw)
