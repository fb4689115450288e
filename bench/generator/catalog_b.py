"""Dimensions of travel stays, leisure, health, medical care, work, writing, reading and news."""

from __future__ import annotations

from bench.generator.dims import (
    ACTIVITY,
    AVOID,
    BOOKS,
    EMOJI,
    FILM,
    SIGNOFFS,
    TOPIC_WORDS,
    Catalog,
    Dim,
    b,
    exact,
    ident,
    p,
)
from bench.generator.world import CITIES

NEWS = tuple(TOPIC_WORDS)


def _stays(dim: Catalog.add) -> None:  # type: ignore[name-defined]
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
    )


def _leisure(dim: Catalog.add) -> None:  # type: ignore[name-defined]
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


def _health(dim: Catalog.add) -> None:  # type: ignore[name-defined]
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


def _medical(dim: Catalog.add) -> None:  # type: ignore[name-defined]
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


def _work(dim: Catalog.add) -> None:  # type: ignore[name-defined]
    dim(
        "meeting.duration",
        (15, 25, 30, 45, 50),
        p(
            **{
                "15": ["fifteen-minute meetings"],
                "25": ["25-minute meetings"],
                "30": ["half-hour meetings"],
                "45": ["45-minute meetings"],
                "50": ["50-minute meetings"],
            }
        ),
        ["meetings", "meeting length"],
        bindings=(b("create_event", "duration_minutes", exact((15, 25, 30, 45, 50))),),
    )
    dim(
        "meeting.buffer",
        (0, 5, 10, 15),
        p(
            **{
                "0": ["back-to-back meetings"],
                "5": ["a five-minute gap before meetings"],
                "10": ["a ten-minute buffer"],
                "15": ["a fifteen-minute buffer before meetings"],
            }
        ),
        ["gaps between meetings", "my calendar"],
        bindings=(b("create_event", "buffer_minutes", exact((0, 5, 10, 15))),),
    )
    fm = ("in_person", "video", "phone")
    dim(
        "meeting.format",
        fm,
        p(in_person=["meeting face to face"], video=["video calls"], phone=["phone calls", "audio only"]),
        ["meetings", "how I meet people"],
        bindings=(b("create_event", "format", ident(fm)),),
    )
    dim(
        "event.reminder",
        (0, 5, 10, 15, 30),
        p(
            **{
                "0": ["no reminder"],
                "5": ["a reminder five minutes before"],
                "10": ["a ten-minute reminder"],
                "15": ["a fifteen-minute reminder"],
                "30": ["a reminder half an hour before"],
            }
        ),
        ["calendar reminders", "event alerts"],
        bindings=(b("create_event", "reminder_minutes", exact((0, 5, 10, 15, 30))),),
    )
    dim(
        "focus.duration",
        (60, 90, 120, 180),
        p(
            **{
                "60": ["one-hour focus blocks"],
                "90": ["ninety-minute blocks"],
                "120": ["two-hour blocks"],
                "180": ["three-hour blocks"],
            }
        ),
        ["focus time", "deep work blocks"],
        bindings=(b("create_event", "duration_minutes", exact((60, 90, 120, 180))),),
    )
    vis = ("busy", "private", "public")
    dim(
        "focus.visibility",
        vis,
        p(busy=["shown as busy"], private=["marked private"], public=["visible to everyone"]),
        ["focus blocks", "what people see in my calendar"],
        bindings=(b("create_event", "visibility", ident(vis)),),
    )
    dim(
        "reminder.lead",
        (5, 10, 30, 60, 1440),
        p(
            **{
                "5": ["five minutes' warning"],
                "10": ["ten minutes' notice"],
                "30": ["half an hour's notice"],
                "60": ["an hour's notice"],
                "1440": ["a reminder the day before"],
            }
        ),
        ["reminders", "how early I get reminded"],
        bindings=(b("set_reminder", "lead_minutes", exact((5, 10, 30, 60, 1440))),),
    )
    ch = ("notification", "email", "sms", "call")
    dim(
        "reminder.channel",
        ch,
        p(
            notification=["a phone notification"],
            email=["an email"],
            sms=["a text message"],
            call=["a phone call"],
        ),
        ["reminders", "how you remind me"],
        bindings=(b("set_reminder", "channel", ident(ch)),),
    )
    dim(
        "email.mode",
        ("send", "draft", "schedule"),
        p(
            send=["sending straight away"],
            draft=["a draft I can check first"],
            schedule=["scheduling it for the next morning"],
        ),
        ["emails you write for me", "sending emails"],
        bindings=(b("send_email", "mode", ident(("send", "draft", "schedule"))),),
    )
    tones = ("formal", "neutral", "casual", "warm")
    dim(
        "write.tone",
        tones,
        p(
            formal=["a formal tone"],
            neutral=["a neutral tone"],
            casual=["a casual, relaxed tone"],
            warm=["a warm, friendly tone"],
        ),
        ["my emails", "how I sound in writing"],
        bindings=(b("send_email", "tone", ident(tones)),),
        rubric={
            "formal": "The text is formal and polished: no slang, no contractions-heavy chattiness.",
            "casual": "The text is casual and relaxed, like a note to a friend; not stiff or corporate.",
            "warm": "The text is warm and friendly, with personal warmth rather than a businesslike tone.",
        },
    )
    dim(
        "write.signoff",
        SIGNOFFS,
        {s: [f"'{s}'"] for s in SIGNOFFS},
        ["how I sign off", "email endings"],
        bindings=(
            b(
                "send_email",
                "sign_off",
                {s: s for s in SIGNOFFS},
                {s: [s] for s in SIGNOFFS},
                "param_contains_any",
            ),
        ),
        text={s: (("text_contains_any", {"any": [s]}),) for s in SIGNOFFS},
        asks={
            "*": (
                "Sign it off with {p}, like I always do.",
                "End it with {p} please.",
                "Change the closing to {p}.",
            )
        },
    )


def _text(dim: Catalog.add) -> None:  # type: ignore[name-defined]
    lengths = ("short", "medium", "long")
    dim(
        "write.length",
        lengths,
        p(short=["short messages"], medium=["medium-length messages"], long=["long, detailed messages"]),
        ["emails and messages", "things I send"],
        text={"short": (("text_max_words", {"max": 90}),), "long": (("text_min_words", {"min": 220}),)},
        asks={
            "short": (
                "Too long. Cut it down to a few lines.",
                "Can you make that shorter? Nobody reads long emails.",
                "Trim it, please, half the length.",
                "Shorter. Much shorter.",
            ),
            "long": (
                "This feels too thin. Can you expand it?",
                "Add more detail, I like it thorough.",
                "Flesh that out a lot more, please.",
                "Longer please, it reads as curt.",
            ),
        },
    )
    dim(
        "read.length",
        lengths,
        p(short=["short answers"], medium=["medium-length answers"], long=["long, in-depth answers"]),
        ["summaries and explanations", "how much I read"],
        text={"short": (("text_max_words", {"max": 100}),), "long": (("text_min_words", {"min": 250}),)},
        asks={
            "short": (
                "Too much to read. Give me the short version.",
                "Summarise that in a few lines?",
                "Condense that, I just need the gist.",
                "Way too long for me, cut it down.",
            ),
            "long": (
                "Go deeper, I want the full picture.",
                "More detail please, I like long explanations.",
                "That's too brief. Expand on it properly.",
                "Can you give me the long version?",
            ),
        },
    )
    fmts = ("bullets", "numbered", "prose")
    dim(
        "read.format",
        fmts,
        p(bullets=["bullet points"], numbered=["numbered lists"], prose=["normal paragraphs"]),
        ["how things are laid out", "lists and layout"],
        bindings=(b("save_note", "format", ident(fmts)),),
        text={f: (("text_format", {"format": f}),) for f in fmts},
        asks={
            "bullets": (
                "Can you put that in bullet points?",
                "Bullets please, easier to skim.",
                "Break it into bullet points for me.",
            ),
            "numbered": (
                "Number those, please.",
                "Make it a numbered list so I can tick things off.",
                "Can you turn that into a numbered list?",
            ),
            "prose": (
                "No bullet points please, just write it as normal paragraphs.",
                "Rewrite that as flowing text? Lists feel choppy to me.",
                "Paragraphs, please, not a list.",
            ),
        },
    )
    dim(
        "read.tldr",
        ("yes", "no"),
        p(yes=["a TL;DR at the top"], no=["no summary line"]),
        ["summaries", "long documents"],
        text={"yes": (("text_contains_any", {"any": ["TL;DR", "TLDR"]}),)},
        asks={
            "yes": (
                "Stick a TL;DR at the top, like usual.",
                "Lead with a TL;DR please.",
                "Where's the TL;DR? Always put one first.",
            )
        },
    )
    dim(
        "work.actions",
        ("yes", "no"),
        p(yes=["an action items section"], no=["no action list"]),
        ["work documents", "summaries at work"],
        text={"yes": (("text_contains_any", {"any": ["Action items", "Next steps"]}),)},
        asks={
            "yes": (
                "Add the action items at the end.",
                "Finish with the next steps, please.",
                "Don't forget the action items section.",
            )
        },
    )
    dim(
        "units",
        ("metric", "imperial"),
        p(
            metric=["kilometres and kilograms", "metric units"],
            imperial=["miles and pounds", "imperial units"],
        ),
        ["units", "distances"],
        text={
            "metric": (
                ("text_contains_any", {"any": ["km", "kilometres", "kilometers", "metres", "meters"]}),
            ),
            "imperial": (("text_contains_any", {"any": ["miles", "mile", "feet", "yards"]}),),
        },
        asks={
            "metric": (
                "Give me that in kilometres, I don't think in miles.",
                "Metric please, km and kg.",
                "Did about {n} km this morning, legs are dead.",
            ),
            "imperial": (
                "Miles please, I can't picture kilometres.",
                "Can you give that in miles?",
                "Walked about {n} miles today, felt good.",
            ),
        },
    )
    dim(
        "write.avoid",
        AVOID,
        {a: [f"'{a}'"] for a in AVOID},
        ["phrases I hate", "clichés"],
        text={a: (("text_contains_none", {"none": [a]}),) for a in AVOID},
        asks={
            "*": (
                "Please never write {p}. I can't stand that phrase.",
                "Take out {p}. I hate it.",
                "Don't use {p} in anything you write for me.",
            )
        },
        rejectable=False,
    )
    dim(
        "write.emoji",
        ("yes", "no"),
        p(yes=["a couple of emojis"], no=["no emojis"]),
        ["emojis", "casual messages"],
        text={
            "yes": (("text_contains_any", {"any": EMOJI}),),
            "no": (("text_contains_none", {"none": EMOJI}),),
        },
        asks={
            "yes": (
                "Add an emoji or two 🙂",
                "Needs a couple of emojis, it's too dry.",
                "Throw in some emojis, that's my style 🎉",
            ),
            "no": (
                "Take the emojis out, please.",
                "No emojis, they look silly coming from me.",
                "Lose the emoji.",
            ),
        },
    )
    dim(
        "write.hashtags",
        ("yes", "no"),
        p(yes=["a few hashtags"], no=["no hashtags"]),
        ["hashtags", "posts"],
        text={
            "yes": (("text_contains_any", {"any": ["#"]}),),
            "no": (("text_contains_none", {"none": ["#"]}),),
        },
        asks={
            "yes": (
                "Add a couple of hashtags at the end.",
                "Hashtags please, otherwise nobody sees it.",
                "Tag it, a few hashtags.",
            ),
            "no": (
                "No hashtags, please. I hate them.",
                "Remove the hashtags.",
                "Drop the hashtags, they look desperate.",
            ),
        },
    )


def _info(dim: Catalog.add) -> None:  # type: ignore[name-defined]
    dim(
        "news.topic",
        NEWS,
        {t: [TOPIC_WORDS[t][0]] for t in NEWS},
        ["news", "what I follow"],
        bindings=(b("subscribe_news", "topics", {t: [t] for t in NEWS}),),
        text={t: (("text_contains_any", {"any": TOPIC_WORDS[t]}),) for t in NEWS},
        asks={
            "*": (
                "Anything new on {p} today?",
                "Did you see the latest {p} story?",
                "I've been reading a lot about {p} lately.",
            )
        },
    )
    dim(
        "news.avoid",
        NEWS,
        {t: [TOPIC_WORDS[t][0]] for t in NEWS},
        ["news I skip", "topics I avoid"],
        bindings=(b("subscribe_news", "exclude_topics", {t: [t] for t in NEWS}),),
        text={t: (("text_contains_none", {"none": TOPIC_WORDS[t]}),) for t in NEWS},
        asks={
            "*": (
                "Please spare me the {p} stories.",
                "I honestly don't care about {p}. Skip it.",
                "No {p} please, it just winds me up.",
            )
        },
        rejectable=False,
    )
    fq = ("daily", "twice_daily", "weekly")
    dim(
        "news.frequency",
        fq,
        p(
            daily=["one briefing a day"],
            twice_daily=["a morning and an evening briefing"],
            weekly=["a weekly roundup"],
        ),
        ["news briefings", "how often I read news"],
        bindings=(b("subscribe_news", "frequency", ident(fq)),),
    )
    dp = ("headlines", "summaries", "long_reads")
    dim(
        "news.depth",
        dp,
        p(headlines=["just the headlines"], summaries=["short summaries"], long_reads=["long reads"]),
        ["news", "how deep I read"],
        bindings=(b("subscribe_news", "format", ident(dp)),),
    )
    dim(
        "notes.pinned",
        ("yes", "no"),
        p(yes=["pinned to the top"], no=["not pinned"]),
        ["my notes", "notes I save"],
        bindings=(b("save_note", "pinned", {"yes": True, "no": None}),),
    )
    fl = ("meetings", "work", "projects")
    dim(
        "notes.folder",
        fl,
        p(meetings=["the Meetings folder"], work=["the Work folder"], projects=["the Projects folder"]),
        ["meeting notes", "where notes go"],
        bindings=(b("save_note", "folder", ident(fl)),),
    )


def build() -> list[Dim]:
    c = Catalog()
    for part in (_stays, _leisure, _health, _medical, _work, _text, _info):
        part(c.add)
    return c.items
