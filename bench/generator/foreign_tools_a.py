"""Foreign spellings of the writing, work, consumption and planning tools (see ``foreign_spec``)."""

from __future__ import annotations

from fractions import Fraction

from bench.generator.foreign_spec import (
    BAND,
    CAFF,
    CLOCK,
    DAY,
    DIET_TAGS,
    HEAT,
    HEAT_TEXT,
    MILK,
    MOMENT,
    MOUTHFEEL,
    VIA,
    P,
    T,
)

TOOLS_A: dict[str, T] = {
    "send_email": T(
        "dispatchLetter",
        "Compose a letter to somebody, then release it at once, park it for review, or queue it.",
        {
            "to": P("addressee", "who receives it: somebody's name or mailbox"),
            "subject": P("headline", "short heading shown in the inbox listing"),
            "body": P("letterText", "full wording of the letter"),
            "mode": P(
                "releasePolicy",
                "what happens once composed",
                {"send": "IMMEDIATE", "draft": "HOLD_FOR_REVIEW", "schedule": "DEFERRED"},
            ),
            "tone": P(
                "wordingStyle",
                "how stiff or chatty the wording sounds",
                {
                    "formal": "STARCHED",
                    "neutral": "NO_FRILLS_WORDING",
                    "casual": "EASYGOING",
                    "warm": "HEARTFELT",
                },
            ),
            "sign_off": P("closingWords", "closing words placed above the sender's name"),
            "cc_self": P("bccSender", "quietly copy the sender as well"),
        },
    ),
    "create_event": T(
        "calendarInsert",
        "Put an entry into somebody's diary.",
        {
            "title": P("entryName", "what the entry is called"),
            "date": P("eventDay", DAY),
            "start_time": P("begins", CLOCK),
            "duration_minutes": P(
                "lengthSeconds", "how long it lasts, counted in seconds", factor=Fraction(60)
            ),
            "format": P("joinMethod", "how participants join", VIA),
            "buffer_minutes": P("padBeforeMin", "empty minutes kept clear ahead of it"),
            "reminder_minutes": P(
                "alertLeadSeconds", "seconds ahead of kickoff to ping", factor=Fraction(60)
            ),
            "visibility": P(
                "calendarExposure",
                "what colleagues can see of it",
                {"busy": "OCCUPIED", "private": "HIDDEN_ENTRY", "public": "OPEN_DETAILS"},
            ),
            "attendees": P("invitees", "guests to include"),
        },
    ),
    "order_food": T(
        "takeawayCheckout",
        "Place a delivery order with an eatery.",
        {
            "restaurant": P("eatery", "name of the kitchen cooking it"),
            "items": P("basket", "dishes going into the basket"),
            "spice_level": P("chilliScale", HEAT_TEXT, HEAT, scale=True),
            "texture": P("mouthfeel", "how it feels to chew", MOUTHFEEL),
            "portion": P(
                "helping",
                "amount served",
                {"small": "LIGHT_BITE", "regular": "STANDARD_PLATE", "large": "HUNGRY_SIZE"},
            ),
            "dietary": P("mealConstraints", "eating restrictions to honour", DIET_TAGS),
            "tip_percent": P(
                "gratuityFraction",
                "courier gratuity as a fraction of the bill, 0 to 0.3",
                factor=Fraction(1, 100),
            ),
            "cutlery": P("skipUtensils", "leave out throwaway forks, spoons and napkins", invert=True),
            "contactless": P("doorstepDrop", "drop it outside without handing over"),
            "notes": P("kitchenMemo", "free words for the cooks"),
        },
    ),
    "order_groceries": T(
        "pantryRestock",
        "Schedule a supermarket drop-off at home.",
        {
            "items": P("groceryLines", "goods wanted"),
            "milk": P("dairyChoice", "which carton goes in", MILK),
            "brand_tier": P("priceBand", "how pricey the labels are", BAND),
            "organic": P("bioPreferred", "favour produce grown without synthetic pesticides"),
            "substitutions": P(
                "replacementPolicy",
                "what happens when something is out of stock",
                {"allow": "SWAP_FREELY", "ask_first": "CONFIRM_SWAPS", "never": "NO_SWAPS"},
            ),
            "delivery_window": P(
                "dropSlot",
                "part of the day the van comes",
                {"morning": "AM_SLOT", "afternoon": "PM_SLOT", "evening": "LATE_SLOT"},
            ),
            "max_total": P("basketCap", "most the whole shop may cost"),
        },
    ),
    "order_coffee": T(
        "cafeCollect",
        "Order a hot or cold drink to collect at a counter.",
        {
            "shop": P("outlet", "which café branch"),
            "drink": P(
                "brewType",
                "what to brew",
                {
                    "latte": "CAFFE_LATTE",
                    "flat_white": "FLATWHITE",
                    "cappuccino": "CAPPUCCINO_FOAM",
                    "cortado": "CORTADITO",
                    "mocha": "CHOC_MOCHA",
                    "americano": "LONG_BLACK",
                    "chai_latte": "SPICED_TEA_LATTE",
                    "matcha_latte": "GREEN_TEA_LATTE",
                },
            ),
            "size": P("cupOunces", "cup volume in fluid ounces", {"small": 8, "medium": 12, "large": 16}),
            "milk": P("dairyChoice", "which milk or alternative goes in", MILK),
            "caffeine": P("buzz", "strength of the kick", CAFF),
            "temperature": P(
                "serveAt",
                "how warm it is handed over",
                {"hot": "PIPING", "extra_hot": "SCALDING", "iced": "ON_THE_ROCKS"},
            ),
            "sugar": P("sugarGrams", "added sugar in grams, four grams per spoonful", factor=Fraction(4)),
            "pickup_time": P("collectAt", CLOCK),
        },
    ),
    "buy_product": T(
        "marketplacePurchase",
        "Purchase an item from an internet shop.",
        {
            "query": P("wantedItem", "words describing the item sought"),
            "category": P(
                "department",
                "section of the shop",
                {
                    "household": "HOME_GOODS",
                    "electronics": "GADGETS",
                    "clothing": "APPAREL",
                    "kitchen": "COOKWARE",
                    "beauty": "COSMETICS",
                    "books": "LITERATURE",
                    "garden": "OUTDOOR_LIVING",
                    "toys": "PLAYTHINGS",
                },
            ),
            "brand_tier": P("priceBand", "how pricey the labels are", BAND),
            "condition": P(
                "itemState",
                "how worn it may be",
                {"new": "FACTORY_SEALED", "refurbished": "RENEWED", "used": "PRE_OWNED"},
            ),
            "shipping": P(
                "dispatchSpeed",
                "how the parcel gets there",
                {"standard": "REGULAR_POST", "express": "NEXT_DAY", "store_pickup": "COLLECT_IN_BRANCH"},
            ),
            "eco_friendly": P("greenerChoice", "favour sustainable goods with little wrapping"),
            "gift_wrap": P("presentWrapping", "wrap it up as a present"),
            "max_price": P("spendCeiling", "most it may cost"),
        },
    ),
    "book_hotel": T(
        "lodgingReserve",
        "Reserve accommodation for a stay.",
        {
            "city": P("stayIn", "where to stay"),
            "check_in": P("arrivalDay", DAY),
            "nights": P("stayLength", "how many nights"),
            "room_type": P(
                "bedConfig",
                "sleeping arrangement",
                {
                    "single": "ONE_SLEEPER",
                    "double": "QUEEN_BED",
                    "twin": "TWO_BEDS",
                    "suite": "MULTI_ROOM",
                    "family": "KIDS_AND_PARENTS",
                },
            ),
            "floor": P(
                "storey",
                "how far up the building",
                {"any": "ANY_STOREY", "low": "GROUND_LEVELS", "high": "UPPER_LEVELS"},
            ),
            "quiet_room": P("awayFromNoise", "far from elevators and traffic"),
            "accessible_room": P("rollInAccess", "wheelchair-friendly with a roll-in shower"),
            "breakfast": P("morningMealIncluded", "first meal of the day included"),
            "pillow": P(
                "cushion",
                "what the head rests on",
                {
                    "standard": "HOTEL_ISSUE",
                    "firm": "DENSE_FOAM",
                    "soft": "FLUFFY",
                    "hypoallergenic": "ALLERGY_SAFE",
                },
            ),
            "max_price_per_night": P(
                "nightlyCapCents", "most one night may cost, in cents", factor=Fraction(100)
            ),
        },
    ),
    "set_reminder": T(
        "scheduleNudge",
        "Arrange a prompt that reaches somebody at a given moment.",
        {
            "text": P("nudgeText", "what the prompt says"),
            "when": P("dueAt", MOMENT),
            "lead_minutes": P(
                "noticeSeconds", "seconds ahead of the due moment to fire", factor=Fraction(60)
            ),
            "channel": P(
                "reachBy",
                "route of the prompt",
                {
                    "notification": "APP_BANNER",
                    "email": "MAILBOX_MSG",
                    "sms": "PHONE_TEXT",
                    "call": "VOICE_CALL",
                },
            ),
            "repeat": P(
                "recurrence",
                "how it comes back",
                {
                    "none": "SINGLE_SHOT",
                    "daily": "DAILY_REPEAT",
                    "weekdays": "MON_TO_FRI",
                    "weekly": "EVERY_WEEK",
                    "monthly": "EVERY_MONTH",
                },
            ),
            "priority": P(
                "urgency",
                "urgency 1-3: 1 can wait, 2 usual, 3 pressing",
                {"low": 1, "normal": 2, "high": 3},
                scale=True,
            ),
        },
    ),
}
