"""Meaning shared by the planner's stages: a tool's text, the product's catalogue, cached vectors.

Below every stage (reading, retrieval, alignment and execution may all use it): the words that say
what a tool does, and the embeddings of short texts (tool texts, values, statements) computed once per
embedder and text for the life of the process.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable
from functools import lru_cache
from typing import Any

Embed = Callable[[list[str]], Any]


def name_words(tool: dict[str, Any]) -> list[str]:
    """The words of a tool's name ("bookTrain", "book_train" -> ["book", "train"])."""
    name = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", str(tool.get("name", "")))
    return [w for w in re.split(r"[\s_\-.]+", name.lower()) if w]


# The assistant's own replies, as one more activity a statement can be about.
REPLIES = "how the assistant writes its answers and replies to me: their length, tone, format and wording"


def param_texts(tool: dict[str, Any]) -> list[str]:
    """A parameter's name and description: a statement about one feature ("a 5 minute alert is useless")
    is in scope of every tool that has it, whichever tool it sounds most like."""
    out = []
    for name, prop in ((tool.get("parameters") or {}).get("properties") or {}).items():
        desc = str(prop.get("description", "")) if isinstance(prop, dict) else ""
        out.append(f"{name.replace('_', ' ')}: {desc}".strip(": "))
    return out


def tool_text(tool: dict[str, Any]) -> str:
    """What a tool does, in words: its name's words and its description."""
    return f"{' '.join(name_words(tool))}: {tool.get('description', '')}".strip(": ")


def route_text(tool: dict[str, Any]) -> str:
    """A tool's text as the router embeds it: for one of the product's own tools (its description
    unchanged), its text and its everyday gloss (``data/tool_glosses.json``); any other tool's own text."""
    text = tool_text(tool)
    gloss = _glosses().get(text)
    return f"{text} {gloss}" if gloss else text


@lru_cache(maxsize=1)
def _glosses() -> dict[str, str]:
    from ibachat.agent.data import load

    data = load("tool_glosses")
    return {tool_text(t): data[t["name"]] for t in catalogue() if isinstance(data.get(t["name"]), str)}


@lru_cache(maxsize=1)
def catalogue() -> tuple[dict[str, Any], ...]:
    """The product's own tools, as task tools (name, description, parameters)."""
    from ibachat.agent.execution.tools import as_task_tool, tools_for

    return tuple(as_task_tool(t) for t in tools_for())


class Vectors:
    """Unit embeddings of short texts, computed once per embedder and text."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._cache: dict[tuple[int, str], Any] = {}

    def get(self, embed: Embed, texts: list[str]) -> Any:
        import numpy as np

        key = id(getattr(embed, "__self__", embed))
        with self._lock:
            missing = [t for t in dict.fromkeys(texts) if (key, t) not in self._cache]
        if missing:
            mat = np.asarray(embed(missing), dtype=np.float32)
            mat = mat / np.maximum(np.linalg.norm(mat, axis=1, keepdims=True), 1e-9)
            with self._lock:
                for t, v in zip(missing, mat):
                    self._cache[(key, t)] = v
        with self._lock:
            return np.stack([self._cache[(key, t)] for t in texts])


VECTORS = Vectors()
