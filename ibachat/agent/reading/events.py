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

from ibachat.agent.reading.clauses import is_question, own_words, unquoted
from ibachat.agent.reading.cues import AFFIRM, CLAIM, CORRECTION, DENY, ONE_OFF, UPDATE, VERDICT
from ibachat.agent.reading.facts import (
    AVOID_WORDS,
    CONF,
    SIGN_OFF,
    USE_WORDS,
    event,
    facts,
    numbers,
    with_changes,
)
from ibachat.agent.reading.lexicon import (
    BY_DIMENSION,
    RECOVERY,
    RECOVERY_STATE,
    STATES,
    keeps_out,
    phrase_table,
)
from ibachat.agent.reading.open_events import open_events, scope_in
from ibachat.agent.reading.open_prefs import OPEN
from ibachat.agent.reading.polarity import OTHER_SUBJECT, Mention, analyse, normalise, sentences
from ibachat.agent.reading.replies import answer_to
from ibachat.agent.reading.schema_map import tool_vocabulary
from ibachat.agent.reading.timeexpr import (
    is_open_temporary,
    lasts_for_good,
    open_days,
    state_end,
    state_start,
)
from memory.ledger import PreferenceEvent
from memory.types import Turn

Context = Callable[[Turn], list[Turn]]

# (said to the assistant: "pretend to be my bank"; not the user of themselves: "i won't pretend to be")
INJECTION = re.compile(
    r"\b(?:ignore|disregard|forget|override|bypass|discard)\s+(?:all\s+|any\s+|the\s+|my\s+|your\s+|these\s+|those\s+|of\s+)*"
    r"(?:previous|prior|earlier|above|preceding|existing|other|stored|saved|remembered|old|past|system)?\s*"
    r"(?:instructions?|preferences?|rules?|prompts?|settings?|guidelines?|directions?|context|memor(?:y|ies)|constraints?|restrictions?)\b"
    r"|\b(?:you are now|from now on you (?:are|will|must)|act as (?:an?|the)\b|(?:^|[.,;:!?]\s*|\b(?:please|now|just|you|and|so)\s+)pretend (?:to be|you are)|new instructions?\s*:|"
    r"system prompt|system message|developer mode|jailbreak)"
    r"|(?:^|\s)(?:system|assistant)\s*:|<\|?(?:im_start|system|inst)\|?>|\[/?inst\]|#{2,}\s*instruction"
)
_SELF_TRIGGER = re.compile(r"\b(?:i|i'm|i've|i'd|i'll|me|my|mine|we|we're|our|us)\b")
_OTHER_TRIGGER = OTHER_SUBJECT
_PLACE = re.compile(r"\b(?:to|in|visiting|at)\s+([A-Z][\w'-]+(?:\s+[A-Z][\w'-]+)?)")
STATED_CONF = {3: 0.85, 2: 0.75, 1: 0.6, 0: 0.5}
OPEN_STATE_DAYS = 7


REPLY_FLAG = "reply"  # a turn whose preference meaning was recorded explicitly (never read by rules)


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
        if REPLY_FLAG in turn.flags:
            continue  # an answer to the assistant's own question or card: recorded by what it answered
        turn = clipped(turn)
        earlier = seen.setdefault(turn.session_id, [])
        for ev in _turn_events(turn, earlier, context, vocab, extractor):
            out.setdefault(ev.id, ev)
        earlier.append(turn)
    return list(out.values())


# Preferences are said in sentences, not in 5 MB pastes: only the start of a long turn is read
# for events (the whole turn is still stored, searchable and shown). Extraction is per sentence.
MAX_ANALYSED_CHARS = 8000


def _unquoted(turn: Turn) -> Turn:
    """The turn without quoted, forwarded or fenced lines: someone else's words set nothing."""
    text = unquoted(turn.text)
    return turn if text == turn.text else dataclasses.replace(turn, text=text)


def clipped(turn: Turn) -> Turn:
    if len(turn.text) <= MAX_ANALYSED_CHARS:
        return turn
    return dataclasses.replace(turn, text=turn.text[:MAX_ANALYSED_CHARS])


def task_events(task: str, now: datetime, tool: dict[str, Any] | None = None) -> list[PreferenceEvent]:
    """What the request itself asks for (applies now, whatever its scope)."""
    turn = Turn(0, "task", "user", task[:MAX_ANALYSED_CHARS], now)
    events = _leave_out_lists(_user_events(turn, None, tool_vocabulary(tool), "rules"), tool)
    events += [e for e in open_events(_unquoted(turn), "", "rules") if e.dimension == OPEN]
    said = {e.value for e in events}
    events += [e for e in _this_time(turn) if e.value not in said]
    return [
        with_changes(e, scope="general", evidence=(), reason="the task itself")
        for e in events
        if e.kind != "ignored"
    ]


# a thing the request asks for against what was done before: "the actual paper book this time", "a
# window seat for once" (a closed class of phrases; read in the request only, where nothing is told);
# "do Paddington instead" corrects the message itself and is read there, not here
_THIS_TIME = re.compile(r"(?i)\s*(?:,\s*)?(?:this time(?: round| around)?|for a change|for once)\b")


def _this_time(turn: Turn) -> list[PreferenceEvent]:
    """The noun phrase just before "this time" in a request, as a thing asked for now."""
    from ibachat.agent.reading.parse import parse

    doc = parse(turn.text)
    out = []
    for chunk in doc.noun_chunks:
        m = _THIS_TIME.match(doc.text, chunk.end_char)
        if m is None or chunk.root.pos_ not in ("NOUN", "PROPN") or chunk.root.lower_ in ("one", "ones"):
            continue
        words = [
            t for t in chunk if t.pos_ not in ("DET", "PRON") and t.lower_ not in ("actual", "real", "proper")
        ]
        if not words:
            continue
        phrase = doc.text[words[0].idx : chunk.end_char].lower()
        out.append(
            PreferenceEvent(
                dimension=OPEN,
                value=phrase,
                kind="asked",
                polarity=1,
                valid_from=turn.time,
                evidence=(),
                speaker="user",
                confidence=0.8,
                extractor="rules",
                subject=turn.text[:200],
                reason=f"open: asked for{m.group(0)}",
            )
        )
    return out


def _leave_out_lists(events: list[PreferenceEvent], tool: dict[str, Any] | None) -> list[PreferenceEvent]:
    """A value named for a list of things to leave out ("exclude_topics") is wanted there only when the
    words avoid it: "science news" wants science in the topics, not in the topics to exclude."""
    if not tool:
        return events
    from ibachat.agent.reading.schema_map import params

    name = str(tool.get("name", ""))
    leave_out = {f"{name}.{p.name}" for p in params(tool) if p.negative}
    out = []
    for e in events:
        if e.dimension in leave_out:
            if e.polarity >= 0:
                continue
            e = dataclasses.replace(e, polarity=1)  # "no politics": politics goes on the list to leave out
        out.append(e)
    return out


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
        or AVOID_WORDS.search(text)
        or USE_WORDS.search(text)
        or re.search(r"\b(?:live in|based in|living in|home ?town|home is|moved to|i'm from)\b", text)
        or any(re.search(s.trigger, text) for s in STATES)
        or re.search(r"\bwords\b|[$€£]\d|\d+ (?:dollars|bucks|euros?|pounds)|\bbetter\b|\bbest\b", text)
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
    if turn.role != "user":
        return out
    prev = _previous(turn, earlier, context)
    assistant = next((t for t in reversed(prev) if t.role == "assistant"), None)
    out += open_events(_unquoted(turn), assistant.text if assistant is not None else "", extractor)
    if _interesting(text, vocab):
        out += _user_events(turn, (earlier, context), vocab, extractor)
    if not any(e.kind == "state" for e in out):  # a state read above is the situation, in its own terms
        out += situations(turn, sentences(own_words(normalise(unquoted(turn.text)))), extractor)
    return out


def _injections(turn: Turn, text: str, extractor: str) -> list[PreferenceEvent]:
    return [
        event(
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
                event(
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
    unchosen = set(call.get("defaults") or [])  # the tool's defaults that ran: nobody chose them
    args = {k: v for k, v in args.items() if k not in unchosen}
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
            event(
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
                    pol = m.polarity if m.polarity is not None else 1
                    if pol > 0 and keeps_out(m.dimension):
                        continue  # "mapo tofu" ordered says the user eats soy, not that soy is an allergy
                    add(m.dimension, m.value, pol, subject=item[:120])
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
    text = own_words(normalise(unquoted(turn.text)))  # only the user's own words
    prev = _previous(turn, where[0], where[1]) if where is not None else []
    assistant = next((t for t in reversed(prev) if t.role == "assistant"), None)
    a_text = normalise(assistant.text) if assistant is not None else ""
    states, state_window = _states(turn, text, extractor)
    out = list(states)
    mentions: list[tuple[Mention, str]] = []
    said = sentences(text)
    replying = assistant is not None and bool(DENY.search(text) or CORRECTION.search(text))
    offered = {m.dimension for m in analyse(a_text, vocab=vocab)} if assistant is not None else set()
    verdict = VERDICT.search(text)
    for sentence, found in _read(said, vocab, a_text):
        question = is_question(sentence)
        for m in found:
            if m.polarity is None and verdict and not question and _told_as_done(sentence, m.phrase):
                m.polarity, m.strength = 1, 2  # "tried the express one ... never again": turned down below
            if m.polarity is None and _fragment(sentence) and (replying or m.dimension in offered):
                m.polarity, m.strength, m.tags = 1, 1, {"answer"}  # "No no, a small portion." to an offer
            if m.polarity is None and question and asks_the_assistant(sentence):
                m.polarity, m.strength, m.tags = 1, 2, m.tags | {"request"}  # "could your replies be brief?"
            if m.polarity is None or m.subject == "you":
                continue
            if question and not (asks_the_assistant(sentence) or m.tags & {"request", "conditional"}):
                continue  # a question is never a wish ("what's a good breakfast for me?")
            mentions.append((m, sentence))
    for sentence in said:
        if not is_question(sentence) or asks_the_assistant(sentence):
            out += numbers(turn, sentence, extractor)
    out += facts(_unquoted(turn), extractor)  # casing kept, quotes out
    corrective = bool(CORRECTION.search(text)) or (assistant is not None and bool(DENY.search(text)))
    for m, sentence in mentions:
        if _name_not_wish(m, sentence, turn.text):
            continue
        window = state_window if state_window and _about_state(sentence) else None
        if verdict and (m.polarity or 0) > 0 and _told_as_done(sentence, m.phrase):
            # "went for the shared option ... never again": what was done is what is turned down
            m.polarity = -1
            found = _mention_events(turn, m, sentence, False, window, extractor)
            out += [dataclasses.replace(e, kind="rejected") if e.polarity < 0 else e for e in found]
            continue
        out += _mention_events(turn, m, sentence, corrective, window, extractor)
    if assistant is not None:
        out = answer_to(assistant, a_text, turn, text, out, vocab, extractor)
    return out


def _told_as_done(sentence: str, phrase: str) -> bool:
    """Whether ``phrase`` is what a past-tense verb of the sentence did ("went for the shared option",
    "tried the express lane", "had booked the cheap seats"), by the dependency parse."""
    from ibachat.agent.reading.parse import parse

    at = sentence.lower().find(phrase.lower())
    if at < 0:
        return False
    doc = parse(sentence)
    span = doc.char_span(at, at + len(phrase), alignment_mode="expand")
    if span is None:
        return False
    verb = span.root
    # a participle that describes a noun ("the shared option") is no verb of the clause
    while (verb.pos_ not in ("VERB", "AUX") or verb.dep_ in ("amod", "compound")) and verb.head.i != verb.i:
        verb = verb.head
    if verb.pos_ not in ("VERB", "AUX"):
        return False
    return verb.tag_ == "VBD" or (verb.tag_ == "VBN" and any(c.dep_ == "aux" for c in verb.children))


SITUATION_DIM = "state.situation"  # value: the sentence; valid_until: when it ends, as said
SITUATION_MAX = timedelta(days=183)  # a situation said to last longer than half a year is no passing one
_LASTING = re.compile(
    r"(?:for|until|till|til|'til|through|thru|(?:the )?rest of)\b", re.I
)  # how long, not when


def situations(turn: Turn, said: list[str], extractor: str) -> list[PreferenceEvent]:
    """A passing situation the user tells of, with when it ends ("my sister and her kids are moving in
    for the next three weeks", "working nights until the end of the month"): it wants nothing itself,
    but what is done while it lasts is done for it (``outcome_plan.unsettle_passed``). A request, a
    question, or a past event told of is none."""
    from ibachat.agent.reading.acts import read_act
    from ibachat.agent.reading.parse import parse

    out: list[PreferenceEvent] = []
    for sentence in said:
        if is_question(sentence):
            continue
        end, words = state_end(sentence, turn.time)
        if end is None or not turn.time < end <= turn.time + SITUATION_MAX or not _LASTING.match(words):
            continue  # "the reunion is next week": when a thing happens, not how long a situation lasts
        if read_act(sentence).requests:
            continue  # "book the room until sunday": a request's span
        doc = parse(sentence)
        root = next((t for t in doc if t.dep_ == "ROOT"), None)
        if root is None or root.tag_ == "VBD":
            continue  # "I was off for two weeks": told of as past
        subjects = ("nsubj", "nsubjpass", "expl")
        if not any(t.dep_ in subjects for t in doc) or (
            root.tag_ == "VB" and not any(c.dep_ in subjects for c in root.children)
        ):
            continue  # "fyi book me a hotel for 2 nights": a command, however it opens
        out.append(
            event(
                turn,
                SITUATION_DIM,
                sentence[:120],
                "state",
                valid_until=end,
                subject=sentence[:160],
                confidence=0.6,
                extractor=extractor,
                reason=f"a passing situation: {words}",
            )
        )
    return out


_ASKS_ASSISTANT = re.compile(
    r"^(?:(?:ok|okay|so|and|also|oh|hey|please|pls|right|um|hmm)[,\s]+)*(?:please\s+)?"
    r"(?:can|could|would|will|wo|ca)(?:n't)?\s+(?:you|u|your)\b"
)


def asks_the_assistant(sentence: str) -> bool:
    """A question that is a request of the assistant's own behaviour ("could your replies be brief?",
    "can you make it decaf?"): the one kind of question that says what the user wants."""
    return bool(_ASKS_ASSISTANT.match(sentence.strip().lower()))


def _fragment(sentence: str) -> bool:
    """A reply that only names a thing ("a small portion", "window, please")."""
    words = re.findall(r"[\w']+", sentence)
    words = [
        w for w in words if w not in ("no", "nope", "nah", "yes", "yeah", "ok", "okay", "oh", "wait", "hmm")
    ]
    return len(words) <= 4 and not sentence.endswith("?")


def _read(said: list[str], vocab: Any, a_text: str) -> list[tuple[str, list[Mention]]]:
    """Each sentence's mentions, read with its neighbours as context; a bare fragment ("ugh,
    layovers.") is read together with a short verdict that follows it ("never again")."""
    out: list[tuple[str, list[Mention]]] = []
    i = 0
    while i < len(said):
        sentence = said[i]
        near = " ".join(said[max(0, i - 1) : i + 1])
        found = analyse(sentence, vocab=vocab, context=f"{near} {a_text}")
        if (
            i + 1 < len(said)
            and found
            and all(m.polarity is None for m in found)
            and len(sentence.split()) <= 4
            and len(said[i + 1].split()) <= 5
        ):
            joined = f"{sentence.rstrip('.!')}, {said[i + 1]}"
            merged = analyse(joined, vocab=vocab, context=f"{near} {a_text}")
            if any(m.polarity is not None for m in merged):
                out.append((joined, merged))
                i += 2
                continue
        out.append((sentence, found))
        i += 1
    return out


def _name_not_wish(m: Mention, sentence: str, raw: str) -> bool:
    """A loose word met only in a request or after a bare "I'm" is a name ("order from Sichuan
    House", "I'm reading The Long Walk"), not a wish."""
    if m.tags & {"negated", "conditional", "alt", "contrast", "disclosure", "answer"}:
        return False
    found = re.search(rf"(?<![\w])({re.escape(m.phrase)})", raw, re.IGNORECASE)
    if found and _SPAN_OF_TIME.search(raw[: found.start()].lower()[-30:]):
        return True  # "a ten minute window on the bus": a span of time, not the seat
    capitalised = bool(
        found
        and found.group(1)[:1].isupper()
        and found.start() > 0
        and raw[found.start() - 2 : found.start()].strip() not in ".!?"
    )
    if found and _NAME_FRAME.search(raw[: found.start()].lower()[-40:]):
        return True
    if m.tags - {"request", "weak"} or (m.cue and not m.tags & {"request", "weak"}):
        return False
    if m.generic and m.strength <= 1 and "weak" not in m.tags:
        return True
    if found and _TOPIC.search(raw[: found.start()].lower()[-40:]):
        return True  # "a meeting about the Q3 budget": what it is about, not what the user wants
    return capitalised


# a measure of time right before a word ("ten minute", "two-hour", "a 48 hour") makes it a span of time
_SPAN_OF_TIME = re.compile(
    r"(?:\d+|an?|one|two|three|four|five|six|ten|fifteen|twenty|thirty|few|short|narrow|tiny)[\s-]+"
    r"(?:second|minute|min|hour|hr|day|week|month)s?[\s-]+$"
)
_TOPIC = re.compile(
    r"(?:\b(?:about|regarding|concerning|on the subject of)|(?<![\w'])re:)\s+(?:the\s+|a\s+|an\s+|my\s+|our\s+)?"
    r"(?:[\w'-]+\s+){0,2}$"
)
_NAME_FRAME = re.compile(r"\b(?:called|named|titled|entitled)\s+(?:the\s+|a\s+)?(?:[\w'-]+\s+){0,3}$")


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
    if lasts_for_good(turn.text, sentence):
        end, window = None, None  # "anything with wheat in is off the table. forever.": it lasts
    elif end is not None or is_open_temporary(sentence) or window is not None:
        start = window[0] if window is not None and end is None else state_start(sentence, turn.time)
        until = end or (window[1] if window else start + timedelta(days=open_days(sentence)))
        kind = "state" if kind in ("stated", "updated", "asked") else kind
    raw = _original_sentence(turn.text, sentence)
    named = for_someone(raw)
    about = scope_in(turn.text, sentence)
    about = "" if about == "general" else about
    scope = (
        "one-off" if ONE_OFF.search(sentence) or (m.subject == "other" and not about) or named else "general"
    )
    scope = (
        about
        if about and scope == "general" or (about.startswith("for:") and m.subject == "other")
        else scope
    )
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
    out = [event(turn, m.dimension, m.value, kind, **base)]
    attr = BY_DIMENSION.get(m.dimension)
    implied = attr.implies_when_avoided.get(m.value) if attr is not None and pol == -1 else None
    if implied:
        base.update(polarity=1, confidence=round(conf * 0.85, 3), reason=f"implied by avoiding {m.value}")
        out.append(event(turn, m.dimension, implied, kind, **base))
    return out


def _states(
    turn: Turn, text: str, extractor: str
) -> tuple[list[PreferenceEvent], tuple[datetime, datetime] | None]:
    out: list[PreferenceEvent] = []
    window: tuple[datetime, datetime] | None = None
    for sentence in sentences(text):
        rec = RECOVERY.search(sentence)
        if rec and not re.search(
            r"\b(?:after|once|when|until|till|before|if)\s+(?:\w+\s+){0,3}$", sentence[: rec.start()]
        ):
            name = next((n for n, pat in RECOVERY_STATE if re.search(pat, sentence)), "any")
            out.append(
                event(
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
            assumed = end is None or end <= start  # no length said: the state's usual one
            if assumed:
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
                reason="about someone else" if other else (ASSUMED_LENGTH if assumed else ""),
            )
            out.append(event(turn, f"state.{state.name}", value, "state", **kw))
            if other:
                continue
            window = window or (start, end)
            kw.update(
                confidence=0.8, reason=f"state:{state.name}" + (f"; {ASSUMED_LENGTH}" if assumed else "")
            )
            for dim, val, pol in state.implies:
                out.append(event(turn, dim, val, "state", polarity=pol, **kw))
    return _one_account(out), window


ASSUMED_LENGTH = "length assumed"  # a state said with no length of its own


def _one_account(events: list[PreferenceEvent]) -> list[PreferenceEvent]:
    """One event per state a turn tells of: "broke my ankle on Thursday. I'm in a cast for six weeks" is one
    injury, from the day it began to the end that was said."""
    merged: dict[tuple[str, str, int, str], PreferenceEvent] = {}
    for e in events:
        key = (e.dimension, e.value, e.polarity, e.scope)
        have = merged.get(key)
        if have is None:
            merged[key] = e
            continue
        said = [x for x in (have, e) if ASSUMED_LENGTH not in x.reason] or [have, e]
        until = max((x.valid_until for x in said if x.valid_until), default=None)
        merged[key] = dataclasses.replace(
            have, valid_from=min(have.valid_from, e.valid_from), valid_until=until
        )
        subject = "; ".join(dict.fromkeys(x.subject.rstrip(". ") for x in (have, e) if x.subject))[:200]
        merged[key] = dataclasses.replace(merged[key], subject=subject)
        if ASSUMED_LENGTH not in e.reason:
            merged[key] = dataclasses.replace(merged[key], reason=e.reason)
    return list(merged.values())


def _original_sentence(raw: str, norm_sentence: str) -> str:
    words = norm_sentence.split()[:3]
    idx = raw.lower().find(" ".join(words)) if words else -1
    return raw[idx : idx + len(norm_sentence) + 20] if idx >= 0 else raw
