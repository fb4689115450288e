"""Open preferences as ledger events: dimension ``open`` (the phrase) and ``open.number`` (an amount).

``open_events`` reads one user turn with ``open_prefs.read_open`` and ``quantities.quantities`` and
types each finding: a pick among offered options is ``chose``, a passed-over option or a declined
offer ``rejected``, a correction or an update as such; a preference said about a passing state
("for the next week", "while my knee heals", a state the lexicon knows) ends with it, and "from
today" starts one rather than ending it. An amount is kept when it is a bound ("after 11", "no more
than") or wished for ("give me half an hour"); inside an avoided phrase its bound turns round.
A complaint about an outcome ("the reminder came too late") is an ``open.complaint`` event: which
amount it moves, and which way, is read where the tool's parameters are known.
"""

from __future__ import annotations

import dataclasses
import re
from datetime import timedelta
from typing import Any

from ibachat.agent.reading.about import has_subject, scope_of
from ibachat.agent.reading.check import checked, kept_away, taken_back
from ibachat.agent.reading.clauses import is_question, normalise, own_words, sentences
from ibachat.agent.reading.complaints import COMPLAINT_DIM, NEXT_TIME, complained_subject, complaints
from ibachat.agent.reading.cues import AFFIRM, CORRECTION, DENY, UPDATE
from ibachat.agent.reading.lexicon import STATES
from ibachat.agent.reading.open_prefs import NUMBER_DIM, OPEN, Resolve, read_open, stance_cues
from ibachat.agent.reading.quantities import quantities
from ibachat.agent.reading.timeexpr import is_open_temporary, lasts_for_good, open_days, state_end
from memory.ledger import PreferenceEvent
from memory.types import Turn

OPEN_STATE_DAYS = 7
# a preference said about a passing condition ("..., so soft food only"; "while my knee heals")
_STATE_SENTENCE = re.compile(
    r"\b(?:for now|right now|at the moment|currently|temporarily|while (?:i|my)\b|until (?:i|my)\b|"
    r"recover(?:ing|y)?|heal(?:s|ing)?|after (?:my|the) (?:surgery|operation|procedure|extraction))\b"
)

_KIND = {"choice": "chose", "passed-over": "rejected", "declined": "rejected"}
_FAVOURITE = re.compile(r"\bmy (?:\w+[ -])?(?:\w+ )?(?:fave|fav|favourite|favorite)\b")
_CONFIDENCE = {3: 0.8, 2: 0.65, 1: 0.5}


_ASKS = re.compile(
    r"\b(?:give me|make it|make that|set it to|keep it (?:at|to|under)|i want|i need|i'd like|i would like|i always|"
    r"i usually|i normally|i prefer|i'd prefer|i'd rather|i like|let's do|let us do|go with|stick to|only)\b"
)
_FROM_NOW = re.compile(
    r"\b(?:from|starting|as of|beginning|since|effective)\s+(?:today|tonight|now|this (?:week|month|morning|evening)|"
    r"tomorrow|monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b(?:\s+on)?"
)
# present tense only: "they make me nauseous" is what the thing does; "the surgery left me sore" is an event
_HABITUAL_EFFECT = re.compile(
    r"\b(?:always\s+|usually\s+|often\s+|just\s+|tend to\s+)?(?:makes?|gives?|leaves?)\s+me\b[^.;]*"
)
_NEXT_SPAN = re.compile(r"\bfor the (?:next|coming) (?:(\w+) )?(days?|weeks?|months?)\b")
_SPAN_DAYS = {"day": 1, "week": 7, "month": 30}


def _agreed_next_time(said: str, assistant_text: str) -> list[str]:
    """The assistant's sentences offering a change for next time ("I can ask for less next time") that the
    user's reply agrees to ("yes pls, way less"); none when the reply turns it down or says nothing of it."""
    if not assistant_text or not AFFIRM.match(said) or DENY.search(said):
        return []
    return [s for s in sentences(assistant_text[:1000]) if NEXT_TIME.search(s.lower())]


def _state_until(sentence: str, when: Any) -> Any:
    """When a preference said about a passing state stops holding (None: it does not pass)."""
    sentence = _FROM_NOW.sub(" ", sentence)  # "from today" starts something; it does not end it
    # "...because they make me feel nauseous": a lasting reaction to the thing, not a passing state
    sentence = _HABITUAL_EFFECT.sub(" ", sentence)
    until, _ = state_end(sentence, when)
    if until is not None:
        return until
    m = _NEXT_SPAN.search(sentence)
    if m:
        n = m.group(1)
        count = int(n) if n and n.isdigit() else _WORD_NUMBERS.get(n or "", 1)
        return when + timedelta(days=count * _SPAN_DAYS[m.group(2).rstrip("s")])
    for state in STATES:
        if re.search(state.trigger, sentence):
            return when + timedelta(days=state.days)
    return None


_WORD_NUMBERS = {"two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "few": 3, "couple": 2}


def _the_state_itself(p: Any) -> bool:
    """A phrase that describes the user's passing state ("hobbling round on crutches is a nightmare"):
    a complaint about how things are, not a choice to keep away from."""
    for state in STATES:
        hit = re.search(state.trigger, p.sentence)
        if hit and re.search(state.trigger, p.phrase):
            return True
    return False


def _kept_away(prefs: list, raw: str) -> list:
    """ "No X" wishes the cue tables did not find, one per thing ("no running and no cycling")."""
    from ibachat.agent.reading.open_prefs import OpenPref, interjections

    have = {p.phrase for p in prefs}
    out = []
    for sentence in sentences(own_words(normalise(raw))):
        for thing in kept_away(sentence):
            if thing.strip().lower() in interjections():
                continue  # "no thanks": a reply, not a thing refused
            if not any(thing in h or h in thing for h in have):
                out.append(OpenPref(thing, -1, 2, sentence, "cue", tags={"cue=no"}))
                have.add(thing)
        for thing in taken_back(sentence):  # "fish is back on the menu": wanted again, an update
            if not any(thing in h or h in thing for h in have):
                out.append(OpenPref(thing, 1, 2, sentence, "cue", tags={"cue=back", "update"}))
                have.add(thing)
    return out


def scope_in(raw: str, sentence: str) -> str:
    """Whom or where the sentence is about (``reading/about.py``), read in the turn's own casing; a
    fragment with no subject of its own ("no tahini, no sesame") goes on about what the one before was."""
    said = sentences(raw.replace("\n", " "))
    own = raw_sentence(raw, sentence)
    found = scope_of(own)
    if found or own not in said:
        return found or "general"
    i = said.index(own)
    if i and not has_subject(own):
        return scope_of(said[i - 1]) or "general"
    return "general"


def raw_sentence(raw: str, normalised: str) -> str:
    """The sentence of ``raw`` whose normalised form is ``normalised`` (the whole text when none is)."""
    for s in sentences(raw.replace("\n", " ")):
        if normalise(s) == normalised or normalised.startswith(normalise(s)[:40] or "\0"):
            return s
    return raw[:600]


def _asks_once(sentence: str, raw: str) -> bool:
    """A request to the assistant for one day, with no word of always ("book a ride from 12 Elm Street
    tomorrow at 9"): its amounts are this request's (house numbers, times, counts), read when the call
    runs, never a standing bound ("block my mornings, meetings after 11 only" stays one)."""
    from ibachat.agent.reading.acts import read_act
    from ibachat.agent.reading.speech.words import _FREQUENCY

    if _FREQUENCY.search(sentence):
        return False
    from ibachat.agent.reading.check import _one_day

    # in the user's casing where the sentence is found there, as the parser reads best (and routing read it)
    act = read_act(raw if normalise(raw) == sentence else sentence)
    forms = ("imperative", "modal", "lets", "elliptical", "want")
    return act.asks and any(r.form in forms for r in act.requests) and _one_day(sentence)


def _parts_over_whole(prefs: list) -> list:
    """A wanted phrase that is only two others of the same sentence joined ("high up and as far from the
    lifts" beside "high up" and "as far from the lifts") is those two: each is kept on its own, once.
    A phrase with words of its own besides its parts keeps them ("board games and card games with long
    rules" says more than "long rules"), and an avoided list stays whole beside its parts: avoiding
    "cheeses like brie or camembert" is avoiding each and what they are examples of."""

    def joined(p: Any) -> bool:
        if p.polarity < 0 or not re.search(r"\band\b|,|\bor\b", p.phrase):
            return False
        parts = [
            q
            for q in prefs
            if q is not p
            and q.sentence == p.sentence
            and q.polarity == p.polarity
            and q.phrase != p.phrase
            and q.phrase in p.phrase
        ]
        rest = p.phrase
        for q in sorted(parts, key=lambda q: -len(q.phrase)):
            rest = rest.replace(q.phrase, " ")
        return bool(parts) and not re.sub(r"\b(?:and|or)\b|[,\s]", "", rest)

    return [p for p in prefs if not joined(p)]


def _asks_for_words(sentence: str) -> bool:
    """A request whose every act is answered in words ("convert 5 miles to km please", "explain ...", "list
    ..."): its amounts are what to talk about, not what the user wants."""
    from ibachat.agent.data import word_classes
    from ibachat.agent.reading.acts import read_act

    act = read_act(sentence)
    speech = word_classes("act_verbs").get("speech", frozenset())
    return bool(act.requests) and all(r.verb and r.verb.split()[0] in speech for r in act.requests)


# what follows a condition: "anything longer than X and I ...", "if it's older than X, ..."
_THEN_I = re.compile(
    r"^[^.;!?,]{0,30}?(?:\s*,\s*|\s+)(?:(?:and|then|&)\s+)?(?P<c>(?:i|i'm|i'll|i'd|we|we're|we'll|you|it's|"
    r"that's|count me|don't|dont|do not|never|forget|skip)\b[^.;!?]*)"
)
_REFUSING = re.compile(r"^(?:count me out|don't|dont|do not|never|forget|skip)\b")
_GLAD = re.compile(r"\b(?:love|like|happy|fine|great|good|in|game|sold|there|up for)\b")
# the copula after "anything over N ...": what such a thing is said to be ("is useless to me", "'s a no")
_IS_SAID = re.compile(r"^[^.;!?,]{0,20}?\s*(?:is|are|'s|was|were|gets|feels|seems)\s+(?P<c>[^.;!?,]+)")
_IF_THEN = re.compile(r"^[^.;!?]{0,30}?,?\s+(?P<c>[^.;!?]+)")
_REFUSED = re.compile(
    r"\b(?:not|never|no|don't|dont|doesn't|won't|can't|isn't|useless|pointless|forget it|no good|no use)\b"
)


def _bad_if_so(sentence: str, span: str) -> bool:
    """The amount is the condition of something the user does not want: "anything past an hour and a half
    and I'm snoring", "if it's older than a fortnight it's not news", "anything over £40 and we walk";
    the range it names is then avoided. A consequence the sentiment lexicon rates good ("and I'm happy")
    keeps it."""
    from ibachat.agent.reading.outcomes import valence

    at = sentence.find(span)
    if at < 0:
        return False
    before, rest = sentence[:at], sentence[at + len(span) :]
    if re.search(r"\b(?:anything|everything|whatever|any)\b[^,.;!?]{0,25}$", before):
        m = _THEN_I.match(rest)
        if m is not None:
            said = m.group("c")
            if _REFUSING.match(said):
                return True  # "anything older than a fortnight, don't bother sending it"
            return valence(said) < 0.3 and not _GLAD.search(said)
        m = _IS_SAID.match(rest)  # "anything older than 2 weeks is useless to me": what it is said to be
        if m is not None:
            said = m.group("c")
            return bool(_REFUSED.search(said)) or valence(said) <= -0.3
    if re.search(r"\bif\b[^,.;!?]{0,30}$", before):
        m = _IF_THEN.match(rest)
        if m is not None:
            return bool(_REFUSED.search(m.group("c"))) or valence(m.group("c")) <= -0.3
    return False


def open_events(
    turn: Turn, assistant_text: str, extractor: str = "rules", resolve: Resolve | None = None
) -> list[PreferenceEvent]:
    """Ledger events for the open preferences of one user turn (dimension ``open``, value = the phrase).

    ``resolve``: picks an offered option a reply describes, by meaning (``read_open``)."""
    if turn.role != "user" or not turn.text.strip():
        return []
    prefs = [
        p
        for p in checked(read_open(turn.text[:8000], assistant_text[:4000], resolve))
        if not _the_state_itself(p)
    ]
    prefs += _kept_away(prefs, turn.text[:8000])
    prefs = _parts_over_whole(prefs)
    said = normalise(turn.text[:2000])
    kind_all = "corrected" if CORRECTION.search(said) else "updated" if UPDATE.search(said) else "stated"
    out = []
    whole_end, _ = state_end(said, turn.time)
    for p in prefs:
        changed = any("update" in q.tags for q in prefs)  # "fish is back ... still no meat": one update
        kind = "updated" if changed and p.how == "cue" else _KIND.get(p.how, kind_all)
        # a pick is no state, nor is a favourite ("this weekend ... anchovy pizza, my absolute fave")
        lasting = p.how in _KIND or (p.polarity > 0 and _FAVOURITE.search(p.sentence) is not None)
        until = None if lasting else _state_until(p.sentence, turn.time)
        if until is None and not lasting and is_open_temporary(p.sentence):
            until = turn.time + timedelta(days=open_days(p.sentence))
        if until is None and not lasting and _STATE_SENTENCE.search(p.sentence):
            until = whole_end or turn.time + timedelta(days=OPEN_STATE_DAYS)
        if until is not None and (until <= turn.time or lasts_for_good(turn.text, p.sentence)):
            until = None  # "I'm off dairy for good now" beside "this week": it lasts
        if until is not None and kind == "stated":
            kind = "state"
        reason = f"open: {p.how}" + (f"; valence: {p.adjective}" if p.adjective else "")
        if "negated" in p.tags:
            reason += "; negated"
        out.append(
            PreferenceEvent(
                dimension=OPEN,
                value=p.phrase[:120],
                kind=kind,
                valid_from=turn.time,
                polarity=p.polarity,
                valid_until=until,
                evidence=(turn.id,) if turn.id else (),
                speaker="user",
                confidence=_CONFIDENCE.get(p.strength, 0.5),
                extractor=extractor,
                subject=p.sentence[:200],
                reason=reason,
                scope=scope_in(turn.text, p.sentence),
            )
        )
    for sentence in _agreed_next_time(said, assistant_text):
        # "I can ask for less next time." - "yes pls, way less": the user takes the offer as their own
        for c in complaints(sentence):
            out.append(
                PreferenceEvent(
                    dimension=COMPLAINT_DIM,
                    value=c.label,
                    kind="rejected",
                    polarity=-1,
                    valid_from=turn.time,
                    evidence=(turn.id,) if turn.id else (),
                    speaker="user",
                    confidence=0.6,
                    extractor=extractor,
                    subject=f"{turn.text[:80]} (to: {sentence[:100]})",
                    reason=f"complaint: agreed to {sentence[:100]!r}",
                )
            )
    for sentence in sentences(own_words(said)):
        if is_question(sentence) and not re.match(
            r"^(?:\w+[,\s]+)*?(?:can|could|would|will)\s+(?:you|your)\b", sentence
        ):
            continue  # a question states no amount or complaint of the user's
        for c in complaints(sentence):  # "the ping came too late": an outcome's amount was off
            out.append(
                PreferenceEvent(
                    dimension=COMPLAINT_DIM,
                    value=c.label,
                    kind="rejected",
                    polarity=-1,  # shown as "- avoid too late"
                    valid_from=turn.time,
                    evidence=(turn.id,) if turn.id else (),
                    speaker="user",
                    confidence=0.6,
                    extractor=extractor,
                    subject=sentence[:200],
                    reason=f"complaint: {c.span}",
                )
            )
        stance = bool(stance_cues(sentence)) or bool(_ASKS.search(sentence))
        avoided = [p.phrase for p in prefs if p.polarity < 0 and p.sentence == sentence]
        complained = complained_subject(sentence)  # "anything over 40 minutes ... is too much": at most 40
        if complained:
            avoided.append(complained[0])
        raw = raw_sentence(turn.text[:2000], sentence)
        amounts = quantities(sentence, raw)
        if amounts and (_asks_once(sentence, raw) or _asks_for_words(sentence)):
            amounts = []
        for q in amounts:
            if q.op == "=" and any(o.unit == q.unit and o.op == "=" for o in amounts[amounts.index(q) + 1 :]):
                continue  # "a 5 minute alert is useless, give me half an hour": the later amount replaces it
            if q.op == "=" and not stance:
                continue  # "convert 150 euros" is a question about an amount, not a wish for one
            if not q.turned and (
                any(q.span in phrase for phrase in avoided)  # "no ... more than two hours"
                or (q.op != "=" and _bad_if_so(sentence, q.span))  # "anything past an hour and I'm asleep"
            ):
                if q.op == "=":
                    continue
                q = dataclasses.replace(q, op="<=" if q.op == ">=" else ">=")
            out.append(
                PreferenceEvent(
                    dimension=NUMBER_DIM,
                    value=f"{q.unit}{q.op}{q.value:g}",
                    kind=kind_all,
                    valid_from=turn.time,
                    evidence=(turn.id,) if turn.id else (),
                    speaker="user",
                    confidence=0.7,
                    extractor=extractor,
                    subject=sentence[:200],
                    reason=f"amount: {q.span}",
                    scope=scope_in(turn.text, sentence),
                )
            )
    return out
