"""'The usual <kind> place' by meaning: the probes that set ``usual.KIND_MIN`` and ``KIND_LEAD``.

Each probe: a kind as said, past places with what was had there (none of them naming the kind), and the
place that is of that kind, or None when none is (a question is right). Cuisines and shops, in words the
planner's code never holds."""

from __future__ import annotations

import pytest

from ibachat.agent.alignment.usual import kind_phrase, of_kind

THAI_ETC = {
    "Bangkok Garden": "Bangkok Garden: jungle curry, fried spring rolls, pad kra pao, prawn crackers",
    "Sichuan House": "Sichuan House: dan dan noodles, crispy chilli beef, mapo tofu",
    "Taco Loco": "Taco Loco: habanero pork tacos, tortilla chips",
}
TURKISH_ETC = {
    "Istanbul Grill": "Istanbul Grill: lamb shish, baklava",
    "Dragon Palace": "Dragon Palace: sweet and sour chicken",
}
BAKERY_ETC = {
    "Crumbs": "Crumbs: sourdough loaf, cinnamon bun",
    "Fishy Business": "Fishy Business: cod and chips",
}
PROBES = [
    (
        "Italian place",
        {
            "Luigi's Trattoria": "Luigi's Trattoria: margherita, tiramisu",
            "Golden Wok": "Golden Wok: chow mein, spring rolls",
            "Spice Route": "Spice Route: lamb rogan josh, garlic naan",
        },
        "Luigi's Trattoria",
    ),
    (
        "sushi spot",
        {"Sakura": "Sakura: salmon nigiri, miso soup", "Burger Barn": "Burger Barn: cheeseburger, fries"},
        "Sakura",
    ),
    (
        "pizza place",
        {
            "Pho Saigon": "Pho Saigon: beef pho",
            "Napoli Express": "Napoli Express: pepperoni pizza, garlic bread",
        },
        "Napoli Express",
    ),
    ("Thai place", THAI_ETC, "Bangkok Garden"),
    ("Turkish place", TURKISH_ETC, "Istanbul Grill"),
    ("bakery", BAKERY_ETC, "Crumbs"),
    # none of the past places is of the kind, or the embedder cannot tell them apart: a question
    ("Indian place", THAI_ETC, None),
    ("Greek place", THAI_ETC, None),
    (
        "burger place",
        {
            "Sakura": "Sakura: salmon nigiri, miso soup",
            "Luigi's Trattoria": "Luigi's Trattoria: margherita, tiramisu",
        },
        None,
    ),
    ("Korean place", TURKISH_ETC, None),
    ("Lebanese place", BAKERY_ETC, None),
]
# Of the kind, but not clearly enough for this embedder: a question, which is forgiven (never a wrong place).
FORGIVEN = [
    ("Chinese place", THAI_ETC, "Sichuan House"),
    ("Mexican place", THAI_ETC, "Taco Loco"),
    (
        "vegan place",
        {
            "Green Leaf Kitchen": "Green Leaf Kitchen: tofu bowl, kale salad",
            "Smokehouse": "Smokehouse: brisket, ribs",
        },
        "Green Leaf Kitchen",
    ),
    ("chippy", BAKERY_ETC, "Fishy Business"),
]


@pytest.fixture(scope="module")
def embed():
    from memory.embedders.registry import load_embedder

    model = load_embedder("minilm")
    return model.embed_batch


@pytest.mark.parametrize(("kind", "places", "expected"), PROBES, ids=[p[0] for p in PROBES])
def test_the_place_of_the_kind(embed, kind, places, expected):
    assert of_kind(kind, places, embed) == expected


@pytest.mark.parametrize(("kind", "places", "right"), FORGIVEN, ids=[p[0] for p in FORGIVEN])
def test_never_a_wrong_place(embed, kind, places, right):
    assert of_kind(kind, places, embed) in (None, right)


def test_the_kind_as_said():
    assert kind_phrase("Order dinner from the usual Thai place") == "Thai place"
    assert kind_phrase("get me lunch from my regular sushi spot please") == "sushi spot"
    assert kind_phrase("the usual, please") == ""
