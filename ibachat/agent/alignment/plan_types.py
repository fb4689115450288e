"""The alignment plan and its parts: what ``build_plan`` (``plan.py``) hands on to execution, the
TUI, ``ask --json`` and the plan store, and what every stage that fills it (``usual.py``,
``outcome_plan.py``, ...) writes into."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from datetime import datetime
from typing import Any

from ibachat.agent.types import PlannerCounters
from memory.plans import rounded

SHORT_WORDS = 120  # "short" without a number
LONG_MIN_WORDS = 200  # "detailed" without a number


@dataclass
class EvidenceUse:
    turn_id: int
    role: str
    time: str
    snippet: str
    why: list[str]
    score: float


@dataclass
class AppliedPreference:
    event_id: str
    target: str
    dimension: str
    value: str
    polarity: int
    kind: str
    status: str  # active | superseded | expired | one-off | ignored | future | outweighed
    note: str
    evidence: list[int]
    speaker: str
    valid_from: str
    valid_until: str | None
    scope: str
    confidence: float
    subject: str
    extractor: str


@dataclass
class ParamDirective:
    name: str
    kind: str
    chosen: Any = None
    allowed: list[Any] | None = None
    avoid: list[Any] = field(default_factory=list)
    minimum: float | None = None
    maximum: float | None = None
    certain: bool = False
    source: str = "none"
    reason: str = ""
    evidence: list[int] = field(default_factory=list)  # the remembered turns the chosen value rests on
    quote: str = ""  # for a value read from the request itself (source "task"): its words
    question: str = ""  # the one question the plan asks about this value, when it asks one


@dataclass
class TextDirectives:
    tone: list[str] = field(default_factory=list)
    length: str | None = None
    max_words: int | None = None
    min_words: int | None = None
    structure: str | None = None  # bullets | numbered | prose
    avoid_words: list[str] = field(default_factory=list)
    use_words: list[str] = field(default_factory=list)
    no_emoji: bool = False
    notes: list[str] = field(default_factory=list)

    def lines(self) -> list[str]:
        out = []
        if self.tone:
            out.append("Tone: " + ", ".join(self.tone) + ".")
        if self.max_words:
            out.append(f"Length: at most {self.max_words} words.")
        if self.min_words:
            out.append(f"Length: at least {self.min_words} words.")
        if self.structure == "bullets":
            out.append("Structure: bullet points ('- ' at the start of each line).")
        elif self.structure == "numbered":
            out.append("Structure: a numbered list ('1. ', '2. ', ...).")
        elif self.structure == "prose":
            out.append("Structure: plain paragraphs, no lists or bullet points.")
        if self.avoid_words:
            out.append("Never use these words: " + ", ".join(f'"{w}"' for w in self.avoid_words) + ".")
        if self.use_words:
            out.append("Use: " + ", ".join(f'"{w}"' for w in self.use_words) + ".")
        if self.no_emoji:
            out.append("No emoji.")
        out += [f"Keep in mind: {n}" for n in self.notes]
        return out


@dataclass
class AlignmentPlan:
    task: str
    now: datetime
    mode: str = "iba"
    tool: str | None = None
    evidence: list[EvidenceUse] = field(default_factory=list)
    preferences: list[AppliedPreference] = field(default_factory=list)
    conflicts: list[dict[str, Any]] = field(default_factory=list)
    params: dict[str, ParamDirective] = field(default_factory=dict)
    text: TextDirectives | None = None
    clarifications: list[str] = field(default_factory=list)
    context_notes: list[str] = field(default_factory=list)  # pasted evidence (ablations without alignment)
    content: dict[str, dict[str, Any]] = field(
        default_factory=dict
    )  # attribute -> chosen/avoid for free text
    counters: PlannerCounters = field(default_factory=PlannerCounters)

    def to_dict(self) -> dict[str, Any]:
        return rounded(  # what the TUI shows, `ask --json` prints and the plan store keeps are one record
            {
                "task": self.task,
                "now": self.now.isoformat(),
                "mode": self.mode,
                "tool": self.tool,
                "evidence": [asdict(e) for e in self.evidence],
                "preferences": [asdict(p) for p in self.preferences],
                "conflicts": list(self.conflicts),
                "params": {k: asdict(v) for k, v in self.params.items()},
                "text": asdict(self.text) if self.text else None,
                "clarifications": list(self.clarifications),
                "context_notes": list(self.context_notes),
                "content": dict(self.content),
                "counters": asdict(self.counters),
            }
        )

    def directive_lines(self) -> list[str]:
        """The plan as plain instructions for a model."""
        out: list[str] = []
        for p in self.params.values():
            if p.chosen is not None or p.allowed is not None or p.avoid or p.maximum is not None:
                bits = [f"{p.name}:"]
                if p.chosen is not None:
                    bits.append(f"use {p.chosen!r}")
                if p.avoid:
                    bits.append("never " + ", ".join(map(repr, p.avoid)))
                if p.maximum is not None:
                    bits.append(f"at most {p.maximum}")
                if p.minimum is not None:
                    bits.append(f"at least {p.minimum}")
                if p.reason:
                    bits.append(f"({p.reason[:100]})")
                out.append(" ".join(bits))
        if self.text is not None:
            out += self.text.lines()
        return out + self.context_notes

    def render(self, console: Any) -> None:
        """Show the plan with rich; every piece of user text goes in as plain Text (no markup)."""
        from rich.panel import Panel
        from rich.table import Table
        from rich.text import Text

        def table(title: str, *cols: str) -> Table:
            t = Table(title=title, title_justify="left", show_lines=False, expand=False)
            for c in cols:
                t.add_column(c, overflow="fold")
            return t

        head = f"Alignment plan ({self.mode}) at {self.now:%Y-%m-%d %H:%M}" + (
            f" for {self.tool}" if self.tool else ""
        )
        console.print(Panel(Text(self.task), title=Text(head)))
        if self.params:
            t = table("Parameters", "parameter", "chosen", "allowed / avoid", "why")
            for p in self.params.values():
                limits = []
                if p.allowed is not None:
                    limits.append("allowed: " + ", ".join(map(str, p.allowed)))
                if p.avoid:
                    limits.append("avoid: " + ", ".join(map(str, p.avoid)))
                if p.maximum is not None:
                    limits.append(f"max {p.maximum}")
                t.add_row(
                    Text(p.name),
                    Text("" if p.chosen is None else str(p.chosen)),
                    Text("; ".join(limits)),
                    Text(p.reason),
                )
            console.print(t)
        for line in self.directive_lines() if self.text is not None else []:
            console.print(Text("  " + line))
        if self.preferences:
            t = table("Preferences", "status", "kind", "preference", "since", "turns", "note")
            for p in self.preferences:
                sign = {1: "+", -1: "-", 0: "~"}[p.polarity]
                until = f" .. {p.valid_until[:10]}" if p.valid_until else ""
                t.add_row(
                    Text(p.status),
                    Text(p.kind),
                    Text(f"{sign}{p.dimension}={p.value}"),
                    Text(p.valid_from[:10] + until),
                    Text(",".join(map(str, p.evidence))),
                    Text(p.note or p.subject[:60]),
                )
            console.print(t)
        if self.conflicts:
            t = table("Conflicts", "on", "how", "why")
            for c in self.conflicts:
                t.add_row(Text(str(c["key"])), Text(str(c["how"])), Text(str(c["why"])))
            console.print(t)
        if self.evidence:
            t = table("Evidence", "turn", "role", "why kept", "snippet")
            for e in self.evidence:
                t.add_row(Text(str(e.turn_id)), Text(e.role), Text(", ".join(e.why)), Text(e.snippet[:100]))
            console.print(t)
        for q in self.clarifications:
            console.print(Text("? " + q))
        c = self.counters
        console.print(
            Text(
                f"model calls {c.model_calls}, tokens {c.prompt_tokens}+{c.completion_tokens}, fallbacks {len(c.fallbacks)}"
            )
        )
