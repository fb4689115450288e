"""Dimensions of leisure, health and medical care."""

from __future__ import annotations

from bench.generator.dims import ACTIVITY, BOOKS, FILM, Add, Catalog, Dim, b, exact, ident, p


def _leisure(dim: Add) -> None:
    seat = ("indoor", "outdoor", "bar", "booth")
    dim(
        "table.seating",
        seat,
        p(
            indoor=["a table inside"],
            outdoor=["sitting outside", "a terrace table"],
            bar=["seats at the bar"],
            booth=["a booth"],
        ),
        ["restaurant tables", "where we sit when eating out"],
        bindings=(b("book_table", "seating", ident(seat)),),
    )
    dim(
        "table.ambience",
        ("quiet", "lively", "any"),
        p(
            quiet=["a quiet corner", "somewhere calm"],
            lively=["a lively buzz", "somewhere with atmosphere"],
            any=["any atmosphere"],
        ),
        ["restaurant atmosphere", "noise when eating out"],
        bindings=(b("book_table", "ambience", {"quiet": "quiet", "lively": "lively", "any": None}),),
    )
    dim(
        "group.size",
        (2, 3, 4, 5),
        p(
            **{
                "2": ["just the two of us"],
                "3": ["the three of us"],
                "4": ["the four of us"],
                "5": ["all five of us"],
            }
        ),
        ["our usual group", "how many of us go out"],
        bindings=(
            b("book_table", "party_size", exact((2, 3, 4, 5))),
            b("book_tickets", "quantity", exact((2, 3, 4, 5))),
        ),
        rejectable=False,
        stance="usually",
    )
    dim(
        "tickets.showing",
        ("matinee", "evening", "late"),
        p(
            matinee=["an afternoon matinee"],
            evening=["an evening showing"],
            late=["a late showing", "the late show"],
        ),
        ["showings", "film and show times"],
        bindings=(b("book_tickets", "showing", ident(("matinee", "evening", "late"))),),
    )
    area = ("front", "middle", "back", "aisle", "balcony")
    dim(
        "tickets.seat",
        area,
        p(
            front=["seats at the front"],
            middle=["seats in the middle"],
            back=["seats at the back"],
            aisle=["aisle seats"],
            balcony=["the balcony"],
        ),
        ["cinema and theatre seats", "where I sit at shows"],
        bindings=(b("book_tickets", "seat_area", ident(area)),),
    )
    fmt = ("standard", "imax", "3d", "subtitled")
    dim(
        "tickets.format",
        fmt,
        p(
            standard=["a regular screening"],
            imax=["IMAX"],
            **{"3d": ["3D"]},
            subtitled=["subtitled screenings", "captions on"],
        ),
        ["film screenings", "cinema formats"],
        bindings=(b("book_tickets", "format", ident(fmt)),),
        weights=(0.3, 0.3, 0.2, 0.2),
    )
    dim(
        "film.genre",
        tuple(FILM),
        {g: [f"a good {FILM[g][0]}", FILM[g][-1]] for g in FILM},
        ["films", "what I watch"],
        text={g: (("text_contains_any", {"any": FILM[g]}),) for g in FILM},
        asks={
            "*": (
                "Watched another {p} last night. Loved it.",
                "Any {p} worth seeing this month?",
                "Nothing beats {p} on a Sunday.",
            )
        },
    )
    dim(
        "film.avoid",
        tuple(FILM),
        {g: [FILM[g][-1], FILM[g][0]] for g in FILM},
        ["films I skip", "what I won't watch"],
        text={g: (("text_contains_none", {"none": FILM[g]}),) for g in FILM},
        asks={
            "*": (
                "Please don't suggest {p}, I really can't stand it.",
                "Ugh, {p} again? Not for me.",
                "Skip the {p}, always.",
            )
        },
        rejectable=False,
    )
    dim(
        "book.genre",
        tuple(BOOKS),
        {g: [BOOKS[g][0], f"a {BOOKS[g][0]} book"] for g in BOOKS},
        ["books", "my reading"],
        text={g: (("text_contains_any", {"any": BOOKS[g]}),) for g in BOOKS},
        asks={
            "*": (
                "Just finished {p} and I'm hooked again.",
                "Looking for more {p} to read.",
                "Reading {p} on the train this week.",
            )
        },
    )


def _health(dim: Add) -> None:
    goals = ("general_fitness", "strength", "endurance", "weight_loss", "mobility", "rehab")
    dim(
        "workout.goal",
        goals,
        p(
            general_fitness=["general fitness"],
            strength=["getting stronger", "strength"],
            endurance=["endurance", "stamina"],
            weight_loss=["losing weight"],
            mobility=["mobility and flexibility"],
            rehab=["rehab exercises"],
        ),
        ["training goals", "why I work out"],
        bindings=(b("create_workout_plan", "goal", ident(goals)),),
        weights=(0.2, 0.2, 0.2, 0.2, 0.2, 0.0),
    )
    lmh = ("low", "moderate", "high")
    dim(
        "workout.intensity",
        lmh,
        p(
            low=["gentle workouts"],
            moderate=["moderate effort"],
            high=["really intense sessions", "pushing hard"],
        ),
        ["workouts", "exercise intensity"],
        bindings=(b("create_workout_plan", "intensity", ident(lmh)),),
    )
    dim(
        "workout.session",
        (20, 30, 45, 60),
        p(
            **{
                "20": ["twenty-minute sessions"],
                "30": ["half-hour sessions"],
                "45": ["45-minute sessions"],
                "60": ["hour-long sessions"],
            }
        ),
        ["workout length", "how long I train"],
        bindings=(b("create_workout_plan", "session_minutes", exact((20, 30, 45, 60))),),
    )
    dim(
        "workout.days",
        (2, 3, 4, 5),
        p(
            **{
                "2": ["twice a week"],
                "3": ["three days a week"],
                "4": ["four days a week"],
                "5": ["five days a week"],
            }
        ),
        ["training days", "how often I exercise"],
        bindings=(b("create_workout_plan", "days_per_week", exact((2, 3, 4, 5))),),
    )
    loc = ("home", "gym", "outdoors", "pool")
    dim(
        "workout.location",
        loc,
        p(home=["working out at home"], gym=["the gym"], outdoors=["training outdoors"], pool=["the pool"]),
        ["where I train", "workout spots"],
        bindings=(b("create_workout_plan", "location", ident(loc)),),
    )
    tod = ("early_morning", "morning", "lunchtime", "evening")
    dim(
        "workout.time",
        tod,
        p(
            early_morning=["first thing, before 7"],
            morning=["mid-morning"],
            lunchtime=["my lunch break"],
            evening=["after work in the evening"],
        ),
        ["when I exercise", "workout times"],
        bindings=(
            b("create_workout_plan", "time_of_day", ident(tod)),
            b("book_fitness_class", "time_of_day", ident(tod)),
        ),
    )
    dim(
        "workout.impact",
        ("low", "normal", "high"),
        p(
            low=["low-impact exercise", "nothing that pounds my joints"],
            normal=["normal exercises"],
            high=["high-impact stuff like jumping"],
        ),
        ["my joints", "impact exercises"],
        bindings=(b("create_workout_plan", "impact", ident(("low", "normal", "high"))),),
        text={"low": (("text_contains_none", {"none": ["burpees", "box jumps", "jump squats", "sprints"]}),)},
        weights=(0.3, 0.4, 0.3),
    )
    ct = ("yoga", "pilates", "spin", "hiit", "swimming", "boxing", "dance")
    dim(
        "class.type",
        ct,
        p(
            yoga=["yoga"],
            pilates=["pilates"],
            spin=["spin"],
            hiit=["HIIT"],
            swimming=["swim sessions"],
            boxing=["boxing"],
            dance=["dance classes"],
        ),
        ["fitness classes", "classes at the gym"],
        bindings=(b("book_fitness_class", "class_type", ident(ct)),),
    )
    dim(
        "class.instructor",
        ("no_preference", "female", "male"),
        p(no_preference=["any instructor"], female=["a female instructor"], male=["a male instructor"]),
        ["instructors", "who teaches my classes"],
        bindings=(
            b(
                "book_fitness_class",
                "instructor",
                {"no_preference": None, "female": "female", "male": "male"},
            ),
        ),
    )
    dim(
        "meal.cooking",
        ("quick", "normal", "elaborate"),
        p(
            quick=["meals under twenty minutes", "quick cooking"],
            normal=["about half an hour of cooking"],
            elaborate=["long, proper cooking sessions"],
        ),
        ["cooking time", "how long I spend cooking"],
        bindings=(
            b(
                "create_meal_plan",
                "max_cooking_minutes",
                {"quick": 20, "normal": 40, "elaborate": 90},
                {"quick": (5, 20), "normal": (35, 45), "elaborate": (60, 120)},
            ),
        ),
    )
    dim(
        "meal.calories",
        (1600, 2200, 2600, 3000),
        p(
            **{
                "1600": ["about 1600 calories a day"],
                "2200": ["about 2200 calories a day"],
                "2600": ["around 2600 calories"],
                "3000": ["roughly 3000 calories a day"],
            }
        ),
        ["calories", "how much I eat"],
        bindings=(
            b(
                "create_meal_plan",
                "calories_per_day",
                exact((1600, 2200, 2600, 3000)),
                {v: (v - 100, v + 100) for v in (1600, 2200, 2600, 3000)},
            ),
        ),
    )
    dim(
        "health.activity",
        tuple(ACTIVITY),
        {a: [ACTIVITY[a][0]] for a in ACTIVITY},
        ["staying active", "exercise I enjoy"],
        text={a: (("text_contains_any", {"any": ACTIVITY[a]}),) for a in ACTIVITY},
        asks={
            "*": (
                "Back from {p}. Best part of my week.",
                "Going {p} again tomorrow, can't wait.",
                "Did a bit of {p} before work today.",
            )
        },
    )


def _medical(dim: Add) -> None:
    tod = ("early_morning", "morning", "afternoon", "evening")
    dim(
        "appt.time",
        tod,
        p(
            early_morning=["the first slot of the day"],
            morning=["a morning slot"],
            afternoon=["an afternoon slot"],
            evening=["an evening slot after work"],
        ),
        ["appointments", "clinic times"],
        bindings=(b("book_appointment", "time_of_day", ident(tod)),),
    )
    modes = ("in_person", "video", "phone")
    dim(
        "appt.mode",
        modes,
        p(in_person=["seeing someone in person"], video=["a video call"], phone=["a phone consultation"]),
        ["doctor's appointments", "consultations"],
        bindings=(b("book_appointment", "mode", ident(modes)),),
    )
    dim(
        "appt.clinician",
        ("no_preference", "female", "male"),
        p(no_preference=["any clinician"], female=["a female doctor"], male=["a male doctor"]),
        ["doctors", "who I see"],
        bindings=(
            b(
                "book_appointment",
                "clinician_gender",
                {"no_preference": None, "female": "female", "male": "male"},
            ),
        ),
    )
    dim(
        "appt.reminder",
        (2, 24, 48),
        p(
            **{
                "2": ["a reminder two hours before"],
                "24": ["a reminder the day before"],
                "48": ["a reminder two days ahead"],
            }
        ),
        ["appointment reminders", "reminders before appointments"],
        bindings=(b("book_appointment", "reminder_hours", exact((2, 24, 48))),),
    )
    dim(
        "rx.supply",
        (30, 60, 90),
        p(**{"30": ["a month's supply"], "60": ["two months' supply"], "90": ["a three-month supply"]}),
        ["prescriptions", "refills"],
        bindings=(b("refill_prescription", "supply_days", exact((30, 60, 90))),),
    )
    dim(
        "rx.fulfilment",
        ("pickup", "delivery"),
        p(pickup=["picking it up myself"], delivery=["home delivery"]),
        ["the pharmacy", "getting my meds"],
        bindings=(b("refill_prescription", "fulfilment", ident(("pickup", "delivery"))),),
    )
    dim(
        "rx.generic",
        ("yes", "no"),
        p(yes=["generics, they're fine"], no=["the branded version, not generics"]),
        ["generic medicines", "brands of medication"],
        bindings=(b("refill_prescription", "generic_ok", {"yes": True, "no": False}),),
    )
    pk = ("standard", "blister_pack", "easy_open")
    dim(
        "rx.packaging",
        pk,
        p(standard=["normal bottles"], blister_pack=["blister packs"], easy_open=["easy-open caps"]),
        ["pill packaging", "medicine packaging"],
        bindings=(b("refill_prescription", "packaging", ident(pk)),),
    )


def build() -> list[Dim]:
    c = Catalog()
    for part in (_leisure, _health, _medical):
        part(c.add)
    return c.items
