"""Who wants what, and how much: attribute mentions in a clause and the polarity of each.

A clause is scanned for attribute phrases (the lexicon, plus a tool's own vocabulary).
Each mention takes its polarity from the nearest cue before it ("love", "can't stand",
"no more", "don't mind") or just after it ("... is a no for me", "... is fine"), with
negation scope ("I don't mind spicy" is not a dislike; "not a fan of" is), contrast
("X is fine but I prefer Y"), inheritance across "and"/"or", "X-free", and requests
("book me a window seat"). The subject of the cue decides whose preference it is.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache

from ibachat.agent.lexicon import BY_DIMENSION, avoided_values, context_re, lookup, phrase_table

Vocab = dict[str, list[tuple[str, str]]]  # normalised phrase -> [(dimension, value)]


@dataclass
class Cue:
    start: int
    end: int
    polarity: int
    strength: int
    tags: frozenset[str]
    text: str


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


_I = r"(?:i|i'm|i've|i'd|i'll|we|we're|we'd|we've)"
_ADV = r"(?:really |just |also |still |definitely |totally |kinda |kind of |absolutely |much |do |generally |usually |actually |truly |honestly )*"
_EAT = r"(?:do|have|eat|drink|handle|tolerate|take|deal with|digest|chew|stomach|process|manage|sit through|cope with)"
_ORDER = r"(?:get|gets|order|orders|pick|picks|choose|chooses|book|books|take|takes|go for|goes for|ask for|asks for|have|has|want|grab|reserve|request|opt for|go with)"

# (pattern, polarity, strength, tags). Longer phrases win over the shorter ones they contain.
_BEFORE: list[tuple[str, int, int, str]] = [
    (
        r"can't get enough of|can't live without|never say no to|never turn down|can never resist|can't resist|"
        r"nothing beats|nothing like|nothing better than|nothing tops|can't beat|you can't beat|no one does|nobody does",
        1,
        3,
        "",
    ),
    (r"can't stand|can't bear|can't abide|can't " + _EAT, -1, 3, ""),
    (
        r"not (?:a|the) (?:big |huge )?fan of|not big on|not into|not keen on|not crazy about|not fond of",
        -1,
        3,
        "",
    ),
    (
        r"(?:big |huge |massive )?fan of|obsessed with|hooked on|partial to|fond of|keen on|crazy about|into|all about|"
        r"mad about|big on|raving about|rave about|swears by",
        1,
        2,
        "",
    ),
    (
        r"lov(?:e|es|ed|ing)|adore[sd]?|prefer(?:s|red|ring)?|favou?rite|crav(?:e|es|ed|ing)|swear by|my go[- ]to",
        1,
        3,
        "",
    ),
    (r"(?:always|usually|normally|typically|generally|often|mostly|every time i) " + _ORDER, 1, 3, "habit"),
    (r"(?:always|usually|normally|typically|generally|mostly)", 1, 2, "habit"),
    (
        r"enjoy(?:s|ed|ing)?|appreciate[sd]?|go for|opt for|stick (?:with|to)|go with|happy with|rather (?:have|get|go with|do)",
        1,
        2,
        "",
    ),
    (
        r"(?:i|we|i'd|we'd|do|don't|doesn't|didn't|never|would|really|also|still|just|kinda|generally|actually|totally|definitely|truly|quite) (?:really |also |still |just |totally |definitely |quite |generally |actually )?lik(?:e|ed|es)|likes|liked",
        1,
        2,
        "",
    ),
    (
        r"switch(?:ed|ing)? (?:over )?to|chang(?:ed|ing) (?:over )?to|mov(?:ed|ing) (?:over )?to|convert(?:ed)? to|gone|went|bec(?:o|a)me|turned|i'm now|now(?: an?)?|these days|nowadays",
        1,
        2,
        "update",
    ),
    (r"i'd like|i would like|i want|i wanted|i need|we want|we need|want|need|would love", 1, 2, "request"),
    (
        r"keep(?: it| them| things| everything| (?:your|my|the) \w+)?|stick to|use|write(?: it| them)?|"
        r"(?:i|we) (?:take|drink|have|get|order) (?:my|mine|it|them)(?: \w+)?",
        1,
        2,
        "request",
    ),
    (
        r"make (?:it|mine|that|them|this|everything)|give me|get me|grab me|i'll (?:have|take|get|do|go with)|can i (?:get|have)|could i (?:get|have)|add|with|extra|more|only",
        1,
        1,
        "request",
    ),
    (r"i'm(?: an?)?|i am(?: an?)?|we're(?: an?)?", 1, 1, "weak"),
    (r"i meant|i mean|i asked for|i said|i'd asked for|i told you", 1, 2, ""),
    (
        r"hat(?:e|es|ed|ing)|dislik(?:e|es|ed)|detest(?:s|ed)?|loath(?:e|es|ed)|despis(?:e|es|ed)|abhor",
        -1,
        3,
        "",
    ),
    (
        r"avoid(?:s|ed|ing)?|allergic to|intolerant (?:to|of)|sensitive to|stay(?:ing)? away from|steer(?:ing)? clear of|keep away from",
        -1,
        3,
        "",
    ),
    (
        r"cut(?:ting)? out|cut(?:ting)? back on|cut(?:ting)? down on|giv(?:e|en|ing) up|gave up|quit(?:ting)?|stopp?(?:ed|ing)? (?:eating|drinking|having|ordering|using|doing|taking|booking)|stop",
        -1,
        3,
        "update",
    ),
    (
        r"sick of|tired of|done with|fed up with|bored of|bored with|off of|i'm off|so over|i'm over",
        -1,
        2,
        "update",
    ),
    (
        r"skip(?:ping)?(?: the)?|hold the|drop the|lose the|ditch the|remove the|spare me|pass on|hold off on|minus|without|sans",
        -1,
        3,
        "",
    ),
    (
        r"no more|not anymore|never again|anything but|nothing|none of|zero|no|not|never|non|isn't|aren't|wasn't|weren't",
        -1,
        2,
        "",
    ),
    (r"instead of|rather than|in place of|over", -1, 1, "alt"),
    (r"too|less|fewer|a little less", -1, 2, "exact"),
    (
        r"don't mind|do not mind|doesn't matter|fine with|ok with|okay with|alright with|can live with|tolerate|no preference|either way|either",
        0,
        2,
        "",
    ),
    (
        r"used to (?:love|like|enjoy|prefer|want|get|order|have|eat|drink)|used to be into",
        0,
        3,
        "update used_to",
    ),
]
_AFTER: list[tuple[str, int, int, str]] = [
    (
        r"(?:is|are|was|were) (?:my |the )?(?:favou?rite|go[- ]to|thing|jam|best|great|perfect|ideal|amazing|a must|essential|non[- ]negotiable|better|the way to go)",
        1,
        3,
        "",
    ),
    (
        r"all the way|every time|every single time|hits the spot|rules|rocks|works best|suits me|please|for me please|i love|love it|better",
        1,
        2,
        "",
    ),
    (
        r"for me|for us|(?:is|are) what i (?:want|need|like)|all year(?: round)?|year round|every day|daily|all the time",
        1,
        1,
        "",
    ),
    (r"(?:is|are) (?:good|great|nice|fine by me|the way to go|my style)", 1, 2, ""),
    (r"from now on|going forward|from here on(?: out)?|these days|nowadays|for good", 1, 2, "update"),
    (r"as usual|like always|as always|like last time|same as always|same as usual", 1, 1, "habit"),
    (r"now|these days|nowadays|from here", 1, 1, "update"),
    (
        r"(?:wreck|destroy|ruin|exhaust|kill|hurt)s? (?:me|my \w+)|wipes? me out|(?:is|are) (?:hell|murder|torture) on",
        -1,
        2,
        "",
    ),
    (
        r"(?:is|are|was|were) (?:a no|out|off the table|off limits|the worst|awful|terrible|horrible|a nightmare|too much|overrated|annoying|not for me|not my thing|a mistake|bad|gross|a pain)",
        -1,
        3,
        "",
    ),
    (
        r"(?:isn't|aren't|wasn't) (?:for me|my thing|my favou?rite|great|good)|not for me|(?:doesn't|don't) agree with me|disagrees? with me|makes? me (?:sick|ill|nauseous|queasy)|upsets? my stomach|gives? me (?:a )?(?:headaches?|heartburn|the jitters|jitters|migraines?|anxiety|a stomach ache)",
        -1,
        3,
        "",
    ),
    (r"not (?:great|good|ideal|my favou?rite|my thing|for me)", -1, 3, ""),
    (
        r"(?:is|are|was|were|feels?|seems?) (?:just |such |totally |a total |a complete )?(?:a )?(?:waste of (?:money|time)|"
        r"overpriced|not worth it|a rip[- ]?off|pointless|too (?:expensive|pricey|much))",
        -1,
        3,
        "",
    ),
    (
        r"sucks?|kills? me|drives? me crazy|bothers? me|never again|not again|no thanks|no way|intolerant|gets old|i can't stand|i hate|i avoid|is too|was too|ruins?",
        -1,
        2,
        "",
    ),
    (
        r"(?:is|are|would be|will be|works|'s) (?:fine|ok|okay|alright|acceptable|tolerable)|works too|in a pinch|at a push|if (?:needed|necessary|i have to)",
        0,
        2,
        "",
    ),
]
_NEGATORS = re.compile(
    r"\b(?:don't|doesn't|didn't|never|not|no longer|isn't|aren't|wasn't|weren't|won't|wouldn't|hardly|barely|no)\b"
)
_CONNECTOR = re.compile(
    r"^[\s,&/+]*(?:(?:and|or|plus|as well as|also|nor|along with|or even|and also|and extra|the|a|an|some|my|any|in|as|with|using)[\s,]*)*$"
)
_REQUEST = re.compile(
    r"\b(?:order|book|reserve|get me|grab me|buy|schedule|find me|pick up|can i get|could i get|can i have|can you|could you|"
    r"would you|i'll have|i'll take|i'd like|let's|please|make it|make mine|set up|sign me up|put me)\b"
)
_SELF = r"i|i'm|i've|i'd|i'll|me|my|mine|myself|we|we're|we've|we'd|us|our"
_OTHER = (
    r"he|she|they|he's|she's|they're|his|her|their|him|them|someone|somebody|people|everyone|everybody|"
    r"(?:a|one|some|another) (?:\w+ )?(?:friend|colleague|coworker|co-worker|neighbou?r|relative|cousin|guy|woman|man)s?(?: of mine)?|"
    r"(?:my|our) \w+'s|(?:my |our |the )?(?:flatmate|roommate|housemate)s?|"
    r"my (?:wife|husband|partner|boyfriend|girlfriend|friend|friends|mom|mum|mother|dad|father|son|daughter|kids?|"
    r"children|sister|brother|boss|colleague|coworker|co-worker|roommate|flatmate|neighbou?r|guests?|team|family|"
    r"parents|client|grandma|grandpa|grandmother|grandfather|baby|fiancée?|in-laws|cousin|aunt|uncle|date)"
)
_SUBJECT = re.compile(rf"\b(?P<other>{_OTHER})\b|\b(?P<you>you|you're|you've|you'd)\b|\b(?P<self>{_SELF})\b")
_CLAUSE_SPLIT = re.compile(
    r"\s*(?:;|—|–|\s-\s|(?<!anything)(?<!nothing)(?<!everything),?\s+\b(but|though|although|however|whereas|yet|except(?: for)?|apart from|other than)\b,?)\s*"
)
_SENT_SPLIT = re.compile(r"(?<=[.!?])\s+|\n+")
_REPLACE = [
    (r"[’‘`]", "'"),
    (r"[“”]", '"'),
    (r"\bcannot\b|\bcan not\b|\bcant\b", "can't"),
    (r"\bdo not\b|\bdont\b", "don't"),
    (r"\bdoes not\b|\bdoesnt\b", "doesn't"),
    (r"\bdid not\b|\bdidnt\b", "didn't"),
    (r"\bwill not\b", "won't"),
    (r"\bwould not\b|\bwouldnt\b", "wouldn't"),
    (r"\bis not\b|\bisnt\b", "isn't"),
    (r"\bare not\b|\barent\b", "aren't"),
    (r"\bwas not\b|\bwasnt\b", "wasn't"),
    (r"\bi am\b|\bim\b", "i'm"),
    (r"\bi would\b", "i'd"),
    (r"\bi will\b", "i'll"),
    (
        r"\bi have\b(?= (?:been|gone|become|switched|started|stopped|quit|given|cut|decided|had))|\bive\b",
        "i've",
    ),
    (r"\bany more\b", "anymore"),
    (r"\s+", " "),
]


@lru_cache(maxsize=1)
def _compiled() -> tuple[list[tuple[re.Pattern[str], int, int, frozenset[str]]], ...]:
    def comp(
        table: list[tuple[str, int, int, str]],
    ) -> list[tuple[re.Pattern[str], int, int, frozenset[str]]]:
        return [
            (re.compile(r"(?<![\w'])(?:" + p + r")(?![\w'])"), pol, s, frozenset(t.split()))
            for p, pol, s, t in table
        ]

    return comp(_BEFORE), comp(_AFTER), [(re.compile(p), 0, 0, frozenset()) for p, _ in _REPLACE]


def normalise(text: str) -> str:
    out = text.lower()
    for (pattern, _, _, _), (_, repl) in zip(_compiled()[2], _REPLACE):
        out = pattern.sub(repl, out)
    return out.strip()


def sentences(text: str) -> list[str]:
    return [s.strip() for s in _SENT_SPLIT.split(text) if s and s.strip()]


def clauses(sentence: str) -> list[tuple[str, str]]:
    """(connector, clause) pairs; the first connector is ""."""
    parts = _CLAUSE_SPLIT.split(sentence)
    out: list[tuple[str, str]] = [("", parts[0])]
    for i in range(1, len(parts) - 1, 2):
        out.append((parts[i] or ";", parts[i + 1]))
    return [(c, t.strip()) for c, t in out if t and t.strip()]


def _find_cues(text: str, table: list[tuple[re.Pattern[str], int, int, frozenset[str]]]) -> list[Cue]:
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


def _pick(candidates: list[tuple[str, str]], context: str, phrase: str) -> tuple[str, str] | None:
    for dimension, value in candidates:
        attr = BY_DIMENSION.get(dimension)
        if attr is None or attr.context is None or context_re(attr.context).search(context):
            return dimension, value
        if (
            attr.context_for
            and " ".join(phrase.split()).rstrip("s") not in attr.context_for
            and phrase not in attr.context_for
        ):
            return dimension, value  # a strong word: no context needed
    return None


def find_mentions(
    clause: str, *, vocab: tuple[re.Pattern[str], Vocab] | None = None, context: str = ""
) -> list[Mention]:
    """Attribute phrases in ``clause`` (lexicon first, then the tool's own words)."""
    pattern, _ = phrase_table()
    ctx = f"{clause} {context}"
    out: list[Mention] = []
    taken: list[tuple[int, int, str]] = []
    for m in pattern.finditer(clause):
        cands = lookup(m.group(0))
        taken.append((m.start(), m.end(), cands[0][1] if cands else ""))
        if not cands:
            continue
        picked = _pick(cands, ctx, m.group(0))
        if picked is None:
            continue
        attr = BY_DIMENSION[picked[0]]
        generic = (
            " ".join(re.split(r"[\s-]+", m.group(0))) in attr.generic
            or m.group(0).rstrip("s") in attr.generic
        )
        out.append(Mention(picked[0], picked[1], m.start(), m.end(), m.group(0), generic))
    if vocab is not None:
        vpat, table = vocab
        for m in vpat.finditer(clause):
            key = " ".join(re.split(r"[\s_-]+", m.group(0)))
            hits = table.get(key) or table.get(key[:-1]) or table.get(key[:-2]) or []
            for dimension, value in hits:
                if any(
                    a <= m.start() and m.end() <= b and (a, b) != m.span() and v != value for a, b, v in taken
                ):
                    continue  # inside a longer lexicon phrase meaning something else ("premium economy")
                out.append(Mention(dimension, value, m.start(), m.end(), m.group(0)))
    out.sort(key=lambda x: (x.start, x.end))
    return out


def _subject(text: str) -> str:
    last = "self"
    found = False
    for m in _SUBJECT.finditer(text):
        last, found = m.lastgroup or "self", True
    return last if found else "self"


def _negated(prefix: str) -> bool:
    """A negator in the last three words of ``prefix`` (not across a comma)."""
    span = prefix.rsplit(",", 1)[-1]
    tail = " ".join(re.findall(r"[\w']+", span)[-3:])
    return bool(_NEGATORS.search(tail))


def _flip(polarity: int) -> int:
    return {1: -1, -1: 0, 0: -1}[polarity]


def assign(clause: str, mentions: list[Mention], connector: str = "", *, previous: int | None = None) -> None:
    """Set each mention's polarity, strength, tags and subject in place (None: no stance)."""
    before_table, after_table, _ = _compiled()
    before = _find_cues(clause, before_table)
    after = _find_cues(clause, after_table)
    request = bool(_REQUEST.search(clause))
    prev: Mention | None = None
    for i, mention in enumerate(mentions):
        if prev is not None and mention.start < prev.end:  # the same words read by two vocabularies
            mention.polarity, mention.strength, mention.tags = prev.polarity, prev.strength, set(prev.tags)
            mention.subject, mention.cue = prev.subject, prev.cue
            continue
        low = prev.end if prev is not None else 0
        high = mentions[i + 1].start if i + 1 < len(mentions) else len(clause)
        b = [c for c in before if c.end <= mention.start and c.start >= low and not _inside(c, mentions)]
        a = [
            c
            for c in after
            if c.start >= mention.end
            and c.end <= max(high, mention.end)
            and _words(clause[mention.end : c.start]) <= 6
        ]
        cue, negated = _choose(clause, mention, b[-1] if b else None, a[0] if a else None)
        if re.match(r"^[\s-]*free\b", clause[mention.end :]):
            cue, negated = Cue(mention.end, mention.end + 5, -1, 3, frozenset(), "free"), False
        if cue is not None:
            mention.polarity = _flip(cue.polarity) if negated else cue.polarity
            mention.strength, mention.tags, mention.cue = cue.strength, set(cue.tags), cue.text
            if negated and cue.polarity == 1 and "no longer" in clause[: cue.start]:
                mention.tags.add("update")
            mention.subject = _subject(clause[: min(cue.start, mention.start)])
        elif (
            prev is not None
            and prev.polarity is not None
            and _CONNECTOR.match(clause[prev.end : mention.start])
        ):
            mention.polarity, mention.strength, mention.tags = prev.polarity, prev.strength, set(prev.tags)
            mention.subject, mention.cue = prev.subject, prev.cue
        elif connector.startswith(("except", "apart", "other than")):
            mention.polarity, mention.strength, mention.tags = -1, 2, {"except"}
        elif previous is not None and connector in (
            "but",
            "though",
            "although",
            "however",
            "whereas",
            "yet",
            "while",
        ):
            mention.polarity, mention.strength, mention.tags = previous, 1, {"contrast"}
        elif request:
            mention.polarity, mention.strength, mention.tags = 1, 1, {"request"}
            mention.subject = _subject(clause[: mention.start])
        if mention.polarity == -1 and mention.generic and "exact" not in mention.tags:
            attr = BY_DIMENSION.get(mention.dimension)
            if attr is not None and attr.scale:
                mention.value = avoided_values(attr, mention.value, generic=True)[0]
        prev = mention


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
        own = b.polarity == 1 and bool(_NEGATORS.search(b.text))
        return b, own or _negated(clause[: b.start])
    return None, False


def analyse(
    sentence: str, *, vocab: tuple[re.Pattern[str], Vocab] | None = None, context: str = ""
) -> list[Mention]:
    """Every attribute mention in a normalised sentence, with its stance."""
    out: list[Mention] = []
    previous: int | None = None
    for connector, clause in clauses(sentence):
        mentions = find_mentions(clause, vocab=vocab, context=f"{sentence} {context}")
        assign(clause, mentions, connector, previous=previous)
        _contrast(out, mentions, connector, clause)
        stances = [m.polarity for m in mentions if m.polarity is not None]
        if stances:
            previous = stances[-1]
        out.extend(mentions)
    return out


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
