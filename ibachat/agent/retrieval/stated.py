"""The user's stated preferences as a channel of their own, for a task that asks for a choice.

A request for a recommendation, a suggestion or a plan ("what are some things to do in
Lisbon?", "how can I get fitter?") is shaped by what the user has said they like, avoid or
cannot do, and such a statement rarely shares a word with the request ("I can't stand
heights" against "adventures in the Alps"). Neither BM25 nor the cosine floors see it as
relevant, but among the user's own statements of taste it is often the closest to the task.

So, for such a task, the task's dense search is read deeper (``STATED_DEPTH``) and the
user's plain first-person statements with a preference cue in it form a channel: its best
``STATED_KEEP`` by cosine to the task are kept in the evidence (they take the place of the
lowest items that neither the task's own best hits nor this channel protect), and their
presence means memory bears on the task. A factual question ("what's the capital of
Peru?") asks for no choice and gets none of this.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from ibachat.agent.retrieval.salience import detect_cues

if TYPE_CHECKING:
    from memory.types import Turn

STATED_DEPTH = 60  # the task's dense hits read for stated preferences
STATED_KEEP = 2  # the channel's best kept in the evidence
# Cues that state a taste or a constraint (not a mention of time, not a habit alone).
STATED_CUES = frozenset({"preference", "rejection", "correction", "update", "temporary state"})

_CHOICE = re.compile(
    r"\b(?:recommend\w*|suggest\w*|advice|advise|ideas?|options?|tips?|pick|choose|which|"
    r"what (?:are|is) (?:some|a good|the best|good)|what should|where should|how (?:can|should|do) (?:i|we)|"
    r"should i|should we|plan\w*|for me|for us|ways? to|help me (?:find|choose|pick|decide|plan))\b",
    re.IGNORECASE,
)


# What the user never does or will not do, in any verb ("I don't wear wool", "we never fly"):
# a constraint stated as a habit, which the taste cues (like, hate, avoid...) do not cover.
_AVOIDS = re.compile(
    r"\b(?:i|we) (?:really |just |also |still |strictly )?(?:do not|don't|never|no longer|refuse to|won't|"
    r"will not|can't|cannot|am unable to)\b",
    re.IGNORECASE,
)


# A question about someone else, by name ("what did Anna recommend?", "Anna's plans"), asks
# for what they chose, not for a choice for the user; unless the user is in it too.
_SOMEONE = re.compile(
    r"\b(?:do|does|did|is|was|has|had|would|will|can|could|should) [A-Z][a-z]+\b|\b[A-Z][a-z]+'s\b"
)
_PERSONAL = re.compile(r"\b(?:i|i'm|i'd|i've|me|my|mine|we|us|our|you|your|you'd)\b", re.IGNORECASE)


def asks_for_choice(task: str) -> bool:
    """Whether ``task`` asks for something chosen or planned for the user."""
    if not _CHOICE.search(task):
        return False
    return bool(_PERSONAL.search(task)) or not _SOMEONE.search(task)


def is_stated(turn: Turn) -> bool:
    """A plain first-person statement of the user's (not a question) with a preference cue."""
    if turn.role != "user":
        return False
    cues = detect_cues(turn.text)
    if not cues.first_person or cues.question:
        return False
    return bool(STATED_CUES.intersection(cues.labels)) or bool(_AVOIDS.search(turn.text.replace("’", "'")))


def best_stated(turns: Sequence[Turn], cosine: dict[int, float]) -> list[int]:
    """Ids of the stated preferences among ``turns`` that the task's dense search found, closest
    first, at most ``STATED_KEEP``."""
    stated = [t.id for t in turns if t.id in cosine and is_stated(t)]
    return sorted(stated, key=lambda i: -cosine[i])[:STATED_KEEP]
