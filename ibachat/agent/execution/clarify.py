"""A clarifying question about one parameter of a pending action, and the user's answer to it.

The plan asks "For restaurant, do you want Sichuan House or Taco Loco?" or "Which restaurant
should I use?". ``question_param`` finds the parameter a question is about, ``options`` the
values it offers, and ``read_answer`` the value a reply gives ("Sichuan House", "the first
one", "Golden Dragon" for an open name), or None when the reply is not an answer to it (a new
request, a question back, a long message, "never mind").
"""

from __future__ import annotations

import re
from typing import Any

_OFFER = re.compile(
    r"do you (?:want|mean) (.+?) or (.+?)\?$|You said (.+?) but lately chose (.+?): which one", re.I
)
_CANCEL = re.compile(r"^(?:no\b|nope|never ?mind|cancel|forget (?:it|that)|stop|don'?t|skip)", re.I)
_ORDINAL = {"first": 0, "former": 0, "1": 0, "second": 1, "latter": 1, "2": 1, "last": 1}
_FILLER = re.compile(
    r"^(?:(?:ok(?:ay)?|yes|yeah|sure|please|hmm+|well|um+)[,!.]?\s+)*"
    r"(?:(?:let'?s\s+)?(?:go with|use|take|pick|make it|i'?d like|i want)\s+)?(?:from\s+|at\s+|the\s+)*",
    re.I,
)
_CHATTER = re.compile(
    r"^(?:thanks?(?: you)?|thx|ty|ok(?:ay)?|hi|hello|hey|lol|yes|yeah|yep|sure|maybe|hmm+|wait|what|why|how|"
    r"i don'?t know|not sure|dunno|idk|whatever|any(?:thing)?|either|both|neither|you (?:choose|pick|decide)|"
    r"good|great|cool|nice|fine)\b",
    re.I,
)
MAX_ANSWER_WORDS = 8


def _label(value: Any) -> str:
    return str(value).replace("_", " ").strip().lower()


def question_param(question: str, names: list[str]) -> str | None:
    """The parameter ``question`` is about: the longest name whose words it uses."""
    low = question.lower()
    found = [n for n in names if re.search(rf"\b{re.escape(_label(n))}\b", low)]
    return max(found, key=len) if found else None


def options(question: str) -> list[str]:
    m = _OFFER.search(question.strip()) or _PROPOSAL.search(question.strip())
    if not m:
        return []
    return [g.strip() for g in m.groups() if g]


# one value put to the user ("Should I use skimmed for milk type?"), which a yes takes
_PROPOSAL = re.compile(r"^Should I use (.+?) for [^?]+\?$")
_YES = re.compile(
    r"(?i)^(?:yes|yeah|yep|yup|sure|ok(?:ay)?|please do|go (?:on|ahead)|that'?s (?:fine|right)|sounds good)\b"
)


def stated_params(questions: list[str], names: list[str], said: set[str]) -> list[str]:
    """The questions about a parameter the request itself already gives (``said``): not to be asked."""
    return [q for q in questions if question_param(q, names) in said]


def read_answer(reply: str, question: str, prop: dict[str, Any]) -> Any:
    """The value ``reply`` gives for the parameter ``question`` asks about, else None."""
    text = " ".join(reply.split()).strip()
    if not text or text.endswith("?") or _CANCEL.match(text) or len(text.split()) > MAX_ANSWER_WORDS:
        return None
    core = _FILLER.sub("", text).strip(" .!,;:")
    offered = options(question)
    if len(offered) == 1 and _PROPOSAL.search(question.strip()) and _YES.match(text):
        enum = prop.get("enum") or (prop.get("items") or {}).get("enum")
        return _typed(offered[0], enum, prop.get("type"))  # "yes" to the one value put
    if _CHATTER.match(text) and not core:
        return None
    enum = prop.get("enum") or (prop.get("items") or {}).get("enum")
    low = core.lower()
    for option in offered:
        if re.search(rf"(?<!\w){re.escape(option.lower())}(?!\w)", low) or low == option.lower():
            return _typed(option, enum, prop.get("type"))
        bare = _FILLER.sub("", re.sub(r"\s*\([^)]*\)", "", option)).strip().lower()
        if bare and low == bare:  # "the one after" for "the one after (11 December)"
            return _typed(option, enum, prop.get("type"))
    m = re.match(r"(?:the\s+)?(first|second|former|latter|last|1|2)\b", low)
    if m and len(offered) >= 2:
        return _typed(offered[_ORDINAL[m[1]]], enum, prop.get("type"))
    if enum:
        hits = [v for v in enum if re.search(rf"(?<!\w){re.escape(_label(v))}(?!\w)", low)]
        return hits[0] if len(hits) == 1 else None
    if not core or _CHATTER.match(core):
        return None  # "thanks", "I don't know": not a name
    if _free_list(prop):  # "khao tom and mango pudding": the things, one by one, in the user's words
        core = re.sub(r"[\s,]*\b(?:please|pls|thanks|thank you)\b[\s.!]*$", "", core, flags=re.I)
        parts = [p.strip(" .!") for p in re.split(r"\s*(?:,|;|&|\band\b|\bplus\b)\s*", core)]
        items = [re.sub(r"^(?:a|an|the|some)\s+", "", p, flags=re.I) for p in parts if p.strip(" .!")]
        return items or None
    if prop.get("type") in ("integer", "number"):
        # "7" to "For party size, do you want 6 or 8?": a number the user gives is the number
        m = re.fullmatch(r"(?:(?:let'?s\s+)?(?:make\s+it|say)\s+)?(\d+(?:\.\d+)?)(?:\s+\w+)?", low)
        if m is None:
            return None
        number = float(m[1])
        return int(number) if prop.get("type") == "integer" and number.is_integer() else number
    if prop.get("type") not in (None, "string"):
        return None
    return core[:1].upper() + core[1:] if core[:1].islower() else core


def _free_list(prop: dict[str, Any]) -> bool:
    """A list of free text (dishes, items): no enum on its items."""
    items = prop.get("items")
    return (
        prop.get("type") == "array"
        and isinstance(items, dict)
        and items.get("type") == "string"
        and not items.get("enum")
    )


def _typed(option: str, enum: list[Any] | None, kind: str | None = None) -> Any:
    if enum:
        for v in enum:
            if _label(v) == option.lower():
                return v
    if kind in ("integer", "number") and re.fullmatch(r"\d+(?:\.\d+)?", option.strip()):
        number = float(option)  # "6" offered for a party size: the number six
        return int(number) if kind == "integer" and number.is_integer() else number
    return option


def settled_by_past_calls(
    questions: list[str], tool: dict[str, Any], fixed: dict[str, Any], events: list[Any]
) -> dict[str, tuple[str, int]]:
    """Questions that the user's past calls of this tool answer, once some values are fixed.

    With the restaurant fixed (named in the request, or answered), a question about the spice
    level is settled when every past call to that restaurant chose the same level: per
    parameter, that value and how many calls agree. ``events`` are ledger events ("chose"
    events carry a past call's arguments, one evidence turn per call).
    """
    name = str(tool.get("name", ""))
    names = list((tool.get("parameters") or {}).get("properties") or {})
    calls: dict[int, dict[str, set[str]]] = {}
    spelled: dict[str, str] = {}  # a value as the call had it ("Pulse Gym"), by its label
    for e in events:
        if e.kind != "chose" or e.polarity <= 0 or not e.dimension.startswith(name + "."):
            continue
        param = e.dimension.split(".", 1)[1]
        spelled.setdefault(_label(e.value), str(e.value))
        for turn_id in e.evidence:
            calls.setdefault(turn_id, {}).setdefault(param, set()).add(_label(e.value))
    if not fixed:
        return {}
    agreeing = [c for c in calls.values() if all(_label(v) in c.get(p, set()) for p, v in fixed.items())]
    out: dict[str, tuple[str, int]] = {}
    for question in questions:
        param = question_param(question, names)
        if param is None or param in fixed or not agreeing:
            continue
        values = {v for c in agreeing for v in c.get(param, set())}
        if len(values) == 1 and all(param in c for c in agreeing):
            value = values.pop()
            out[param] = (spelled.get(value, value), len(agreeing))
    return out
