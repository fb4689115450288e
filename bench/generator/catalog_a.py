"""Dimensions of food, drink and shopping."""

from __future__ import annotations

from bench.generator.dims import (
    ALLERGENS,
    ANIMAL,
    CUISINE,
    FISH,
    MEAT,
    SPICY,
    Catalog,
    Dim,
    b,
    exact,
    ident,
    p,
)


def build() -> list[Dim]:
    c = Catalog()
    dim = c.add
    # ---- food and drink
    sp = ("none", "mild", "medium", "hot")
    dim(
        "food.spice",
        sp,
        p(
            none=["no spice at all", "completely mild food", "zero chilli"],
            mild=["just a little heat", "mild spice", "a gentle kick"],
            medium=["a medium kick", "medium heat", "a moderate amount of spice"],
            hot=["really spicy food", "the hottest spice level", "plenty of chilli"],
        ),
        ["spice", "how hot my food is", "curries and takeaways"],
        bindings=(b("order_food", "spice_level", ident(sp)), b("create_meal_plan", "spice_level", ident(sp))),
        text={
            "none": (("text_contains_none", {"none": SPICY}),),
            "mild": (("text_contains_none", {"none": SPICY}),),
            "hot": (("text_contains_any", {"any": SPICY[:3]}),),
        },
    )
    tx = ("soft", "regular", "crunchy")
    dim(
        "food.texture",
        tx,
        p(
            soft=["soft food", "things that are easy to chew"],
            regular=["normal textures", "ordinary textures"],
            crunchy=["food with a bit of crunch", "crunchy stuff"],
        ),
        ["texture", "the texture of my food"],
        bindings=(b("order_food", "texture", ident(tx)), b("create_meal_plan", "texture", ident(tx))),
        weights=(0.2, 0.4, 0.4),
    )
    dim(
        "food.portion",
        ("small", "regular", "large"),
        p(
            small=["a small portion", "the smaller size"],
            regular=["a regular portion"],
            large=["a large portion", "the big size"],
        ),
        ["portions", "portion size"],
        bindings=(b("order_food", "portion", ident(("small", "regular", "large"))),),
    )
    diets = ("omnivore", "vegetarian", "vegan", "pescatarian")
    dim(
        "food.diet",
        diets,
        p(
            omnivore=["pretty much anything", "meat and veg alike"],
            vegetarian=["vegetarian food", "no meat or fish"],
            vegan=["vegan food", "nothing from animals"],
            pescatarian=["fish but no meat", "pescatarian food"],
        ),
        ["my diet", "what I eat"],
        bindings=(
            b(
                "order_food",
                "dietary",
                {
                    "omnivore": None,
                    "vegetarian": ["vegetarian"],
                    "vegan": ["vegan"],
                    "pescatarian": ["pescatarian"],
                },
                {
                    "vegetarian": ["vegetarian", "vegan"],
                    "pescatarian": ["pescatarian", "vegetarian", "vegan"],
                },
            ),
            b(
                "book_table",
                "dietary_notes",
                {
                    "omnivore": None,
                    "vegetarian": ["vegetarian"],
                    "vegan": ["vegan"],
                    "pescatarian": ["pescatarian"],
                },
                {
                    "vegetarian": ["vegetarian", "vegan"],
                    "pescatarian": ["pescatarian", "vegetarian", "vegan"],
                },
            ),
            b(
                "create_meal_plan",
                "diet",
                {
                    "omnivore": None,
                    "vegetarian": "vegetarian",
                    "vegan": "vegan",
                    "pescatarian": "pescatarian",
                },
                {
                    "vegetarian": ["vegetarian", "vegan"],
                    "pescatarian": ["pescatarian", "vegetarian", "vegan"],
                },
            ),
            b(
                "book_flight",
                "meal",
                {"omnivore": None, "vegetarian": "vegetarian", "vegan": "vegan", "pescatarian": None},
                {"vegetarian": ["vegetarian", "vegan"]},
            ),
        ),
        text={
            "vegetarian": (("text_contains_none", {"none": MEAT + FISH}),),
            "vegan": (("text_contains_none", {"none": MEAT + FISH + ANIMAL}),),
            "pescatarian": (("text_contains_none", {"none": MEAT}),),
        },
        rejectable=False,
    )
    al = ("none", "peanuts", "shellfish", "dairy", "gluten")
    free = {
        "none": None,
        "peanuts": ["nut_free"],
        "shellfish": ["shellfish_free"],
        "dairy": ["dairy_free"],
        "gluten": ["gluten_free"],
    }
    dim(
        "food.allergy",
        al,
        p(
            none=["no allergies"],
            peanuts=["a peanut allergy", "a nut allergy"],
            shellfish=["a shellfish allergy"],
            dairy=["a dairy allergy", "dairy intolerance"],
            gluten=["coeliac disease", "a gluten intolerance"],
        ),
        ["allergies", "what I can't eat"],
        bindings=(
            b("order_food", "dietary", free),
            b("book_table", "dietary_notes", free),
            b(
                "create_meal_plan",
                "exclude_ingredients",
                {
                    "none": None,
                    "peanuts": ["peanuts"],
                    "shellfish": ["shellfish"],
                    "dairy": ["dairy"],
                    "gluten": ["gluten"],
                },
                {
                    "peanuts": ["peanut", "peanuts", "nuts"],
                    "shellfish": ["shellfish", "prawns", "shrimp"],
                    "dairy": ["dairy", "milk", "cheese"],
                    "gluten": ["gluten", "wheat"],
                },
            ),
        ),
        text={k: (("text_contains_none", {"none": v}),) for k, v in ALLERGENS.items()},
        weights=(0.4, 0.15, 0.15, 0.15, 0.15),
        rejectable=False,
        stance="have",
    )
    dim(
        "food.tip",
        (10, 15, 20, 25),
        p(
            **{
                "10": ["a 10% tip"],
                "15": ["a 15% tip"],
                "20": ["a 20% tip", "twenty percent tip"],
                "25": ["a 25% tip"],
            }
        ),
        ["tipping", "tips for the courier"],
        bindings=(b("order_food", "tip_percent", exact((10, 15, 20, 25))),),
    )
    dim(
        "food.cutlery",
        ("yes", "no"),
        p(yes=["cutlery in the bag"], no=["no plastic cutlery", "no disposable forks and spoons"]),
        ["cutlery", "the plastic forks"],
        bindings=(b("order_food", "cutlery", {"yes": True, "no": False}),),
    )
    cuis = tuple(CUISINE)
    dim(
        "food.cuisine",
        cuis,
        {c: (f"{CUISINE[c][0]} food",) for c in cuis},  # type: ignore[misc]
        ["favourite food", "eating out"],
        text={c: (("text_contains_any", {"any": CUISINE[c]}),) for c in cuis},
        asks={
            "*": (
                "Craving {p} again tonight.",
                "Nothing beats {p} after a long week.",
                "Found another great place for {p}.",
            )
        },
        rejectable=False,
    )
    drinks = (
        "latte",
        "flat_white",
        "cappuccino",
        "cortado",
        "mocha",
        "americano",
        "chai_latte",
        "matcha_latte",
    )
    dim(
        "coffee.drink",
        drinks,
        {d: (("an " if d[0] in "aeiou" else "a ") + d.replace("_", " "),) for d in drinks},  # type: ignore[misc]
        ["my coffee order", "the café run"],
        bindings=(b("order_coffee", "drink", ident(drinks)),),
    )
    dim(
        "coffee.size",
        ("small", "medium", "large"),
        p(
            small=["a small cup"],
            medium=["a medium cup", "a regular size"],
            large=["a large cup", "the biggest size"],
        ),
        ["coffee size", "cup size"],
        bindings=(b("order_coffee", "size", ident(("small", "medium", "large"))),),
    )
    milks = ("whole", "semi_skimmed", "skimmed", "oat", "soy", "almond")
    dim(
        "drink.milk",
        milks,
        {m: (m.replace("_", "-") + " milk",) for m in milks},  # type: ignore[misc]
        ["milk", "what milk I use"],
        bindings=(b("order_coffee", "milk", ident(milks)), b("order_groceries", "milk", ident(milks))),
    )
    dim(
        "drink.caffeine",
        ("regular", "decaf", "half_caf"),
        p(
            regular=["full-strength caffeine", "proper caffeinated coffee"],
            decaf=["decaf"],
            half_caf=["half-caf", "half decaf"],
        ),
        ["caffeine", "coffee strength"],
        bindings=(
            b("order_coffee", "caffeine", ident(("regular", "decaf", "half_caf"))),
            b(
                "create_meal_plan",
                "caffeine",
                ident(("regular", "decaf", "half_caf")),
                {"decaf": ["decaf", "none"]},
            ),
        ),
    )
    dim(
        "coffee.temperature",
        ("hot", "extra_hot", "iced"),
        p(
            hot=["a normal hot drink"],
            extra_hot=["extra hot", "really piping hot"],
            iced=["iced", "an iced drink"],
        ),
        ["drink temperature", "how hot my coffee is"],
        bindings=(b("order_coffee", "temperature", ident(("hot", "extra_hot", "iced"))),),
    )
    # ---- shopping
    tiers = ("budget", "standard", "premium")
    dim(
        "shop.tier",
        tiers,
        p(
            budget=["the budget own-brand stuff", "the cheapest brands"],
            standard=["normal mid-range brands"],
            premium=["the premium brands", "the posh brands"],
        ),
        ["brands", "groceries and household stuff"],
        bindings=(
            b("order_groceries", "brand_tier", ident(tiers)),
            b("buy_product", "brand_tier", ident(tiers)),
        ),
    )
    dim(
        "shop.organic",
        ("yes", "no"),
        p(yes=["organic produce", "organic everything"], no=["non-organic, it's fine"]),
        ["organic food", "produce"],
        bindings=(b("order_groceries", "organic", {"yes": True, "no": False}),),
    )
    subs = ("allow", "ask_first", "never")
    dim(
        "shop.substitutions",
        subs,
        p(
            allow=["substitutes if something is missing"],
            ask_first=["being asked before any substitution"],
            never=["no substitutions ever"],
        ),
        ["substitutions", "missing items"],
        bindings=(b("order_groceries", "substitutions", ident(subs)),),
    )
    dim(
        "shop.window",
        ("morning", "afternoon", "evening"),
        p(
            morning=["a morning delivery slot"],
            afternoon=["an afternoon slot"],
            evening=["an evening slot", "deliveries after work"],
        ),
        ["delivery slots", "grocery deliveries"],
        bindings=(b("order_groceries", "delivery_window", ident(("morning", "afternoon", "evening"))),),
    )
    cond = ("new", "refurbished", "used")
    dim(
        "shop.condition",
        cond,
        p(
            new=["brand new items"],
            refurbished=["refurbished items", "certified refurbished"],
            used=["second-hand", "used items"],
        ),
        ["buying gadgets and stuff", "new versus second-hand"],
        bindings=(b("buy_product", "condition", ident(cond)),),
    )
    ship = ("standard", "express", "store_pickup")
    dim(
        "shop.shipping",
        ship,
        p(
            standard=["standard delivery"],
            express=["express delivery", "next-day shipping"],
            store_pickup=["picking it up in store", "click and collect"],
        ),
        ["delivery", "shipping"],
        bindings=(b("buy_product", "shipping", ident(ship)),),
    )
    dim(
        "shop.eco",
        ("yes", "no"),
        p(yes=["eco-friendly products", "minimal packaging"], no=["whatever works, eco label or not"]),
        ["packaging", "eco labels"],
        bindings=(b("buy_product", "eco_friendly", {"yes": True, "no": False}),),
    )

    return c.items
