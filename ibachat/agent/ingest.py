"""Ingestion: the one path by which chat turns and benchmark histories enter memory.

``ingest`` stores the turns (batch-embedded) and extracts preference events from the
new turns only, with their session context, appending them to the ledger and resolving
supersession incrementally (a later update or correction replaces an earlier statement
or habit of the same dimension). ``catch_up`` extracts turns stored without it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from typing import Any, Protocol

from ibachat.agent.reading.events import extract_events
from ibachat.agent.reading.lexicon import BY_DIMENSION
from memory.errors import NotFound
from memory.ledger import PreferenceEvent, PreferenceLedger
from memory.types import Turn

EXPLICIT = ("stated", "corrected", "updated", "rejected", "asked")
STRONG = ("corrected", "updated")


class IngestMemory(Protocol):
    ledger: PreferenceLedger

    def add_turns(self, records: Iterable[dict[str, Any]]) -> list[Turn]: ...

    def context(self, turn_id: int, before: int = 1, after: int = 1) -> list[Turn]: ...


def ingest(memory: Any, records: Iterable[dict[str, Any]], *, extract: bool = True) -> list[Turn]:
    """Store ``records`` as turns and add the preference events they carry to the ledger."""
    turns = memory.add_turns(records)
    if extract and turns:
        update_ledger(memory, turns)
    return turns


def update_ledger(memory: Any, turns: Sequence[Turn]) -> list[PreferenceEvent]:
    """Extract events from ``turns`` (new ones only) and append them, superseding stale ones."""
    if not turns:
        return []

    def context(turn: Turn) -> list[Turn]:
        try:
            return memory.context(turn.id, before=2, after=0)
        except NotFound:
            return []

    ledger: PreferenceLedger = memory.ledger
    read = extract_events(turns, context=context)
    events = _told_again(
        ledger, read + described_choices(memory, turns, context) + reactions(memory, turns, context, read)
    )
    added = ledger.add_many(events)
    supersede_stale(ledger, added)
    revised = ledger.add_many(revise_by_meaning(memory, ledger, added))
    supersede_stale(ledger, revised)
    for new in revised:  # the old value said in the user's own words ("gone vegetarian") is retired too
        for old in ledger.active(new.valid_from, dimensions=[OPEN]):
            if (
                old.speaker == "user"
                and old.polarity > 0
                and old.value.lower() == new.reason.split("was: ")[-1]
            ):
                ledger.supersede(old.id, new.id)
    added += revised
    ledger.mark_seen(max(t.id for t in turns))
    return added


OPEN = "open"

# A reply that takes an offered option by describing it ("the one where I'm sat down") takes the option
# nearest in meaning, when it is near enough and clearly nearer than the next: on replies written for
# other domains (tests/agent/test_offers.py and the probes in the session notes) a description's own
# option scored 0.25-0.56 and led the runner-up by 0.07-0.20; descriptions of none scored under 0.2.
CHOICE_MIN_SIM = 0.2
CHOICE_MARGIN = 0.06


def described_choices(memory: Any, turns: Sequence[Turn], context: Any) -> list[PreferenceEvent]:
    """The choice (and the options passed over) of each reply that described an offered option, by
    meaning; none without an embedder that carries meaning."""
    from ibachat.agent.reading.clauses import normalise
    from ibachat.agent.reading.events import REPLY_FLAG
    from ibachat.agent.reading.offers import offered, picked
    from ibachat.agent.reading.open_events import open_events

    todo = []
    for turn in turns:
        if turn.role != "user" or REPLY_FLAG in turn.flags or not turn.text.strip():
            continue
        before = [t for t in context(turn) if t.session_id == turn.session_id and t.id < turn.id]
        assistant = next((t for t in reversed(before) if t.role == "assistant"), None)
        offer = offered(assistant.text[:4000]) if assistant is not None else None
        pick = picked(normalise(turn.text[:2000]), offer) if offer is not None else None
        if pick is not None and pick.how == "described" and assistant is not None:
            todo.append((turn, assistant.text))
    if not todo:
        return []
    from ibachat.agent.alignment.grounding import unit
    from ibachat.agent.planner import meaning_of

    embed = meaning_of(memory)
    if embed is None:
        return []

    def resolve(described: str, options: list[str]) -> int | None:
        mat = unit(embed([described, *options]))
        sims = mat[1:] @ mat[0]
        order = sorted(range(len(options)), key=lambda i: -float(sims[i]))
        best, second = float(sims[order[0]]), float(sims[order[1]])
        return order[0] if best >= CHOICE_MIN_SIM and best - second >= CHOICE_MARGIN else None

    out = []
    for turn, assistant_text in todo:
        out += [
            e
            for e in open_events(turn, assistant_text, "rules", resolve)
            if e.reason.startswith(("open: choice", "open: passed-over"))
        ]
    return out


def reactions(
    memory: Any, turns: Sequence[Turn], context: Any, fresh: Sequence[PreferenceEvent]
) -> list[PreferenceEvent]:
    """The user's reactions to an outcome of the assistant's that went badly (``reading/outcomes.py``),
    kept only for a call made shortly before that they are about (``outcome_plan.about_a_call``: a
    thing they name that the call names, "that sauna" after a sauna booking, or their meaning near the
    call's): a broken kettle or a long queue at the bank is nobody's outcome of ours, and is not kept.
    The reply that owns a fault ("Sorry about that") is read when it comes, for the turn before."""
    from ibachat.agent.alignment.outcome_plan import about_a_call
    from ibachat.agent.planner import meaning_of
    from ibachat.agent.reading.events import REPLY_FLAG
    from ibachat.agent.reading.outcomes import unhappy

    found: list[PreferenceEvent] = []
    for turn in turns:
        if REPLY_FLAG in turn.flags:
            continue
        if turn.role == "user":
            found += unhappy(turn)
        elif turn.role == "assistant":
            before = [t for t in context(turn) if t.session_id == turn.session_id and t.id < turn.id]
            if before and before[-1].role == "user" and REPLY_FLAG not in before[-1].flags:
                found += unhappy(before[-1], turn)
    if not found:
        return []
    calls = [e for e in [*memory.ledger.all(), *fresh] if e.kind == "chose"]

    def said_with(turn_id: int) -> str:
        """The words a call was made with: its turn's, or, for a call with no words of its own (a bare
        tool call), the user's request before it and the assistant's report after it, in its session."""
        try:
            call = memory.get(turn_id)
        except NotFound:
            return ""
        if call.text.strip():
            return str(call.text)
        said = []
        for near in (turn_id - 1, turn_id + 1, turn_id + 2):
            try:
                turn = memory.get(near)
            except NotFound:
                continue
            if (
                turn.session_id == call.session_id
                and turn.role in ("user", "assistant")
                and turn.text.strip()
            ):
                said.append(turn.text.strip())
        return " ".join(said)

    out = []
    for e in found:
        tool = about_a_call(e, calls, said_with, meaning_of(memory))
        if tool:
            out.append(dataclasses.replace(e, value=f"{e.value} ({tool})", id=""))
    return out


def _told_again(ledger: PreferenceLedger, events: list[PreferenceEvent]) -> list[PreferenceEvent]:
    """A state told of again without a length ("hobbling round on crutches" while the cast's six weeks
    run) is the same state: it neither adds a row nor moves its end."""
    from ibachat.agent.reading.events import ASSUMED_LENGTH

    def same(o: PreferenceEvent, e: PreferenceEvent) -> bool:
        return (
            o.kind == "state"
            and (o.dimension, o.value, o.polarity, o.scope) == (e.dimension, e.value, e.polarity, e.scope)
            and o.valid_from <= e.valid_from
            and (o.valid_until is None or e.valid_from < o.valid_until)
        )

    out: list[PreferenceEvent] = []
    for e in sorted(events, key=lambda e: e.valid_from):
        if e.kind == "state" and ASSUMED_LENGTH in e.reason:
            earlier = [*ledger.active(e.valid_from, dimensions=[e.dimension]), *out]
            if any(same(o, e) for o in earlier):
                continue
        out.append(e)
    return out


REVISE_BEAR_MIN = 0.45  # MiniLM cosine of the new words to a value's definition (as text answers use)
REVISE_MARGIN = 0.1  # and the value they favour ahead of the next one


def revise_by_meaning(
    memory: Any, ledger: PreferenceLedger, added: Sequence[PreferenceEvent]
) -> list[PreferenceEvent]:
    """An update in the user's own words that speaks against an attribute's value in force ("I'm eating
    fish again, still no meat" after "vegetarian") records the value it means now, by meaning against
    the values' definitions (the glossary), as an update that supersedes the old value.

    Only the user's updates and corrections are heard, and only on exclusive attributes (one diet at a
    time); nothing is revised without an embedder that carries meaning."""
    fresh = [
        e
        for e in added
        if e.dimension == OPEN and e.speaker == "user" and e.kind in STRONG and e.scope == "general"
    ]
    if not fresh:
        return []
    from ibachat.agent.alignment.grounding import bearing, choose_enum, open_wishes, unit
    from ibachat.agent.planner import meaning_of

    embed = meaning_of(memory)
    if embed is None:
        return []

    def run(texts: list[str]) -> Any:
        return unit(embed(texts))

    when = max(e.valid_from for e in fresh)
    held: dict[str, PreferenceEvent] = {}
    for e in sorted(ledger.active(when), key=lambda e: e.valid_from):
        attr = BY_DIMENSION.get(e.dimension)
        if (
            attr is not None
            and attr.exclusive
            and not e.dimension.startswith(("text.", "state."))
            and e.polarity > 0
            and e.kind in EXPLICIT
            and e.scope == "general"
        ):
            held[e.dimension] = e
    out = []
    for dim, old in held.items():
        attr = BY_DIMENSION[dim]
        values = [str(v) for v in (attr.scale or attr.values)]
        newer = [w for w in open_wishes(fresh, when) if w.when is not None and w.when > old.valid_from]
        near = bearing("", values, newer, run, min_sim=REVISE_BEAR_MIN)
        found = choose_enum(values, near, run, task="", about=attr.label) if near else None
        if found is None or values[found[0]] == old.value or found[1].margin <= REVISE_MARGIN:
            continue
        said = "; ".join(dict.fromkeys(w.phrase for w in near))
        out.append(
            PreferenceEvent(
                dimension=dim,
                value=values[found[0]],
                kind="updated",
                valid_from=max(w.when for w in near),
                evidence=tuple(sorted({t for w in near for t in w.evidence})),
                subject=next((w.sentence for w in near if w.sentence), said),
                reason=f"by meaning: {said}; was: {old.value.lower()}",
                confidence=0.6,
            )
        )
    return out


def catch_up(memory: Any, *, batch: int = 500) -> int:
    """Extract events for stored turns newer than the ledger's watermark; returns how many turns."""
    mark = memory.ledger.watermark
    pending: list[Turn] = []
    for turn in memory.iter_turns(newest_first=True):
        if turn.id <= mark:
            break
        pending.append(turn)
    pending.reverse()
    for i in range(0, len(pending), batch):
        update_ledger(memory, pending[i : i + batch])
    return len(pending)


def _exclusive(dimension: str) -> bool:
    attr = BY_DIMENSION.get(dimension)
    return attr.exclusive if attr is not None else dimension not in ("text.avoid_words", "text.use_words")


def _lasting(e: PreferenceEvent) -> bool:
    return (
        e.kind != "state"
        and e.scope == "general"
        and e.speaker in ("user", "tool", "assistant")
        and e.kind not in ("claim", "ignored")
    )


def replaces(new: PreferenceEvent, old: PreferenceEvent) -> bool:
    """Whether ``new`` (the user's later words) makes ``old`` stale for good."""
    if new.speaker != "user" or new.kind not in EXPLICIT or not _lasting(new) or not _lasting(old):
        return False
    if old.valid_from >= new.valid_from or old.dimension != new.dimension or old.superseded_by or old.pinned:
        return False
    same = old.value == new.value
    if new.dimension.split(".")[0] == "open":
        return same and old.polarity != new.polarity  # open phrases are many things, not one attribute
    if old.kind == "chose":
        if new.kind not in STRONG:
            return False  # a statement outweighs a habit when resolving; only an update retires it
        return (same and new.polarity < 0) or (
            not same and new.polarity > 0 and old.polarity > 0 and _exclusive(new.dimension)
        )
    if new.kind == "asked" and old.kind != "asked":
        return False  # one request does not overturn a stated preference
    if same:
        return old.polarity != new.polarity
    return new.polarity > 0 and old.polarity > 0 and _exclusive(new.dimension)


def supersede_stale(ledger: PreferenceLedger, new_events: Sequence[PreferenceEvent]) -> int:
    """Mark older events replaced by ``new_events``; returns how many were superseded."""
    fresh = [e for e in new_events if e.speaker == "user" and e.kind in EXPLICIT and _lasting(e)]
    if not fresh:
        return 0
    dims = {e.dimension for e in fresh}
    by_dim: dict[str, list[PreferenceEvent]] = {}
    for e in ledger.all():
        if e.dimension in dims:
            by_dim.setdefault(e.dimension, []).append(e)
    count = 0
    for new in sorted(fresh, key=lambda e: (e.valid_from, e.id)):
        for old in by_dim.get(new.dimension, []):
            if replaces(new, old) and ledger.supersede(old.id, new.id):
                count += 1
    return count
