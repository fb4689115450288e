"""Dimensions of travel: transport, where the user lives, places to stay, accessibility."""

from __future__ import annotations

from bench.generator.dims import Add, Catalog, Dim, b, exact, ident, p
from bench.generator.world import CITIES


def _transport(dim: Add) -> None:
    # ---- transport
    dim(
        "travel.seat",
        ("window", "aisle"),
        p(window=["a window seat", "the window"], aisle=["an aisle seat", "the aisle"]),
        ["seats on planes and trains", "where I sit when travelling"],
        bindings=(
            b("book_flight", "seat", ident(("window", "aisle"))),
            b("book_train", "seat", ident(("window", "aisle"))),
        ),
    )
    cab = ("economy", "premium_economy", "business")
    dim(
        "flight.cabin",
        cab,
        p(
            economy=["economy", "the cheap seats"],
            premium_economy=["premium economy"],
            business=["business class"],
        ),
        ["flying", "cabin class"],
        bindings=(b("book_flight", "cabin", ident(cab)),),
    )
    dep = ("early_morning", "morning", "afternoon", "evening")
    dim(
        "travel.departure",
        dep,
        p(
            early_morning=["the first departure of the day", "a really early start"],
            morning=["a mid-morning departure", "leaving in the morning"],
            afternoon=["an afternoon departure", "leaving after lunch"],
            evening=["an evening departure", "leaving after work"],
        ),
        ["departure times", "when I travel"],
        bindings=(
            b("book_flight", "departure_window", ident(dep)),
            b("book_train", "departure_window", ident(dep)),
        ),
    )
    dim(
        "flight.stops",
        ("nonstop", "one_stop", "any"),
        p(
            nonstop=["direct flights only", "nonstop flights"],
            one_stop=["at most one connection"],
            any=["the cheapest route, however many stops"],
        ),
        ["connections", "layovers"],
        bindings=(
            b(
                "book_flight",
                "max_stops",
                {"nonstop": 0, "one_stop": 1, "any": 3},
                {"nonstop": (0, 0), "any": (2, 3)},
            ),
        ),
    )
    dim(
        "flight.bags",
        (0, 1, 2),
        p(
            **{
                "0": ["hand luggage only", "no checked bag"],
                "1": ["one checked bag"],
                "2": ["two checked bags"],
            }
        ),
        ["luggage", "bags"],
        bindings=(b("book_flight", "checked_bags", exact((0, 1, 2))),),
    )
    dim(
        "travel.mode",
        ("train", "flight"),
        p(train=["the train", "going by rail"], flight=["flying", "a plane"]),
        ["getting between cities", "trips to other cities"],
        asks={
            "train": (
                "Took the train to {city} again. So much nicer than flying.",
                "Rail all the way to {city}, as ever.",
                "Back from {city} by train, worked the whole way.",
            ),
            "flight": (
                "Flew to {city} again, the train just takes forever.",
                "Quick flight to {city} and back, easy.",
                "Hopped on a plane to {city}, trains are too slow for me.",
            ),
        },
        rejectable=False,
    )
    dim(
        "train.class",
        ("standard", "first"),
        p(standard=["standard class"], first=["first class"]),
        ["train tickets", "train class"],
        bindings=(b("book_train", "travel_class", ident(("standard", "first"))),),
    )
    dim(
        "train.coach",
        ("any", "quiet"),
        p(any=["any coach"], quiet=["the quiet coach", "the quiet carriage"]),
        ["train coaches", "where I sit on trains"],
        bindings=(b("book_train", "coach", {"any": None, "quiet": "quiet"}),),
    )
    dim(
        "train.railcard",
        ("yes", "no"),
        p(yes=["my railcard discount"], no=["no railcard"]),
        ["railcards", "train discounts"],
        bindings=(b("book_train", "railcard", {"yes": True, "no": None}),),
        weights=(0.5, 0.5),
    )
    rides = ("shared", "standard", "comfort", "xl", "premium", "accessible")
    dim(
        "ride.type",
        rides,
        p(
            shared=["a shared ride", "the pool option"],
            standard=["a standard car"],
            comfort=["a comfort car", "something with legroom"],
            xl=["an XL car", "a big car"],
            premium=["a premium car", "the fancy cars"],
            accessible=["a wheelchair-accessible car"],
        ),
        ["taxis", "ride bookings"],
        bindings=(b("book_ride", "ride_type", ident(rides)),),
        weights=(0.2, 0.2, 0.2, 0.2, 0.2, 0.0),
    )
    dim(
        "ride.quiet",
        ("yes", "no"),
        p(yes=["a quiet ride", "no chit-chat with the driver"], no=["chatting with drivers"]),
        ["taxi rides", "drivers"],
        bindings=(b("book_ride", "quiet_ride", {"yes": True, "no": None}),),
    )
    dim(
        "ride.temperature",
        ("cool", "normal", "warm"),
        p(
            cool=["the car kept cool", "the AC on"],
            normal=["normal temperature"],
            warm=["the car nice and warm", "the heating up"],
        ),
        ["the temperature in cars", "taxi climate"],
        bindings=(b("book_ride", "temperature", ident(("cool", "normal", "warm"))),),
    )
    dim(
        "family.kids",
        (0, 1, 2),
        p(**{"0": ["no child seats"], "1": ["one child seat"], "2": ["two child seats"]}),
        ["the kids' car seats", "travelling with the kids"],
        bindings=(
            b("rent_car", "child_seats", exact((0, 1, 2))),
            b("book_ride", "child_seat", {0: None, 1: True, 2: True}),
        ),
        weights=(0.5, 0.25, 0.25),
        rejectable=False,
        stance="need",
    )
    dim(
        "car.transmission",
        ("automatic", "manual"),
        p(automatic=["an automatic", "automatic gears"], manual=["a manual", "stick shift"]),
        ["rental cars", "gearboxes"],
        bindings=(b("rent_car", "transmission", ident(("automatic", "manual"))),),
    )
    cls = ("economy", "compact", "midsize", "suv", "electric")
    dim(
        "car.class",
        cls,
        p(
            economy=["the smallest car"],
            compact=["a compact car"],
            midsize=["a midsize car"],
            suv=["an SUV"],
            electric=["an electric car", "an EV"],
        ),
        ["car hire", "rental cars"],
        bindings=(b("rent_car", "car_class", ident(cls)),),
    )
    ins = ("basic", "standard", "full")
    dim(
        "car.insurance",
        ins,
        p(
            basic=["basic insurance only"],
            standard=["the standard cover"],
            full=["full insurance", "zero-excess cover"],
        ),
        ["rental insurance", "car hire cover"],
        bindings=(b("rent_car", "insurance", ident(ins)),),
    )


def _stays(dim: Add) -> None:
    cities = tuple(c[0] for c in CITIES)
    dim(
        "home.city",
        cities,
        {c: [c] for c in cities},
        ["where I live", "home"],
        asks={
            "*": (
                "Back home in {p} now, what a trip.",
                "It's pouring in {p} today.",
                "Love {p} in the spring, honestly.",
            )
        },
        bindings=(
            b("book_flight", "origin", {c[0]: c[1] for c in CITIES}, {c[0]: [c[1], c[0]] for c in CITIES}),
            b("book_train", "origin", {c[0]: c[2] for c in CITIES}, {c[0]: [c[2], c[0]] for c in CITIES}),
        ),
        rejectable=False,
    )
    dim(
        "hotel.floor",
        ("low", "high", "any"),
        p(
            low=["a low floor", "somewhere near the ground floor"],
            high=["a high floor", "a room up high"],
            any=["any floor"],
        ),
        ["hotel rooms", "which floor I stay on"],
        bindings=(b("book_hotel", "floor", {"low": "low", "high": "high", "any": None}),),
    )
    dim(
        "hotel.quiet",
        ("yes", "no"),
        p(yes=["a quiet room away from the lifts"], no=["any room, noise doesn't bother me"]),
        ["hotel noise", "where my room is"],
        bindings=(b("book_hotel", "quiet_room", {"yes": True, "no": None}),),
    )
    pil = ("standard", "firm", "soft", "hypoallergenic")
    dim(
        "hotel.pillow",
        pil,
        p(
            standard=["normal pillows"],
            firm=["firm pillows"],
            soft=["soft pillows"],
            hypoallergenic=["hypoallergenic pillows"],
        ),
        ["pillows", "hotel bedding"],
        bindings=(b("book_hotel", "pillow", ident(pil)),),
    )
    dim(
        "hotel.breakfast",
        ("yes", "no"),
        p(yes=["breakfast included"], no=["room only, no breakfast"]),
        ["hotel breakfast", "breakfast when I travel"],
        bindings=(b("book_hotel", "breakfast", {"yes": True, "no": False}),),
    )
    dim(
        "budget.level",
        ("budget", "mid", "upscale"),
        p(
            budget=["cheap places, under about 120 a night"],
            mid=["mid-range places, roughly 100 to 250 a night"],
            upscale=["nice hotels, 250 a night or more"],
        ),
        ["hotel budget", "what I spend on places to stay"],
        bindings=(
            b(
                "book_hotel",
                "max_price_per_night",
                {"budget": 110, "mid": 200, "upscale": 400},
                {"budget": (30, 120), "mid": (100, 250), "upscale": (250, 1000)},
            ),
        ),
    )
    dim(
        "access.mobility",
        ("none", "limited", "wheelchair"),
        p(
            none=["no mobility needs"],
            limited=["step-free access, I can't do stairs"],
            wheelchair=["wheelchair access"],
        ),
        ["accessibility", "getting around"],
        bindings=(
            b("book_hotel", "accessible_room", {"none": None, "limited": True, "wheelchair": True}),
            b("book_tickets", "accessible_seating", {"none": None, "limited": True, "wheelchair": True}),
            b("book_flight", "assistance", {"none": None, "limited": None, "wheelchair": "wheelchair"}),
        ),
        weights=(0.6, 0.25, 0.15),
        rejectable=False,
        stance="need",
    )


def build() -> list[Dim]:
    c = Catalog()
    for part in (_transport, _stays):
        part(c.add)
    return c.items
