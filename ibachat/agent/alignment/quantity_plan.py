"""Numeric parameters of any tool, from amounts with units and comparators (``reading/quantities.py``).

What a parameter measures is read from its schema alone: its name and description (the closed class
of unit words: minutes, hours, price, people, percent, km...) and its bounds (0-23 is an hour of the
day). An amount the request states fills the parameter it fits best by meaning and is never
overridden ("a 30 minute call" -> the duration, not the reminder); amounts from the history that bear
on the parameter (by meaning) bound it: "meetings after 11 only" is a minimum for the start hour,
"give me half an hour" is the reminder's value, "under 150" is a maximum price. The later word wins.
A complaint about the outcome of a past value ("the ping came too late") moves that value
(``complaint_plan.py``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from ibachat.agent.alignment.complaint_plan import shift_from_complaints
from ibachat.agent.alignment.grounding import Embed, param_text
from ibachat.agent.alignment.scope import elsewhere, in_scope
from ibachat.agent.reading.open_prefs import NUMBER_DIM
from ibachat.agent.reading.quantities import Quantity
from ibachat.agent.reading.schema_map import Param, params
from memory.ledger import PreferenceEvent

BEAR_MIN_SIM = 0.25


@dataclass(frozen=True)
class Measure:
    unit: str  # minutes | hour | money | count | percent | distance | temperature | speed
    factor: float = 1.0  # parameter value = amount / factor (minutes -> an hours parameter: 60)
    bound: str = ""  # "max" for a cap ("max_price", "budget"), "min" for a floor ("min_rating")


_WORDS = re.compile(r"[a-z]+")
MONEY_WORDS = frozenset(
    "price prices cost costs budget fare fares amount spend spending pay paid usd eur gbp dollars euros pounds "
    "fee fees money rate tariff charge".split()
)


def measure(param: Param) -> Measure | None:
    """What a numeric parameter measures, from its name, description and bounds."""
    name = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", param.name).lower()
    desc = str(param.schema.get("description") or "").lower()
    words = set(_WORDS.findall(name.replace("_", " "))) | set(_WORDS.findall(desc))
    name_words = set(name.replace("-", "_").split("_"))
    bound = (
        "max"
        if name_words & {"max", "maximum", "limit", "cap", "budget", "upto", "ceiling"}
        or re.search(r"\b(?:at most|maximum|up to|no more than|the most)\b", desc)
        else "min"
        if name_words & {"minimum", "least", "floor"}
        or (name_words & {"min"} and "minutes" not in words)
        or re.search(r"\b(?:at least|minimum|the least)\b", desc)
        else ""
    )
    lo, hi = param.schema.get("minimum"), param.schema.get("maximum")
    if words & {"percent", "percentage", "pct"} or "%" in desc:
        return Measure("percent", 1.0, bound)
    if words & {"celsius", "fahrenheit", "degrees", "temperature", "temp"} or re.search(r"°[cf]?\b", desc):
        return Measure("temperature", 1.0, bound)  # read only by complaints ("way too hot"): no amounts fit
    if words & {"speed", "pace", "kph", "mph", "rpm", "tempo", "bpm"}:
        return Measure("speed", 1.0, bound)
    if words & MONEY_WORDS or re.search(r"[$€£]", desc):
        return Measure("money", 1.0, bound)
    if words & {"m", "metres", "meters", "metre", "meter"} or re.search(r"\bin (?:metres|meters)\b", desc):
        return Measure("distance", 0.001, bound)  # amounts of distance are read in km: "2 km" is 2000 here
    if words & {"km", "kilometres", "kilometers", "miles", "distance", "radius"}:
        return Measure("distance", 1.609 if "miles" in words else 1.0, bound)
    clock = words & {"start", "begin", "end", "earliest", "latest", "clock", "o'clock"} or "of day" in desc
    if "hour" in words and (clock or (hi is not None and hi <= 24 and "duration" not in words)):
        return Measure("hour", 1.0, bound)
    if re.search(r"(?:^|_)(?:mins?|minutes?)(?:_|$)", name) or words & {"minutes", "minute", "mins"}:
        return Measure("minutes", 1.0, bound)
    if words & {"hours", "hrs"} or re.search(r"(?:^|_)(?:hours?|hrs?)(?:_|$)", name):
        return Measure("minutes", 60.0, bound)
    if words & {"days"} and not words & {"nights"}:
        return Measure("minutes", 1440.0, bound)
    if words & {
        "people", "guests", "party", "size", "count", "number", "num", "passengers", "travellers", "travelers",
        "seats", "tickets", "quantity", "qty", "bags", "nights", "rooms", "stops", "layovers", "stars", "rating",
        "portions", "servings", "adults", "children", "kids", "words", "pages", "items",
    }:  # fmt: skip
        return Measure("count", 1.0, bound)
    del lo
    return None


def _fits(q: Quantity, m: Measure) -> bool:
    if q.unit == m.unit:
        return True
    return q.unit == "number" and m.unit in ("money", "count", "percent", "distance") and q.op in (">=", "<=")


def _in_range(q: Quantity, m: Measure, param: Param) -> bool:
    """Whether the amount, in the parameter's own unit, lies within the parameter's bounds: "a fortnight"
    is no number of reading minutes up to 120, but it is a number of days up to 365."""
    v = q.value / m.factor if q.unit == m.unit else q.value
    lo, hi = param.schema.get("minimum"), param.schema.get("maximum")
    return not (isinstance(lo, (int, float)) and v < lo) and not (isinstance(hi, (int, float)) and v > hi)


def _value(q: Quantity, m: Measure, param: Param) -> float | int:
    v = q.value / m.factor if q.unit == m.unit else q.value
    if param.kind == "integer":
        return int(round(v))
    return float(v)


def _amounts_in_force(events: list[PreferenceEvent], now: datetime) -> list[tuple[PreferenceEvent, Quantity]]:
    """The user's own amounts in force at ``now``, oldest first, each with its parsed quantity."""
    return [
        (e, q)
        for e in sorted(events, key=lambda e: e.valid_from)
        if e.dimension == NUMBER_DIM and e.speaker == "user" and e.valid_from <= now
        and (e.valid_until is None or now < e.valid_until)
        for q in [_parse(e.value)]
        if q is not None
    ]  # fmt: skip


def _parse(value: str) -> Quantity | None:
    m = re.match(r"^([a-z]+)(>=|<=|=)(-?[\d.]+)$", value)
    if not m:
        return None
    return Quantity(float(m.group(3)), m.group(1), m.group(2), value)


def numeric_enum(param: Param) -> bool:
    """A choice among amounts ("walk_minutes": 20, 30, 45, 60, 90): a scale a complaint moves along."""
    values = param.enum or []
    return (
        param.kind == "enum"
        and len(values) >= 2
        and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in values)
    )


def ground_numbers(
    plan: Any,
    tool: dict[str, Any],
    events: list[PreferenceEvent],
    now: datetime,
    embed: Embed | None,
    task: str,
) -> None:
    """Fill and bound the numeric parameters from the request's amounts, then the history's."""
    numeric = [(p, measure(p)) for p in params(tool) if p.kind in ("integer", "number") or numeric_enum(p)]
    numeric = [(p, m) for p, m in numeric if m is not None]
    if not numeric:
        return
    texts = {p.name: param_text(p.name, p.schema) for p, _ in numeric}

    def sims(sentence: str, names: list[str], clause: str = "") -> list[float]:
        """How near each parameter is to what was said: the sentence, or the clause that holds the
        amount ("nothing over three and a half hours door to door", without "or my back seizes up")."""
        if embed is None or not names:
            return [1.0 / (1 + i) for i in range(len(names))]
        said = [sentence] + ([clause] if clause and clause != sentence else [])
        mat = embed(said + [texts[n] for n in names])
        return [max(float(v @ mat[k]) for k in range(len(said))) for v in mat[len(said) :]]

    # 1. the request's own amounts, as ``request_values`` reads them in the whole schema: certain
    from ibachat.agent.alignment.request_values import stated_values, tool_about

    said_now = stated_values(tool.get("parameters") or {}, task, now, tool_about(tool))
    stated: set[str] = set()
    for p, m in numeric:
        hit = said_now.get(p.name)
        if p.kind == "enum":
            continue  # a stated value among the offered ones is the choices' to read
        if hit is None or isinstance(hit.value, bool) or not isinstance(hit.value, (int, float)):
            continue
        q = Quantity(float(hit.value) * m.factor, m.unit, hit.op, hit.quote)  # in the measure's base unit
        _apply(plan.params[p.name], q, m, p, f"the request says {hit.quote!r}", certain=True, quote=hit.quote)
        stated.add(p.name)
    # 2. the history's amounts that bear on a parameter the request left open; the later word wins
    said = _amounts_in_force(events, now)
    # an amount said about another activity ("under 30 a head when we eat out") is not this tool's
    scoped = in_scope([e.subject or e.value for e, _ in said], tool, embed)
    said = [pair for pair, ok in zip(said, scoped) if ok]
    past = {
        p.name
        for p, _ in numeric
        if any(e.dimension == f"param:{p.name}" and e.kind == "chose" for e in events)
    }
    for p, m in numeric:
        if p.name in stated:
            continue
        pd = plan.params[p.name]
        alone = past == {p.name}
        if pd.source != "task" and shift_from_complaints(
            plan, p, m.unit, texts[p.name], events, now, embed, alone
        ):
            continue  # a complaint about the last value moved it past that value
        if pd.source not in ("none", "", "default") or p.kind == "enum":
            continue
        fitting = [(e, q) for e, q in said if _fits(q, m)]
        for e, q in fitting:
            others = [o.name for o, om in numeric if _fits(q, om) and _in_range(q, om, o)]
            if p.name not in others:
                continue  # out of this parameter's own bounds in its unit
            scores = sims(e.subject or e.value, others, _clause_of(e))
            best = others[max(range(len(others)), key=lambda i: scores[i])]
            if best != p.name or max(scores) < BEAR_MIN_SIM:
                continue
            _apply(
                pd, q, m, p, f"you said {(e.subject or e.value)[:80]!r}", certain=False, evidence=e.evidence
            )
        if pd.chosen is None and p.required and (pd.minimum is not None or pd.maximum is not None):
            pd.chosen = pd.minimum if pd.minimum is not None else pd.maximum
            if p.kind == "integer" and pd.chosen is not None:
                pd.chosen = int(round(pd.chosen))


_BREAK = re.compile(
    r"[,;:.!?]|\b(?:and|or|but|so|because|cos|since|though)\s+(?=(?:i|i'm|my|it|it's|we|they|he|she|the|that)\b)"
)


def _clause_of(e: PreferenceEvent) -> str:
    """The stretch of an amount's sentence between the breaks around the amount (its words are in the
    event's reason): "nothing over three and a half hours door to door", not "or my back seizes up"."""
    span = e.reason.split("amount: ", 1)[1].split(";")[0].strip() if "amount: " in e.reason else ""
    text = (e.subject or "").lower()
    at = text.find(span.lower()) if span else -1
    if at < 0:
        return ""
    start = max((m.end() for m in _BREAK.finditer(text, 0, at)), default=0)
    stop = next((m.start() for m in _BREAK.finditer(text, at + len(span))), len(text))
    return text[start:stop].strip()


# a clock parameter whose name says it is a bound ("depart_after", "latest_start"): the user's bound is
# its value
_CLOCK_FLOOR = re.compile(r"(?:^|_)(?:after|earliest|from|not_before|no_earlier_than)(?:_|$)")
_CLOCK_CEILING = re.compile(r"(?:^|_)(?:before|latest|until|by|no_later_than)(?:_|$)")


def ground_clock_bounds(
    plan: Any, tool: dict[str, Any], events: list[PreferenceEvent], now: datetime, embed: Embed | None
) -> None:
    """Fill a clock parameter named for a bound ("depart_after": HH:MM) from the user's own bound on the
    hour ("nothing that leaves before quarter to nine": at or after 08:45), when it bears on it."""
    for p in params(tool):
        prop = p.schema
        pd = plan.params.get(p.name)
        if pd is None or pd.chosen is not None or pd.source not in ("none", "", "default"):
            continue
        clock = prop.get("type") == "string" and (
            "[0-5][0-9]" in str(prop.get("pattern") or "")
            or re.search(r"\bHH:MM\b", str(prop.get("description")))
        )
        name = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", p.name).lower()
        op = ">=" if _CLOCK_FLOOR.search(name) else "<=" if _CLOCK_CEILING.search(name) else ""
        if clock and not op and isinstance(prop.get("default"), str):
            _default_against_bound(pd, p, events, now, tool, embed)
            continue
        if not clock or not op:
            continue
        said = [(e, q) for e, q in _amounts_in_force(events, now) if q.unit == "hour" and q.op == op]
        said = [pair for pair, ok in zip(said, in_scope([e.subject for e, _ in said], tool, embed)) if ok]
        if not said:
            continue
        e, q = said[-1]  # the later word wins
        h = int(q.value) % 24
        m = int(round((q.value - int(q.value)) * 60))
        pd.chosen, pd.source, pd.certain = f"{h:02d}:{m:02d}", "open", False
        pd.reason = f"you said {(e.subject or e.value)[:80]!r}"
        pd.evidence = sorted(t for t in e.evidence if t)


def _default_against_bound(
    pd: Any, p: Param, events: list[PreferenceEvent], now: datetime, tool: dict[str, Any], embed: Embed | None
) -> None:
    """A clock's default that breaks the user's own bound on the hour ("I'm out the door by quarter to
    twelve every weekday" and an interview's usual 15:30) is not used: the plan asks for the time,
    quoting what the user said."""
    m = re.fullmatch(r"([0-2]?\d):([0-5]\d)", str(p.schema.get("default")))
    if m is None:
        return
    default = int(m.group(1)) + int(m.group(2)) / 60
    said = [(e, q) for e, q in _amounts_in_force(events, now) if q.unit == "hour" and q.op in ("<=", ">=")]
    # asking costs a question, not a wrong action: any bound not clearly about another activity counts
    # ("I'm at the school gates by 3pm" bears on an engineer's visit; "meetings after 11 only" does not)
    away = elsewhere([e.subject for e, _ in said], tool, embed)
    said = [pair for pair, far in zip(said, away) if not far]
    for e, q in reversed(said):  # the later word first
        if (q.op == "<=" and default > q.value) or (q.op == ">=" and default < q.value):
            label = p.name.replace("_", " ")
            quote = (e.subject or e.value)[:80]
            pd.question = (
                f"What {label} would you like? The usual {m.group(0)} goes against what you said: {quote!r}."
            )
            pd.evidence = sorted(t for t in e.evidence if t)
            return


def _apply(
    pd: Any,
    q: Quantity,
    m: Measure,
    p: Param,
    reason: str,
    *,
    certain: bool,
    quote: str = "",
    evidence: tuple[int, ...] = (),
) -> None:
    value = _value(q, m, p)
    lo, hi = p.schema.get("minimum"), p.schema.get("maximum")
    if (lo is not None and value < lo) or (hi is not None and value > hi):
        return
    if q.op == "=" or (q.op == "<=" and m.bound == "max") or (q.op == ">=" and m.bound == "min"):
        pd.chosen, pd.certain = value, certain
        if m.bound == "max":
            pd.maximum = value
    elif q.op == ">=":
        pd.minimum = value
        if pd.chosen is not None and pd.chosen < value:
            pd.chosen = value
    else:
        pd.maximum = value
        if pd.chosen is not None and pd.chosen > value:
            pd.chosen = value
    pd.source, pd.reason = ("task" if certain else "open"), reason
    pd.quote, pd.evidence = quote, sorted(t for t in evidence if t)
