"""The 66 scenarios: domain, task type, tools, the preference dimensions they exercise, prompts."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from bench.generator import world as w
from bench.generator.personas import Persona
from bench.generator.scenario_table import PROMPTS, SPEC


@dataclass
class Ctx:
    rng: random.Random
    persona: Persona
    now: datetime


Slots = dict[str, Any]  # {"text": {slot: str}, "args": {param: value}}


@dataclass(frozen=True)
class Scenario:
    name: str
    domain: str
    task_type: str  # action | generation
    dims: tuple[str, ...]
    prompts: tuple[str, ...]
    slots: Callable[[Ctx], Slots]
    tools: tuple[str, ...] = ()
    judge: bool = False  # may carry a judge check on tone

    def tool_for(self, persona: Persona) -> str | None:
        """The tool a persona's gold action uses (for a choice of tools, the preferred one)."""
        if not self.tools:
            return None
        if len(self.tools) > 1:
            return "book_train" if persona.prefs["travel.mode"] == "train" else "book_flight"
        return self.tools[0]


def _ord(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def future(c: Ctx, lo: int = 2, hi: int = 21) -> tuple[str, str]:
    """A date after ``now``: (phrase, ISO date)."""
    day = (c.now + timedelta(days=c.rng.randint(lo, hi))).date()
    phrase = c.rng.choice(
        (
            f"{day.strftime('%A')} {day.day} {day.strftime('%B')}",
            f"{day.strftime('%B')} {_ord(day.day)}",
            f"the {_ord(day.day)}",
        )
    )
    return phrase, day.isoformat()


def clock(c: Ctx, lo: int = 8, hi: int = 20) -> str:
    return f"{c.rng.randint(lo, hi):02d}:{c.rng.choice((0, 15, 30, 45)):02d}"


def _t(**text: Any) -> Slots:
    return {"text": text, "args": {}}


def _dest(c: Ctx) -> str:
    region = w.REGION.get(c.persona.city, "eu")
    return c.rng.choice([d for d in w.DESTINATIONS[region] if d != c.persona.city])


TOPICS = (
    "the Q3 budget",
    "the website relaunch",
    "hiring",
    "the supplier contract",
    "the onboarding flow",
    "the offsite",
)
PROJECTS = ("Atlas", "Beacon", "Harbour", "Northstar", "Lighthouse", "Meridian")
GROCERIES = (
    "apples",
    "rice",
    "tomatoes",
    "bread",
    "lentils",
    "spinach",
    "pasta",
    "bananas",
    "onions",
    "oats",
    "peppers",
)
PRODUCTS = (
    ("a new kettle", "kitchen"),
    ("wireless headphones", "electronics"),
    ("a desk lamp", "household"),
    ("a rain jacket", "clothing"),
    ("a blender", "kitchen"),
    ("a phone charger", "electronics"),
)
HOUSEHOLD = (
    "washing-up liquid",
    "laundry detergent",
    "bin bags",
    "toilet paper",
    "dishwasher tablets",
    "hand soap",
)
THINGS = (
    "sort out the bank transfer",
    "pick up the dry cleaning",
    "renew the car insurance",
    "send mum the photos",
    "pay the electricity bill",
    "water the plants",
)
NOTES = (
    "gift ideas for Ana, a pottery class, the blue scarf",
    "books to read: Piranesi, The Overstory",
    "flat viewing on Elm Road, big kitchen, noisy street",
    "ideas for the garden: herbs, a bench, solar lights",
)


def _email(c: Ctx, boss: bool) -> Slots:
    to = c.rng.choice(w.COLLEAGUES)
    topic = c.rng.choice(TOPICS)
    content = c.rng.choice(
        (
            "I can take it on",
            "the deadline needs to move a week",
            "I'll be off on Friday",
            "the numbers are ready",
        )
    )
    return {
        "text": {"to": to, "topic": topic, "content": content},
        "args": {"to": to, "subject": f"Re: {topic}", "body": f"Hi {to}, {content}."},
    }


def _event(c: Ctx, focus: bool) -> Slots:
    phrase, day = future(c)
    start = clock(c, 9, 16)
    who, topic, proj = c.rng.choice(w.COLLEAGUES), c.rng.choice(TOPICS), c.rng.choice(PROJECTS)
    title = f"Focus: {proj}" if focus else f"{topic} with {who}"
    return {
        "text": {"date": phrase, "time": start, "who": who, "topic": topic, "project": proj},
        "args": {"title": title, "date": day, "start_time": start},
    }


def _food(c: Ctx) -> Slots:
    cuisine = str(c.persona.prefs["food.cuisine"])
    rest = c.persona.extras["restaurant"] if c.rng.random() < 0.7 else c.rng.choice(w.RESTAURANTS[cuisine])
    dish = c.persona.extras["dish"] if c.rng.random() < 0.6 else c.rng.choice(w.DISHES[cuisine])
    return {"text": {"restaurant": rest, "dish": dish}, "args": {"restaurant": rest, "items": [dish]}}


def _groceries(c: Ctx) -> Slots:
    items = sorted(c.rng.sample(GROCERIES, c.rng.randint(3, 5)))
    return {"text": {"items": ", ".join(items)}, "args": {"items": items}}


def _coffee(c: Ctx) -> Slots:
    at = clock(c, 7, 11)
    return {
        "text": {"shop": c.persona.extras["cafe"], "time": at},
        "args": {"shop": c.persona.extras["cafe"], "pickup_time": at},
    }


def _product(c: Ctx, restock: bool) -> Slots:
    if restock:
        item = c.rng.choice(HOUSEHOLD)
        return {"text": {"item": item}, "args": {"query": item, "category": "household"}}
    item, cat = c.rng.choice(PRODUCTS)
    return {"text": {"item": item}, "args": {"query": item, "category": cat}}


def _hotel(c: Ctx) -> Slots:
    phrase, day = future(c)
    city, nights = _dest(c), c.rng.randint(1, 5)
    return {
        "text": {"city": city, "date": phrase, "nights": str(nights)},
        "args": {"city": city, "check_in": day, "nights": nights},
    }


def _reminder(c: Ctx, recurring: bool) -> Slots:
    _, day = future(c, 1, 6)
    at = clock(c, 8, 19)
    thing = c.rng.choice(THINGS)
    when = datetime.fromisoformat(f"{day}T{at}:00").replace(tzinfo=c.now.tzinfo).isoformat()
    weekday = datetime.fromisoformat(day).strftime("%A")
    args: dict[str, Any] = {"text": thing, "when": when}
    if recurring:
        args["repeat"] = "weekly"
    return {"text": {"thing": thing, "weekday": weekday, "time": at, "date": weekday}, "args": args}


def _trip(c: Ctx) -> Slots:
    phrase, day = future(c, 3, 30)
    dest = _dest(c)
    return {"text": {"dest": dest, "date": phrase}, "args": {"destination": dest, "date": day}}


def _ride(c: Ctx, airport: bool) -> Slots:
    phrase, day = future(c, 1, 7)
    at = clock(c, 5, 21)
    place = (
        "the airport"
        if airport
        else c.rng.choice(("the office", "the station", "the cinema", f"{c.rng.choice(w.FRIENDS)}'s place"))
    )
    when = datetime.fromisoformat(f"{day}T{at}:00").replace(tzinfo=c.now.tzinfo).isoformat()
    return {
        "text": {"place": place, "date": phrase, "time": at},
        "args": {"pickup": "home", "destination": place, "when": when},
    }


def _car(c: Ctx) -> Slots:
    phrase, day = future(c, 3, 30)
    dest, days = _dest(c), c.rng.randint(2, 7)
    return {
        "text": {"dest": dest, "date": phrase, "days": str(days)},
        "args": {"pickup_location": dest, "pickup_date": day, "days": days},
    }


def _appt(c: Ctx, provider: str) -> Slots:
    reason = {
        "gp": c.rng.choice(("a persistent cough", "a rash on my arm", "my annual check-up", "headaches")),
        "dentist": c.rng.choice(("a check-up", "a sensitive tooth", "a clean")),
        "therapist": c.rng.choice(("my next session", "a follow-up session")),
    }[provider]
    return {"text": {"reason": reason}, "args": {"provider": provider, "reason": reason}}


def _refill(c: Ctx) -> Slots:
    med, ph = c.persona.extras["medication"], c.persona.extras["pharmacy"]
    return {"text": {"medication": med, "pharmacy": ph}, "args": {"medication": med, "pharmacy": ph}}


def _table(c: Ctx) -> Slots:
    phrase, day = future(c, 1, 14)
    at = clock(c, 18, 21)
    rest = c.rng.choice(w.RESTAURANTS[str(c.persona.prefs["food.cuisine"])])
    return {
        "text": {"restaurant": rest, "date": phrase, "time": at},
        "args": {"restaurant": rest, "date": day, "time": at},
    }


def _tickets(c: Ctx, movie: bool) -> Slots:
    phrase, day = future(c, 1, 14)
    if movie:
        title = c.rng.choice(w.FILMS)
        return {
            "text": {"title": title, "date": phrase},
            "args": {"event_type": "movie", "title": title, "date": day},
        }
    title = c.rng.choice(w.SHOWS)
    kind = (
        "theatre"
        if title in ("Hamilton", "The Mousetrap")
        else ("comedy" if "stand-up" in title else "concert")
    )
    return {
        "text": {"title": title, "date": phrase},
        "args": {"event_type": kind, "title": title, "date": day},
    }


def _note(c: Ctx, meeting: bool) -> Slots:
    if meeting:
        topic = c.rng.choice(TOPICS)
        body = f"Discussed {topic}; agreed owners; review again next week."
        return {
            "text": {"topic": topic, "content": body},
            "args": {"title": f"Meeting notes: {topic}", "body": body},
        }
    body = c.rng.choice(NOTES)
    return {"text": {"content": body}, "args": {"title": body.split(":")[0].split(",")[0][:40], "body": body}}


def _gen(c: Ctx) -> Slots:
    r = c.rng
    return _t(
        friend=r.choice(w.FRIENDS),
        colleague=r.choice(w.COLLEAGUES),
        company=r.choice(("Northwind", "Brightline Energy", "Parcelly", "CityFibre", "Oakridge Bank")),
        role=r.choice(("operations manager", "UX researcher", "project coordinator", "data analyst")),
        project=r.choice(PROJECTS),
        topic=r.choice(TOPICS),
        dest=_dest(c),
        subject=r.choice(
            ("intermittent fasting", "heat pumps", "microplastics", "four-day work weeks", "sleep and memory")
        ),
        concept=r.choice(
            ("compound interest", "how vaccines work", "inflation", "how tides work", "what a heat pump does")
        ),
        issue=r.choice(
            (
                "a late delivery",
                "a double charge on my bill",
                "a broken washing machine",
                "a cancelled booking",
            )
        ),
        news=r.choice(("our new office", "the product launch", "my new job", "the charity run")),
        mistake=r.choice(("missing our call", "the wrong figures in the report", "sending the draft late")),
        symptoms=r.choice(
            (
                "tired all the time, headaches in the afternoon",
                "a dry cough for three weeks",
                "knee pain on stairs",
            )
        ),
        club=r.choice(("running club", "book club", "residents' association", "choir")),
        event=r.choice(("the summer picnic", "the spring clean-up", "the quiz night")),
        place=r.choice(("the Riverside business park", "the new office near the cathedral", "Dock Street")),
    )


SLOTS: dict[str, Callable[[Ctx], Slots]] = {
    "reply_email": lambda c: _email(c, False),
    "cover_letter": _gen,
    "thank_you_note": _gen,
    "complaint_letter": _gen,
    "social_post": _gen,
    "birthday_message": _gen,
    "apology_email": _gen,
    "newsletter_blurb": _gen,
    "schedule_meeting": lambda c: _event(c, False),
    "focus_block": lambda c: _event(c, True),
    "email_to_manager": lambda c: _email(c, True),
    "status_update": _gen,
    "meeting_summary": _gen,
    "team_message": _gen,
    "project_plan": _gen,
    "self_review": _gen,
    "food_delivery": _food,
    "grocery_order": _groceries,
    "coffee_order": _coffee,
    "online_purchase": lambda c: _product(c, False),
    "household_restock": lambda c: _product(c, True),
    "shopping_list": _gen,
    "gift_ideas": _gen,
    "product_comparison": _gen,
    "hotel_booking": _hotel,
    "one_off_reminder": lambda c: _reminder(c, False),
    "recurring_reminder": lambda c: _reminder(c, True),
    "trip_itinerary": _gen,
    "weekly_plan": _gen,
    "packing_list": _gen,
    "dinner_party_plan": _gen,
    "workout_plan": lambda c: _t(),
    "meal_plan": lambda c: {"text": {}, "args": {"days": 7}},
    "fitness_class": lambda c: {"text": {"date": (f := future(c, 1, 10))[0]}, "args": {"date": f[1]}},
    "exercise_advice": _gen,
    "recipe_ideas": _gen,
    "sleep_routine": _gen,
    "activity_suggestions": _gen,
    "flight_booking": _trip,
    "train_booking": _trip,
    "ride_booking": lambda c: _ride(c, False),
    "airport_transfer": lambda c: _ride(c, True),
    "car_rental": _car,
    "intercity_trip": _trip,
    "commute_plan": _gen,
    "doctor_appointment": lambda c: _appt(c, "gp"),
    "dentist_appointment": lambda c: _appt(c, "dentist"),
    "therapy_appointment": lambda c: _appt(c, "therapist"),
    "prescription_refill": _refill,
    "symptom_summary": _gen,
    "questions_for_doctor": _gen,
    "medication_schedule": _gen,
    "restaurant_booking": _table,
    "movie_tickets": lambda c: _tickets(c, True),
    "show_tickets": lambda c: _tickets(c, False),
    "movie_recommendations": _gen,
    "book_recommendations": _gen,
    "weekend_ideas": _gen,
    "restaurant_suggestions": _gen,
    "news_subscription": lambda c: _t(),
    "save_note": lambda c: _note(c, False),
    "file_meeting_notes": lambda c: _note(c, True),
    "news_digest": _gen,
    "research_summary": _gen,
    "explain_topic": _gen,
    "reading_list": _gen,
}


def _build() -> tuple[Scenario, ...]:
    out = []
    for line in SPEC.strip().splitlines():
        cells = [c.strip() for c in line.split("|")]
        name, domain, kind, tools, dims = cells[:5]
        tool_names = () if tools == "-" else tuple(tools.split())
        judge = len(cells) > 5 and cells[5] == "judge"
        out.append(
            Scenario(name, domain, kind, tuple(dims.split()), PROMPTS[name], SLOTS[name], tool_names, judge)
        )
    return tuple(out)


SCENARIOS: tuple[Scenario, ...] = _build()
BY_NAME = {s.name: s for s in SCENARIOS}
