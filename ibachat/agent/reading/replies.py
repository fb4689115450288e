"""A user's reply read against what the assistant proposed or claimed just before.

"Nope." to "Shall I book the aisle again?" rejects the aisle (and, for a seat, implies the
window); "Yes, absolutely!" to "You love spicy food, right?" confirms it in the user's own
name; the user's own words about an offered value become a rejection or a correction.
"""

from __future__ import annotations

import re
from typing import Any

from ibachat.agent.reading.cues import AFFIRM, CLAIM, DENY
from ibachat.agent.reading.facts import event, with_changes
from ibachat.agent.reading.lexicon import BY_DIMENSION
from ibachat.agent.reading.polarity import analyse, sentences
from ibachat.agent.reading.schema_map import EXACT
from memory.ledger import PreferenceEvent
from memory.types import Turn


def answer_to(
    assistant: Turn,
    a_text: str,
    turn: Turn,
    text: str,
    events: list[PreferenceEvent],
    vocab: Any,
    extractor: str,
) -> list[PreferenceEvent]:
    """Read the user's reply against what the assistant proposed or claimed just before."""
    proposed: dict[str, list[tuple[str, int, bool, str]]] = {}
    for sentence in (part for whole in sentences(a_text) for part in re.split(r"\s*;\s*", whole) if part):
        claim = bool(CLAIM.search(sentence))
        for m in analyse(sentence, vocab=vocab):
            pol = m.polarity if m.polarity is not None else 1
            if (m.value, pol) not in [(v, p) for v, p, _, _ in proposed.get(m.dimension, [])]:
                proposed.setdefault(m.dimension, []).append((m.value, pol, claim, sentence))
    if not proposed:
        return events
    deny = bool(DENY.search(text))
    affirm = bool(AFFIRM.match(text)) and not deny
    evidence = tuple(i for i in (assistant.id, turn.id) if i)
    out = list(events)
    said = {
        e.dimension
        for e in events
        if not e.reason.startswith("state:") and not e.dimension.startswith("state.")
    }
    for dim, options in proposed.items():
        if dim in said:
            out = [_as_rejection(e, options, deny, evidence) if e.dimension == dim else e for e in out]
            mine = {e.value for e in out if e.dimension == dim}
            if not (deny and len(options) == 1 and options[0][0] not in mine and options[0][1] >= 0):
                continue
        elif len(options) != 1 or not (deny or affirm):
            continue
        value, pol, claim, sentence = options[0]
        subject = f"{text[:80]} (to: {sentence[:80]})"
        kw = dict(evidence=evidence, extractor=extractor, subject=subject)
        if deny:
            kind = "corrected" if claim else "rejected"
            new_pol = -1 if pol >= 0 else 1
            instead = [e.value for e in out if e.dimension == dim and e.polarity > 0 and e.value != value]
            why = f"{EXACT}instead of {instead[0]}" if instead and new_pol < 0 else ""
            out.append(event(turn, dim, value, kind, polarity=new_pol, confidence=0.8, reason=why, **kw))
            attr = BY_DIMENSION.get(dim)
            implied = attr.implies_when_avoided.get(value) if attr is not None and new_pol < 0 else None
            if implied and implied not in {e.value for e in out if e.dimension == dim}:
                why = f"implied by avoiding {value}"
                out.append(event(turn, dim, implied, "stated", polarity=1, confidence=0.6, reason=why, **kw))
        elif _reports_what_was(sentence):
            continue  # "That was medium starch; I can ask for less." - "yes pls": what was done is no offer
        else:
            kind, conf = ("stated", 0.7) if claim else ("asked", 0.45)
            out.append(
                event(
                    turn,
                    dim,
                    value,
                    kind,
                    polarity=pol,
                    confidence=conf,
                    evidence=evidence,
                    extractor=extractor,
                    subject=f"{text[:80]} (to: {sentence[:80]})",
                )
            )
    return out


def _as_rejection(
    event: PreferenceEvent, options: list[tuple[str, int, bool, str]], deny: bool, evidence: tuple[int, ...]
) -> PreferenceEvent:
    """The user's own words about a value the assistant had just offered."""
    offered = {v for v, p, _, _ in options if p >= 0}
    if event.polarity == -1 and event.value in offered and event.kind in ("stated", "asked", "corrected"):
        return with_changes(event, kind="rejected", confidence=max(event.confidence, 0.9), evidence=evidence)
    if event.polarity == 1 and deny and event.value not in offered and event.kind in ("stated", "asked"):
        return with_changes(event, kind="corrected", confidence=max(event.confidence, 0.9), evidence=evidence)
    return event


def _reports_what_was(sentence: str) -> bool:
    """Whether an assistant's sentence tells of what was done, in the past tense with no modal ("That was
    medium starch.", "I booked the aisle last time."), rather than offering or claiming something now."""
    from ibachat.agent.reading.parse import parse

    doc = parse(sentence[:300])
    root = next((t for t in doc if t.dep_ == "ROOT"), None)
    if root is None or root.tag_ != "VBD":
        return False
    return not any(t.tag_ == "MD" for t in doc) and "?" not in sentence
