"""Every value of a proposed tool call has a true reason, or it is not proposed.

A value stands when

- the request's own words give it: its reason is "your request" with those words quoted (a place, a
  day, a count, an allowed value named as such: "business class"), and the quote is checked to be in
  the request;
- the user's answer to the assistant's question gives it ("your answer");
- the plan chose it: its reason is the plan's, and it cites the remembered turns it rests on;
- it is the tool's default: "default", and it is listed as such so that it is never remembered as a
  choice of the user's.

Any other value (a model's ``max_price: 50.0``, a first enum value, the request sentence copied into a
free-text field) has no reason: it goes back to the tool's default, or is left unset. A required value
nobody gave is not guessed: the planner asks for it (``missing_details``).
"""

from __future__ import annotations

import re
from datetime import datetime
from typing import TYPE_CHECKING, Any

from ibachat.agent.alignment.request_values import stated_values
from ibachat.agent.alignment.resolve import WEAK_ONCE
from ibachat.agent.reading.when import read_when
from ibachat.agent.types import Source

if TYPE_CHECKING:
    from ibachat.agent.alignment.plan_types import AlignmentPlan, ParamDirective

DEFAULT = "default"
WEAK_HABIT = WEAK_ONCE  # how alignment/resolve.py marks a "habit" of a single past choice
REQUEST = "your request"
PLAN_SOURCES = ("plan", "habit", "open", "state", "correction", "update", "statement", "request", "complaint")


def _label(value: Any) -> str:
    return str(value).replace("_", " ").lower()


def _plain(text: str) -> str:
    """The words of ``text``, lower case; an apostrophe that opens or closes a quote is no part of a word
    ("subject 'Keys'": keys; "you're" keeps its own; "Priya's": priya and s)."""
    low = re.sub(r"(?<=\w)'s\b", " 's", text.lower().replace("’", "'"))  # "Priya's email": Priya is said
    words = (w.strip("'") for w in re.findall(r"[\w']+", low))
    return " ".join(w for w in words if w)


def quoted_in(quote: str, task: str) -> bool:
    """Whether the words of ``quote`` stand in the request, in order (case and punctuation aside); a
    quote of words said apart ("opera; ballet; jazz") stands when each of its parts does."""
    said = f" {_plain(task)} "
    parts = [_plain(p) for p in quote.split("; ")]
    return bool(parts) and all(q and f" {q} " in said for q in parts)


def named_in(value: Any, task: str) -> bool:
    """Whether the request names ``value`` itself ("business" in "fly business class")."""
    if isinstance(value, bool) or value is None:
        return False
    return quoted_in(_label(value), task)


def _plan_says(value: Any, pd: ParamDirective | None) -> bool:
    if pd is None:
        return False
    if pd.chosen is not None and value == pd.chosen:
        return True
    if isinstance(value, list) and isinstance(pd.chosen, list) and value and set(value) <= set(pd.chosen):
        return True
    limit = pd.maximum if pd.maximum is not None else pd.minimum
    return limit is not None and isinstance(value, (int, float)) and value == limit


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, bool) or isinstance(b, bool):
        return a is b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return float(a) == float(b)
    if isinstance(a, str) and isinstance(b, str):
        return _plain(a) == _plain(b)
    if isinstance(a, list) and isinstance(b, list):
        return sorted(_plain(str(x)) for x in a) == sorted(_plain(str(x)) for x in b)
    return a == b


def _request_words(
    name: str,
    value: Any,
    prop: dict[str, Any],
    task: str,
    now: datetime,
    schema: dict[str, Any] | None = None,
    about: str = "",
) -> str | None:
    """The words of the request that give ``value`` for ``name``, when they do: what ``stated_values``
    reads for it in the whole schema, quoted. A value the request names for another parameter, or only
    inside what it asks to be said ("remind me to call": no channel), is not the request's."""
    schema = schema if schema and name in (schema.get("properties") or {}) else {"properties": {name: prop}}
    hit = stated_values(schema, task, now, about).get(name)
    if hit is not None:
        return hit.quote if _same(hit.value, value) and quoted_in(hit.quote, task) else None
    fmt = prop.get("format")
    when = read_when(task, now)
    if fmt in ("date", "date-time") and when.day is not None and str(value).startswith(when.day.isoformat()):
        if when.question is not None:
            return None
        joins = when.time_words and (fmt == "date-time" or not re.search(r"\d", when.time_words))
        return _joined(task, when.day_words, when.time_words) if joins else when.day_words
    if prop.get("enum") and isinstance(value, str) and when.part is not None and value == when.part:
        return when.time_words or value  # "tomorrow evening": the evening window
    return None


def _items_span(task: str, items: list[str]) -> str:
    """The request's own words from the first item to the last ("apples, lentils plus milk") when they
    stand in that order and hold little else; otherwise each item, quoted apart ("; ")."""
    low, at, spans = task.lower(), 0, []
    for item in items:
        i = low.find(item.lower(), at)
        if i < 0:
            return "; ".join(items)
        spans.append((i, i + len(item)))
        at = i + len(item)
    start, end = spans[0][0], spans[-1][1]
    room = sum(b - a for a, b in spans) + 8 * len(items)
    return task[start:end] if end - start <= room else "; ".join(items)


def _joined(task: str, first: str, second: str) -> str:
    """The request's words from one phrase to the other when they stand together ("tomorrow evening")."""
    low = task.lower()
    a, b = low.find(first.lower()), low.find(second.lower())
    if a < 0 or b < 0:
        return first
    start, end = min(a, b), max(a + len(first), b + len(second))
    return task[start:end] if end - start <= len(first) + len(second) + 12 else first


def reason_for(
    name: str,
    value: Any,
    prop: dict[str, Any],
    pd: ParamDirective | None,
    task: str,
    now: datetime,
    schema: dict[str, Any] | None = None,
    about: str = "",
) -> tuple[str, Source] | None:
    """Why ``value`` is proposed for ``name`` (a line and its checkable source); None when nothing does."""
    if pd is not None and pd.source == "answer" and _plan_says(value, pd):
        return pd.reason or f"your answer: {value}", Source("answer", quote=str(value))
    words = _request_words(name, value, prop, task, now, schema, about)
    if words is not None:
        why = f'{REQUEST}: "{words}"'
        if prop.get("format") == "date-time" and not read_when(task, now).time:
            part = read_when(task, now).part
            if not part:
                return None  # a day without a time: the time is asked for, not guessed
            why += f"; {part.replace('_', ' ')}: its usual time"
        return why, Source("request", quote=words)
    if _plan_says(value, pd):
        assert pd is not None
        if pd.source == "request" and pd.quote and quoted_in(pd.quote, task):  # a past value named again
            return f'{REQUEST}: "{pd.quote}"', Source("request", quote=pd.quote, evidence=list(pd.evidence))
        if pd.source == "task":  # the plan read it from the request: only what the request states stands
            return None
        if not pd.evidence:
            return None  # the plan's value must rest on something the user said or did
        if pd.source == "habit" and WEAK_HABIT in pd.reason:  # one past call (an edit, say) is no habit yet
            return "chosen once before (one past call: not a habit yet)", Source(
                "plan", evidence=list(pd.evidence)
            )
        return pd.reason or "from your history", Source("plan", evidence=list(pd.evidence))
    if "default" in prop and value == prop["default"]:
        return DEFAULT, Source("default")
    if isinstance(value, list) and not value:
        return "none given", Source("default")
    return None


def justify(
    args: dict[str, Any],
    schema: dict[str, Any],
    plan: AlignmentPlan,
    task: str,
    now: datetime,
    *,
    content: frozenset[str] = frozenset(),
) -> tuple[dict[str, Any], dict[str, str], dict[str, Source], list[str]]:
    """The arguments with a reason and a source each; unjustified ones reset to the default or left out."""
    props = schema.get("properties") or {}
    out: dict[str, Any] = {}
    reasons: dict[str, str] = {}
    sources: dict[str, Source] = {}
    fixes: list[str] = []
    for name, value in args.items():
        prop = props.get(name) if isinstance(props.get(name), dict) else {}
        pd = plan.params.get(name)
        found = reason_for(name, value, prop, pd, task, now, schema, plan.tool or "")
        if found is None and name in content and from_request(value, task) and not _whole(value, task):
            found = REQUEST, Source("request", quote=_content_quote(value, task))
        if found is None:
            if "default" in prop:
                fixes.append(f"{name}: {value!r} had no reason; the default {prop['default']!r}")
                out[name], reasons[name], sources[name] = prop["default"], DEFAULT, Source("default")
            else:
                fixes.append(f"{name}: {value!r} had no reason; left unset")
            continue
        why, source = found
        if pd is not None and pd.avoid and pd.reason and why == DEFAULT:
            why = f"{DEFAULT}; {pd.reason}"
        out[name], reasons[name], sources[name] = value, why, source
    return out, reasons, sources, fixes


def from_request(value: Any, task: str) -> bool:
    """Content taken from the request's own words (a note's body, a reminder's text, dishes named)."""
    items = value if isinstance(value, list) else [value]
    return bool(items) and all(isinstance(v, str) and v.strip() and quoted_in(v, task) for v in items)


def _whole(value: Any, task: str) -> bool:
    """Whether a content value is the request itself (its sentence, not a span it names)."""
    return isinstance(value, str) and len(_plain(value)) >= 0.8 * len(_plain(task))


def _content_quote(value: Any, task: str) -> str:
    items = value if isinstance(value, list) else [value]
    return "; ".join(str(v) for v in items)[:200]
