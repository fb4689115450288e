"""Spans of a request that can fill a free-text parameter: "Brighton", "parents' evening", "Nolan".

Candidates come from the request's form, not from lists of places or things: names in capitals
(not just the sentence's first word), quoted text, and the object of a preposition ("in Brighton",
"for the parents' evening", "called Blue Door") up to the next preposition, time word or
punctuation. Which span fills which parameter is decided by meaning (``best_span``); none is
chosen when none is close enough, and the whole request is never a span.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any

_CAPS = re.compile(r"(?<![\w'])([A-Z][\w'&.-]*(?:\s+(?:of|the|de|la|le|van|von|and|&)?\s*[A-Z][\w'&.-]*)*)")
_QUOTED = re.compile(r"[\"“‘']([^\"”’']{2,60})[\"”’']")
_STOP = (
    r"in|to|at|near|for|from|on|by|with|about|around|next|this|tomorrow|today|tonight|on|before|after|until|"
    r"please|and|or|but|so|at|which|that|who|because|when|asap"
)
_PREP = re.compile(
    rf"\b(?:in|to|at|near|for|from|about|called|named|titled|around|with|re|regarding)\s+"
    rf"(?P<obj>(?:the |a |an |my |our )?(?:(?!(?:{_STOP})\b)[\w'&-]+\s?){{1,4}})",
    re.I,
)
_TIMEY = re.compile(
    r"^(?:the |a |an |my |our )?(?:\d+\w*|monday|tuesday|wednesday|thursday|friday|saturday|sunday|morning|evening|"
    r"afternoon|night|week|weekend|month|year|today|tomorrow|tonight|noon|midnight|minutes?|hours?|days?|"
    r"january|february|march|april|may|june|july|august|september|october|november|december|me|us|you|it|them|"
    r"usual|same|regular|normal|favou?rite|other|one)\b",  # "the usual X place" is a habit, read from past calls
    re.I,
)
MIN_SIM = 0.2
_PREP_AFTER = re.compile(
    r"\s+(?:for|on|at|in|to|from|with|by|and|or|next|this|tomorrow|today|tonight|please|asap)\b"
)
NAME_BONUS = 0.15


def candidates(task: str) -> list[str]:
    out: list[str] = []
    first = re.match(r"\s*([A-Z][\w'-]*)", task)
    for m in _CAPS.finditer(task):
        span = m.group(1).strip(" .,")
        if first and m.start() == first.start(1) and " " not in span:
            continue  # the sentence's first word is capitalised anyway
        if re.match(r"\s+[a-z]{3,}\b", task[m.end() :]) and not _PREP_AFTER.match(task[m.end() :]):
            continue  # "the usual Thai place", "the new Nolan film": it qualifies the noun after it
        if span.lower() in ("i", "i'm", "i'd", "i'll"):
            continue
        out.append(span)
    out += [m.group(1).strip() for m in _QUOTED.finditer(task)]
    for m in _PREP.finditer(task):
        obj = re.sub(r"^(?:the|a|an|my|our)\s+", "", m.group("obj").strip(" .,!?"), flags=re.I)
        if obj and not _TIMEY.match(obj) and len(obj) >= 3:
            out.append(obj)
    seen: dict[str, str] = {}
    for span in out:
        if span.lower() != task.strip().lower() and len(span) <= 60:
            seen.setdefault(span.lower(), span)
    return list(seen.values())


def best_span(
    task: str, about: str, embed: Callable[[list[str]], Any] | None, *, taken: Sequence[str] = ()
) -> str | None:
    """The span of ``task`` closest in meaning to a parameter (``about``: its name and description)."""
    spans = [s for s in candidates(task) if s not in taken]
    if not spans:
        return None
    if embed is None:
        caps = [s for s in spans if s[:1].isupper()]
        return caps[0] if len(caps) == 1 else None
    import numpy as np

    mat = np.asarray(embed([about] + spans), dtype=np.float32)
    mat = mat / np.maximum(np.linalg.norm(mat, axis=1, keepdims=True), 1e-9)
    sims = mat[1:] @ mat[0]
    echo = set(re.findall(r"[a-z]+", about.lower()))
    for i, span in enumerate(spans):
        if span[:1].isupper():
            sims[i] += NAME_BONUS  # a name is what a free-text slot usually wants
        if set(re.findall(r"[a-z]+", span.lower())) <= echo:
            sims[i] -= 1.0  # the parameter's own words ("to stay" for "where to stay") are not a value
    best = int(np.argmax(sims))
    return spans[best] if float(sims[best]) >= MIN_SIM else None
