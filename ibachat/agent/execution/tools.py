"""Mock tools shared by the planner and IBA-Bench: JSON-Schema parameters, validation, simulated results.

Nothing real happens when a tool runs: ``execute`` validates the arguments, records the call and
returns a deterministic confirmation. The registry is plain data built without any I/O.
"""

from __future__ import annotations

import copy
import difflib
import hashlib
import json
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Any

from ibachat.errors import IbachatError

SCHEMA_DIALECT = "https://json-schema.org/draft/2020-12/schema"
DOMAINS = (
    "writing",
    "work",
    "consumption",
    "planning",
    "health",
    "transportation",
    "medical",
    "leisure",
    "information",
)


@dataclass(frozen=True)
class Tool:
    """One callable action: ``parameters`` is a JSON Schema (draft 2020-12) of its arguments."""

    name: str
    description: str
    parameters: dict[str, Any]
    domain: str


# ---------------------------------------------------------------- schema helpers


def _str(description: str, *, max_length: int = 200, fmt: str | None = None, **extra: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"type": "string", "description": description, "minLength": 1}
    out["maxLength"] = max_length
    if fmt:
        out["format"] = fmt
    out.update(extra)
    return out


def _enum(description: str, values: list[Any], default: Any = None) -> dict[str, Any]:
    kind = "integer" if all(isinstance(v, int) for v in values) else "string"
    out: dict[str, Any] = {"type": kind, "description": description, "enum": values}
    if default is not None:
        out["default"] = default
    return out


def _int(description: str, low: int, high: int, default: int | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {"type": "integer", "description": description, "minimum": low, "maximum": high}
    if default is not None:
        out["default"] = default
    return out


def _num(description: str, low: float, high: float) -> dict[str, Any]:
    return {"type": "number", "description": description, "minimum": low, "maximum": high}


def _bool(description: str, default: bool) -> dict[str, Any]:
    return {"type": "boolean", "description": description, "default": default}


def _list(
    description: str, item: dict[str, Any], *, min_items: int = 0, max_items: int = 20
) -> dict[str, Any]:
    out: dict[str, Any] = {"type": "array", "description": description, "items": item}
    out["minItems"], out["maxItems"] = min_items, max_items
    if "enum" in item:
        out["uniqueItems"] = True
        if min_items == 0:
            out["default"] = []
    return out


def _object(properties: dict[str, dict[str, Any]], required: list[str]) -> dict[str, Any]:
    return {
        "$schema": SCHEMA_DIALECT,
        "type": "object",
        "properties": properties,
        "required": required,
        "additionalProperties": False,
    }


_DATE = {"type": "string", "format": "date", "description": "calendar date, YYYY-MM-DD"}
_TIME = {"type": "string", "pattern": "^([01][0-9]|2[0-3]):[0-5][0-9]$", "description": "local time, HH:MM"}
_DATETIME = {"type": "string", "format": "date-time", "description": "ISO 8601 date and time"}
MILKS = ["whole", "semi_skimmed", "skimmed", "oat", "soy", "almond", "none"]
DIETARY = [
    "vegetarian",
    "vegan",
    "pescatarian",
    "gluten_free",
    "dairy_free",
    "nut_free",
    "shellfish_free",
    "halal",
    "kosher",
]
NEWS_TOPICS = [
    "world",
    "politics",
    "business",
    "technology",
    "science",
    "climate",
    "health",
    "sport",
    "culture",
    "local",
]
SPICE = ["none", "mild", "medium", "hot"]
TEXTURE = ["soft", "regular", "crunchy"]
TIMES_OF_DAY = ["early_morning", "morning", "afternoon", "evening"]


def _tool(name: str, domain: str, description: str, params: dict, required: list) -> Tool:
    return Tool(name, description, _object(params, required), domain)


def _build() -> dict[str, Tool]:
    tools = [
        _tool(
            "send_email",
            "writing",
            "Send, draft or schedule an email on the user's behalf.",
            {
                "to": _str("recipient name or address"),
                "subject": _str("subject line"),
                "body": _str("the message text", max_length=20000),
                "mode": _enum(
                    "send now, save as a draft for review, or schedule", ["send", "draft", "schedule"], "send"
                ),
                "tone": _enum("register of the message", ["formal", "neutral", "casual", "warm"], "neutral"),
                "sign_off": _str("closing line before the name, e.g. 'Kind regards'", max_length=60),
                "cc_self": _bool("send a copy to the user", False),
            },
            ["to", "subject", "body"],
        ),
        _tool(
            "create_event",
            "work",
            "Create a calendar event: a meeting, call or block of time.",
            {
                "title": _str("event title"),
                "date": _DATE,
                "start_time": _TIME,
                "duration_minutes": _int("length of the event", 5, 480, 30),
                "format": _enum("how people attend", ["in_person", "video", "phone"], "video"),
                "buffer_minutes": _int("free time kept before the event", 0, 60, 0),
                "reminder_minutes": _int("reminder before the start", 0, 120, 10),
                "visibility": _enum("what others see", ["busy", "private", "public"], "busy"),
                "attendees": _list("people invited", _str("a name or address")),
            },
            ["title", "date", "start_time"],
        ),
        _tool(
            "order_food",
            "consumption",
            "Order a meal for delivery from a restaurant.",
            {
                "restaurant": _str("restaurant name"),
                "items": _list("dishes to order", _str("a dish"), min_items=1),
                "spice_level": _enum("how spicy", SPICE, "medium"),
                "texture": _enum("texture of the food", TEXTURE, "regular"),
                "portion": _enum("portion size", ["small", "regular", "large"], "regular"),
                "dietary": _list("dietary requirements", _enum("a requirement", DIETARY)),
                "tip_percent": _int("tip for the courier, percent", 0, 30, 15),
                "cutlery": _bool("include disposable cutlery", True),
                "contactless": _bool("leave at the door", False),
                "notes": _str("note for the kitchen", max_length=300),
            },
            ["restaurant", "items"],
        ),
        _tool(
            "order_groceries",
            "consumption",
            "Order groceries for home delivery.",
            {
                "items": _list("products to buy", _str("a product"), min_items=1, max_items=80),
                "milk": _enum("milk to include", MILKS, "semi_skimmed"),
                "brand_tier": _enum("price tier of brands", ["budget", "standard", "premium"], "standard"),
                "organic": _bool("prefer organic products", False),
                "substitutions": _enum("when an item is missing", ["allow", "ask_first", "never"], "allow"),
                "delivery_window": _enum("delivery slot", ["morning", "afternoon", "evening"]),
                "max_total": _num("spending limit", 10, 500),
            },
            ["items"],
        ),
        _tool(
            "order_coffee",
            "consumption",
            "Order a coffee or tea from a cafe, to pick up.",
            {
                "shop": _str("café name"),
                "drink": _enum(
                    "the drink",
                    [
                        "latte",
                        "flat_white",
                        "cappuccino",
                        "cortado",
                        "mocha",
                        "americano",
                        "chai_latte",
                        "matcha_latte",
                    ],
                    "latte",
                ),
                "size": _enum("cup size", ["small", "medium", "large"], "medium"),
                "milk": _enum("milk", MILKS, "whole"),
                "caffeine": _enum("caffeine", ["regular", "decaf", "half_caf"], "regular"),
                "temperature": _enum("serving temperature", ["hot", "extra_hot", "iced"], "hot"),
                "sugar": _int("teaspoons of sugar", 0, 4, 0),
                "pickup_time": _TIME,
            },
            ["shop", "drink"],
        ),
        _tool(
            "buy_product",
            "consumption",
            "Buy a product online.",
            {
                "query": _str("what to buy"),
                "category": _enum(
                    "product category",
                    ["household", "electronics", "clothing", "kitchen", "beauty", "books", "garden", "toys"],
                ),
                "brand_tier": _enum("price tier of brands", ["budget", "standard", "premium"], "standard"),
                "condition": _enum("item condition", ["new", "refurbished", "used"], "new"),
                "shipping": _enum("delivery option", ["standard", "express", "store_pickup"], "standard"),
                "eco_friendly": _bool("prefer eco-labelled products and minimal packaging", False),
                "gift_wrap": _bool("wrap as a gift", False),
                "max_price": _num("price limit", 1, 5000),
            },
            ["query"],
        ),
        _tool(
            "book_hotel",
            "planning",
            "Book a hotel room for a stay of some nights.",
            {
                "city": _str("city"),
                "check_in": _DATE,
                "nights": _int("number of nights", 1, 30),
                "room_type": _enum("room type", ["single", "double", "twin", "suite", "family"], "double"),
                "floor": _enum("floor preference", ["any", "low", "high"], "any"),
                "quiet_room": _bool("away from lifts and street", False),
                "accessible_room": _bool("step-free, accessible bathroom", False),
                "breakfast": _bool("include breakfast", False),
                "pillow": _enum("pillow type", ["standard", "firm", "soft", "hypoallergenic"], "standard"),
                "max_price_per_night": _num("price limit per night", 30, 1000),
            },
            ["city", "check_in", "nights"],
        ),
        _tool(
            "set_reminder",
            "planning",
            "Set a reminder that alerts the user at a given time.",
            {
                "text": _str("what to be reminded of"),
                "when": _DATETIME,
                "lead_minutes": _int("how long before the time to remind", 0, 2880, 15),
                "channel": _enum("how to remind", ["notification", "email", "sms", "call"], "notification"),
                "repeat": _enum("repetition", ["none", "daily", "weekdays", "weekly", "monthly"], "none"),
                "priority": _enum("priority", ["low", "normal", "high"], "normal"),
            },
            ["text", "when"],
        ),
        _tool(
            "create_workout_plan",
            "health",
            "Create a weekly workout plan.",
            {
                "goal": _enum(
                    "main goal",
                    ["general_fitness", "strength", "endurance", "weight_loss", "mobility", "rehab"],
                    "general_fitness",
                ),
                "intensity": _enum("effort level", ["low", "moderate", "high"], "moderate"),
                "session_minutes": _int("length of one session", 10, 120, 45),
                "days_per_week": _int("sessions per week", 1, 7, 3),
                "impact": _enum("joint impact of the exercises", ["low", "normal", "high"], "normal"),
                "location": _enum("where to train", ["home", "gym", "outdoors", "pool"], "gym"),
                "time_of_day": _enum("when to train", ["early_morning", "morning", "lunchtime", "evening"]),
            },
            ["goal"],
        ),
        _tool(
            "create_meal_plan",
            "health",
            "Create a meal plan.",
            {
                "days": _int("days covered", 1, 14, 7),
                "diet": _enum(
                    "diet",
                    ["omnivore", "vegetarian", "vegan", "pescatarian", "keto", "mediterranean"],
                    "omnivore",
                ),
                "calories_per_day": _int("daily energy target, kcal", 1200, 4000, 2000),
                "meals_per_day": _int("meals per day", 2, 6, 3),
                "exclude_ingredients": _list("ingredients to leave out", _str("an ingredient")),
                "spice_level": _enum("how spicy", SPICE, "medium"),
                "texture": _enum("texture of the food", TEXTURE, "regular"),
                "max_cooking_minutes": _int("longest cooking time per meal", 5, 120, 30),
                "caffeine": _enum("caffeine in drinks", ["regular", "decaf", "half_caf", "none"], "regular"),
            },
            ["days"],
        ),
        _tool(
            "book_fitness_class",
            "health",
            "Book a place in a fitness class.",
            {
                "class_type": _enum(
                    "kind of class",
                    ["yoga", "pilates", "spin", "hiit", "swimming", "boxing", "dance", "strength"],
                ),
                "date": _DATE,
                "time_of_day": _enum("when", ["early_morning", "morning", "lunchtime", "evening"]),
                "level": _enum("level", ["beginner", "intermediate", "advanced"], "intermediate"),
                "instructor": _enum("instructor", ["no_preference", "female", "male"], "no_preference"),
                "studio": _str("studio or gym"),
            },
            ["class_type", "date"],
        ),
        _tool(
            "book_flight",
            "transportation",
            "Book a flight on a plane between two airports.",
            {
                "origin": _str("departure airport code or city"),
                "destination": _str("arrival airport code or city"),
                "date": _DATE,
                "cabin": _enum("cabin class", ["economy", "premium_economy", "business", "first"], "economy"),
                "seat": _enum("seat position", ["any", "window", "aisle", "middle"], "any"),
                "departure_window": _enum("time of departure", ["any", *TIMES_OF_DAY, "red_eye"], "any"),
                "max_stops": _int("most stops allowed", 0, 3, 1),
                "meal": _enum(
                    "meal request",
                    ["standard", "vegetarian", "vegan", "halal", "kosher", "gluten_free", "diabetic"],
                    "standard",
                ),
                "checked_bags": _int("checked bags", 0, 3, 1),
                "assistance": _enum(
                    "special assistance", ["none", "wheelchair", "visual", "hearing"], "none"
                ),
                "max_price": _num("price limit", 50, 10000),
            },
            ["origin", "destination", "date"],
        ),
        _tool(
            "book_train",
            "transportation",
            "Book a train ticket.",
            {
                "origin": _str("departure station or city"),
                "destination": _str("arrival station or city"),
                "date": _DATE,
                "travel_class": _enum("class", ["standard", "first"], "standard"),
                "seat": _enum("seat", ["any", "window", "aisle", "table"], "any"),
                "coach": _enum("coach", ["any", "quiet", "family"], "any"),
                "departure_window": _enum("time of departure", ["any", *TIMES_OF_DAY], "any"),
                "railcard": _bool("apply the user's railcard discount", False),
                "bike_space": _bool("reserve a bike space", False),
            },
            ["origin", "destination", "date"],
        ),
        _tool(
            "book_ride",
            "transportation",
            "Book a taxi or ride-hailing car to drive the user somewhere.",
            {
                "pickup": _str("pickup address or place"),
                "destination": _str("drop-off address or place"),
                "when": _DATETIME,
                "ride_type": _enum(
                    "vehicle class",
                    ["shared", "standard", "comfort", "xl", "accessible", "premium"],
                    "standard",
                ),
                "quiet_ride": _bool("ask the driver for a quiet ride", False),
                "temperature": _enum("cabin temperature", ["cool", "normal", "warm"], "normal"),
                "payment": _enum("payment method", ["card", "cash", "wallet", "corporate"], "card"),
                "child_seat": _bool("child seat needed", False),
            },
            ["pickup", "destination"],
        ),
        _tool(
            "rent_car",
            "transportation",
            "Rent a car to drive yourself for some days.",
            {
                "pickup_location": _str("where to collect the car"),
                "pickup_date": _DATE,
                "days": _int("rental days", 1, 60),
                "car_class": _enum(
                    "car class", ["economy", "compact", "midsize", "suv", "electric", "van"], "compact"
                ),
                "transmission": _enum("gearbox", ["automatic", "manual"], "automatic"),
                "insurance": _enum("insurance cover", ["basic", "standard", "full"], "basic"),
                "child_seats": _int("child seats", 0, 3, 0),
            },
            ["pickup_location", "pickup_date", "days"],
        ),
        _tool(
            "book_appointment",
            "medical",
            "Book a medical, dental or therapy appointment.",
            {
                "provider": _enum(
                    "kind of clinician",
                    ["gp", "dentist", "physiotherapist", "dermatologist", "optometrist", "therapist"],
                ),
                "date": _DATE,
                "time_of_day": _enum("preferred time", ["any", *TIMES_OF_DAY], "any"),
                "mode": _enum("how the appointment happens", ["in_person", "video", "phone"], "in_person"),
                "clinician_gender": _enum("clinician", ["no_preference", "female", "male"], "no_preference"),
                "reminder_hours": _int("reminder before the appointment, hours", 0, 72, 24),
                "reason": _str("reason for the visit", max_length=500),
            },
            ["provider"],
        ),
        _tool(
            "refill_prescription",
            "medical",
            "Request a prescription refill from a pharmacy.",
            {
                "medication": _str("medication name"),
                "supply_days": _enum("days of supply", [30, 60, 90], 30),
                "fulfilment": _enum("collect or deliver", ["pickup", "delivery"], "pickup"),
                "pharmacy": _str("pharmacy name"),
                "generic_ok": _bool("a generic equivalent is acceptable", True),
                "packaging": _enum("packaging", ["standard", "blister_pack", "easy_open"], "standard"),
                "auto_refill": _bool("refill automatically from now on", False),
            },
            ["medication"],
        ),
        _tool(
            "book_table",
            "leisure",
            "Reserve a restaurant table.",
            {
                "restaurant": _str("restaurant name"),
                "date": _DATE,
                "time": _TIME,
                "party_size": _int("number of people", 1, 20, 2),
                "seating": _enum("where to sit", ["any", "indoor", "outdoor", "bar", "booth"], "any"),
                "ambience": _enum("noise level", ["any", "quiet", "lively"], "any"),
                "occasion": _enum("occasion", ["none", "birthday", "anniversary", "business"], "none"),
                "dietary_notes": _list("dietary requirements", _enum("a requirement", DIETARY)),
            },
            ["restaurant", "date", "time"],
        ),
        _tool(
            "book_tickets",
            "leisure",
            "Buy tickets for a film, concert, play or game.",
            {
                "event_type": _enum("kind of event", ["movie", "concert", "theatre", "comedy", "sport"]),
                "title": _str("film or event title"),
                "date": _DATE,
                "showing": _enum("time of the showing", ["any", "matinee", "evening", "late"], "any"),
                "seat_area": _enum(
                    "where to sit", ["any", "front", "middle", "back", "aisle", "balcony"], "any"
                ),
                "format": _enum(
                    "screening format", ["standard", "imax", "3d", "subtitled", "relaxed"], "standard"
                ),
                "quantity": _int("number of tickets", 1, 10, 1),
                "accessible_seating": _bool("wheelchair or step-free seating", False),
            },
            ["event_type", "title", "date"],
        ),
        _tool(
            "subscribe_news",
            "information",
            "Set up a news briefing subscription.",
            {
                "topics": _list(
                    "topics to include", _enum("a topic", NEWS_TOPICS), min_items=1, max_items=10
                ),
                "exclude_topics": _list("topics to leave out", _enum("a topic", NEWS_TOPICS), max_items=10),
                "frequency": _enum("how often", ["daily", "twice_daily", "weekly"], "daily"),
                "delivery_time": _enum("when it arrives", ["morning", "midday", "evening"], "morning"),
                "format": _enum("depth", ["headlines", "summaries", "long_reads"], "summaries"),
                "max_items": _int("stories per briefing", 1, 50, 10),
            },
            ["topics"],
        ),
        _tool(
            "save_note",
            "information",
            "Save a note in the user's notebook.",
            {
                "title": _str("note title"),
                "body": _str("note text", max_length=20000),
                "folder": _enum(
                    "folder",
                    [
                        "inbox",
                        "work",
                        "meetings",
                        "personal",
                        "projects",
                        "health",
                        "finance",
                        "travel",
                        "recipes",
                        "reading",
                    ],
                    "inbox",
                ),
                "tags": _list("tags", _str("a tag", max_length=40)),
                "format": _enum("layout of the body", ["prose", "bullets", "numbered", "checklist"], "prose"),
                "pinned": _bool("pin to the top", False),
            },
            ["title", "body"],
        ),
    ]
    return {t.name: t for t in tools}


REGISTRY: dict[str, Tool] = _build()

_STATUS = {
    "save_note": "saved",
    "set_reminder": "scheduled",
    "subscribe_news": "subscribed",
    "create_event": "created",
    "create_workout_plan": "created",
    "create_meal_plan": "created",
}
_PREFIX = {"send_email": "MSG", "save_note": "NOTE", "set_reminder": "REM", "subscribe_news": "SUB"}


def get_tool(name: str) -> Tool:
    """The tool called ``name``; an unknown name raises IbachatError naming the closest tools."""
    tool = REGISTRY.get(name)
    if tool is not None:
        return tool
    close = difflib.get_close_matches(str(name), list(REGISTRY), n=3, cutoff=0.5)
    hint = f"did you mean {', '.join(close)}?" if close else f"known tools: {', '.join(sorted(REGISTRY))}"
    raise IbachatError(f"unknown tool {name!r}; {hint}")


def tools_for(domain: str | None = None) -> list[Tool]:
    """Tools sorted by name, optionally only those of one domain."""
    if domain is not None and domain not in DOMAINS:
        raise IbachatError(f"unknown domain {domain!r}; domains: {', '.join(DOMAINS)}")
    return [REGISTRY[n] for n in sorted(REGISTRY) if domain is None or REGISTRY[n].domain == domain]


def as_task_tool(tool: Tool) -> dict[str, Any]:
    """The tool as a task's ``task.tools`` item: name, description, parameters (a copy)."""
    return {"name": tool.name, "description": tool.description, "parameters": copy.deepcopy(tool.parameters)}


@cache
def _validator(name: str) -> Any:
    from jsonschema import Draft202012Validator, FormatChecker

    return Draft202012Validator(get_tool(name).parameters, format_checker=FormatChecker())


@lru_cache(maxsize=1024)
def _schema_validator(key: str) -> Any:
    import jsonschema

    schema = json.loads(key)
    kind = jsonschema.validators.validator_for(schema)
    kind.check_schema(schema)  # a malformed schema raises here, once, as jsonschema.validate would
    return kind(schema)


def schema_error(value: Any, schema: dict[str, Any]) -> Any:
    """The error ``jsonschema.validate(value, schema)`` would raise, or None; the schema is checked and
    compiled once per distinct schema (``validate`` checks it against the meta-schema on every call,
    about 1.4 ms, which was 8 ms of every planned action)."""
    import jsonschema

    key = json.dumps(schema, sort_keys=True, default=str)
    return jsonschema.exceptions.best_match(_schema_validator(key).iter_errors(value))


def validate_arguments(name: str, arguments: Any) -> None:
    """Raise IbachatError with the first error's path and message when ``arguments`` do not fit."""
    get_tool(name)
    if not isinstance(arguments, dict):
        raise IbachatError(f"{name}: arguments must be a JSON object, got {type(arguments).__name__}")
    validator = _validator(name)
    errors = sorted(
        validator.iter_errors(arguments), key=lambda e: (list(map(str, e.absolute_path)), e.message)
    )
    if errors:
        first = errors[0]
        where = ".".join(str(p) for p in first.absolute_path) or "arguments"
        raise IbachatError(f"{name}: invalid {where}: {first.message}")


def confirmation_id(name: str, arguments: dict[str, Any]) -> str:
    """A deterministic reference for a call: the same arguments always give the same id."""
    canonical = json.dumps(
        {"name": name, "arguments": arguments}, sort_keys=True, ensure_ascii=False, default=str
    )
    digest = hashlib.sha256(canonical.encode("utf-8")).hexdigest()[:8].upper()
    return f"{_PREFIX.get(name, name.split('_')[0][:4].upper())}-{digest}"


def execute(name: str, arguments: dict[str, Any], *, log: list | None = None) -> dict[str, Any]:
    """Validate and "run" a tool: nothing real happens; the call is appended to ``log`` if given."""
    validate_arguments(name, arguments)
    status = _STATUS.get(name, "confirmed")
    if name == "send_email":
        status = {"send": "sent", "draft": "drafted", "schedule": "scheduled"}[arguments.get("mode", "send")]
    result = {
        "status": status,
        "tool": name,
        "confirmation": confirmation_id(name, arguments),
        "arguments": copy.deepcopy(arguments),
    }
    if log is not None:
        log.append({"name": name, "arguments": copy.deepcopy(arguments), "result": copy.deepcopy(result)})
    return result
