"""Alignment plans saved with the assistant turn they shaped: one small JSON file per turn."""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from memory.atomic import atomic_write_text
from memory.paths import ensure_private_dir


class PlanStore:
    def __init__(self, folder: Path, *, readonly: bool = False) -> None:
        self.folder = Path(folder)
        self.readonly = readonly

    def _path(self, turn_id: int) -> Path:
        return self.folder / f"{int(turn_id)}.json"

    def save(self, turn_id: int, plan: dict[str, Any]) -> None:
        ensure_private_dir(self.folder)
        atomic_write_text(self._path(turn_id), json.dumps(plan, ensure_ascii=False, default=str))

    def get(self, turn_id: int) -> dict[str, Any] | None:
        try:
            return json.loads(self._path(turn_id).read_text("utf-8"))
        except FileNotFoundError:
            return None
        except (json.JSONDecodeError, UnicodeDecodeError):
            return None  # a damaged plan is only an explanation; the turn itself is intact

    def forget(self, turn_ids: Iterable[int]) -> int:
        removed = 0
        for turn_id in turn_ids:
            path = self._path(turn_id)
            if path.exists():
                path.unlink()
                removed += 1
        return removed
