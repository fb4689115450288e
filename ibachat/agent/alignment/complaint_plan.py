"""A complaint about an outcome moves the amount that produced it: "the ping came too late".

The outcome is the user's latest past call with a value for the parameter; the complaint came after
it. Whether the complaint bears on this parameter, and which way it moves it, comes from the
complaint's adjective against the poles of the parameter's own scale: a time of day
runs early - late, a duration short - long, a lead time ("minutes before", "notice") the other way
round for lateness (more notice is earlier), money cheap - expensive, counts few - many, distance
near - far, a temperature cold - hot, a speed slow - fast, a share of full strength (volume,
brightness) quiet/dim - loud/bright. The new value is bounded past the old one; a value the user used before that satisfies
the bound is taken (the nearest), otherwise the bound itself; the reason says which (the card the
user approves shows it).
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta
from typing import Any

from ibachat.agent.alignment.grounding import Embed
from ibachat.agent.reading.complaints import COMPLAINT_DIM, parse_label
from ibachat.agent.reading.schema_map import Param
from memory.ledger import PreferenceEvent

# The closed class of scale adjectives, by pole: (high pole words, low pole words, +1 when the high
# pole means a higher value). A sentence embedder puts antonyms close together ("too late" and
# "too early" are 0.79 apart in MiniLM), so the pole words say the direction; an adjective outside
# them gets one only when its meaning is clearly nearer one pole (``POLE_MARGIN``).
Axis = tuple[frozenset[str], frozenset[str], int]


def _axis(hi: str, lo: str, d: int) -> Axis:
    return frozenset(hi.split()), frozenset(lo.split()), d


_LATE = ("late later tardy delayed last-minute", "early earlier soon premature")
_LONG = ("long longer lengthy drawn-out overlong endless", "short shorter brief rushed quick")
_GENERAL = [
    _axis("high higher", "low lower", 1),
    _axis("big bigger large huge", "small smaller tiny", 1),
    _axis("much more", "little less", 1),
]
_AXES: dict[str, list[Axis]] = {
    "hour": [_axis(*_LATE, 1)],
    "minutes": [_axis(*_LONG, 1)],
    "lead": [_axis(*_LATE, -1), _axis(*_LONG, 1)],
    "money": [_axis("expensive pricey costly steep overpriced dear", "cheap cheaper inexpensive", 1)],
    "count": [_axis("many crowded busy packed", "few sparse empty", 1)],
    "distance": [_axis("far distant remote", "near close", 1)],
    # a share of full strength: a speaker's volume, a lamp's brightness
    "percent": [
        _axis(
            "loud louder noisy deafening bright brighter glaring strong stronger intense harsh",
            "quiet quieter faint dim dimmer dark darker soft weak weaker gentle",
            1,
        )
    ],
    "temperature": [
        _axis(
            "hot hotter warm warmer boiling scorching roasting stuffy sweltering",
            "cold colder cool cooler freezing icy lukewarm tepid",
            1,
        )
    ],
    "speed": [_axis("fast faster quick quicker rushed hurried brisk", "slow slower sluggish leisurely", 1)],
}
_LEAD = re.compile(r"\b(?:before|ahead|advance|notice|warning|prior|lead|beforehand|earlier)\b")
POLE_MIN_SIM = 0.6  # an adjective outside the pole words: this near one pole
POLE_MARGIN = 0.12  # and this much nearer to it than to the other
BEAR_MIN_SIM = 0.25  # a complaint off the parameter's own scale must be this near it in meaning
# or say only an amount ("too little", "way more than that"), within this long of a past call that set
# one amount: the outcome just had, which a person complains of in the days after, not months on
RECENT = timedelta(days=7)
_AMOUNT = frozenset({"much", "little"})


def _direction(adjective: str, axes: list[Axis], embed: Embed | None) -> int:
    """+1 when the adjective says the value was too high, -1 too low, 0 when no pole is near."""
    for hi, lo, d in axes:  # the unit's own scale first, then the general ones
        if adjective in hi or adjective in lo:
            return d if adjective in hi else -d
    if embed is None or not axes:
        return 0
    said = f"that was way too {adjective}"
    poles = [f"that was way too {sorted(words)[0]}" for hi, lo, _ in axes for words in (hi, lo)]
    mat = embed([said] + poles)
    best, out = 0.0, 0
    for k, (_, _, d) in enumerate(axes):
        s_hi, s_lo = float(mat[0] @ mat[1 + 2 * k]), float(mat[0] @ mat[2 + 2 * k])
        near = max(s_hi, s_lo)
        if near >= POLE_MIN_SIM and abs(s_hi - s_lo) >= POLE_MARGIN and near > best:
            best, out = near, (d if s_hi > s_lo else -d)
    return out


def _number(value: str) -> float | None:
    try:
        return float(value)
    except (TypeError, ValueError):
        return None


def shift_from_complaints(
    plan: Any,
    param: Param,
    unit: str,
    about: str,
    events: list[PreferenceEvent],
    now: datetime,
    embed: Embed | None,
    alone: bool = False,
) -> bool:
    """Bound ``param`` past its last value when a complaint followed it; True when it did. ``alone``:
    the last call set no other amount, so a complaint of an amount alone is of this one."""
    key = f"param:{param.name}"
    past = sorted(
        (e for e in events if e.dimension == key and e.kind == "chose" and e.valid_from <= now),
        key=lambda e: e.valid_from,
    )
    values = [(e, v) for e in past for v in [_number(e.value)] if v is not None]
    if not values:
        return False
    last_event, last = values[-1]
    found = [
        e
        for e in events
        if e.dimension == COMPLAINT_DIM
        and e.speaker == "user"
        and last_event.valid_from <= e.valid_from <= now
    ]
    if not found:
        return False
    own = _AXES["lead" if unit == "minutes" and _LEAD.search(about) else unit]
    for e in sorted(found, key=lambda e: e.valid_from, reverse=True):
        parsed = parse_label(e.value)
        if parsed is None:
            continue
        adjective, sign = parsed
        way = _direction(adjective, own, None)  # "too early" for a start hour: the scale says it
        if way == 0 and embed is not None:  # "too much": any amount's scale, if it is about this one
            mat = embed([e.subject or adjective, about])
            # "she needs way more than that", within days of a call that had one amount: "that" is it
            that_call = alone and adjective in _AMOUNT and e.valid_from - last_event.valid_from <= RECENT
            if float(mat[0] @ mat[1]) >= BEAR_MIN_SIM or that_call:
                way = _direction(adjective, own + _GENERAL, embed)
        way *= sign
        if way == 0:
            continue
        whole = param.kind == "integer" or all(isinstance(v, int) for v in param.enum or [0.5])
        step = 1.0 if whole else max(abs(last) * 0.1, 1e-3)
        pd = plan.params[param.name]
        used = sorted(
            {v for _, v in values if (v < last if way > 0 else v > last)}, key=lambda v: abs(v - last)
        )
        if way > 0:
            pd.maximum = last - step if pd.maximum is None else min(pd.maximum, last - step)
        else:
            pd.minimum = last + step if pd.minimum is None else max(pd.minimum, last + step)
        lo, hi = param.schema.get("minimum"), param.schema.get("maximum")
        offered = sorted(float(v) for v in param.enum or [])
        if offered:  # a choice among amounts: only the offered ones past the last
            used = [v for v in used if v in offered]
            offered = [v for v in offered if (v < last if way > 0 else v > last)]
            if not offered:
                return False
        if used:
            value, how = used[0], f"you used {used[0]:g} before"
        elif offered:
            value, how = (offered[-1] if way > 0 else offered[0]), "the next value offered past it"
        else:
            value, how = (pd.maximum if way > 0 else pd.minimum), "the nearest value past it"
        if (lo is not None and value < lo) or (hi is not None and value > hi):
            return False
        same = [v for v in param.enum or [] if float(v) == value]
        pd.chosen = same[0] if same else int(round(value)) if param.kind == "integer" else value
        pd.certain = False
        pd.source = "open"
        pd.reason = f"you said {(e.subject or e.value)[:70]!r} after {last:g}: {how}"
        pd.evidence = sorted(t for t in e.evidence if t)
        return True
    return False


# Values of a graded choice that mean none of it (a closed class): the end of the scale with the least
NOTHING = frozenset({"none", "no", "off", "zero", "nil", "without"})


def shift_graded_choices(
    tool: dict[str, Any], plan: Any, events: list[PreferenceEvent], now: datetime, embed: Embed | None
) -> None:
    """A complaint after a call moves a graded choice (three or more values in the order of a scale:
    "none, light, medium, heavy"; "light, medium, firm") one value past the last one, away from the
    end it says was overdone: "too much" or "too little" by the end that means none of it (the list's
    own order when neither does), an adjective by its pole words (``_end_overdone``). The complaint
    bears on the choice when it is near it in meaning, or when the last call made no other graded one."""
    from ibachat.agent.alignment.grounding import param_text
    from ibachat.agent.reading.schema_map import params

    graded = [
        p
        for p in params(tool)
        if p.kind == "enum" and len(p.enum) >= 3 and all(isinstance(v, str) for v in p.enum)
    ]
    for param in graded:
        pd = plan.params.get(param.name)
        if pd is None or pd.source in ("task", "open", "stated"):
            continue
        past = sorted(
            (
                e
                for e in events
                if e.dimension == f"param:{param.name}" and e.kind == "chose" and e.valid_from <= now
            ),
            key=lambda e: e.valid_from,
        )
        if not past or past[-1].value not in param.labels:
            continue
        last = past[-1]
        others = [
            p
            for p in graded
            if p is not param
            and any(e.dimension == f"param:{p.name}" and e.valid_from == last.valid_from for e in events)
        ]
        found = sorted(
            (
                e
                for e in events
                if e.dimension == COMPLAINT_DIM
                and e.speaker == "user"
                and last.valid_from <= e.valid_from <= now
            ),
            key=lambda e: e.valid_from,
            reverse=True,
        )
        for e in found:
            parsed = parse_label(e.value)
            if parsed is None:
                continue
            adjective, sign = parsed
            way = _end_overdone(param.labels, adjective)  # +1: the last end, -1: the first
            if way == 0:
                continue
            bears = not others and e.valid_from - last.valid_from <= RECENT
            if not bears and embed is not None:
                mat = embed([e.subject or adjective, param_text(param.name, param.schema)])
                bears = float(mat[0] @ mat[1]) >= BEAR_MIN_SIM
            if not bears:
                continue
            at = param.labels.index(last.value)
            to = at - way * sign
            if not 0 <= to < len(param.labels):
                break  # already at the end the complaint moves away from
            pd.chosen, pd.certain, pd.source = param.enum[to], False, "open"
            pd.avoid = [v for v in pd.avoid if v != param.enum[to]] + [last.value]
            pd.reason = f"you said {(e.subject or e.value)[:70]!r} after {last.value}: the next value past it"
            pd.evidence = sorted(t for t in e.evidence if t)
            break


def _end_overdone(labels: list[str], adjective: str) -> int:
    """Which end of a graded choice a complaint's adjective names: +1 the last value's, -1 the first's, 0
    when the choice is no scale the complaint speaks of. A small sentence embedder puts antonyms
    together ("too thick" is nearer "too thin" than "too stuffed"), so the scale is the closed-class
    pole words': "too much" / "too little" need an end that means none of it ("none, light, medium,
    heavy"); an adjective needs an end value among its own pole words ("too firm" and "light, medium,
    firm"; "too brief" says nothing of "notification, email, sms")."""
    first, last = set(labels[0].lower().split("_")), set(labels[-1].lower().split("_"))
    if adjective in _AMOUNT:  # "too much": of the end away from the one that means none of it
        if first & NOTHING:
            return 1 if adjective == "much" else -1
        if last & NOTHING:
            return -1 if adjective == "much" else 1
        return 0
    for hi, lo, _ in [*_GENERAL, _INTENSITY, *(a for axes in _AXES.values() for a in axes)]:
        if adjective not in hi and adjective not in lo:
            continue
        way = 1 if adjective in hi else -1
        if first & lo or last & hi:
            return way
        if first & hi or last & lo:
            return -way
    return 0


# how strong, thick or hard a thing is done (a closed class of pole words), for graded choices
_INTENSITY = _axis(
    "thick thicker heavy heavier dense stiff stiffer firm firmer hard harder strong stronger deep rough",
    "thin thinner light lighter soft softer gentle gentler weak weaker shallow delicate",
    1,
)
