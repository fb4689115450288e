"""Facts and limits in the user's own words, and the helpers that make an event.

Limits: a word count ("under 120 words"), a price ("no more than $80"), words to use or to
avoid ("never use 'synergy'"). Facts read from the user's own casing: a sign-off ("sign off
with 'Warm wishes'") and the home city ("I live in Berlin").
"""

from __future__ import annotations

import re
from typing import Any

from ibachat.agent.reading.cues import ONE_OFF
from memory.ledger import PreferenceEvent
from memory.types import Turn

MAX_WORDS = re.compile(
    r"\b(?:under|less than|fewer than|no more than|not more than|at most|max(?:imum)?|within|up to|no longer than|shorter than|below|"
    r"keep (?:it|them|things|replies|answers|emails)? ?(?:to|under|below)|limit(?:ed)? (?:it |them )?to)\s+(\d+)\s+words\b"
    r"|\b(\d+)\s+words? (?:or less|or fewer|max|maximum|tops|at most|limit)\b"
)
MIN_WORDS = re.compile(
    r"\b(?:at least|no fewer than|no less than|minimum of|more than)\s+(\d+)\s+words\b|\b(\d+)\+ words\b"
)
PRICE_MAX = re.compile(
    r"\b(?:under|less than|below|no more than|not more than|at most|max(?:imum)?|up to|within|cap(?:ped)? at|budget (?:of|is)|"
    r"spend(?:ing)? (?:no more than|under|up to|at most|max)|nothing over|not over|keep it under)\s+(?:about |around |roughly )?"
    r"([$€£])?\s?(\d+(?:[.,]\d+)?)\s*(dollars|bucks|usd|euros?|eur|pounds|gbp|quid|a night|per night)?"
)
AVOID_WORDS = re.compile(
    r"\b(?:don't|never|stop|quit|please don't|no more)\s+(?:use|using|say|saying|write|writing|call me|calling me|start with|"
    r"starting with|sign off with|signing off with|open with|opening with|end with|ending with)\s+(?:the (?:word|phrase|term|expression)s?\s+)?"
    r"[\"']([^\"']{1,40})[\"']"
    r"|\b(?:avoid|ban|hate|drop|no more|skip) (?:the )?(?:word|phrase|term|expression)s?\s+[\"']?([\w' -]{1,40}?)[\"']?(?:[.,!;]|$)"
)
USE_WORDS = re.compile(
    r"\b(?:always |please )?(?:use|say|start with|open with|sign off with|end with|close with|include)\s+(?:the (?:word|phrase) )?"
    r"[\"']([^\"']{1,40})[\"']"
)
CONF = {
    "corrected": 0.95,
    "updated": 0.9,
    "rejected": 0.9,
    "state": 0.9,
    "asked": 0.6,
    "chose": 0.35,
    "claim": 0.0,
}


def with_changes(event: PreferenceEvent, **changes: Any) -> PreferenceEvent:
    data = {**event.__dict__, **changes, "id": ""}
    return PreferenceEvent(**data)


def event(turn: Turn, dimension: str, value: str, kind: str, **kw: Any) -> PreferenceEvent:
    kw.setdefault("valid_from", turn.time)
    kw.setdefault("evidence", (turn.id,) if turn.id else ())
    kw.setdefault("speaker", turn.role)
    kw.setdefault("confidence", CONF.get(kind, 0.75))
    return PreferenceEvent(dimension=dimension, value=str(value), kind=kind, **kw)


SIGN_OFF = re.compile(
    r"\b(?:sign(?:ing)?[- ]?off|close|closing|end|ending|finish)\s+(?:my |all my |the |your |every )?"
    r"(?:e-?mails?|messages?|letters?|notes?)?\s*with\s+[\"'“‘]?([A-Za-z][\w ,!.'-]{1,30}?)[\"'”’]?\s*(?:[.!;]|$)",
    re.IGNORECASE,
)
CLOSING = re.compile(
    r"\b(?:regards|wishes|cheers|best|thanks|thank you|sincerely|yours|love|warmly|take care|talk soon|ciao|"
    r"all the best|speak soon|hugs|xx|kind|warm)\b",
    re.IGNORECASE,
)
HOME = re.compile(
    r"\b(?i:i live in|i'm based in|i am based in|i'm living in|i am living in|back home in|my home ?town is|"
    r"home is|i moved to|we moved to|i've moved to|we live in|i'm from|i am from)\s+([A-Z][\w'-]+(?:[ -][A-Z][\w'-]+)?)"
)


def facts(turn: Turn, extractor: str) -> list[PreferenceEvent]:
    """Facts read from the user's own casing: a preferred sign-off, the home city."""
    out: list[PreferenceEvent] = []
    for m in SIGN_OFF.finditer(turn.text):
        sign = m.group(1).strip(" ,")
        quoted = m.group(0).rstrip(" .!;")[-1:] in "\"'”’"
        if not quoted and not CLOSING.search(sign):
            continue  # "end with the next steps" is about content, not a sign-off
        out.append(
            event(turn, "text.sign_off", sign, "stated", extractor=extractor, subject=m.group(0)[:160])
        )
    for m in HOME.finditer(turn.text):
        kind = "updated" if "moved" in m.group(0).lower() else "stated"
        out.append(
            event(turn, "profile.home_city", m.group(1), kind, extractor=extractor, subject=m.group(0)[:160])
        )
    return out


def numbers(turn: Turn, sentence: str, extractor: str) -> list[PreferenceEvent]:
    out: list[PreferenceEvent] = []
    kw = dict(
        extractor=extractor,
        subject=sentence[:160],
        confidence=0.85,
        scope="one-off" if ONE_OFF.search(sentence) else "general",
    )
    for m in MAX_WORDS.finditer(sentence):
        out.append(event(turn, "text.max_words", m.group(1) or m.group(2), "stated", **kw))
    for m in MIN_WORDS.finditer(sentence):
        out.append(event(turn, "text.min_words", m.group(1) or m.group(2), "stated", **kw))
    for m in PRICE_MAX.finditer(sentence):
        if m.group(1) or m.group(3) or re.search(r"\b(?:price|cost|budget|spend|pay|fare|night)\b", sentence):
            out.append(event(turn, "price.max", m.group(2).replace(",", ""), "stated", **kw))
    for m in AVOID_WORDS.finditer(sentence):
        word = (m.group(1) or m.group(2) or "").strip()
        if re.search(r"\w", word):  # a placeholder ("...") names no word
            out.append(event(turn, "text.avoid_words", word, "stated", polarity=-1, **kw))
    for m in USE_WORDS.finditer(sentence):
        said_not = re.search(r"\b(?:don't|never|stop|no more)\s+$", sentence[: m.start()] + " ")
        if not said_not and re.search(r"\w", m.group(1)):
            out.append(event(turn, "text.use_words", m.group(1).strip(), "stated", **kw))
    return out
