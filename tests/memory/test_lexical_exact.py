"""LexicalIndex.search against a brute-force BM25: the same hits, scores and order on random corpora.

The search picks candidates from float32 sums and scores only those in float64; these tests
check that this changes nothing: ties (few distinct scores), repeated query words, removed and
re-added documents, ``allowed`` subsets, and the fallback that sums every slot.
"""

from __future__ import annotations

import math
import random

import pytest

import memory.lexical as lexical_module
from memory.lexical import K1, B, LexicalIndex, tokenize


def brute_force(docs: dict[int, str], query: str, k: int, allowed: set[int] | None = None) -> list:
    """BM25 of every document, term by term in query order, ranked by (-score to 9 places, id)."""
    terms = {doc_id: tokenize(text) for doc_id, text in docs.items()}
    live = len(terms)
    avgdl = max(sum(len(t) for t in terms.values()) / live, 1e-9)
    query_terms: dict[str, str] = {}
    for word in query.split():
        for term in tokenize(word):
            query_terms.setdefault(term, word.lower())
    scores: dict[int, float] = {}
    why: dict[int, list[str]] = {}
    for term, word in query_terms.items():
        df = sum(term in t for t in terms.values())
        if df == 0:
            continue
        idf = math.log(1.0 + (live - df + 0.5) / (df + 0.5))
        for doc_id, doc_terms in terms.items():
            tf = doc_terms.count(term)
            if tf:
                norm = K1 * (1.0 - B + B * float(len(doc_terms)) / avgdl)
                part = idf * float(tf) * (K1 + 1.0) / (float(tf) + norm)
                scores[doc_id] = scores.get(doc_id, 0.0) + part
                why.setdefault(doc_id, []).append(word)
    ranked = sorted(
        (doc_id for doc_id in scores if allowed is None or doc_id in allowed),
        key=lambda d: (-round(scores[d], 9), d),
    )
    return [(d, scores[d], {"terms": why[d]}) for d in ranked[:k]]


def random_corpus(rng: random.Random) -> tuple[dict[int, str], list[str]]:
    vocab = [f"w{i}q" for i in range(rng.choice([3, 8, 40, 400]))]
    same_length = rng.random() < 0.5  # every document as long: a few distinct scores, many ties
    n = rng.choice([20, 300, 2500])
    docs = {}
    for doc_id in rng.sample(range(1, 20 * n), n):
        docs[doc_id] = " ".join(rng.choices(vocab, k=12 if same_length else rng.randint(1, 20)))
    return docs, vocab


@pytest.mark.parametrize("union_limit", [lexical_module.UNION_LIMIT, 0])
@pytest.mark.parametrize("seed", range(12))
def test_search_equals_brute_force_bm25(seed, union_limit, monkeypatch):
    monkeypatch.setattr(lexical_module, "UNION_LIMIT", union_limit)  # 0: float32 sums on every corpus
    rng = random.Random(seed)
    docs, vocab = random_corpus(rng)
    index = LexicalIndex()
    index.add(list(docs), list(docs.values()))
    if seed % 3 == 1:  # removed documents leave dead slots behind
        gone = rng.sample(list(docs), len(docs) // 3)
        index.remove(gone)
        for doc_id in gone:
            del docs[doc_id]
    if seed % 3 == 2:  # and replaced ones move to new slots
        for doc_id in rng.sample(list(docs), len(docs) // 4):
            docs[doc_id] = " ".join(rng.choices(vocab, k=rng.randint(1, 9)))
            index.add([doc_id], [docs[doc_id]])
    for _ in range(8):
        words = rng.choices(vocab, k=rng.randint(1, 6))
        query = " ".join(words + words[:1])  # a repeated word counts once
        k = rng.choice([1, 5, 10, 30, 10_000])
        allowed = set(rng.sample(list(docs), len(docs) // 2)) if rng.random() < 0.25 else None
        got = [(h.id, h.score, h.why) for h in index.search(query, k, allowed=allowed)]
        assert got == brute_force(docs, query, k, allowed)


def test_summing_every_slot_gives_what_the_candidates_give(monkeypatch):
    """Many ties push the search to its full float64 sum; both ways return the same hits."""
    rng = random.Random(7)
    vocab = [f"t{i}z" for i in range(30)]
    texts = [" ".join(rng.choices(vocab, k=10)) for _ in range(3000)]
    index = LexicalIndex()
    index.add(list(range(1, 3001)), texts)
    queries = [" ".join(rng.choices(vocab, k=rng.randint(2, 5))) for _ in range(20)]
    monkeypatch.setattr(lexical_module, "UNION_LIMIT", 0)
    by_candidates = [[(h.id, h.score, h.why) for h in index.search(q, 30)] for q in queries]
    monkeypatch.setattr(lexical_module, "EXACT_LIMIT", 0)
    assert [[(h.id, h.score, h.why) for h in index.search(q, 30)] for q in queries] == by_candidates


def test_few_candidates_are_scored_exactly_on_a_large_index():
    """On 20k documents whose query words each match a quarter of them, few more than k are rescored."""
    rng = random.Random(3)
    vocab = [f"v{i}k" for i in range(40)]
    index = LexicalIndex()
    index.add(list(range(20_000)), [" ".join(rng.choices(vocab, k=12)) for _ in range(20_000)])
    index.search(" ".join(vocab[:4]), 30)  # computes the term scores (20k postings: no union)
    posts = [index._postings(index._vocab[term]) for term in vocab[:4]]
    cand = index._candidates(posts, 30)
    assert cand is not None and 30 <= len(cand) <= 300  # the 30 best and ties of the 30th
