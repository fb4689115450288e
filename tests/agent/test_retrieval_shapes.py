"""Deep Retrieval never loses to its own best channel, on two shapes of history (written here).

- A preference buried in unrelated chat, sharing no content word with the task: BM25 has
  nothing real to match, the dense query finds the statement, and Deep Retrieval must too
  (a fixed fusion with an absolute cosine floor called such a history empty).
- A two-person chat where names matter: the question names who did something, both people
  talk about the same things, and only the named speaker's turn answers.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from ibachat.agent.retrieval.deep import deep_retrieve
from memory.memory import Memory

NOW = datetime(2025, 11, 20, 9, 0, tzinfo=UTC)

SMALL_TALK = [
    ("the kettle finally gave up this morning", "Time for a new one!"),
    ("what's a good word for happy", "Try cheerful."),
    ("my neighbour's cat keeps sitting on my car", "Cats love warm bonnets."),
    ("how many legs does a spider have", "Eight."),
    ("the printer at work jammed three times today", "Classic printer behaviour."),
    ("remind me to call the bank on Tuesday", "Reminder set for Tuesday."),
    ("it rained all weekend here", "Hope it clears up soon."),
    ("who painted the Mona Lisa", "Leonardo da Vinci."),
    ("I finally fixed the squeaky door hinge", "Nice work!"),
    ("the bus was late again", "Annoying!"),
    ("how do you spell necessary", "n-e-c-e-s-s-a-r-y."),
    ("my sister got a new puppy", "Lovely, what breed?"),
    ("what's the boiling point of water in fahrenheit", "212 degrees."),
    ("the wifi keeps dropping tonight", "Try restarting the router."),
    ("I watered the plants before leaving", "They'll thank you."),
]

# (statement buried in the chat, task): no content word in common.
BURIED = [
    (
        "Rollercoasters and anything with big drops terrify me, I stay well away from them.",
        "Which attractions would you suggest for our theme park visit on Saturday?",
    ),
    (
        "I get horribly seasick, so boats are out of the question for me.",
        "Plan a relaxing afternoon by the coast during our holiday in Croatia.",
    ),
    (
        "Spicy food wrecks my stomach, I always go for mild dishes.",
        "Pick a place for dinner with my colleagues near the office, somewhere Thai maybe.",
    ),
]


def _chat(mem: Memory, rounds: int, start: datetime) -> None:
    records = []
    for day in range(rounds):
        for slot, (user, assistant) in enumerate(SMALL_TALK[day % 5 :: 5]):
            when = start + timedelta(days=day, minutes=5 * slot)
            records.append({"session_id": f"talk-{day}", "role": "user", "text": user, "time": when})
            records.append(
                {
                    "session_id": f"talk-{day}",
                    "role": "assistant",
                    "text": assistant,
                    "time": when + timedelta(seconds=20),
                }
            )
    mem.add_turns(records)


@pytest.fixture(scope="module")
def minilm():
    from memory.embedders.registry import load_embedder

    return load_embedder("minilm")


@pytest.mark.parametrize("statement,task", BURIED, ids=["heights", "boats", "spice"])
def test_a_preference_in_other_words_is_found_as_dense_finds_it(tmp_path, minilm, statement, task):
    with Memory.open(tmp_path / "store", embedder=minilm, fsync=False) as mem:
        start = NOW - timedelta(days=40)
        mem.add_turn("pref", "user", statement, time=start)
        mem.add_turn("pref", "assistant", "Noted.", time=start + timedelta(seconds=20))
        _chat(mem, 30, start + timedelta(days=1))
        wanted = next(t.id for t in mem.iter_turns() if t.text == statement)
        dense = [h.id for h in mem.search(task, 10, mode="dense")]
        assert wanted in dense  # the channel to match: the test is about fusion, not the embedder
        ev = deep_retrieve(mem, task, now=NOW, budget=10)
        assert wanted in [item.turn.id for item in ev.items], (ev.stats, [i.turn.text for i in ev.items])


TWO_PEOPLE = [
    ("Maya", "I've been learning to make sourdough, my third loaf finally rose."),
    ("Tom", "Nice! I tried baking focaccia last week and it came out flat."),
    ("Maya", "We adopted a rescue greyhound called Biscuit on Saturday."),
    ("Tom", "My parents are thinking about getting a dog too, maybe a beagle."),
    ("Tom", "I signed up for a pottery class on Thursday evenings."),
    ("Maya", "Pottery sounds fun, I did a watercolour workshop in spring."),
    ("Maya", "Work is hectic, we're launching the new app next month."),
    ("Tom", "Our team is moving offices, so my desk is all boxes."),
    ("Tom", "I ran my first half marathon in two hours ten."),
    ("Maya", "I'd love to run one day, right now I just walk Biscuit."),
    ("Maya", "My brother is visiting from Lisbon in December."),
    ("Tom", "I'm flying to Lisbon for a wedding in January, any tips?"),
]
QUESTIONS = [
    ("What pet did Maya adopt?", 2),
    ("What class did Tom sign up for?", 4),
    ("Why is Tom going to Lisbon?", 11),
    ("What is the name of the greyhound Maya adopted?", 2),
    ("Who is visiting Maya in December?", 10),
]


def test_in_a_two_person_chat_the_named_speakers_turn_is_found(tmp_path, minilm):
    with Memory.open(tmp_path / "store", embedder=minilm, fsync=False) as mem:
        start = NOW - timedelta(days=90)
        records = []
        for week in range(6):  # the two of them chat about the same things, week after week
            for k, (who, text) in enumerate(TWO_PEOPLE):
                said = (
                    f"{who}: {text}" if week == 0 else f"{who}: {SMALL_TALK[(k + week) % len(SMALL_TALK)][0]}"
                )
                when = start + timedelta(days=7 * week, minutes=k)
                records.append({"session_id": f"w{week}", "role": "user", "text": said, "time": when})
        ids = [t.id for t in mem.add_turns(records)]
        for question, index in QUESTIONS:
            best = 0
            for mode in ("dense", "lexical", "hybrid"):
                top = [h.id for h in mem.search(question, 3, mode=mode)]
                best = max(best, int(ids[index] in top))
            deep = [item.turn.id for item in deep_retrieve(mem, question, now=NOW, budget=3).items]
            assert ids[index] in deep or not best, (question, [mem.get(i).text for i in deep])
            assert ids[index] in [item.turn.id for item in deep_retrieve(mem, question, now=NOW).items]


def test_a_lexical_list_that_matches_evenly_has_no_say():
    from ibachat.agent.retrieval.relevance import lexical_say

    assert lexical_say([2.0] * 30) == 0.0  # one common word, everywhere alike
    assert lexical_say([9.0, 8.5, 8.0] + [1.0] * 27) == 1.0  # a word only three turns hold
    assert lexical_say([5.0, 4.0]) == 1.0  # fewer hits than the rank looked at: the rest are zeros
    assert lexical_say([]) == 0.0
    assert 0.0 < lexical_say([4.0] * 9 + [3.2] * 21) < 1.0


# Two people who do the same kinds of things: only the named speaker's turn answers.
SAME_THINGS = [
    ("Nadia", "I baked a lemon drizzle cake for the school fair on Friday."),
    ("Owen", "I baked cinnamon buns for my niece's birthday party."),
    ("Nadia", "My daughter started violin lessons this autumn."),
    ("Owen", "My son quit piano lessons after two years."),
    ("Owen", "We drove up to the lakes and camped for three nights."),
    ("Nadia", "We camped by the beach once, the tent flooded."),
    ("Nadia", "I switched jobs, I'm a nurse at the children's hospital now."),
    ("Owen", "I'm still at the bank, but I moved to the fraud team."),
    ("Owen", "My knee has been sore since the football match."),
    ("Nadia", "My back has been sore since I moved the sofa."),
    ("Nadia", "I'm reading a thriller about a stolen painting."),
    ("Owen", "I'm reading a biography of a mountain climber."),
]
SAME_THINGS_QUESTIONS = [
    ("Where did Owen go camping?", 4),
    ("What happened when Nadia camped?", 5),
    ("Which lessons did Owen's son give up?", 3),
    ("Which team does Owen work on?", 7),
    ("Why is Nadia's back sore?", 9),
    ("What is Owen reading?", 11),
]


def test_when_both_speakers_did_the_same_thing_the_named_ones_turn_is_kept(tmp_path, minilm):
    # On the fixed fusion (82e1d37) "Where did Owen go camping?" lost Owen's turn, the dense top hit,
    # to turns that named Owen or camping but said nothing about where he went.
    with Memory.open(tmp_path / "store", embedder=minilm, fsync=False) as mem:
        start = NOW - timedelta(days=90)
        records = []
        for week in range(6):
            for k, (who, text) in enumerate(SAME_THINGS):
                said = text if week == 0 else SMALL_TALK[(k + week) % len(SMALL_TALK)][0]
                when = start + timedelta(days=7 * week, minutes=k)
                records.append(
                    {"session_id": f"w{week}", "role": "user", "text": f"{who}: {said}", "time": when}
                )
        ids = [t.id for t in mem.add_turns(records)]
        for question, index in SAME_THINGS_QUESTIONS:
            channels = {
                m: [h.id for h in mem.search(question, 3, mode=m)] for m in ("dense", "lexical", "hybrid")
            }
            assert any(ids[index] in top for top in channels.values()), question  # a channel finds it
            deep = [item.turn.id for item in deep_retrieve(mem, question, now=NOW, budget=3).items]
            assert ids[index] in deep, (question, [mem.get(i).text for i in deep])


# One word of the task ("great") that a handful of chat lines share by chance: BM25's best hit
# matches only it, and must not count as a full lexical match (``relevance.IDEAL_SHARE``).
INCIDENTAL = [
    "The sunset over the harbour was great tonight.",
    "Great, thanks for sorting that out.",
    "That's a great idea, I'll tell my brother.",
    "Feeling great after a long sleep.",
    "The concert last night was great fun.",
]


@pytest.mark.parametrize("ideal_share", [None, 0.0])
def test_turns_sharing_one_incidental_word_do_not_outrank_the_stated_preference(
    tmp_path, minilm, monkeypatch, ideal_share
):
    from ibachat.agent.retrieval import relevance

    if ideal_share is not None:  # the old calibration, against the best hit only: the preference sinks
        monkeypatch.setattr(relevance, "IDEAL_SHARE", ideal_share)
    statement = "Anything on a table that drags on for hours bores me stiff, I like quick rounds."
    task = "Any great board games for a wet afternoon with the kids?"
    with Memory.open(tmp_path / "store", embedder=minilm, fsync=False) as mem:
        start = NOW - timedelta(days=30)
        mem.add_turn("pref", "user", statement, time=start)
        mem.add_turn("pref", "assistant", "Noted.", time=start + timedelta(seconds=20))
        _chat(mem, 20, start + timedelta(days=1))
        for day, line in enumerate(INCIDENTAL):
            mem.add_turn(f"chat-{day}", "user", line, time=start + timedelta(days=2 + 3 * day))
        ranked = [item.turn.text for item in deep_retrieve(mem, task, now=NOW, budget=10).items]
        assert statement in ranked
        above = [t for t in ranked[: ranked.index(statement)] if t in INCIDENTAL]
        if ideal_share is None:
            assert not above, ranked
        else:
            assert above, ranked  # the mechanism is what keeps it on top


def test_the_evidence_is_never_short_of_the_budget_while_dense_hits_remain(tmp_path, minilm):
    # Near-duplicates fold into one item; the free slots then go further down the dense list
    # instead of coming back empty (a short list is a slot less for what the ranking missed).
    with Memory.open(tmp_path / "store", embedder=minilm, fsync=False) as mem:
        start = NOW - timedelta(days=20)
        for day in range(6):
            mem.add_turn(f"d{day}", "user", "Feeling tired today.", time=start + timedelta(days=day))
            mem.add_turn(
                f"d{day}", "user", "Feeling tired again today.", time=start + timedelta(days=day, hours=1)
            )
        _chat(mem, 6, start + timedelta(days=7))
        ev = deep_retrieve(mem, "Any ideas for a relaxing evening when I'm worn out?", now=NOW, budget=10)
        assert len(ev.items) == 10, [i.turn.text for i in ev.items]
        assert len({i.turn.id for i in ev.items}) == 10
