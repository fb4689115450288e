"""The user's stated preferences as a channel for a task that asks for a choice (``stated``).

The histories are written here: a constraint stated once, in other words than the request,
under a pile of chat that is closer to the request's topic but states nothing.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from ibachat.agent.retrieval.deep import deep_retrieve
from ibachat.agent.retrieval.stated import asks_for_choice, is_stated
from memory.memory import Memory
from memory.types import Turn

NOW = datetime(2025, 11, 20, 9, 0, tzinfo=UTC)

# On topic for a trip to the mountains, but no preference in any of them.
NEARBY = [
    "my cousin went hiking in Switzerland last summer",
    "how tall is the highest mountain in the Alps",
    "what currency do they use in Austria",
    "the cable car tickets were sold out when my friend went",
    "is it cold in the mountains in July",
    "my colleague just came back from a trip to the Dolomites",
    "what is the best month to visit the lakes in northern Italy",
    "how long is the train from Zurich to Milan",
    "my brother showed me photos from his climbing trip",
    "do you need a visa to travel to Switzerland",
    "which language do people speak in the Swiss mountains",
    "the glacier tour looked amazing in the brochure",
]
CHATTER = [
    "the kettle finally gave up this morning",
    "how many legs does a spider have",
    "my neighbour's cat keeps sitting on my car",
    "the printer at work jammed three times today",
    "who painted the Mona Lisa",
    "the bus was late again",
    "my sister got a new puppy",
    "the wifi keeps dropping tonight",
]
STATEMENT = "I never do anything far off the ground, heights scare me stiff."
TASK = "What are some adventures I could try in the Alps this summer?"


@pytest.fixture(scope="module")
def minilm():
    from memory.embedders.registry import load_embedder

    return load_embedder("minilm")


def _store(mem: Memory, statement: str = STATEMENT) -> int:
    start = NOW - timedelta(days=60)
    records = [{"session_id": "pref", "role": "user", "text": statement, "time": start}]
    records.append({"session_id": "pref", "role": "assistant", "text": "Noted.", "time": start})
    for day in range(8):
        for slot, text in enumerate(NEARBY[day % 4 :: 4] + CHATTER[day % 8 :: 8]):
            when = start + timedelta(days=day + 1, minutes=slot)
            records.append({"session_id": f"d{day}", "role": "user", "text": f"{text} ({day})", "time": when})
            records.append({"session_id": f"d{day}", "role": "assistant", "text": "I see.", "time": when})
    return mem.add_turns(records)[0].id


def test_a_stated_constraint_below_the_dense_top_ten_is_kept_for_a_choice(tmp_path, minilm):
    with Memory.open(tmp_path / "store", embedder=minilm, fsync=False) as mem:
        wanted = _store(mem)
        dense = [h.id for h in mem.search(TASK, 60, mode="dense")]
        assert wanted in dense and wanted not in dense[:10]  # buried, but the dense channel reaches it
        ev = deep_retrieve(mem, TASK, now=NOW, budget=10)
        kept = {item.turn.id: item for item in ev.items}
        assert wanted in kept, [i.turn.text for i in ev.items]
        assert "a stated preference closest to the task" in kept[wanted].why
        # a factual question asks for no choice: the statement is not pulled in for it
        fact = deep_retrieve(mem, "How tall is the highest mountain in the Alps?", now=NOW, budget=10)
        assert wanted not in {item.turn.id for item in fact.items}


# Requests in shapes that no request word marks: an imperative, a seeking question, a need, a
# modal of advice. Each asks for something chosen for the user, so the constraint is kept.
OTHER_SHAPES = [
    "Put together a long weekend in the Alps for me.",
    "Any thoughts on a day out in the Alps this summer?",
    "Is there a fun excursion near Zermatt?",
    "I need something exciting to do in the Alps in July.",
    "What could the two of us do near Chamonix?",
]


@pytest.mark.parametrize("task", OTHER_SHAPES)
def test_a_request_of_any_shape_keeps_the_stated_constraint(tmp_path, minilm, task):
    with Memory.open(tmp_path / "store", embedder=minilm, fsync=False) as mem:
        wanted = _store(mem)
        ev = deep_retrieve(mem, task, now=NOW, budget=10)
        kept = {item.turn.id: item for item in ev.items}
        assert wanted in kept, (task, [i.turn.text for i in ev.items])


# Constraints stated as plain facts about the user, with no word of taste or aversion in them.
FACTS_OF_SELF = [
    "Thin mountain air gives me blinding headaches.",  # the user undergoes it
    "My husband uses a wheelchair.",  # the household
    "I have a fear of falling from high places.",  # what the user has
]


@pytest.mark.parametrize("statement", FACTS_OF_SELF)
def test_a_constraint_stated_as_a_fact_about_the_user_is_kept_for_a_choice(tmp_path, minilm, statement):
    with Memory.open(tmp_path / "store", embedder=minilm, fsync=False) as mem:
        wanted = _store(mem, statement)
        assert wanted not in [h.id for h in mem.search(TASK, 10, mode="dense")]
        ev = deep_retrieve(mem, TASK, now=NOW, budget=10)
        kept = {item.turn.id: item for item in ev.items}
        assert wanted in kept, [i.turn.text for i in ev.items]
        assert "a stated preference closest to the task" in kept[wanted].why


def test_what_counts_as_a_standing_fact_about_the_user():
    facts = [
        "I have a bad knee, so stairs are a problem.",
        "My daughter is allergic to nuts.",
        "Spicy food wrecks my stomach.",
        "Loud bars aren't really my scene.",
        "I'm on a tight budget this month.",
        "Mornings are sacred to me, no meetings before ten.",
        "Cheap hotels are fine, I just sleep there.",
        "I've been vegetarian for years.",
    ]
    stories = [
        "I went hiking yesterday.",  # what the user did
        "My sister got a new puppy.",
        "I watched a great movie last night.",
        "I'm so proud of you!",  # about the other person
        "Thanks for helping me out.",
        "Do you think my plan works?",  # a question
        "Tell me a fun fact about owls.",  # requests, with the user as their object
        "Write an email to my landlord about the boiler.",
    ]
    assert [t for t in facts if not is_stated(_turn(t))] == []
    assert [t for t in stories if is_stated(_turn(t))] == []


def test_what_shape_of_sentence_asks_for_a_choice():
    asks = [
        "Book a table for two tonight.",
        "Find me a hotel in Rome for next week.",
        "Could you line up some music for a dinner party?",
        "Any good podcasts for the drive?",
        "Is there a nice walk near the harbour?",
        "What games could the kids play on a rainy day?",
        "I'm thinking about getting a car. What would work for my commute?",
        "Looking for a good book for the flight.",
        "What's worth watching tonight?",  # "What's" is no one's possessive
        "What are some things to do in Porto?",
    ]
    facts = [
        "Tell me how photosynthesis works.",  # an imperative that asks for an explanation
        "Why is the sky blue?",
        "What did I say about the hotel last time?",  # recall of the past
        "What is a book that Tim might enjoy?",  # someone else's choice, by name
        "Has Tim been to any states in the US?",  # "US" is no pronoun
        "According to Gina, what makes Jon a good mentor?",
    ]
    assert [t for t in asks if not asks_for_choice(t)] == []
    assert [t for t in facts if asks_for_choice(t)] == []
    # a long paste is read at its two ends, where a request around it sits
    paste = "The committee met on the third floor, and the minutes were read aloud. " * 20000
    assert asks_for_choice(paste + "Could you suggest a title for these minutes?")
    assert asks_for_choice("Find me a good title for this. " + paste)
    assert not asks_for_choice("Why was the committee on the third floor? " + paste)


def _turn(text: str, role: str = "user") -> Turn:
    return Turn(1, "s", role, text, NOW)


def test_what_counts_as_a_stated_preference_and_as_a_choice():
    assert is_stated(_turn("I never eat anything with mushrooms in it."))
    assert is_stated(_turn("I don\u2019t wear wool, it makes me itch."))
    assert is_stated(_turn("I can't stand crowded places."))
    assert not is_stated(_turn("Do you like crowded places?"))  # a question states nothing
    assert not is_stated(_turn("I can't stand crowded places.", role="assistant"))
    assert not is_stated(_turn("The bus was late again."))
    assert asks_for_choice("Can you recommend a restaurant for Friday?")
    assert asks_for_choice("How can I get fitter before the wedding?")
    assert asks_for_choice("What are some things to do in Porto?")
    assert not asks_for_choice("What's the capital of Peru?")
    assert not asks_for_choice("explain how a transistor amplifies a signal")
    # a question about what someone else chose asks for no choice for the user
    assert not asks_for_choice("Which book did Anna recommend to Ben?")
    assert not asks_for_choice("What are Anna's plans for the summer?")
    assert asks_for_choice("Which book would you recommend for Anna's birthday?")
