"""Alignment plans saved with the assistant turn they shaped: one small JSON file per turn.

A plan quotes other turns (the task, evidence snippets, the words behind a preference), so
forgetting a turn removes its own plan and every other plan that cites or quotes it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from memory.atomic import atomic_write_text
from memory.paths import ensure_private_dir

PLAN_RE = re.compile(r"^(\d+)\.json$")
SHINGLE_WORDS = 4  # a plan holding 4 words in a row of a forgotten text quotes it


# A plan is an explanation, not a measurement: four decimals say every score and millisecond it shows.
# A float written whole (7.566291009425186) is also a run of digits that can equal a six-digit code
# the user said and the redactor removed from every other file.
PLAN_DECIMALS = 4


def rounded(value: Any) -> Any:
    """The plan with every float to PLAN_DECIMALS places: what is shown is what is stored."""
    if isinstance(value, float):
        return round(value, PLAN_DECIMALS)
    if isinstance(value, dict):
        return {k: rounded(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [rounded(v) for v in value]
    return value


class PlanStore:
    def __init__(self, folder: Path, *, readonly: bool = False) -> None:
        self.folder = Path(folder)
        self.readonly = readonly

    def _path(self, turn_id: int) -> Path:
        return self.folder / f"{int(turn_id)}.json"

    def save(self, turn_id: int, plan: dict[str, Any]) -> None:
        ensure_private_dir(self.folder)
        atomic_write_text(self._path(turn_id), json.dumps(rounded(plan), ensure_ascii=False, default=str))

    def get(self, turn_id: int) -> dict[str, Any] | None:
        try:
            return json.loads(self._path(turn_id).read_text("utf-8"))
        except FileNotFoundError:
            return None
        except (json.JSONDecodeError, UnicodeDecodeError):
            return None  # a damaged plan is only an explanation; the turn itself is intact

    def ids(self) -> list[int]:
        if not self.folder.is_dir():
            return []
        return sorted(int(m.group(1)) for p in self.folder.iterdir() if (m := PLAN_RE.match(p.name)))

    def forget(self, turn_ids: Iterable[int], texts: Iterable[str] = ()) -> int:
        """Remove the plans of these turns and every plan that cites or quotes them."""
        gone = {int(t) for t in turn_ids}
        marks = [m for text in texts for m in _marks(text)]
        removed = 0
        for plan_id in self.ids():
            path = self._path(plan_id)
            if plan_id not in gone:
                try:
                    raw = path.read_text("utf-8")
                    plan = json.loads(raw)
                except (OSError, UnicodeDecodeError, json.JSONDecodeError):
                    plan, raw = None, ""  # unreadable: it may quote anything, so it goes too
                if plan is not None and not _cites(plan, gone) and not _quotes(plan, marks):
                    continue
            try:
                path.unlink()
                removed += 1
            except FileNotFoundError:
                continue
        return removed


def _norm(text: str) -> str:
    return " ".join(re.findall(r"\w+", text.casefold()))


def _marks(text: str) -> list[str]:
    """Word runs whose presence in a plan means it quotes ``text``."""
    words = _norm(text).split()
    if len(words) < 2:
        return []  # a one-word turn ("yes") is found through ids, not quotes
    if len(words) <= SHINGLE_WORDS:
        return [" ".join(words)]
    return [" ".join(words[i : i + SHINGLE_WORDS]) for i in range(len(words) - SHINGLE_WORDS + 1)]


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)


def _cites(plan: dict[str, Any], ids: set[int]) -> bool:
    for item in plan.get("evidence") or ():
        if isinstance(item, dict) and item.get("turn_id") in ids:
            return True
    for pref in plan.get("preferences") or ():
        if isinstance(pref, dict) and ids.intersection(pref.get("evidence") or ()):
            return True
    return False


def _quotes(plan: dict[str, Any], marks: list[str]) -> bool:
    if not marks:
        return False
    strings = [_norm(s) for s in _strings(plan)]
    long = {m for m in marks if m.count(" ") + 1 == SHINGLE_WORDS}
    short = [m for m in marks if m not in long]
    for text in strings:
        words = text.split()
        if long and any(
            " ".join(words[i : i + SHINGLE_WORDS]) in long for i in range(len(words) - SHINGLE_WORDS + 1)
        ):
            return True
        if any(f" {m} " in f" {text} " for m in short):
            return True
    return False
