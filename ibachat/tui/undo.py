"""Forget with undo: what was forgotten is kept in this process (never on disk) for a while.

Undoing a turn's forgetting stores it again under its own id (ids are never reused, so it is
still free) and re-appends the ledger events that went with it. Undoing a preference's
removal re-appends the event (same id) with its pin and the supersessions that named it.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from memory.errors import NotFound

if TYPE_CHECKING:
    from memory.ledger import PreferenceEvent
    from memory.memory import Memory
    from memory.types import Turn

UNDO_WINDOW_S = 120.0


@dataclass
class Undoable:
    """One forgetting that can still be taken back."""

    label: str
    at: float
    turns: list[Turn] = field(default_factory=list)
    events: list[PreferenceEvent] = field(default_factory=list)
    superseded: list[tuple[str, str]] = field(default_factory=list)  # (old id, removed event id)
    plans: dict[int, dict[str, Any]] = field(default_factory=dict)  # alignment plans by old turn id


class UndoBuffer:
    """The most recent forgettings, newest last; entries older than ``window`` seconds expire."""

    def __init__(
        self, memory: Memory, *, window: float = UNDO_WINDOW_S, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.memory = memory
        self.window = window
        self.clock = clock
        self._items: list[Undoable] = []

    def _prune(self) -> None:
        now = self.clock()
        self._items = [item for item in self._items if now - item.at <= self.window]

    @property
    def pending(self) -> str | None:
        """What ``undo`` would restore, or None."""
        self._prune()
        return self._items[-1].label if self._items else None

    def forget_turns(self, ids: list[int]) -> list[Turn]:
        """Forget turns for real (store, indexes, cache, ledger, plans), keeping them for undo."""
        wanted = set(ids)
        events = [_copy(e) for e in self.memory.ledger.all(muted=True) if wanted.intersection(e.evidence)]
        plans = {i: plan for i in wanted if (plan := self.memory.plans.get(i)) is not None}
        removed = self.memory.forget(ids)
        if removed:
            gone_ids = {t.id for t in removed}
            # only events the forgetting removed outright come back; trimmed ones are still there
            left = {e.id for e in self.memory.ledger.all(muted=True)}
            dropped = [e for e in events if e.id not in left]
            label = f"turn #{removed[0].id}" if len(removed) == 1 else f"{len(removed)} turns"
            plans = {i: p for i, p in plans.items() if i in gone_ids}
            self._items.append(Undoable(label, self.clock(), list(removed), dropped, plans=plans))
        return removed

    def forget_event(self, event_id: str) -> PreferenceEvent:
        """Remove a preference event from the ledger, keeping it for undo."""
        ledger = self.memory.ledger
        event = ledger.get(event_id)
        kept = _copy(event)
        pointing = [(e.id, event_id) for e in ledger.all() if e.superseded_by == event_id]
        ledger.remove(event_id)
        label = f"preference {event.dimension}"
        self._items.append(Undoable(label, self.clock(), events=[kept], superseded=pointing))
        return event

    def undo(self) -> str | None:
        """Restore the newest forgetting still in the window; returns its label, or None."""
        self._prune()
        if not self._items:
            return None
        item = self._items.pop()
        if item.turns:
            self._restore_turns(item)
        else:
            self._restore_events(item)
        return item.label

    def _restore_turns(self, item: Undoable) -> list[int]:
        records: list[dict[str, Any]] = []
        for turn in item.turns:
            rec = turn.to_record()
            rec.pop("flags", None)
            records.append(rec)
        self.memory.restore_turns(records)  # under their own ids: #131 comes back as #131
        for old in item.turns:
            if "never_use" in old.flags:
                self.memory.set_never_use(old.id)
        for old_id, plan in item.plans.items():
            self.memory.plans.save(old_id, plan)
        if item.events:
            from memory.ledger import copy_event

            self.memory.ledger.add_many(copy_event(e, superseded_by=None) for e in item.events)
        return [turn.id for turn in item.turns]

    def _restore_events(self, item: Undoable) -> None:
        ledger = self.memory.ledger
        for event in item.events:
            ledger.add(event)  # its pin travels in the event itself
        for old_id, new_id in item.superseded:
            try:
                ledger.supersede(old_id, new_id)
            except NotFound:
                continue  # the event that was superseded has been removed since


def _copy(event: PreferenceEvent) -> PreferenceEvent:
    from memory.ledger import PreferenceEvent

    return PreferenceEvent.from_dict(event.to_dict())
