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
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from memory.ledger import PreferenceEvent
    from memory.types import Turn


@dataclass
class PendingAction:
    """An action waiting for the answer to the question the assistant asked about it."""

    task: str  # the request, as stored
    tool: dict[str, Any]  # the tool it routes to
    question: str
    param: str | None  # the parameter the question is about
    answers: dict[str, Any] = field(default_factory=dict)  # earlier answers, per parameter


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
            "tool": pending.tool.get("name"),
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
        tool = as_task_tool(get_tool(str(rec["tool"])))
        return PendingAction(
            str(rec["task"]), tool, str(rec["question"]), rec.get("param"), dict(rec.get("answers") or {})
        )
    except (KeyError, TypeError, ValueError, IbachatError):
        return None  # a file from another version, or hand-edited: nothing is waiting


def _read_pending(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text("utf-8"))
    except (FileNotFoundError, json.JSONDecodeError, UnicodeDecodeError):
        return {}
    return data if isinstance(data, dict) else {}


def pending_for(task: str, tool: dict[str, Any], question: str, answers: dict[str, Any]) -> PendingAction:
    from ibachat.agent.execution.clarify import question_param

    names = list((tool.get("parameters") or {}).get("properties") or {})
    return PendingAction(task, tool, question, question_param(question, names), dict(answers))


def answers_with(pending: PendingAction, text: str) -> dict[str, Any] | None:
    """The pending action's answers with ``text`` read as the answer to its question, else None."""
    from ibachat.agent.execution.clarify import read_answer

    if pending.param is None:
        return None
    prop = ((pending.tool.get("parameters") or {}).get("properties") or {}).get(pending.param) or {}
    value = read_answer(text, pending.question, prop)
    return None if value is None else {**pending.answers, pending.param: value}


def typed(value: str, prop: dict[str, Any]) -> Any:
    """A value read back from text (a ledger value, an offered option) in the parameter's own type."""
    for v in prop.get("enum") or []:
        if str(v).replace("_", " ").lower() == value.replace("_", " ").lower():
            return v
    if prop.get("type") in ("integer", "number"):
        try:
            return int(value) if prop.get("type") == "integer" else float(value)
        except ValueError:
            return value
    if prop.get("type") == "boolean":
        return value.lower() == "true"
    return value


def act_on(assistant: Any, task: str, tool: dict[str, Any], answers: dict[str, Any], now: datetime) -> Any:
    """Plan an action, with the user's answers (and what past calls settle) as certain values."""
    from ibachat.agent.alignment.plan import ParamDirective
    from ibachat.agent.alignment.usual import free_text
    from ibachat.agent.execution.clarify import options, question_param, settled_by_past_calls
    from ibachat.agent.execution.execute import CONTENT_PARAMS, call_tool
    from ibachat.agent.execution.slots import task_value
    from ibachat.agent.planner import MAX_TASK_CHARS, Outcome

    task = task[:MAX_TASK_CHARS]  # a huge paste: plan on its start (all of it is stored)
    plan = assistant.planner.plan(task, now=now, tool=tool)
    props = (tool.get("parameters") or {}).get("properties") or {}
    names = list(props)
    named = {
        n: v
        for n, p in props.items()
        if isinstance(p, dict)
        and free_text(p)
        and n not in CONTENT_PARAMS
        and (v := task_value(n, p, task, now)) is not None
    }
    pins: dict[str, tuple[Any, str, str]] = {
        n: (v, f"your answer: {v}", "answer") for n, v in answers.items()
    }
    usual = {  # "the usual Sichuan place": the habit the plan is sure of fixes it too
        n: pd.chosen
        for n, pd in plan.params.items()
        if pd.certain and isinstance(pd.chosen, str) and free_text(props.get(n) or {})
    }
    fixed = {**usual, **named, **answers}
    past = settled_by_past_calls(plan.clarifications, tool, fixed, assistant.memory.ledger.all())
    about = " and ".join(f"{k.replace('_', ' ')} {v}" for k, v in fixed.items())
    for n, (value, count) in past.items():
        value = typed(value, props.get(n) or {})
        if n in plan.params and value in plan.params[n].avoid:
            continue  # turned down since: the past calls do not bring it back
        pins[n] = (value, f"as in your {count} past call(s) with {about}", "habit")
    for question in plan.clarifications:  # a question offering a value turned down since is no question
        n = question_param(question, names)
        pd = plan.params.get(n or "")
        if n is None or pd is None or n in pins or not pd.avoid:
            continue
        left = [v for v in (typed(o, props.get(n) or {}) for o in options(question)) if v not in pd.avoid]
        if len(left) == 1:
            turned_down = "you turned down " + ", ".join(map(str, pd.avoid))
            pins[n] = (left[0], "; ".join(filter(None, [pd.reason, turned_down])), pd.source)
    for name, (value, reason, source) in pins.items():
        pd = plan.params.get(name) or ParamDirective(name, "string")
        pd.chosen, pd.certain, pd.source, pd.reason = value, True, source, reason
        pd.allowed = [value] if pd.kind == "enum" else pd.allowed
        pd.avoid = [v for v in pd.avoid if v != value]
        plan.params[name] = pd
    plan.clarifications = [q for q in plan.clarifications if question_param(q, names) not in pins]
    call = call_tool(tool, plan, task, now=now, llm=assistant.llm, counters=plan.counters)
    return Outcome(plan, None, call, plan.counters)


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
