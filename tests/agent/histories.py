"""A builder of noisy chat histories for planner tests: signal sessions buried in small talk.

The noise is varied off-topic chat (weather, code, books, trivia, chores, pets) with a few
deliberate distractors: other people's tastes and generic remarks by the assistant that
must never become the user's preferences. Deterministic for a given seed.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from typing import Any

START = datetime(2025, 1, 6, 9, 0, tzinfo=timezone.utc)

_TOPICS = [
    (
        "What's the weather looking like in {city} this weekend?",
        "Mostly cloudy in {city} with a chance of showers on Sunday.",
    ),
    (
        "Can you explain what a Python decorator does?",
        "A decorator wraps a function to add behaviour without changing its code.",
    ),
    ("How many {unit} are in a mile?", "There are {n} {unit} in a mile, give or take rounding."),
    ("Recommend a novel like {book}.", "If you liked {book}, try something by the same era's authors."),
    (
        "My {pet} keeps scratching the sofa, any tips?",
        "Try a scratching post near the sofa and reward the {pet} for using it.",
    ),
    ("What year did the Berlin Wall fall?", "It fell in 1989, on the ninth of November."),
    ("Remind me how to reverse a list in JavaScript.", "Use array.reverse(), which reverses it in place."),
    (
        "Is it worth repotting a {plant} in winter?",
        "Usually wait until spring unless the {plant} is root-bound.",
    ),
    ("What's the capital of {country}?", "The capital of {country} is its largest administrative city."),
    (
        "Summarise the plot of {book} in one line.",
        "{book} follows a protagonist through a turning point in their life.",
    ),
    ("How do I get red wine out of a carpet?", "Blot it, then use cold water and a little dish soap."),
    ("Convert {n} euros to dollars roughly.", "That is a little more than {n} dollars at today's rate."),
    ("Why is the sky blue?", "Shorter blue wavelengths scatter more in the atmosphere."),
    ("Any good podcasts about {subject}?", "There are several well-reviewed shows about {subject}."),
    (
        "What's a good stretch for a stiff neck after work?",
        "Slow chin tucks and side tilts help; hold each for a few breaths.",
    ),
    ("Help me name my new {pet}.", "How about Pepper, Biscuit or Juniper for a {pet}?"),
    ("How long should I steep green tea?", "Two to three minutes at about 80 degrees."),
    ("What does HTTP 418 mean?", "It's the joke status code: I'm a teapot."),
    ("Can you proofread: 'their going to the park'?", "It should be 'they're going to the park'."),
    (
        "What's the difference between a crocodile and an alligator?",
        "Snout shape mostly: crocodiles have V-shaped snouts.",
    ),
    ("Good name for a {subject} study group?", "Maybe 'The {subject} Circle' or 'Office Hours'."),
    ("How do I clear the cache in Firefox?", "Settings, Privacy and Security, then Clear Data."),
    (
        "I finally finished the {plant} repotting today.",
        "Nice work, give it some indirect light for a few days.",
    ),
    ("What's a haiku about {city}?", "Morning in {city} / trams hum under paper skies / coffee steam rises."),
    ("Tell me a fun fact about octopuses.", "They have three hearts and blue blood."),
    ("What time zone is {city} in?", "{city} keeps its own local time; check daylight saving dates."),
    (
        "How do I split a bill of {n} between three people?",
        "Divide {n} by three and round to the nearest cent.",
    ),
    ("The football match last night was wild.", "Sounds like a great game! Who scored the winner?"),
    ("I'm repainting the hallway this weekend.", "Sounds fun. Remember to tape the skirting boards first."),
    (
        "What's the best way to learn {subject}?",
        "Short daily practice beats occasional long sessions for {subject}.",
    ),
]
_DISTRACTORS = [
    (
        "My brother absolutely hates window seats, he says they make him claustrophobic.",
        "Good to know for when you travel together.",
    ),
    ("My colleague is obsessed with spicy ramen.", "Sounds like a fun lunch companion."),
    (
        "What does 'al dente' mean?",
        "Cooked so it is still firm when bitten; many people love pasta that way.",
    ),
    ("Our team lunch was at a steakhouse, I just went along.", "Team lunches are a nice break."),
    ("Is decaf actually caffeine free?", "Not entirely; decaf still has a small amount of caffeine."),
]
_FILL = {
    "city": ["Lisbon", "Osaka", "Toronto", "Nairobi", "Krakow", "Valparaiso", "Hobart"],
    "unit": ["feet", "yards", "inches"],
    "n": ["12", "48", "73", "150", "260"],
    "book": ["Middlemarch", "The Remains of the Day", "Piranesi", "Kindred", "Stoner"],
    "pet": ["cat", "kitten", "rabbit"],
    "plant": ["monstera", "fiddle-leaf fig", "pothos", "snake plant"],
    "country": ["Mongolia", "Chile", "Portugal", "Ghana", "Latvia"],
    "subject": ["statistics", "Spanish", "woodworking", "chess", "astronomy"],
}


def _fill(text: str, rng: random.Random) -> str:
    for key, values in _FILL.items():
        token = "{" + key + "}"
        if token in text:
            text = text.replace(token, rng.choice(values))
    return text


@dataclass
class History:
    """Sessions of (role, text[, tool_call]) turns placed on a timeline."""

    start: datetime = START
    seed: int = 0
    _records: list[dict[str, Any]] = field(default_factory=list)
    _sessions: int = 0

    def say(self, day: float, *turns: tuple[Any, ...]) -> History:
        """One session on ``day`` (days after ``start``), a minute between turns."""
        self._sessions += 1
        sid = f"s{self._sessions:04d}"
        t0 = self.start + timedelta(days=day)
        for i, turn in enumerate(turns):
            role, text = turn[0], turn[1]
            rec: dict[str, Any] = {
                "session_id": sid,
                "role": role,
                "text": text,
                "time": t0 + timedelta(minutes=i),
            }
            if len(turn) > 2 and turn[2] is not None:
                rec["tool_call"] = turn[2]
            self._records.append(rec)
        return self

    def noise(self, sessions: int, first_day: float, last_day: float, *, distractors: bool = True) -> History:
        """Off-topic sessions spread over [first_day, last_day]."""
        rng = random.Random(self.seed * 7919 + self._sessions)
        pool = list(_TOPICS) + (list(_DISTRACTORS) if distractors else [])
        for i in range(sessions):
            day = first_day + (last_day - first_day) * (i + rng.random()) / max(sessions, 1)
            picks = rng.sample(pool, k=rng.choice([1, 2]))
            turns: list[tuple[str, str]] = []
            for user, assistant in picks:
                turns += [("user", _fill(user, rng)), ("assistant", _fill(assistant, rng))]
            self.say(day, *turns)
        return self

    def records(self) -> list[dict[str, Any]]:
        return sorted(self._records, key=lambda r: r["time"])

    def at(self, day: float, hour: float = 0.0) -> datetime:
        return self.start + timedelta(days=day, hours=hour)


def call(name: str, **arguments: Any) -> dict[str, Any]:
    return {"name": name, "arguments": arguments}
