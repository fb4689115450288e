"""How an outcome went, read from the user's reaction to it: "woke up drenched in sweat, awful night".

A reaction often says that something went badly without naming the amount, or which way it was off
("like sitting in an oven", "the lorry had already been. useless"). The "too ADJ" complaints, which do
say the direction, are read in ``complaints.py``. Here the sign is enough, and either of two shows it:

- the reaction's own valence, read by VADER (a lexicon-and-rules sentiment reader: negation, degree
  words, capitals, "but"; a well-kept library, not our word list) at or below ``NEGATIVE``;
- the assistant's next turn owns a fault: an apology ("sorry", "apologies", "my bad"), or a promise to
  do it differently next time ("I'll go gentler next time"). Sympathy is not an apology ("sorry to
  hear that"), nor is regret at a refusal ("sorry, I can't open links").

Which of the assistant's actions a reaction is about, and what that changes, is settled where the tool
is known (``alignment/outcome_plan.py``): a question, a request or someone else's words react to nothing.
"""

from __future__ import annotations

import re
from functools import cache
from typing import TYPE_CHECKING

from ibachat.agent.reading.clauses import PLACEHOLDER, is_question, normalise, own_words, sentences
from ibachat.agent.reading.facts import event

if TYPE_CHECKING:
    from memory.ledger import PreferenceEvent
    from memory.store import Turn

OUTCOME_DIM = "open.outcome"  # value: UNHAPPY and what it is about; subject: the reaction; reason: the sign
UNHAPPY = "unhappy with: "  # "unhappy with: that sauna; an hour"

# VADER's compound score runs -1..+1; its authors call <= -0.05 negative. A reaction only counts at
# -0.25: on the reactions written for tests/agent/test_unhappy_outcomes.py and the session's probes,
# complaints that carry their valence in words scored -0.28 to -0.9, while neutral reports of an
# outcome ("the plumber came at 9") scored 0 and mixed ones ("fine i guess") above 0.
NEGATIVE = -0.25

_APOLOGY = re.compile(
    r"\b(?:sorry|apolog(?:y|ies|ise|ize|ised|ized))\b|\bmy (?:bad|mistake|fault)\b|\bthat's on me\b", re.I
)
# sorry for the user's lot, or for what the assistant cannot do: no fault of an outcome
_SYMPATHY = re.compile(
    r"\bsorry (?:to hear|for your|you(?:'re| are| had| have)?\b|that you|about your)"
    r"|\bsorry,? (?:but )?i (?:can't|cannot|can not|couldn't|could not|don't|do not|won't|am not|'m not)\b",
    re.I,
)
_AGAIN = re.compile(r"\b(?:sorry|apologies)\s+(?:once\s+)?again\b", re.I)
_FOR_WHAT = re.compile(r"\b(?:sorry|apolog\w*)\s+(?:about|for)\s+([^,.;!?]+)", re.I)
_POINTING = re.compile(r"(?:that|this|it|those|these|all that|the trouble|the mix-?up)\b", re.I)
_NEXT_TIME = re.compile(
    r"\b(?:i'll|i will|we'll|we will)\b[^.!?]{0,60}\bnext time\b|\bnext time,? (?:i'll|i will|we'll)\b", re.I
)


@cache
def _analyser():  # the lexicon loads once (about 7,500 entries)
    from vaderSentiment.vaderSentiment import SentimentIntensityAnalyzer

    return SentimentIntensityAnalyzer()


def valence(text: str) -> float:
    """VADER's compound valence of ``text``, -1 (very negative) to +1."""
    return float(_analyser().polarity_scores(text[:2000])["compound"])


def owns_a_fault(assistant_text: str, reaction: str = "") -> str:
    """The words of an assistant turn that own a fault in what the ``reaction`` is about ("" when none
    do). An apology for something named ("sorry about the delay") owns that, not the reaction's thing,
    unless the reaction names it too ("sorry about the pasta" to "pasta turned to mush"); one said
    again ("sorry again about the queue") is for an earlier fault."""
    from memory.lexical import tokenize

    for sentence in sentences(assistant_text[:1000]):
        if _NEXT_TIME.search(sentence):
            return sentence.strip()[:120]
        if not _APOLOGY.search(sentence) or _SYMPATHY.search(sentence) or _AGAIN.search(sentence):
            continue
        named = _FOR_WHAT.search(sentence)
        if named and not _POINTING.match(named.group(1)):
            if not set(tokenize(named.group(1))) & set(tokenize(reaction)):
                continue
        return sentence.strip()[:120]
    return ""


def _said(text: str) -> list[str]:
    """The sentences of a turn that may react to an outcome: the user's own, said, not asked."""
    return [
        s
        for s in sentences(text)
        if not is_question(s) and not s.rstrip().endswith("?") and PLACEHOLDER not in s
    ]


def _looks_back(said: list[str]) -> bool:
    """Whether the sentences tell of something that happened (a past-tense verb in the parse) and ask
    for nothing: "i'm shattered, order me a coffee" is a request in a mood, not a reaction."""
    from ibachat.agent.reading.acts import read_act
    from ibachat.agent.reading.parse import parse

    text = " ".join(said)
    if read_act(text).requests:
        return False
    return any(t.tag_ in ("VBD", "VBN") for t in parse(text[:1000]))


# the determiners that point at one known thing: "that sauna", "the new beans", "my fringe"
_DEFINITE = frozenset("the that this those these my our your its their".split())


@cache
def _people() -> frozenset[str]:
    from ibachat.agent import data

    return frozenset(data.load("people")["people"])


def referents(said: list[str]) -> list[str]:
    """The definite noun phrases a reaction speaks of ("that sauna", "the recycling reminder"): what
    it can be about. A reaction with none ("big news: I'm pregnant!") is about no outcome of ours."""
    from ibachat.agent.reading.parse import parse

    doc = parse(" ".join(said)[:1000])
    out = []
    for chunk in doc.noun_chunks:
        if chunk.root.pos_ not in ("NOUN", "PROPN") or chunk.root.lower_ in _people():
            continue  # "my sister": a person, no outcome
        # the determiner heads the chunk, or stands just before it when the tagger took it for a
        # conjunction or a pronoun ("so that sauna was ...", "that bin reminder was ...")
        before = doc[chunk.start - 1].lower_ if chunk.start > 0 else ""
        if chunk[0].lower_ in _DEFINITE and len(chunk) > 1:
            out.append(chunk.text.lower())
        elif before in _DEFINITE:
            out.append(f"{before} {chunk.text.lower()}")
    return list(dict.fromkeys(out))


def unhappy(turn: Turn, reply: Turn | None = None) -> list[PreferenceEvent]:
    """An ``OUTCOME_DIM`` event when the user's ``turn`` reacts to something as having gone badly: by its
    own valence (``reply`` None: the turn is read as it comes), or by the ``reply`` that owns a fault in
    it (read when the reply comes; the turn's valence was read before)."""
    said = _said(own_words(normalise(turn.text[:2000]))) if turn.role == "user" else []
    about = referents(said) if said else []  # what it may be about: the call it names, or is near
    if reply is None:
        score = valence(" ".join(said))
        why = f"the reaction's valence {score:+.2f}" if score <= NEGATIVE and _looks_back(said) else ""
    else:
        fault = owns_a_fault(reply.text, " ".join(said)) if reply.role == "assistant" else ""
        why = f"the reply owns a fault: {fault!r}" if fault else ""
    if not why:
        return []
    return [
        event(
            turn,
            OUTCOME_DIM,
            UNHAPPY + "; ".join(about[:4]),
            "rejected",
            polarity=-1,
            speaker="user",
            confidence=0.6,
            subject=turn.text.strip()[:200],
            reason=why,
        )
    ]
