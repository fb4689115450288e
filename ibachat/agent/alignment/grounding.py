"""Grounding open preferences into any tool's values by meaning, from the JSON Schema alone.

Candidate values (enum labels, or option texts) are scored against the preferences in force:
what is wanted raises a value, what is avoided lowers it. Three signals, all polarity-aware:

- **meaning**: cosine similarity of the value and the preference phrase, centred over the
  candidates (what every candidate shares, the topic, cancels out; what tells them apart stays);
- **words**: the preference's content words found in the value (light stemming);
- **the value's own negations**: "silicone-free", "free of X", "without X", "no X", "non-X",
  "minimal X", "low-X" in a value (X: the noun phrase that follows, up to a clause word)
  say it has *none* of X, so an avoided X found there raises the value instead of lowering it, and
  the negated words are taken out of the value before its meaning is compared with an avoided X.

(An avoided X does not bring "without X" as a wish: a sentence embedder reads "without X" as
being about X, so that raised the very values the user avoids.) A preference's weight is its strength,
times how much it bears on the request (similarity of its sentence to the task and the values),
times how much it tells the candidates apart. Nothing here names a topic.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ibachat.agent.reading.outcomes import valence as rated

Embed = Callable[[list[str]], np.ndarray]

_STOP = frozenset(
    "with that this from your have about into their they them some more most very what which when where will "
    "would could should there these those other than then also just only such each much many like make made "
    "want prefer really any all and for the are not but you can get use using used good great best type kind "
    "sort things stuff something anything everything way ways lot lots".split()
)
_W = r"[a-z][a-z'-]{1,30}"
_NP_STOP = r"(?!(?:and|but|with|for|in|on|to|that|which|while|so|as|at|from|by|of|the)\b)"
_NEGATED = re.compile(
    r"\b(?P<a>[a-z][a-z-]{2,30})[- ]free\b(?!\s+(?:of|from)\b)"  # "detergent free of perfume": free of perfume
    r"|\b(?:non|low|zero|no|minimal)-(?P<c>[a-z][a-z']{2,30})"  # "low-impact": the one joined word
    r"|\b(?:free of|free from|without|no|non|zero|never|avoids?|avoiding|skips?|minus|excluding|not|"
    r"minimal|minimum|little|low|less|fewer|lacking|hardly any|barely any) "
    rf"(?P<b>{_NP_STOP}{_W}(?: {_NP_STOP}{_W}){{0,2}}(?:(?:,| and| or),? {_NP_STOP}{_W}(?: {_NP_STOP}{_W})?){{0,3}})"
)  # the noun phrase a value says it is free of: "without excessive violence", "minimal jump scares"


def stem(word: str) -> str:
    w = word.lower()
    for suffix in ("ically", "ations", "ation", "ings", "ing", "ied", "ies", "ed", "es", "ly", "s"):
        if len(w) > len(suffix) + 3 and w.endswith(suffix):
            return w[: -len(suffix)]
    return w


def content(text: str) -> set[str]:
    return {stem(w) for w in re.findall(r"[a-z]{3,}", text.lower()) if w not in _STOP}


def shares_words(wanted: set[str], have: set[str]) -> int:
    """Words in common, a shortened spelling included ("veg", "veggie" for "vegetarian")."""
    n = 0
    for w in wanted:
        if w in have or any(_same_root(w, h) for h in have):
            n += 1
    return n


def _same_root(a: str, b: str) -> bool:
    short, long_ = (a, b) if len(a) <= len(b) else (b, a)
    k = 0
    while k < len(short) and short[k] == long_[k]:
        k += 1
    return k >= 3 and k >= 0.5 * len(short)


def negated_words(value: str) -> tuple[set[str], str]:
    """Words a value says it is free of, and the value with those spans taken out."""
    low = value.lower()
    words: set[str] = set()
    for m in _NEGATED.finditer(low):
        words |= content(m.group("a") or m.group("b") or m.group("c") or "")
    stripped = _NEGATED.sub(" ", low)
    return words, re.sub(r"\s+", " ", stripped).strip() or low


# Anchors for the valence of a judging word nobody listed ("tedious", "disorienting"): its meaning is
# compared with the two poles of evaluation.
_GOOD = "good pleasant enjoyable helpful effective comfortable fun engaging useful"
_BAD = "bad unpleasant boring unhelpful ineffective uncomfortable annoying stressful useless"


# A sentence embedder puts a word's evaluation second to its topic ("perfect" and "easier" came out
# nearer the bad pole in MiniLM); a word the sentiment lexicon (VADER, about 7,500 rated words) rates
# at least this far from neutral takes the lexicon's sign, the others the embedding's.
LEXICON_VALENCE_MIN = 0.3


def valence(words: Sequence[str], embed: Embed) -> list[int]:
    """+1 or -1 for each judging word: the sentiment lexicon's sign where it rates the word clearly,
    otherwise by which pole of evaluation its meaning is nearer."""
    if not words:
        return []
    mat = embed([_GOOD, _BAD, *words])
    good, bad = mat[0], mat[1]
    out = []
    for w, v in zip(words, mat[2:]):
        r = rated(w)
        by_meaning = 1 if float(v @ good) > float(v @ bad) else -1
        out.append((1 if r > 0 else -1) if abs(r) >= LEXICON_VALENCE_MIN else by_meaning)
    return out


@dataclass
class Wish:
    """A preference in force, as grounding sees it."""

    phrase: str
    polarity: int  # +1 wanted, -1 avoided
    weight: float = 1.0  # strength x recency x status
    sentence: str = ""  # where it was said: for relevance to the task
    key: str = ""  # event id, for reasons
    judged: str = ""  # a judging word whose meaning gives the polarity ("tedious"); polarity 0 until settled
    negated: bool = False
    when: Any = None  # when it was said
    kind: str = "stated"
    evidence: tuple[int, ...] = ()  # the remembered turns it was said in


@dataclass
class Ranking:
    scores: np.ndarray  # one per value, higher = better aligned
    margin: float  # best minus second best (0 when fewer than two values)
    top: list[tuple[str, float]]  # the wishes that moved the best value most: (phrase, contribution)


def defined(label: str) -> str:
    """A value with what it means when the glossary knows ("pescatarian (eats fish and seafood, but no
    meat)"), so that the meaning of what the user said meets it (``data/glossary.json``)."""
    from ibachat.agent.data import load

    meaning = load("glossary")["terms"].get(label.lower().strip())
    if meaning is None:
        from ibachat.agent.reading.when import part_of_clock

        part = part_of_clock(label)  # "12:15 (lunchtime)": a clock meets "my lunch hour"
        meaning = part.replace("_", " ") if part else None
    return f"{label} ({meaning})" if meaning else label


def rank(
    values: Sequence[str],
    wishes: Sequence[Wish],
    embed: Embed,
    *,
    task: str = "",
    lexical_weight: float = 0.6,
) -> Ranking:
    """Score ``values`` against ``wishes``; ``embed`` returns unit vectors, one row per text."""
    n = len(values)
    if n == 0 or not wishes:
        return Ranking(np.zeros(n), 0.0, [])
    vals = [defined(str(v).replace("_", " ")) for v in values]
    negs = [negated_words(v) for v in vals]
    phrases = [w.phrase for w in wishes]
    sentences = [w.sentence or w.phrase for w in wishes]
    texts = vals + [s for _, s in negs] + phrases + sentences + ([task] if task else [])
    uniq = list(dict.fromkeys(texts))
    mat = embed(uniq)
    at = {t: i for i, t in enumerate(uniq)}

    def vec(t: str) -> np.ndarray:
        return mat[at[t]]

    V = np.stack([vec(v) for v in vals])
    Vs = np.stack([vec(s) for _, s in negs])
    P = np.stack([vec(p) for p in phrases])
    sim_pos = V @ P.T  # n x m
    sim_neg = Vs @ P.T  # negated spans out: compared with what is avoided
    pol = np.array([1.0 if w.polarity > 0 else -1.0 for w in wishes])
    S = np.where(pol[None, :] > 0, sim_pos, sim_neg)
    Sc = S - S.mean(axis=0, keepdims=True)
    # words: the wish's content words in the value; negated in the value turns an avoidance round
    lex = np.zeros((n, len(wishes)))
    # the request's own words and words every candidate shares are the topic, not what tells them apart
    # (words most but not all candidates share are what the odd one out is free of: they stay)
    topic = content(task)
    seen: dict[str, int] = {}
    for v in vals:
        for word in content(v):
            seen[word] = seen.get(word, 0) + 1
    topic |= {word for word, c in seen.items() if n >= 3 and c == n}
    for j, w in enumerate(wishes):
        cw = content(w.phrase) - topic
        if not cw:
            continue
        for i, v in enumerate(vals):
            have = content(v)
            hit = shares_words(cw, have) / len(cw)
            neg_hit = shares_words(cw, negs[i][0]) / len(cw)
            lex[i, j] = hit - 2 * neg_hit  # a negated mention counts against what it names
    lex = lex - lex.mean(axis=0, keepdims=True)
    # weights: strength, bearing on the request, and how much the wish tells the values apart
    weight = np.array([max(0.0, w.weight) for w in wishes])
    if task:
        T = vec(task)
        bear = np.array([float(vec(s) @ T) for s in sentences])
        bear = np.clip(bear, 0.0, 1.0)
        bear = bear / (bear.max() + 1e-9)
        weight = weight * (0.25 + 0.75 * bear)
    spread = S.max(axis=0) - S.min(axis=0)
    weight = weight * (0.5 + spread / (spread.max() + 1e-9))
    contrib = (Sc + lexical_weight * lex) * (pol * weight)[None, :]
    scores = contrib.sum(axis=1)
    order = np.argsort(-scores)
    margin = float(scores[order[0]] - scores[order[1]]) if n > 1 else 0.0
    best = order[0]
    movers = sorted(range(len(wishes)), key=lambda j: -contrib[best, j])[:3]
    top = [(wishes[j].phrase, float(contrib[best, j])) for j in movers if contrib[best, j] > 0]
    return Ranking(scores, margin, top)


# ---------------------------------------------------------------------------- the plan's side
OPEN = "open"
APPLIED_KINDS = ("stated", "asked", "corrected", "updated", "chose", "rejected", "state")
# How much a wish counts by how it was said: a correction or an update outweighs what it replaces, a
# state (while it lasts) and an explicit request outweigh a standing taste, a one-off choice counts least
KIND_WEIGHT = {"corrected": 1.5, "updated": 1.4, "asked": 1.3, "rejected": 1.2, "state": 1.4, "chose": 0.8}
MIN_MARGIN = 0.02  # an enum value is chosen only when it is ahead of the next by this much
# A value this far ahead is settled ("certain"); nearer, it is a lean the request or a question may
# overturn (and half of it is what a later wish needs to move a habit: ``open_plan``)
CERTAIN_MARGIN = 0.25
# A wish at least this near a boolean parameter's text (MiniLM cosine, the wish's phrase or its
# sentence) sets it; below it the flag stays unset or at its default (set in 1683acd, where grounding
# by meaning came in; the closing notes of that work give its probes)
BOOL_MIN_SIM = 0.38
# The request's own wishes weigh half when choosing among values that all answer the request, so the
# history can still tell them apart (f147319)
TASK_WISH_WEIGHT = 0.5
# An avoided thing sets a flag false only when this much nearer than the bar, and ahead of every wanted
# one by half of it: opposites are near in meaning ("quiet room" and "crowded hostels", 3ce2d3a)
AVOID_EXTRA = 0.08
DEFAULT_MARGIN = 0.15  # leaving a parameter's default takes a clearer case


def open_wishes(events: Sequence[Any], now: Any) -> list[Wish]:
    """Open-text preferences in force at ``now``: the user's own, later ones over earlier ones."""
    live = [
        e
        for e in events
        if e.dimension == OPEN
        and e.speaker == "user"
        and e.kind in APPLIED_KINDS
        and (e.polarity != 0 or "valence: " in e.reason)
        and e.valid_from <= now
        and (e.valid_until is None or now < e.valid_until)
        and e.scope == "general"
    ]
    live.sort(key=lambda e: e.valid_from)
    latest: dict[str, Any] = {}
    for e in live:  # the same thing said again (or turned round) later: the later word counts
        latest[e.value.lower()] = e
    out = []
    for e in latest.values():
        w = (e.confidence or 0.5) * 3 * KIND_WEIGHT.get(e.kind, 1.0)
        judged = e.reason.split("valence: ", 1)[1].split(";")[0].strip() if "valence: " in e.reason else ""
        pol = 0 if judged and e.polarity == 0 else (1 if e.polarity > 0 else -1)
        out.append(
            Wish(
                e.value,
                pol,
                w,
                e.subject or e.value,
                e.id,
                judged,
                "negated" in e.reason,
                e.valid_from,
                e.kind,
                tuple(t for t in e.evidence if t),
            )
        )
    return out


def settle(wishes: Sequence[Wish], embed: Embed) -> list[Wish]:
    """Wishes whose polarity a judging word gives get it from that word's meaning; a wanted
    "fragrance-free cream" or "non-dairy milk" also avoids what it is free of."""
    pending = [w for w in wishes if w.polarity == 0 and w.judged]
    for w, v in zip(pending, valence([w.judged for w in pending], embed)):
        w.polarity = -v if w.negated else v
    out = [w for w in wishes if w.polarity != 0]
    for w in list(out):
        if w.polarity > 0:
            free_of, _ = negated_words(w.phrase)
            spans = [m.group(0) for m in _NEGATED.finditer(w.phrase.lower())]
            if free_of and spans:
                span = spans[0]
                thing = (
                    re.sub(r"[- ]free$", "", span)
                    if re.search(r"[- ]free$", span)
                    else re.sub(r"^(?:free of|free from|hardly any|barely any|[a-z]+)[- ]", "", span)
                )
                out.append(
                    Wish(
                        thing,
                        -1,
                        w.weight * 0.8,
                        w.sentence,
                        w.key,
                        when=w.when,
                        kind=w.kind,
                        evidence=w.evidence,
                    )
                )
    return out


def content_wishes(
    content: dict[str, dict[str, Any]], labels: dict[str, str], avoiding: frozenset[str] = frozenset()
) -> list[Wish]:
    """The lexicon's resolved attributes (states included) as wishes, so unknown tools see them too.

    ``avoiding``: attributes whose values name what is kept out (allergens): choosing one avoids it."""
    out = []
    for dim, d in content.items():
        label = labels.get(dim, dim.split(".")[-1]).replace("_", " ")
        turns = tuple(d.get("evidence") or ())
        if d.get("chosen") and dim in avoiding:
            v = str(d["chosen"]).replace("_", " ")
            out.append(Wish(v, -1, 2.0, f"{label}: {v}", f"lexicon:{dim}", evidence=turns))
        elif d.get("chosen"):
            v = str(d["chosen"]).replace("_", " ")
            out.append(Wish(f"{v} {label}", 1, 2.0, f"{label}: {v}", f"lexicon:{dim}", evidence=turns))
        for v in d.get("avoid") or []:
            v = str(v).replace("_", " ")
            out.append(Wish(f"{v} {label}", -1, 2.0, f"{label}: not {v}", f"lexicon:{dim}", evidence=turns))
    return out


def unit(vectors: np.ndarray) -> np.ndarray:
    vectors = np.asarray(vectors, dtype=np.float32)
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    return vectors / np.maximum(norms, 1e-9)


def param_text(name: str, schema: dict[str, Any]) -> str:
    words = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", name).replace("_", " ").replace("-", " ").lower()
    desc = str(schema.get("description") or "")
    return f"{words}: {desc}" if desc else words


BEAR_MIN_SIM = 0.22


def bearing(
    about: str, labels: Sequence[str], wishes: Sequence[Wish], embed: Embed, min_sim: float = BEAR_MIN_SIM
) -> list[Wish]:
    """The wishes that bear on a parameter: close in meaning to its name, description or values
    (``about`` empty: to its values only)."""
    texts = ([about] if about else []) + [defined(str(v).replace("_", " ")) for v in labels[:40]]
    if not texts or not wishes:
        return []
    mat = embed(texts + [w.phrase for w in wishes])
    targets, phrases = mat[: len(texts)], mat[len(texts) :]
    sims = (phrases @ targets.T).max(axis=1)
    return [w for w, s in zip(wishes, sims) if float(s) >= min_sim]


def choose_enum(
    labels: Sequence[str],
    wishes: Sequence[Wish],
    embed: Embed,
    *,
    task: str,
    about: str,
    exclude: set[int] | frozenset[int] = frozenset(),
) -> tuple[int, Ranking] | None:
    """The index of the label the wishes favour, or None when they do not tell the labels apart.

    ``exclude``: labels that break a bound the user set; they lose to every other label."""
    if len(labels) < 2 or not (wishes or exclude):
        return None
    if wishes:
        ranking = rank(labels, wishes, embed, task=f"{task} {about}".strip())
    else:
        ranking = Ranking(np.zeros(len(labels)), 0.0, [])
    if exclude:
        scores = ranking.scores.copy()
        for i in exclude:
            scores[i] -= 100.0
        order = np.argsort(-scores)
        margin = float(scores[order[0]] - scores[order[1]])
        top = ranking.top or [("a limit you set", 1.0)]
        ranking = Ranking(scores, margin, top)
    best = int(np.argmax(ranking.scores))
    if ranking.margin < MIN_MARGIN or not ranking.top:
        return None
    return best, ranking


def choose_bool(text: str, wishes: Sequence[Wish], embed: Embed) -> tuple[bool, Wish, float] | None:
    """True or False for a boolean parameter whose meaning a wish (its phrase or its sentence) is close to.

    A wanted thing close to the parameter makes it true. An avoided one makes it false only when it is
    clearly the parameter's own thing and no wanted one is as close: "smoking permitted" and "cigarette
    smoke", not "quiet room" and "crowded hostels" (near in meaning because they are opposites)."""
    if not wishes:
        return None
    mat = embed([text] + [w.phrase for w in wishes] + [w.sentence or w.phrase for w in wishes])
    n = len(wishes)
    sims = np.maximum(mat[1 : 1 + n] @ mat[0], mat[1 + n :] @ mat[0])
    pos = [j for j in range(n) if wishes[j].polarity > 0]
    neg = [j for j in range(n) if wishes[j].polarity < 0]
    best_pos = max(pos, key=lambda j: sims[j], default=None)
    best_neg = max(neg, key=lambda j: sims[j], default=None)
    p = float(sims[best_pos]) if best_pos is not None else -1.0
    q = float(sims[best_neg]) if best_neg is not None else -1.0
    if best_neg is not None and q >= BOOL_MIN_SIM + AVOID_EXTRA and q > p + AVOID_EXTRA / 2:
        return False, wishes[best_neg], q
    if best_pos is not None and p >= BOOL_MIN_SIM:
        return True, wishes[best_pos], p
    return None


def evidence_of(ranking: Ranking, wishes: Sequence[Wish]) -> list[int]:
    """The remembered turns of the wishes a ranking's reason names."""
    named = {p for p, _ in ranking.top[:2]}
    return sorted({t for w in wishes if w.phrase in named for t in w.evidence})


def reason_of(ranking: Ranking, wishes: Sequence[Wish]) -> str:
    sign = {w.phrase: w.polarity for w in wishes}
    picked = {w.phrase for w in wishes if w.kind == "chose" and w.polarity > 0}
    top = sorted(ranking.top[:2], key=lambda pw: pw[0] not in picked)  # a pick among offered options first
    if top and top[0][0] in picked:
        return f"you picked {top[0][0][:60]!r} from the options offered"
    bits = [("wants " if sign.get(p, 1) > 0 else "avoids ") + repr(p[:60]) for p, _ in top]
    return "by meaning: " + "; ".join(bits)
