"""Integrity of the files in a home: what a record must hold, checksums, and salvage.

* Every turn record read from a segment is checked (:func:`check_record`); a segment with a
  record that breaks the rules is damaged, like one that is truncated or fails its checksum.
* Index files are checked against the sizes and crc32 written to ``index/state.json`` when
  they were saved (:func:`file_digest`, :func:`index_damage`): a flipped byte or a deleted
  file is noticed before the file is used, and the index is rebuilt from the turn store.
* :func:`salvage` reads every intact record out of a damaged segment's bytes.
* ``turns/lost.json`` lists segments a repair found missing, so they are reported once.
"""

from __future__ import annotations

import json
import re
import zlib
from pathlib import Path
from typing import Any

from memory.atomic import atomic_write_text
from memory.types import ROLES, SOURCES, parse_time

LOST = "lost.json"
_RECORD_START = re.compile(r'[{,]\s*"(\d+)"\s*:\s*\{')


def check_record(turn_id: object, rec: object) -> str | None:
    """Why a stored record is not a valid turn, or None when it is."""
    if not isinstance(rec, dict):
        return f"turn {turn_id} is not an object"
    for name in ("session_id", "text", "time"):
        if not isinstance(rec.get(name), str):
            value = json.dumps(rec.get(name), ensure_ascii=False, default=str)[:40]
            return f"turn {turn_id} has {name} {value}, not a string"
    if rec.get("role") not in ROLES:
        return f"turn {turn_id} has role {rec.get('role')!r}"
    if rec.get("source", "chat") not in SOURCES:
        return f"turn {turn_id} has source {rec.get('source')!r}"
    flags = rec.get("flags", [])
    if not isinstance(flags, list) or not all(isinstance(f, str) for f in flags):
        return f"turn {turn_id} has flags that are not a list of strings"
    tool_call = rec.get("tool_call")
    if tool_call is not None and not (isinstance(tool_call, dict) and "name" in tool_call):
        return f"turn {turn_id} has a tool call without a name"
    try:
        parse_time(rec["time"])
    except (TypeError, ValueError):
        return f"turn {turn_id} has time {rec['time'][:40]!r}, not ISO-8601"
    return None


def turns_crc(turns_json: bytes) -> int:
    return zlib.crc32(turns_json)


def salvage(raw: bytes) -> tuple[dict[int, dict[str, Any]], int]:
    """Every intact, valid turn record in a damaged segment, and its high-water mark (0 if lost).

    A segment is ``{"turns":{"1":{...},"2":{...}},"meta":...}``, so each record starts at
    ``,"<id>":{`` or ``{"<id>":{`` (spaces allowed); a record that does not parse or breaks
    the rules is skipped and the scan resumes at the next start.
    """
    text = raw.decode("utf-8", "replace")
    decoder = json.JSONDecoder()
    found: dict[int, dict[str, Any]] = {}
    start = re.search(r'"turns"\s*:\s*\{', text)
    pos = start.end() - 1 if start else 0
    while True:
        m = _RECORD_START.search(text, pos)
        if m is None:
            break
        turn_id = int(m.group(1))
        try:
            rec, end = decoder.raw_decode(text, m.end() - 1)
        except (json.JSONDecodeError, RecursionError):
            pos = m.end()
            continue
        if check_record(turn_id, rec) is None and "\ufffd" not in json.dumps(rec, ensure_ascii=False):
            found[turn_id] = rec
        pos = end
    hw = re.findall(r'"high_water"\s*:\s*(\d+)', text)
    return found, int(hw[-1]) if hw else 0


def file_digest(path: Path) -> dict[str, int] | None:
    """Size and crc32 of a file, or None when it does not exist."""
    crc = 0
    size = 0
    try:
        with open(path, "rb") as f:
            while chunk := f.read(1 << 20):
                crc = zlib.crc32(chunk, crc)
                size += len(chunk)
    except FileNotFoundError:
        return None
    return {"size": size, "crc32": crc}


def index_damage(path: Path, recorded: dict[str, Any] | None) -> str | None:
    """How an index file differs from what was saved, or None (also when nothing was recorded)."""
    if not isinstance(recorded, dict):
        return None
    digest = file_digest(path)
    if digest is None:
        return f"{path.name} is missing"
    if digest["size"] != recorded.get("size"):
        return f"{path.name} is {digest['size']:,} bytes, {recorded.get('size'):,} were saved"
    if digest["crc32"] != recorded.get("crc32"):
        return f"{path.name} fails its checksum"
    return None


def read_lost(folder: Path) -> dict[str, Any]:
    try:
        data = json.loads((Path(folder) / LOST).read_text("utf-8"))
    except (FileNotFoundError, json.JSONDecodeError, UnicodeDecodeError):
        return {}
    return data if isinstance(data, dict) else {}


def write_lost(folder: Path, lost: dict[str, Any], *, fsync: bool = True) -> None:
    atomic_write_text(Path(folder) / LOST, json.dumps(lost, indent=1), fsync=fsync)


def recorded_index_damage(folder: Path, state: dict[str, Any], token: str) -> list[str]:
    """Index files in ``folder`` that differ from the sizes and checksums ``state`` recorded.

    When the state was saved before the store last changed (``token`` differs; e.g. a kill
    between saving a file and the state), a file that differs may simply be newer, so only a
    missing file counts; each file's own format checks cover the rest.
    """
    files = state.get("files") if isinstance(state.get("files"), dict) else {}
    found = [index_damage(Path(folder) / name, info) for name, info in sorted(files.items())]
    if state.get("token") != token:
        found = [p for p in found if p and p.endswith("is missing")]
    return [p for p in found if p]


def read_state(path: Path) -> dict[str, Any]:
    try:
        state = json.loads(path.read_text("utf-8"))
    except (FileNotFoundError, json.JSONDecodeError, UnicodeDecodeError):
        return {}
    return state if isinstance(state, dict) else {}


def state_matches(path: Path, token: str, model: str) -> bool:
    state = read_state(path)
    return state.get("token") == token and state.get("model") == model
