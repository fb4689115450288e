"""Open-text preferences: what the user wants or avoids, in any words, known to the lexicon or not.

Per clause of the user's own words (quoted, pasted and reported text removed by ``own_words``):

- a **stance cue** gives the polarity and where the thing sits: after a cue in front of it ("I can't
  stand X", "a strong aversion to X"), before a verdict after it ("X doesn't appeal to me", "X is a
  no"); a negation in front of a cue turns it round ("I'm not interested in X");
- a **contrast inside the clause** splits it: "X over Y", "X rather than Y", "X instead of Y", "not X
  but Y" give a wanted and an avoided side;
- a **predicate** whose adjective no table knows ("I find X tedious") is kept with the adjective,
  and its valence comes from its meaning at grounding time (``alignment/grounding.py``);
- a **choice among offered options**: when the assistant just listed options and the user picks
  one ("option 2", "the second", or by its words), the chosen option is wanted and the passed-over
  ones are avoided, weakly;
- a **turned-down offer** ("pass", "god no", "nope") avoids what the assistant just offered;
- a **fact of life** that constrains choices ("I have a dog", "I work nights") is kept as a weak
  positive about that thing: grounding decides by meaning which parameter it bears on.

The phrase is kept as said; grounding compares it with a tool's values by meaning. Nothing here
is a list of topics: the cue words are the closed class of how English states a stance.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache

from ibachat.agent.reading.clauses import clauses, is_question, normalise, own_words, sentences
from ibachat.agent.reading.cues import AFTER, BEFORE, DENY, NEGATORS, THIRD_PERSON
from ibachat.agent.reading.offers import offered, picked
from ibachat.agent.reading.polarity import OTHER_SUBJECT

OPEN = "open"  # the ledger dimension of a preference kept in the user's words
NUMBER_DIM = "open.number"  # an amount the user stated: value "unit<op>amount", e.g. "hour>=11"

# Stance cues beyond the attribute-oriented tables of cues.py: stance nouns and verdicts on a
# whole thing. (pattern, polarity, strength)
STANCE_BEFORE: list[tuple[str, int, int]] = [
    (
        r"(?:strong |deep |real |big |huge |serious |slight |bit of an? )?(?:aversion|dislike|distaste|"
        r"allergy|intolerance|sensitivity|phobia|fear|hatred|loathing) (?:to|of|for|towards?|against)",
        -1,
        3,
    ),
    (
        r"(?:strong |deep |real |big |huge |soft |clear |definite )?(?:preference|love|passion|fondness|"
        r"liking|soft spot|taste|appetite|enthusiasm|appreciation|affinity|weakness|thing) (?:for|of|towards?)",
        1,
        3,
    ),
    (
        r"(?:really |very |quite |more |most |mostly |especially )?(?:interested|invested|drawn) (?:in|to)",
        1,
        2,
    ),
    (r"(?:excited|passionate|enthusiastic|curious|serious) about", 1, 2),
    (
        r"(?:uncomfortable|nervous|anxious|scared|afraid|terrified|wary|uneasy|sick|tired|weary) "
        r"(?:with|of|about|around|in|by)",
        -1,
        2,
    ),
    (r"(?:comfortable|happiest|at home|at ease|in my element) (?:with|in|when|around)", 1, 1),
    (
        r"(?:try|trying|tend|tends|want|like|prefer|need) to (?:avoid|skip|stay away from|steer clear of)",
        -1,
        3,
    ),
    (
        r"(?:only|exclusively|strictly|mainly|mostly|solely) (?!avoid|skip|refus|stay|steer|hate|dislik|detest|"
        r"never\b|not\b|no\b|don't|won't|if\b|when\b|because\b|for\b|to\b|a\b|an\b|the\b|one\b|once\b|"
        r"twice\b|about\b|just\b|been\b|got\b|have\b|had\b|please\b|thanks\b|now\b|then\b|today\b)[a-z]{3,}",
        1,
        3,
    ),
    (
        r"(?:look(?:ing)? for|search(?:ing)? for|in the market for|after) (?:something|anything|a|an|some)?",
        1,
        1,
    ),
    (r"(?:gravitate|lean|leaning|drawn) (?:towards?|to)", 1, 2),
    (r"(?:prefer|rather|sooner) (?:not to|not)", -1, 3),
    (
        r"(?:(?:ethical |moral |strong )?objections? to|(?:i'm|i am|we're|we are) (?:[a-z]+ly )?(?:against|opposed to))",
        -1,
        3,
    ),
    (r"(?:refuse|refuses|refused|refusing) to|(?:won't|will not|wouldn't|would never)(?: ever)?", -1, 3),
    (r"(?:no|little|zero|any) (?:real )?interest (?:in|for)|(?:interest|interested) in", 1, 2),
    (
        r"(?:prioriti[sz]e|value|care (?:a lot )?about|insist on|look for|need|require|demand|seek|favou?r)"
        r"(?:s|d|ing)?",
        1,
        2,
    ),
    (r"(?:i'd|i would|we'd|we would) (?:much |far |really )?(?:rather|sooner)(?! not)", 1, 2),
    (
        r"(?:i'm|i am|we're|we are|i've|we've|i have) (?:now |officially |finally |just |decided to go )?"
        r"(?:going|gone|turning|turned|becoming|become|switching|switched|moving|moved)(?! to\b)(?! back\b)"
        r"(?: (?:fully|completely|totally|full|100%|strictly|properly))?",
        1,
        3,
    ),
    (
        r"(?:find it|it's|it is|it gets|it can be) (?:really |very |quite |so |too )?(?:hard|difficult|tough|impossible|a struggle|a challenge|tricky) to",
        -1,
        2,
    ),
    (r"(?:find it|it's|it is) (?:really |very |quite |so )?(?:easy|easier|natural|fun|enjoyable) to", 1, 2),
    (
        r"(?:i|we) (?:\w+ ){1,2}?(?:best|better|most effectively|most) (?:in|with|through|when|by|from|on|at|using|via)",
        1,
        3,
    ),
]
STANCE_AFTER: list[tuple[str, int, int]] = [
    (
        r"(?:doesn't|don't|do not|does not|never|won't|wouldn't|didn't|just don't|really don't) "
        r"(?:really )?(?:appeal|work|suit|interest|excite|agree|click|do it) ?(?:to|for|with)? ?(?:me|us)?",
        -1,
        3,
    ),
    (
        r"(?:appeals?|speaks?) to me|(?:works?|worked) (?:best|well|better) for me|(?:is|are) (?:more )?my (?:speed|style|thing)",
        1,
        2,
    ),
    (
        r"(?:leaves?|left) me cold|(?:puts?|put) me off|turns? me off|(?:is|are|'s) (?:just |really |simply |totally )?not my (?:thing|style|speed|scene|cup of tea)",
        -1,
        3,
    ),
    # "anchovy and olive pizza, my absolute fave"; "window seats only"
    (
        r"(?:is |are |'s )?my (?:absolute |all[- ]time |total |forever )?(?:fave|fav|favourite|favorite)\b",
        1,
        3,
    ),
    (r"(?:only|exclusively)(?=\s*(?:please|pls|from now on|now|these days|for me)?\s*$)", 1, 2),
    # "chatty as ever", "oat like always": the short answer keeps the thing as it has been (a fragment only:
    # "the train was late as usual" is a story, see ``read_clause``)
    (r"(?:as|like) (?:ever|always|usual|per usual|normal)", 1, 1),
    # "X would suit me (down to the ground)", "X suits us perfectly"
    (
        r"(?:would |will |'d |'ll |should |does |do )?suits? (?:me|us)\b(?: down to the ground| perfectly| fine| best| nicely| to a tee?)?",
        1,
        2,
    ),
    # "X? not really my thing", "X is not exactly my scene"
    (
        r"(?:(?:is|are|'s|'re)\s+not|isn't|aren't|not) (?:really |exactly |quite |so much |much )?my (?:thing|style|scene|cup of tea|kind of thing|idea of fun)",
        -1,
        3,
    ),
    # an ultimatum: the thing, then "or" and the speaker's own refusal or a dismissal ("face to face or
    # I'm not bothering", "oat milk or don't bother", "aisle or nothing"): the thing is required. The cue is
    # the "or" alone, so the refusal's own negation does not turn the stance round.
    (
        r"or(?= (?:else )?(?:(?:i|we)(?:'m|'re| am| are)?(?: just| simply)? (?:not|never|won't|will not|"
        r"don't|do not|can't|cannot|ain't)\b|(?:don't|do not|dont) bother\b|forget it\b|nothing\b|bust\b|"
        r"no deal\b|(?:i|we)(?:'ll| will)? (?:pass|walk|cancel|stay home)\b))",
        1,
        3,
    ),
]
# "X over Y", "X rather than Y": the right-hand side is passed over.
_OVER = re.compile(
    r"\s+(?:over|rather than|instead of|in place of|more than|above|versus|vs\.?|not)\s+"
    r"(?=\w)(?!to\b|\d|(?:a|an) (?:few|couple|hour|day|week|month|year|hundred|thousand|dozen|half)\b|one\b|two\b|"
    r"three\b|four\b|five\b|six\b|ten\b|twenty|thirty|fifty|hundred|half)"
)
# A predicate: "I find X tedious", "X is (too) overwhelming (for me)", "X feels impersonal".
_PREDICATE = re.compile(
    r"^(?:i|we) (?:find|consider|think|feel) (?P<obj>.+?) (?:to be |is |are )?"
    r"(?:too |so |really |very |quite |pretty |rather |a bit |kind of |sort of |incredibly |extremely |way too )?"
    r"(?P<adj>[a-z][a-z-]{3,})(?: and (?P<adj2>[a-z][a-z-]{3,}))?$"
    r"|^(?P<obj2>(?:most |all |any |anything |everything )?[a-z][\w' -]{2,60}?) "
    r"(?:are|feel|seem|tend to be|is always|are always) "
    r"(?:always |usually |often |just |too |so |really |very |quite |pretty |rather |a bit |kind of |incredibly |way too )*"
    r"(?P<adj3>[a-z][a-z-]{3,})(?: (?:for|to) (?:me|us))?$"
)
_PREDICATE_TAIL = re.compile(r"\s+(?:now|these days|nowadays|anymore|any more)$")
_NOT_ADJECTIVE = frozenset(
    "going doing being having getting making taking coming trying looking thinking planning there here "
    "that this what which when where about available open closed done back home still also just always "
    "usually something anything nothing everything someone".split()
)
_LEAD = re.compile(
    r"^(?:(?:all the way(?= to\b)|over(?= to\b)|to|of|for|in|on|about|with|at|into|towards?|by|the|a|an|some|any|all|"
    r"those|these|that|this|my|is|are|"
    r"finally|honestly|obviously|definitely|probably|actually|basically|literally|"
    r"more|most|really|very|anything|something|things|stuff|being|having|doing|getting|using|like|such as|"
    r"especially|mainly|mostly|just|only|also|even|kind of|sort of|type of|types of|kinds of)\s+)+"
)
_TRAIL = re.compile(
    r"(?:\s+(?:and|or|but|so|please|thanks|thank you|though|too|as well|either|anymore|at all|for me|for us|lol|really|"
    r"really much|much|a lot|so much|very much|honestly|personally|these days|nowadays|in general|generally|"
    r"whenever possible|when possible|if possible|if i can|most of the time|all the time|the most|from today|"
    r"from now on|starting today|as of today|going forward|for good))+$"
)
_PRONOUN_ONLY = re.compile(
    r"^(?:it|that|this|them|those|these|one|ones|things?|stuff|so|too|much|more|less|any|some|me|you|"
    r"everything|anything|something|nothing|a lot|the idea|the thought|lots|along|around|away|back|out|off|up|"
    r"down|over|again|there|here|home|now|then|today|tonight|tomorrow|yesterday|later|soon|well|much|"
    r"honestly|really|what|which|who|how|why|when|where)$"
)
_FACT = re.compile(
    r"\b(?:i|we) (?:have|own|got|keep|raise|look after|care for|live with|travel with) "
    r"(?P<obj>(?:a|an|two|three|some|my|our)\s+[a-z][\w' -]{2,40})"
    r"|\b(?:i|we) (?:work|do|am on|'m on) (?P<obj2>(?:the )?(?:night|nights|night shifts?|late shifts?|early shifts?|"
    r"weekends|shifts|remotely|from home)[\w ]{0,20})"
    r"|\b(?:my|our) (?P<obj4>[a-z][\w'-]{2,30}(?: [a-z][\w'-]{2,30})?) (?:comes?|travels?|goes|stays?|lives?|sleeps?|"
    r"is always|always comes) with (?:me|us)\b"
    r"|\b(?:i'm|i am|we're|we are) (?P<obj3>(?:a|an) [a-z][\w' -]{2,40}?)(?= and |,|$)"
)
_YOU_SUBJECT = re.compile(r"^(?:you|you're|you've|you'd|your)\b")
MAX_PHRASE_WORDS = 14


@dataclass
class OpenPref:
    """One thing wanted (+1) or avoided (-1), as the user put it."""

    phrase: str
    polarity: int
    strength: int  # 1 weak .. 3 strong
    sentence: str
    how: str  # cue | contrast | predicate | choice | passed-over | declined | fact
    adjective: str = ""  # for predicates: the word whose meaning gives the polarity
    tags: set[str] = field(default_factory=set)


def _compile(table: list[tuple[str, int, int]]) -> list[tuple[re.Pattern[str], int, int]]:
    return [(re.compile(r"(?<![\w'])(?:" + p + r")(?![\w'])"), pol, s) for p, pol, s in table]


def _tables() -> tuple[list, list]:
    global _BEFORE_C, _AFTER_C
    if _BEFORE_C is None:
        extra_before = [(p, pol, s) for p, pol, s, tags in BEFORE if pol != 0 and "weak" not in tags]
        extra_after = [(p, pol, s) for p, pol, s, tags in AFTER if pol != 0]
        _BEFORE_C = _compile(STANCE_BEFORE) + _compile([t for t in extra_before if not _too_generic(t[0])])
        _AFTER_C = _compile(STANCE_AFTER) + _compile(extra_after)
    return _BEFORE_C, _AFTER_C


_BEFORE_C: list | None = None
_AFTER_C: list | None = None


def _too_generic(pattern: str) -> bool:
    """Cues that mean a stance only next to an attribute word ("with", "add", "eat"): not on their own."""
    return pattern.startswith(("make (?:it", "eat|", "no more|", "ugh|", "instead of", "too|", "keep(?:"))


def clean(phrase: str) -> str:
    """The thing itself: leading prepositions, determiners and trailing fillers cut."""
    p = phrase.strip(" ,.;:!?-\"'()")
    said = _SAYS_LEAD.match(p)  # "vet says it's the kidney-care biscuits": what the vet says is the thing
    p = p[said.end() :].strip() if said else p
    p = re.sub(r"^it(?:'s| is)\s+(?=(?:the|a|an)\b)", "", p)  # "it's the decaf": a cleft, the thing after it
    p = re.split(r",\s+[a-z]+ly\b", p)[0]  # "my lunch hour, luckily pulse is ...": another thought
    for _ in range(3):
        p = _LEAD.sub("", p).strip(" ,.;:!?-")
        p = _TRAIL.sub("", p).strip(" ,.;:!?-")
    m = _TIME_ADJUNCT.search(p)
    if m and m.start() > 0 and _a_time(m.group(1)):
        p = p[: m.start()].strip(
            " ,.;:!?-"
        )  # "dairy for the next few weeks": how long is the state's, not the thing's
    words = p.split()
    if len(words) > MAX_PHRASE_WORDS:
        p = " ".join(words[:MAX_PHRASE_WORDS])
    return p


# A phrase's tail that says for how long or until when ("for a month", "until Friday", "over the holidays").
_TIME_ADJUNCT = re.compile(
    r"\s+(?:for|until|till|til|through|over|during|from now (?:on|until))\s+(.+)$", re.I
)
_DURATION = re.compile(
    r"^(?:(?:the|a|an|this|next|coming|few|couple|of|several|\d+|one|two|three|four|five|six|ten|good|little)\s+)*"
    r"(?:while|days?|nights?|weeks?|fortnights?|months?|years?|ages|bit)\b",
    re.I,
)


def _a_time(text: str) -> bool:
    """``text`` is a stretch of time or a day: "the next few weeks", "a month", "Friday"."""
    from datetime import datetime, timezone

    from ibachat.agent.reading.when import read_when

    text = text.strip(" ,.;:!?")
    if _DURATION.match(text):
        return True
    when = read_when(text, datetime(2026, 1, 5, 12, 0, tzinfo=timezone.utc))
    said = " ".join(w for w in (when.day_words, when.time_words) if w)
    return bool(said) and len(said.split()) >= len(text.split()) - 1


_FUNCTION = frozenset(
    "i me my we us our you your it its they them their he she his her a an the this that these those and or but "
    "so just really very also too then than there here what which who how why when where is are was were be been "
    "do does did have has had will would can could should may might must not no all any some one ones thing things "
    "stuff get got go going lot lots much more most less way".split()
)


def _usable(phrase: str) -> bool:
    if not phrase or len(phrase) < 3 or _PRONOUN_ONLY.match(phrase) or "«" in phrase:
        return False
    if phrase.strip().lower() in interjections():
        return False  # "no thanks", "no worries": a reply, not a thing refused
    if _DURATION.fullmatch(phrase.strip()) or _a_time(phrase):
        return False  # "next few weeks", "month": when, not a thing wanted
    return any(len(w) >= 3 and w not in _FUNCTION for w in re.findall(r"[a-z][a-z'-]*", phrase))


@cache
def interjections() -> frozenset[str]:
    from ibachat.agent.data import word_classes

    return word_classes("interjections")["words"]


# a negation reaches no further back than the last break ("we're not booking, mum can't do stairs")
_SINCE_BREAK = re.compile(r"^.*[,;:\u2013\u2014]\s*|^.*\s-\s")


def _negated_before(clause: str, start: int) -> bool:
    window = _SINCE_BREAK.sub("", clause[max(0, start - 24) : start])
    return bool(NEGATORS.search(window)) and not re.search(
        r"\b(?:not only|no doubt|never been happier)\b", window
    )


_REPORTED = re.compile(
    r"\b(?:said|says|say|thinks|think|reckons|reckon|claims|told me|tells me|mentioned|insists|swears|wrote|writes|asked)\b"
)


# a reported lead before a rule for the future ("the vet says it's the kidney-care biscuits from now on"):
# whoever said it, a rule from now on is one the user keeps; the thing is what follows the lead
_SAYS_LEAD = re.compile(
    r"^(?:(?:and|but|so|well|yeah|ok)\s+)?(?:[a-z'-]+\s+){0,3}?(?:says|said|told (?:me|us)|reckons|insists)\s+(?:that\s+)?"
)
# cues of a change from now on, said after the thing ("oat milk from now on"): adverbials, not verbs
_FROM_NOW = re.compile(r"from now on|going forward|from here on(?: out)?|for good")


def _someone_else(prefix: str, np_end: bool = True) -> bool:
    """The stance is someone else's: "my wife loves X", "the kids love X", "a chef who hates X", "mum said".
    ``np_end``: a noun phrase just before the cue is its subject; not so before an adverbial of time ("the
    kidney-care biscuits from now on": the thing itself)."""
    p = prefix.strip(" ,")
    if not p:
        return False
    mine = re.search(r"\b(?:i|i'm|i've|i'd|we|we're|we've|we'd)\b", p)
    if _YOU_SUBJECT.match(p) and not mine:
        return True
    if re.search(r"\b(?:who|which|that)\s*(?:\w+\s+)?$", p):  # a relative clause: its own subject
        return not re.search(r"\b(?:i|we)\s+(?:\w+\s+)?$", p)
    if _REPORTED.search(p) and not re.search(
        r"\b(?:i|we) (?:said|say|think|told|mentioned|swear|wrote|asked)\b", p
    ):
        if np_end:
            return True
        # "the vet says it's X from now on": a rule the user keeps, whoever said it; "my sister says she's
        # only drinking X from now on" is her own
        rest = p[_REPORTED.search(p).end() :]
        return re.match(r"\s*(?:that\s+)?(?:she|he|they)(?:'s|'re|'ll|'ve|'d)?\b", rest) is not None
    if mine:
        return False
    return bool(
        OTHER_SUBJECT.search(p)
        or re.search(r"\b(?:he|she|they|[a-z]+'s)\s*$", p)
        or np_end
        and re.search(
            r"(?:^|\s)(?:the|my|our|his|her|their|a|an|some|most|many|lots of|these|those)\s+[a-z-]+(?:\s+[a-z-]+)?\s*$",
            p,
        )
        is not None
    )


_NEG_VERB = re.compile(
    r"(?<![\w'])(?:i|we|i've|we've|i have|we have)(?: really| just| absolutely| strictly| simply| generally| usually)? "
    r"(?:will not|won't|don't|do not|never|refuse to|cannot|can't|no longer|would never|wouldn't|shouldn't|am not going to)"
    # an inability: "I've never learned to drive", "we don't know how to ski"
    r"(?: (?:learned|learnt|know how|been able|managed) to)?"
    r"(?: (?:ever|really|even|usually|eat|have|use))? (?P<verb>[a-z]{3,})(?![\w'])"
)
_NOT_STANCE_VERBS = frozenset(
    "know think remember understand mind care see get have need want say mean believe recall forget "
    "feel want wanna gonna got".split()
)
_PRACTICE = re.compile(
    r"(?<![\w'])(?:i|we)(?: always| usually| only| mostly| strictly| religiously| now)? "
    r"(?:follow|practi[cs]e|observe|maintain|stick to|keep to|am on|'m on|live by|swear by|rely on|go by)(?![\w'])"
)
_NEG_RELATIVE = re.compile(
    r"^(?P<head>.{3,60}?)\s+(?:that|which|who)\s+(?:aren't|isn't|are not|is not|don't|doesn't|do not|does not|"
    r"weren't|wasn't|never)\s+(?:\w+\s+)?(?P<core>.{3,})$"
)
_REASON = re.compile(
    r"\s+(?:due to|because|because of|since|as i|as my|given|owing to|for health reasons|so that|so i)\b.*$"
)
_RELATIVE = re.compile(
    r"^(?P<head>.{3,60}?)\s+(?:(?:that|which|who|where)\s+(?:\w+\s+)?(?:involves?|includes?|uses?|requires?|has|have|"
    r"contains?|features?|needs?)|containing|with|using|involving|including|featuring|made (?:with|from|of)|full of)\s+"
    r"(?P<core>.{3,})$"
)


def stance_cues(clause: str, topic: bool = False) -> list[tuple[int, int, int, int, str]]:
    """Non-overlapping stance cues in a clause: (start, end, polarity, strength, where the thing is);
    ``topic``: a thing was just put as a question, so a verdict may open the clause."""
    before, after = _tables()
    found = []
    for pattern, pol, strength in before:
        found += [(m.start(), m.end(), pol, strength, "after") for m in pattern.finditer(clause)]
    for pattern, pol, strength in after:
        found += [
            (m.start(), m.end(), pol, strength, "before")
            for m in pattern.finditer(clause)
            if m.start() > 2 or (topic and not clean(clause[: m.start()]))
        ]
    # "X is ADJ for me": the adjective says the stance, not "for me" ("weekends are offline for me")
    found = [c for c in found if not _for_me_after_predicate(clause, c)]
    for m in _NEG_VERB.finditer(clause):
        if m.group("verb") not in _NOT_STANCE_VERBS:
            found.append((m.start(), m.end(), -1, 3, "after"))
    found += [(m.start(), m.end(), 1, 2, "after") for m in _PRACTICE.finditer(clause)]
    found.sort(key=lambda c: (c[0], -(c[1] - c[0])))
    out: list[tuple[int, int, int, int, str]] = []
    for cue in found:
        if out and cue[0] < out[-1][1]:
            continue
        if out and _RELATIVE_BEFORE.search(clause[out[-1][1] : cue[0]]):
            continue  # "bars that mostly play techno": the relative clause says which bars, no stance of its own
        out.append(cue)
    return out


_COPULA_ADJ_END = re.compile(
    r"\b(?:is|are|was|were|'s|'re|feels?|seems?)\s+(?:[a-z]+ly\s+)?[a-z][a-z-]{2,}\s*$"
)


def _for_me_after_predicate(clause: str, cue: tuple[int, int, int, int, str]) -> bool:
    return clause[cue[0] : cue[1]] in ("for me", "for us") and bool(_COPULA_ADJ_END.search(clause[: cue[0]]))


# a relative pronoun right before a word (and an adverb of its own): the word is inside a relative clause
_RELATIVE_BEFORE = re.compile(r"\b(?:that|which|who|whom|whose)\s+(?:\w+ly\s+)?$")


def _polarity(clause: str, start: int, end: int, pol: int, seg_start: int) -> int:
    inside = clause[start:end]
    if pol > 0 and NEGATORS.search(inside):
        return -pol
    window = _SINCE_BREAK.sub("", clause[max(seg_start, start - 24) : start])
    if NEGATORS.search(window) and not re.search(r"\b(?:not only|no doubt)\b", window):
        return -pol
    return pol


def read_clause(clause: str, sentence: str, topic: str = "") -> list[OpenPref]:
    """Open preferences in one clause (normalised, the user's own words); ``topic``: a thing just put as
    a bare question ("the family field?"), what a verdict with nothing before it is about."""
    cues = stance_cues(clause, bool(topic))
    out: list[OpenPref] = []
    for i, (start, end, pol, strength, where) in enumerate(cues):
        prev_end = cues[i - 1][1] if i else 0
        next_start = cues[i + 1][0] if i + 1 < len(cues) else len(clause)
        prefix = clause[prev_end:start]
        if re.search(r"\bused to\s*$", clause[:start]):
            continue  # a taste that is gone: the lexicon's update path reads it
        fragment = _SINCE_BREAK.sub("", prefix)  # "yep, chatty as ever": "chatty"
        as_ever = (
            bool(_HABITUAL_CUE.fullmatch(clause[start:end]))
            and where == "before"
            and 0 < len(fragment.split()) <= 3
            and not _TOLD.search(fragment)  # "the train was late as usual": a story of how it went
        )
        if as_ever:
            prefix = fragment
        elif _HABITUAL_CUE.fullmatch(clause[start:end]) and _TOLD_PAST.search(fragment):
            continue  # "the bus was late as usual": how it went, as it always goes; no wish
        ultimatum = clause[start:end] == "or"  # the refusal after it is the speaker's own
        if where == "before" and not ultimatum and _FIRST_PERSON_CUE.search(clause[start:end]):
            # a verdict after the thing ("the family room doesn't appeal to me", "the window seat is my
            # favourite"): the words before it are the thing, someone else's only when they name them
            own = _SINCE_BREAK.sub("", prefix)
            if OTHER_SUBJECT.search(own) or _REPORTED.search(own):
                continue
        elif not ultimatum and (
            _someone_else(
                _SINCE_BREAK.sub("", clause[:start]), np_end=not _FROM_NOW.fullmatch(clause[start:end])
            )
            or (THIRD_PERSON.match(clause[start:]) and _someone_else(prefix))
        ):
            continue
        pol = _polarity(clause, start, end, pol, prev_end)
        if where == "after":
            thing = clause[end:next_start]
            verb = _NEG_VERB.fullmatch(clause[start:end])
            if (
                verb is not None
                and (not clean(thing) or re.match(r"\s*[,;:]", thing))  # nothing after the verb but a break
                and verb.group("verb") not in _NOT_AN_ACTIVITY
            ):
                # "I can't swim", "I've never learned to drive": the activity itself is what is ruled out
                thing = _gerund(verb.group("verb"))
            elif _PRONOUN_ONLY.match(clean(thing)):
                thing = _antecedent(clause[:start], out)
        else:
            thing = re.sub(
                r"^(?:i think|i feel like|honestly|personally|i find that|i find|and|but)\s+",
                "",
                prefix.strip(),
            )
            if topic and (not clean(thing) or _PRONOUN_ONLY.match(clean(thing))):
                # "the family field? not really my thing", "jazz brunch? honestly not my scene"
                thing = topic
        found = _split_contrast(thing, pol, strength, sentence, "cue")
        for p in found:  # the cue's words, for the parse to check (``reading/check.py``)
            p.tags.add(f"cue={clause[start:end].strip()}")
            if as_ever:
                p.tags.add("as-ever")
        out += found
    if not out:
        pm = _PREDICATE.match(_PREDICATE_TAIL.sub("", clause))
        if pm:
            obj = pm.group("obj") or pm.group("obj2") or ""
            adj = pm.group("adj") or pm.group("adj3") or ""
            phrase = clean(obj)
            if adj and adj not in _NOT_ADJECTIVE and _usable(phrase):
                at = pm.start("adj") if pm.group("adj") else pm.start("adj3")
                negated = bool(NEGATORS.search(clause[:at]))
                out.append(
                    OpenPref(phrase, 0, 2, sentence, "predicate", adj, {"negated"} if negated else set())
                )
    return out


# verbs that, said alone after "can't" or "won't", rule out no activity ("I can't wait", "can't complain")
_NOT_AN_ACTIVITY = frozenset(
    "wait complain help cope sleep breathe stop decide believe tell even lie go come stay move talk think "
    "remember care mind say win lose function focus concentrate hear see eat have use do get need want".split()
)


def _gerund(verb: str) -> str:
    """The -ing form of an activity verb ("swim": "swimming"), by lemminflect."""
    from lemminflect import getInflection

    forms = getInflection(verb, tag="VBG")
    return forms[0] if forms else verb


def _antecedent(prefix: str, found: list[OpenPref]) -> str:
    """What "it" or "them" stands for: the thing just named in this clause."""
    if found:
        return found[-1].phrase
    pm = _PREDICATE.match(re.sub(r"\s+(?:and|but|so)\s*$", "", prefix.strip()))
    if pm:
        return pm.group("obj") or pm.group("obj2") or ""
    return re.sub(r"^(?:i|we) \w+\s+", "", prefix.strip())


# "products that are vegan", "films which were too long": what the thing is said to be
_COPULAR = re.compile(
    r"^(?P<head>.{3,60}?)\s+(?:that|which|who)\s+(?:are|is|were|was|seem|seems|look|looks)\s+(?P<core>.{3,})$"
)
# "play any games ...", "engage in any activities ...": the verb of a to-infinitive, then a determiner
_VERB_FIRST = re.compile(
    r"^[a-z]{2,}(?: (?:in|on|with|to|at|into|for|about))? (?:any|the|a|an|my|some|all|those|these|most)\s+(?P<core>.{3,})$"
)
# "watching period dramas": a gerund in front of the object
_GERUND = re.compile(r"^[a-z]{3,}ing\s+(?P<core>(?:[a-z][\w'-]*\s+)+[a-z][\w'-]*s\b.*)$")  # 2+ words
# "cheeses like brie, feta or gouda": the kind, and each example of it
_EXAMPLES = re.compile(
    r"^(?P<head>.{3,80}?),?\s+(?:like|such as|including|e\.g\.,?|especially|particularly|for example|"
    r"for instance|say)\s+(?P<core>.{3,})$"
)
# "animal testing and the use of X": two noun phrases, the second opened by its own determiner
_NP_PAIR = re.compile(
    r"^(?P<head>.{3,80}?),? (?:and|or|nor) (?:the|any|a|an|all|other|my|their) (?P<core>.{3,})$"
)
_LIST_SEP = re.compile(r"\s*,\s*(?:and |or )?|\s+(?:and|or|nor)\s+")
MAX_CORES = 6


def cores(phrase: str) -> list[tuple[str, int]]:
    """Shorter phrases inside an object, with their sign relative to it (-1: the clause denies it).

    By clause structure only: a relative or copular clause gives what the thing has or is, a verb or
    gerund in front of the object gives its object, examples after "like" / "such as" / "including"
    give the kind and each example in the list, and two noun phrases joined with a determiner of
    their own ("X and the use of Y") give each."""
    out: list[tuple[str, int]] = []
    queue = [(phrase, 1)]
    seen = {phrase}
    while queue and len(out) < MAX_CORES:
        text, sign = queue.pop(0)
        found: list[tuple[str, int]] = []
        rel = _RELATIVE.match(text) or _NEG_RELATIVE.match(text) or _COPULAR.match(text)
        if rel:
            found.append((rel.group("core"), -sign if rel.re is _NEG_RELATIVE else sign))
        ex = _EXAMPLES.match(text)
        if ex:
            found.append((ex.group("head"), sign))
            items = [i for i in _LIST_SEP.split(ex.group("core")) if i]
            found += [(i, sign) for i in items] if len(items) > 1 else [(ex.group("core"), sign)]
        elif rel and rel.re is _RELATIVE:
            items = [i for i in _LIST_SEP.split(rel.group("core")) if i]
            if len(items) > 1:
                found += [(i, sign) for i in items]
        pair = _NP_PAIR.match(text)
        if pair:
            found += [(pair.group("head"), sign), (pair.group("core"), sign)]
        head = _VERB_FIRST.match(text) or _GERUND.match(text)
        if head:
            found.append((head.group("core"), sign))
        for core, s in found:
            core = clean(re.sub(r"^(?:and|or|nor)\s+", "", core.strip(" ,")))
            if core not in seen and _usable(core):
                seen.add(core)
                out.append((core, s))
                queue.append((core, s))
    return out[:MAX_CORES]


def _split_contrast(rest: str, pol: int, strength: int, sentence: str, how: str) -> list[OpenPref]:
    rest = _REASON.sub("", rest)
    parts = _OVER.split(rest, maxsplit=1)
    out = []
    first = clean(parts[0])
    if _usable(first):
        out.append(OpenPref(first, pol, strength, sentence, how))
        for core, sign in cores(first):  # "avoid products that aren't vegan": vegan wanted
            out.append(OpenPref(core, sign * pol, strength, sentence, how, tags={"core"}))
    if len(parts) == 2:
        second = clean(parts[1])
        if _usable(second) and pol != 0:
            out.append(OpenPref(second, -pol, max(1, strength - 1), sentence, "contrast"))
    return out


_APPOSED_FAVOURITE = re.compile(
    r"(?P<thing>[^,;:.!?]{3,80}),\s*(?:it's |that's )?my (?:absolute |all[- ]time |total |forever )?"
    r"(?:fave|fav|favourite|favorite)\b"
)


_IN_NOUN_PHRASE = frozenset({"NOUN", "PROPN", "ADJ", "NUM", "CCONJ", "DET", "PART"})


def _last_noun_phrase(text: str) -> str:
    """The noun phrase that ends ``text`` (what an apposition after it is said of): the run of nouns,
    adjectives and their coordination before it, by the tagger ("repainting the hall in sage green":
    "sage green"; "so finally anchovy and olive pizza": "anchovy and olive pizza")."""
    from ibachat.agent.reading.parse import parse

    doc = parse(text.strip())
    end = len(doc)
    while end and doc[end - 1].is_punct:
        end -= 1
    start = end
    while start and doc[start - 1].pos_ in _IN_NOUN_PHRASE and doc[start - 1].tag_ != "POS":
        if doc[start - 1].pos_ == "DET":
            start -= 1
            break
        start -= 1
    while start < end and doc[start].pos_ == "CCONJ":
        start += 1
    if not any(t.pos_ in ("NOUN", "PROPN") for t in doc[start:end]):
        return ""
    return doc[start:end].text


def choice_prefs(options: list[str], index: int, said: str) -> list[OpenPref]:
    """The option taken as a choice, the others as passed over."""

    def phrase(option: str) -> str:  # "seated balcony (£42)": the option, not its aside
        return clean(normalise(_ASIDE.sub("", option))) or clean(normalise(option))

    out = [OpenPref(phrase(options[index]), 1, 2, said[:200], "choice")]
    out += [
        OpenPref(phrase(o), -1, 1, said[:200], "passed-over") for i, o in enumerate(options) if i != index
    ]
    return out


_ASIDE = re.compile(r"\s*\([^()]*\)")


_ASKS_ASSISTANT = re.compile(
    r"^(?:(?:ok|okay|so|and|also|oh|hey|please|right|um|hmm)[,\s]+)*(?:please\s+)?(?:can|could|would|will|wo|ca)(?:n't)?\s+(?:you|u|your)\b"
)


Resolve = Callable[[str, list[str]], "int | None"]


def read_open(text: str, assistant_text: str = "", resolve: Resolve | None = None) -> list[OpenPref]:
    """Every open preference in a user's message (``assistant_text``: what the assistant said just before).

    ``resolve(description, options)``: the option a reply describes ("the one where I'm sat down"), by
    meaning; without it such a reply takes no option."""
    said = own_words(normalise(_unwrapped(text)))
    out: list[OpenPref] = []
    offer = offered(assistant_text) if assistant_text else None
    options = offer.options if offer else []
    pick = picked(said, offer) if offer else None
    index = pick.index if pick is not None else None
    if pick is not None and index is None and resolve is not None:
        index = resolve(pick.described, options)
    if index is not None:
        out += choice_prefs(options, index, said)
    topic = ""
    for sentence in sentences(said):
        if is_question(sentence) and not _ASKS_ASSISTANT.match(sentence):
            topic = _topic_question(sentence)
            continue  # a question is never a wish; a request of the assistant in question form is
        for m in _APPOSED_FAVOURITE.finditer(sentence):  # "anchovy and olive pizza, my absolute fave"
            thing = clean(_last_noun_phrase(m.group("thing")))
            if _usable(thing):
                out.append(OpenPref(thing, 1, 3, sentence, "cue"))
        for k, (_, clause) in enumerate(clauses(sentence)):
            out += read_clause(clause, sentence, topic if k == 0 else "")
        topic = ""
        if any(p.sentence == sentence for p in out):
            continue
        for m in _FACT.finditer(sentence):
            obj = clean(m.group("obj") or m.group("obj2") or m.group("obj3") or m.group("obj4") or "")
            if _usable(obj) and not any(obj in p.phrase or p.phrase in obj for p in out):
                out.append(OpenPref(obj, 1, 1, sentence, "fact"))
    if (
        assistant_text
        and not options
        and (DENY.search(said) or _DECLINE.match(said))
        and len(said.split()) <= 20
    ):
        offer = _offer(normalise(assistant_text))
        if offer and _usable(offer):
            out.append(OpenPref(offer, -1, 2, said[:200], "declined"))
    # a bare "X as ever" answers a question of the assistant's ("so it stays as it is?" "yep, chatty as
    # ever"); said on its own it tells how things are ("busy as ever at work")
    asked = assistant_text.rstrip().endswith("?") and not re.search(
        r"(?i)\bhow(?:'s| are| is| was| have| has| did)\b", assistant_text
    )  # "how are you?" "busy as ever": how things are
    out = [p for p in out if asked or "as-ever" not in p.tags]
    return _dedupe(_complained_of(out))


_HABITUAL_CUE = re.compile(r"(?:as|like) (?:ever|always|usual|per usual|normal)")


# a question that is a bare noun phrase, a thing put up for a verdict ("the family field?", "karaoke?"):
# no question word, no verb of its own (closed classes), at most five words
_NOT_A_TOPIC = re.compile(
    r"^(?:what|who|whom|whose|which|when|where|why|how|is|are|was|were|do|does|did|can|could|will|would|"
    r"should|shall|have|has|had|may|might|any|anyone|anything|right|ok|okay|eh|huh|really|seriously)\b"
)


_TOLD_PAST = re.compile(r"\b(?:was|were|got|went|came|ran|had|did|showed up|turned up)\b")
_TOLD = re.compile(r"\b(?:is|was|were|are|'s|been|had|has|did|got|went|came|ran|i|we|he|she|they|it)\b")
# a verdict that says whose it is ("suits me", "doesn't appeal to me", "my favourite", "not my thing")
_FIRST_PERSON_CUE = re.compile(r"\b(?:me|us|my|our)\b")


def _topic_question(sentence: str) -> str:
    text = sentence.strip().rstrip("?!. ")
    if not text or len(text.split()) > 5 or _NOT_A_TOPIC.match(text):
        return ""
    from ibachat.agent.reading.parse import parse

    if any(t.pos_ in ("VERB", "AUX", "PRON") and t.lower_ not in ("my", "our") for t in parse(text)):
        return ""
    return text


def _complained_of(prefs: list[OpenPref]) -> list[OpenPref]:
    """A thing read as wanted that its own sentence says is "too ADJ" or "not ADJ enough" is avoided when
    it is a kind of thing ("flights over 5 hours are too long for me": avoid flights over 5 hours), and
    is no wish at all when it is one outcome ("the pool was too cold for me": the complaint says it)."""
    from ibachat.agent.reading.complaints import complained_subject

    out = []
    for p in prefs:
        said = complained_subject(p.sentence) if p.polarity > 0 else None
        subj = clean(said[0]) if said else ""
        if said and p.phrase not in subj and re.search(rf"(?<!\w){re.escape(p.phrase)}(?!\w)", said[2]):
            continue  # "the pool was too cold for me": "cold" is what was wrong with it, no wish
        if not subj or not (p.phrase.startswith(subj) or subj.startswith(p.phrase)):
            out.append(p)
        elif said[1] and _usable(subj):
            out.append(
                OpenPref(subj, -1, max(p.strength, 2), p.sentence, "predicate", "", p.tags | {"complaint"})
            )
    return out


def _unwrapped(text: str) -> str:
    """A message that is one quotation from end to end, with no one named, is the user's own words."""
    s = text.strip()
    if len(s) > 2 and s[0] in '"“' and s[-1] in '"”' and not re.search(r"[\"“”]", s[1:-1]):
        return s[1:-1]
    return text


_DECLINE = re.compile(
    r"^(?:(?:god|oh|hell|ugh|um|hmm|ah|gosh|lord|christ|jeez|urgh|eh)[,!.]?\s+)+(?:no|nope|nah|never|please no)\b"
    r"|^(?:pass|hard pass|i'll pass|no chance|not a chance|not for me|not happening|absolutely not|definitely not)\b"
)
_OFFER = re.compile(
    # an offer to do something names what it would do: the object of whatever verb follows
    r"(?:(?:(?:shall|should) i|(?:do you )?want me to|would you like me to)(?: also| just)? [a-z]+"
    r"(?: (?:on|off|up|down|in|out|over))?"
    r"|how about|what about|would you like|do you want|i (?:could|can) (?:book|get|order|suggest|recommend)|"
    r"i'd (?:suggest|recommend)|maybe|perhaps|try) "
    r"(?!(?:ahead|now|then|later|again|anyway|instead|it|that|this|so|too|either|for you|with that)\b)"  # no thing
    r"(?P<obj>[^?.!]{3,80})"
)


def _offer(assistant_text: str) -> str:
    m = _OFFER.search(assistant_text)
    return clean(m.group("obj")) if m else ""


def _dedupe(prefs: list[OpenPref]) -> list[OpenPref]:
    seen: dict[tuple[str, int], OpenPref] = {}
    for p in prefs:
        key = (p.phrase, p.polarity)
        if key not in seen or seen[key].strength < p.strength:
            seen[key] = p
    kept = list(seen.values())
    # "wall and look out" read again inside "lean on the wall and look out": the same wish, once
    return [
        p
        for p in kept
        if not any(
            q is not p
            and q.sentence == p.sentence
            and q.polarity == p.polarity
            and p.phrase != q.phrase
            and re.search(r"\b(?:and|or)\b", p.phrase)  # a core of one thing ("flat-packed") stays
            and re.search(rf"(?<!\w){re.escape(p.phrase)}$", q.phrase)
            for q in kept
        )
    ]
