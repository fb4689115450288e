"""Attribute mentions in a clause: lexicon phrases, comparatives, elided heads, a tool's words.

``find_mentions`` finds each phrase that names an attribute value (a phrase whose attribute
needs context counts only with it), reads comparatives and superlatives as their base word
("hotter" -> hot, "milder" -> mild), a bare word that names a value with the head of a phrase
just said ("oat milk, not almond"), degree words on a loose word ("a gentle kick" -> mild),
and the tool's own enum words. Idioms that contain attribute words ("drives me nuts", "this
morning", "how hot") are skipped.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ibachat.agent.reading.lexicon import BY_DIMENSION, context_re, lookup, normalise_phrase, phrase_table

Vocab = dict[str, list[tuple[str, str]]]  # normalised phrase -> [(dimension, value)]


@dataclass
class Mention:
    dimension: str
    value: str
    start: int
    end: int
    phrase: str
    generic: bool = False
    polarity: int | None = None
    strength: int = 0
    tags: set[str] = field(default_factory=set)
    subject: str = "self"  # self | other | you
    cue: str = ""


_IDIOMS = re.compile(
    r"\b(?:drives? me (?:nuts|crazy|mad|insane|bananas)|go(?:es|ing|ne)? nuts|nuts about|nuts and bolts|in a nutshell|"
    r"hot (?:take|topic|mess|spot|seat)|hotspot|in the long run|long story short|the long and short|fall(?:s|ing)? short|"
    r"short (?:of|on) (?:time|money|cash|staff)|for short(?=\s*(?:[.,!?;)]|$))|sweet (?:of you|dreams|spot)|(?:so|how|that's) sweet(?: of)?|"
    r"sweetie|sweetheart|cool with|light years|first of all|at first|first things first|in the first place|"
    r"how (?:very |really |so )?[a-z]+|(?:this|yesterday|tomorrow|last|that|the other|on \w+day|saturday|sunday) "
    r"(?:morning|afternoon|evening|night)|(?:until|till|til|since|by) (?:early |late |mid )?"
    r"(?:morning|afternoon|evening|night|noon|midday|lunch(?:time)?))\b"
)
_COMPARATIVE = re.compile(r"\b[a-z]{3,}(?:er|est)\b")
_ALTERNATIVE = re.compile(
    r"\b(?:not|or|nor|instead of|rather than|over|than|no|never|but)\s+(?:the\s+|an?\s+|any\s+)?([a-z]{3,})\b"
)


def _pick(candidates: list[tuple[str, str]], context: str, phrase: str) -> tuple[str, str] | None:
    for dimension, value in candidates:
        attr = BY_DIMENSION.get(dimension)
        if attr is None or attr.context is None or context_re(attr.context).search(context):
            return dimension, value
        key = normalise_phrase(phrase)
        if attr.context_for and key.rstrip("s") not in attr.context_for and key not in attr.context_for:
            return dimension, value  # a strong word: no context needed
    return None


def _stems(word: str) -> list[str]:
    """Base forms of a comparative or superlative ("hotter" -> "hot", "spicier" -> "spicy")."""
    out: list[str] = []
    for suffix in ("est", "er"):
        if not word.endswith(suffix):
            continue
        base = word[: -len(suffix)]
        out += [base, base + "e"]
        if len(base) > 2 and base[-1] == base[-2]:
            out.append(base[:-1])
        if base.endswith("i"):
            out.append(base[:-1] + "y")
    return out


def _mention(cands: list[tuple[str, str]], ctx: str, phrase: str, start: int, end: int) -> Mention | None:
    picked = _pick(cands, ctx, phrase)
    if picked is None:
        return None
    attr = BY_DIMENSION[picked[0]]
    generic = " ".join(re.split(r"[\s-]+", phrase)) in attr.generic or phrase.rstrip("s") in attr.generic
    return Mention(picked[0], picked[1], start, end, phrase, generic)


def _masked(clause: str) -> str:
    """Idioms that contain attribute words ("drives me nuts") blanked out, offsets kept."""
    return _IDIOMS.sub(lambda m: " " * len(m.group(0)), clause)


def find_mentions(
    clause: str, *, vocab: tuple[re.Pattern[str], Vocab] | None = None, context: str = "", sentence: str = ""
) -> list[Mention]:
    """Attribute phrases in ``clause`` (lexicon, comparatives, elided heads, then the tool's words)."""
    pattern, _ = phrase_table()
    ctx = f"{clause} {context}"
    own = f"{clause} {sentence}"
    text = _masked(clause)
    out: list[Mention] = []
    taken: list[tuple[int, int, str]] = []
    for m in pattern.finditer(text):
        cands = lookup(m.group(0))
        taken.append((m.start(), m.end(), cands[0][1] if cands else ""))
        if cands:
            found = _mention(cands, ctx, m.group(0), m.start(), m.end())
            out += [found] if found is not None else []
    free = [(m.start(), m.end(), m.group(0)) for m in _COMPARATIVE.finditer(text)]
    for start, end, word in free:
        if any(a < end and start < b for a, b, _ in taken):
            continue
        for stem in _stems(word):
            cands = lookup(stem)
            if cands:
                found = _mention(cands, own, stem, start, end)
                if found is not None:
                    found.phrase = word
                    out.append(found)
                    taken.append((start, end, found.value))
                break
    out += _elided(text, out, taken, ctx)
    out = _graded(text, out)
    if vocab is not None:
        out += _vocab_mentions(text, vocab, taken)
    out.sort(key=lambda x: (x.start, x.end))
    return out


_LOW_DEGREE = re.compile(
    r"(?:gentle|slight|subtle|light|little|tiny|small|mild|soft|a bit of|a hint of|a touch of|touch of|hint of|bit of)\s+$"
)
_MID_DEGREE = re.compile(r"(?:medium|moderate|mid|middling|regular|normal|average)\s+$")


def _graded(text: str, found: list[Mention]) -> list[Mention]:
    """ "a gentle kick", "a medium heat": a degree word moves a loose word along its scale,
    and a loose word of another attribute inside that phrase ("gentle") is dropped."""
    out = list(found)
    for m in found:
        attr = BY_DIMENSION.get(m.dimension)
        if attr is None or not attr.scale or not m.generic:
            continue
        before = text[max(0, m.start - 14) : m.start]
        low, mid = _LOW_DEGREE.search(before), _MID_DEGREE.search(before)
        hit = low or mid
        if hit is None:
            continue
        if low:
            m.value = attr.scale[1]
        else:
            m.value = next((v for v in ("medium", "moderate", "regular") if v in attr.scale), m.value)
        start = m.start - (len(before) - hit.start())
        m.start, m.generic = start, False
        out = [o for o in out if o is m or not (start <= o.start < m.end)]
    return out


def _elided(text: str, found: list[Mention], taken: list[tuple[int, int, str]], ctx: str) -> list[Mention]:
    """ "oat milk, not almond": a bare word that names a value with the head of a phrase just said."""
    heads = {m.phrase.split()[-1]: m.dimension for m in found if len(m.phrase.split()) > 1}
    out: list[Mention] = []
    if not heads:
        return out
    for m in _ALTERNATIVE.finditer(text):
        start, end = m.span(1)
        if any(a < end and start < b for a, b, _ in taken):
            continue
        for head, dim in heads.items():
            cands = [c for c in lookup(f"{m.group(1)} {head}") or [] if c[0] == dim]
            made = _mention(cands, ctx, f"{m.group(1)} {head}", start, end) if cands else None
            if made is not None:
                out.append(made)
                taken.append((start, end, made.value))
                break
    return out


def _vocab_mentions(
    text: str, vocab: tuple[re.Pattern[str], Vocab], taken: list[tuple[int, int, str]]
) -> list[Mention]:
    vpat, table = vocab
    out: list[Mention] = []
    spans = [(m.start(), m.end(), m.group(0)) for m in vpat.finditer(text)]
    for start, end, word in ((m.start(), m.end(), m.group(0)) for m in _COMPARATIVE.finditer(text)):
        if not any(a < end and start < b for a, b, _ in spans):
            stem = next((s for s in _stems(word) if s in table), None)
            spans += [(start, end, stem)] if stem else []
    for start, end, phrase in spans:
        key = " ".join(re.split(r"[\s_-]+", phrase))
        hits = table.get(key) or table.get(key[:-1]) or table.get(key[:-2]) or []
        for dimension, value in hits:
            if any(a <= start and end <= b and (a, b) != (start, end) and v != value for a, b, v in taken):
                continue  # inside a longer lexicon phrase meaning something else ("premium economy")
            out.append(Mention(dimension, value, start, end, phrase))
    return out
