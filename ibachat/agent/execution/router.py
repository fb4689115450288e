"""Does a chat message ask for an action, and with which tool? Otherwise it gets a text answer.

The benchmark hands the planner the tools of an action task; in chat every tool is on offer,
so a question ("what is the capital of Australia?") must not turn into a tool call. A message
is an action request when it asks for something to be done (an imperative, or "can you /
please / I need you to ...") with a verb that one of the tools performs.
"""

from __future__ import annotations

import re
from typing import Any

# Request verbs and the tool-name words they lead to.
VERBS: dict[str, tuple[str, ...]] = {
    "order": ("order", "food", "coffee", "groceries"),
    "get": ("order", "food", "coffee", "groceries", "ride"),
    "buy": ("buy", "product", "groceries"),
    "purchase": ("buy", "product"),
    "book": ("book", "flight", "train", "hotel", "table", "tickets", "appointment", "class", "ride"),
    "reserve": ("book", "table", "hotel", "tickets"),
    "schedule": ("create", "event", "appointment", "book"),
    "arrange": ("book", "create", "event", "ride"),
    "remind": ("set", "reminder"),
    "send": ("send", "email"),
    "email": ("send", "email"),
    "rent": ("rent", "car"),
    "refill": ("refill", "prescription"),
    "renew": ("refill", "prescription"),
    "subscribe": ("subscribe", "news"),
    "save": ("save", "note"),
    "note": ("save", "note"),
    "jot": ("save", "note"),
    "plan": ("create", "plan", "workout", "meal"),
    "make": ("create", "plan", "event", "workout", "meal"),
    "create": ("create", "plan", "event"),
    "call": ("book", "ride"),
    "add": ("create", "event"),
    "put": ("create", "event"),
    "set": ("set", "reminder", "create"),
}
# Everyday nouns for what a tool acts on.
OBJECTS: dict[str, str] = {
    "taxi": "ride",
    "cab": "ride",
    "uber": "ride",
    "lift": "ride",
    "car": "car",
    "call": "event",
    "meeting": "event",
    "sync": "event",
    "standup": "event",
    "calendar": "event",
    "dentist": "appointment",
    "doctor": "appointment",
    "gp": "appointment",
    "physio": "appointment",
    "checkup": "appointment",
    "therapist": "appointment",
    "dinner": "food",
    "lunch": "food",
    "takeaway": "food",
    "pizza": "food",
    "delivery": "food",
    "latte": "coffee",
    "espresso": "coffee",
    "cappuccino": "coffee",
    "milk": "groceries",
    "shopping": "groceries",
    "workouts": "workout",
    "training": "workout",
    "gym": "workout",
    "meals": "meal",
    "seat": "flight",
    "plane": "flight",
    "room": "hotel",
    "stay": "hotel",
    "concert": "tickets",
    "movie": "tickets",
    "show": "tickets",
    "gig": "tickets",
    "restaurant": "table",
    "yoga": "class",
    "pilates": "class",
    "spin": "class",
    "prescription": "prescription",
    "meds": "prescription",
    "medication": "prescription",
    "newsletter": "news",
    "digest": "news",
}
_POLITE = r"(?:please\s+|kindly\s+|can you\s+|could you\s+|would you\s+|will you\s+|i need you to\s+|i want you to\s+|go ahead and\s+|let'?s\s+)*"
_START = re.compile(
    rf"^\s*(?:(?:hey|hi|ok|okay|so|alright|right|now)\b[,\s]*)*{_POLITE}(?P<verb>[a-z]+)\b", re.I
)
_INLINE = re.compile(rf"(?:[.!;]\s+|\b(?:and|then)\s+){_POLITE}(?P<verb>[a-z]+)\b", re.I)
_WORD = re.compile(r"[a-z]{3,}")


def requested_verbs(message: str) -> list[str]:
    """Request verbs used as commands in ``message`` (sentence-initial or after please/can you)."""
    found = []
    for match in [_START.match(message), *_INLINE.finditer(message)]:
        if match and match.group("verb").lower() in VERBS:
            found.append(match.group("verb").lower())
    return found


def route(message: str, tools: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The tool an action request calls for, or None when the message wants a text answer."""
    verbs = requested_verbs(message)
    if not verbs or not tools:
        return None
    words = set(_WORD.findall(message.lower()))
    hints = {h for v in verbs for h in VERBS[v]}
    objects = {OBJECTS[w] for w in re.findall(r"[a-z]+", message.lower()) if w in OBJECTS}

    def score(tool: dict[str, Any]) -> float:
        name = set(str(tool.get("name", "")).lower().split("_"))
        desc = set(_WORD.findall(str(tool.get("description", "")).lower()))
        stems = {w[:5] for w in words}
        return (
            3 * len(name & hints)
            + 3 * len(name & objects)
            + 2 * len(name & words)
            + len(desc & words)
            + 0.5 * len({w[:5] for w in desc} & stems)
        )

    best = max(tools, key=score)
    name_words = set(str(best.get("name", "")).lower().split("_"))
    # the tool must be what the verb does AND share a word with the request's object
    if not name_words & hints or score(best) < 4:
        return None
    return best
