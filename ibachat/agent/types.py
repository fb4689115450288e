"""Data passed between the planner's steps: evidence, preference events, the alignment plan."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from memory.types import Turn


@dataclass
class EvidenceItem:
    """A remembered turn kept as evidence, with why it was kept."""

    turn: Turn
    score: float  # salience after re-ranking; higher = more important
    facets: list[str] = field(default_factory=list)  # which sub-queries found it
    why: list[str] = field(default_factory=list)  # e.g. ["correction", "user's own words", "recent"]
    context: list[Turn] = field(default_factory=list)  # neighbouring turns of the same session


@dataclass
class Evidence:
    task: str
    items: list[EvidenceItem]
    subqueries: list[tuple[str, str]]  # (facet, query)
    stats: dict[str, Any] = field(default_factory=dict)  # candidates, dropped_duplicates, timings


@dataclass
class Source:
    """Where one proposed value comes from: what its reason line claims, in checkable form."""

    kind: str  # request | answer | plan | default | guess
    quote: str = ""  # the request's (or the answer's) own words that give it
    evidence: list[int] = field(default_factory=list)  # the remembered turns the plan's value rests on


@dataclass
class ToolCall:
    name: str
    arguments: dict[str, Any]
    reasons: dict[str, str] = field(default_factory=dict)  # per argument: why it has this value
    sources: dict[str, Source] = field(default_factory=dict)  # per argument: the reason, checkable
    defaults: list[str] = field(default_factory=list)  # arguments at the tool's default: never a choice
    questions: list[str] = field(default_factory=list)  # what must be asked before it runs (a missing day...)


@dataclass
class PlannerCounters:
    """Model usage and fallbacks for one planned turn."""

    model_calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    fallbacks: list[str] = field(default_factory=list)  # e.g. ["expand: malformed JSON"]
    timings_ms: dict[str, float] = field(default_factory=dict)


def iso(dt: datetime | None) -> str | None:
    return dt.isoformat() if dt else None
