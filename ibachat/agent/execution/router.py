"""Does a chat message ask for an action, and with which tool? Otherwise it gets a text answer.

The benchmark hands the planner the tools of an action task; in chat every tool is on offer,
so a question ("what is the capital of Australia?") must not turn into a tool call. A message
is an action request when it asks for something to be done (an imperative, or "can you /
please / I need you to ...") with a verb that one of the tools performs.
"""

from __future__ import annotations

import re
from collections.abc import Callable
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
_POLITE = (
    r"(?:please\s+|kindly\s+|pls\s+|can you\s+|could you\s+|would you\s+|will you\s+|can u\s+|i need you to\s+|"
    r"i want you to\s+|i'd like you to\s+|go ahead and\s+|let'?s\s+|just\s+|quickly\s+|also\s+)*"
)
_LEAD = r"(?:(?:hey|hi|ok|okay|so|alright|right|now|oh|um|hmm|btw|and|then)\b[,\s]*)*"
_START = re.compile(rf"^\s*{_LEAD}{_POLITE}(?P<verb>[a-z]+)\b", re.I)
_INLINE = re.compile(rf"(?:[.!;,?]\s+|\b(?:and|then|so)\s+){_LEAD}{_POLITE}(?P<verb>[a-z]+)\b", re.I)
# "I'd like a table for two", "I need a taxi at 6", "can I get a latte": wanting a thing done or brought.
_WANT = re.compile(
    r"(?:^|[.!;,]\s+|\b(?:and|so)\s+)(?:i'd like|i would like|i want|i need|we need|we'd like|i'll have|i'll take|"
    r"can i get|could i get|can i have|could i have|get me|grab me|book me|order me)\s+(?:to\s+)?(?P<rest>[a-z].{2,})",
    re.I,
)
# Speech acts whose result is text, not an action: they stay answers even when a tool shares a word.
_TEXT_ACTS = frozenset(
    "write draft compose summarise summarize explain tell describe translate list suggest recommend help teach "
    "show brainstorm rewrite proofread edit review compare analyse analyze outline define give what how why when "
    "where who which whose is are am was were do does did should would could can will may might shall any hello "
    "hi hey thanks thank cheers good great nice cool wow lol haha yes no yeah nope sure maybe imagine pretend "
    "guess think remember note".split()
)
# Words that begin a sentence that is not a command (a subject, an article, a time...).
_NOT_A_VERB = frozenset(
    "i i'm i've i'd i'll me my mine we we're we've our us you you're your he she they it it's its this that "
    "these those the a an some there here today yesterday tomorrow tonight last next my his her their if "
    "because since although though when while after before sorry unfortunately honestly actually really just "
    "also still ugh oh ah well never always don't dont not no".split()
)
_WORD = re.compile(r"[a-z]{3,}")
ROUTE_MIN_SIM = 0.22
SURER = 0.12


def requested_verbs(message: str) -> list[str]:
    """Words used as commands in ``message``: sentence-initial, after please/can you, or after a comma."""
    found = []
    for match in [_START.match(message), *_INLINE.finditer(message)]:
        if not match:
            continue
        verb = match.group("verb").lower()
        if verb in _TEXT_ACTS or verb in _NOT_A_VERB or len(verb) < 3:
            continue
        rest = message[match.end() :].lstrip()
        if match.re is _INLINE and not re.match(
            r"(?:me|us|a|an|the|some|my|our|it|them|this|that|[a-z]+)\b", rest, re.I
        ):
            continue
        found.append(verb)
    return found


def _request_text(message: str) -> str:
    """The part of the message that asks for something (the whole message when no part stands out)."""
    for match in [_START.match(message), *_INLINE.finditer(message)]:
        if match and match.group("verb").lower() in requested_verbs(message):
            return message[match.start("verb") :]
    want = _WANT.search(message)
    return want.group(0) if want else message


def asks_for_action(message: str) -> bool:
    """The form of a request: a command, or wanting something done or brought."""
    low = message.strip().lower()
    if not low or (
        low.endswith("?") and not re.match(rf"^{_LEAD}(?:can|could|would|will) (?:you|u|i)\b", low)
    ):
        return False
    if re.match(r"^(?:what|how|why|when|where|who|which|is|are|do|does|did|should)\b", low):
        return False
    return bool(requested_verbs(message) or _WANT.search(message))


def tool_text(tool: dict[str, Any]) -> str:
    name = (
        re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", str(tool.get("name", ""))).replace("_", " ").replace("-", " ")
    )
    return f"{name.lower()}: {tool.get('description', '')}".strip(": ")


def _lexical(message: str, verbs: list[str], tools: list[dict[str, Any]]) -> list[float]:
    words = set(_WORD.findall(message.lower()))
    hints = {h for v in verbs if v in VERBS for h in VERBS[v]}
    objects = {OBJECTS[w] for w in re.findall(r"[a-z]+", message.lower()) if w in OBJECTS}
    stems = {w[:5] for w in words}
    out = []
    for tool in tools:
        name = set(re.split(r"[_\W]+", str(tool.get("name", "")).lower()))
        desc = set(_WORD.findall(str(tool.get("description", "")).lower()))
        out.append(
            3 * len(name & hints)
            + 3 * len(name & objects)
            + 2 * len(name & words)
            + len(desc & words)
            + 0.5 * len({w[:5] for w in desc} & stems)
        )
    return out


def route(
    message: str, tools: list[dict[str, Any]], embed: Callable[[list[str]], Any] | None = None
) -> dict[str, Any] | None:
    """The tool an action request calls for, or None when the message wants a text answer.

    The form of the message decides whether it asks for an action; which tool, by meaning: the
    request against each tool's own name and description (``embed``), with shared words as a prior.
    Without an embedder, the words alone decide, and a tool must be what the verb does."""
    if not tools or not asks_for_action(message):
        return None
    verbs = requested_verbs(message)
    lexical = _lexical(message, verbs, tools)
    hints = {h for v in verbs if v in VERBS for h in VERBS[v]}
    by_words = max(range(len(tools)), key=lambda i: lexical[i])
    name_words = set(str(tools[by_words].get("name", "")).lower().split("_"))
    words_say = by_words if name_words & hints and lexical[by_words] >= 4 else None
    if embed is None:
        return tools[words_say] if words_say is not None else None
    import numpy as np

    request = _request_text(message)
    mat = np.asarray(embed([request, message] + [tool_text(t) for t in tools]), dtype=np.float32)
    mat = mat / np.maximum(np.linalg.norm(mat, axis=1, keepdims=True), 1e-9)
    sims = np.maximum(mat[2:] @ mat[0], mat[2:] @ mat[1])  # the asking clause, or the whole message
    score = [float(s) + 0.03 * min(lex, 8) for s, lex in zip(sims, lexical)]
    by_meaning = max(range(len(tools)), key=lambda i: score[i])
    if words_say is not None and words_say != by_meaning:
        # the words name a tool: meaning overrules them only when it is clearly surer
        return tools[by_meaning] if float(sims[by_meaning] - sims[words_say]) > SURER else tools[words_say]
    if words_say is None and float(sims[by_meaning]) < ROUTE_MIN_SIM:
        return None
    return tools[by_meaning]
