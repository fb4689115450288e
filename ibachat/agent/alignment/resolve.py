"""Rule-based conflict resolution over a user's preference events, as of a moment.

Per dimension (or tool parameter), walking the events in time order: a later update or
correction supersedes an earlier statement; a rejection excludes a value until the user
asks for it again; explicit words outweigh habits (repeated past choices); a short-term
state overrides a long-term taste while it lasts; one-off exceptions, expired states,
assistant claims and instructions found inside memories never apply. Every conflict is
recorded with how and why it was resolved; a tie is flagged with a one-line question.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from ibachat.agent.reading.lexicon import BY_DIMENSION
from memory.ledger import PreferenceEvent

RANK = {
    "task": 5,
    "corrected": 4,
    "updated": 4,
    "rejected": 4,
    "stated": 3,
    "state": 3,
    "asked": 2,
    "chose": 1,
}
GENERIC = frozenset({"any", "no_preference", "none_preference", "either", "no preference"})
HABIT_MIN = 3
HABIT_HALF_LIFE_DAYS = 60.0
REQUEST_WEIGHT = {
    "asked": 2.0
}  # repeated choices that make a habit strong enough to question an old statement

WEAK_ONCE = "(weak: once)"  # a "habit" of a single past choice: no habit yet


@dataclass
class Domain:
    """The values a key can take (a parameter's enum, an attribute's values)."""

    values: list[str]
    exclusive: bool = True
    ordered: bool = False
    default: str | None = None
    label: str = ""


@dataclass
class Decision:
    key: str
    chosen: str | None
    prefer: list[str] = field(default_factory=list)
    avoid: list[str] = field(default_factory=list)
    acceptable: list[str] = field(default_factory=list)
    allowed: list[str] | None = None
    source: str = "none"  # task | state | correction | update | statement | request | habit | none
    reason: str = ""
    confidence: float = 0.0
    until: datetime | None = None
    events: list[str] = field(default_factory=list)
    needs_clarification: bool = False
    question: str = ""
    support: int = 0  # how many events back the chosen value

    def to_dict(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "chosen": self.chosen,
            "prefer": self.prefer,
            "avoid": self.avoid,
            "acceptable": self.acceptable,
            "allowed": self.allowed,
            "source": self.source,
            "reason": self.reason,
            "confidence": round(self.confidence, 3),
            "until": self.until.isoformat() if self.until else None,
            "events": self.events,
            "needs_clarification": self.needs_clarification,
            "question": self.question,
        }


@dataclass
class Conflict:
    key: str
    kept: list[str]
    overridden: list[str]
    how: str
    why: str

    def to_dict(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "kept": self.kept,
            "overridden": self.overridden,
            "how": self.how,
            "why": self.why,
        }


@dataclass
class Resolution:
    now: datetime
    decisions: dict[str, Decision] = field(default_factory=dict)
    conflicts: list[Conflict] = field(default_factory=list)
    status: dict[str, str] = field(
        default_factory=dict
    )  # event id -> active|superseded|expired|one-off|ignored|future|outweighed
    notes: dict[str, str] = field(default_factory=dict)
    events: dict[str, PreferenceEvent] = field(default_factory=dict)


def _is_task(e: PreferenceEvent) -> bool:
    return e.reason == "the task itself"


def _rank(e: PreferenceEvent) -> int:
    return RANK["task"] if _is_task(e) else RANK.get(e.kind, 0)


def _label(v: str) -> str:
    return v.replace("_", " ")


def _ended(events: Iterable[PreferenceEvent], now: datetime) -> dict[str, datetime]:
    """state name (or "any") -> when the user said it was over."""
    out: dict[str, datetime] = {}
    for e in events:
        if (
            e.dimension.startswith("state.")
            and e.value == "ended"
            and e.speaker == "user"
            and e.valid_from <= now
        ):
            name = e.dimension.split(".", 1)[1]
            out[name] = max(out.get(name, e.valid_from), e.valid_from)
    return out


def _state_name(e: PreferenceEvent) -> str | None:
    if e.reason.startswith("state:"):
        return e.reason.split(":", 1)[1]
    if e.dimension.startswith("state.") and e.kind == "state":
        return e.dimension.split(".", 1)[1]
    return None


def classify(
    e: PreferenceEvent, now: datetime, ended: dict[str, datetime], superseded: set[str]
) -> tuple[str, str]:
    """(status, why) of one event as of ``now``."""
    if e.kind == "ignored":
        return "ignored", e.reason or "instruction inside memory: never acted on"
    if e.kind == "claim" or (e.speaker != "user" and e.kind != "chose"):
        return "ignored", "the assistant's claim, not the user's words"
    if e.valid_from > now:
        return "future", f"starts {e.valid_from.date().isoformat()}"
    name = _state_name(e)
    stop = [t for n, t in ended.items() if (n == name or (n == "any" and name)) and e.valid_from < t]
    if stop and min(stop) <= now:
        return "expired", f"the user said it was over on {min(stop).date().isoformat()}"
    if e.valid_until is not None and e.valid_until <= now:
        return "expired", f"ended {e.valid_until.date().isoformat()}"
    if e.scope == "one-off" and not _is_task(e):
        return "one-off", e.reason or "a one-off exception: does not generalise"
    if e.id in superseded:
        return "superseded", "replaced by a later event"
    if e.value == "ended":
        return "ignored", "marks the end of a state"
    return "active", ""


def resolve(
    events: Sequence[PreferenceEvent],
    now: datetime,
    *,
    domains: dict[str, Domain] | None = None,
    superseded: Iterable[str] = (),
) -> Resolution:
    """Decide, per key, what the user wants at ``now`` from ``events``."""
    res = Resolution(now)
    domains = domains or {}
    gone = set(superseded)
    ended = _ended(events, now)
    groups: dict[str, list[PreferenceEvent]] = {}
    for e in events:
        res.events[e.id] = e
        status, why = classify(e, now, ended, gone)
        res.status[e.id], res.notes[e.id] = status, why
        if not e.dimension.startswith(("state.", "injection")):
            groups.setdefault(e.dimension, []).append(e)
    for key, group in groups.items():
        res.decisions[key] = _decide(key, group, now, domains.get(key), res)
    return res


def _exclusive(key: str, domain: Domain | None) -> bool:
    if domain is not None:
        return domain.exclusive
    attr = BY_DIMENSION.get(key)
    if attr is not None:
        return attr.exclusive
    return key not in ("text.avoid_words", "text.use_words")


def _decide(
    key: str, group: list[PreferenceEvent], now: datetime, domain: Domain | None, res: Resolution
) -> Decision:
    active = sorted((e for e in group if res.status[e.id] == "active"), key=lambda e: (e.valid_from, e.id))
    exclusive = _exclusive(key, domain)
    lasting = [e for e in active if not (e.kind == "state" and e.valid_until is not None) or _is_task(e)]
    temporary = [e for e in active if e not in lasting]
    pos: dict[str, PreferenceEvent] = {}
    avoid: dict[str, PreferenceEvent] = {}
    neutral: dict[str, PreferenceEvent] = {}
    habits: list[PreferenceEvent] = []
    for e in lasting:
        if e.kind == "chose" or (e.kind == "asked" and e.polarity > 0 and not _is_task(e)):
            habits.append(e)  # a one-time request is behaviour: it counts double, but it is no statement
            if e.kind == "asked" and e.value in avoid:
                _supersede(
                    res, key, avoid.pop(e.value), e, "asked for again", f"{_label(e.value)} requested again"
                )
        elif e.polarity > 0:
            for v, old in list(pos.items()):
                if exclusive and v != e.value and _rank(e) >= min(_rank(old), 3):
                    _supersede(
                        res,
                        key,
                        old,
                        e,
                        "later statement supersedes",
                        f"said {_label(e.value)} on {e.valid_from.date()}",
                    )
                    del pos[v]
            if e.value in avoid:
                _supersede(
                    res,
                    key,
                    avoid.pop(e.value),
                    e,
                    "asked for again",
                    f"{_label(e.value)} wanted again after being avoided",
                )
            pos[e.value] = e
        elif e.polarity < 0:
            if e.value in pos:
                _supersede(
                    res,
                    key,
                    pos.pop(e.value),
                    e,
                    "later rejection supersedes",
                    f"{_label(e.value)} avoided from {e.valid_from.date()}",
                )
            avoid[e.value] = e
        else:
            if e.value in avoid:
                _supersede(
                    res,
                    key,
                    avoid.pop(e.value),
                    e,
                    "later said it is fine",
                    f"{_label(e.value)} acceptable again",
                )
            neutral[e.value] = e
    d = Decision(key, None, allowed=list(domain.values) if domain else None)
    _long_term(d, key, pos, habits, exclusive, res)
    _temporary(d, key, temporary, res)
    for v, e in avoid.items():
        if v == d.chosen and any(t.value == v and t.polarity > 0 for t in temporary):
            # "nothing spicy this week" against a standing "mild is too mild": the state wins while it lasts
            res.conflicts.append(
                Conflict(
                    key,
                    [t.id for t in temporary if t.value == v and t.polarity > 0][:1],
                    [e.id],
                    "short-term state overrides long-term taste while it lasts",
                    f"{_label(v)} while the state lasts, though avoided otherwise",
                )
            )
            continue
        if v not in d.avoid:
            d.avoid.append(v)
            d.events.append(e.id)
    d.acceptable = [v for v in neutral if v not in d.avoid]
    if d.allowed is not None:
        d.allowed = [v for v in d.allowed if v not in d.avoid]
    if d.chosen is not None and d.chosen in d.avoid:
        d.chosen = None
    if d.chosen is None and d.avoid and domain is not None and d.allowed:
        d.chosen, note = _fallback(domain, d)
        d.reason = "; ".join(filter(None, [d.reason, note]))
        if d.chosen is None and any(v not in GENERIC for v in d.allowed):
            d.allowed = [v for v in d.allowed if v not in GENERIC]  # "any" could give what is avoided
    if d.chosen is None and d.prefer:
        d.chosen = next((v for v in d.prefer if v not in d.avoid), None)
    if d.avoid and not d.reason:
        d.reason = "avoid " + ", ".join(map(_label, d.avoid))
    return d


def _supersede(
    res: Resolution, key: str, old: PreferenceEvent, new: PreferenceEvent, how: str, why: str
) -> None:
    res.status[old.id], res.notes[old.id] = "superseded", f"{how}: {why}"
    res.conflicts.append(Conflict(key, [new.id], [old.id], how, why))


def _long_term(
    d: Decision,
    key: str,
    pos: dict[str, PreferenceEvent],
    habits: list[PreferenceEvent],
    exclusive: bool,
    res: Resolution,
) -> None:
    counts = Counter(e.value for e in habits)
    last_seen = {e.value: e for e in habits}
    if pos:
        ordered = sorted(pos.values(), key=lambda e: (_rank(e), e.valid_from), reverse=True)
        best = ordered[0]
        d.prefer = [e.value for e in ordered]
        d.chosen, d.confidence, d.support = best.value, best.confidence, 1 + counts.get(best.value, 0)
        d.source = {"task": "task", "corrected": "correction", "updated": "update", "asked": "request"}.get(
            "task" if _is_task(best) else best.kind, "statement"
        )
        said = best.subject or _label(best.value)
        implied = best.reason if best.reason.startswith("implied by avoiding") else ""  # not said itself
        d.reason = (f"{implied}: {said}" if implied else f"{d.source}: {said}")[:160]
        d.events.append(best.id)
        if (
            exclusive
            and len(ordered) > 1
            and _rank(ordered[1]) == _rank(best)
            and ordered[1].valid_from.date() == best.valid_from.date()
        ):
            d.needs_clarification = True
            d.question = (
                f"For {_key_label(key)}, do you want {_label(best.value)} or {_label(ordered[1].value)}?"
            )
            res.conflicts.append(
                Conflict(
                    key,
                    [best.id],
                    [ordered[1].id],
                    "tie: needs clarification",
                    "two equally strong statements on the same day",
                )
            )
        for value, n in counts.items():
            losers = [e.id for e in habits if e.value == value]
            if value == best.value:
                d.events += losers
                continue
            after = [e for e in habits if e.value == value and e.valid_from > best.valid_from]
            for i in losers:
                res.status[i], res.notes[i] = (
                    "outweighed",
                    f"explicit {_label(best.value)} outweighs the habit",
                )
            how = "explicit statement outweighs habit"
            why = f"{n} past choice(s) of {_label(value)}" + (
                f", {len(after)} since the statement" if after else ""
            )
            res.conflicts.append(Conflict(key, [best.id], losers, how, why))
            if len(after) >= HABIT_MIN and exclusive:
                d.question = (
                    d.question
                    or f"You said {_label(best.value)} but lately chose {_label(value)}: which one for {_key_label(key)}?"
                )
        return
    if not counts:
        return
    weight: dict[str, float] = {}
    for e in habits:  # recent choices count more: a habit can change without a word
        age = max(0.0, (res.now - e.valid_from).total_seconds() / 86400)
        weight[e.value] = weight.get(e.value, 0.0) + REQUEST_WEIGHT.get(e.kind, 1.0) * 0.5 ** (
            age / HABIT_HALF_LIFE_DAYS
        )
    top = sorted(counts.items(), key=lambda kv: (weight[kv[0]], last_seen[kv[0]].valid_from), reverse=True)
    best_value, n = top[0]
    d.chosen, d.source, d.support = best_value, "habit", n
    d.confidence = min(0.85, 0.3 + 0.12 * n)
    d.prefer = [v for v, _ in top] if not exclusive else [best_value]
    d.reason = f"habit: chose {_label(best_value)} {n} time(s)" + (f" {WEAK_ONCE}" if n == 1 else "")
    told = [e for e in habits if e.value == best_value]
    if all(e.kind != "chose" for e in told):  # asked for in words ("we keep kosher at home"), never a call
        said = max(told, key=lambda e: e.valid_from)
        d.reason = f"you said {(said.subject or _label(best_value))[:70]!r}"
    d.events += [e.id for e in habits if e.value == best_value]
    rivals = [v for v, _ in top[1:] if weight[v] >= 0.8 * weight[best_value]]
    if rivals and exclusive:
        d.needs_clarification = True
        d.question = f"For {_key_label(key)}, do you want {_label(best_value)} or {_label(rivals[0])}?"
    for value, _ in top:
        if value != best_value and exclusive:
            losers = [e.id for e in habits if e.value == value]
            for i in losers:
                res.status[i], res.notes[i] = "outweighed", f"chosen less often than {_label(best_value)}"
            res.conflicts.append(
                Conflict(
                    key,
                    d.events[-1:],
                    losers,
                    "more frequent (and recent) choice wins",
                    f"{_label(best_value)} {n}x vs {_label(value)} {counts[value]}x",
                )
            )


def _temporary(d: Decision, key: str, temporary: list[PreferenceEvent], res: Resolution) -> None:
    if not temporary:
        return
    wants = sorted(
        (e for e in temporary if e.polarity > 0), key=lambda e: (e.confidence, e.valid_from), reverse=True
    )
    for e in temporary:
        if e.polarity < 0 and e.value not in d.avoid:
            d.avoid.append(e.value)
            d.events.append(e.id)
            d.until = min(filter(None, [d.until, e.valid_until]), default=None)
    if not wants:
        return
    top = wants[0]
    if d.chosen is not None and d.chosen != top.value:
        kept = [i for i in d.events if res.events[i].value == d.chosen]
        res.conflicts.append(
            Conflict(
                key,
                [top.id],
                kept,
                "short-term state overrides long-term taste while it lasts",
                f"{_label(top.value)} until {top.valid_until.date() if top.valid_until else '?'}, then {_label(d.chosen)} again",
            )
        )
    d.chosen, d.source, d.confidence, d.until = top.value, "state", top.confidence, top.valid_until
    d.prefer = [top.value] + [v for v in d.prefer if v != top.value]
    d.reason = f"temporary until {top.valid_until.date() if top.valid_until else '?'}: {top.subject}"[:160]
    d.events.append(top.id)


def _fallback(domain: Domain, d: Decision) -> tuple[str | None, str]:
    """A value still allowed when the preferred ones are excluded."""
    allowed = d.allowed or []
    if not allowed:
        return None, ""
    if domain.ordered:
        pos = {v: i for i, v in enumerate(domain.values)}
        avoided = sorted(pos[v] for v in d.avoid if v in pos)
        want = next((pos[v] for v in d.prefer if v in pos), None)
        if want is not None:
            best = min(allowed, key=lambda v: (abs(pos[v] - want), pos[v]))
            return best, f"{_label(best)} is the closest allowed value"
        if avoided:
            high = avoided[0] > len(domain.values) / 2 - 1
            best = allowed[0] if high else allowed[-1]
            return best, f"{_label(best)}: furthest from what is avoided"
    specific = [v for v in allowed if v not in GENERIC]
    if domain.default in allowed and domain.default not in GENERIC:
        return domain.default, "the default, which is allowed"
    if len(specific) == 1 and any(v in GENERIC for v in domain.values):
        # "any" could give what is avoided, and one specific value is left: that one
        return specific[0], f"{_label(specific[0])}: a specific value, since 'any' could give what is avoided"
    if len(specific) == 1 and len(allowed) == 1:  # "skip the cutlery": the one value left
        return specific[0], f"{_label(specific[0])}: the only value left"
    return None, ""  # several are left and nothing tells them apart: asked, not picked


def _key_label(key: str) -> str:
    attr = BY_DIMENSION.get(key)
    if attr is not None:
        return attr.label
    return _label(key.split(":", 1)[-1].split(".")[-1])
