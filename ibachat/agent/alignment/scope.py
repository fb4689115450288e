"""What a statement was said about: the activity, tool or place it applies to, by meaning.

"Under 30 a head when we eat out" is about eating out, not about hotels; "keep your answers short" is
about the assistant's replies, not about a coffee's size; "I always get it hot at Spice Garden" is about
that restaurant. A preference, an amount or a habit applies where it was said; elsewhere it is left out.

The test is relative, so that it carries to any tool: a statement is out of this tool's scope when it is
plainly nearer (by ``SCOPE_GAP``) to some other activity than to this tool. The other activities are
the product's own tool catalogue (tools of this tool's own kind, written in other words, do not count
against it) and the assistant's replies themselves. A statement about the person ("I'm vegetarian",
"my knee is bad") is near no activity in particular, so it stays in scope where it bears on a value.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Any

import numpy as np

Embed = Callable[[list[str]], Any]

# How much nearer to another activity a statement must be to be out of this tool's scope (MiniLM
# cosine). Set on our own probes: budgets, tastes and habits said about one activity against tools of
# others sit 0.12-0.35 nearer to their own; statements about the person stay within 0.08.
SCOPE_GAP = 0.1
# Tool texts this close are one kind of tool in other words (a "takeaway_order" and "order_food").
SAME_KIND = 0.6
# The assistant's own replies, as one more activity a statement can be about.
REPLIES = "how the assistant writes its answers and replies to me: their length, tone, format and wording"


@lru_cache(maxsize=1)
def _catalogue_texts() -> tuple[str, ...]:
    from ibachat.agent.meaning import catalogue, tool_text

    return tuple(tool_text(t) for t in catalogue())


def in_scope(sentences: Sequence[str], tool: dict[str, Any], embed: Embed | None) -> list[bool]:
    """For each statement, whether it may apply to ``tool`` (False: it is about something else)."""
    if embed is None or not sentences:
        return [True] * len(sentences)
    from ibachat.agent.meaning import VECTORS, tool_text

    target = tool_text(tool)
    others = [t for t in _catalogue_texts() if t != target] + [REPLIES]
    tools = VECTORS.get(embed, [target, *others])
    kinds = tools[1:] @ tools[0]
    rivals = tools[1:][np.asarray([k < SAME_KIND for k in kinds[:-1]] + [True])]
    said = VECTORS.get(embed, list(sentences))
    own = said @ tools[0]
    best_other = (said @ rivals.T).max(axis=1) if len(rivals) else np.full(len(sentences), -1.0)
    return [bool(o >= b - SCOPE_GAP) for o, b in zip(own, best_other)]


def about_replies(
    sentences: Sequence[str], embed: Embed | None, tools: Sequence[dict[str, Any]] = ()
) -> list[bool]:
    """For each statement, whether it is about the assistant's replies more than about any activity."""
    if embed is None or not sentences:
        return [False] * len(sentences)
    from ibachat.agent.meaning import VECTORS

    texts = [REPLIES, *_catalogue_texts()]
    mat = VECTORS.get(embed, texts)
    said = VECTORS.get(embed, list(sentences))
    sims = said @ mat.T
    return [bool(row[0] >= row[1:].max()) for row in sims]
