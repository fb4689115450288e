"""Compositional wording for every cue kind, and the noise around the cues.

Each cue is an opener + a core template + a closer, with synonyms inside the core, so one
preference is voiced in many surface forms. ``render`` returns the text and a *form id* naming
the templates used; the suite's statistics count distinct form ids per cue kind.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

OPENERS = (
    "",
    "",
    "Oh, ",
    "By the way, ",
    "Also, ",
    "Btw, ",
    "Before I forget, ",
    "Quick thing: ",
    "FYI ",
    "Right, ",
)
CLOSERS = ("", "", "", " Thanks.", " Cheers.", " Just so you know.", " :)", " Okay?", " Ta.")
LIKE = ("prefer", "like", "always go for", "tend to go for", "stick to", "want")

CORES: dict[str, tuple[str, ...]] = {
    "statement": (
        "I {like} {p} when it comes to {t}.",
        "For {t}, I {like} {p}.",
        "with {t} I {like} {p}, just so you know.",
        "if you ever sort out {t} for me: {p}, please.",
        "note for the future: {t}, {p}.",
        "you should know I {like} {p} for {t}. Always have.",
        "my rule for {t} is simple: {p}.",
        "I'm very much a {p} person when it comes to {t}.",
        "when it's {t}, {p} every time.",
        "I've always done {p} for {t}, it just works for me.",
    ),
    "statement_have": (
        "I have {p}, just so you know.",
        "remember I've got {p}.",
        "for {t}: I have {p}.",
        "quick health note, I have {p}.",
        "I should mention I have {p}.",
        "keep in mind I have {p} when it comes to {t}.",
        "you should know I live with {p}.",
        "I've got {p}, so please plan around it.",
    ),
    "statement_need": (
        "I need {p}, just so you know.",
        "remember I always need {p}.",
        "for {t}: I need {p}.",
        "I should mention I need {p}.",
        "please keep in mind I need {p}.",
        "whenever you book anything, I need {p}.",
        "you should know I need {p} when it comes to {t}.",
        "one thing to remember: {p}, always.",
    ),
    "statement_usually": (
        "it's usually {p}.",
        "normally it's {p} when it comes to {t}.",
        "for {t}, it's {p} most of the time.",
        "we're nearly always {p}.",
        "just so you know, it's {p} as a rule.",
        "when we go out, it's {p}.",
        "assume {p} unless I say otherwise.",
        "plan for {p}, that's our usual.",
    ),
    "update": (
        "I've switched to {p} for {t} instead of {o}.",
        "change of plan on {t}: from now on it's {p}.",
        "heads up, things have changed with {t}. {P} from now on.",
        "I used to go for {o}, but these days it's {p} for {t}.",
        "please note {t} is now {p} for me, not {o} like before.",
        "since {reason}, I'm going with {p} for {t}.",
        "new me: {p} for {t}. The {o} days are over.",
        "going forward it's {p} for {t}, please. The old way's done.",
        "I've gone off {o}. {P} for {t} from now on.",
        "update your notes: {t} means {p} now.",
    ),
    "correction": (
        "No, {p}, not {w}.",
        "That's wrong, I always have {p}.",
        "Hmm, can you change that to {p}? You should know that by now.",
        "Not {w}. {P}, please, same as always.",
        "Wait, {p} please. {W} never works for me.",
        "Please fix that: {p}, like every time.",
        "Ugh, {w} again? It's {p} for me.",
        "Could you redo it with {p}? That's how I always want {t}.",
        "Small correction: {p}, not {w}.",
        "No no, {p}. I've told you before.",
    ),
    "rejection": (
        "No thanks, not {w}.",
        "Please never suggest {w} to me.",
        "{W}? No way.",
        "I'll pass on {w}, it's not for me.",
        "Hard no on {w}.",
        "Definitely not {w}. Don't offer that again.",
        "Nope. {W} just doesn't work for me.",
        "I'd rather not do {w}, ever.",
        "Skip {w}, please. I don't want that for {t}.",
        "{W} is a no from me, now and always.",
    ),
    "exception": (
        "This one's for {guest}, so make it {x} just this once.",
        "Just for today, {x}. {Guest} is joining me.",
        "One-off: {x}, it's for {guest}. Back to normal next time.",
        "Make an exception today and go with {x}; {guest} is visiting.",
        "Not my usual, {x} this time, because it's for {guest}.",
        "{Guest} is staying over, so {x} for this one only.",
        "Only this time: {x}. It's {guest}'s choice.",
        "Treat this as a one-time thing: {x} for {guest}.",
        "Since {guest} is with me, {x} today. Don't remember it as my thing.",
        "It's {guest}'s order really, so {x}.",
        "Special request from {guest}: {x}. Just today.",
        "Going with {x} for {guest}, not for me.",
        "{Guest} asked for {x}, so do that this time only.",
        "Exception today: {x}, {guest} is paying.",
    ),
    "suggest": (
        "How about {w}?",
        "Would {w} work this time?",
        "I could go with {w}. Shall I?",
        "Maybe {w} for a change?",
        "Want me to pick {w}?",
        "There's {w} available, if you like.",
        "{W} is a popular choice here. Go with that?",
    ),
    "propose": (
        "I'll set it up with {w}, okay?",
        "Going with {w} unless you say otherwise.",
        "I've put {w}. Good to go?",
        "Doing it with {w} then.",
        "Shall I confirm with {w}?",
        "Set to {w}. Confirm?",
    ),
    "inline": (
        "{P} as usual.",
        "Same as always, {p}.",
        "({p}, obviously)",
        "{P}, like last time.",
        "And {p}, you know me.",
        "{P} please.",
    ),
}
REASONS = (
    "my doctor had a word with me",
    "I moved flats",
    "things changed at work",
    "I tried it for a month and loved it",
    "my budget changed",
    "my partner got me into it",
    "I read up on it",
)
ACKS = (
    "Got it.",
    "Noted.",
    "Understood, I'll remember that.",
    "Okay, noted for next time.",
    "Makes sense.",
    "Thanks for telling me.",
    "Sure thing.",
    "Right, I'll keep that in mind.",
)
CONFIRMS = (
    "Done. Reference {ref}.",
    "All set ({ref}).",
    "That's booked, ref {ref}.",
    "Confirmed: {ref}.",
    "Sorted. Your reference is {ref}.",
    "Done and done ({ref}).",
)


def cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def after_opener(opener: str, text: str) -> str:
    """``text`` joined to ``opener``: capitalised alone, lower-cased after an opener (keeping I, HIIT...)."""
    if not opener:
        return cap(text)
    keep = text[:2] in ("I ", "I'") or text[1:2].isupper()
    return opener + (text if keep else text[:1].lower() + text[1:])


def _fill(template: str, slots: dict[str, str]) -> str:
    full = dict(slots)
    for key, value in slots.items():
        full[key.upper()] = full[key.capitalize()] = cap(value)
    return template.format(**full)


def render(kind: str, rng: random.Random, slots: dict[str, str], *, framed: bool = True) -> tuple[str, str]:
    """One cue of ``kind`` with ``slots`` (p, o, w, x, t, guest...); returns (text, form id)."""
    cores = CORES[kind]
    ci = rng.randrange(len(cores))
    slots = dict(slots)
    slots.setdefault("like", rng.choice(LIKE))
    slots.setdefault("reason", rng.choice(REASONS))
    core = _fill(cores[ci], slots)
    if not framed:
        return cap(core), f"{kind}:c{ci}"
    oi, ei = rng.randrange(len(OPENERS)), rng.randrange(len(CLOSERS))
    return after_opener(OPENERS[oi], core) + CLOSERS[ei], f"{kind}:o{oi}:c{ci}:e{ei}"


def render_template(
    template: str, rng: random.Random, slots: dict[str, str], kind: str, key: str
) -> tuple[str, str]:
    """A dimension's own line (behaviour asks), framed by an opener and closer."""
    oi, ei = rng.randrange(len(OPENERS)), rng.randrange(len(CLOSERS))
    return after_opener(OPENERS[oi], _fill(template, slots)) + CLOSERS[ei], f"{kind}:{key}:o{oi}:e{ei}"


def pick(rng: random.Random, options: Sequence[str]) -> str:
    return options[rng.randrange(len(options))]


# ---------------------------------------------------------------- distractors

DISTRACTORS = (
    "{rel} swears by {p}. Not sure why.",
    "{rel} is all about {p} these days.",
    "{rel} asked me about {t} and said they always go for {p}.",
    "Funny, {rel_l} insists on {p}. Each to their own.",
    "Had a debate about {t} with {rel_l}; apparently {p} is the only way.",
    "{rel} keeps telling me to try {p}.",
    "{rel} was raving about {p} at dinner.",
    "Not me, but {rel_l} would pick {p} every time.",
)


def distractor(rng: random.Random, rel: str, phrase: str, topic: str) -> tuple[str, str]:
    """A third person's preference: noise that names a preference which is not the user's."""
    i = rng.randrange(len(DISTRACTORS))
    text = DISTRACTORS[i].format(rel=rel, rel_l=rel[0].lower() + rel[1:], p=phrase, t=topic)
    return text, f"distractor:c{i}"
