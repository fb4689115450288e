"""Plain data shared by every layer: a remembered turn and a search hit."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from datetime import datetime, timezone
from typing import Any

ROLES = ("user", "assistant", "tool")
SOURCES = ("chat", "bench", "import")


def utcnow() -> datetime:
    return datetime.now(timezone.utc)


def parse_time(value: str | datetime) -> datetime:
    """Parse ISO-8601 (a trailing ``Z`` allowed); a naive time is taken as UTC."""
    if isinstance(value, datetime):
        dt = value
    elif not isinstance(value, str):
        raise TypeError(f"a time must be an ISO-8601 string, not {type(value).__name__}")
    else:
        text = value.strip()
        if text.endswith(("Z", "z")):
            text = text[:-1] + "+00:00"
        dt = datetime.fromisoformat(text)
    if dt.tzinfo is None:
        dt = dt.replace(tzinfo=timezone.utc)
    return dt


@dataclass(frozen=True)
class Turn:
    """One remembered message. ``id`` is assigned by the store and never reused."""

    id: int
    session_id: str
    role: str
    text: str
    time: datetime
    source: str = "chat"
    tool_call: dict[str, Any] | None = None
    flags: tuple[str, ...] = ()  # e.g. ("never_use",)

    def to_record(self) -> dict[str, Any]:
        rec = asdict(self)
        rec["time"] = self.time.isoformat()
        rec["flags"] = list(self.flags)
        if rec["tool_call"] is None:
            del rec["tool_call"]
        if not rec["flags"]:
            del rec["flags"]
        return rec

    @classmethod
    def from_record(cls, rec: dict[str, Any]) -> Turn:
        return cls(
            id=int(rec["id"]),
            session_id=str(rec["session_id"]),
            role=str(rec["role"]),
            text=str(rec["text"]),
            time=parse_time(rec["time"]),
            source=str(rec.get("source", "chat")),
            tool_call=rec.get("tool_call"),
            flags=tuple(rec.get("flags", ())),
        )


@dataclass
class Hit:
    """A search result. Higher ``score`` means more relevant, in every index."""

    id: int
    score: float
    why: dict[str, Any] = field(default_factory=dict)
