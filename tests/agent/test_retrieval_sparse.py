"""BGE-M3's sparse channel in Deep Retrieval (``ibachat.agent.retrieval.sparse``).

The fusion logic runs with a scripted sparse encoder (a hash embedder for the dense side and a
small synonym table for the learned lexical weights, as a learned sparse model maps related
words onto shared tokens); the real code path runs with a tiny random BGE-M3 built offline, and
with the real weights when they are in the Hugging Face cache.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta

import pytest

from ibachat.agent.retrieval import sparse as sparse_mod
from ibachat.agent.retrieval.deep import deep_retrieve
from memory.embedders.hashing import HashEmbedder
from memory.errors import EmbedderUnavailable
from memory.memory import Memory

NOW = datetime(2025, 11, 20, 9, 0, tzinfo=UTC)
# word -> the token a learned sparse model would weigh it under
SYNONYMS = {
    "physician": "doctor",
    "gp": "doctor",
    "doctor": "doctor",
    "checkup": "visit",
    "appointment": "visit",
}
TURNS = [
    "my physician moved my checkup to friday morning",
    "the bakery on the corner sells great rye bread",
    "we watched a film about penguins last night",
    "the train to work was packed again",
    "I repainted the hallway a pale green",
    "our team meeting got moved to thursday",
    "the neighbours are building a shed",
    "I need to renew my passport soon",
    "friday morning is the market in the square",
    "we booked a table for saturday night",
]
TASK = "when is the doctor appointment"


class ScriptedSparse(HashEmbedder):
    """Hash vectors; lexical weights from ``SYNONYMS`` (0.3 for any other word, or ``flat``)."""

    def __init__(self, flat: bool = False) -> None:
        super().__init__(64)
        self.model_id = "hash-64-scripted-sparse" + ("-flat" if flat else "")  # the hash floors apply
        self.flat, self.calls = flat, 0

    def embed_sparse(self, texts: Sequence[str]) -> list[dict[str, float]]:
        self.calls += 1
        out = []
        for text in texts:
            weights: dict[str, float] = {"common": 0.5} if self.flat else {}
            for word in re.findall(r"[a-z]+", text.lower()):
                if not self.flat:
                    token = SYNONYMS.get(word, word)
                    weights[token] = max(weights.get(token, 0.0), 0.9 if word in SYNONYMS else 0.3)
            out.append(weights)
        return out


def _memory(tmp_path, embedder) -> tuple[Memory, int]:
    mem = Memory.open(tmp_path / "store", embedder=embedder, fsync=False)
    records = [
        {"session_id": f"s{i}", "role": "user", "text": text, "time": NOW - timedelta(days=20 - i)}
        for i, text in enumerate(TURNS)
    ]
    return mem, mem.add_turns(records)[0].id


def _ranked(ev) -> list[str]:
    return [item.turn.text for item in ev.items]


def test_the_sparse_channel_lifts_a_match_in_other_words(tmp_path):
    with_sparse, wanted = _memory(tmp_path / "a", ScriptedSparse())
    with with_sparse:
        ev = deep_retrieve(with_sparse, TASK, now=NOW, budget=3)
        assert ev.stats["sparse"] > 0
        assert _ranked(ev)[0] == TURNS[0], (ev.stats, _ranked(ev))
        # its weights are cached: a second task encodes only itself
        calls = with_sparse.embedder.calls
        deep_retrieve(with_sparse, "is my doctor appointment on friday", now=NOW, budget=3)
        assert with_sparse.embedder.calls == calls + 1
    plain, _ = _memory(tmp_path / "b", HashEmbedder(64))
    with plain:  # the same history without the channel: the match is not first
        ev = deep_retrieve(plain, TASK, now=NOW, budget=3)
        assert "sparse" not in ev.stats or ev.stats["sparse"] == 0
        assert not ev.items or _ranked(ev)[0] != TURNS[0]


def test_a_sparse_channel_that_matches_everything_alike_has_no_say(tmp_path):
    flat, _ = _memory(tmp_path / "a", ScriptedSparse(flat=True))
    plain, _ = _memory(tmp_path / "b", HashEmbedder(64))
    with flat, plain:
        task = "the train to work this morning"
        with_flat = deep_retrieve(flat, task, now=NOW, budget=5)
        without = deep_retrieve(plain, task, now=NOW, budget=5)
        assert with_flat.stats["sparse"] > 0
        assert _ranked(with_flat) == _ranked(without)
        assert [i.score for i in with_flat.items] == pytest.approx([i.score for i in without.items])


def test_an_embedder_whose_sparse_output_fails_is_not_asked_again(monkeypatch):
    class NoHeads(ScriptedSparse):
        def embed_sparse(self, texts):
            self.calls += 1
            raise EmbedderUnavailable("no sparse_linear.pt")

    monkeypatch.setattr(sparse_mod, "_unavailable", set())
    emb = NoHeads()
    emb.model_id = "hash-64-scripted-no-heads"
    turn = type("T", (), {"id": 1, "text": "anything"})()
    assert sparse_mod.sparse_scores(emb, "q", [turn]) == {}
    assert sparse_mod.sparse_scores(emb, "q", [turn]) == {} and emb.calls == 1
    assert sparse_mod.sparse_scores(HashEmbedder(8), "q", [turn]) == {}  # no sparse output at all
    assert sparse_mod.matching_score({"a": 0.5, "b": 1.0}, {"b": 0.5, "c": 2.0}) == pytest.approx(0.5)


def test_the_real_bge_m3_code_path_runs_with_a_tiny_model(tmp_path_factory):
    pytest.importorskip("FlagEmbedding")
    from memory.embedders.flag import BGEM3Embedder
    from tests.memory.test_embedders import _build_tiny_m3

    emb = BGEM3Embedder(_build_tiny_m3(tmp_path_factory.mktemp("tiny-m3")))
    mem, _ = _memory(tmp_path_factory.mktemp("m3"), emb)
    with mem:
        ev = deep_retrieve(mem, TASK, now=NOW, budget=3)
    assert ev.stats["sparse"] == ev.stats["candidates"] - ev.stats["unusable"] > 0


def _cached_bge_m3() -> str | None:
    try:
        from huggingface_hub import try_to_load_from_cache

        from memory.embedders.flag import BGE_M3
    except ImportError:
        return None
    found = try_to_load_from_cache(BGE_M3, "sparse_linear.pt")
    return found if isinstance(found, str) else None


@pytest.mark.skipif(
    _cached_bge_m3() is None, reason="BAAI/bge-m3 (with sparse_linear.pt) is not in the Hugging Face cache"
)
def test_with_the_real_bge_m3_the_sparse_channel_finds_the_appointment(tmp_path):
    from memory.embedders.registry import load_embedder

    mem, _ = _memory(tmp_path, load_embedder("bge-m3"))
    with mem:
        ev = deep_retrieve(mem, TASK, now=NOW, budget=3)
    assert ev.stats["sparse"] > 0 and _ranked(ev)[0] == TURNS[0], _ranked(ev)
