"""The user's stated preferences as a channel of their own, for a task that asks for a choice.

A request for a recommendation, a suggestion, a plan or an action ("what are some things to
do in Lisbon?", "book a table for Friday", "any good podcasts for the drive?") is shaped by
what the user has said they like, avoid, cannot do or simply are ("I can't stand heights",
"my husband uses a wheelchair"), and such a statement rarely shares a word with the
request. Neither BM25 nor the cosine floors see it as relevant, but among the user's own
statements about themselves it is often the closest to the task.

So, for such a task, the task's dense search is read deeper (``STATED_DEPTH``) and the
user's plain first-person statements form a channel: those with a preference cue, and those
that state a standing fact about the user or their household (``_describes_self``). Its best
``STATED_KEEP`` by cosine to the task are kept in the evidence (they take the place of the
lowest items that neither the task's own best hits nor this channel protect), and their
presence means memory bears on the task. A factual question ("what's the capital of
Peru?"), a question about the past ("what did I say about the hotel?") or about someone
else's choice ("what would Tim enjoy?") asks for no choice and gets none of this.

Both are read from the shape of sentences, not from a vocabulary of requests or of tastes
(``asks_for_choice``, ``_describes_self``): an imperative, a question seeking options, a
modal of advice, a need of the user's; a subject that is the user, a present tense. Closed
classes of English (pronouns, auxiliaries, determiners, the common irregular past forms)
are the only word lists, and a few words of judgement ("best", "worth") only sharpen a bare
question that the structure leaves undecided.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from ibachat.agent.retrieval.salience import detect_cues

if TYPE_CHECKING:
    from memory.types import Turn

STATED_DEPTH = 60  # the task's dense hits read for stated preferences
STATED_KEEP = 2  # the channel's best statements of taste kept in the evidence
READ_ENDS = 2000  # characters of a long task read at each end for its shape
FACT_KEEP = 1  # ... and its best standing fact about the user (``best_stated``)
# Cues that state a taste or a constraint (not a mention of time, not a habit alone).
STATED_CUES = frozenset({"preference", "rejection", "correction", "update", "temporary state"})

# What the user never does or will not do, in any verb ("I don't wear wool", "we never fly"):
# a constraint stated as a habit, which the taste cues (like, hate, avoid...) do not cover.
_AVOIDS = re.compile(
    r"\b(?:i|we) (?:really |just |also |still |strictly )?(?:do not|don't|never|no longer|refuse to|won't|"
    r"will not|can't|cannot|am unable to)\b",
    re.IGNORECASE,
)


# A question about someone else, by name ("what did Anna recommend?", "Anna's plans", "a book
# Tim might enjoy"), asks for what they chose or would choose, not for a choice for the user;
# unless the user is in it too. A name is a capitalised word outside the closed classes below
# that owns something or is the subject of a verb: "'s" after it, an auxiliary next to it, or
# a verb agreeing with it ("Tim likes"). Contractions of function words ("What's") are no one's.
_FUNCTION_CONTRACTION = re.compile(
    r"\b(what|where|who|how|when|why|which|it|that|there|here|she|he|this|one|everyone|someone|nothing|"
    r"something|anything|everything|today|tonight|tomorrow)'s\b",
    re.IGNORECASE,
)
_PERSONAL = re.compile(r"\b(?:i|i'm|i'd|i've|i'll|me|my|mine|myself|we|we're|we'd|us|our|ours)\b")
_ASSISTANT = re.compile(r"\b(?:you|your|you'd)\b")

# A request is read from the shape of its sentences, not from its topic words (module
# docstring). Closed classes of English, not a vocabulary of requests: what cannot open an
# imperative, what opens a question, what turns a question to the past, what makes it ask
# for advice (a modal), and what makes an imperative ask for an explanation (a clause).
_WH = frozenset("what which where who whom whose how when why".split())
_AUX = frozenset(
    "is are am was were be do does did have has had can could should would will shall may might must "
    "isn't aren't wasn't weren't don't doesn't didn't haven't hasn't hadn't can't couldn't shouldn't "
    "wouldn't won't".split()
)
_NOT_A_VERB = (
    _WH
    | _AUX
    | frozenset(
        "i i'm i'd i've i'll me my we we're we'd us our you your you'd he she it they them their his her "
        "this that these those there here the a an some any no every each all both either neither "
        "and or but so if because since as though although while when then also just really maybe "
        "perhaps not yes yeah yep ok okay hi hello hey thanks thank cheers sorry well oh wow great cool "
        "nice sure right in on at to for of from with about by after before into over under near according "
        "today tonight tomorrow yesterday now".split()
    )
)
_POLITE = re.compile(
    r"^(?:(?:please|pls|hey|hi|ok|okay|so|now|also|and|alright)[, ]+)*"
    r"(?:(?:can|could|would|will) you(?: please)? |would you mind |"
    r"do you mind |mind )?(?:please )?"
)
_PAST = frozenset("did was were had didn't wasn't weren't hadn't".split())
_ADVICE_MODALS = frozenset("should could would might shall".split())
_CLAUSE_OBJECT = frozenset("how what why when where whether if which who that about".split())
_BENEFICIARY = frozenset("me us him her them".split())
_SEEKING = re.compile(
    r"^(?:any|anything|is there|are there|got any|got a|(?:what|which|where) (?:is|are) (?:some|a few|a couple))\b"
)
# A word that asks for a judgement rather than a fact sharpens a bare question ("what's worth
# seeing?", "the best way to ..."); it never decides alone against the structure above.
_JUDGEMENT = re.compile(
    r"\b(?:recommend\w*|suggest\w*|advice|advise|ideas?|options?|tips?|worth|best|good|nice|fun|"
    r"ways? to|pick|choose|plan\w*)\b"
)


def _about_someone(raw: str) -> bool:
    """Whether a name, not the user, owns something or does something in ``raw`` (see above)."""
    tokens = re.findall(r"[\w']+", raw)
    for i, token in enumerate(tokens):
        name = token.removesuffix("'s")
        if not name[:1].isupper() or name.lower() in _NOT_A_VERB or not name[1:].islower():
            continue
        before = tokens[i - 1].lower() if i else ""
        after = tokens[i + 1] if i + 1 < len(tokens) else ""
        agrees = (
            after.islower() and after.endswith("s") and not after.endswith("ss") and after not in _NOT_A_VERB
        )
        reported = before == "to" and i > 1 and tokens[i - 2].lower() == "according"
        if token != name or before in _AUX or after.lower() in _AUX or agrees or reported:
            return True
    return False


def _normalised(sentence: str) -> list[str]:
    """Lower-cased words; an acronym in mixed text ("the US") keeps a mark, so it is no pronoun."""
    text = _FUNCTION_CONTRACTION.sub(lambda m: m.group(1) + " is", sentence.replace("\u2019", "'"))
    words = re.findall(r"[\w']+", text)
    shouting = all(not w.islower() for w in words)
    return [w.lower() if shouting or not (w.isupper() and len(w) > 1) else f"_{w.lower()}" for w in words]


def _sentence_asks(raw: str) -> bool:
    """Whether one sentence asks for something chosen, planned or done for the user."""
    words = _normalised(raw)
    if not words:
        return False
    text = " ".join(words)
    rest = words[len(_POLITE.match(text).group(0).split()) :]  # type: ignore[union-attr]  # always matches
    declarative = len(rest) > 1 and rest[1] in _AUX  # "minutes were read": a noun, then its verb
    if rest and rest[0] not in _NOT_A_VERB and not declarative:
        # an imperative ("book a table", "find me a hotel", "could you put together ..."): it asks
        # for a choice, unless what it asks for is a clause ("explain how ...", "tell me why ..."),
        # which is judged as the question it is; the user ("me") only receives the answer
        after = rest[2:] if rest[1:2] and rest[1] in _BENEFICIARY else rest[1:]
        if not after or after[0] not in _CLAUSE_OBJECT:
            return True
        words = after[1:] if after[0] == "about" else after
        if not words:
            return False
        text = " ".join(words)
    if _SEEKING.match(text):
        return True  # "any good podcasts?", "is there a nice hike ...?", "what are some ...?"
    if any(w in _PAST for w in (words[:3] if words[0] in _WH else words[:1])):
        return False  # a question about the past asks to recall, not to choose
    if any(w in _ADVICE_MODALS for w in words) or ("can" in words and _PERSONAL.search(text)):
        return True  # "what should I cook?", "what would work for ...?", "how can we ...?"
    question = raw.rstrip().endswith("?") or words[0] in _WH | _AUX
    if _PERSONAL.search(text) and not (question and any(w in _PAST for w in words)):
        return True  # "I need new running shoes", "what kind of dog suits my flat?"
    return bool(_JUDGEMENT.search(text))  # "what's worth seeing?"; "what's the capital of ...?" is not


def asks_for_choice(task: str) -> bool:
    """Whether ``task`` asks for something chosen or planned for the user: one of its sentences
    is a request (module docstring), and it is not about what someone else, by name, chose.
    A long task (a paste with a request around it) is read at its two ends."""
    if len(task) > 2 * READ_ENDS:  # whole sentences only, where the cut falls inside one
        head, tail = task[:READ_ENDS], task[-READ_ENDS:]
        head = head[: max(head.rfind(". "), head.rfind("? "), head.rfind("! ")) + 1] or head
        tail = tail[
            min((i for i in (tail.find(". "), tail.find("? "), tail.find("! ")) if i >= 0), default=-1) + 1 :
        ]
        task = head + "\n" + tail
    raw = _FUNCTION_CONTRACTION.sub(lambda m: m.group(1) + " is", task.replace("\u2019", "'"))
    text = " ".join(_normalised(raw))
    if _about_someone(raw) and not (_PERSONAL.search(text) or _ASSISTANT.search(text)):
        return False
    return any(_sentence_asks(s) for s in re.split(r"(?<=[.!?])\s+|\n+", task) if s.strip())


# A standing fact about the user, in any words: a sentence in the present whose subject is the
# user or their household ("I have a bad knee", "my daughter is allergic to nuts", "I'm on a
# tight budget") or that has the user undergo something ("crowds make me anxious", "loud bars
# aren't my scene"). What the user did ("I went hiking yesterday", "my sister got a puppy") is
# a story, and a sentence addressed to the other ("I'm so proud of you") is about them. Read
# from the sentence's shape: closed classes of English and the past tense's morphology.
_SELF_SUBJECT = frozenset("i we i'm we're i've we've my our".split())
_EXPERIENCER = frozenset("me my us our myself".split())
_LEAD = frozenset(
    "honestly also just really yeah yes well so and but actually personally frankly anyway tbh oh plus please "
    "though basically generally".split()
)
_SKIP = frozenset(
    "just really also still never always usually only totally definitely kind of kinda so".split()
)
_PAST_FORMS = frozenset(
    "was were did had went got saw made took came bought tried left said told gave found thought felt "
    "ran ate drank met spent wrote read heard sent kept began brought caught taught won lost sat "
    "stood paid fell flew drove rode swam slept woke knew grew threw wore chose broke became".split()
)
_MOMENT = re.compile(
    r"\b(?:today|tonight|yesterday|this (?:morning|afternoon|evening)|(?:this|on|next|last) "
    r"(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)|ago)\b",
    re.IGNORECASE,
)
_DETERMINERS = frozenset(
    "the a an some any no all this that these those every each my our your his her their".split()
)
_OBJECTS = frozenset("me us it them him her you".split())
_INTERLOCUTOR = frozenset("you your you're yours".split())


def _past(word: str) -> bool:
    return word in _PAST_FORMS or (word.endswith("ed") and not word.endswith("eed") and len(word) > 3)


def _describes_self(clause: str) -> bool:
    if _MOMENT.search(clause):
        return (
            False  # "I'm restless this Friday", "the kettle died on me today": a moment, not a standing fact
        )
    words = _normalised(clause)
    while words and words[0] in _LEAD:
        words = words[1:]
    if not words or _INTERLOCUTOR.intersection(words):
        return False
    rest = [w for w in words[1:] if w not in _SKIP and not w.endswith("ly")]
    if words[0] in ("my", "our"):  # "my daughter is ...": the first verb after the noun phrase
        verb = next((w for w in rest[1:4] if w in _AUX or _past(w) or w.endswith("s")), "")
        return bool(verb) and not _past(verb)
    if words[0] in ("i've", "we've"):
        return bool(rest) and rest[0] in ("been", "got")  # a state ("I've been vegan"), not an act
    if words[0] in _SELF_SUBJECT:
        return not (rest and _past(rest[0]))
    # the user undergoes it: "crowds make me anxious", "spicy food wrecks my stomach"
    # ... after a subject and its verb ("tell me a joke", "write an email to my boss" are the
    # user's requests: a first word with an object or a determiner straight after it)
    spot = next((i for i, w in enumerate(words) if w in _EXPERIENCER), None)
    if spot is None or spot < 2 or words[0] in _NOT_A_VERB - _DETERMINERS:
        return False
    if words[0] not in _DETERMINERS and words[1] in _DETERMINERS | _OBJECTS:
        return False
    return not any(w in _PAST_FORMS for w in words[:spot]) and not (spot and _past(words[spot - 1]))


def stated_kind(turn: Turn) -> str | None:
    """ "taste" for a plain first-person statement of the user's (not a question) with a cue of
    taste or constraint, "fact" for one that states a standing fact about the user
    (``_describes_self``), None for anything else."""
    if turn.role != "user":
        return None
    cues = detect_cues(turn.text)
    if not cues.first_person or cues.question:
        return None
    if STATED_CUES.intersection(cues.labels) or _AVOIDS.search(turn.text.replace("\u2019", "'")):
        return "taste"
    if any(_describes_self(c) for c in re.split(r"[.!;,\n]+", turn.text[:2000]) if c.strip()):
        return "fact"
    return None


def is_stated(turn: Turn) -> bool:
    """Whether the turn is a statement of the user's about their tastes or themselves (``stated_kind``)."""
    return stated_kind(turn) is not None


def best_stated(turns: Sequence[Turn], cosine: dict[int, float]) -> list[int]:
    """Ids of the stated preferences among ``turns`` that the task's dense search found, closest
    first: at most ``STATED_KEEP`` statements of taste and ``FACT_KEEP`` facts about the user.
    A fact says less about a choice than a stated taste, and a long history holds many (what the
    user is, has, is doing), so facts have a slot of their own and never take a taste's."""
    kinds = {t.id: stated_kind(t) for t in turns if t.id in cosine}
    ranked = sorted((i for i, kind in kinds.items() if kind), key=lambda i: -cosine[i])
    tastes = [i for i in ranked if kinds[i] == "taste"][:STATED_KEEP]
    return tastes + [i for i in ranked if kinds[i] == "fact"][:FACT_KEEP]
