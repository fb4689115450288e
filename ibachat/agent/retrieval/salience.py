"""Salience: which remembered turns carry a strong preference signal, and why.

A deterministic floor for the paper's salience re-ranking. ``detect_cues`` finds
corrections, rejections, updates, preference statements, habits and temporary states
with negation-aware regexes; ``salience`` folds them, the speaker, a past call of the
same tool, repeats and recency into one value in [0, 1]; ``score_turn`` applies it as a
bounded multiplicative bonus on retrieval relevance. So salience reorders turns of
comparable relevance (an explicit correction over an older habit, a fresh update over
the value it replaced) but never lifts an irrelevant turn, however cue-rich, above a
relevant one. Recency alone never outweighs an explicit correction or rejection, and an
assistant's words never count as the user's preference.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from memory.types import Turn

if TYPE_CHECKING:
    import numpy as np

HALF_LIFE_DAYS = 60.0
STATE_HALF_LIFE_DAYS = 14.0  # a short-term state fades fast: it matters while it lasts

# The score (see ``score_turn``): relevance * speaker factor * (1 + SALIENCE_GAIN * S), where
#   S = min(1, CUE_SHARE * sum(cue weight * age factor) * speaker cue factor
#           + FIRST_PERSON_WEIGHT + SAME_TOOL_WEIGHT + repeats + RECENCY_WEIGHT * recency)
# so salience at most multiplies relevance by 1 + SALIENCE_GAIN.
SALIENCE_GAIN = 1.0
CUE_SHARE = 0.7
RECENCY_WEIGHT = 0.3
CUE_WEIGHTS: dict[str, float] = {
    "correction": 1.0,
    "rejection": 0.85,
    "temporary state": 0.8,
    "update": 0.6,
    "state ended": 0.5,
    "preference": 0.35,
    "habit": 0.15,
    "time-bound": 0.1,
}
FIRST_PERSON_WEIGHT = 0.1
SAME_TOOL_WEIGHT = 0.4
REPEAT_WEIGHT = 0.05  # per extra near-duplicate, capped at MAX_REPEAT_BONUS
MAX_REPEAT_BONUS = 0.2
SPEAKER_CUE_FACTOR = {"user": 1.0, "tool": 0.5, "assistant": 0.25}
SPEAKER_RELEVANCE_FACTOR = {"user": 1.0, "tool": 0.9, "assistant": 0.6}
QUESTION_FACTOR = 0.5  # a user's question without any strong cue states no preference
DUPLICATE_COSINE = 0.95  # stored vectors closer than this are the same statement
MMR_LAMBDA = 0.7  # salience against diversity (``mmr``)
RESTATES_COSINE = 0.8  # above this cosine a turn starts to restate one already chosen (``select``)

_NEGATORS = (
    r"(?:not|never|no|don'?t|doesn'?t|didn'?t|isn'?t|aren'?t|wasn'?t|won'?t|can'?t|cannot|hardly|no longer)"
)
_I = r"(?:i|i'm|im|i've|i'd|i'll|we|we're|we've|we'd)"

_CUE_PATTERNS: dict[str, list[str]] = {
    "correction": [
        r"(?:^|[.!?,;:]\s*)actually\b",
        r"\bactually,? (?:no|nope|i|i'?d|i'?m|it'?s|make|can|could|let'?s|change|please|we|that'?s|not)\b",
        r"\bi (?:told|said to|asked) you\b",
        r"\b(?:like|as) i (?:said|told you|mentioned)\b",
        r"\bi (?:said|meant|asked for|wanted)\b.{0,40}\b(?:not|instead|rather)\b",
        r"\bwhat i (?:meant|said|asked for)\b",
        r"\bthat'?s (?:not (?:what|right|correct)|wrong|incorrect)\b",
        r"\b(?:you|u) (?:got it wrong|misunderstood|mixed (?:it|that) up)\b",
        r"\bmake (?:it|that|mine) (?:a |an |the )?\w+",
        r"\bchange (?:it|that|this|mine) to\b",
        r"\bshould (?:have been|be) (?:a |an |the )?\w+ (?:not|instead)\b",
        r"\b(?:correction|to clarify|let me correct|i stand corrected|scratch that)\b",
        r"\bnot (?:\w+ ){0,3}\w+,? but\b",
        r"\bwrong (?:one|seat|size|order|item|date|time|day|place|address)\b",
        r"\bi never (?:said|asked|wanted)\b",
    ],
    "rejection": [
        r"^\s*(?:no|nope|nah|no way)\b(?!\s+(?:problem|worries|rush|idea|doubt|clue|big deal|matter|need))",
        r"\bnot (?:that|this|those|these) (?:one|ones|kind|type|option)\b",
        r"\b(?:the )?other one\b",
        r"\b" + _I + r" (?:do not|don'?t|didn'?t|won'?t|wouldn'?t) (?:want|need|like|fancy|care for)\b",
        r"\b" + _I + r"(?:'d| would) rather not\b",
        r"\b(?:please )?(?:don'?t|do not|stop|quit) (?:book|order|send|suggest|recommend|give|put|use|add|pick|choose|schedule|make)\w*\b",
        r"\bnot interested\b",
        r"\bnever again\b",
        r"\b(?:that|this|it) (?:doesn'?t|does not|won'?t|will not) work for me\b",
        r"\bno thanks?\b|\bno,? thank you\b",
        r"\b(?:skip|drop|cancel|remove) (?:it|that|this|those)\b",
        r"\bnot for me\b",
    ],
    "update": [
        r"\banymore\b|\bany more\b",
        r"\bno longer\b",
        r"\bfrom now on\b|\bgoing forward\b|\bfrom here on\b|\bstarting (?:today|now|next)\b",
        r"\b(?:switched|switching|moved|moving|changed|changing|converted|went over) (?:over )?(?:to|from)\b",
        r"\binstead\b",
        r"\bthese days\b|\blately\b|\bnowadays\b",
        r"\b"
        + _I
        + r" (?:now|currently) (?:\w+ ){0,2}(?:prefer|like|love|use|eat|drink|take|want|go|have|do|only|mostly)\b",
        r"\b(?:now|currently|but now) "
        + _I
        + r"(?:'m| am)? (?:\w+ ){0,2}(?:prefer|like|love|use|eat|drink|take|want|go|only|always|mostly|usually)\b",
        r"\bchanged my mind\b|\bon second thought\b|\bthought about it more\b",
        r"\b" + _I + r" (?:used to|stopped|quit|gave up|started|began)\b",
        r"\bnot any ?more\b",
    ],
    "temporary state": [
        r"\b(?:injur\w*|sprain\w*|broke my|broken (?:arm|leg|wrist|ankle|foot|hand|toe|finger)|fracture\w*|cast on|crutches|sling)\b",
        r"\b(?:surgery|operation|extraction|extracted|stitches|root canal|braces|wisdom tooth)\b",
        r"\b(?:tooth|teeth|molar|tonsils|appendix|stitches) (?:\w+ )?(?:pulled|out|removed|taken out|extracted)\b",
        r"\b(?:doctor|dentist|nurse|physio|gp|surgeon|midwife)(?:'s)? (?:said|says|told|tells|wants|advised|orders)\b",
        r"\b(?:pregnan\w*|expecting a baby|trimester|breastfeeding|postpartum)\b",
        r"\b(?:on a diet|dieting|cutting (?:out|back on|down on)|fasting|detox|low[- ]carb|keto|giving up \w+ for)\b",
        r"\b(?:sick|feeling ill|fell ill|been ill|flu|a cold|head cold|fever|covid|migraine|nause\w*|sore throat|stomach bug|food poisoning|allerg\w* (?:flare|season)|infection|antibiotics|medication)\b",
        r"\b(?:recover\w*|healing|on the mend|physio\w*|rehab\w*|bed rest)\b",
        r"\b(?:travelling|traveling|on a trip|abroad|away (?:for|until|till)|jet ?lag\w*|out of town|on the road|on vacation|on holiday)\b",
        r"\b(?:exam|exams|finals|midterms|deadline|crunch|busy (?:week|month|period)|night shifts?|on call)\b",
    ],
    "time-bound": [
        r"\b(?:for now|for the time being|temporarily|at the moment|right now|this (?:week|month|weekend)|for (?:a |the next |another )?(?:few |couple of |\w+ )?(?:days|weeks|months|while))\b",
        r"\b(?:until|till|through) (?:next|the end of|my|monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b",
    ],
    "preference": [
        r"\b"
        + _I
        + r" (?:really |just |also |do |still |definitely |much |kind of |kinda |absolutely |totally )?(?:like|love|prefer|enjoy|adore|want|favou?r|appreciate|dislike|hate|detest|loathe|despise)\b",
        r"\b"
        + _I
        + r" (?:really |just |also |still )?(?:do not|don'?t|can'?t|cannot|won'?t|never) (?:really |much )?(?:like|love|enjoy|want|eat|drink|do|handle|tolerate|stand)\b",
        r"\b" + _I + r"(?:'d| would) (?:rather|prefer|like|love)\b",
        r"\bmy (?:favou?rite|go-to|preference|preferred|usual|pick)\b",
        r"\b(?:favou?rite|preferred)\b",
        r"\b"
        + _I
        + r"(?:'m| am| are) (?:a (?:big |huge )?fan of|into|allergic to|intolerant|vegetarian|vegan|sensitive to|not a fan of)\b",
        r"\b(?:works best for me|suits me|better for me|is a must|deal ?breaker|non-negotiable)\b",
        r"\b(?:can'?t|cannot|could not|couldn'?t) (?:stand|bear|handle|tolerate)\b",
        r"\b(?:hate|hated|detest|loathe|despise|dislike)\b",
        r"\b(?:avoid|(?:keep|stay) (?:well )?away from|steer clear of)\b|\bterrif(?:y|ies) me\b",
        r"\b(?:please )?(?:always|never) (?:book|order|give|use|send|put|pick|choose|make|get|add)\b",
        r"\b(?:keep|make) (?:it|them|things|(?:\w+ ){1,4})(?:short|brief|concise|formal|casual|simple|friendly|polite|professional|detailed|light|plain)\b",
        r"\bfor me,? (?:should|must|need to|have to|has to)\b",
        r"\b(?:should|must) (?:always|never)\b|\bnever (?:long|short|more than|less than|too)\b",
        r"\b(?:no|without|skip the|less|fewer) (?:more )?(?:emojis?|exclamation marks?|jargon|small talk|bullet points|fluff|filler)\b",
        # generic first-person taste constructions: an adverb before the verb, a stated aversion
        # or lack of interest, how the speaker finds something, what works best for them, a pick
        r"\b" + _I + r" \w+ly (?:like|love|prefer|enjoy|dislike|hate|avoid|want|value)\b",
        r"\b"
        + _I
        + r"(?: have|'ve got|'ve) (?:a |an )?(?:\w+ )?(?:aversion|preference|dislike|soft spot|weakness|passion|distaste) (?:to|for)\b",
        r"\b"
        + _I
        + r"(?: have|'ve got|'ve) (?:no|little|zero) (?:real )?(?:interest|patience|desire|appetite) (?:in|for)\b",
        r"\b"
        + _I
        + r" find (?:\w+ ){0,6}?(?:boring|tedious|annoying|overwhelming|ineffective|frustrating|disorienting|stressful|distracting|uncomfortable|off-?putting|relaxing|enjoyable|helpful|easier|harder|difficult|hard|easy|slow)\b",
        r"\b" + _I + r" (?:learn|work|sleep|focus|do|feel) (?:my )?best\b",
        r"\b" + _I + r" (?:refuse|tend) to\b|\baverse to\b",
        r"\b"
        + _I
        + r"(?:'m| am) not (?:really |much |very )?(?:into|a fan|keen on|interested in|comfortable with)\b",
        r"\b(?:align|fit|fits|go|goes) with my (?:preferences?|tastes?|values|style|needs)\b",
        r"\b(?:i'?ll|i will|let'?s|we'?ll) go with\b|\b"
        + _I
        + r"(?:'ll| will) (?:take|pick|choose) (?:option|the|number)\b",
        r"\b(?:best|better|good|great|right) (?:fit|option|choice|pick) for (?:me|us)\b",
        r"\b(?:don'?t|doesn'?t|do not|does not|wouldn'?t) (?:really )?(?:appeal to|suit|work for) (?:me|us)\b",
        r"\b(?:sounds?|seems?|looks?) (?:more |most |really )?appealing\b|\bfor (?:my|our) (?:tastes?|liking)\b",
        r"\b"
        + _I
        + r" (?:only|exclusively) (?:\w+ )?(?:use|watch|eat|drink|buy|wear|read|play|listen|stay|fly|go|shop)\b",
        r"\b(?:objection to|opposed to|strictly against)\b",
    ],
    "habit": [
        r"\b(?:always|usually|normally|typically|generally|often|every (?:time|day|week|morning|evening|night|month)|each (?:time|day|week|morning))\b",
        r"\b(?:routine|habit|tradition|as usual|the usual|same as (?:always|usual|last time)|my regular)\b",
        r"\b(?:like|as) (?:last time|before|ever|i always do)\b",
        r"\([^()]{1,40}\bobviously\s*\)",  # "(bullet points, obviously)": the usual, taken as read
        r"\b" + _I + r" tend to\b",
    ],
}


@lru_cache(maxsize=1)
def _compiled() -> dict[str, re.Pattern[str]]:
    """One alternation per cue, compiled on first use (not at import)."""
    return {
        label: re.compile("|".join(f"(?:{p})" for p in patterns), re.IGNORECASE)
        for label, patterns in _CUE_PATTERNS.items()
    }


_NEGATED_BEFORE = re.compile(r"\b" + _NEGATORS + r"\b(?:\W+\w+){0,2}\W*$", re.IGNORECASE)
_FIRST_PERSON = re.compile(
    r"\b(?:i|i'm|im|i've|i'd|i'll|me|my|mine|myself|we|we're|we've|we'd|us|our|ours)\b", re.IGNORECASE
)
# Cues whose meaning flips when negated ("I'm not sick" is no current state).
_NEGATABLE = {"temporary state", "habit"}
STRONG_CUES = {"correction", "rejection", "update", "temporary state", "state ended"}
_STEADY = {"correction", "rejection"}  # an explicit correction does not fade with age
_FADING_STATE = {"temporary state", "state ended", "time-bound"}


@dataclass(frozen=True)
class Cues:
    """What a turn's text signals."""

    labels: tuple[str, ...]  # subset of CUE_WEIGHTS keys, in CUE_WEIGHTS order
    first_person: bool
    question: bool


def _negated(text: str, start: int) -> bool:
    return bool(_NEGATED_BEFORE.search(text[max(0, start - 30) : start]))


@lru_cache(maxsize=65536)
def detect_cues(text: str) -> Cues:
    """Find preference cues in ``text`` (cached: turns are immutable); a huge text is read from its start."""
    text = text[:8000]
    found: set[str] = set()
    for label, pattern in _compiled().items():
        if label not in _NEGATABLE:
            if pattern.search(text):
                found.add(label)
            continue
        for match in pattern.finditer(text):
            if not _negated(text, match.start()):
                found.add(label)
                break
            if label == "temporary state":
                found.add("state ended")
    if "temporary state" in found:
        found.discard("state ended")
    labels = tuple(label for label in CUE_WEIGHTS if label in found)
    question = text.rstrip().endswith("?")
    return Cues(labels, bool(_FIRST_PERSON.search(text)), question)


def recency(time: datetime, now: datetime, half_life_days: float = HALF_LIFE_DAYS) -> float:
    """Exponential decay in [0, 1]: 1 now, 0.5 after ``half_life_days``; future times count as now."""
    days = max(0.0, (now - time).total_seconds() / 86400.0)
    return 0.5 ** (days / half_life_days)


def age_label(time: datetime, now: datetime) -> str:
    """A short human age: "today", "yesterday", "12 days ago", "3 months ago", "2 years ago"."""
    days = int(max(0.0, (now - time).total_seconds()) // 86400)
    if days == 0:
        return "today"
    if days == 1:
        return "yesterday"
    if days < 60:
        return f"{days} days ago"
    if days < 730:
        return f"{days // 30} months ago"
    return f"{days // 365} years ago"


def _args_label(arguments: Any, limit: int = 4) -> str:
    if not isinstance(arguments, dict):
        return ""
    parts = [f"{k}={v}" for k, v in list(arguments.items())[:limit] if isinstance(v, (str, int, float, bool))]
    return ", ".join(parts)


def cue_age_factor(label: str, rec: float, state_rec: float) -> float:
    """How much of a cue's weight is left at this age (``rec``, ``state_rec``: recency values)."""
    if label in _STEADY:
        return 1.0
    if label in _FADING_STATE:
        return 0.25 + 0.75 * state_rec
    if label == "update":
        return 0.6 + 0.4 * rec
    return 0.3 + 0.7 * rec  # preference, habit: a stale taste weighs less than a fresh one


def in_force(labels: Sequence[str], time: datetime, now: datetime) -> float:
    """How far the strongest of these cues still holds at ``now``, in [0, 1].

    A short-term state holds while it lasts (it fades with ``STATE_HALF_LIFE_DAYS``); a
    correction or rejection holds until something replaces it; a taste or an update holds
    on with less weight as it ages.
    """
    rec = recency(time, now)
    state_rec = recency(time, now, STATE_HALF_LIFE_DAYS)
    return max(
        (state_rec if label in _FADING_STATE else cue_age_factor(label, rec, state_rec) for label in labels),
        default=0.0,
    )


def salience(
    turn: Turn, now: datetime, *, tool_name: str | None = None, repeats: int = 0
) -> tuple[float, list[str]]:
    """How strong a preference signal ``turn`` is, in [0, 1]; returns (salience, why labels)."""
    cues = detect_cues(turn.text)
    role = turn.role if turn.role in SPEAKER_CUE_FACTOR else "assistant"
    labels = list(cues.labels)
    strong = any(label in STRONG_CUES for label in labels)
    rec = recency(turn.time, now)
    state_rec = recency(turn.time, now, STATE_HALF_LIFE_DAYS)
    cue_factor = CUE_SHARE * SPEAKER_CUE_FACTOR[role]
    if role == "user" and cues.question and not strong:
        cue_factor *= QUESTION_FACTOR
    value = cue_factor * sum(CUE_WEIGHTS[label] * cue_age_factor(label, rec, state_rec) for label in labels)
    why = list(labels)
    if role == "user" and (cues.first_person or strong):
        value += FIRST_PERSON_WEIGHT
        why.append("user's own words")
    elif role == "assistant":
        why.append("assistant's words (discounted)")
    call = turn.tool_call if isinstance(turn.tool_call, dict) else None
    if call is not None and tool_name and call.get("name") == tool_name:
        value += SAME_TOOL_WEIGHT
        args = _args_label(call.get("arguments"))
        why.append(f"past call of {tool_name}" + (f": {args}" if args else ""))
    if repeats > 0:
        value += min(MAX_REPEAT_BONUS, REPEAT_WEIGHT * repeats)
        why.append(f"said {repeats + 1} times")
    value += RECENCY_WEIGHT * rec
    why.append(age_label(turn.time, now))
    return min(1.0, value), why


def score_turn(
    turn: Turn,
    relevance: float,
    now: datetime,
    *,
    tool_name: str | None = None,
    repeats: int = 0,
) -> tuple[float, list[str]]:
    """Salience-weighted relevance of ``turn`` (``relevance`` >= 0); returns (score, why labels).

    The score is ``relevance`` discounted for who said it (assistant and tool text is weaker
    evidence of a preference than the user's own words) and multiplied by 1 + SALIENCE_GAIN
    times ``salience``: at most 1 + SALIENCE_GAIN times the relevance, and 0 when irrelevant.
    """
    role = turn.role if turn.role in SPEAKER_RELEVANCE_FACTOR else "assistant"
    value, why = salience(turn, now, tool_name=tool_name, repeats=repeats)
    base = max(0.0, relevance) * SPEAKER_RELEVANCE_FACTOR[role]
    return base * (1.0 + SALIENCE_GAIN * value), why


# ------------------------------------------------------------ selection: duplicates, diversity, behaviour


def drop_near_duplicates(
    order: Sequence[int], sims: np.ndarray, threshold: float = DUPLICATE_COSINE
) -> dict[int, int]:
    """Walk ``order`` (most salient first) and drop items within ``threshold`` of one kept.

    ``sims`` is the items' cosine matrix. Returns kept index -> how many copies it absorbed,
    in ``order``'s order.
    """
    kept: dict[int, int] = {}
    rows: list[int] = []
    for i in order:
        if rows:
            near = sims[i, rows]
            j = int(near.argmax())
            if float(near[j]) > threshold:
                kept[rows[j]] += 1
                continue
        rows.append(i)
        kept[i] = 0
    return kept


def mmr(scores: Sequence[float], sims: np.ndarray, k: int, lam: float = MMR_LAMBDA) -> list[int]:
    """Maximal marginal relevance: ``k`` indices, each the best trade of salience against
    similarity to those already picked (salience scaled to [0, 1] by the top score)."""
    import numpy as np

    n = len(scores)
    if n <= k:
        return list(range(n))
    top = max(max(scores), 1e-9)
    rel = np.asarray(scores, dtype=np.float32) / top
    chosen: list[int] = []
    closest = np.zeros(n, dtype=np.float32)
    for _ in range(k):
        value = lam * rel - (1 - lam) * closest
        value[chosen] = -np.inf
        pick = int(value.argmax())
        chosen.append(pick)
        closest = np.maximum(closest, sims[pick])
    return chosen


def select(
    scores: Sequence[float], sims: np.ndarray, k: int, similar: float = RESTATES_COSINE
) -> list[tuple[int, float]]:
    """Up to ``k`` (index, discounted score), greedily by score, each score discounted by how
    far the item restates one already chosen: nothing below cosine ``similar``, all of it at
    cosine 1. The discounted scores come out in non-increasing order.

    Unlike ``mmr``, turns that are merely on the same topic (the several facts a question
    needs) are not pushed apart; only restatements (the tenth "please order food: ...") are.
    """
    import numpy as np

    n = len(scores)
    value = np.asarray(scores, dtype=np.float64)
    closest = np.zeros(n, dtype=np.float64)
    chosen: list[tuple[int, float]] = []
    taken = np.zeros(n, dtype=bool)
    span = max(1e-6, 1.0 - similar)
    for _ in range(min(k, n)):
        adjusted = value * (1.0 - np.clip((closest - similar) / span, 0.0, 1.0))
        adjusted[taken] = -np.inf
        pick = int(adjusted.argmax())
        chosen.append((pick, float(adjusted[pick])))
        taken[pick] = True
        closest = np.maximum(closest, sims[pick])
    return chosen


def past_calls_summary(arguments: Sequence[Any], limit: int = 4) -> str:
    """The most common value of each argument over past calls: "spice=hot 14/23, size=large 9/23"."""
    counts: dict[str, Counter[str]] = {}
    for args in arguments:
        if isinstance(args, dict):
            for name, value in args.items():
                if isinstance(value, (str, int, float, bool)):
                    counts.setdefault(str(name), Counter())[str(value)] += 1
    parts = []
    for name, counter in list(counts.items())[:limit]:
        value, count = counter.most_common(1)[0]
        parts.append(f"{name}={value} {count}/{len(arguments)}")
    return ", ".join(parts)
