"""A name said in quotes after "at" or "from" is the whole quoted name ("from 'Bean There'", 'at "The
Old Bell"'); on the code before, a single quote cut it to "'Bean" and a double quote lost it. A count
corrected by "wait," or "actually, just" is the new count ("two gyoza — wait, just one gyoza": one; on
the code before, the correction was not read, and "just one" was taken for the pronoun "a medium one").

Probes in words of our own; the catalogue's tools stand in for any tool with a shop or a place.
"""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from ibachat.agent.alignment.request_values import stated_values
from ibachat.agent.reading.corrections import corrected

NOW = datetime(2026, 12, 1, 10, 0, tzinfo=timezone.utc)
SHOP = {"type": "object", "properties": {"shop": {"type": "string"}, "drink": {"type": "string"}}}
TABLE = {
    "type": "object",
    "properties": {
        "restaurant": {"type": "string"},
        "party_size": {"type": "integer"},
        "date": {"type": "string", "format": "date"},
    },
}


@pytest.mark.parametrize(
    ("schema", "text", "name", "value"),
    [
        (SHOP, "grab me a cortado from 'Brew & Bloom'? ta", "shop", "Brew & Bloom"),
        (SHOP, 'a chai from "The Daily Grind" when you get a sec', "shop", "The Daily Grind"),
        (TABLE, "table for 4 at ‘Little Spice of Life’ on friday", "restaurant", "Little Spice of Life"),
        (TABLE, "table for 4 at The Crown on friday", "restaurant", "The Crown"),  # no quotes: as before
    ],
)
def test_a_quoted_name_is_the_whole_name(schema, text, name, value):
    assert stated_values(schema, text, NOW)[name].value == value


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("three jacket potatoes — wait, just one jacket potato please", "one jacket potato please"),
        (
            "Two kayaks — actually just one, Sam's staying on the beach.",
            "one kayaks, Sam's staying on the beach.",
        ),
        ("a large latte, no wait, a medium one", "a large latte, no wait, a medium one"),  # a pronoun "one"
        ("hang on, wait, is it open today?", "hang on, wait, is it open today?"),  # nothing corrected
    ],
)
def test_a_count_corrected_with_wait_or_actually_just(text, said):
    assert corrected(text) == said


def test_an_emoji_ends_the_item_a_correction_replaces():
    """ "... last night 😬 thursday — no wait, friday": only "thursday" is taken back (on the code before,
    the cut reached back over the emoji to "a popcorn kernel last night")."""
    said = corrected("vet pls, she ate a sock last night 😬 thursday — no wait, friday")
    assert said == "vet pls, she ate a sock last night 😬 friday"
