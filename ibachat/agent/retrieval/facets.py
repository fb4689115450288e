"""Facet expansion: turn one task into sub-queries, one per preference facet.

The floor is deterministic: each facet query is the task's own content words plus a
set of generic English words for that facet (tone, structure, trade-offs, corrections,
updates, habits, temporary states), and one query per parameter of the tool about to
be called (its name, description and allowed values). A capable planner model may add
up to ``MAX_LLM_QUERIES`` sub-queries; anything it gets wrong falls back to the floor.
"""

from __future__ import annotations

import re
import time
from functools import lru_cache
from typing import Any

from ibachat.agent.types import PlannerCounters
from ibachat.errors import IbachatError
from ibachat.llm.base import LLM, Message

MAX_LLM_QUERIES = 4
MAX_TASK_WORDS = 14
MAX_PARAM_WORDS = 20
EXPAND_TIMEOUT_S = 30.0
ANCHORED_PREFIXES = ("task", "param:", "llm:")  # facets about the task's content, not generic cues

# Generic synonym sets, one per facet. Plain English, no domain phrasing.
FACET_VOCAB: dict[str, str] = {
    "tone": "tone style voice wording formal casual friendly polite blunt direct warm playful serious",
    "structure": "length short long brief concise detailed bullet points list paragraphs format summary",
    "tradeoffs": "price cost cheap expensive budget fast quick speed slow quality comfort convenience value worth",
    "corrections": "actually no not that wrong instead I told you I said don't rather other one",
    "updates": "now anymore no longer switched changed from now on these days started stopped",
    "habits": "usually always every time often routine habit typically normally regular",
    "health": "health injury injured sprained broken surgery dentist tooth sick pain recovering pregnant diet allergy medication doctor",
    "states": "currently right now this week for now temporary until travelling trip exams busy stressed",
}

# The salience cues each generic facet is looking for (see ibachat.agent.retrieval.salience).
FACET_CUES: dict[str, frozenset[str]] = {
    "tone": frozenset({"preference"}),
    "structure": frozenset({"preference"}),
    "tradeoffs": frozenset({"preference"}),
    "corrections": frozenset({"correction", "rejection"}),
    "updates": frozenset({"update", "state ended"}),
    "habits": frozenset({"habit"}),
    "health": frozenset({"temporary state", "state ended"}),
    "states": frozenset({"temporary state", "state ended", "time-bound"}),
}

STOPWORDS = frozenset(
    """a about above after again all am an and any are as at be because been before being below
    between both but by can could did do does doing down during each few for from further had has have
    having he her here hers herself him himself his how i i'd i'll i'm i've if in into is it it's its
    itself just let let's me more most my myself no nor not now of off on once only or other our ours
    ourselves out over own same she should so some such than that that's the their theirs them
    themselves then there these they this those through to too under until up very was we were what
    what's when where which while who whom why will with would you your yours yourself yourselves
    please pls thanks thank hi hello hey ok okay yes yeah sure also really just get got make
    want need like could would help can you'd you're you'll i'd shall may might must one something
    anything thing things go going""".split()
)

_WORD = re.compile(r"[a-z0-9][a-z0-9'+-]*")
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")

EXPAND_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "queries": {"type": "array", "items": {"type": "string"}, "maxItems": MAX_LLM_QUERIES},
    },
    "required": ["queries"],
}


def words(text: str) -> list[str]:
    """Lower-case word tokens."""
    return _WORD.findall(text.lower())


def content_words(text: str, limit: int | None = None) -> list[str]:
    """Words of ``text`` that are not stopwords, first occurrence order, no repeats."""
    seen: dict[str, None] = {}
    for word in words(text):
        word = word.strip("'-+")
        if len(word) > 1 and word not in STOPWORDS and word not in seen:
            seen[word] = None
    out = list(seen)
    return out[:limit] if limit else out


_SUFFIXES = tuple("ations ation ising izing ised ized ises izes ise ize ies ing ed es s y".split())


@lru_cache(maxsize=65536)
def _stem(word: str) -> str:
    """A crude stem for term overlap: one common suffix off, then at most 6 letters."""
    for suffix in _SUFFIXES:
        if len(word) > len(suffix) + 3 and word.endswith(suffix):
            word = word[: -len(suffix)]
            break
    return word[:6]


@lru_cache(maxsize=32768)
def terms(text: str) -> frozenset[str]:
    """Stemmed content words, for telling whether two texts share a real word (cached: turns
    are immutable and come back task after task)."""
    return frozenset(_stem(w) for w in content_words(text))


def _split_name(name: str) -> str:
    return _CAMEL.sub(" ", name).replace("_", " ").replace("-", " ").lower()


def _enum_values(prop: dict[str, Any]) -> list[str]:
    values: list[Any] = list(prop.get("enum") or [])
    if "const" in prop:
        values.append(prop["const"])
    items = prop.get("items")
    if isinstance(items, dict):
        values.extend(items.get("enum") or [])
    for key in ("anyOf", "oneOf"):
        for alt in prop.get(key) or []:
            if isinstance(alt, dict):
                values.extend(alt.get("enum") or [])
                if "const" in alt:
                    values.append(alt["const"])
    return [
        _split_name(str(v)) for v in values if isinstance(v, (str, int, float)) and not isinstance(v, bool)
    ]


def tool_facets(tool: dict[str, Any] | None) -> list[tuple[str, str]]:
    """One (``param:<name>``, query) per parameter of ``tool``'s JSON Schema."""
    if not tool:
        return []
    schema = tool.get("parameters") or {}
    props = schema.get("properties") if isinstance(schema, dict) else None
    if not isinstance(props, dict):
        return []
    out: list[tuple[str, str]] = []
    for name, prop in props.items():
        prop = prop if isinstance(prop, dict) else {}
        parts = [_split_name(str(name))]
        parts += content_words(str(prop.get("description", "")), limit=8)
        parts += _enum_values(prop)
        seen: dict[str, None] = dict.fromkeys(w for part in parts for w in part.split())
        out.append((f"param:{name}", " ".join(list(seen)[:MAX_PARAM_WORDS])))
    return out


def template_facets(task: str, tool: dict[str, Any] | None = None) -> list[tuple[str, str]]:
    """The deterministic sub-queries: the task, one per facet, one per tool parameter."""
    task = task.strip()
    keys = " ".join(content_words(task, limit=MAX_TASK_WORDS)) or task
    facets = [("task", task)]
    facets += [(name, f"{keys} {vocab}") for name, vocab in FACET_VOCAB.items()]
    facets += tool_facets(tool)
    return facets


def is_anchored(facet: str) -> bool:
    """True for facets that query the task's own content (task, tool parameters, model queries)."""
    return facet.startswith(ANCHORED_PREFIXES)


def is_capable(llm: LLM | None) -> bool:
    """Whether ``llm`` is worth asking for sub-queries (the tiny embedded model is not)."""
    return llm is not None and bool(getattr(llm, "capable", False))


def _expand_prompt(task: str, tool: dict[str, Any] | None) -> list[Message]:
    system = (
        "You help search a user's long chat history for what they prefer. Given a task, write up to "
        f"{MAX_LLM_QUERIES} short search queries (a few words each) that would find the user's past "
        "statements, corrections, habits or current circumstances that matter for doing this task their "
        'way. Reply with JSON only: {"queries": ["...", "..."]}.'
    )
    user = f"Task: {task}"
    if tool:
        params = ", ".join(name for name, _ in tool_facets(tool))
        user += f"\nTool: {tool.get('name', '')} ({params.replace('param:', '')})"
    return [Message("system", system), Message("user", user)]


def llm_facets(
    llm: LLM, task: str, tool: dict[str, Any] | None, counters: PlannerCounters
) -> list[tuple[str, str]]:
    """Ask ``llm`` for extra sub-queries; on any failure record a fallback and return []."""
    start = time.perf_counter()
    counters.model_calls += 1
    try:
        reply = llm.complete(
            _expand_prompt(task, tool),
            schema=EXPAND_SCHEMA,
            max_tokens=160,
            temperature=0.0,
            timeout=EXPAND_TIMEOUT_S,
        )
        counters.prompt_tokens += reply.prompt_tokens
        counters.completion_tokens += reply.completion_tokens
        data = reply.json()
    except (IbachatError, TimeoutError, OSError) as exc:
        counters.fallbacks.append(f"expand: {exc}")
        return []
    finally:
        elapsed = (time.perf_counter() - start) * 1000
        counters.timings_ms["expand_model"] = counters.timings_ms.get("expand_model", 0.0) + elapsed
    queries = data.get("queries") if isinstance(data, dict) else None
    if not isinstance(queries, list):
        counters.fallbacks.append("expand: reply has no list of queries")
        return []
    seen: dict[str, None] = {}
    for query in queries:
        if isinstance(query, str) and query.strip():
            seen.setdefault(" ".join(query.split())[:200], None)
    if not seen:
        counters.fallbacks.append("expand: no usable queries")
        return []
    return [(f"llm:{i + 1}", q) for i, q in enumerate(list(seen)[:MAX_LLM_QUERIES])]


def expand(
    task: str,
    tool: dict[str, Any] | None = None,
    llm: LLM | None = None,
    counters: PlannerCounters | None = None,
) -> list[tuple[str, str]]:
    """All sub-queries for ``task``: the template floor plus, with a capable model, its own."""
    facets = template_facets(task, tool)
    if is_capable(llm):
        assert llm is not None
        extra = llm_facets(llm, task, tool, counters if counters is not None else PlannerCounters())
        known = {q.lower() for _, q in facets}
        facets += [(f, q) for f, q in extra if q.lower() not in known]
    return facets
