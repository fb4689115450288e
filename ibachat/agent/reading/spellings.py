"""Texting spellings spelled out ("cn u" -> "can you", "tmrw" -> "tomorrow") and an arrow between
two words read as "to": before a request is read for its act (``acts.py``) or its time (``when.py``).
The spellings are data (``data/chat_spellings.json``)."""

from __future__ import annotations

import re
from functools import lru_cache


@lru_cache(maxsize=1)
def _chat_spellings() -> tuple[re.Pattern[str], dict[str, str]]:
    from ibachat.agent.data import load

    table = {k.lower(): v for k, v in load("chat_spellings").items() if k != "about" and isinstance(v, str)}
    words = "|".join(re.escape(k) for k in sorted(table, key=len, reverse=True))
    return re.compile(rf"(?<![\w'-])(?:{words})(?![\w'-])", re.I), table


def texting_words(text: str) -> dict[str, str]:
    """Each texting spelling in ``text`` by the words it stands for ("tomorrow": "tmrw")."""
    pattern, table = _chat_spellings()
    return {table[m.group(0).lower()]: m.group(0) for m in pattern.finditer(text)}


def spelled_out(text: str) -> str:
    """``text`` with texting spellings spelled out ("cn u" -> "can you", "2 tix" -> "2 tickets"),
    each word's case kept as far as it goes (``data/chat_spellings.json``)."""
    pattern, table = _chat_spellings()

    def spell(m: re.Match[str]) -> str:
        full = table[m.group(0).lower()]
        return full[0].upper() + full[1:] if m.group(0)[0].isupper() else full

    return _ARROW.sub(" to ", pattern.sub(spell, text))


# an arrow between two words ("paris → brussels", "LHR -> JFK") is "to": the symbol, read as the word
_ARROW = re.compile(r"(?<=\w)\s*(?:→|⟶|➔|➜|->|=>|-->)\s*(?=\w)")
