"""Foreign spellings of the health, transportation, medical, leisure and information tools."""

from __future__ import annotations

from fractions import Fraction

from bench.generator.foreign_spec import (
    CAFF,
    CLOCK,
    DAY,
    DIET_TAGS,
    HEAT,
    HEAT_TEXT,
    MOMENT,
    MOUTHFEEL,
    NEWS,
    SEATS,
    TOD,
    VIA,
    WHO,
    P,
    T,
)

TOOLS_B: dict[str, T] = {
    "create_workout_plan": T(
        "trainingProgramme",
        "Draw up a weekly exercise programme.",
        {
            "goal": P(
                "aim",
                "what the programme builds",
                {
                    "general_fitness": "ALL_ROUND",
                    "strength": "MUSCLE",
                    "endurance": "STAMINA",
                    "weight_loss": "FAT_LOSS",
                    "mobility": "FLEXIBILITY",
                    "rehab": "POST_INJURY",
                },
            ),
            "intensity": P(
                "exertion",
                "exertion 1-3: 1 easy, 2 steady, 3 hard",
                {"low": 1, "moderate": 2, "high": 3},
                scale=True,
            ),
            "session_minutes": P("blockMinutes", "minutes per workout"),
            "days_per_week": P("weeklyFrequency", "workouts each week"),
            "impact": P(
                "jointLoad",
                "stress on knees and hips",
                {"low": "JOINT_KIND", "normal": "TYPICAL", "high": "PLYOMETRIC"},
            ),
            "location": P(
                "trainingSpot",
                "where the workouts happen",
                {"home": "LIVING_ROOM", "gym": "FITNESS_CENTRE", "outdoors": "OPEN_AIR", "pool": "AQUATIC"},
            ),
            "time_of_day": P("daypart", "part of the day", TOD),
        },
    ),
    "create_meal_plan": T(
        "dietSchedule",
        "Draw up a menu of meals spanning several days.",
        {
            "days": P("coverageDays", "how many days it covers"),
            "diet": P(
                "eatingStyle",
                "overall way of eating",
                {
                    "omnivore": "EATS_EVERYTHING",
                    "vegetarian": "LACTO_OVO",
                    "vegan": "STRICTLY_PLANTS",
                    "pescatarian": "FISH_NO_MEAT",
                    "keto": "LOW_CARB_HIGH_FAT",
                    "mediterranean": "MED_STYLE",
                },
            ),
            "calories_per_day": P(
                "dailyKilojoules", "energy per day in kilojoules (kJ)", factor=Fraction("4.184")
            ),
            "meals_per_day": P("sittingsPerDay", "how many times a day to eat"),
            "exclude_ingredients": P("bannedFoods", "foods that must never appear"),
            "spice_level": P("chilliScale", HEAT_TEXT, HEAT, scale=True),
            "texture": P("mouthfeel", "how it feels to chew", MOUTHFEEL),
            "max_cooking_minutes": P("prepCeilingMin", "most minutes at the stove per dish"),
            "caffeine": P("buzz", "strength of the kick the brews give", {**CAFF, "none": "STIMULANT_FREE"}),
        },
    ),
    "book_fitness_class": T(
        "studioSession",
        "Reserve a spot in a group exercise session.",
        {
            "class_type": P(
                "discipline",
                "what sort of session",
                {
                    "yoga": "YOGA_FLOW",
                    "pilates": "REFORMER_PILATES",
                    "spin": "INDOOR_CYCLING",
                    "hiit": "INTERVAL_CIRCUIT",
                    "swimming": "LAP_SWIM",
                    "boxing": "BOXFIT",
                    "dance": "DANCE_CARDIO",
                    "strength": "WEIGHTS_ROOM",
                },
            ),
            "date": P("sessionDay", DAY),
            "time_of_day": P("daypart", "part of the day", TOD),
            "level": P(
                "ability",
                "who it suits",
                {"beginner": "NOVICE", "intermediate": "IMPROVER", "advanced": "EXPERT"},
            ),
            "instructor": P("coachSex", "who leads it", WHO),
            "studio": P("gymName", "which branch"),
        },
    ),
    "book_flight": T(
        "airfareReserve",
        "Reserve a place on an airliner.",
        {
            "origin": P("fromAirport", "where it takes off: IATA code or town"),
            "destination": P("toAirport", "where it lands: IATA code or town"),
            "date": P("flyOn", DAY),
            "cabin": P(
                "fareClass",
                "cabin code as airlines write it: Y the cheapest, W a roomier step up, J the flat-bed tier, F the very top",
                {
                    "economy": "Y_CABIN",
                    "premium_economy": "W_CABIN",
                    "business": "J_CABIN",
                    "first": "F_CABIN",
                },
            ),
            "seat": P("seatPref", "where in the row", {**SEATS, "middle": "CENTRE_SEAT"}),
            "departure_window": P(
                "wheelsUp", "part of the day it leaves", {"any": "ANYTIME", **TOD, "red_eye": "SLEEPER_HOURS"}
            ),
            "max_stops": P("layoversAllowed", "most intermediate landings"),
            "meal": P(
                "inflightMeal",
                "IATA special-meal code: NOML none special, VLML lacto-ovo, VGML plant-only, "
                "MOML halal, KSML kosher, GFML no gluten, DBML for diabetics",
                {
                    "standard": "NOML",
                    "vegetarian": "VLML",
                    "vegan": "VGML",
                    "halal": "MOML",
                    "kosher": "KSML",
                    "gluten_free": "GFML",
                    "diabetic": "DBML",
                },
            ),
            "checked_bags": P("holdLuggage", "suitcases going in the hold"),
            "assistance": P(
                "mobilityHelp",
                "IATA help code: NONE_NEEDED, WCHR wheelchair to the gate, BLND sight loss, DEAF hearing loss",
                {"none": "NONE_NEEDED", "wheelchair": "WCHR", "visual": "BLND", "hearing": "DEAF"},
            ),
            "max_price": P("fareCeiling", "most the ticket may cost"),
        },
    ),
    "book_train": T(
        "railTicket",
        "Buy a rail ticket between stations.",
        {
            "origin": P("boardAt", "station or town of boarding"),
            "destination": P("alightAt", "station or town of getting off"),
            "date": P("travelDay", DAY),
            "travel_class": P(
                "premiumCarriage", "ride in the upmarket carriage", {"standard": False, "first": True}
            ),
            "seat": P("seatPref", "where in the carriage", {**SEATS, "table": "WITH_TABLE"}),
            "coach": P(
                "carriageKind",
                "which carriage",
                {"any": "ANY_CARRIAGE", "quiet": "SILENT_ZONE", "family": "KIDS_ZONE"},
            ),
            "departure_window": P("leaveAround", "part of the day it leaves", {"any": "ANYTIME", **TOD}),
            "railcard": P("discountPass", "apply the traveller's saver pass"),
            "bike_space": P("cycleSpot", "keep a place for a bicycle"),
        },
    ),
    "book_ride": T(
        "hailCab",
        "Summon a car with a driver.",
        {
            "pickup": P("collectFrom", "where the car comes to"),
            "destination": P("dropAt", "where it goes"),
            "when": P("departAt", MOMENT),
            "ride_type": P(
                "vehicleTier",
                "what sort of car",
                {
                    "shared": "CARPOOL",
                    "standard": "BASIC_SEDAN",
                    "comfort": "ROOMY",
                    "xl": "SIX_SEATER",
                    "accessible": "WHEELCHAIR_VAN",
                    "premium": "EXECUTIVE",
                },
            ),
            "quiet_ride": P("noSmallTalk", "driver keeps conversation to a minimum"),
            "temperature": P(
                "cabinClimate",
                "air conditioning setting",
                {"cool": "CHILLY", "normal": "ROOM_TEMP", "warm": "TOASTY"},
            ),
            "payment": P(
                "payWith",
                "how the fare is settled",
                {
                    "card": "BANK_CARD",
                    "cash": "NOTES_AND_COINS",
                    "wallet": "PHONE_PAY",
                    "corporate": "COMPANY_ACCOUNT",
                },
            ),
            "child_seat": P("boosterNeeded", "fit a seat for a small kid"),
        },
    ),
    "rent_car": T(
        "vehicleHire",
        "Hire a self-drive car.",
        {
            "pickup_location": P("depot", "branch handing over the keys"),
            "pickup_date": P("collectOn", DAY),
            "days": P("hireLength", "how many days"),
            "car_class": P(
                "vehicleGroup",
                "size and kind of car",
                {
                    "economy": "TINY_RUNABOUT",
                    "compact": "SMALL_HATCH",
                    "midsize": "SALOON",
                    "suv": "FOUR_BY_FOUR",
                    "electric": "BATTERY_EV",
                    "van": "MINIBUS",
                },
            ),
            "transmission": P(
                "clutchPedal", "a clutch pedal and gear lever", {"automatic": False, "manual": True}
            ),
            "insurance": P(
                "coverLevel",
                "how much damage is covered",
                {"basic": "THIRD_PARTY", "standard": "MID_COVER", "full": "ZERO_EXCESS"},
            ),
            "child_seats": P("boosterCount", "seats for small kids"),
        },
    ),
    "book_appointment": T(
        "clinicVisit",
        "Arrange a consultation with a health professional.",
        {
            "provider": P(
                "specialty",
                "which practitioner",
                {
                    "gp": "FAMILY_DOCTOR",
                    "dentist": "TEETH_AND_GUMS",
                    "physiotherapist": "SPORTS_INJURY_CLINIC",
                    "dermatologist": "SKIN_CLINIC",
                    "optometrist": "EYE_TEST",
                    "therapist": "COUNSELLING",
                },
            ),
            "date": P("visitDay", DAY),
            "time_of_day": P("daypart", "part of the day", {"any": "ANYTIME", **TOD}),
            "mode": P("consultVia", "how the consultation takes place", VIA),
            "clinician_gender": P("practitionerSex", "who sees the patient", WHO),
            "reminder_hours": P(
                "nudgeMinutes", "minutes ahead of the visit to send a heads-up", factor=Fraction(60)
            ),
            "reason": P("visitPurpose", "why the patient is coming"),
        },
    ),
    "refill_prescription": T(
        "pharmacyTopUp",
        "Ask a chemist to dispense more of a medicine.",
        {
            "medication": P("drugName", "which medicine"),
            "supply_days": P("monthsSupplied", "how many months it lasts", {30: 1, 60: 2, 90: 3}),
            "fulfilment": P(
                "courierToDoor",
                "bring it to the door instead of collecting",
                {"pickup": False, "delivery": True},
            ),
            "pharmacy": P("chemist", "which chemist"),
            "generic_ok": P("brandNameOnly", "refuse unbranded equivalents", invert=True),
            "packaging": P(
                "dispensing",
                "how the pills are packed",
                {"standard": "LOOSE_BOX", "blister_pack": "BLISTER_STRIPS", "easy_open": "SIMPLE_TWIST_CAP"},
            ),
            "auto_refill": P("standingOrder", "repeat this automatically when it runs low"),
        },
    ),
    "book_table": T(
        "diningReservation",
        "Hold a table at an eatery.",
        {
            "restaurant": P("eatery", "which eatery"),
            "date": P("diningDay", DAY),
            "time": P("arriveAt", CLOCK),
            "party_size": P("covers", "diners in the group"),
            "seating": P(
                "placement",
                "which part of the room",
                {
                    "any": "WHEREVER",
                    "indoor": "UNDER_ROOF",
                    "outdoor": "TERRACE",
                    "bar": "COUNTER_STOOLS",
                    "booth": "BANQUETTE",
                },
            ),
            "ambience": P(
                "atmosphere", "how loud it is", {"any": "EITHER_VIBE", "quiet": "HUSHED", "lively": "BUZZING"}
            ),
            "occasion": P(
                "celebrating",
                "what the meal marks",
                {
                    "none": "NOTHING_SPECIAL",
                    "birthday": "CAKE_AND_CANDLES",
                    "anniversary": "ANNIV",
                    "business": "CLIENT_DINNER",
                },
            ),
            "dietary_notes": P("mealConstraints", "eating restrictions to honour", DIET_TAGS),
        },
    ),
    "book_tickets": T(
        "boxOffice",
        "Purchase admission to a screening, gig, play or match.",
        {
            "event_type": P(
                "showKind",
                "what sort of show",
                {
                    "movie": "PICTURE_HOUSE",
                    "concert": "BAND_NIGHT",
                    "theatre": "STAGE_PLAY",
                    "comedy": "JOKES_NIGHT",
                    "sport": "FIXTURE",
                },
            ),
            "title": P("showName", "name of the show"),
            "date": P("showDay", DAY),
            "showing": P(
                "performance",
                "which performance of the day",
                {"any": "ANYTIME", "matinee": "DAYTIME", "evening": "EVENING_SHOW", "late": "NOCTURNAL"},
            ),
            "seat_area": P(
                "auditoriumArea",
                "part of the auditorium",
                {
                    "any": "ANYWHERE",
                    "front": "STALLS_FRONT",
                    "middle": "CENTRE_BLOCK",
                    "back": "REAR_ROWS",
                    "aisle": "END_OF_ROW",
                    "balcony": "UPPER_CIRCLE",
                },
            ),
            "format": P(
                "projection",
                "how it is shown",
                {
                    "standard": "TWO_D",
                    "imax": "GIANT_SCREEN",
                    "3d": "STEREOSCOPIC",
                    "subtitled": "CAPTIONED",
                    "relaxed": "SENSORY_FRIENDLY",
                },
            ),
            "quantity": P("headcount", "admissions wanted"),
            "accessible_seating": P("wheelchairSpace", "a space for a wheelchair user"),
        },
    ),
    "subscribe_news": T(
        "digestSignup",
        "Start a recurring bulletin of current affairs.",
        {
            "topics": P("newsDesks", "subjects to cover", NEWS),
            "exclude_topics": P("mutedDesks", "subjects to keep out", NEWS),
            "frequency": P(
                "cadence",
                "how often it comes",
                {"daily": "ONCE_A_DAY", "twice_daily": "TWICE_A_DAY", "weekly": "ONCE_A_WEEK"},
            ),
            "delivery_time": P(
                "landsAt",
                "part of the day it lands",
                {"morning": "BREAKFAST_TIME", "midday": "LUNCHTIME_EDITION", "evening": "SUPPER_TIME"},
            ),
            "format": P(
                "storyDepth",
                "how much of each story",
                {"headlines": "TITLES_ONLY", "summaries": "BRIEFS", "long_reads": "DEEP_DIVES"},
            ),
            "max_items": P("storyCap", "most stories per bulletin"),
        },
    ),
    "save_note": T(
        "notebookWrite",
        "Store a jotting in somebody's notebook.",
        {
            "title": P("heading", "what the jotting is called"),
            "body": P("jottingText", "full wording of the jotting"),
            "folder": P(
                "filedUnder",
                "where it is filed",
                {
                    "inbox": "UNSORTED",
                    "work": "NINE_TO_FIVE",
                    "meetings": "MINUTES_OF_MEETINGS",
                    "personal": "PRIVATE_LIFE",
                    "projects": "INITIATIVES",
                    "health": "WELLBEING",
                    "finance": "ACCOUNTS_AND_BILLS",
                    "travel": "TRIPS",
                    "recipes": "DISHES_TO_TRY",
                    "reading": "BOOKLIST",
                },
            ),
            "tags": P("hashtags", "keywords attached"),
            "format": P(
                "textShape",
                "how the wording is laid out",
                {
                    "prose": "RUNNING_SENTENCES",
                    "bullets": "DOT_POINTS",
                    "numbered": "ORDERED_STEPS",
                    "checklist": "TICKBOXES",
                },
            ),
            "pinned": P("stickToTop", "keep it above everything else"),
        },
    ),
}
