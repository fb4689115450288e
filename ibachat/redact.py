"""Secrets are redacted before any turn is stored: API keys, passwords, card numbers, private keys."""

from __future__ import annotations

import re

_PATTERNS: list[tuple[str, re.Pattern[str]]] = [
    (
        "private key",
        re.compile(r"-----BEGIN [A-Z ]*PRIVATE KEY-----.*?-----END [A-Z ]*PRIVATE KEY-----", re.S),
    ),
    ("api key", re.compile(r"\b(?:sk|pk|rk)-[A-Za-z0-9_-]{16,}\b")),
    ("api key", re.compile(r"\b(?:AKIA|ASIA)[A-Z0-9]{16}\b")),
    ("api key", re.compile(r"\bgh[pousr]_[A-Za-z0-9]{30,}\b")),
    ("api key", re.compile(r"\bxox[abposr]-[A-Za-z0-9-]{10,}\b")),
    ("api key", re.compile(r"\bAIza[0-9A-Za-z_-]{35}\b")),
    ("token", re.compile(r"\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\b")),
    (
        "api key",
        re.compile(
            r"(?i)\b(api[_ -]?key|secret|access[_ -]?token|auth[_ -]?token)\b(\s*(?:is|[:=])\s*)(\S{8,})"
        ),
    ),
    ("password", re.compile(r"(?i)\b(password|passwd|pwd|passcode|pin)\b(\s*(?:is|[:=])\s*)([^\s,;]+)")),
]
_CARD = re.compile(r"\b(?:\d[ -]?){12,18}\d\b")


def _luhn(digits: str) -> bool:
    total = 0
    for i, ch in enumerate(reversed(digits)):
        d = int(ch)
        if i % 2:
            d = d * 2 - 9 if d > 4 else d * 2
        total += d
    return total % 10 == 0


def redact(text: str) -> tuple[str, list[str]]:
    """Return the text with secrets replaced by ``[REDACTED <kind>]`` and the kinds found."""
    found: list[str] = []

    for kind, pattern in _PATTERNS:

        def sub(m: re.Match[str], kind: str = kind) -> str:
            found.append(kind)
            if m.lastindex and m.lastindex >= 3:  # keep "password is" and hide only the value
                return f"{m.group(1)}{m.group(2)}[REDACTED {kind}]"
            return f"[REDACTED {kind}]"

        text = pattern.sub(sub, text)

    def card(m: re.Match[str]) -> str:
        digits = re.sub(r"\D", "", m.group())
        if 13 <= len(digits) <= 19 and _luhn(digits):
            found.append("card number")
            return "[REDACTED card number]"
        return m.group()

    text = _CARD.sub(card, text)
    return text, sorted(set(found))
