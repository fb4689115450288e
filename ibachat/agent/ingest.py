"""Ingestion: the one path by which chat turns and benchmark histories enter memory.

``ingest`` stores the turns (batch-embedded) and extracts preference events from the
new turns only, with their session context, appending them to the ledger and resolving
supersession incrementally (a later update or correction replaces an earlier statement
or habit of the same dimension). ``catch_up`` extracts turns stored without it.
"""

from __future__ import annotations

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
    events = extract_events(turns, context=context)
    added = ledger.add_many(events)
    supersede_stale(ledger, added)
    ledger.mark_seen(max(t.id for t in turns))
    return added


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
