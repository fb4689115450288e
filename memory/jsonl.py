"""Import and export of turns as JSON Lines.

One turn per line: ``session_id``, ``role``, ``text``, ``time`` (ISO-8601) are required;
``source``, ``tool_call`` and ``flags`` are optional. A line may also be an IBA-Bench task
(an object with ``history``): its sessions' turns are imported, timed from the session's
time one second apart. A file is checked whole (:func:`check_import_file`) before anything is written, then read
again as a stream (:func:`iter_import_file`), so its size does not matter.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable, Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

from memory.errors import BadInput
from memory.store import TurnStore
from memory.types import Turn, parse_time

EXPORT_FIELDS = ("session_id", "role", "text", "time", "source", "tool_call", "flags")
_RAW_CONTROLS = re.compile(r"[\x7f-\x9f]")


def dumps(value: Any, **options: Any) -> str:
    """``json.dumps`` that is safe to print on a terminal: it escapes C0 controls (ESC) itself,
    but with ``ensure_ascii=False`` leaves DEL and the C1 controls (U+0080-U+009F; a lone
    U+009B is a CSI to many terminals) raw. Here they are ``\\u`` escapes, which parse the same."""
    return _RAW_CONTROLS.sub(lambda m: f"\\u{ord(m.group()):04x}", json.dumps(value, **options))


def export_line(turn: Turn) -> str:
    rec = turn.to_record()
    return dumps({k: rec[k] for k in EXPORT_FIELDS if k in rec}, ensure_ascii=False)


def _history_records(task: dict[str, Any], lineno: int) -> Iterator[dict[str, Any]]:
    history = task.get("history")
    if not isinstance(history, list):
        raise BadInput(f"{lineno}: history must be a list of sessions")
    for s_index, session in enumerate(history):
        if not isinstance(session, dict) or not {"session_id", "time", "turns"} <= session.keys():
            raise BadInput(f"{lineno}: history[{s_index}] needs session_id, time and turns")
        try:
            start = parse_time(session["time"])
        except (TypeError, ValueError):
            raise BadInput(
                f"{lineno}: history[{s_index}].time {session['time']!r} is not an ISO-8601 string"
            ) from None
        if not isinstance(session["turns"], list):
            raise BadInput(f"{lineno}: history[{s_index}].turns must be a list")
        for t_index, turn in enumerate(session["turns"]):
            if not isinstance(turn, dict):
                raise BadInput(f"{lineno}: history[{s_index}].turns[{t_index}] is not an object")
            rec = {
                "session_id": session["session_id"],
                "role": turn.get("role"),
                "text": turn.get("text"),
                "time": (start + timedelta(seconds=t_index)).isoformat(),
                "source": "bench",
            }
            if turn.get("tool_call") is not None:
                rec["tool_call"] = turn["tool_call"]
            yield rec


def iter_import_file(
    path: Path, progress: Callable[[str, int, int], None] | None = None
) -> Iterator[dict[str, Any]]:
    """Parse and validate line by line, yielding normalised records; raise BadInput naming the
    first bad line. Nothing is held but the line being read, so any size of file can be read.

    ``progress("reading", bytes read, file size)`` is called every 1,000 lines.
    """
    try:
        handle = open(path, "rb")  # noqa: SIM115 - closed below
        total = os.fstat(handle.fileno()).st_size
    except OSError as exc:
        raise BadInput(f"cannot read {path}: {exc.strerror}") from None
    done = 0
    with handle:
        for lineno, raw in enumerate(handle, start=1):
            done += len(raw)
            if progress and lineno % 1000 == 0:
                progress("reading", done, total)
            try:
                line = raw.decode("utf-8")
            except UnicodeDecodeError as exc:
                raise BadInput(
                    f"{path}:{lineno}: not valid UTF-8 (byte {exc.start}); nothing was imported"
                ) from None
            if not line.strip():
                continue
            try:
                obj = json.loads(line)
            except json.JSONDecodeError as exc:
                raise BadInput(f"{path}:{lineno}: not valid JSON ({exc.msg}); nothing was imported") from None
            except RecursionError:
                raise BadInput(f"{path}:{lineno}: JSON nested too deeply; nothing was imported") from None
            if not isinstance(obj, dict):
                raise BadInput(f"{path}:{lineno}: expected a JSON object; nothing was imported")
            try:
                candidates = list(_history_records(obj, lineno)) if "history" in obj else [obj]
            except BadInput as exc:
                raise BadInput(f"{path}:{exc}; nothing was imported") from None
            for rec in candidates:
                if "time" not in rec:
                    raise BadInput(f"{path}:{lineno}: missing field: time; nothing was imported")
                rec = dict(rec)
                rec.setdefault("source", "import")
                try:
                    yield TurnStore.normalise(rec)
                except BadInput as exc:
                    raise BadInput(f"{path}:{lineno}: {exc}; nothing was imported") from None


def check_import_file(path: Path, progress: Callable[[str, int, int], None] | None = None) -> int:
    """Read the whole file once, writing nothing: BadInput for the first bad line; else the count."""
    return sum(1 for _ in iter_import_file(path, progress))
