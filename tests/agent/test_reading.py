"""Held-out sets of user utterances and how the floor must read them.

Written by hand, in varied registers, without looking at the benchmark generator's phrase
lists: clause scope of polarity and negation, comparatives and "too X", the kind of event,
temporary states and when they end, one-off scope, who is speaking, and small talk that
must create no preference at all. Three sets, each written before the floor was changed
for it: CASES (measured on the old floor first), FRESH (written after the first round of
changes) and BLIND (written last, never tuned on; what it still misreads is marked
``unsolved``). ``python tests/agent/test_reading.py [-v]`` prints the accuracy per category.
"""

from __future__ import annotations

import sys
from collections import Counter
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta, timezone

import pytest

from ibachat.agent.reading.events import extract_events
from memory.ledger import PreferenceEvent
from memory.types import Turn

T = datetime(2025, 3, 12, 15, 0, tzinfo=timezone.utc)  # a Wednesday afternoon
APPLIED = ("stated", "asked", "corrected", "rejected", "updated", "state", "chose")


@dataclass(frozen=True)
class Want:
    dimension: str
    value: str
    polarity: int
    kind: str | None = None  # None: any kind the user's words can have
    scope: str = "general"
    until: date | None = None  # the (exclusive) end of a state, as a date


@dataclass(frozen=True)
class Case:
    category: str
    text: str
    wants: tuple[Want, ...] = ()
    prior: str = ""  # the assistant's turn just before, if any
    role: str = "user"
    unsolved: str = field(default="", compare=False)  # why the floor cannot read it yet (an expected failure)


def W(dim: str, value: str, pol: int, **kw: object) -> Want:
    return Want(dim, value, pol, **kw)  # type: ignore[arg-type]


def C(
    category: str, text: str, *wants: Want, prior: str = "", role: str = "user", unsolved: str = ""
) -> Case:
    return Case(category, text, tuple(wants), prior, role, unsolved)


CASES: tuple[Case, ...] = (
    # ---- clause scope: a cue or a negation stays inside its own clause
    C("clause", "I'm vegan and honestly I can't stand crowded bars", W("food.diet", "vegan", 1)),
    C(
        "clause",
        "I don't eat meat but I love spicy food",
        W("food.diet", "meat", -1),
        W("food.spice", "hot", 1),
    ),
    C(
        "clause",
        "Window seats are great, while the middle seat is just awful",
        W("travel.seat", "window", 1),
        W("travel.seat", "middle", -1),
    ),
    C(
        "clause",
        "I'm fine with economy; what I hate is layovers",
        W("travel.class", "economy", 0),
        W("travel.stops", "connecting", -1),
    ),
    C(
        "clause",
        "Bullet points work best for me, whereas walls of text just annoy me",
        W("text.structure", "bullets", 1),
        W("text.length", "long", -1),
    ),
    C("clause", "I don't drink alcohol, and my husband loves wine", W("drink.alcohol", "alcohol", -1)),
    C(
        "clause",
        "Not a fan of aisle seats; window is the one for me",
        W("travel.seat", "aisle", -1),
        W("travel.seat", "window", 1),
    ),
    C(
        "clause",
        "I love my coffee hot, but I never add sugar",
        W("drink.temperature", "hot", 1),
        W("drink.sweetness", "regular", -1),
    ),
    C(
        "clause",
        "I never fly business, but I do always get a window seat",
        W("travel.class", "business", -1),
        W("travel.seat", "window", 1),
    ),
    C(
        "clause",
        "Email replies should be short and I don't want any emojis",
        W("text.length", "short", 1),
        W("text.emoji", "emoji", -1),
    ),
    C(
        "clause",
        "I'm happy with a middle seat although I'd never pick it myself",
        W("travel.seat", "middle", 0),
    ),
    # ---- comparatives, superlatives, "too X", conditionals
    C(
        "compare",
        "Honestly the hotter the better, if my eyes aren't watering it's too mild.",
        W("food.spice", "hot", 1),
        W("food.spice", "mild", -1),
    ),
    C("compare", "The cheaper the better when it comes to hotels", W("price.level", "budget", 1)),
    C("compare", "Nothing too fancy, I'm not trying to impress anyone", W("price.level", "premium", -1)),
    C("compare", "That curry last week was way too mild for me", W("food.spice", "mild", -1)),
    C("compare", "Shorter is better, nobody reads long emails", W("text.length", "short", 1)),
    C("compare", "If it's not spicy, what's the point?", W("food.spice", "hot", 1)),
    C("compare", "Bigger portions, always. I'm constantly starving", W("size", "large", 1)),
    C("compare", "If there's a nonstop option, take it", W("travel.stops", "nonstop", 1)),
    C("compare", "Answers that are too long drive me nuts", W("text.length", "long", -1)),
    C("compare", "You can't be too careful with peanuts, I react badly", W("food.allergen", "peanut", -1)),
    C("compare", "Milder is better for me these days", W("food.spice", "mild", 1)),
    C(
        "compare",
        "The less formal the better, we're all friends here",
        W("text.formality", "casual", 1),
        unsolved="no word says it is about writing: a dress code reads the same",
    ),
    # ---- kind: corrections, rejections, updates
    C(
        "kind",
        "no no, window please",
        W("travel.seat", "aisle", -1, kind="rejected"),
        W("travel.seat", "window", 1),
        prior="I've booked you an aisle seat for Tuesday.",
    ),
    C(
        "kind",
        "Correction: I said oat milk, not almond",
        W("drink.milk", "oat", 1, kind="corrected"),
        W("drink.milk", "almond", -1),
    ),
    C("kind", "I've switched to decaf these days", W("drink.caffeine", "decaf", 1, kind="updated")),
    C(
        "kind",
        "I used to love red-eye flights, not any more",
        W("schedule.time_of_day", "night", 0, kind="updated"),
    ),
    C(
        "kind",
        "nah, something milder",
        W("food.spice", "hot", -1, kind="rejected"),
        prior="Would you like the spicy ramen again?",
    ),
    C("kind", "From now on, keep emails formal", W("text.formality", "formal", 1, kind="updated")),
    C("kind", "I'm no longer doing dairy", W("food.allergen", "dairy", -1, kind="updated")),
    # ---- time: temporary states and their ends
    C(
        "time",
        "Got my wisdom teeth out yesterday, so soft food only for the next week please",
        W("food.texture", "soft", 1, kind="state", until=date(2025, 3, 19)),
    ),
    C(
        "time",
        "I'm on crutches until the end of the month, so low impact workouts for now",
        W("exercise.intensity", "low", 1, kind="state", until=date(2025, 4, 1)),
    ),
    C(
        "time",
        "No booze for me till April 5th, doing a cleanse",
        W("drink.alcohol", "alcohol", -1, kind="state", until=date(2025, 4, 6)),
    ),
    C(
        "time",
        "This week I'm sticking to decaf, sleep's been terrible",
        W("drink.caffeine", "decaf", 1, kind="state", until=date(2025, 3, 17)),
    ),
    C(
        "time",
        "For the next few days I'd like shorter replies, I'm swamped",
        W("text.length", "short", 1, kind="state", until=date(2025, 3, 15)),
    ),
    C(
        "time",
        "Recovering from a stomach bug, keep my meals bland through Sunday",
        W("food.spice", "none", 1, kind="state", until=date(2025, 3, 17)),
    ),
    # ---- scope: one-off exceptions
    C(
        "scope",
        "Book a window seat for my guest, just this once",
        W("travel.seat", "window", 1, scope="one-off"),
    ),
    C("scope", "Order a decaf for my mum", W("drink.caffeine", "decaf", 1, scope="one-off")),
    C(
        "scope",
        "Just for tonight let's do somewhere fancy, it's our anniversary",
        W("price.level", "premium", 1, scope="one-off"),
    ),
    C("scope", "Get vegan options for the team lunch", W("food.diet", "vegan", 1, scope="one-off")),
    C("scope", "I'll have a large this time, as a treat", W("size", "large", 1, scope="one-off")),
    # ---- speaker: assistant claims, pasted or quoted text, other people
    C("speaker", "You seem to really like spicy food!", role="assistant"),
    C("speaker", 'My sister messaged: "I hate aisle seats, always get me a window."'),
    C(
        "speaker",
        "Can you proofread this? 'Dear team, please note that I prefer formal emails and no emojis.'",
    ),
    C("speaker", "My wife hates spicy food", W("food.spice", "medium", -1, scope="for:wife")),
    C("speaker", "We both love window seats", W("travel.seat", "window", 1)),
    C(
        "speaker",
        "My boss insists on formal emails, but I prefer casual ones",
        W("text.formality", "casual", 1),
    ),
    C("speaker", "Search results: most travellers prefer aisle seats.", role="tool"),
    C("speaker", "He always orders the spicy wings"),
    # ---- register: terse, chatty, typos, emoji, British and American, indirect
    C("register", "luv oat milk 🥛😍", W("drink.milk", "oat", 1)),
    C("register", "no emojis pls!!", W("text.emoji", "emoji", -1)),
    C("register", "ugh layovers. never again", W("travel.stops", "connecting", -1)),
    C("register", "defo a window seat person", W("travel.seat", "window", 1)),
    C(
        "register",
        "I'd rather not fly first thing in the morning tbh",
        W("schedule.time_of_day", "early_morning", -1),
    ),
    C("register", "Kinda hate it when replies are super long", W("text.length", "long", -1)),
    C("register", "Could you keep it brief? cheers", W("text.length", "short", 1)),
    C("register", "Vegetarian btw, in case it matters", W("food.diet", "vegetarian", 1)),
    C("register", "I'm a sucker for anything with chilli", W("food.spice", "hot", 1)),
    C(
        "register",
        "Aisle, always. Can't do windows",
        W("travel.seat", "aisle", 1),
        W("travel.seat", "window", -1),
    ),
    C("register", "honestly gluten wrecks me", W("food.allergen", "gluten", -1)),
    C("register", "cheap n cheerful is my vibe for hotels", W("price.level", "budget", 1)),
    C("register", "Whole milk in my tea, mate, none of that skimmed rubbish", W("drink.milk", "whole", 1)),
    # ---- negatives: preference words in small talk, other people, reported speech
    C("negative", "the spicy chicken meme was hilarious"),
    C("negative", "my friend only flies aisle"),
    C("negative", "aisle 5 had the milk"),
    C("negative", "she said she'd book window seats"),
    C("negative", "The window in my office won't close, it's freezing"),
    C("negative", "Our cat loves sitting in the sunny window"),
    C("negative", "Traffic was heavy this morning, took ages"),
    C("negative", "Did you see the first class of the new cooking course?"),
    C("negative", "Business has been slow this quarter"),
    C("negative", "Watched a documentary about hot springs last night"),
    C("negative", "The brief was due yesterday and my manager loves long meetings"),
    C("negative", "I'm reading a book called The Long Walk"),
    C("negative", "Is the coffee machine on the second floor still broken?"),
    C("negative", "lol my brother ordered the hottest wings and cried"),
    C("negative", "Anyway, the meeting ran long again"),
    C("negative", "They served decaf by mistake at the conference, nobody noticed"),
    C("negative", "What's the difference between a latte and a flat white?"),
    C("negative", "Mum says she's gone vegan"),
    C("negative", "My colleague keeps sending me walls of text"),
    C("negative", "The kids spilled hot chocolate all over the sofa"),
)

# Written after the floor was changed for CASES, and measured once before any further change:
# the honest figure for wordings the floor has never seen.
FRESH: tuple[Case, ...] = (
    C(
        "clause",
        "I'm lactose intolerant so oat milk it is, and my partner swears by whole milk",
        W("food.allergen", "dairy", -1),
        W("drink.milk", "oat", 1),
    ),
    C(
        "clause",
        "Morning meetings are fine but afternoons are a struggle",
        W("schedule.time_of_day", "morning", 0),
        W("schedule.time_of_day", "afternoon", -1),
    ),
    C(
        "clause",
        "We don't do connecting flights; nonstop or nothing",
        W("travel.stops", "connecting", -1),
        W("travel.stops", "nonstop", 1),
    ),
    C("clause", "Love a good curry but please, nothing too hot", W("food.spice", "hot", -1)),
    C("clause", "I'm pescatarian, although my kids eat everything", W("food.diet", "pescatarian", 1)),
    C("compare", "The spicier the better tbh", W("food.spice", "hot", 1)),
    C("compare", "The bigger the portion, the happier I am", W("size", "large", 1)),
    C("compare", "Way too sweet for me, that frappe", W("drink.sweetness", "regular", -1)),
    C("compare", "Nothing too long please, I read these on my phone", W("text.length", "long", -1)),
    C("compare", "If they have a window seat, grab it", W("travel.seat", "window", 1)),
    C("compare", "If it comes with nuts, forget it", W("food.allergen", "tree_nut", -1)),
    C("compare", "Cheaper is always better for me", W("price.level", "budget", 1)),
    C(
        "kind",
        "Nope, casual please",
        W("text.formality", "formal", -1, kind="rejected"),
        W("text.formality", "casual", 1),
        prior="I've set the tone of your replies to formal.",
    ),
    C("kind", "Actually I prefer aisle seats now", W("travel.seat", "aisle", 1)),
    C("kind", "I've given up sugar in my tea", W("drink.sweetness", "regular", -1, kind="updated")),
    C("kind", "I don't do red-eyes anymore", W("schedule.time_of_day", "night", -1, kind="updated")),
    C(
        "time",
        "Just had knee surgery, so gentle workouts only for the next six weeks",
        W("exercise.intensity", "low", 1, kind="state", until=date(2025, 4, 23)),
    ),
    C(
        "time",
        "Not drinking until May, training for a marathon",
        W("drink.alcohol", "alcohol", -1, kind="state", until=date(2025, 5, 1)),
    ),
    C(
        "time",
        "Sore throat at the moment, so soft food for a few days",
        W("food.texture", "soft", 1, kind="state", until=date(2025, 3, 15)),
    ),
    C(
        "time",
        "Till the end of next week, keep my emails short",
        W("text.length", "short", 1, kind="state", until=date(2025, 3, 24)),
    ),
    C("scope", "Get my dad a large black coffee", W("drink.milk", "none", 1, scope="one-off")),
    C("scope", "Make it vegetarian for my in-laws", W("food.diet", "vegetarian", 1, scope="one-off")),
    C("scope", "Just this once I'll fly business", W("travel.class", "business", 1, scope="one-off")),
    C("scope", "Book the cheapest option for my colleague", W("price.level", "budget", 1, scope="one-off")),
    C("speaker", "Since you prefer window seats, I booked 12A.", role="assistant"),
    C("speaker", "The review said 'the spiciest ramen in town, an absolute must for chilli lovers'"),
    C("speaker", "My flatmate can't stand the cold brew I make"),
    C("speaker", "We always go for the tasting menu and we love spicy stuff", W("food.spice", "hot", 1)),
    C("speaker", "Menu: mild, medium and hot options available.", role="tool"),
    C("speaker", "Forwarding this: Hi, we'd love bullet points in all future reports."),
    C("register", "deffo no mayo… and NO spicy stuff!!!", W("food.spice", "medium", -1)),
    C("register", "Iced oat latte pls 🙏", W("drink.temperature", "iced", 1), W("drink.milk", "oat", 1)),
    C("register", "nah mate, economy's grand", W("travel.class", "economy", 0)),
    C("register", "tbh i'm not bothered about seats"),
    C("register", "Aisle pls, I'm up and down all flight lol", W("travel.seat", "aisle", 1)),
    C("register", "Can u stop with the emojis", W("text.emoji", "emoji", -1)),
    C("register", "Colour me a fan of bullet points 👍", W("text.structure", "bullets", 1)),
    C("negative", "I saw a plane with a massive window at the museum"),
    C("negative", "My aisle at the supermarket was blocked by a pallet"),
    C("negative", "The hot water in the flat is broken again"),
    C("negative", "He's going vegan for a month, wish him luck"),
    C("negative", "Our team's first class reunion is next week"),
    C("negative", "The long queue at the bank was ridiculous"),
    C("negative", "Is it true that chillies were brought to Asia by traders?"),
    C("negative", "Mum said the decaf at the café is terrible"),
    C("negative", "The kids love sitting by the window on the bus"),
    C("negative", "I'm watching a show called Hot Ones"),
    C("negative", "My sister's allergic to peanuts, poor thing"),
    C("negative", "Short on time today, talk later"),
)

# A last set, written and measured once after all the changes above, never tuned on: the cases the
# floor still misreads are marked ``unsolved`` with why.
BLIND: tuple[Case, ...] = (
    C(
        "clause",
        "Decaf in the evenings, and I don't take sugar",
        W("drink.caffeine", "decaf", 1),
        W("drink.sweetness", "regular", -1),
        unsolved="a verbless habit ('Decaf in the evenings') has no cue; 'take' is not read as a verb of having",
    ),
    C(
        "clause",
        "Economy is fine for short hops, but on long flights I want business",
        W("travel.class", "business", 1),
        unsolved="a bare 'business' is not a cabin in the lexicon (only 'business class', 'fly business')",
    ),
    C("clause", "I never order large portions, yet I always end up hungry", W("size", "large", -1)),
    C("compare", "The fewer layovers the better", W("travel.stops", "connecting", -1)),
    C(
        "compare",
        "Anything hotter than medium is too much for me",
        W("food.spice", "hot", -1),
        unsolved="a threshold ('hotter than medium') is not read",
    ),
    C(
        "compare",
        "Shorter replies would be nicer",
        W("text.length", "short", 1),
        unsolved="'would be nicer' is no cue: comparatives of evaluative words are not read",
    ),
    C("compare", "Make it less sweet next time", W("drink.sweetness", "less", 1)),
    C(
        "kind",
        "Ugh, I asked for an aisle",
        W("travel.seat", "aisle", 1),
        W("travel.seat", "window", -1),
        prior="Booked you a window seat, 14A.",
    ),
    C(
        "kind",
        "Scratch that, make it a medium",
        W("size", "medium", 1, kind="corrected"),
        prior="One large latte coming up.",
    ),
    C(
        "kind",
        "I've stopped drinking coffee with milk, it's black for me now",
        W("drink.milk", "none", 1, kind="updated"),
    ),
    C(
        "time",
        "Broke my wrist last week, so nothing high-impact for six weeks",
        W("exercise.intensity", "high", -1, kind="state", until=date(2025, 4, 23)),
        unsolved="exercise words need a fitness word nearby, and none is said (the injury's own defaults apply)",
    ),
    C(
        "time",
        "Keep messages short while I'm travelling this week",
        W("text.length", "short", 1, kind="state", until=date(2025, 3, 17)),
    ),
    C("scope", "Order a vegan meal for my sister", W("food.diet", "vegan", 1, scope="one-off")),
    C("scope", "Get a large for Tom", W("size", "large", 1, scope="one-off")),
    C("speaker", "You mentioned you prefer aisle seats.", role="assistant"),
    C("speaker", "My husband always asks for extra spicy"),
    C("speaker", 'The menu says "mild, medium or hot"'),
    C("speaker", "We're both vegetarian", W("food.diet", "vegetarian", 1)),
    C("register", "v keen on window seats tbh", W("travel.seat", "window", 1)),
    C("register", "NO MORE LAYOVERS PLEASE", W("travel.stops", "connecting", -1)),
    C("register", "can we do brief answers pls, im skimming", W("text.length", "short", 1)),
    C("register", "oat milk ftw 🙌", W("drink.milk", "oat", 1)),
    C(
        "register",
        "gimme a window seat",
        W("travel.seat", "window", 1),
        unsolved="'gimme' is not spelt out",
    ),
    C("negative", "The bakery's window display was lovely today"),
    C("negative", "I read an article about spicy food and heart health"),
    C("negative", "Their new album is short but sweet"),
    C(
        "negative",
        "Aisle 3 has the gluten-free pasta",
        unsolved="'X-free' reads as a wish even in a remark about a shop",
    ),
    C("negative", "My boss is vegan so the team lunch was all plant-based"),
    C("negative", "Watching a film about a chef who hates spicy food"),
    C("negative", "Early morning fog delayed our flight"),
)


def read(case: Case) -> list[PreferenceEvent]:
    turns = []
    if case.prior:
        turns.append(Turn(1, "s", "assistant", case.prior, T - timedelta(minutes=1)))
    turns.append(Turn(2, "s", case.role, case.text, T))
    return extract_events(turns)


def _applies(e: PreferenceEvent) -> bool:
    """An event that would shape the user's own future actions."""
    return e.speaker == "user" and e.kind in APPLIED and e.scope == "general"


def problems(case: Case) -> list[str]:
    """How the floor's reading of ``case`` differs from the expected one ([] when it is right)."""
    evs = read(case)
    got = [(e.dimension, e.value, e.polarity, e.kind, e.scope) for e in evs]
    out: list[str] = []
    if not case.wants:
        applied = [g for g, e in zip(got, evs) if _applies(e)]
        return [f"no preference expected, got {applied}"] if applied else []
    for w in case.wants:
        hits = [
            e
            for e in evs
            if (e.dimension, e.value, e.polarity) == (w.dimension, w.value, w.polarity)
            and e.speaker == "user"
            and e.kind in APPLIED
            and (w.kind is None or e.kind == w.kind)
            and e.scope == w.scope
            and (w.until is None or (e.valid_until is not None and e.valid_until.date() == w.until))
        ]
        if not hits:
            out.append(f"missing {w}; got {got}")
        clash = [
            e
            for e in evs
            if _applies(e)
            and (e.dimension, e.value) == (w.dimension, w.value)
            and (w.scope == "one-off" or e.polarity != w.polarity)
        ]
        if clash:
            out.append(f"contradicts {w}: {[(e.value, e.polarity, e.kind, e.scope) for e in clash]}")
    return out


def _params(cases: tuple[Case, ...], prefix: str) -> list[object]:
    return [
        pytest.param(
            c,
            id=f"{prefix}{c.category}-{i}",
            marks=[pytest.mark.xfail(strict=True, reason=c.unsolved)] if c.unsolved else [],
        )
        for i, c in enumerate(cases)
    ]


@pytest.mark.parametrize("case", _params(CASES, "") + _params(FRESH, "fresh-") + _params(BLIND, "blind-"))
def test_reading(case: Case) -> None:
    assert problems(case) == [], case.text


def test_the_set_is_big_and_varied_enough() -> None:
    counts = Counter(c.category for c in CASES)
    assert len(CASES) >= 60 and counts["negative"] >= 15
    assert len(counts) == 8 and min(counts.values()) >= 5


def report(cases: tuple[Case, ...] = CASES) -> dict[str, tuple[int, int]]:
    """category -> (right, total)."""
    out: dict[str, tuple[int, int]] = {}
    for case in cases:
        right, total = out.get(case.category, (0, 0))
        out[case.category] = (right + (not problems(case)), total + 1)
    return out


if __name__ == "__main__":
    verbose = "-v" in sys.argv
    for title, cases in (("held-out", CASES), ("fresh", FRESH), ("blind", BLIND)):
        scores = report(cases)
        print(title)
        for cat, (right, total) in scores.items():
            print(f"  {cat:10s} {right:3d}/{total:<3d} {right / total:6.1%}")
        right = sum(r for r, _ in scores.values())
        total = sum(t for _, t in scores.values())
        print(f"  {'all':10s} {right:3d}/{total:<3d} {right / total:6.1%}")
        if verbose:
            for case in cases:
                for p in problems(case):
                    print(f"  [{case.category}] {case.text!r}: {p}")
