"""Unrelated history for PrefEval tasks: filler sessions and a timeline spread over weeks.

Filler comes from the generator's small talk (``bench/generator/noise.py``: errands, trivia,
moods), which needs no extra file, and, when a LoCoMo file is given, also from LoCoMo sessions
(two friends chatting; the first speaker of a chunk becomes the user, the other the assistant).
Everything is drawn from the ``random.Random`` it is handed, so a task is the same for a seed.
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from bench.generator.noise import noise_pair

Turn = dict[str, Any]
ANCHOR = datetime(2025, 3, 3, tzinfo=UTC)  # the earliest a history may start
_SPEAKER = re.compile(r"^([^:\n]{1,40}): ")


class FillerSource:
    """Draws filler sessions of small talk, mixed half and half with LoCoMo chunks when it has them."""

    def __init__(self, locomo: Sequence[Sequence[tuple[str, str]]] = ()) -> None:
        self.locomo = [s for s in locomo if len(s) >= 2]  # sessions as (speaker, text) turns

    def sessions(self, rng: random.Random, turns: int) -> list[list[Turn]]:
        """Sessions holding exactly ``turns`` turns in all (an odd count ends on a user turn)."""
        out: list[list[Turn]] = []
        left = turns
        while left > 0:
            if self.locomo and rng.random() < 0.5:
                session = self._locomo_chunk(rng, left)
            else:
                session = self._small_talk(rng, left)
            out.append(session)
            left -= len(session)
        return out

    def _small_talk(self, rng: random.Random, left: int) -> list[Turn]:
        pairs = min(rng.randint(1, 4), (left + 1) // 2)
        when = ANCHOR + timedelta(days=rng.randrange(120))  # only the month and weekday are said
        session: list[Turn] = []
        for _ in range(pairs):
            user, reply = noise_pair(rng, when)
            session += [{"role": "user", "text": user}, {"role": "assistant", "text": reply}]
        return session[:left]

    def _locomo_chunk(self, rng: random.Random, left: int) -> list[Turn]:
        source = rng.choice(self.locomo)
        size = min(left, len(source), rng.randint(4, 12))
        start = rng.randrange(len(source) - size + 1)
        chunk = source[start : start + size]
        first = chunk[0][0]
        return [{"role": "user" if who == first else "assistant", "text": text} for who, text in chunk]


def read_locomo(path: Path | str) -> list[list[tuple[str, str]]]:
    """LoCoMo sessions as lists of (speaker, text), through ``bench.loaders.load_locomo``."""
    from bench.loaders import load_locomo

    sessions: dict[str, list[tuple[str, str]]] = {}
    for conversation in load_locomo(path).conversations:
        for turn in conversation.turns:
            match = _SPEAKER.match(turn.text)
            speaker, text = (match.group(1), turn.text[match.end() :]) if match else ("", turn.text)
            if text.strip():
                sessions.setdefault(turn.session, []).append((speaker, text))
    return list(sessions.values())


def timeline(rng: random.Random, sessions: int) -> tuple[list[datetime], datetime]:
    """Start times (in order, at least 20 minutes apart, daytime) over 3 to 8 weeks, and a ``now`` after them."""
    start = ANCHOR + timedelta(days=rng.randrange(90))
    span_days = rng.randint(21, 56)
    days = sorted(rng.randrange(span_days) for _ in range(sessions))
    times: list[datetime] = []
    for day in days:
        when = start + timedelta(days=day, hours=rng.randint(8, 21), minutes=rng.randrange(60))
        if times and when < times[-1] + timedelta(minutes=20):
            when = times[-1] + timedelta(minutes=20 + rng.randrange(40))
        times.append(when)
    last = times[-1] if times else start
    now = (last + timedelta(days=rng.randint(1, 3))).replace(
        hour=rng.randint(9, 19), minute=rng.randrange(60)
    )
    return times, now
