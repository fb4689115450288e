"""The assistant: one turn of the daily loop, shared by `ibachat ask`, the REPL and the TUI.

For every message: redact secrets, store the user's turn (through the same ingestion path as
the benchmark, so the preference ledger grows with it), run the IBA-Agent planner, then
either stream a text answer or propose a mock tool action that runs only when approved.
A rejection is stored in the user's name and becomes a preference event.
"""

from __future__ import annotations

import json
import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import TYPE_CHECKING, Any

from ibachat.actions import PendingAction, load_pending, rejection_events, save_pending
from ibachat.redact import redact, redact_value
from memory.atomic import atomic_write_text
from memory.errors import NotFound

if TYPE_CHECKING:
    from ibachat.config import Config
    from ibachat.llm.base import LLM
    from memory.memory import Memory
    from memory.types import Hit, Turn


@dataclass
class SessionInfo:
    id: str
    title: str
    turns: int
    last: datetime | None
    incognito: bool = False


@dataclass
class Reply:
    session_id: str
    user_turn: Turn | None
    assistant_turn: Turn | None
    text: str | None
    proposal: dict[str, Any] | None  # {"name", "arguments", "reasons": {param: reason}}
    clarify: str | None
    plan: Any  # ibachat.agent.alignment.plan.AlignmentPlan
    redactions: list[str] = field(default_factory=list)
    planner_ms: float = 0.0  # planning only: retrieval, alignment, the tool call's values
    counters: Any = None
    answer_ms: float = 0.0  # writing (and checking) the text answer
    dropped: str | None = None  # the pending action this message replaced, in a few words


class Assistant:
    def __init__(
        self,
        memory: Memory,
        llm: LLM | None,
        *,
        config: Config | None = None,
        clock: Callable[[], datetime] | None = None,
    ) -> None:
        self.memory = memory
        self.llm = llm
        self.config = config
        self.clock = clock or env_clock() or (lambda: datetime.now(timezone.utc))
        self.last_planner_ms = 0.0
        self._incognito: dict[str, list[tuple[str, str]]] = {}  # session -> [(role, text)], RAM only
        self.pending: dict[str, PendingAction] = {}  # session -> the action a question is waiting on
        self._planner = None

    # ------------------------------------------------------------ labels
    @property
    def model_label(self) -> str:
        return getattr(self.llm, "name", "no model") if self.llm is not None else "planner floor only"

    @property
    def embedder_label(self) -> str:
        emb = self.memory._embedder
        return emb.model_id if emb is not None else str(self.memory._embedder_spec or "minilm")

    @property
    def planner(self) -> Any:
        if self._planner is None:
            from ibachat.agent.planner import Planner

            self._planner = Planner(self.memory, self.llm)
        return self._planner

    # ------------------------------------------------------------ sessions
    def _sessions_path(self):
        return self.memory.home / "sessions.json"

    def _titles(self) -> dict[str, dict[str, Any]]:
        try:
            return json.loads(self._sessions_path().read_text("utf-8"))
        except FileNotFoundError:
            return {}
        except (json.JSONDecodeError, UnicodeDecodeError):
            return {}  # titles are cosmetic; the turns themselves are intact

    def _save_titles(self, titles: dict[str, dict[str, Any]]) -> None:
        if not self.memory.readonly:
            atomic_write_text(self._sessions_path(), json.dumps(titles, ensure_ascii=False))

    def new_session(self, title: str | None = None, *, incognito: bool = False) -> str:
        now = self.clock()
        session_id = f"chat-{now:%Y%m%d-%H%M%S}-{secrets.token_hex(2)}"
        if incognito:
            self._incognito[session_id] = []
        else:
            titles = self._titles()
            titles[session_id] = {"title": title or f"Chat {now:%Y-%m-%d %H:%M}", "created": now.isoformat()}
            self._save_titles(titles)
        return session_id

    def is_incognito(self, session_id: str) -> bool:
        return session_id in self._incognito

    def sessions(self) -> list[SessionInfo]:
        titles = self._titles()
        stats = self.memory.store.sessions()
        out = []
        for sid in set(titles) | set(stats):
            info = stats.get(sid, {})
            last = info.get("last") or titles.get(sid, {}).get("created")
            from memory.types import parse_time

            out.append(
                SessionInfo(
                    id=sid,
                    title=titles.get(sid, {}).get("title", sid),
                    turns=info.get("turns", 0),
                    last=parse_time(last) if last else None,
                )
            )
        for sid, turns in self._incognito.items():
            out.append(
                SessionInfo(id=sid, title="incognito", turns=len(turns), last=self.clock(), incognito=True)
            )
        out.sort(key=lambda s: s.last or datetime.min.replace(tzinfo=timezone.utc), reverse=True)
        return out

    def rename_session(self, session_id: str, title: str) -> None:
        titles = self._titles()
        titles.setdefault(session_id, {"created": self.clock().isoformat()})["title"] = redact(title)[0]
        self._save_titles(titles)

    def delete_session(self, session_id: str) -> int:
        if self._incognito.pop(session_id, None) is not None:
            return 0
        ids = [t.id for t in self.memory.session(session_id)]
        removed = self.memory.forget(ids) if ids else []
        if removed:
            from ibachat.line_history import scrub_home_history

            scrub_home_history(self.memory.home, [t.text for t in removed])
        titles = self._titles()
        titles.pop(session_id, None)
        self._save_titles(titles)
        self.pending.pop(session_id, None)
        if not self.memory.readonly:
            save_pending(self.memory.home, session_id, None, self.clock())
        return len(removed)

    def search(self, query: str, k: int = 20) -> list[tuple[Hit, Turn]]:
        hits = self.memory.search(query, k)
        turns = {t.id: t for t in self.memory.get_many([h.id for h in hits])}
        return [(h, turns[h.id]) for h in hits if h.id in turns]

    def plan_for(self, turn_id: int) -> dict[str, Any] | None:
        return self.memory.plans.get(turn_id)

    # ------------------------------------------------------------ the turn
    def _store(
        self,
        session_id: str,
        role: str,
        text: str,
        *,
        tool_call: dict[str, Any] | None = None,
        flags: tuple[str, ...] = (),
    ) -> Turn | None:
        if session_id in self._incognito:
            self._incognito[session_id].append((role, text))
            return None
        from ibachat.agent.ingest import ingest

        rec: dict[str, Any] = {
            "session_id": session_id,
            "role": role,
            "text": text,
            "time": self.clock(),
            "source": "chat",
        }
        if tool_call is not None:
            rec["tool_call"] = tool_call
        if flags:
            rec["flags"] = list(flags)
        return ingest(self.memory, [rec])[0]

    def respond(
        self,
        session_id: str,
        text: str,
        *,
        on_token: Callable[[str], None] | None = None,
        cancel: threading.Event | None = None,
    ) -> Reply:
        """Store the user's turn, plan, then answer (streamed) or propose a tool action.

        All or nothing: when the answer cannot be written (the model fails, ``cancel`` is set
        while it streams: :class:`~ibachat.errors.Cancelled`), the user's turn is taken back out
        of the memory before the error goes up, so no question is left stored without its answer.
        """
        pending: list[Turn] = []
        kept = len(self._incognito.get(session_id, []))

        def piece(text: str) -> None:
            if cancel is not None and cancel.is_set():
                from ibachat.errors import Cancelled

                raise Cancelled("stopped")
            if on_token is not None:
                on_token(text)

        try:
            return self._respond(session_id, text, piece, pending)
        except BaseException:
            if pending:
                self.memory.forget([t.id for t in pending])
            elif session_id in self._incognito:
                del self._incognito[session_id][kept:]
            raise

    def _respond(
        self, session_id: str, text: str, on_token: Callable[[str], None], pending: list[Turn]
    ) -> Reply:
        from ibachat.agent.execution.action import read_reply
        from ibachat.agent.execution.tools import as_task_tool, tools_for
        from ibachat.agent.reading.events import REPLY_FLAG

        clean, kinds = redact(text)
        waiting = self._take_pending(session_id)
        reading = read_reply(waiting, clean)
        # saved before any model runs; an answer to the assistant's question is not a preference
        user_turn = self._store(session_id, "user", clean, flags=(REPLY_FLAG,) if reading.answered else ())
        pending.extend([user_turn] if user_turn is not None else [])  # taken back if no answer comes
        now = self.clock()
        t0 = time.perf_counter()
        tools = [as_task_tool(t) for t in tools_for()]
        outcome = self.planner.act(
            clean, now=now, tools=tools, stream=on_token, pending=waiting, reading=reading
        )
        answer_ms = _answer_ms(outcome)
        self.last_planner_ms = (time.perf_counter() - t0) * 1000 - answer_ms
        plan = outcome.plan
        call = outcome.tool_call
        if call is None and outcome.question is None:
            _raise_if_model_failed(outcome)
        clarify = outcome.question
        proposal = None
        if outcome.pending is not None:  # the next message (or the next `ibachat ask`) may answer it
            self.pending[session_id] = outcome.pending
            if session_id not in self._incognito and not self.memory.readonly:
                save_pending(self.memory.home, session_id, outcome.pending, now)
        dropped = (
            f"(I set aside {outcome.dropped.what} request: ask again if you still want it.)"
            if outcome.dropped is not None
            else ""
        )
        if clarify:
            answer = clarify
        elif call is not None:
            proposal = {"name": call.name, "arguments": dict(call.arguments), "reasons": dict(call.reasons)}
            if call.defaults:
                proposal["defaults"] = list(call.defaults)
            answer = (
                f"Proposed action: {call.name}("
                + ", ".join(f"{k}={v!r}" for k, v in call.arguments.items())
                + ") — approve, edit or reject."
            )
        else:
            answer = outcome.text or ""
        if dropped:
            answer = f"{dropped}\n{answer}" if answer else dropped
        answer, _ = redact(answer)  # a model's reply is stored under the same rule as the user's words
        assistant_turn = self._store(session_id, "assistant", answer)
        pending.clear()  # the answer is stored: the turn is complete
        if assistant_turn is not None and hasattr(plan, "to_dict"):
            self.memory.plans.save(assistant_turn.id, redact_value(plan.to_dict())[0])
        return Reply(
            session_id=session_id,
            user_turn=user_turn,
            assistant_turn=assistant_turn,
            text=None if proposal else answer,
            proposal=proposal,
            clarify=clarify,
            plan=plan,
            redactions=kinds,
            planner_ms=self.last_planner_ms,
            answer_ms=answer_ms,
            counters=getattr(outcome, "counters", None),
            dropped=outcome.dropped.what if outcome.dropped is not None else None,
        )

    def _take_pending(self, session_id: str) -> PendingAction | None:
        """The action waiting on this session's last question (in RAM, else on disk); no longer waiting."""
        pending = self.pending.pop(session_id, None)
        if session_id in self._incognito or self.memory.readonly:
            return pending
        now = self.clock()
        if pending is None:
            pending = load_pending(self.memory.home, session_id, now)
        save_pending(self.memory.home, session_id, None, now)
        return pending

    def approve(self, reply: Reply, arguments: dict[str, Any] | None = None) -> dict[str, Any]:
        """Run the proposed mock tool (validated; nothing real happens) and remember that it ran.

        With edited ``arguments``, the reply's proposal becomes what ran: the new values, each
        changed one with "your edit" as its reason (not the plan's reason for the old value).
        """
        from ibachat.agent.execution.tools import execute

        if reply.proposal is None:
            raise NotFound("this reply proposed no action")
        proposed = reply.proposal["arguments"]
        args = dict(arguments if arguments is not None else proposed)
        result = execute(reply.proposal["name"], args)
        if args != proposed:
            old = reply.proposal.get("reasons") or {}
            edited = sorted(k for k in {*args, *proposed} if args.get(k) != proposed.get(k))
            reasons = {k: "your edit" if k in edited else old.get(k, "") for k in args}
            reply.proposal = {**reply.proposal, "arguments": args, "reasons": reasons, "edited": edited}
        clean_args, _ = redact_value(args)  # an edited value may hold a secret: never stored
        clean_result, _ = redact_value(result)
        call: dict[str, Any] = {"name": reply.proposal["name"], "arguments": clean_args}
        edited = set(reply.proposal.get("edited") or [])
        defaults = [n for n in reply.proposal.get("defaults") or [] if n in args and n not in edited]
        if defaults:  # values nobody chose: the tool's defaults are never remembered as the user's choice
            call["defaults"] = defaults
        self._store(
            reply.session_id,
            "tool",
            json.dumps({"call": call, "result": clean_result}, ensure_ascii=False, default=str),
            tool_call=call,
        )
        return result

    def reject(self, reply: Reply, reason: str | None = None) -> None:
        """Remember, in the user's name, that this action was turned down (and why).

        The stored turn is flagged so that its words (the card's values) are never read as
        preferences; what it means is recorded explicitly (``rejection_events``).
        """
        from ibachat.agent.ingest import supersede_stale
        from ibachat.agent.reading.events import REPLY_FLAG

        if reply.proposal is None:
            raise NotFound("this reply proposed no action")
        name, args = reply.proposal["name"], redact_value(reply.proposal["arguments"])[0]
        described = ", ".join(f"{k} {v}" for k, v in args.items())
        clean = redact(reason)[0].strip() if reason else ""
        text = f"No, don't do that ({name}: {described})." + (f" {clean}" if clean else "")
        turn = self._store(reply.session_id, "user", text, flags=(REPLY_FLAG,))
        if turn is None:
            return
        added = self.memory.ledger.add_many(rejection_events(turn, reply.proposal, clean))
        supersede_stale(self.memory.ledger, added)


NOW_ENV = "IBACHAT_NOW"


def env_clock() -> Callable[[], datetime] | None:
    """A testing aid: ``IBACHAT_NOW=2026-12-03T14:00:00+00:00`` fixes "now" for every turn."""
    import os

    from ibachat.errors import ConfigError

    raw = os.environ.get(NOW_ENV, "").strip()
    if not raw:
        return None
    try:
        fixed = datetime.fromisoformat(raw)
    except ValueError:
        raise ConfigError(
            f"{NOW_ENV}={raw!r} is not an ISO date-time (e.g. 2026-12-03T14:00:00+00:00)"
        ) from None
    if fixed.tzinfo is None:
        raise ConfigError(f"{NOW_ENV}={raw!r} has no time zone (add +00:00 or Z)")
    return lambda: fixed


def _answer_ms(outcome: Any) -> float:
    """Time the planner spent writing the text answer (0 for a tool call)."""
    counters = getattr(outcome, "counters", None)
    return float((getattr(counters, "timings_ms", None) or {}).get("answer_ms", 0.0))


def _raise_if_model_failed(outcome: Any) -> None:
    """A text answer the model could not write: say why in one line (the user's turn is stored)."""
    from ibachat.errors import ModelUnavailable

    counters = getattr(outcome, "counters", None)
    from ibachat.agent.execution.execute import STOPPED

    failures = [
        f for f in getattr(counters, "fallbacks", []) if f.startswith("answer: ") and not f.endswith(STOPPED)
    ]
    if failures and failures[0] != "answer: no chat model configured" and "empty reply" not in failures[0]:
        raise ModelUnavailable(failures[0].removeprefix("answer: "))
