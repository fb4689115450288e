"""Short-term states: dated episodes that override long-term preferences while they last."""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from bench.generator.phrasing import CLOSERS, OPENERS, after_opener


@dataclass(frozen=True)
class State:
    key: str
    overrides: dict[str, tuple[Any, ...]]  # dim -> allowed values while the state lasts (first = typical)
    days: tuple[int, int]
    cores: tuple[str, ...]  # announcement templates: {when}, {dur}
    acks: tuple[str, ...]
    can_be_past: bool = True  # may appear as an already-finished episode in the history
    after_ok: bool = True  # tasks may be set after it ends


STATES: tuple[State, ...] = (
    State(
        "tooth_extraction",
        {"food.spice": ("none", "mild"), "food.texture": ("soft",)},
        (6, 14),
        (
            "Had a wisdom tooth pulled {when}. The dentist says soft food and nothing spicy {dur}.",
            "Ugh, tooth extraction {when}. I can barely chew, and spicy stuff stings. It'll be like this {dur}.",
            "Dentist took a molar out {when}; no crunchy or spicy food {dur}, apparently.",
            "My jaw is killing me after the extraction {when}. Soft, bland food only {dur}.",
        ),
        (
            "Ouch, take it easy. I'll keep food soft and mild for now.",
            "Sorry, that sounds painful. Soft and mild it is while you heal.",
        ),
    ),
    State(
        "sprained_ankle",
        {
            "workout.impact": ("low",),
            "workout.intensity": ("low",),
            "health.activity": ("swimming", "yoga"),
            "tickets.seat": ("aisle",),
            "hotel.floor": ("low",),
        },
        (14, 35),
        (
            "Sprained my ankle badly {when}. Physio says no running or jumping {dur}, swimming and yoga are fine.",
            "Rolled my ankle {when}, it's strapped up. I'm limping {dur} at least, so no stairs and nothing high-impact.",
            "Twisted my ankle {when}. Doctor's orders: low-impact only, like the pool or gentle yoga, {dur}.",
            "I'm on crutches {dur} after spraining my ankle {when}. Aisle seats and ground floors for me.",
        ),
        (
            "Oh no! Rest up. I'll keep things gentle and step-free.",
            "Sorry to hear that. Low-impact and easy access for now.",
        ),
    ),
    State(
        "knee_surgery",
        {
            "travel.seat": ("aisle",),
            "workout.goal": ("rehab",),
            "workout.impact": ("low",),
            "access.mobility": ("limited", "wheelchair"),
            "ride.type": ("comfort", "xl", "premium"),
        },
        (28, 56),
        (
            "Knee surgery went fine {when}. I need to keep the leg stretched out and do rehab exercises {dur}.",
            "Had my knee operated on {when}. Crutches, no stairs and lots of legroom {dur}.",
            "Post-op life: the knee surgery was {when} and recovery takes {dur}. Step-free everything, please.",
            "They fixed my knee {when}. Physio plan only, and I need space for my leg {dur}.",
        ),
        (
            "Glad it went well. I'll plan around the knee.",
            "Take care of that knee. Step-free and roomy it is.",
        ),
    ),
    State(
        "pregnancy",
        {
            "drink.caffeine": ("decaf",),
            "workout.impact": ("low",),
            "workout.intensity": ("low", "moderate"),
            "travel.seat": ("aisle",),
        },
        (150, 200),
        (
            "Big news: I'm pregnant! Found out {when}. No caffeine and only gentle exercise {dur}, the midwife says.",
            "I'm expecting, we heard {when}! The midwife says cut out caffeine and keep workouts gentle {dur}.",
            "Pregnancy confirmed {when}. Decaf only and aisle seats (so many loo trips) {dur}.",
            "So... I'm pregnant. Learned {when}. Low-impact exercise and decaf {dur}.",
        ),
        ("Congratulations! I'll keep that in mind.", "That's wonderful news! Noted, decaf and gentle it is."),
        can_be_past=False,
        after_ok=False,
    ),
    State(
        "flu",
        {
            "appt.mode": ("video", "phone"),
            "meeting.format": ("video", "phone"),
            "workout.intensity": ("low",),
        },
        (5, 9),
        (
            "I've come down with flu {when}. Not leaving the flat and nothing strenuous {dur}.",
            "Flu got me {when}. Staying home, calls only, {dur} I reckon.",
            "Feverish since {when}. I'm contagious, so everything remote {dur}.",
            "Bad flu since {when}; doctor says stay home and rest {dur}.",
        ),
        ("Feel better soon. Remote and restful for now.", "Rest up. I'll keep things remote and easy."),
    ),
    State(
        "job_loss",
        {
            "shop.tier": ("budget",),
            "ride.type": ("shared", "standard"),
            "flight.cabin": ("economy",),
            "budget.level": ("budget",),
            "shop.condition": ("refurbished", "used"),
            "shop.shipping": ("standard", "store_pickup"),
            "car.class": ("economy", "compact"),
            "train.class": ("standard",),
        },
        (30, 75),
        (
            "I got laid off {when}. Money's tight until the new job starts, {dur}, so cheapest options everywhere.",
            "Lost my job {when}. I'm on a strict budget {dur}.",
            "Redundancy {when}, ugh. Penny-pinching mode {dur}: budget everything.",
            "They let me go at work {when}. Cutting costs on everything {dur} until my new contract kicks in.",
        ),
        ("I'm sorry. I'll keep costs down for you.", "That's rough. Budget options it is for now."),
    ),
    State(
        "exam_crunch",
        {"workout.session": (20, 30), "meal.cooking": ("quick",), "read.length": ("short",)},
        (7, 16),
        (
            "Exams start {when} and run {dur}. I have zero time, so keep everything short and quick.",
            "Certification exam crunch from {when}, {dur}. Short workouts, quick meals, short answers.",
            "I'm cramming {dur}, since {when}. No time for anything long.",
            "Deadline hell from {when}, {dur}. Everything quick, please.",
        ),
        ("Good luck! I'll keep things brief.", "You've got this. Short and quick for now."),
    ),
    State(
        "eye_surgery",
        {"read.length": ("short",), "news.depth": ("headlines",)},
        (10, 21),
        (
            "Had laser eye surgery {when}. I'm supposed to limit reading {dur}.",
            "Eye surgery {when}. Screens hurt, so keep reading to a minimum {dur}.",
            "My eyes are recovering from surgery since {when}. Very little reading {dur}.",
            "The eye op was {when}; doctor says minimal screen time {dur}.",
        ),
        ("Rest those eyes. I'll keep everything brief.", "Noted, short and sweet while your eyes heal."),
    ),
    State(
        "new_baby",
        {
            "tickets.showing": ("matinee",),
            "table.ambience": ("lively",),
            "meal.cooking": ("quick",),
            "workout.session": (20, 30),
        },
        (40, 90),
        (
            "Our baby arrived {when}! Parental leave {dur}: early outings, noisy-friendly places, quick everything.",
            "Baby's here, born {when}. Life is chaos {dur}, so daytime plans and fast meals.",
            "We had the baby {when}. I'm on leave {dur}; nothing late and nothing that needs quiet.",
            "Newborn at home since {when}. Quick meals and matinees only {dur}.",
        ),
        ("Congratulations! I'll plan around the little one.", "Wonderful! Daytime and quick it is for now."),
    ),
    State(
        "night_shifts",
        {
            "appt.time": ("afternoon", "evening"),
            "shop.window": ("afternoon", "evening"),
            "workout.time": ("evening",),
        },
        (21, 56),
        (
            "I'm on night shifts from {when}, {dur}. I sleep until early afternoon, so nothing in the mornings.",
            "New rota from {when}: nights {dur}. Mornings are my sleep time now.",
            "Working nights since {when}, {dur}. Please keep mornings clear.",
            "Switched to the night shift {when}, {dur}. I'm asleep till about 2pm.",
        ),
        ("Noted, I'll keep mornings free.", "Okay, afternoons and evenings only for now."),
    ),
    State(
        "working_abroad",
        {"meeting.format": ("video",), "appt.mode": ("video",)},
        (10, 28),
        (
            "I'm working from our overseas office from {when}, {dur}. Everything back home has to be remote.",
            "Off abroad for work from {when}, {dur}. Video for anything at home.",
            "Secondment abroad starting {when}, {dur}. I can only join things by video.",
            "I fly out for a work placement {when} and I'm away {dur}. Remote only.",
        ),
        ("Safe travels! Remote it is.", "Noted, video only while you're away."),
    ),
    State(
        "heatwave",
        {"coffee.temperature": ("iced",), "ride.temperature": ("cool",), "workout.time": ("early_morning",)},
        (4, 8),
        (
            "This heatwave started {when} and it's meant to last {dur}. Everything cold, please.",
            "It's 38 degrees since {when}, {dur} more of this. I'm melting.",
            "Heat warning from {when}, {dur}. Only cold drinks and AC for me.",
            "Scorching since {when}; forecast says {dur}. Workouts at dawn only.",
        ),
        ("Stay cool! I'll plan for the heat.", "Noted, cold and early while it lasts."),
    ),
    State(
        "back_pain",
        {
            "hotel.pillow": ("firm",),
            "ride.type": ("comfort", "premium"),
            "workout.impact": ("low",),
            "travel.seat": ("aisle",),
        },
        (10, 30),
        (
            "Threw my back out {when}. Physio says firm support and no impact {dur}.",
            "My back's been in spasm since {when}. I need to get up often and sit comfortably {dur}.",
            "Slipped a disc {when}, ugh. Gentle movement and firm pillows {dur}.",
            "Back injury {when}; {dur} of careful movement ahead.",
        ),
        ("Ouch. I'll keep things comfortable.", "Sorry! Comfort first for now."),
    ),
    State(
        "broken_wrist",
        {"car.transmission": ("automatic",), "rx.packaging": ("easy_open", "blister_pack")},
        (28, 42),
        (
            "Broke my wrist {when}, it's in a cast {dur}. One-handed everything.",
            "Fractured my wrist {when}. Cast on {dur}, so nothing fiddly.",
            "Wrist in plaster since {when}, {dur}. Can't open jars or change gears.",
            "Fell off my bike {when} and broke my wrist. Cast {dur}.",
        ),
        ("Oh no. I'll keep things one-handed friendly.", "Sorry! Easy and one-handed for now."),
    ),
    State(
        "marathon_training",
        {
            "meal.calories": (2600, 3000),
            "workout.goal": ("endurance",),
            "workout.intensity": ("high",),
            "workout.days": (4, 5),
        },
        (30, 70),
        (
            "Signed up for a marathon {when}! Training block {dur}: eating more and training hard.",
            "Marathon prep starts {when}, {dur} to race day. Big meals, lots of running.",
            "Race is booked, I started training {when}. Serious endurance work and more food {dur}.",
            "I'm in marathon training mode from {when}, {dur}. Four or five sessions a week.",
        ),
        ("Exciting! I'll fuel the training.", "Go for it! Big training block noted."),
    ),
)
STATE_BY_KEY = {s.key: s for s in STATES}
_SMALL = ("zero one two three four five six seven eight nine ten eleven twelve").split()


def _count(n: int, unit: str) -> str:
    word = _SMALL[n] if n < len(_SMALL) else str(n)
    return f"{word} {unit}{'' if n == 1 else 's'}"


def when_phrase(rng: random.Random, said: datetime, start: datetime) -> str:
    """How the user names the start, relative to when they said it."""
    delta = (said.date() - start.date()).days
    if delta == 0:
        return rng.choice(("today", "this morning", "earlier today"))
    if delta == 1:
        return "yesterday"
    if delta < 0:
        return f"on {start.strftime('%A')} {start.day} {start.strftime('%B')}"
    return f"on {start.strftime('%A')}"


def dur_phrase(rng: random.Random, start: datetime, end: datetime) -> str:
    days = (end.date() - start.date()).days
    until = f"until {end.day} {end.strftime('%B')}"
    if days > 30:
        return until
    options = [f"for the next {_count(days, 'day')}", until]
    if days % 7 == 0:
        options.append(f"for {_count(days // 7, 'week')}")
    return rng.choice(options)


def announce(
    rng: random.Random, state: State, said: datetime, start: datetime, end: datetime
) -> tuple[str, str]:
    """The user's announcement of a state, with exact dates; returns (text, form id)."""
    ci = rng.randrange(len(state.cores))
    oi, ei = rng.randrange(len(OPENERS)), rng.randrange(len(CLOSERS))
    core = state.cores[ci].format(when=when_phrase(rng, said, start), dur=dur_phrase(rng, start, end))
    return after_opener(OPENERS[oi], core) + CLOSERS[ei], f"state:{state.key}:o{oi}:c{ci}:e{ei}"


def window(rng: random.Random, state: State, start: datetime) -> datetime:
    return start + timedelta(days=rng.randint(*state.days))
