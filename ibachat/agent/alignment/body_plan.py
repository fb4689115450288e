"""An injury in force rules out the offered values that need the injured part ("bouldering" with a sprained
wrist, an "e-scooter" on crutches), whatever habit or earlier statement chose them.

The injury is the lexicon's ``state.injury`` state (``reading/lexicon.py``), in force while it lasts; the
part comes from the words it was said in; what needs which part is data (``data/body_uses.json``). A value
the request itself names is kept (the request is never overridden); when one offered value is left it is
taken, for the reason the injury gives; otherwise the ones left are offered in one question.
"""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any

from ibachat.agent.reading.schema_map import params
from memory.ledger import PreferenceEvent

INJURY = "state.injury"
_KEEP = ("task", "request", "answer")  # values the user's own words for this request gave


def _groups() -> list[tuple[str, frozenset[str], tuple[str, ...]]]:
    from ibachat.agent.data import load

    groups = load("body_uses")["groups"]
    return [(name, frozenset(g["parts"]), tuple(g["uses"])) for name, g in groups.items()]


def _injured(events: list[PreferenceEvent], now: datetime) -> list[tuple[PreferenceEvent, tuple[str, ...]]]:
    """The injuries in force now, each with the stems of the uses its parts rule out."""
    out = []
    for e in events:
        if e.dimension != INJURY or e.polarity <= 0 or e.valid_from > now:
            continue
        if e.valid_until is not None and e.valid_until <= now:
            continue
        words = set(re.findall(r"[a-z]+", (e.subject or "").lower()))
        uses = tuple(u for _, parts, stems in _groups() if words & parts for u in stems)
        if uses:
            out.append((e, uses))
    return out


def _needs(label: str, uses: tuple[str, ...]) -> bool:
    text = " ".join(re.findall(r"[a-z]+(?:-[a-z]+)*", label.replace("_", " ").lower()))
    words = text.split() + re.findall(r"[a-z]+", text)  # "e-scooter" and its parts
    return any(
        (" " in u and re.search(rf"\b{re.escape(u)}", text)) or any(w.startswith(u) for w in words)
        for u in uses
    )


def rule_out_injured(plan: Any, tool: dict[str, Any], events: list[PreferenceEvent], now: datetime) -> None:
    """Leave out, for each enum parameter, the values an injury in force rules out."""
    injuries = _injured(events, now)
    if not injuries:
        return
    for param in params(tool):
        pd = plan.params.get(param.name)
        if pd is None or param.kind != "enum" or len(param.enum) < 2 or pd.source in _KEEP:
            continue
        for e, uses in injuries:
            out = [v for v in param.enum if isinstance(v, str) and _needs(v, uses)]
            left = [v for v in param.enum if v not in out]
            if not out or not left:
                continue
            said = (e.subject or e.value).strip()[:80]
            pd.avoid = list(dict.fromkeys([*pd.avoid, *out]))
            pd.allowed = left
            if pd.chosen is not None and pd.chosen not in out:
                break
            pd.evidence = sorted(t for t in e.evidence if t)
            if len(left) == 1:
                pd.chosen, pd.source, pd.certain = left[0], "state", False
                pd.reason = f"while {said!r} lasts, the others need what it rules out"
            else:
                pd.chosen, pd.source, pd.certain = None, "none", False
                pd.reason = f"while {said!r} lasts, not {', '.join(str(v) for v in out)}"
            break
