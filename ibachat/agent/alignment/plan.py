"""The alignment plan: what the history says this user wants for this task, and why.

``build_plan`` maps preference events onto the task's target (a tool's parameters, or
the text dimensions of an answer), resolves them as of ``now`` and writes directives:
for a tool, per parameter the allowed values or bounds and the chosen value with its
reason; for text, tone, length, structure and words to use or avoid. ``to_dict`` is
JSON-safe (saved with the turn it shaped); ``render`` shows it with rich, markup-safe.
"""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any

from ibachat.agent.alignment.body_plan import rule_out_injured
from ibachat.agent.alignment.complaint_plan import shift_graded_choices
from ibachat.agent.alignment.grounding import Embed
from ibachat.agent.alignment.open_plan import ground_tool
from ibachat.agent.alignment.outcome_plan import unsettle_passed, unsettle_unhappy
from ibachat.agent.alignment.plan_types import (
    LONG_MIN_WORDS,
    SHORT_WORDS,
    AlignmentPlan,
    AppliedPreference,
    EvidenceUse,
    ParamDirective,
    TextDirectives,
)
from ibachat.agent.alignment.quantity_plan import ground_clock_bounds, ground_numbers
from ibachat.agent.alignment.resolve import Decision, Domain, Resolution, resolve
from ibachat.agent.alignment.text_plan import text_constraints
from ibachat.agent.alignment.usual import apply_usual
from ibachat.agent.reading.lexicon import ATTRIBUTES, BY_DIMENSION, avoided_values, context_re
from ibachat.agent.reading.schema_map import EXACT, NUMERIC_DIMS, Param, bindings, map_event, params
from ibachat.agent.types import Evidence, PlannerCounters
from memory.ledger import PreferenceEvent, copy_event


def evidence_uses(evidence: Evidence | None, events: list[PreferenceEvent]) -> list[EvidenceUse]:
    if evidence is None:
        return []
    by_turn: dict[int, list[str]] = {}
    for e in events:
        for t in e.evidence:
            tag = (
                "ignored: instruction inside memory"
                if e.kind == "ignored"
                else f"{e.kind} {e.dimension.split('.')[-1]}={e.value}"
            )
            by_turn.setdefault(t, []).append(tag)
    out = []
    for item in evidence.items:
        t = item.turn
        out.append(
            EvidenceUse(
                t.id,
                t.role,
                t.time.isoformat(),
                t.text[:200],
                list(item.why) + by_turn.get(t.id, [])[:3],
                round(item.score, 3),
            )
        )
    return out


def _applied(
    res: Resolution, origin: dict[str, str], originals: dict[str, PreferenceEvent]
) -> list[AppliedPreference]:
    best: dict[str, tuple[str, str, str]] = {}
    order = ["active", "outweighed", "superseded", "expired", "one-off", "future", "ignored"]
    for cid, status in res.status.items():
        oid = origin.get(cid, cid)
        target = res.events[cid].dimension
        cur = best.get(oid)
        if cur is None or order.index(status) < order.index(cur[0]):
            best[oid] = (status, res.notes.get(cid, ""), target)
    out = []
    for oid, (status, note, target) in best.items():
        e = originals[oid]
        out.append(
            AppliedPreference(
                e.id,
                target,
                e.dimension,
                e.value,
                e.polarity,
                e.kind,
                status,
                note,
                list(e.evidence),
                e.speaker,
                e.valid_from.isoformat(),
                e.valid_until.isoformat() if e.valid_until else None,
                e.scope,
                e.confidence,
                e.subject,
                e.extractor,
            )
        )
    out.sort(key=lambda p: (order.index(p.status), p.valid_from))
    return out


def _open_applied(
    events: list[PreferenceEvent], now: datetime, superseded: set[str]
) -> list[AppliedPreference]:
    """Preferences kept in the user's own words, as the plan shows them."""
    out = []
    for e in events:
        if e.dimension != "open" or e.valid_from > now:
            continue
        expired = e.valid_until is not None and now >= e.valid_until
        status = "superseded" if e.id in superseded else "expired" if expired else "active"
        out.append(
            AppliedPreference(
                e.id, "open", e.dimension, e.value, e.polarity, e.kind, status, e.reason, list(e.evidence),
                e.speaker, e.valid_from.isoformat(), e.valid_until.isoformat() if e.valid_until else None,
                e.scope, e.confidence, e.subject, e.extractor,
            )
        )  # fmt: skip
    return out


def _content(d: Decision, res: Resolution | None = None) -> dict[str, Any]:
    """What free-text arguments must respect on one attribute (checked at execution)."""
    attr = BY_DIMENSION[d.key]
    avoid = list(d.avoid)
    if attr.exclusive and d.chosen and d.source not in ("habit", "none"):
        avoid += [v for v in attr.values if v != d.chosen and v not in avoid and v not in d.acceptable]
    return {
        "chosen": d.chosen,
        "avoid": avoid,
        "source": d.source,
        "until": d.until.isoformat() if d.until else None,
        "evidence": _turns(d, res),
    }


def _turns(d: Decision, res: Resolution | None) -> list[int]:
    """The remembered turns behind a decision's events."""
    if res is None:
        return []
    return sorted({t for eid in d.events if eid in res.events for t in res.events[eid].evidence if t})


def _typed(label: str, param: Param) -> Any:
    for v in param.enum:
        if str(v) == label:
            return v
    if param.kind == "boolean":
        return label == "true"
    if param.kind == "integer":
        return int(float(label))
    if param.kind == "number":
        return float(label)
    return label


def build_plan(
    task: str,
    now: datetime,
    events: list[PreferenceEvent],
    *,
    tool: dict[str, Any] | None = None,
    superseded: set[str] | None = None,
    evidence: Evidence | None = None,
    counters: PlannerCounters | None = None,
    mode: str = "iba",
    embed: Embed | None = None,
) -> AlignmentPlan:
    """Resolve ``events`` as of ``now`` and write the plan for ``task`` (a tool call or text).

    ``embed`` (texts -> vectors) turns on the open-world layer: preferences in the user's own
    words grounded into any tool by meaning (``open_plan.py``)."""
    plan = AlignmentPlan(
        task, now, mode, tool.get("name") if tool else None, counters=counters or PlannerCounters()
    )
    superseded = superseded or set()
    originals = {e.id: e for e in events}
    if tool:
        events = scoped(anchored(events, tool, task, now), tool, embed)
        res, origin = _tool_resolution(tool, events, now, superseded)
        plan.preferences = _applied(res, origin, originals)  # (grounding reads when each value was said)
        _tool_directives(plan, tool, res)
        apply_usual(plan, tool, res, embed, [e for e in events if e.id not in superseded])
        content, _ = lexicon_resolution(events, now, superseded, set(BY_DIMENSION))
        plan.content = {k: _content(d, content) for k, d in content.decisions.items() if d.chosen or d.avoid}
        live = [e for e in events if e.id not in superseded]
        if embed is not None:
            ground_tool(plan, tool, live, now, embed, task)
        past_values = [e for e in res.events.values() if e.dimension.startswith("param:")]  # for complaints
        ground_numbers(plan, tool, live + past_values, now, embed, task)
        ground_clock_bounds(plan, tool, live, now, embed)
        shift_graded_choices(tool, plan, live + past_values, now, embed)  # "way too firm": medium, not firm
        unsettle_unhappy(plan, tool, live, now, embed)  # "woke up drenched, awful night": not that again
        unsettle_passed(plan, tool, live, now)  # chosen while "my sister's staying for three weeks": not now
        rule_out_injured(plan, tool, live, now)  # "sprained my wrist": no bouldering while it lasts
    else:
        res, origin = _text_resolution(task, events, now, superseded)
        plan.text = _text_directives(res)
        live = [e for e in events if e.id not in superseded]
        every, _ = lexicon_resolution(events, now, superseded, set(BY_DIMENSION))
        plan.text.notes += text_constraints(live, every, now, embed, task)
    plan.preferences = _applied(res, origin, originals)
    plan.conflicts = [
        c.to_dict()
        | {"kept": [origin.get(i, i) for i in c.kept], "overridden": [origin.get(i, i) for i in c.overridden]}
        for c in res.conflicts
    ]
    plan.preferences += _open_applied(events, now, superseded)
    asked = [d.question for d in res.decisions.values() if d.question]
    # and what grounding put to the user ("You usually had whole milk, but since then ..."), once each
    asked += [pd.question for pd in plan.params.values() if pd.question and pd.source == "none"]
    plan.clarifications = list(dict.fromkeys(asked))
    plan.evidence = evidence_uses(evidence, events)
    return plan


def scoped(events: list[PreferenceEvent], tool: dict[str, Any], embed: Embed | None) -> list[PreferenceEvent]:
    """The user's statements that may apply to this tool: not those said of another activity or of the
    assistant's replies ("could your replies be brief?" is no news briefing's format), by
    ``scope.in_scope``. The request's own words, past calls and states in force apply where they bear."""
    from ibachat.agent.alignment.scope import in_scope

    own = set((tool.get("parameters") or {}).get("properties") or {})
    judged = [
        e
        for e in events
        if e.subject
        and e.kind not in ("chose", "state", "claim", "ignored")
        and e.reason != "the task itself"
        and not e.dimension.startswith(("state.", "injection", "open"))
        and e.dimension not in _OF_THE_PERSON
        and not _names_own_param(e, own)
    ]
    if not judged or embed is None:
        return events
    verdict = dict(zip((e.id for e in judged), in_scope([e.subject for e in judged], tool, embed)))
    return [e for e in events if verdict.get(e.id, True)]


# what is true of the person whatever they were doing when they said it (an allergy, an intolerance):
# "I can't eat dairy" said over coffee holds at a restaurant too
_OF_THE_PERSON = frozenset({"food.allergen"})


def _names_own_param(e: PreferenceEvent, own: set[str]) -> bool:
    """A statement read as about one of this tool's own parameters that names it in so many words ("my
    doctor says no caffeine for me": caffeine) is about it, however near another activity the rest of
    the sentence is (a doctor, an appointment)."""
    attr = e.dimension.rsplit(".", 1)[-1]
    words = attr.replace("_", " ")
    return attr in own and re.search(rf"\b{re.escape(words)}\b", e.subject.lower()) is not None


def anchored(
    events: list[PreferenceEvent], tool: dict[str, Any], task: str, now: datetime
) -> list[PreferenceEvent]:
    """Past calls of this tool, as far as they bear on this request: a habit kept at one place
    ("hot" at Saffron Lantern) is that place's. When the request names the place that serves it (a
    venue parameter: a restaurant, a shop, a studio; not a trip's ends), only the calls made there count; with no call there, only what the user
    chose the same way at two places or more (a habit that holds at every place)."""
    from ibachat.agent.alignment.request_values import is_venue, stated_value, tool_about
    from ibachat.agent.alignment.usual import free_text

    name = str(tool.get("name", ""))
    props = (tool.get("parameters") or {}).get("properties") or {}
    anchors = {
        p: str(v).lower()
        for p, prop in props.items()
        if isinstance(prop, dict)
        and free_text(prop)
        and is_venue(p, prop)
        and (v := stated_value(p, prop, task, now, tool.get("parameters"), tool_about(tool))) is not None
    }
    if not anchors:
        return events
    calls: dict[int, dict[str, set[str]]] = {}
    for e in events:
        if e.kind == "chose" and e.dimension.startswith(name + "."):
            for t in e.evidence:
                calls.setdefault(t, {}).setdefault(e.dimension.split(".", 1)[1], set()).add(
                    str(e.value).lower()
                )
    if not calls:
        return events
    here = {t for t, c in calls.items() if all(v in c.get(p, set()) for p, v in anchors.items())}
    if here:  # the calls made there
        return [
            e
            for e in events
            if not (e.kind == "chose" and e.dimension.startswith(name + ".") and not set(e.evidence) & here)
        ]
    where: dict[tuple[str, str], set[tuple[str, ...]]] = {}  # (param, value) -> the places it was chosen at
    for c in calls.values():
        place = tuple(sorted(next(iter(c.get(a, {""}))) for a in anchors))
        for param, values in c.items():
            for v in values:
                where.setdefault((param, v), set()).add(place)
    everywhere = {k for k, places in where.items() if len(places) >= 2}
    return [
        e
        for e in events
        if not (
            e.kind == "chose"
            and e.dimension.startswith(name + ".")
            and (e.dimension.split(".", 1)[1], str(e.value).lower()) not in everywhere
        )
    ]


def _tool_resolution(
    tool: dict[str, Any], events: list[PreferenceEvent], now: datetime, superseded: set[str]
) -> tuple[Resolution, dict[str, str]]:
    binds = bindings(tool)
    mapped: list[PreferenceEvent] = []
    origin: dict[str, str] = {}
    gone: set[str] = set()
    seen: set[tuple[Any, ...]] = set()
    domains: dict[str, Domain] = {}
    for param in params(tool):
        key = f"param:{param.name}"
        domains[key] = _domain(param, binds[param.name])
        for e in events:
            for label, pol in map_event(e, tool, param, binds[param.name]):
                sig = (key, label, pol, e.kind, e.evidence, e.valid_from)
                if sig in seen:
                    continue
                seen.add(sig)
                c = copy_event(e, dimension=key, value=label, polarity=pol)
                origin[c.id] = e.id
                mapped.append(c)
                if e.id in superseded:
                    gone.add(c.id)
    context = [
        e for e in events if e.dimension.startswith(("state.", "injection")) or e.kind in ("claim", "ignored")
    ]
    res = resolve(mapped + context, now, domains=domains, superseded=gone)
    return res, origin


def _domain(param: Param, binds: list[Any]) -> Domain:
    default = param.schema.get("default")
    if param.kind in ("enum", "list_enum"):
        labels = param.labels
        ranks: dict[str, int] = {}
        for b in binds:
            ranks.update(b.rank)
        ordered = len(ranks) >= 2
        if ordered:
            labels = sorted(labels, key=lambda lab: (ranks.get(lab, 99), labels.index(lab)))
        return Domain(
            labels,
            exclusive=param.kind == "enum",
            ordered=ordered,
            default=None if default is None else str(default),
        )
    if param.kind == "boolean":
        return Domain(["true", "false"], default=None if default is None else str(default).lower())
    return Domain([], exclusive=param.kind not in ("list",), default=None)


def _tool_directives(plan: AlignmentPlan, tool: dict[str, Any], res: Resolution) -> None:
    for param in params(tool):
        d = res.decisions.get(f"param:{param.name}")
        pd = ParamDirective(param.name, param.kind)
        plan.params[param.name] = pd
        if d is None:
            continue
        pd.source, pd.reason, pd.evidence = d.source, d.reason, _turns(d, res)
        certain = (
            d.chosen is not None
            and (
                d.source in ("task", "state", "correction", "update", "statement", "request")
                or d.confidence >= 0.5
            )
            and not d.needs_clarification
        )
        if param.kind == "enum":
            pd.avoid = [_typed(v, param) for v in d.avoid]
            pd.allowed = [_typed(v, param) for v in (d.allowed or [])] or None if d.avoid else None
            pd.chosen = _typed(d.chosen, param) if d.chosen is not None else None
            pd.certain = certain
        elif param.kind == "list_enum" or (param.kind == "list" and param.negative):
            chosen = [v for v in d.prefer if v not in d.avoid] or ([d.chosen] if d.chosen else [])
            pd.chosen = [_typed(v, param) for v in dict.fromkeys(chosen)] or None
            pd.avoid = [_typed(v, param) for v in d.avoid]
            if param.kind == "list_enum" and d.avoid:
                pd.allowed = [_typed(v, param) for v in (d.allowed or [])]
            pd.certain = pd.chosen is not None
        elif param.kind == "boolean":
            pd.chosen = d.chosen == "true" if d.chosen in ("true", "false") else None
            pd.certain = certain and pd.chosen is not None
        elif (
            param.kind == "string"
            and d.chosen is not None
            and d.source == "habit"
            and (said := repeated(str(d.chosen), plan.task))
        ):
            # "at kwik motors": the request names a past call's value again
            pd.chosen, pd.certain, pd.source, pd.quote = d.chosen, True, "request", said
            pd.reason = f'your request: "{said}"'
        elif param.kind == "string" and d.chosen is not None and (d.source != "habit" or d.support >= 2):
            pd.chosen, pd.certain = d.chosen, False  # the task's own words win at execution
        elif param.kind in ("integer", "number") and d.chosen is not None:
            value = _typed(d.chosen, param)
            if re.search(r"max|limit|budget|cap", param.name.lower()):
                pd.maximum = value
            pd.chosen, pd.certain = value, certain


def repeated(value: str, task: str) -> str:
    """The request's words that say a remembered name again, in any case ("book it in at kwik motors"):
    a name of two words or more, one capitalised word, or a lower-case word the request uses as a noun
    ("book me into spin"), so that no verb or function word is taken for a name."""
    words = value.split()
    if not words or len(value) < 4:
        return ""
    m = re.search(rf"(?i)(?<![\w-]){re.escape(value)}(?![\w-])", task)
    if m is None and len(words) >= 2 and words[0][:1].isupper() and len(words[0]) >= 4:
        # "book Shine for thursday" of "Shine Cleaners": the name's first word, with its capital, not
        # where a sentence starts
        first = re.search(rf"(?<=[a-z,] ){re.escape(words[0])}(?![\w-])", task)
        return first.group(0) if first else ""
    if m is None:
        return ""
    if len(words) >= 2 or value[:1].isupper():
        return m.group(0)
    # one lower-case word: only as a thing named ("book me into spin"), never a verb or a function word
    from ibachat.agent.reading.parse import parse

    named = [t for t in parse(task) if t.idx == m.start() and t.pos_ in ("NOUN", "PROPN")]
    return m.group(0) if named else ""


def _text_resolution(
    task: str, events: list[PreferenceEvent], now: datetime, superseded: set[str]
) -> tuple[Resolution, dict[str, str]]:
    wanted = {a.dimension for a in ATTRIBUTES if a.dimension.startswith("text.")} | {
        k for k in NUMERIC_DIMS if k.startswith("text.")
    }
    wanted |= {"text.avoid_words", "text.use_words"}
    low = task.lower()
    for attr in ATTRIBUTES:
        if attr.dimension.startswith("text."):
            continue
        if (attr.context and context_re(attr.context).search(low)) or any(
            re.search(rf"\b{re.escape(a)}\b", low) for a in attr.aliases
        ):
            wanted.add(attr.dimension)
    return lexicon_resolution(events, now, superseded, wanted)


def lexicon_resolution(
    events: list[PreferenceEvent], now: datetime, superseded: set[str], wanted: set[str]
) -> tuple[Resolution, dict[str, str]]:
    """Resolve events on lexicon dimensions (avoided scale values expanded)."""
    chosen: list[PreferenceEvent] = []
    origin: dict[str, str] = {}
    gone: set[str] = set()
    for e in events:
        if (
            e.dimension in wanted
            or e.dimension.startswith(("state.", "injection"))
            or e.kind in ("claim", "ignored")
        ):
            attr = BY_DIMENSION.get(e.dimension)
            if e.polarity < 0 and attr is not None and attr.scale and not e.reason.startswith(EXACT):
                for v in avoided_values(attr, e.value, generic=False):
                    c = copy_event(e, value=v)
                    origin[c.id] = e.id
                    chosen.append(c)
                    if e.id in superseded:
                        gone.add(c.id)
                continue
            chosen.append(e)
            if e.id in superseded:
                gone.add(e.id)
    domains = {
        a.dimension: Domain(
            list(a.scale or a.values), exclusive=a.exclusive, ordered=bool(a.scale), label=a.label
        )
        for a in ATTRIBUTES
        if a.dimension in wanted
    }
    return resolve(chosen, now, domains=domains, superseded=gone), origin


def _text_directives(res: Resolution) -> TextDirectives:
    t = TextDirectives()
    dec: dict[str, Decision] = res.decisions
    length = dec.get("text.length")
    if length and length.chosen:
        t.length = length.chosen
        t.max_words = SHORT_WORDS if length.chosen == "short" else None
        t.min_words = LONG_MIN_WORDS if length.chosen == "long" else None
    for key, attr in (("text.max_words", "max_words"), ("text.min_words", "min_words")):
        d = dec.get(key)
        if d and d.chosen and d.chosen.isdigit():
            setattr(t, attr, int(d.chosen))
    if t.max_words and t.min_words and t.min_words > t.max_words:
        t.min_words = None
    structure = dec.get("text.structure")
    if structure and structure.chosen:
        t.structure = structure.chosen
    for key in ("text.formality", "text.tone"):
        d = dec.get(key)
        if d:
            t.tone += [
                v.replace("_", " ")
                for v in (d.prefer if key == "text.tone" else [d.chosen])
                if v and v not in d.avoid
            ]
    emoji = dec.get("text.emoji")
    t.no_emoji = bool(emoji and "emoji" in emoji.avoid)
    if emoji and emoji.chosen == "emoji" and "emoji" not in emoji.avoid:
        t.notes.append("the user likes emoji")
    jargon = dec.get("text.jargon")
    if jargon and jargon.chosen == "plain":
        t.notes.append("plain language, no jargon")
    if dec.get("text.avoid_words"):
        t.avoid_words = list(dict.fromkeys(dec["text.avoid_words"].avoid))
    if dec.get("text.use_words"):
        t.use_words = [v for v in dec["text.use_words"].prefer if v not in t.avoid_words]
    return t  # what else the answer must respect (diet, states, what is avoided): ``text_plan.py``
