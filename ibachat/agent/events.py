"""Typed preference events from remembered turns: the deterministic floor of Deep Alignment.

Only the user's own words create or change a preference. An assistant's assertion about
the user is recorded as a ``claim`` (never applied) unless the user confirms it in the
next turn; an executed tool call is behavioural evidence (``chose``), weaker than a
statement; instruction-like text inside a memory is marked ``ignored`` and never acted
on. Rejections and confirmations read the assistant turn that came before.
"""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Callable, Sequence
from datetime import datetime, timedelta
from typing import Any

from ibachat.agent.lexicon import BY_DIMENSION, RECOVERY, RECOVERY_STATE, STATES, phrase_table
from ibachat.agent.polarity import Mention, analyse, normalise, sentences
from ibachat.agent.schema_map import tool_vocabulary
from ibachat.agent.timeexpr import is_open_temporary, state_end, state_start
from memory.ledger import PreferenceEvent
from memory.types import Turn

Context = Callable[[Turn], list[Turn]]

INJECTION = re.compile(
    r"\b(?:ignore|disregard|forget|override|bypass|discard)\s+(?:all\s+|any\s+|the\s+|my\s+|your\s+|these\s+|those\s+|of\s+)*"
    r"(?:previous|prior|earlier|above|preceding|existing|other|stored|saved|remembered|old|past|system)?\s*"
    r"(?:instructions?|preferences?|rules?|prompts?|settings?|guidelines?|directions?|context|memor(?:y|ies)|constraints?|restrictions?)\b"
    r"|\b(?:you are now|from now on you (?:are|will|must)|act as (?:an?|the)\b|pretend (?:to be|you are)|new instructions?\s*:|"
    r"system prompt|system message|developer mode|jailbreak)"
    r"|(?:^|\s)(?:system|assistant)\s*:|<\|?(?:im_start|system|inst)\|?>|\[/?inst\]|#{2,}\s*instruction"
)
CORRECTION = re.compile(
    r"^(?:actually|correction|to clarify|i meant|i said|scratch that|wait|sorry,? i meant|let me correct|i misspoke|no,? i said|no,? i meant)\b"
    r"|\b(?:that's|that is) (?:wrong|not right|incorrect|not what i (?:said|asked|wanted))\b|\byou (?:got it wrong|misunderstood|mixed)"
    r"|\bi (?:told|said to) you\b|\bas i (?:said|told you)\b|\bi never said\b|\bactually\b"
)
UPDATE = re.compile(
    r"\b(?:anymore|no longer|from now on|going forward|these days|lately|nowadays|changed my mind|not anymore|"
    r"i'm now|i now|i've (?:gone|become|switched|started|stopped|quit|given up|cut out|decided)|recently (?:started|switched|stopped|became|went)|"
    r"switched|switching|converted|update your notes|for the record|make a note|note that|please note|remember that)\b"
)
ONE_OFF = re.compile(
    r"\bfor (?:my|a|our|his|her|their) (?:\w+ )?(?:friend|friends|wife|husband|partner|boyfriend|girlfriend|guest|guests|boss|"
    r"colleague|colleagues|coworker|coworkers|team|family|mom|mum|dad|mother|father|kids?|son|daughter|sister|brother|client|"
    r"neighbou?r|roommate|flatmate|date|visitors?|parents|in-laws|grandma|grandpa|baby|niece|nephew|aunt|uncle|cousin)\b"
    r"|\bfor (?:her|him|them)\b|\bas a (?:gift|present|surprise)\b|\bjust this (?:once|time)\b|\b(?:this time|once) only\b"
    r"|\bonly this (?:once|time)\b|\bone[- ]off\b|\bfor a change\b|\bspecial occasion\b|\bthis once\b|\bon behalf of\b"
    r"|\bfor the (?:party|office|team|guests|kids|event|meeting)\b|\bjust for (?:today|tonight)\b"
    r"|\b(?:got|get|getting|bought|buy|buying|ordered|order|ordering|grabbed|grab|booked|book|picked up|pick up|made|make)\s+"
    r"(?:her|him|them|my (?:friend|wife|husband|partner|mom|mum|dad|boss|colleague|sister|brother|son|daughter|guest)s?)\b"
)
AFFIRM = re.compile(
    r"^(?:yes|yep|yeah|yup|sure|exactly|correct|right|that's right|definitely|absolutely|of course|sounds good|perfect|great|"
    r"go ahead|do it|book it|order it|please do|that works|works for me|ok|okay|lovely|spot on|you got it)\b"
)
DENY = re.compile(
    r"^(?:no|nope|nah|not really|not that|not again|ugh|please no|no thanks|no way|wrong|hmm,? no)\b"
    r"|\b(?:not (?:that|this|those|these|the \w+) again|something else|another (?:one|option)|change (?:it|that)|i'd rather not|"
    r"anything but|don't want (?:that|it|those|this)|hate (?:that|those|it|them)|not (?:that|this) one|the other one|never again|"
    r"no more of (?:those|that|these)|not what i (?:want|wanted|asked))\b"
)
CLAIM = re.compile(
    r"\byou(?:'re| are| have| always| usually| really| seem to| clearly| definitely)*\s+(?:\w+\s)?"
    r"(?:love|like|prefer|enjoy|hate|dislike|avoid|want|a fan of|into|always|usually|never|can't)\b"
    r"|\byour (?:favou?rite|usual|go[- ]to|preference)|\byou (?:said|mentioned|told me)\b"
)
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
_SELF_TRIGGER = re.compile(r"\b(?:i|i'm|i've|i'd|i'll|me|my|mine|we|we're|our|us)\b")
_OTHER_TRIGGER = re.compile(
    r"\b(?:he|she|they|he's|she's|they're|his|her|their|my (?:wife|husband|partner|friend|mom|mum|mother|dad|father|"
    r"son|daughter|kids?|sister|brother|boss|colleague|coworker|roommate|guest|grandma|grandpa|baby|niece|nephew))\b"
)
_PLACE = re.compile(r"\b(?:to|in|visiting|at)\s+([A-Z][\w'-]+(?:\s+[A-Z][\w'-]+)?)")
CONF = {
    "corrected": 0.95,
    "updated": 0.9,
    "rejected": 0.9,
    "state": 0.9,
    "asked": 0.6,
    "chose": 0.35,
    "claim": 0.0,
}
STATED_CONF = {3: 0.85, 2: 0.75, 1: 0.6, 0: 0.5}
OPEN_STATE_DAYS = 7


def extract_events(
    turns: Sequence[Turn],
    *,
    context: Context | None = None,
    tool: dict[str, Any] | None = None,
    extractor: str = "rules",
) -> list[PreferenceEvent]:
    """Preference events said or shown in ``turns`` (each resolved against its own timestamp)."""
    vocab = tool_vocabulary(tool)
    seen: dict[str, list[Turn]] = {}
    out: dict[str, PreferenceEvent] = {}
    for turn in sorted(turns, key=lambda t: (t.time, t.id)):
        turn = clipped(turn)
        earlier = seen.setdefault(turn.session_id, [])
        for event in _turn_events(turn, earlier, context, vocab, extractor):
            out.setdefault(event.id, event)
        earlier.append(turn)
    return list(out.values())


# Preferences are said in sentences, not in 5 MB pastes: only the start of a long turn is read
# for events (the whole turn is still stored, searchable and shown). Extraction is per sentence.
MAX_ANALYSED_CHARS = 8000


def clipped(turn: Turn) -> Turn:
    if len(turn.text) <= MAX_ANALYSED_CHARS:
        return turn
    return dataclasses.replace(turn, text=turn.text[:MAX_ANALYSED_CHARS])


def task_events(task: str, now: datetime, tool: dict[str, Any] | None = None) -> list[PreferenceEvent]:
    """What the request itself asks for (applies now, whatever its scope)."""
    turn = Turn(0, "task", "user", task[:MAX_ANALYSED_CHARS], now)
    events = _user_events(turn, None, tool_vocabulary(tool), "rules")
    return [
        _with(e, scope="general", evidence=(), reason="the task itself")
        for e in events
        if e.kind != "ignored"
    ]


def _with(event: PreferenceEvent, **changes: Any) -> PreferenceEvent:
    data = {**event.__dict__, **changes, "id": ""}
    return PreferenceEvent(**data)


def _previous(turn: Turn, earlier: list[Turn], context: Context | None) -> list[Turn]:
    prev = list(earlier[-3:])
    if context is not None and len(prev) < 2:
        known = {t.id for t in prev}
        prev += [t for t in context(turn) if (t.time, t.id) < (turn.time, turn.id) and t.id not in known]
    prev.sort(key=lambda t: (t.time, t.id))
    return prev[-3:]


def _interesting(text: str, vocab: Any = None) -> bool:
    pattern, _ = phrase_table()
    return bool(
        pattern.search(text)
        or (vocab is not None and vocab[0].search(text))
        or AFFIRM.match(text)
        or DENY.search(text)
        or INJECTION.search(text)
        or RECOVERY.search(text)
        or SIGN_OFF.search(text)
        or re.search(r"\b(?:live in|based in|living in|home ?town|home is|moved to|i'm from)\b", text)
        or any(re.search(s.trigger, text) for s in STATES)
        or re.search(r"\bwords\b|[$€£]\d|\d+ (?:dollars|bucks|euros?|pounds)", text)
    )


def _turn_events(
    turn: Turn, earlier: list[Turn], context: Context | None, vocab: Any, extractor: str
) -> list[PreferenceEvent]:
    out: list[PreferenceEvent] = []
    text = normalise(turn.text)
    injected = _injections(turn, text, extractor)
    if turn.tool_call and not injected:
        out += _tool_call_events(turn, _previous(turn, earlier, context), extractor)
    if injected:
        return out + injected
    if turn.role == "assistant":
        return out + _claims(turn, text, vocab, extractor)
    if turn.role != "user" or not _interesting(text, vocab):
        return out
    return out + _user_events(turn, (earlier, context), vocab, extractor)


def _event(turn: Turn, dimension: str, value: str, kind: str, **kw: Any) -> PreferenceEvent:
    kw.setdefault("valid_from", turn.time)
    kw.setdefault("evidence", (turn.id,) if turn.id else ())
    kw.setdefault("speaker", turn.role)
    kw.setdefault("confidence", CONF.get(kind, 0.75))
    return PreferenceEvent(dimension=dimension, value=str(value), kind=kind, **kw)


def _injections(turn: Turn, text: str, extractor: str) -> list[PreferenceEvent]:
    return [
        _event(
            turn,
            "injection",
            s[:160],
            "ignored",
            confidence=0.0,
            extractor=extractor,
            reason="instruction inside memory",
            subject=s[:160],
        )
        for s in sentences(text)
        if INJECTION.search(s)
    ]


def _claims(turn: Turn, text: str, vocab: Any, extractor: str) -> list[PreferenceEvent]:
    out = []
    for sentence in sentences(text):
        if not CLAIM.search(sentence):
            continue
        for m in analyse(sentence, vocab=vocab):
            pol = m.polarity if m.polarity is not None else 1
            out.append(
                _event(
                    turn,
                    m.dimension,
                    m.value,
                    "claim",
                    polarity=pol,
                    extractor=extractor,
                    subject=sentence[:160],
                    reason="the assistant's claim, not the user's words",
                )
            )
    return out


def _tool_call_events(turn: Turn, prev: list[Turn], extractor: str) -> list[PreferenceEvent]:
    call = turn.tool_call or {}
    name = str(call.get("name", "tool"))
    args = call.get("arguments") or {}
    if isinstance(args, str):
        try:
            args = json.loads(args)
        except json.JSONDecodeError:
            return []
    if not isinstance(args, dict):
        return []
    raw = [t.text for t in prev if t.role == "user"]
    users = [normalise(t) for t in raw]
    scope = "general"
    if users and (
        ONE_OFF.search(users[-1])
        or _other_subject(users[-1])
        or _others_state(users[-1])
        or for_someone(raw[-1])
    ):
        scope = "one-off"
    out: list[PreferenceEvent] = []

    def add(dim: str, value: Any, pol: int = 1, subject: str = "") -> None:
        out.append(
            _event(
                turn,
                dim,
                value,
                "chose",
                polarity=pol,
                scope=scope,
                extractor=extractor,
                subject=subject or f"{name}({dim.split('.')[-1]}={value})",
            )
        )

    for key, value in args.items():
        items = value if isinstance(value, list) else [value]
        for item in items:
            if isinstance(item, bool):
                add(f"{name}.{key}", "true" if item else "false")
            elif isinstance(item, (int, float)):
                add(f"{name}.{key}", item)
            elif isinstance(item, str) and item.strip():
                if len(item.split()) <= 3 and len(item) <= 40:
                    add(f"{name}.{key}", item)
                for m in analyse(normalise(item)):
                    add(m.dimension, m.value, m.polarity if m.polarity is not None else 1, subject=item[:120])
    return out


def _others_state(text: str) -> bool:
    """Someone else's state ("my friend is pregnant"): what follows is for them."""
    for state in STATES:
        hit = re.search(state.trigger, text)
        if (
            hit
            and _OTHER_TRIGGER.search(text[: hit.start()])
            and not re.search(r"\b(?:i|i'm|i've|my)\s*$", text[: hit.start()])
        ):
            return True
    return False


_FOR_NAME = re.compile(
    r"\bfor (?!(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday|January|February|March|April|May|June|July|"
    r"August|September|October|November|December|Christmas|Easter|I|Me|Now|Today|Tonight|Tomorrow|The|A|An|My)\b)[A-Z][a-z]+\b"
)


def for_someone(raw: str) -> bool:
    """A request made for a named person ("a decaf for Maya")."""
    return bool(_FOR_NAME.search(raw))


def _other_subject(text: str) -> bool:
    return bool(_OTHER_TRIGGER.search(text)) and not _SELF_TRIGGER.search(text)


def _user_events(
    turn: Turn, where: tuple[list[Turn], Context | None] | None, vocab: Any, extractor: str
) -> list[PreferenceEvent]:
    text = normalise(turn.text)
    prev = _previous(turn, where[0], where[1]) if where is not None else []
    assistant = next((t for t in reversed(prev) if t.role == "assistant"), None)
    a_text = normalise(assistant.text) if assistant is not None else ""
    states, state_window = _states(turn, text, extractor)
    out = list(states)
    mentions: list[tuple[Mention, str]] = []
    for sentence in sentences(text):
        question = sentence.endswith("?")
        for m in analyse(sentence, vocab=vocab, context=a_text):
            if m.polarity is None or m.subject == "you":
                continue
            if question and not ("request" in m.tags or _SELF_TRIGGER.search(sentence)):
                continue
            mentions.append((m, sentence))
        out += _numbers(turn, sentence, extractor)
    out += _facts(turn, extractor)
    corrective = bool(CORRECTION.search(text)) or (assistant is not None and bool(DENY.search(text)))
    for m, sentence in mentions:
        if _name_not_wish(m, sentence, turn.text):
            continue
        window = state_window if state_window and _about_state(sentence) else None
        out += _mention_events(turn, m, sentence, corrective, window, extractor)
    if assistant is not None:
        out = _answer_to(assistant, a_text, turn, text, out, vocab, extractor)
    return out


def _name_not_wish(m: Mention, sentence: str, raw: str) -> bool:
    """A loose word met only in a request is a name ("order from Sichuan House"), not a wish."""
    if m.tags - {"request"} or (m.cue and "request" not in m.tags):
        return False
    if m.generic and m.strength <= 1:
        return True
    found = re.search(rf"(?<![\w])({re.escape(m.phrase)})", raw, re.IGNORECASE)
    return bool(
        found
        and found.group(1)[:1].isupper()
        and found.start() > 0
        and raw[found.start() - 2 : found.start()].strip() not in ".!?"
    )


def _about_state(sentence: str) -> bool:
    """A preference said in the same breath as a temporary state lasts as long as it."""
    return any(re.search(s.trigger, sentence) for s in STATES) or bool(
        re.search(
            r"^(?:so|because|since|which means|that means|meaning)\b|\b(?:so|because|since|until|while)\b",
            sentence,
        )
    )


def _mention_events(
    turn: Turn,
    m: Mention,
    sentence: str,
    corrective: bool,
    window: tuple[datetime, datetime] | None,
    extractor: str,
) -> list[PreferenceEvent]:
    pol, kind = m.polarity if m.polarity is not None else 1, "stated"
    if "used_to" in m.tags:
        pol, kind = 0, "updated"
    elif corrective:
        kind = "corrected"
    elif "update" in m.tags or UPDATE.search(sentence):
        kind = "updated"
    elif "request" in m.tags and "habit" not in m.tags:
        kind = "asked"
    conf = (
        CONF.get(kind, STATED_CONF.get(m.strength, 0.6))
        if kind != "stated"
        else STATED_CONF.get(m.strength, 0.6)
    )
    if pol == 0 or "alt" in m.tags or "contrast" in m.tags:
        conf = min(conf, 0.5)
    if sentence.endswith("?"):
        conf *= 0.8
    start, until = turn.time, None
    end, _ = state_end(sentence, turn.time)
    if end is not None or is_open_temporary(sentence) or window is not None:
        start = window[0] if window is not None and end is None else state_start(sentence, turn.time)
        until = end or (window[1] if window else start + timedelta(days=OPEN_STATE_DAYS))
        kind = "state" if kind in ("stated", "updated", "asked") else kind
    named = for_someone(_original_sentence(turn.text, sentence))
    scope = "one-off" if ONE_OFF.search(sentence) or m.subject == "other" or named else "general"
    reason = "about someone else" if m.subject == "other" else ""
    base = dict(
        polarity=pol,
        valid_from=start,
        valid_until=until,
        confidence=round(conf, 3),
        extractor=extractor,
        scope=scope,
        subject=sentence[:160],
        reason=reason,
    )
    out = [_event(turn, m.dimension, m.value, kind, **base)]
    attr = BY_DIMENSION.get(m.dimension)
    implied = attr.implies_when_avoided.get(m.value) if attr is not None and pol == -1 else None
    if implied:
        base.update(polarity=1, confidence=round(conf * 0.85, 3), reason=f"implied by avoiding {m.value}")
        out.append(_event(turn, m.dimension, implied, kind, **base))
    return out


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


def _facts(turn: Turn, extractor: str) -> list[PreferenceEvent]:
    """Facts read from the user's own casing: a preferred sign-off, the home city."""
    out: list[PreferenceEvent] = []
    for m in SIGN_OFF.finditer(turn.text):
        sign = m.group(1).strip(" ,")
        quoted = m.group(0).rstrip(" .!;")[-1:] in "\"'”’"
        if not quoted and not CLOSING.search(sign):
            continue  # "end with the next steps" is about content, not a sign-off
        out.append(
            _event(turn, "text.sign_off", sign, "stated", extractor=extractor, subject=m.group(0)[:160])
        )
    for m in HOME.finditer(turn.text):
        kind = "updated" if "moved" in m.group(0).lower() else "stated"
        out.append(
            _event(turn, "profile.home_city", m.group(1), kind, extractor=extractor, subject=m.group(0)[:160])
        )
    return out


def _numbers(turn: Turn, sentence: str, extractor: str) -> list[PreferenceEvent]:
    out: list[PreferenceEvent] = []
    kw = dict(
        extractor=extractor,
        subject=sentence[:160],
        confidence=0.85,
        scope="one-off" if ONE_OFF.search(sentence) else "general",
    )
    for m in MAX_WORDS.finditer(sentence):
        out.append(_event(turn, "text.max_words", m.group(1) or m.group(2), "stated", **kw))
    for m in MIN_WORDS.finditer(sentence):
        out.append(_event(turn, "text.min_words", m.group(1) or m.group(2), "stated", **kw))
    for m in PRICE_MAX.finditer(sentence):
        if m.group(1) or m.group(3) or re.search(r"\b(?:price|cost|budget|spend|pay|fare|night)\b", sentence):
            out.append(_event(turn, "price.max", m.group(2).replace(",", ""), "stated", **kw))
    for m in AVOID_WORDS.finditer(sentence):
        word = (m.group(1) or m.group(2) or "").strip()
        if word:
            out.append(_event(turn, "text.avoid_words", word, "stated", polarity=-1, **kw))
    for m in USE_WORDS.finditer(sentence):
        if not re.search(r"\b(?:don't|never|stop|no more)\s+$", sentence[: m.start()] + " "):
            out.append(_event(turn, "text.use_words", m.group(1).strip(), "stated", **kw))
    return out


def _states(
    turn: Turn, text: str, extractor: str
) -> tuple[list[PreferenceEvent], tuple[datetime, datetime] | None]:
    out: list[PreferenceEvent] = []
    window: tuple[datetime, datetime] | None = None
    for sentence in sentences(text):
        if RECOVERY.search(sentence):
            name = next((n for n, pat in RECOVERY_STATE if re.search(pat, sentence)), "any")
            out.append(
                _event(
                    turn,
                    f"state.{name}",
                    "ended",
                    "updated",
                    polarity=0,
                    confidence=0.85,
                    extractor=extractor,
                    subject=sentence[:160],
                )
            )
        for state in STATES:
            hit = re.search(state.trigger, sentence)
            if not hit:
                continue
            before = sentence[: hit.start()]
            other = bool(_OTHER_TRIGGER.search(before)) and not re.search(r"\b(?:i|i'm|i've|my)\s*$", before)
            if re.search(r"\b(?:if|whether|hope|hopefully|worried|afraid)\b", before):
                continue
            start = state_start(sentence, turn.time)
            days = state.long_days if state.long_if and re.search(state.long_if, sentence) else state.days
            end, _ = state_end(sentence, turn.time)
            if end is None or end <= start:
                end, _ = state_end(text, turn.time)
            if end is None or end <= start:
                end = start + timedelta(days=days)
            value = state.name
            if state.name == "travel":
                place = _PLACE.search(_original_sentence(turn.text, sentence))
                value = place.group(1) if place else "away"
            scope = "one-off" if other else "general"
            kw = dict(
                valid_from=start,
                valid_until=end,
                extractor=extractor,
                subject=sentence[:160],
                scope=scope,
                reason="about someone else" if other else "",
            )
            out.append(_event(turn, f"state.{state.name}", value, "state", **kw))
            if other:
                continue
            window = window or (start, end)
            kw.update(confidence=0.8, reason=f"state:{state.name}")
            for dim, val, pol in state.implies:
                out.append(_event(turn, dim, val, "state", polarity=pol, **kw))
    return out, window


def _original_sentence(raw: str, norm_sentence: str) -> str:
    words = norm_sentence.split()[:3]
    idx = raw.lower().find(" ".join(words)) if words else -1
    return raw[idx : idx + len(norm_sentence) + 20] if idx >= 0 else raw


def _answer_to(
    assistant: Turn,
    a_text: str,
    turn: Turn,
    text: str,
    events: list[PreferenceEvent],
    vocab: Any,
    extractor: str,
) -> list[PreferenceEvent]:
    """Read the user's reply against what the assistant proposed or claimed just before."""
    proposed: dict[str, list[tuple[str, int, bool, str]]] = {}
    for sentence in sentences(a_text):
        claim = bool(CLAIM.search(sentence))
        for m in analyse(sentence, vocab=vocab):
            pol = m.polarity if m.polarity is not None else 1
            if (m.value, pol) not in [(v, p) for v, p, _, _ in proposed.get(m.dimension, [])]:
                proposed.setdefault(m.dimension, []).append((m.value, pol, claim, sentence))
    if not proposed:
        return events
    deny = bool(DENY.search(text))
    affirm = bool(AFFIRM.match(text)) and not deny
    evidence = tuple(i for i in (assistant.id, turn.id) if i)
    out = list(events)
    said = {
        e.dimension
        for e in events
        if not e.reason.startswith("state:") and not e.dimension.startswith("state.")
    }
    for dim, options in proposed.items():
        if dim in said:
            out = [_as_rejection(e, options, deny, evidence) if e.dimension == dim else e for e in out]
            mine = {e.value for e in out if e.dimension == dim}
            if not (deny and len(options) == 1 and options[0][0] not in mine and options[0][1] >= 0):
                continue
        elif len(options) != 1 or not (deny or affirm):
            continue
        value, pol, claim, sentence = options[0]
        subject = f"{text[:80]} (to: {sentence[:80]})"
        kw = dict(evidence=evidence, extractor=extractor, subject=subject)
        if deny:
            kind = "corrected" if claim else "rejected"
            new_pol = -1 if pol >= 0 else 1
            out.append(_event(turn, dim, value, kind, polarity=new_pol, confidence=0.8, **kw))
            attr = BY_DIMENSION.get(dim)
            implied = attr.implies_when_avoided.get(value) if attr is not None and new_pol < 0 else None
            if implied and implied not in {e.value for e in out if e.dimension == dim}:
                why = f"implied by avoiding {value}"
                out.append(_event(turn, dim, implied, "stated", polarity=1, confidence=0.6, reason=why, **kw))
        else:
            kind, conf = ("stated", 0.7) if claim else ("asked", 0.45)
            out.append(
                _event(
                    turn,
                    dim,
                    value,
                    kind,
                    polarity=pol,
                    confidence=conf,
                    evidence=evidence,
                    extractor=extractor,
                    subject=f"{text[:80]} (to: {sentence[:80]})",
                )
            )
    return out


def _as_rejection(
    event: PreferenceEvent, options: list[tuple[str, int, bool, str]], deny: bool, evidence: tuple[int, ...]
) -> PreferenceEvent:
    """The user's own words about a value the assistant had just offered."""
    offered = {v for v, p, _, _ in options if p >= 0}
    if event.polarity == -1 and event.value in offered and event.kind in ("stated", "asked", "corrected"):
        return _with(event, kind="rejected", confidence=max(event.confidence, 0.9), evidence=evidence)
    if event.polarity == 1 and deny and event.value not in offered and event.kind in ("stated", "asked"):
        return _with(event, kind="corrected", confidence=max(event.confidence, 0.9), evidence=evidence)
    return event
