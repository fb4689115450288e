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
            "Ugh, tooth extraction {when}. I can barely chew and spicy stuff stings, so soft and bland {dur}.",
            "Dentist took a molar out {when}; soft food only and no spice {dur}, apparently.",
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
            "Sprained my ankle badly {when}. Physio says gentle low-impact stuff only, swimming or yoga, {dur}; no stairs, and aisle seats so I can stretch the leg.",
            "Rolled my ankle {when}, it's strapped up {dur}. Nothing high-impact, just swimming or yoga, ground floors only, and aisle seats at shows.",
            "Twisted my ankle {when}. Doctor's orders {dur}: easy low-impact exercise like the pool or yoga, avoid stairs, sit on the aisle.",
            "I'm on crutches {dur} after spraining my ankle {when}: aisle seats, low floors, and only gentle swimming or yoga.",
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
            "Knee surgery went fine {when}. Rehab exercises only, nothing high-impact, step-free rooms and seating, an aisle seat and roomy cars {dur}.",
            "Had my knee operated on {when}. On crutches {dur}: accessible rooms and seats, aisle seats, big comfy cars, and just my rehab routine.",
            "Post-op: knee surgery {when}, recovery runs {dur}. Step-free everything, lots of legroom (aisle seats, comfort cars) and gentle rehab only.",
            "They fixed my knee {when}. Rehab and low-impact only {dur}; I need accessible, step-free places and space for my leg in cars and on planes.",
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
            "Big news: I'm pregnant! Found out {when}. No caffeine, gentle exercise only, and aisle seats (so many loo trips) {dur}.",
            "I'm expecting, we heard {when}! The midwife says decaf only and gentle, low-impact workouts {dur}. I'll want aisle seats too.",
            "Pregnancy confirmed {when}. Decaf only, aisle seats and easy, low-impact exercise {dur}.",
            "So... I'm pregnant. Learned {when}. Low-impact exercise, decaf and aisle seats {dur}.",
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
            "I've come down with flu {when}. Not leaving the flat, calls or video only, nothing strenuous {dur}.",
            "Flu got me {when}. Staying home, everything remote and only light exercise {dur}, I reckon.",
            "Feverish since {when}. I'm contagious, so phone or video for everything and no hard workouts {dur}.",
            "Bad flu since {when}; doctor says stay home, rest, and do appointments and meetings remotely {dur}.",
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
            "Exams start {when} and run {dur}. I have zero time: short workouts, quick meals, short answers.",
            "Certification exam crunch from {when}, {dur}. Short workouts, quick meals, short answers.",
            "I'm cramming {dur}, since {when}. Short workouts, quick meals, and keep answers brief.",
            "Deadline hell from {when}, {dur}: quick meals, short workouts, and short answers please.",
        ),
        ("Good luck! I'll keep things brief.", "You've got this. Short and quick for now."),
    ),
    State(
        "eye_surgery",
        {"read.length": ("short",), "news.depth": ("headlines",)},
        (10, 21),
        (
            "Had laser eye surgery {when}. I'm supposed to limit reading {dur}, so keep things very short, headlines at most.",
            "Eye surgery {when}. Screens hurt, so minimal reading {dur}: short answers, just headlines.",
            "My eyes are recovering from surgery since {when}. Very little reading {dur}, short and headline-level only.",
            "The eye op was {when}; doctor says minimal screen time {dur}. Short answers, headlines only.",
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
            "Our baby arrived {when}! Parental leave {dur}: daytime matinees, baby-friendly lively places, quick meals, short workouts.",
            "Baby's here, born {when}. Life is chaos {dur}, so daytime showings, noisy family-friendly restaurants, fast meals and short workouts.",
            "We had the baby {when}. I'm on leave {dur}; nothing late, only lively places where a crying baby is fine, quick cooking, short exercise.",
            "Newborn at home since {when}. Quick meals, twenty-minute workouts, matinees only and buzzy places {dur}.",
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
            "I'm on night shifts from {when}, {dur}. I sleep until early afternoon, so nothing in the mornings; evenings are my time.",
            "New rota from {when}: nights {dur}. Mornings are my sleep time now, afternoons and evenings only.",
            "Working nights since {when}, {dur}. I'm asleep till about 2pm, so keep mornings and lunchtimes clear.",
            "Switched to the night shift {when}, {dur}. Asleep till 2pm; afternoons and evenings only.",
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
            "This heatwave started {when} and it's meant to last {dur}. Cold drinks only, AC on in cars, and I'll exercise at dawn.",
            "It's 38 degrees since {when} and it stays like this {dur}. Iced drinks, cool cars, and workouts first thing only.",
            "Heat warning from {when}, {dur}. Only cold drinks, AC in taxis, and training at sunrise.",
            "Scorching since {when}; forecast says {dur}. Workouts at dawn, iced coffee, cars kept cool.",
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
            "Threw my back out {when}. Physio says firm pillows, no impact, comfy cars and aisle seats so I can get up often, {dur}.",
            "My back's been in spasm since {when}. Firm support, comfortable cars, aisle seats and gentle movement only {dur}.",
            "Slipped a disc {when}, ugh. Gentle low-impact movement, firm pillows, a comfort car and the aisle seat {dur}.",
            "Back injury {when}; {dur} of care: firm pillows, no impact, roomy cars, aisle seats.",
        ),
        ("Ouch. I'll keep things comfortable.", "Sorry! Comfort first for now."),
    ),
    State(
        "broken_wrist",
        {"car.transmission": ("automatic",), "rx.packaging": ("easy_open", "blister_pack")},
        (28, 42),
        (
            "Broke my wrist {when}, it's in a cast {dur}. One-handed everything: automatic cars, easy-open pill packs.",
            "Fractured my wrist {when}. Cast on {dur}, so no gear changes and no fiddly pill bottles.",
            "Wrist in plaster since {when}, {dur}. Can't open jars or pill bottles or change gears.",
            "Fell off my bike {when} and broke my wrist. Cast {dur}: automatic cars only, packaging I can open one-handed.",
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
            "Signed up for a marathon {when}! Training block {dur}: eating a lot more, hard endurance training four or five days a week.",
            "Marathon prep starts {when}, {dur} to race day. Big meals, intense endurance sessions, four or five a week.",
            "Race is booked, I started training {when}. Serious high-intensity endurance work most days and more food {dur}.",
            "I'm in marathon training mode from {when}, {dur}. Four or five hard endurance sessions a week, around 2800 calories a day.",
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
