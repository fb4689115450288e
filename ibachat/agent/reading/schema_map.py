"""Map preference events onto a tool's parameters: which attribute a parameter is about, and
which of its enum values (or bounds) a preference stands for.

A parameter is bound to a lexicon attribute by its name and description (the attribute's
aliases) and by how many of its enum values name that attribute's values; graded values
map by position on the scale ("spicy" -> ``hot``; avoiding "spicy" excludes ``medium``
and ``hot``); ``gluten_free`` stands for avoiding gluten. Events from past tool calls
with the same parameter name map directly.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from ibachat.agent.reading.lexicon import (
    ATTRIBUTES,
    BY_DIMENSION,
    ENUM_SYNONYMS,
    Attribute,
    avoided_values,
    context_re,
    normalise_phrase,
)
from ibachat.agent.reading.when import part_of_clock
from memory.ledger import PreferenceEvent

EXACT = "exact: "  # an event reason that starts so: only this value is avoided, not its side of the scale
NUMERIC_DIMS: dict[str, tuple[str, str]] = {
    "price.max": ("maximum", r"price|budget|cost|spend|total|fare|amount|limit"),
    "text.max_words": ("maximum", r"words?|length"),
    "text.min_words": ("minimum", r"words?|length"),
}
STRING_DIMS: dict[str, str] = {  # facts about the user that fill a text parameter of this name
    "text.sign_off": r"sign_?off|closing|signature|valediction",
    "profile.home_city": r"^(?:origin|from|from_city|departure_city|home|home_city)$",
}
GENERIC_ENUMS = frozenset(
    "any none no preference no_preference standard regular normal default other auto yes no true false n/a "
    "unknown send custom".split()
)
_NEGATIVE_LIST = re.compile(
    r"(?:^|_)(?:exclude|excluded|avoid|without|skip|block|blocked|no|leave|ban|banned)(?:_|$)"
)
_BOOL_PREFIX = re.compile(r"^(?:is|has|include|with|add|want|needs?|use|prefer|allow|request)_")


_REPLY_TOOL = re.compile(
    r"\b(?:give|send|offer|choose|pick)\b[^.]{0,30}\b(?:repl(?:y|ies)|answers?|responses?)\b", re.I
)


def gives_a_reply(tool: dict[str, Any]) -> bool:
    """A tool whose act is answering the user (the answer is its value), by its own description."""
    return bool(_REPLY_TOOL.search(str(tool.get("description", ""))))


def split_name(name: str) -> str:
    return re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", str(name)).replace("_", " ").replace("-", " ").lower()


@dataclass
class Param:
    name: str
    schema: dict[str, Any]
    kind: str  # enum | list_enum | list | boolean | integer | number | string
    enum: list[Any]
    required: bool
    negative: bool = False  # a list of things to leave out

    @property
    def labels(self) -> list[str]:
        return [str(v) for v in self.enum]

    @property
    def words(self) -> set[str]:
        return set(split_name(self.name).split())


def params(tool: dict[str, Any] | None) -> list[Param]:
    schema = (tool or {}).get("parameters") or {}
    props = schema.get("properties") or {}
    required = set(schema.get("required") or [])
    out: list[Param] = []
    for name, prop in props.items():
        prop = prop if isinstance(prop, dict) else {}
        kind = str(prop.get("type", "string"))
        enum = list(prop.get("enum") or [])
        if kind == "array":
            items = prop.get("items") if isinstance(prop.get("items"), dict) else {}
            enum = list(items.get("enum") or [])
            kind = "list_enum" if enum else "list"
        elif enum:
            kind = "enum"
        negative = kind in ("list", "list_enum") and bool(_NEGATIVE_LIST.search(name.lower()))
        out.append(Param(name, prop, kind, enum, name in required, negative))
    return out


@dataclass
class Binding:
    """How one attribute maps onto one parameter."""

    attr: Attribute
    to_enum: dict[str, list[str]] = field(default_factory=dict)  # canonical value -> enum labels
    avoid_enum: dict[str, list[str]] = field(default_factory=dict)  # avoided value -> "X_free" labels
    rank: dict[str, int] = field(default_factory=dict)  # enum label -> scale rank
    true_value: str | None = None  # boolean parameter: the value that makes it true
    true_when_avoided: str | None = None  # boolean parameter named "X_free ...": true when X is avoided


@lru_cache(maxsize=64)
def _index(dimension: str) -> dict[str, str]:
    """Normalised phrase -> value for one attribute (names first, then synonyms)."""
    attr = BY_DIMENSION[dimension]
    out: dict[str, str] = {}
    for value in attr.values:
        for syn in ENUM_SYNONYMS.get(value, ()):
            out[normalise_phrase(syn)] = value
    for value, phrases in reversed(list(attr.values.items())):
        for p in phrases:
            out[normalise_phrase(p)] = value
    for value in attr.values:
        out[normalise_phrase(value)] = value
    return out


def canonical(attr: Attribute, label: str) -> str | None:
    """The attribute value an enum label (or a past argument) names, if any."""
    return _index(attr.dimension).get(normalise_phrase(str(label)))


def _avoid_form(attr: Attribute, label: str) -> str | None:
    norm = normalise_phrase(str(label))
    m = re.match(r"^(?:(.+) free|no (.+)|non (.+)|(.+) less)$", norm)
    if not m:
        return None
    base = next(g for g in m.groups() if g)
    return canonical(attr, base)


def _tool_text(tool: dict[str, Any], param: Param) -> str:
    return " ".join(
        [
            split_name(tool.get("name", "")),
            str(tool.get("description", "")),
            split_name(param.name),
            str(param.schema.get("description", "")),
        ]
    ).lower()


def bind(attr: Attribute, param: Param, tool: dict[str, Any]) -> Binding | None:
    """A binding of ``attr`` to ``param`` when the names and values agree, else None."""
    text = _tool_text(tool, param)
    if attr.context and not context_re(attr.context).search(text):
        return None
    aliases = set(attr.aliases)
    name_score = 2 * len(param.words & aliases) + len(
        set(re.findall(r"[a-z]+", str(param.schema.get("description", "")).lower())) & aliases
    )
    b = Binding(attr)
    if param.kind in ("enum", "list_enum"):
        for label in param.labels:
            value = canonical(attr, label)
            if value is None and (part := part_of_clock(str(label))) is not None:
                value = canonical(attr, part)  # "18:30" is an evening start, "07:00" an early one
            if value is not None:
                labels = b.to_enum.setdefault(value, [])
                exact = normalise_phrase(label) == normalise_phrase(value)
                labels.insert(0, label) if exact else labels.append(label)
                if value in attr.scale:
                    b.rank[label] = attr.scale.index(value)
            avoided = _avoid_form(attr, label)
            if avoided is not None:
                b.avoid_enum.setdefault(avoided, []).append(label)
        overlap = len({lab for labs in b.to_enum.values() for lab in labs} - GENERIC_ENUMS) + sum(
            map(len, b.avoid_enum.values())
        )
        if overlap and (name_score or overlap >= 2):
            return b
        return None
    if param.kind == "boolean":
        core = _BOOL_PREFIX.sub("", param.name.lower())
        value = canonical(attr, core)
        if value is not None:
            b.true_value = value
            return b
        free = re.match(r"^(?:(.+?)_free|no_(.+?))(?:_|$)", core)  # "gluten_free_prep", "nut_free_catering"
        avoided = _avoid_form(attr, f"{next(g for g in free.groups() if g)} free") if free else None
        if avoided is not None:
            b.true_when_avoided = avoided
            return b
        return None
    if param.kind in ("integer", "number") and attr.numeric and name_score >= 2:
        return b
    if param.kind == "list" and param.negative and not attr.exclusive and name_score:
        return b
    if param.kind == "list" and param.negative and attr.implies_when_avoided and name_score:
        return b
    return None


@lru_cache(maxsize=256)
def _attr_for_name(name: str) -> tuple[str, ...]:
    words = set(split_name(name).split())
    return tuple(a.dimension for a in ATTRIBUTES if words & set(a.aliases))


def _label(value: str) -> str:
    return value.replace("_", " ")


def map_event(
    event: PreferenceEvent, tool: dict[str, Any], param: Param, binds: list[Binding]
) -> list[tuple[str, int]]:
    """The event in ``param``'s terms: (value label, polarity) pairs; [] when it does not bear on it."""
    dim, value, pol = event.dimension, str(event.value), event.polarity
    exact = event.reason.startswith(EXACT)
    if dim in STRING_DIMS:
        ok = param.kind == "string" and not param.enum and re.search(STRING_DIMS[dim], param.name.lower())
        return [(value, pol)] if ok and pol > 0 else []
    if dim in NUMERIC_DIMS:
        mode, words = NUMERIC_DIMS[dim]
        if (
            param.kind in ("integer", "number")
            and re.search(words, param.name.lower())
            and (
                mode == "minimum"
                or re.search(r"max|limit|budget|cap|upto|up_to", param.name.lower())
                or dim == "price.max"
            )
        ):
            return [(value, 1)]
        return []
    if (
        "." in dim
        and dim.split(".", 1)[1] == param.name
        and dim.split(".", 1)[0] not in BY_DIMENSION_PREFIXES
    ):
        if param.kind in ("string", "list") and not param.enum and dim.split(".", 1)[0] != tool.get("name"):
            return []  # a name from another tool (a delivery place is no table booking's restaurant)
        return _direct(value, pol, param, binds, exact)
    if dim.split(".", 1)[0] not in BY_DIMENSION_PREFIXES and "." in dim:
        # a past call of another parameter name that names the same attribute ("portion" vs "size")
        other = dim.split(".", 1)[1]
        for b in binds:
            if b.attr.dimension in _attr_for_name(other):
                can = canonical(b.attr, value)
                if can is not None:
                    return _from_attr(b, param, can, pol, exact)
        return []
    for b in binds:
        if b.attr.dimension == dim:
            return _from_attr(b, param, value, pol, exact)
    return []


BY_DIMENSION_PREFIXES = frozenset(d.split(".")[0] for d in BY_DIMENSION) | {
    "profile",
    "size",
    "state",
    "injection",
    "text",
    "price",
}


def _direct(
    value: str, pol: int, param: Param, binds: list[Binding], exact: bool = False
) -> list[tuple[str, int]]:
    if param.kind in ("enum", "list_enum"):
        if value in param.labels:
            return [(value, pol)]
        for b in binds:
            can = canonical(b.attr, value)
            if can is not None:
                return _from_attr(b, param, can, pol, exact)
        return []
    if param.kind == "boolean":
        if value.lower() in ("true", "false"):
            return [(value.lower(), pol)]
        return []
    if param.kind in ("integer", "number"):
        try:
            float(value)
        except ValueError:
            return []
        return [(value, pol)]
    if param.kind in ("string", "list") and not param.negative and len(value.split()) <= 4:
        return [(value, pol)]  # a short string (an origin, a dish) can become a habit ("the usual")
    return []


def _from_attr(b: Binding, param: Param, value: str, pol: int, exact: bool = False) -> list[tuple[str, int]]:
    attr = b.attr
    if param.kind == "boolean":
        if b.true_when_avoided is not None:  # avoiding gluten: "gluten_free_prep" is true
            avoided = avoided_values(attr, value, generic=False) if not exact else [value]
            return [("true", 1)] if pol < 0 and b.true_when_avoided in avoided else []
        if b.true_value is None or pol == 0:
            return []
        if value == b.true_value:
            return [("true" if pol > 0 else "false", 1)]
        if pol > 0 and attr.exclusive:
            return [("false", 1)]
        return []
    if param.kind in ("integer", "number"):
        if pol > 0 and value in attr.numeric:
            return [(_num(attr.numeric[value], param), 1)]
        return []
    if param.kind == "list" and param.negative:
        return [(_label(value), 1)] if pol < 0 else []
    out: list[tuple[str, int]] = []
    if pol > 0:
        labels = b.to_enum.get(value) or _nearest(b, attr, value)
        out += [(lab, 1) for lab in labels[:1]]  # one value wanted: the exact name when there is one
    elif pol < 0:
        for avoided in avoided_values(attr, value, generic=False) if not exact else [value]:
            out += [(lab, -1) for lab in b.to_enum.get(avoided, [])]
            out += [(lab, 1) for lab in b.avoid_enum.get(avoided, [])]
        if attr.scale:
            ranks = {
                attr.scale.index(v)
                for v in (avoided_values(attr, value, generic=False) if not exact else [value])
                if v in attr.scale
            }
            out += [(lab, -1) for lab, r in b.rank.items() if r in ranks and (lab, -1) not in out]
    else:
        out += [(lab, 0) for lab in b.to_enum.get(value, [])]
    if param.negative:
        out = [(lab, -p) for lab, p in out if p != 0]
    return out


def _nearest(b: Binding, attr: Attribute, value: str) -> list[str]:
    if not attr.scale or value not in attr.scale or not b.rank:
        return []
    want = attr.scale.index(value)
    best = min(b.rank.items(), key=lambda kv: (abs(kv[1] - want), kv[1]))
    return [best[0]]


def _num(x: float, param: Param) -> str:
    lo, hi = param.schema.get("minimum"), param.schema.get("maximum")
    if isinstance(lo, (int, float)):
        x = max(x, lo)
    if isinstance(hi, (int, float)):
        x = min(x, hi)
    return str(int(x)) if param.kind == "integer" else str(x)


def bindings(tool: dict[str, Any] | None) -> dict[str, list[Binding]]:
    """param name -> attributes bound to it (cached per schema)."""
    return _bindings(json.dumps(tool or {}, sort_keys=True, default=str))


@lru_cache(maxsize=64)
def _bindings(key: str) -> dict[str, list[Binding]]:
    tool = json.loads(key)
    out: dict[str, list[Binding]] = {}
    for param in params(tool):
        binds = [b for attr in ATTRIBUTES if (b := bind(attr, param, tool)) is not None]
        out[param.name] = binds
    return out


def tool_vocabulary(
    tool: dict[str, Any] | None,
) -> tuple[re.Pattern[str], dict[str, list[tuple[str, str]]]] | None:
    """Phrases from the tool's own enum values and boolean names -> (tool.param, value)."""
    if not tool:
        return None
    name = str(tool.get("name", "tool"))
    table: dict[str, list[tuple[str, str]]] = {}
    for param in params(tool):
        dim = f"{name}.{param.name}"
        if param.kind in ("enum", "list_enum"):
            for label in param.labels:
                phrase = normalise_phrase(label)
                if phrase in GENERIC_ENUMS or len(phrase) < 3 or phrase.isdigit():
                    continue
                table.setdefault(phrase, []).append((dim, label))
        elif param.kind == "boolean":
            phrase = normalise_phrase(_BOOL_PREFIX.sub("", param.name.lower()))
            if len(phrase) >= 4 and phrase not in GENERIC_ENUMS:
                table.setdefault(phrase, []).append((dim, "true"))
    if not table:
        return None
    ordered = sorted(table, key=len, reverse=True)
    body = "|".join(r"[\s_-]+".join(map(re.escape, p.split())) + r"(?:s|es)?" for p in ordered)
    return re.compile(r"(?<![\w'])(?:" + body + r")(?![\w'])"), table
