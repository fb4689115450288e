"""Deep Retrieval must not fall below the single hybrid query on factual questions.

A two-person chat over seven months, written for this test (each turn starts with its
speaker's name, as in an imported chat log), and questions about it, each labelled with
the turns that answer it. The history is full of cue words (corrections, a cold, "I
love", "every Tuesday") that have nothing to do with most questions: the facets and
salience must not push the task's own best hits out.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from ibachat.agent.retrieval.deep import deep_retrieve
from memory.memory import Memory

# (session date, [(key, speaker, text)]); keys label the turns the questions need.
CHAT: list[tuple[datetime, list[tuple[str, str, str]]]] = [
    (
        datetime(2024, 2, 3, 18, 0, tzinfo=UTC),
        [
            (
                "m1",
                "Maya",
                "Hi Theo! Long week. I finally signed up for cello lessons at the community music school.",
            ),
            ("t1", "Theo", "That's brilliant! Who is going to teach you?"),
            (
                "m2",
                "Maya",
                "A retired orchestra player called Mr Okafor. My first lesson is next Thursday evening.",
            ),
            (
                "t2",
                "Theo",
                "Nice. I've started building a cedar canoe in my garage, it's going to take months.",
            ),
            ("m3", "Maya", "A canoe! Where will you paddle it?"),
            ("t3", "Theo", "On Lake Windermere, my grandfather used to take me there every summer."),
            ("m4", "Maya", "How lovely. My spaniel Pepper would come along, she adores water."),
            ("t4", "Theo", "Ha, she would jump straight out of the boat."),
        ],
    ),
    (
        datetime(2024, 2, 20, 19, 30, tzinfo=UTC),
        [
            ("t5", "Theo", "Guess what, I signed up for the Bristol half marathon in May."),
            ("m5", "Maya", "Wow, how are you getting ready for it?"),
            ("t6", "Theo", "Three runs a week along the canal, and a long run every Sunday morning."),
            ("m6", "Maya", "Actually I hate running, I'd rather swim. I do forty lengths every Tuesday."),
            ("t7", "Theo", "Swimming is great for recovery too. My knee has been sore lately though."),
            ("m7", "Maya", "Ice it, and see a physio if it doesn't settle."),
        ],
    ),
    (
        datetime(2024, 3, 10, 12, 0, tzinfo=UTC),
        [
            ("m8", "Maya", "Big news: the hospital in Leeds offered me a ward manager job."),
            ("t8", "Theo", "Congratulations! When do you start?"),
            ("m9", "Maya", "On the first of June, so I have to find somewhere to live before then."),
            ("t9", "Theo", "My cousin rents out a flat in Headingley. Shall I ask him about it?"),
            ("m10", "Maya", "Yes please, I need a place that allows dogs."),
            ("t10", "Theo", "I'll text him tonight."),
        ],
    ),
    (
        datetime(2024, 3, 28, 20, 15, tzinfo=UTC),
        [
            ("t11", "Theo", "I finished sanding the hull yesterday."),
            ("m11", "Maya", "How long did that take you?"),
            ("t12", "Theo", "Almost three weeks, every evening after work."),
            ("m12", "Maya", "Mr Okafor says I'm ready to play in the spring recital."),
            ("t13", "Theo", "What piece are you going to play?"),
            ("m13", "Maya", "The Swan by Saint-Saens. It's slow, but the bowing is tricky."),
            ("t14", "Theo", "I'll come and cheer, just tell me the date."),
            ("m14", "Maya", "Saturday the twentieth of April, at the town hall."),
        ],
    ),
    (
        datetime(2024, 4, 22, 17, 45, tzinfo=UTC),
        [
            ("t15", "Theo", "So how did the recital go?"),
            ("m15", "Maya", "I was shaking, but I got through it without a single wrong note."),
            (
                "t16",
                "Theo",
                "Sorry I missed it. My sister Ines asked me to be best man at her wedding in August.",
            ),
            ("m16", "Maya", "Best man for your sister? That's unusual, and really sweet."),
            ("t17", "Theo", "She says I'm her best friend. The wedding will be in Porto."),
            ("m17", "Maya", "I've been feeling under the weather, a nasty cold all week."),
            ("t18", "Theo", "Get some rest and drink lots of tea."),
        ],
    ),
    (
        datetime(2024, 5, 19, 13, 0, tzinfo=UTC),
        [
            ("t19", "Theo", "I ran the half marathon this morning!"),
            ("m18", "Maya", "Amazing! What was your time?"),
            ("t20", "Theo", "One hour fifty-two, and my knee held up the whole way."),
            ("m19", "Maya", "So proud of you. And I signed the lease for your cousin's flat in Headingley."),
            ("t21", "Theo", "Great, so you and Pepper are sorted."),
            ("m20", "Maya", "Yes, the landlord was fine with dogs."),
        ],
    ),
    (
        datetime(2024, 6, 15, 10, 30, tzinfo=UTC),
        [
            ("m21", "Maya", "First two weeks in Leeds done. The ward is chaotic but the team is kind."),
            ("t22", "Theo", "Have you found a new pool yet?"),
            ("m22", "Maya", "Not yet, I've been walking Pepper along the river instead."),
            ("t23", "Theo", "The canoe is varnished, I'm taking it out on the lake next weekend."),
            ("m23", "Maya", "Take photos! What did you name it?"),
            ("t24", "Theo", "Grandad's Promise, after my grandfather."),
        ],
    ),
    (
        datetime(2024, 8, 25, 21, 0, tzinfo=UTC),
        [
            ("t25", "Theo", "Back from Porto. The wedding was beautiful."),
            ("m24", "Maya", "How did your speech go?"),
            ("t26", "Theo", "I cried halfway through, but people laughed in the right places."),
            ("m25", "Maya", "Actually, I have news too: I switched from the cello to the double bass."),
            ("t27", "Theo", "Why the change?"),
            ("m26", "Maya", "The orchestra in Leeds needed a bass player, and I love the low notes."),
            ("t28", "Theo", "You'll have to carry it on the bus now!"),
            ("m27", "Maya", "I know, I'm thinking of buying a small car."),
        ],
    ),
]
NOW = datetime(2024, 8, 26, 9, 0, tzinfo=UTC)

QUESTIONS: list[tuple[str, set[str]]] = [
    ("Who teaches Maya the cello?", {"m2"}),
    ("When is Maya's first cello lesson?", {"m2"}),
    ("Where will Theo paddle his canoe?", {"t3"}),
    ("What kind of dog does Maya have?", {"m4"}),
    ("How is Theo training for the half marathon?", {"t6"}),
    ("How often does Maya go swimming?", {"m6"}),
    ("What job was Maya offered in Leeds?", {"m8"}),
    ("When does Maya start her new job?", {"m9"}),
    ("How long did Theo spend sanding the canoe?", {"t12"}),
    ("What piece did Maya play at the spring recital?", {"m13"}),
    ("When and where was Maya's recital?", {"m12", "m14"}),
    ("What was Theo's half marathon time?", {"t20"}),
    ("Where did Maya find a flat in Leeds?", {"t9", "m19"}),
    ("Whose wedding was Theo the best man at, and where was it?", {"t16", "t17"}),
    ("What did Theo name his canoe?", {"t24"}),
    ("Which instrument does Maya play in the Leeds orchestra?", {"m25", "m26"}),
    ("How did Theo's knee hold up over the months?", {"t7", "t20"}),
]


@pytest.fixture(scope="module")
def chat_store(tmp_path_factory):
    from memory.embedders.registry import load_embedder

    records, keys = [], []
    for session, (start, turns) in enumerate(CHAT):
        for k, (key, speaker, text) in enumerate(turns):
            when = start + timedelta(minutes=2 * k)
            records.append(
                {"session_id": f"chat-{session}", "role": "user", "text": f"{speaker}: {text}", "time": when}
            )
            keys.append(key)
    mem = Memory.open(tmp_path_factory.mktemp("factual"), embedder=load_embedder("minilm"), fsync=False)
    ids = {key: turn.id for key, turn in zip(keys, mem.add_turns(records), strict=True)}
    yield mem, ids
    mem.close()


def recall(mem: Memory, ids: dict[str, int], mode: str, k: int) -> float:
    """Mean share of each question's labelled turns among the top ``k`` (budget ``k``)."""
    total = 0.0
    for question, wanted in QUESTIONS:
        found = {item.turn.id for item in deep_retrieve(mem, question, now=NOW, budget=k, mode=mode).items}
        total += len({ids[w] for w in wanted} & found) / len(wanted)
    return total / len(QUESTIONS)


def test_the_chat_is_big_enough_to_rank():
    assert sum(len(turns) for _, turns in CHAT) >= 55
    keys = [key for _, turns in CHAT for key, _, _ in turns]
    assert len(keys) == len(set(keys))
    assert all(wanted <= set(keys) for _, wanted in QUESTIONS)


@pytest.mark.parametrize("k", [3, 5, 10])
def test_deep_retrieval_is_at_least_as_good_as_one_hybrid_query(chat_store, k):
    mem, ids = chat_store
    deep, single = recall(mem, ids, "deep", k), recall(mem, ids, "single", k)
    assert deep >= single, f"recall@{k}: deep {deep:.3f} < single hybrid query {single:.3f}"


def test_deep_retrieval_finds_most_answers(chat_store):
    mem, ids = chat_store
    assert recall(mem, ids, "deep", 5) >= 0.7
    assert recall(mem, ids, "deep", 10) >= 0.9


def test_the_answer_to_a_question_comes_with_the_question(chat_store):
    # "Where will you paddle it?" -> "On Lake Windermere...": the reply borrows the question's relevance.
    mem, ids = chat_store
    ev = deep_retrieve(mem, "Where will Theo paddle his canoe?", now=NOW, budget=5)
    item = next(i for i in ev.items if i.turn.id == ids["t3"])
    assert "relevant with its context" in item.why
    assert any("Where will you paddle it?" in t.text for t in item.context)
