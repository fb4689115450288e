"""LexicalIndex: tokenizer, BM25 ranking, removal, compaction, files and huge texts."""

from __future__ import annotations

import io
import math
import time

import numpy as np
import pytest

from memory.errors import BadInput, CorruptFile
from memory.lexical import K1, MAX_TOKENS, B, LexicalIndex, tokenize

DOCS = {
    1: "I really like my coffee black, no sugar please",
    2: "Booked the flight to Reykjavik for March 14",
    3: "My dentist appointment moved to 3pm on Friday",
    4: "Coffee with oat milk is fine when I am travelling",
    5: "Call Siobhan about the invoice 4471 before Friday",
    6: "The weather is nice today and I like the weather",
    7: "Dogs and cats: I prefer dogs",
}


def build() -> LexicalIndex:
    index = LexicalIndex()
    index.add(list(DOCS), list(DOCS.values()))
    return index


def test_tokenize_keeps_names_numbers_and_stems_inflections():
    terms = tokenize("The Stories of Siobhan's 3 puppies, invoice #4471!")
    assert terms == tokenize("story siobhan 3 puppy invoice 4471")
    assert terms[1:3] == ["siobhan", "3"] and terms[4:] == ["invoic", "4471"]
    assert len(set(tokenize("dogs dog DOGS"))) == 1
    # the inflections of one verb or noun are one term (Snowball English), unrelated words are not
    assert len(set(tokenize("camping camped camps camp"))) == 1
    assert len(set(tokenize("promoting promoted promotes"))) == 1
    assert len(set(tokenize("organised organising"))) == 1
    assert len(set(tokenize("universe university"))) == 2
    assert tokenize("glass bus v2 covid19 x_y") == ["glass", "bus", "v2", "covid19", "x", "y"]
    assert tokenize("Übergrößen café naïve 東京") == ["übergrößen", "café", "naïve", "東京"]
    assert tokenize("the and of") == []


def test_an_index_from_the_older_tokenizer_loads_outdated_and_the_store_rebuilds_it(tmp_path):
    from memory.embedders.hashing import HashEmbedder
    from memory.memory import Memory

    home = tmp_path / "home"
    with Memory.open(home, embedder=HashEmbedder(), fsync=False) as memory:
        memory.add_turns([{"session_id": "s1", "role": "user", "text": "we camped by the lake all weekend"}])
    path = home / "index" / "lexical.bin"
    with np.load(path) as npz:
        arrays = {name: npz[name] for name in npz.files}
    arrays["version"] = np.array([1], dtype=np.int64)  # what the plural-only tokenizer wrote
    buf = io.BytesIO()
    np.savez(buf, **arrays)
    path.write_bytes(buf.getvalue())
    old = LexicalIndex.load(path)
    assert old.outdated and len(old) == 0
    with Memory.open(home, embedder=HashEmbedder(), fsync=False) as memory:
        assert [h.id for h in memory.search("camping", 5, mode="lexical")] == [1]
    again = LexicalIndex.load(path)
    assert not again.outdated and len(again) == 1


def test_rare_words_names_and_numbers_rank_first():
    index = build()
    assert index.search("Reykjavik", 3)[0].id == 2
    assert index.search("siobhan", 3)[0].id == 5
    hits = index.search("invoice 4471", 3)
    assert [h.id for h in hits] == [5] and hits[0].why == {"terms": ["invoice", "4471"]}
    hits = index.search("coffee Friday dentist", 5)
    assert hits[0].id == 3  # the rare "dentist" outweighs the shared words
    assert {h.id for h in hits} == {1, 3, 4, 5}
    assert all(a.score >= b.score for a, b in zip(hits, hits[1:]))
    assert index.search("dog", 1)[0].why == {"terms": ["dog"]}
    assert index.search("zebra", 5) == [] and index.search("", 5) == []


def test_bm25_matches_the_formula():
    index = LexicalIndex()
    texts = ["apple banana", "apple apple cherry date", "banana", "fig"]
    index.add([10, 11, 12, 13], texts)
    lens = [2, 4, 1, 1]
    avgdl = sum(lens) / 4

    def term(tf: int, df: int, dl: int) -> float:
        idf = math.log(1 + (4 - df + 0.5) / (df + 0.5))
        return idf * tf * 1.9 / (tf + 0.9 * (1 - 0.4 + 0.4 * dl / avgdl))  # k1 = 0.9, b = 0.4

    hits = {h.id: h.score for h in index.search("apple", 10)}
    assert hits == {10: pytest.approx(term(1, 2, 2)), 11: pytest.approx(term(2, 2, 4))}


def test_remove_readd_and_allowed():
    index = build()
    assert index.remove([2, 2, 99]) == 1
    assert index.search("Reykjavik") == [] and len(index) == 6 and 2 not in index
    index.add([1], ["Reykjavik in winter"])  # replaces the coffee text
    assert index.search("coffee", 5)[0].id == 4
    assert index.search("reykjavik", 5)[0].id == 1
    assert sorted(index.ids().tolist()) == [1, 3, 4, 5, 6, 7]
    assert [h.id for h in index.search("friday", 5, allowed={5})] == [5]
    assert index.search("friday", 5, allowed=set()) == []
    index.add([8], [""])  # an empty text is still an indexed id (the store reconciles by ids)
    assert 8 in index.ids() and len(index) == 7


def test_compaction_keeps_results():
    index = LexicalIndex()
    n = 3000
    index.add(range(n), [f"note {i} about topic{i % 10}" for i in range(n)])
    index.remove(range(0, n, 2))
    assert index._slots == n  # half dead: not yet compacted
    index.remove(range(1, n, 4))  # now more dead than live, and over the floor: compacts
    live = set(range(n)) - set(range(0, n, 2)) - set(range(1, n, 4))
    assert index._slots == len(index) == len(live)
    assert [h.id for h in index.search("2999", 5)] == [2999]
    assert index.search("2997", 5) == []
    assert {h.id for h in index.search("topic3", 1000)} == {i for i in live if i % 10 == 3}


def test_save_load_round_trip(tmp_path):
    index = build()
    index.remove([6])
    path = tmp_path / "lexical.bin"
    index.save(path)
    assert not index.dirty and oct(path.stat().st_mode & 0o777) == "0o600"
    back = LexicalIndex.load(path)
    assert sorted(back.ids().tolist()) == sorted(index.ids().tolist())
    for query in ("coffee", "friday invoice", "dogs cats", "weather"):
        assert [(h.id, round(h.score, 9), h.why) for h in back.search(query)] == [
            (h.id, round(h.score, 9), h.why) for h in index.search(query)
        ]
    back.add([42], ["coffee coffee coffee"])
    assert back.search("coffee", 1)[0].id == 42
    assert len(LexicalIndex.load(tmp_path / "missing.bin")) == 0


def test_corrupt_files(tmp_path):
    bad = tmp_path / "bad.bin"
    bad.write_bytes(b"\x00not an index at all" * 10)
    with pytest.raises(CorruptFile):
        LexicalIndex.load(bad)
    good = tmp_path / "good.bin"
    build().save(good)
    bad.write_bytes(good.read_bytes()[:-40])
    with pytest.raises(CorruptFile):
        LexicalIndex.load(bad)
    # a well-formed npz whose postings point past the documents
    with np.load(good) as npz:
        arrays = {name: npz[name] for name in npz.files}
    arrays["slots"] = arrays["slots"] + 100
    buf = io.BytesIO()
    np.savez(buf, **arrays)
    bad.write_bytes(buf.getvalue())
    with pytest.raises(CorruptFile, match="inconsistent"):
        LexicalIndex.load(bad)


def test_huge_text_is_truncated_not_fatal():
    text = ("alpha beta gamma 12345 " * 250_000)[:5_000_000] + " omega"
    index = LexicalIndex()
    start = time.perf_counter()
    index.add([1, 2], [text, "gamma ray"])
    assert time.perf_counter() - start < 5
    assert index._slot_len[0] == MAX_TOKENS
    assert index.search("omega") == []  # beyond the indexed prefix
    assert [h.id for h in index.search("ray gamma")][0] == 2


def test_bad_input():
    index = LexicalIndex()
    with pytest.raises(BadInput):
        index.add([1, 2], ["one"])
    with pytest.raises(BadInput):
        index.add([1], [None])  # type: ignore[list-item]


def test_speed_at_ten_thousand_docs():
    rng = np.random.default_rng(0)
    vocab = [f"w{i}" for i in range(5000)]
    p = 1 / np.arange(1, 5001)
    p /= p.sum()
    words = rng.choice(5000, size=(10_000, 20), p=p)
    index = LexicalIndex()
    start = time.perf_counter()
    index.add(range(10_000), [" ".join(vocab[j] for j in row) for row in words])
    assert time.perf_counter() - start < 3
    start = time.perf_counter()
    for row in words[:50, :5]:
        index.search(" ".join(vocab[j] for j in row), 10)
    assert (time.perf_counter() - start) / 50 < 0.02


def _reference_bm25(docs: dict[int, list[str]], query: list[str], k: int) -> list[tuple[int, float]]:
    """BM25 over every document, the best ``k`` by score then id: what search must return."""
    live = len(docs)
    avgdl = sum(len(t) for t in docs.values()) / live
    scores: dict[int, float] = {}
    for term in dict.fromkeys(query):
        holders = [d for d, terms in docs.items() if term in terms]
        if not holders:
            continue
        idf = math.log(1 + (live - len(holders) + 0.5) / (len(holders) + 0.5))
        for d in holders:
            tf, dl = docs[d].count(term), len(docs[d])
            scores[d] = scores.get(d, 0.0) + idf * tf * (K1 + 1) / (tf + K1 * (1 - B + B * dl / avgdl))
    return sorted(scores.items(), key=lambda kv: (-round(kv[1], 9), kv[0]))[:k]


def test_pruned_top_k_equals_full_bm25_through_writes_ties_and_removals():
    """The sampled threshold and the cached postings give exactly the full ranking, ties by id."""
    import random

    rng = random.Random(5)
    vocab = [f"w{i}" for i in range(12)]  # few words: long postings, many tied scores
    index = LexicalIndex()
    docs: dict[int, list[str]] = {}
    next_id = 0

    def check() -> None:
        for _ in range(15):
            query = rng.sample(vocab, rng.randint(1, 4))
            k = rng.choice([1, 5, 30])
            want = _reference_bm25(docs, query, k)
            got = index.search(" ".join(query), k)
            assert [h.id for h in got] == [d for d, _ in want]
            assert [h.score for h in got] == pytest.approx([s for _, s in want])

    for _round in range(4):
        batch = {next_id + i: rng.choices(vocab, k=rng.randint(1, 6)) for i in range(600)}
        next_id += len(batch)
        index.add(list(batch), [" ".join(t) for t in batch.values()])
        docs.update(batch)
        check()  # the cache is built here ...
        gone = rng.sample(sorted(docs), 150)
        index.remove(gone)
        for d in gone:
            del docs[d]
        check()  # ... and must not serve removed or stale postings here


def test_term_weights_are_the_idf_of_each_query_word_once():
    index = build()
    weights = index.term_weights("the coffee Friday Siobhan Siobhan zanzibar")
    assert list(weights) == ["coffee", "friday", "siobhan", "zanzibar"]  # stopword gone, repeat once
    assert weights["siobhan"] > weights["coffee"]  # one document holds Siobhan, two hold coffee
    assert weights["zanzibar"] == weights["siobhan"]  # in no document: weighs as a word of one
    assert weights["coffee"] == pytest.approx(math.log(1 + (7 - 2 + 0.5) / (2 + 0.5)))
    assert LexicalIndex().term_weights("coffee") == {} and index.term_weights("the of") == {}
    assert all(w > 0 for w in index.term_weights("dog dogs coffee weather nice").values())
