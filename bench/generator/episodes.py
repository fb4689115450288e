"""What a history is made of: sessions, cues, per-dimension plans, and which sources can show a value."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from bench.generator.dims import Dim
from bench.generator.personas import Persona
from bench.generator.scenarios import BY_NAME, SCENARIOS, Scenario
from bench.generator.states import State
from ibachat.agent.execution.tools import REGISTRY


@dataclass
class StateSpan:
    state: State
    said: datetime
    start: datetime
    end: datetime
    current: bool


@dataclass
class Session:
    time: datetime
    turns: list[dict[str, Any]] = field(default_factory=list)
    sid: str = ""


@dataclass
class Cue:
    dim: str
    kind: str  # behaviour | statement | update | correction | rejection | exception | state | distractor
    value: Any
    time: datetime
    form: str
    session: Session
    turn: int
    stale: bool = False


@dataclass
class Plan:
    dim: str
    value: Any
    source: str  # a scenario name, "asks" or "statement"
    statement: bool = False
    old: Any = None
    update_at: datetime | None = None
    rejected: Any = None
    wrong: Any = None  # corrected value
    exception: Any = None


@dataclass
class History:
    hid: str
    sessions: list[Session]
    cues: list[Cue]
    plans: dict[str, Plan]
    states: list[StateSpan]
    end: datetime

    def to_json(self) -> list[dict[str, Any]]:
        return [{"session_id": s.sid, "time": s.time.isoformat(), "turns": s.turns} for s in self.sessions]

    @property
    def turn_count(self) -> int:
        return sum(len(s.turns) for s in self.sessions)


def tool_at(scenario: Scenario, mode: Any) -> str:
    if len(scenario.tools) > 1:
        return "book_train" if mode == "train" else "book_flight"
    return scenario.tools[0]


def source_scenarios(persona: Persona, d: Dim, value: Any) -> list[str]:
    """Action scenarios whose past calls would show ``value`` of ``d``."""
    out = []
    for s in SCENARIOS:
        if s.task_type != "action" or d.key not in s.dims:
            continue
        if d.key == "travel.mode":
            out.append(s.name)
            continue
        bind = d.binding(tool_at(s, persona.prefs["travel.mode"]))
        if bind is not None and bind.arg.get(value) is not None:
            out.append(s.name)
    return out


def renderable(persona: Persona, d: Dim, source: str, value: Any) -> bool:
    """Whether the chosen source can show ``value`` (a tool argument, a feedback line, a statement)."""
    scen = BY_NAME.get(source)
    if scen is not None:
        bind = d.binding(tool_at(scen, persona.prefs["travel.mode"]))
        return d.key == "travel.mode" or (bind is not None and bind.arg.get(value) is not None)
    return source == "statement" or value in d.asks or "*" in d.asks


def enum_param(d: Dim, scenario: Scenario, persona: Persona) -> bool:
    bind = d.binding(tool_at(scenario, persona.prefs["travel.mode"]))
    if bind is None:
        return False
    schema = REGISTRY[bind.tool].parameters["properties"][bind.param]
    return "enum" in schema and bind.kind is None
