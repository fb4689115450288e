"""Who wants what, and how much: attribute mentions in a sentence and the stance on each.

A sentence is cut into clauses (``clauses``); each clause is scanned for attribute phrases
(the lexicon, comparatives of its words, elided heads such as "oat milk, not almond", and
a tool's own vocabulary). A mention takes its stance from the nearest cue in its own
clause, before it ("love", "can't stand", "too") or after it ("... is a no for me"), with
negation scope ("I don't mind spicy" is not a dislike), and never from another clause.
Across clauses: a contrast gives a bare mention the opposite stance ("X is great, whereas
Y"); a condition takes the verdict of its consequence ("if it's not spicy, what's the
point"); "it" carries a verdict back to what was just named ("although I'd never pick
it"). The subject decides whose preference it is (a verb in the third person, "my wife").
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from ibachat.agent.reading.clauses import ADDITIVE, CONDITION, CONTRAST, THEN, clauses, normalise, sentences
from ibachat.agent.reading.cues import AFTER, BEFORE, NEGATORS, THIRD_PERSON, VERDICT_BAD, VERDICT_GOOD, Table
from ibachat.agent.reading.lexicon import BY_DIMENSION, avoided_values
from ibachat.agent.reading.mentions import Mention, Vocab, find_mentions

__all__ = ["Mention", "analyse", "clauses", "find_mentions", "normalise", "sentences"]

Compiled = list[tuple[re.Pattern[str], int, int, frozenset[str]]]


@dataclass
class Cue:
    start: int
    end: int
    polarity: int
    strength: int
    tags: frozenset[str]
    text: str


_CONNECTOR = re.compile(
    r"^[\s,&/+]*(?:(?:and|or|plus|as well as|also|nor|along with|or even|and also|and extra|the|a|an|some|my|any|in|as|with|using)[\s,]*)*$"
)
_REQUEST = re.compile(
    r"^(?:(?:also|oh|btw|by the way|and|plus|right|ok|okay|quick thing|before i forget|one more thing|fyi|please|just|"
    r"now|so|wait|actually|hmm)[,:]?\s+)*(?:add|throw in|put|include|use|make|give|keep|switch|change|send|set|write|"
    r"drop|skip|remove|do)\b"
    r"|\b(?:order|book|reserve|get me|grab me|buy|schedule|find me|pick up|can i get|could i get|can i have|can you|could you|"
    r"would you|i'll have|i'll take|i'll (?:fly|go|do|get|book|order|try)|i'd like|let's|please|make it|make mine|set up|sign me up|put me)\b"
    r"|^(?:please |just |now )?(?:get|order|book|grab|find|pick|choose|reserve|buy|fetch|arrange)\b"
)
_SELF = r"i|i'm|i've|i'd|i'll|me|my|mine|myself|we|we're|we've|we'd|us|our"
_OTHER = (
    r"he|she|they|he's|she's|they're|his|her|their|him|them|someone|somebody|people|everyone|everybody|"
    r"(?:a|one|some|another) (?:\w+ )?(?:friend|colleague|coworker|co-worker|neighbou?r|relative|cousin|guy|woman|man)s?(?: of mine)?|"
    r"(?:my|our) \w+'s|(?:my |our |the )?(?:flatmate|roommate|housemate)s?|"
    r"(?:my|our) (?:wife|husband|partner|boyfriend|girlfriend|friend|friends|mom|mum|mother|dad|father|son|daughter|kids?|"
    r"children|sister|brother|boss|manager|colleague|coworker|co-worker|roommate|flatmate|neighbou?r|guests?|team|family|"
    r"parents|client|grandma|grandpa|grandmother|grandfather|baby|fiancée?|in-laws|cousin|aunt|uncle|date|cat|dog|pet)"
)
_ADVISER = r"doctor|doc|gp|physio|dentist|nurse|therapist|trainer|coach|midwife|surgeon|consultant|dietitian|nutritionist"
_REPORTED = (
    rf"(?!i |we |(?:my |the |our )?(?:{_ADVISER}) )(?:my |the |our )?[a-z']+ "
    r"(?:said|says|thinks|reckons|claims|told me|tells me|mentioned|insists|swears)(?: that)?"
)
_SUBJECT = re.compile(
    rf"\b(?P<other>{_OTHER}|{_REPORTED})\b|\b(?P<you>you|you're|you've|you'd)\b|\b(?P<self>{_SELF})\b"
)
OTHER_SUBJECT = re.compile(rf"\b(?:{_OTHER})\b")
_VERB_CUE = re.compile(r"^(?:lov|lik|hat|prefer|enjoy|ador|dislik|avoid|want|need|can't stand|crav)")
_NOT_A_NOUN = frozenset(
    "i we you they he she it and or but so then also just really still do don't does did would could should "
    "will i'd we'd i'll we'll totally absolutely definitely honestly seriously genuinely truly kinda always "
    "never usually actually simply def lol tbh btw ok okay oh yeah yes no nah well plus even only to both all "
    "each mostly generally still much".split()
)
_ASKING_YOU = re.compile(
    r"\b(?:can|could|would|will|won't|do|did|please|if|have|shall)\s+you\b|\byou\s+(?:please|should|could)\b"
)
_THIRD = re.compile(
    r"\b(?:loves|hates|likes|prefers|adores|enjoys|avoids|dislikes|detests|loathes|despises|craves|wants|needs|"
    r"orders|gets|picks|chooses|books|takes|goes|asks|insists|flies|drinks|eats|swears|sticks|opts|reserves|grabs|"
    r"buys|uses|rides|minds|says|said|thinks|reckons|claims)\b"
)
_INTERJECTION = re.compile(
    # after a discourse opener ("fyi no, seeing someone in person"): the "no" answers, it negates nothing
    r"^(?:(?:fyi|btw|by the way|also|and|so|just so you know|for the record|heads up|quick note)[,:]?\s+(?=no|nope|nah))?"
    r"(?:(?:no|nope|nah|yes|yeah|yep|ok|okay|oh|well|hmm|hm|right|ah|lol)(?:\s*[,.!]+\s*|\s+(?=(?:no|nope|nah|yes|yeah)\b)))+"
)
_PRONOUN = re.compile(
    r"\b(?:it|them|that one|this one|those ones|these ones|ones)\b|\b(?:those|these)\b(?!\s+[a-z]{3,})"
)
_NARRATIVE = re.compile(
    r"\b(?:i|we|he|she|they|it|there)\s+(?:\w+\s+)?(?:saw|was|were|had|went|did|watched|met|visited|heard|read|found|"
    r"spotted|noticed|passed|walked|drove|sat)\b"
)
_DISCLOSURE = re.compile(
    r"\b(?:btw|by the way|fyi|just so you know|for the record|heads up|in case it matters|for future reference|noted|ps)\b"
)


@lru_cache(maxsize=1)
def _compiled() -> tuple[Compiled, Compiled]:
    def comp(table: Table) -> Compiled:
        return [
            (re.compile(r"(?:(?<![\w'])|(?='s\b))(?:" + p + r")(?![\w'])"), pol, s, frozenset(t.split()))
            for p, pol, s, t in table
        ]

    return comp(BEFORE), comp(AFTER)


def _find_cues(text: str, table: Compiled) -> list[Cue]:
    found = [
        Cue(m.start(), m.end(), pol, strength, tags, m.group(0))
        for pattern, pol, strength, tags in table
        for m in pattern.finditer(text)
    ]
    found.sort(key=lambda c: (c.start, -(c.end - c.start)))
    out: list[Cue] = []
    for cue in found:
        if out and cue.start < out[-1].end:
            continue
        out.append(cue)
    return out


def _words(text: str) -> int:
    return len(re.findall(r"[\w']+", text))


def _subject(text: str) -> str:
    text = _ASKING_YOU.sub(" ", text)  # "could you keep it brief": the user asking, not "you"
    last = "self"
    for m in _SUBJECT.finditer(text):
        last = m.lastgroup or "self"
    return last


_FILLER = frozenset(
    "really particularly that very so too a an the big huge much ever exactly super all at i it be think feel "
    "actually even quite overly necessarily generally always usually like just totally entirely".split()
)


def _negated(prefix: str) -> bool:
    """A negator just before the cue, with only fillers between ("don't really", not "aren't watering it's")."""
    span = prefix.rsplit(",", 1)[-1]
    tail = re.findall(r"[\w']+", span)[-3:]
    for i in range(len(tail) - 1, -1, -1):
        if NEGATORS.fullmatch(tail[i]) or (
            i + 1 < len(tail) and NEGATORS.fullmatch(f"{tail[i]} {tail[i + 1]}")
        ):
            return all(w in _FILLER for w in tail[i + 1 :] if not NEGATORS.fullmatch(w))
    return False


# what a negated head governs: its objects and complements ("don't want | meat", "not a fan | of dill")
_NEGATED_ARGS = frozenset(
    {"dobj", "attr", "acomp", "prep", "xcomp", "ccomp", "oprd", "dative", "advcl", "conj"}
)


def _last_negator(text: str, before: int) -> int | None:
    found = [m.start() for m in NEGATORS.finditer(text[:before])]
    return found[-1] if found else None


def _beyond_negation(text: str, at: int, mention: Mention) -> bool:
    """A "not" negates what its head governs; a mention past a comma that the parse does not put under
    that head's arguments is outside it ("I'm not fussy at all, meat, fish, veg: I'll eat anything")."""
    if "," not in text[at : mention.start]:
        return False
    from ibachat.agent.reading.parse import parse

    doc = parse(text)
    neg = next((t for t in doc if t.idx >= at and t.dep_ == "neg"), None)
    target = next((t for t in doc if t.idx <= mention.start < t.idx + len(t.text)), None)
    if neg is None or target is None or neg.i > target.i:
        return False
    head = neg.head
    scope = {t.i for c in head.children if c.dep_ in _NEGATED_ARGS and c.i > neg.i for t in c.subtree}
    # "not picky, chicken, fish": nouns the parse joins to an adjective are a list of their own
    apart = {
        t.i
        for c in doc
        if c.dep_ == "conj" and c.head.pos_ == "ADJ" and c.pos_ in ("NOUN", "PROPN")
        for t in c.subtree
    }
    return target.i not in scope - apart


def _flip(polarity: int) -> int:
    return {1: -1, -1: 0, 0: -1}[polarity]


def _copy(dst: Mention, src: Mention) -> None:
    dst.polarity, dst.strength, dst.tags = src.polarity, src.strength, set(src.tags)
    dst.subject, dst.cue = src.subject, src.cue


def assign(clause: str, mentions: list[Mention], connector: str = "", *, previous: int | None = None) -> None:
    """Set each mention's polarity, strength, tags and subject in place (None: no stance)."""
    before_table, after_table = _compiled()
    lead = _INTERJECTION.match(clause)
    text = " " * lead.end() + clause[lead.end() :] if lead else clause  # "no no, window please"
    before = _find_cues(text, before_table)
    after = _find_cues(text, after_table)
    request = bool(_REQUEST.search(text.strip()))
    prev: Mention | None = None
    for i, mention in enumerate(mentions):
        if prev is not None and mention.start < prev.end:  # the same words read by two vocabularies
            _copy(mention, prev)
            continue
        low = prev.end if prev is not None else 0
        high = mentions[i + 1].start if i + 1 < len(mentions) else len(text)
        b = [c for c in before if c.end <= mention.start and c.start >= low and not _inside(c, mentions)]
        b = [c for c in b if "weak" not in c.tags or _close(text[c.end : mention.start])]
        if not request and _NARRATIVE.search(text):  # "I saw a plane with a window": telling, not asking
            b = [c for c in b if not (c.strength == 1 and "request" in c.tags)]
        a = [
            c
            for c in after
            if c.start >= mention.end
            and c.end <= max(high, mention.end)
            and _words(text[mention.end : c.start]) <= 6
        ]
        near = b[-1] if b else None
        if near is not None and near.strength == 1 and "request" in near.tags:
            strong = [c for c in b[:-1] if c.strength >= 2 and _words(text[c.end : mention.start]) <= 4]
            near = strong[-1] if strong else near
        cue, negated = _choose(text, mention, near, a[0] if a else None)
        if cue is not None and cue is near and (negated or NEGATORS.fullmatch(cue.text)):
            at = cue.start if NEGATORS.fullmatch(cue.text) else _last_negator(text, cue.start)
            if at is not None and _beyond_negation(text, at, mention):  # "not fussy at all, meat, fish"
                cue, negated = (None, False) if NEGATORS.fullmatch(cue.text) else (cue, False)
        if re.match(r"^[\s-]*free\b", text[mention.end :]):
            cue, negated = Cue(mention.end, mention.end + 5, -1, 3, frozenset(), "free"), False
        if cue is not None:
            mention.polarity = _flip(cue.polarity) if negated else cue.polarity
            mention.strength, mention.tags, mention.cue = cue.strength, set(cue.tags), cue.text
            if negated:
                mention.tags.add("negated")
                if cue.polarity == 1 and "no longer" in text[: cue.start]:
                    mention.tags.add("update")
            mention.subject = _whose(text, cue, mention)
        elif (
            prev is not None
            and prev.polarity is not None
            and _CONNECTOR.match(text[prev.end : mention.start])
        ):
            _copy(mention, prev)
        elif connector.startswith(("except", "apart", "other than")):
            mention.polarity, mention.strength, mention.tags = -1, 2, {"except"}
        elif previous is not None and previous != 0 and connector in CONTRAST:
            mention.polarity, mention.strength, mention.tags = -previous, 1, {"contrast"}
        elif previous is not None and connector in ADDITIVE:
            mention.polarity, mention.strength, mention.tags = previous, 1, {"contrast"}
        elif request and connector not in CONDITION:
            mention.polarity, mention.strength, mention.tags = 1, 1, {"request"}
            mention.subject = _subject(text[: mention.start])
        prev = mention


def _close(gap: str) -> bool:
    """A bare "I'm" speaks of what follows it closely ("I'm vegan"), not "I'm reading a book on ..."."""
    words = re.findall(r"[\w']+", gap)
    return len(words) <= 5 and not any(w.endswith(("ing", "ed")) for w in words)


def _whose(text: str, cue: Cue, mention: Mention) -> str:
    subject = _subject(text[: min(cue.start, mention.start)])
    first = re.match(r"(?:i|i'm|i'd|i've|i'll|we|we're|we'd)\b", cue.text)
    if subject == "self" and cue.start < mention.start and _VERB_CUE.match(cue.text):
        word = re.findall(r"[\w']+", text[: cue.start].rsplit(",", 1)[-1])[-1:]
        if word and word[0] not in _NOT_A_NOUN and not word[0].endswith("ly"):
            return "other"  # "the kids love ...": a noun before the verb is its subject
    if subject == "self" and cue.start < mention.start and not first:
        verb = THIRD_PERSON.match(cue.text) or _THIRD.search(text[cue.start : mention.start])
        if verb and not re.search(r"\b(?:i|we|i'd|we'd|i'll|we'll)\s+(?:\w+\s+)?$", text[: cue.start]):
            return "other"  # "my cat loves ...", "Tom always orders ...": agreement names someone else
    return subject


def _inside(cue: Cue, mentions: list[Mention]) -> bool:
    return any(m.start <= cue.start and cue.end <= m.end for m in mentions)


def _choose(clause: str, mention: Mention, b: Cue | None, a: Cue | None) -> tuple[Cue | None, bool]:
    """The cue that governs ``mention`` and whether it is negated."""
    b_dist = _words(clause[b.end : mention.start]) if b else 99
    a_dist = _words(clause[mention.end : a.start]) if a else 99
    if a is not None and (
        b is None or a.strength > b.strength or (a.strength == b.strength and a_dist < b_dist)
    ):
        return a, _negated(clause[mention.end : a.start]) and a.polarity != -1
    if b is not None and b_dist <= 8:
        own = b.polarity == 1 and bool(NEGATORS.search(b.text))
        return b, own or _negated(clause[: b.start])
    return None, False


def analyse(
    sentence: str, *, vocab: tuple[re.Pattern[str], Vocab] | None = None, context: str = ""
) -> list[Mention]:
    """Every attribute mention in a normalised sentence, with its stance."""
    out: list[Mention] = []
    previous: int | None = None
    last: list[Mention] = []
    parts = clauses(sentence)
    for i, (connector, clause) in enumerate(parts):
        mentions = find_mentions(clause, vocab=vocab, context=f"{sentence} {context}", sentence=sentence)
        assign(clause, mentions, connector, previous=previous)
        if connector in CONDITION:
            _condition(clause, mentions, parts, i)
        if not mentions and last:
            _refer(clause, connector, last)
        _contrast(out, mentions, connector, clause)
        stances = [m.polarity for m in mentions if m.polarity is not None]
        if stances:
            previous = stances[-1]
        last = mentions or last
        out.extend(mentions)
    _alternatives(out)
    if _DISCLOSURE.search(sentence) and len(_DISCLOSURE.sub(" ", sentence).split()) <= 4:
        for m in out:
            if m.polarity is None:
                m.polarity, m.strength, m.tags = 1, 1, {"disclosure"}
    for m in out:
        if m.polarity == -1 and m.generic and "exact" not in m.tags:
            attr = BY_DIMENSION.get(m.dimension)
            if attr is not None and attr.scale:  # avoiding "spicy" avoids the upper half of the scale
                m.value = avoided_values(attr, m.value, generic=True)[0]
    return out


_HYPOTHETICAL = frozenset({"no", "not", "never", "isn't", "aren't", "wasn't", "weren't"})


def _condition(clause: str, mentions: list[Mention], parts: list[tuple[str, str]], i: int) -> None:
    """A mention in a condition takes the verdict of the consequence ("if it's not spicy, what's the point")."""
    if not mentions:
        return
    follows = i + 1 < len(parts) and parts[i + 1][0] == THEN
    consequence = parts[i + 1][1] if follows else (parts[i - 1][1] if i > 0 else "")
    good, bad = VERDICT_GOOD.search(consequence), VERDICT_BAD.search(consequence)
    verdict = (good or bad) if bool(good) != bool(bad) else None
    for m in mentions:
        if verdict is None:
            if m.cue in _HYPOTHETICAL or "request" in m.tags:
                m.polarity, m.tags = None, set()  # "if there's no window seat ...": only a supposition
            continue
        sign = (1 if good else -1) * (-1 if parts[i][0] == "unless" else 1)
        m.polarity = -sign if _negated(clause[: m.start]) else sign
        m.strength, m.tags, m.cue, m.subject = 2, {"conditional"}, verdict.group(0), "self"


def _refer(clause: str, connector: str, last: list[Mention]) -> None:
    """ "it" in a clause of its own carries a verdict back to what was just named."""
    ref = _PRONOUN.search(clause)
    if ref is None:
        return
    probe = Mention("_ref", "", ref.start(), ref.end(), ref.group(0))
    assign(clause, [probe], "")
    if probe.polarity is None or probe.subject == "other":
        return
    target = last[-1]
    if target.polarity is None:
        _copy(target, probe)
    elif connector in CONTRAST and target.polarity == 1 and probe.polarity == -1:
        target.polarity, target.strength = 0, 1  # "happy with X, although I'd never pick it"


def _alternatives(mentions: list[Mention]) -> None:
    """ "Whole milk, none of that skimmed": a bare value beside an avoided rival is the one wanted."""
    for m in mentions:
        if m.polarity is not None or m.generic:
            continue
        attr = BY_DIMENSION.get(m.dimension)
        if attr is None or not attr.exclusive:
            continue
        if any(o.dimension == m.dimension and o.value != m.value and o.polarity == -1 for o in mentions):
            m.polarity, m.strength, m.tags = 1, 1, {"alt"}


def _contrast(earlier: list[Mention], later: list[Mention], connector: str, clause: str) -> None:
    """ "X is fine / I like X, but I prefer Y": X becomes acceptable, not preferred."""
    if connector not in ("but", "though", "although", "however", "yet", "whereas"):
        return
    if not re.search(r"\b(?:prefer|rather|better|more|favou?rite|really want|best)\b", clause):
        return
    for new in later:
        if new.polarity != 1:
            continue
        for old in earlier:
            if old.dimension == new.dimension and old.value != new.value and old.polarity == 1:
                old.polarity, old.strength = 0, 1
