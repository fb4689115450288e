"""The assistant's action path: a pending action and its question, answers, and rejections.

An action the plan cannot settle alone waits on one short question ("For restaurant, do
you want Sichuan House or Taco Loco?"). The reply that answers it fills the pending action
(it is not a preference of its own); values the request names, the answers, and what the
user's past calls with those values agree on become certain values of the plan, so the
question is not asked again. A rejected card is remembered as a rejection of that call,
and of a value its reason names for that parameter only (``book_flight.meal``).
"""

from __future__ import annotations

import json
import re
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ibachat.agent.execution.action import PendingAction

if TYPE_CHECKING:
    from memory.ledger import PreferenceEvent
    from memory.types import Turn


PENDING_FILE = "pending.json"  # under the home: a question asked by one `ibachat ask` waits for the next
PENDING_TTL_S = 3600.0  # a question older than this is no longer waiting


def save_pending(home: Path, session_id: str, pending: PendingAction | None, now: datetime) -> None:
    """Keep (or, with None, drop) the session's pending action on disk."""
    from memory.atomic import atomic_write_text

    path = home / PENDING_FILE
    waiting = _read_pending(path)
    if pending is None and session_id not in waiting:
        return
    if pending is None:
        waiting.pop(session_id, None)
    else:
        waiting[session_id] = {
            "task": pending.task,
            "tool": pending.tool.get("name") if pending.tool else None,
            "options": [t.get("name") for t in pending.options],
            "question": pending.question,
            "param": pending.param,
            "answers": pending.answers,
            "asked": now.isoformat(),
        }
    atomic_write_text(path, json.dumps(waiting, ensure_ascii=False, default=str))


def load_pending(home: Path, session_id: str, now: datetime) -> PendingAction | None:
    """The session's pending action from disk, if one is still waiting (not older than the TTL)."""
    from ibachat.agent.execution.tools import as_task_tool, get_tool
    from ibachat.errors import IbachatError

    rec = _read_pending(home / PENDING_FILE).get(session_id)
    if not isinstance(rec, dict):
        return None
    try:
        asked = datetime.fromisoformat(str(rec["asked"]))
        if not 0 <= (now - asked).total_seconds() <= PENDING_TTL_S:
            return None
        tool = as_task_tool(get_tool(str(rec["tool"]))) if rec.get("tool") else None
        options = [as_task_tool(get_tool(str(n))) for n in rec.get("options") or []]
        if tool is None and len(options) < 2:
            return None
        return PendingAction(
            str(rec["task"]),
            tool,
            str(rec["question"]),
            rec.get("param"),
            dict(rec.get("answers") or {}),
            options,
        )
    except (KeyError, TypeError, ValueError, IbachatError):
        return None  # a file from another version, or hand-edited: nothing is waiting


def _read_pending(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text("utf-8"))
    except (FileNotFoundError, json.JSONDecodeError, UnicodeDecodeError):
        return {}
    return data if isinstance(data, dict) else {}


def _plain(value: Any) -> str:
    return str(value).replace("_", " ").strip().lower()


def _names(text: str, value: str) -> bool:
    return re.search(rf"(?<![\w-]){re.escape(value)}(?![\w-])", text.lower()) is not None


def rejection_events(turn: Turn, proposal: dict[str, Any], reason: str) -> list[PreferenceEvent]:
    """What turning down ``proposal`` (stored as ``turn``, with the user's ``reason``) means.

    A rejection of this call; of a value the reason names ("not the vegetarian meal", "too
    spicy" of ``spice_level: hot``) for that parameter of this tool only, never for vegetarian
    food in general; and anything else the reason says, read in the user's own words.
    """
    from ibachat.agent.reading.events import extract_events
    from memory.ledger import PreferenceEvent
    from memory.types import Turn

    name, args = proposal["name"], proposal["arguments"]

    def rejected(dimension: str, value: str, confidence: float) -> PreferenceEvent:
        return PreferenceEvent(
            dimension=dimension,
            value=value,
            kind="rejected",
            valid_from=turn.time,
            polarity=-1,
            evidence=(turn.id,),
            speaker="user",
            confidence=confidence,
            extractor="tool card",
            subject=turn.text[:300],
        )

    events = [rejected(name, json.dumps(args, sort_keys=True, ensure_ascii=False), 0.6)]
    if not reason:
        return events
    values = {_plain(v): k for k, v in args.items() if not isinstance(v, (list, dict, bool))}
    scoped = {k for v, k in values.items() if v and _names(reason, v)}
    for e in extract_events([Turn(turn.id, turn.session_id, "user", reason, turn.time)]):
        param = values.get(_plain(e.value))
        if param is not None and e.polarity < 0:
            scoped.add(param)  # said of one of this call's values: scoped to that parameter
        elif param is None:
            events.append(e)  # something else the reason says, in the user's own words
    return events + [rejected(f"{name}.{k}", str(args[k]), 0.8) for k in sorted(scoped)]
