"""What scoring a check gives: its status and why (shared by the scorer and the judges)."""

from __future__ import annotations

from dataclasses import dataclass

PASS, FAIL, UNSCORED = "pass", "fail", "unscored"


@dataclass
class CheckResult:
    id: str
    kind: str
    status: str  # pass | fail | unscored
    reason: str
    dynamic: bool = False
    dimension: str | None = None

    @property
    def scored(self) -> bool:
        return self.status != UNSCORED
