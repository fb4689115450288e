"""Turn one persona's scenarios into tasks: timelines, states, chosen checks, a shared history."""

from __future__ import annotations

import random
from datetime import datetime, timedelta, timezone
from typing import Any

from bench.generator.catalog import get_dim
from bench.generator.histories import History, StateSpan, build_history
from bench.generator.personas import Persona
from bench.generator.scenarios import BY_NAME, Ctx, Scenario
from bench.generator.states import STATES, State
from bench.generator.tasks import (
    Check,
    active,
    baseline_fails,
    constraint_checks,
    gold_arguments,
    no_memory_baseline,
    rejection_checks,
)
from bench.generator.world import CITY
from ibachat.agent.execution.tools import as_task_tool, get_tool

FUTURE_START = {"night_shifts", "working_abroad", "exam_crunch", "marathon_training"}
EVIDENCE_KINDS = ("behaviour", "statement", "update", "correction")
MAX_EVIDENCE = 6
GROUP_SIZE = 6  # tasks per shared history
_EPOCH = datetime(2025, 1, 1, tzinfo=timezone.utc)


def _daytime(rng: random.Random, at: datetime, lo: datetime, hi: datetime) -> datetime:
    """``at`` moved to a waking hour of its day, kept within [lo, hi]."""
    moved = at.replace(hour=rng.randint(8, 21), minute=rng.randint(0, 59), second=0, microsecond=0)
    return min(max(moved, lo), hi).replace(second=0, microsecond=0)


def _conflicts(state: State, persona: Persona, dims: set[str]) -> bool:
    return any(k in dims and persona.prefs[k] not in allowed for k, allowed in state.overrides.items())


def candidate_checks(
    persona: Persona, scen: Scenario, now: datetime, states: list[StateSpan]
) -> dict[str, tuple[list[Check], Any]]:
    """For each scenario dimension that yields checks at ``now``: (checks, the state imposing them)."""
    tool = scen.tool_for(persona)
    out: dict[str, tuple[list[Check], Any]] = {}
    for key in scen.dims:
        allowed, span = active(persona, key, now, states)
        if key == "travel.mode":
            out[key] = ([{"dimension": key, "kind": "tool_called", "expect": {"name": tool}}], None)
            continue
        checks = constraint_checks(get_dim(key), allowed, tool)
        if checks:
            out[key] = (checks, span)
    return out


def feasible(persona: Persona, scen: Scenario) -> bool:
    """Whether, on long-term values alone, some check of this scenario defeats the no-memory policy."""
    first = scen.tools[0] if scen.tools else None
    return any(
        baseline_fails(c, first)
        for checks, _ in candidate_checks(persona, scen, _EPOCH, []).values()
        for c in checks
    )


class Group:
    """Tasks of one persona that share one history."""

    def __init__(self, seed: int, rng: random.Random, persona: Persona, hid: str, scenarios: list[Scenario]):
        self.seed, self.rng, self.persona, self.hid, self.scenarios = seed, rng, persona, hid, scenarios
        tz = timezone(timedelta(hours=CITY[persona.city][3]))
        self.end = datetime(2025, 1, 20, tzinfo=tz) + timedelta(
            days=rng.randint(0, 300), hours=rng.randint(9, 20), minutes=rng.randint(0, 59)
        )
        self.start = self.end - timedelta(days=rng.randint(120, 300))
        self.dims = {k for s in scenarios for k in s.dims}
        self.states: list[StateSpan] = []
        self.current: StateSpan | None = None

    def pick_states(self) -> None:
        rng, p = self.rng, self.persona
        pool = [s for s in STATES if _conflicts(s, p, self.dims)]
        if pool and rng.random() < 0.7:
            state = rng.choice(pool)
            said = _daytime(rng, self.end - timedelta(hours=rng.uniform(0, 96)), self.start, self.end)
            if state.key in FUTURE_START and rng.random() < 0.5:
                start = (said + timedelta(days=rng.randint(1, 4))).replace(hour=8, minute=0)
            else:
                start = (said - timedelta(days=rng.choice((0, 1)))).replace(hour=7, minute=0)
            end = start + timedelta(days=rng.randint(*state.days))
            self.current = StateSpan(state, said, start, end, True)
            self.states.append(self.current)
        past_pool = [
            s
            for s in STATES
            if s.can_be_past
            and _conflicts(s, p, self.dims)
            and (self.current is None or s is not self.current.state)
        ]
        if past_pool and rng.random() < 0.4:
            state = rng.choice(past_pool)
            start = self.start + (self.end - self.start) * rng.uniform(0.2, 0.6)
            end = start + timedelta(days=rng.randint(*state.days))
            if end < self.end - timedelta(days=10):
                self.states.append(StateSpan(state, start, start, end, False))

    def when(self, scen: Scenario) -> tuple[datetime, str]:
        """The task's ``now`` and phase (inside or after the current state, or none)."""
        rng, cur = self.rng, self.current
        touched = cur is not None and any(
            k in scen.dims and self.persona.prefs[k] not in allowed
            for k, allowed in cur.state.overrides.items()
        )
        if cur is not None and touched:
            dur = cur.end - cur.start
            lo = max(self.end, cur.start) + timedelta(hours=2)
            hi = cur.end - max(timedelta(days=1), dur * 0.15)
            phases = (["inside"] if hi > lo else []) + (["after"] if cur.state.after_ok else [])
            if phases:
                phase = rng.choice(phases)
                if phase == "inside":
                    return _daytime(rng, lo + (hi - lo) * rng.random(), lo, hi), phase
                gap = max(timedelta(days=3), dur * 0.3)
                at = cur.end + gap + timedelta(days=rng.uniform(0, 40))
                return _daytime(rng, at, cur.end + gap, at + timedelta(days=1)), phase
        lo = self.end + timedelta(hours=2)
        return _daytime(
            rng, lo + timedelta(hours=rng.uniform(0, 24 * 12)), lo, lo + timedelta(days=13)
        ), "none"

    def choose(
        self, scen: Scenario, now: datetime, phase: str
    ) -> tuple[dict[str, tuple[list[Check], Any]], list[str]] | None:
        cand = candidate_checks(self.persona, scen, now, self.states)
        first = scen.tools[0] if scen.tools else None
        failing = [k for k, (cs, _) in cand.items() if any(baseline_fails(c, first) for c in cs)]
        if not failing:
            return None
        cur = self.current
        must = [
            k
            for k in cand
            if cand[k][1] is not None or (phase == "after" and cur is not None and k in cur.state.overrides)
        ]
        if scen.name == "intercity_trip":
            must.append("travel.mode")
        if not any(k in failing for k in must):
            must.append(self.rng.choice(failing))
        rest = [k for k in cand if k not in must]
        self.rng.shuffle(rest)
        size = max(len(must), self.rng.choice((2, 3, 3, 4)))
        return cand, list(dict.fromkeys(must + rest))[:size]

    def evidence(self, history: History, key: str, span: Any) -> list[dict[str, Any]]:
        if span is not None:
            cues = [c for c in history.cues if c.kind == "state" and c.dim == key and c.time == span.said]
        else:
            value = self.persona.prefs[key]
            cues = [
                c
                for c in history.cues
                if c.dim == key and c.kind in EVIDENCE_KINDS and not c.stale and c.value == value
            ]
            cues = sorted(cues, key=lambda c: c.time, reverse=True)[:MAX_EVIDENCE]
            cues += [c for c in history.cues if c.kind == "state" and c.dim == key]
        seen: dict[tuple[str, int], None] = {}
        for c in cues:
            seen.setdefault((c.session.sid, c.turn), None)
        return [{"session_id": sid, "turn": turn} for sid, turn in seen]

    def dynamic(self, history: History, key: str, span: Any) -> bool:
        plan = history.plans.get(key)
        changed = plan is not None and (plan.update_at is not None or plan.wrong is not None)
        return span is not None or changed or any(key in s.state.overrides for s in self.states)

    def build(self, suite: str) -> tuple[list[dict[str, Any]], int]:
        """The group's tasks and how many were dropped because a no-memory agent would pass them."""
        self.pick_states()
        drafts, unfit = [], 0
        for scen in self.scenarios:
            now, phase = self.when(scen)
            chosen = self.choose(scen, now, phase)
            if chosen is None:  # at this moment no check would tell memory from none
                unfit += 1
                continue
            cand, keys = chosen
            judge = (
                scen.judge
                and self.persona.prefs["write.tone"] in get_dim("write.tone").rubric
                and self.rng.random() < 0.5
            )
            drafts.append((scen, now, phase, cand, keys, judge))
        needed: dict[str, set[str]] = {}
        for scen, _, _, _, keys, judge in drafts:
            for k in keys + (["write.tone"] if judge else []):
                needed.setdefault(k, set()).add(scen.name)
        history = build_history(
            self.rng,
            self.persona,
            self.hid,
            needed,
            {d[0].name for d in drafts},
            self.start,
            self.end,
            self.states,
        )
        sessions = history.to_json()
        tasks, dropped = [], unfit
        for scen, now, phase, cand, keys, judge in drafts:
            task = self.task(suite, history, sessions, scen, now, phase, cand, keys, judge)
            if no_memory_baseline(task)["fails"]:
                tasks.append(task)
            else:
                dropped += 1
        return tasks, dropped

    def task(
        self,
        suite: str,
        history: History,
        sessions: list,
        scen: Scenario,
        now: datetime,
        phase: str,
        cand: dict,
        keys: list[str],
        judge: bool,
    ) -> dict[str, Any]:
        p, rng = self.persona, self.rng
        tool = scen.tool_for(p)
        checks: list[Check] = []
        for key in keys:
            base, span = cand[key]
            extra = {
                "dynamic": self.dynamic(history, key, span),
                "evidence": self.evidence(history, key, span),
            }
            checks += [{**c, **extra} for c in base]
            plan = history.plans.get(key)
            if tool and plan is not None and plan.rejected is not None and span is None:
                ev = [
                    {"session_id": c.session.sid, "turn": c.turn}
                    for c in history.cues
                    if c.kind == "rejection" and c.dim == key
                ]
                checks += [
                    {**c, "dynamic": False, "evidence": ev}
                    for c in rejection_checks(get_dim(key), plan.rejected, tool)
                ]
        if judge:
            tone = p.prefs["write.tone"]
            checks.append(
                {
                    "dimension": "write.tone",
                    "kind": "judge",
                    "rubric": get_dim("write.tone").rubric[tone],
                    "dynamic": self.dynamic(history, "write.tone", None),
                    "evidence": self.evidence(history, "write.tone", None),
                }
            )
        for i, c in enumerate(checks, 1):
            c["id"] = f"c{i}"
        slots = scen.slots(Ctx(rng, p, now))
        task: dict[str, Any] = {
            "id": f"{p.id}-{scen.name}",
            "suite": suite,
            "domain": scen.domain,
            "scenario": scen.name,
            "persona_id": p.id,
            "task_type": scen.task_type,
            "now": now.replace(second=0, microsecond=0).isoformat(),
            "history": sessions,
            "task": {"prompt": rng.choice(scen.prompts).format(**slots["text"])},
            "checks": [
                {
                    k: c[k]
                    for k in ("id", "dimension", "kind", "target", "expect", "rubric", "dynamic", "evidence")
                    if k in c
                }
                for c in checks
            ],
        }
        if scen.task_type == "action" and tool:
            task["task"]["tools"] = [as_task_tool(get_tool(t)) for t in scen.tools]
            values = {k: active(p, k, now, self.states)[0][0] for k in scen.dims}
            task["gold"] = {
                "action": {"name": tool, "arguments": gold_arguments(scen, tool, slots["args"], values)}
            }
        dims = {c["dimension"] for c in checks}
        task["meta"] = {
            "seed": self.seed,
            "persona": p.describe(),
            "history_id": history.hid,
            "phase": phase,
            "state": self.current.state.key if self.current else None,
            "history_turns": history.turn_count,
            "cues": [
                [c.session.sid, c.turn, c.kind, c.dim, c.form]
                for c in history.cues
                if c.dim in dims or c.kind == "state"
            ],
        }
        return task


def persona_tasks(
    seed: int, suite: str, persona: Persona, scenario_names: list[str]
) -> tuple[list[dict[str, Any]], int]:
    """All tasks of one persona (one or two shared histories) and the number dropped by the filter."""
    rng = random.Random(f"tasks:{seed}:{persona.id}")
    names = sorted(scenario_names)
    rng.shuffle(names)
    count = max(1, round(len(names) / GROUP_SIZE))
    groups = [names[i::count] for i in range(count)]
    tasks, dropped = [], 0
    for g, group in enumerate(groups):
        made, lost = Group(seed, rng, persona, f"{persona.id}-h{g}", [BY_NAME[n] for n in group]).build(suite)
        tasks += made
        dropped += lost
    tasks.sort(key=lambda t: t["id"])
    return tasks, dropped
