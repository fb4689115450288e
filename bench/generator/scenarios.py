"""The 66 scenarios: domain, task type, tools, the preference dimensions they exercise, prompts."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from bench.generator import world as w
from bench.generator.personas import Persona


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


def _s(
    name: str,
    domain: str,
    kind: str,
    dims: str,
    prompts: tuple[str, ...],
    slots: Callable[[Ctx], Slots],
    tools: tuple[str, ...] = (),
    judge: bool = False,
) -> Scenario:
    return Scenario(name, domain, kind, tuple(dims.split()), prompts, slots, tools, judge)


A, G = "action", "generation"
SCENARIOS: tuple[Scenario, ...] = (
    # writing
    _s(
        "reply_email",
        "writing",
        A,
        "email.mode write.tone write.signoff",
        (
            "Reply to {to}'s email about {topic} and tell them {content}.",
            "Answer {to} about {topic}: {content}.",
        ),
        lambda c: _email(c, False),
        ("send_email",),
    ),
    _s(
        "cover_letter",
        "writing",
        G,
        "write.length write.signoff write.avoid write.tone",
        (
            "Write a cover letter for the {role} job at {company}.",
            "I'm applying to be a {role} at {company}. Write the cover letter.",
        ),
        _gen,
        judge=True,
    ),
    _s(
        "thank_you_note",
        "writing",
        G,
        "write.length write.signoff write.avoid write.emoji",
        (
            "Write a thank-you note to {friend} for helping me move.",
            "Draft a quick thanks to {friend} for the birthday present.",
        ),
        _gen,
    ),
    _s(
        "complaint_letter",
        "writing",
        G,
        "write.length write.signoff write.avoid write.tone",
        ("Write a complaint to {company} about {issue}.", "Help me complain to {company}: {issue}."),
        _gen,
        judge=True,
    ),
    _s(
        "social_post",
        "writing",
        G,
        "write.length write.avoid write.emoji write.hashtags",
        ("Write a post announcing {news}.", "Draft a social media post about {news}."),
        _gen,
    ),
    _s(
        "birthday_message",
        "writing",
        G,
        "write.length write.emoji write.avoid",
        ("Write a birthday message for {friend}.", "What should I write in {friend}'s birthday card?"),
        _gen,
    ),
    _s(
        "apology_email",
        "writing",
        G,
        "write.length write.signoff write.avoid write.tone",
        (
            "Write an email to {colleague} apologising for {mistake}.",
            "Draft an apology to {colleague} for {mistake}.",
        ),
        _gen,
        judge=True,
    ),
    _s(
        "newsletter_blurb",
        "writing",
        G,
        "write.length write.emoji write.avoid write.hashtags",
        (
            "Write a blurb for the {club} newsletter about {event}.",
            "Draft the {club} newsletter piece on {event}.",
        ),
        _gen,
    ),
    # work
    _s(
        "schedule_meeting",
        "work",
        A,
        "meeting.duration meeting.buffer meeting.format event.reminder",
        (
            "Set up a meeting with {who} about {topic} on {date} at {time}.",
            "Put a meeting about {topic} with {who} in my calendar on {date}, {time}.",
        ),
        lambda c: _event(c, False),
        ("create_event",),
    ),
    _s(
        "focus_block",
        "work",
        A,
        "focus.duration focus.visibility event.reminder",
        (
            "Block out focus time on {date} at {time} for the {project} write-up.",
            "I need deep-work time for {project} on {date} from {time}.",
        ),
        lambda c: _event(c, True),
        ("create_event",),
    ),
    _s(
        "email_to_manager",
        "work",
        A,
        "email.mode write.tone write.signoff",
        ("Email {to} that {content}.", "Let {to} know by email that {content}."),
        lambda c: _email(c, True),
        ("send_email",),
    ),
    _s(
        "status_update",
        "work",
        G,
        "read.tldr work.actions read.format write.length",
        (
            "Write my weekly status update on the {project} project.",
            "Draft this week's {project} update for the team.",
        ),
        _gen,
    ),
    _s(
        "meeting_summary",
        "work",
        G,
        "read.tldr work.actions read.format read.length",
        ("Summarise today's meeting about {topic}.", "Write up the notes from the {topic} meeting."),
        _gen,
    ),
    _s(
        "team_message",
        "work",
        G,
        "write.length write.emoji write.avoid",
        ("Write a message to the team about {news}.", "Draft a team chat message about {news}."),
        _gen,
    ),
    _s(
        "project_plan",
        "work",
        G,
        "read.format read.length work.actions read.tldr",
        ("Draft a plan for the {project} project.", "Outline how we should run {project} next quarter."),
        _gen,
    ),
    _s(
        "self_review",
        "work",
        G,
        "write.length read.format write.avoid write.tone",
        ("Help me write my self-review for this quarter.", "Draft my performance self-assessment."),
        _gen,
        judge=True,
    ),
    # consumption
    _s(
        "food_delivery",
        "consumption",
        A,
        "food.spice food.texture food.portion food.diet food.allergy food.tip food.cutlery",
        (
            "Order dinner from {restaurant}, the {dish}.",
            "Get me the {dish} from {restaurant} tonight.",
            "I'm starving. {restaurant}, the {dish} please.",
        ),
        _food,
        ("order_food",),
    ),
    _s(
        "grocery_order",
        "consumption",
        A,
        "drink.milk shop.tier shop.organic shop.substitutions shop.window",
        ("Do the grocery order: {items}, and milk.", "Order groceries: {items} plus milk."),
        _groceries,
        ("order_groceries",),
    ),
    _s(
        "coffee_order",
        "consumption",
        A,
        "coffee.drink coffee.size drink.milk drink.caffeine coffee.temperature",
        ("Grab me my usual from {shop} for {time}.", "Order my coffee from {shop}, pickup at {time}."),
        _coffee,
        ("order_coffee",),
    ),
    _s(
        "online_purchase",
        "consumption",
        A,
        "shop.condition shop.shipping shop.tier",
        ("Buy me {item}.", "Order {item} for me, mine just broke."),
        lambda c: _product(c, False),
        ("buy_product",),
    ),
    _s(
        "household_restock",
        "consumption",
        A,
        "shop.eco shop.tier shop.shipping",
        ("We're out of {item}. Order some more.", "Restock the {item}, please."),
        lambda c: _product(c, True),
        ("buy_product",),
    ),
    _s(
        "shopping_list",
        "consumption",
        G,
        "read.format food.diet food.allergy",
        ("Make me a shopping list for the week.", "What should I buy for this week's meals? Make a list."),
        _gen,
    ),
    _s(
        "gift_ideas",
        "consumption",
        G,
        "read.format read.length",
        ("Give me some gift ideas for {friend}'s birthday.", "What could I get {friend}? Some ideas please."),
        _gen,
    ),
    _s(
        "product_comparison",
        "consumption",
        G,
        "read.format read.length read.tldr",
        (
            "Compare the two robot vacuums I was looking at.",
            "Which laptop should I get, the cheaper one or the lighter one?",
        ),
        _gen,
    ),
    # planning
    _s(
        "hotel_booking",
        "planning",
        A,
        "hotel.floor hotel.quiet hotel.pillow hotel.breakfast budget.level access.mobility",
        (
            "Book me a hotel in {city} for {nights} nights from {date}.",
            "Find me a room in {city}, checking in on {date}, {nights} nights.",
        ),
        _hotel,
        ("book_hotel",),
    ),
    _s(
        "one_off_reminder",
        "planning",
        A,
        "reminder.lead reminder.channel",
        ("Remind me to {thing} on {date} at {time}.", "Set a reminder: {thing}, on {date} at {time}."),
        lambda c: _reminder(c, False),
        ("set_reminder",),
    ),
    _s(
        "recurring_reminder",
        "planning",
        A,
        "reminder.lead reminder.channel",
        (
            "Remind me to {thing} every {weekday} at {time}.",
            "Set a weekly reminder to {thing}, {weekday}s at {time}.",
        ),
        lambda c: _reminder(c, True),
        ("set_reminder",),
    ),
    _s(
        "trip_itinerary",
        "planning",
        G,
        "read.format read.length units food.cuisine",
        ("Plan a weekend itinerary for {dest}.", "I've got two days in {dest}. What should I do?"),
        _gen,
    ),
    _s(
        "weekly_plan",
        "planning",
        G,
        "read.format read.length read.tldr",
        ("Plan my week.", "Help me organise the week ahead."),
        _gen,
    ),
    _s(
        "packing_list",
        "planning",
        G,
        "read.format read.length",
        ("Make a packing list for my trip to {dest}.", "What do I need to pack for {dest}?"),
        _gen,
    ),
    _s(
        "dinner_party_plan",
        "planning",
        G,
        "food.diet food.allergy food.spice read.format",
        ("Plan a dinner party menu for Saturday.", "I'm hosting six people on Saturday. What should I cook?"),
        _gen,
    ),
    # health
    _s(
        "workout_plan",
        "health",
        A,
        "workout.goal workout.intensity workout.session workout.days workout.location workout.time workout.impact",
        ("Put together a workout plan for me.", "I need a new training plan. Set one up."),
        lambda c: _t(),
        ("create_workout_plan",),
    ),
    _s(
        "meal_plan",
        "health",
        A,
        "food.diet food.allergy food.spice food.texture drink.caffeine meal.cooking meal.calories",
        ("Make me a meal plan for the next week.", "Set up my meals for the coming week."),
        lambda c: {"text": {}, "args": {"days": 7}},
        ("create_meal_plan",),
    ),
    _s(
        "fitness_class",
        "health",
        A,
        "class.type workout.time class.instructor",
        ("Book me into a class on {date}.", "Get me a spot in a class on {date}."),
        lambda c: {"text": {"date": (f := future(c, 1, 10))[0]}, "args": {"date": f[1]}},
        ("book_fitness_class",),
    ),
    _s(
        "exercise_advice",
        "health",
        G,
        "health.activity units read.length workout.impact",
        ("What exercise should I do this week?", "Suggest a few workouts for the week."),
        _gen,
    ),
    _s(
        "recipe_ideas",
        "health",
        G,
        "food.diet food.allergy food.spice read.format",
        ("Give me some dinner ideas for tonight.", "What can I cook this evening?"),
        _gen,
    ),
    _s(
        "sleep_routine",
        "health",
        G,
        "read.format read.length read.tldr",
        ("Help me sort out a better sleep routine.", "I sleep badly. What routine should I try?"),
        _gen,
    ),
    _s(
        "activity_suggestions",
        "health",
        G,
        "health.activity units read.format",
        ("Suggest something active to do this weekend.", "How can I get moving this weekend?"),
        _gen,
    ),
    # transportation
    _s(
        "flight_booking",
        "transportation",
        A,
        "home.city travel.seat flight.cabin travel.departure flight.stops flight.bags food.diet access.mobility",
        ("Book my flight to {dest} on {date}.", "Get me a flight to {dest} on {date}."),
        _trip,
        ("book_flight",),
    ),
    _s(
        "train_booking",
        "transportation",
        A,
        "home.city travel.seat train.class train.coach travel.departure train.railcard",
        ("Get me a train to {dest} on {date}.", "Book the train to {dest} on {date}."),
        _trip,
        ("book_train",),
    ),
    _s(
        "ride_booking",
        "transportation",
        A,
        "ride.type ride.quiet ride.temperature",
        ("Get me a car to {place} on {date} at {time}.", "Book a taxi to {place}, on {date} at {time}."),
        lambda c: _ride(c, False),
        ("book_ride",),
    ),
    _s(
        "airport_transfer",
        "transportation",
        A,
        "ride.type ride.quiet family.kids",
        (
            "Book a ride to the airport on {date} at {time}.",
            "I need a taxi to the airport on {date}, pickup {time}.",
        ),
        lambda c: _ride(c, True),
        ("book_ride",),
    ),
    _s(
        "car_rental",
        "transportation",
        A,
        "car.transmission car.class car.insurance family.kids",
        (
            "Rent a car in {dest} on {date} for {days} days.",
            "I need a hire car in {dest} from {date}, {days} days.",
        ),
        _car,
        ("rent_car",),
    ),
    _s(
        "intercity_trip",
        "transportation",
        A,
        "travel.mode home.city travel.seat travel.departure",
        ("I need to get to {dest} on {date}. Sort out the tickets.", "Get me to {dest} on {date}."),
        _trip,
        ("book_flight", "book_train"),
    ),
    _s(
        "commute_plan",
        "transportation",
        G,
        "units read.format read.length",
        (
            "Work out a new commute for me now that the office moved to {place}.",
            "How should I get to {place} every day?",
        ),
        _gen,
    ),
    # medical
    _s(
        "doctor_appointment",
        "medical",
        A,
        "appt.time appt.mode appt.clinician appt.reminder",
        ("Book me a GP appointment about {reason}.", "I need to see the doctor about {reason}."),
        lambda c: _appt(c, "gp"),
        ("book_appointment",),
    ),
    _s(
        "dentist_appointment",
        "medical",
        A,
        "appt.time appt.clinician appt.reminder",
        ("Book me a dentist appointment for {reason}.", "Get me in at the dentist for {reason}."),
        lambda c: _appt(c, "dentist"),
        ("book_appointment",),
    ),
    _s(
        "therapy_appointment",
        "medical",
        A,
        "appt.mode appt.time appt.clinician appt.reminder",
        ("Book {reason} with a therapist.", "Set up {reason} with the therapist."),
        lambda c: _appt(c, "therapist"),
        ("book_appointment",),
    ),
    _s(
        "prescription_refill",
        "medical",
        A,
        "rx.supply rx.fulfilment rx.generic rx.packaging",
        ("Refill my {medication}.", "I'm running low on {medication}. Sort the refill."),
        _refill,
        ("refill_prescription",),
    ),
    _s(
        "symptom_summary",
        "medical",
        G,
        "read.format read.length read.tldr",
        ("Write up my symptoms for the doctor: {symptoms}.", "Summarise this for my GP: {symptoms}."),
        _gen,
    ),
    _s(
        "questions_for_doctor",
        "medical",
        G,
        "read.format read.length",
        (
            "What should I ask the doctor about {symptoms}?",
            "List questions for my appointment about {symptoms}.",
        ),
        _gen,
    ),
    _s(
        "medication_schedule",
        "medical",
        G,
        "read.format read.length read.tldr",
        ("Make me a schedule for my new medication.", "Help me plan when to take my new tablets."),
        _gen,
    ),
    # leisure
    _s(
        "restaurant_booking",
        "leisure",
        A,
        "table.seating table.ambience group.size food.diet food.allergy",
        (
            "Book a table at {restaurant} on {date} at {time}.",
            "Reserve us a table at {restaurant}, on {date}, {time}.",
        ),
        _table,
        ("book_table",),
    ),
    _s(
        "movie_tickets",
        "leisure",
        A,
        "tickets.showing tickets.seat tickets.format group.size access.mobility",
        ("Get tickets for {title} on {date}.", "Book the cinema for {title} on {date}."),
        lambda c: _tickets(c, True),
        ("book_tickets",),
    ),
    _s(
        "show_tickets",
        "leisure",
        A,
        "tickets.showing tickets.seat group.size access.mobility",
        ("Get us tickets for {title} on {date}.", "Book {title} on {date} for us."),
        lambda c: _tickets(c, False),
        ("book_tickets",),
    ),
    _s(
        "movie_recommendations",
        "leisure",
        G,
        "film.genre film.avoid read.format read.length",
        ("Recommend some films for tonight.", "What should I watch this weekend?"),
        _gen,
    ),
    _s(
        "book_recommendations",
        "leisure",
        G,
        "book.genre read.format read.length",
        ("What should I read next?", "Recommend a few books for me."),
        _gen,
    ),
    _s(
        "weekend_ideas",
        "leisure",
        G,
        "health.activity food.cuisine read.format",
        ("Any ideas for this weekend?", "What could I do on Saturday?"),
        _gen,
    ),
    _s(
        "restaurant_suggestions",
        "leisure",
        G,
        "food.cuisine food.diet food.spice read.format",
        ("Suggest a few places to eat out this week.", "Where should I go for dinner on Friday?"),
        _gen,
    ),
    # information
    _s(
        "news_subscription",
        "information",
        A,
        "news.topic news.avoid news.frequency news.depth",
        ("Set me up with a news briefing.", "Subscribe me to a news digest."),
        lambda c: _t(),
        ("subscribe_news",),
    ),
    _s(
        "save_note",
        "information",
        A,
        "read.format notes.pinned",
        ("Save this as a note: {content}.", "Make a note of this: {content}."),
        lambda c: _note(c, False),
        ("save_note",),
    ),
    _s(
        "file_meeting_notes",
        "information",
        A,
        "notes.folder read.format notes.pinned",
        ("File my notes from the {topic} meeting: {content}", "Save the {topic} meeting notes: {content}"),
        lambda c: _note(c, True),
        ("save_note",),
    ),
    _s(
        "news_digest",
        "information",
        G,
        "news.topic news.avoid read.length read.format",
        ("What's in the news today?", "Give me today's news."),
        _gen,
    ),
    _s(
        "research_summary",
        "information",
        G,
        "read.tldr read.length read.format",
        ("Summarise what's known about {subject}.", "What does the research say about {subject}?"),
        _gen,
    ),
    _s(
        "explain_topic",
        "information",
        G,
        "read.length read.format read.tldr",
        ("Explain {concept} to me.", "How does {concept} work, roughly?"),
        _gen,
    ),
    _s(
        "reading_list",
        "information",
        G,
        "book.genre read.format read.length",
        ("Put together a reading list for my holiday.", "I need books for a long flight. Make me a list."),
        _gen,
    ),
)
BY_NAME = {s.name: s for s in SCENARIOS}
