"""Nothing embedded twice (issue 21): the catalogue's texts are embedded once per home, then read.

The tool descriptions, parameter texts and enum values the planner compares a request with are the
product's own words: their vectors are kept in ``<home>/cache/public/`` and a fresh process reads
them. The user's words never go there.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime

import numpy as np
import pytest

from ibachat.agent import meaning
from ibachat.agent import planner as planner_module
from ibachat.agent.execution.tools import as_task_tool, get_tool
from ibachat.agent.ingest import ingest
from ibachat.agent.planner import Planner
from memory.embedcache import text_key
from memory.embedders.base import Embedder
from memory.embedders.flag import minilm_embedder
from memory.memory import Memory

NOW = datetime(2025, 6, 1, 18, 0, tzinfo=UTC)
TASK = "Book a table for two on Friday at 7pm"


class Counting(Embedder):
    """The real MiniLM, counting what it is asked to embed."""

    def __init__(self, inner: Embedder) -> None:
        self.inner = inner
        self.model_id, self.ndim = inner.model_id, inner.ndim
        self.texts: list[str] = []

    def embed_batch(self, texts: Sequence[str]) -> np.ndarray:
        self.texts += list(texts)
        return self.inner.embed_batch(texts)


@pytest.fixture(scope="module")
def minilm() -> Embedder:
    emb = minilm_embedder()
    emb.load()
    return emb


def _turn(home, minilm) -> Counting:
    """One planned turn in a fresh Memory, as a fresh process would have it (no vectors in RAM)."""
    meaning.VECTORS._cache.clear()
    counting = Counting(minilm)
    with Memory.open(home, embedder=counting) as mem:
        Planner(mem).act(TASK, now=NOW, tools=[as_task_tool(get_tool("book_table"))])
    return counting


def test_catalogue_texts_are_embedded_once_per_home(tmp_path, minilm):
    home = tmp_path / "home"
    with Memory.open(home, embedder=minilm) as mem:
        ingest(
            mem,
            [
                {
                    "session_id": "s",
                    "role": "user",
                    "text": "I love quiet places, and I'm vegetarian.",
                    "time": NOW,
                },
                {"session_id": "s", "role": "user", "text": "never sit me at the bar", "time": NOW},
            ],
        )
    public = set(planner_module.catalogue_texts())
    first = _turn(home, minilm)
    first_public = [t for t in first.texts if t in public]
    assert len(first_public) > 50  # the tools' texts, parameters and values of the catalogue
    second = _turn(home, minilm)
    assert [t for t in second.texts if t in public] == []
    assert len(second.texts) < len(first.texts) / 3
    # the same vectors as embedding them now
    with Memory.open(home, embedder=minilm) as mem:
        sample = sorted(first_public)[:20]
        np.testing.assert_allclose(mem.public.get_many(sample), minilm.embed_batch(sample), atol=1e-6)
        # and the user's words are not there: neither the request nor what the user said
        stored = mem.public.cache._open()
        for text in [
            TASK,
            TASK.lower(),
            "I love quiet places, and I'm vegetarian.",
            "never sit me at the bar",
        ]:
            assert text_key(text) not in stored


def test_a_reader_keeps_public_vectors_in_ram(tmp_path, minilm):
    home = tmp_path / "home"
    with Memory.open(home, embedder=minilm) as mem:
        mem.add_turn("s", "user", "hello there", time=NOW)
    with Memory.open(home, embedder=minilm) as writer:  # holds the lock: the next one is a reader
        with Memory.open(home, embedder=minilm, readonly=True) as reader:
            reader.public.declare(["book table: Book a table"])
            vec = reader.embed_queries(["book table: Book a table", "a private query"])
            assert vec.shape == (2, minilm.ndim)
            assert not list((home / "cache" / "public").glob("*.emb"))
        writer.public.declare(["book table: Book a table"])
        writer.embed_queries(["book table: Book a table", "a private query"])
        stored = writer.public.cache._open()
        assert text_key("book table: Book a table") in stored and text_key("a private query") not in stored
