"""The Memory facade over real TinyDB and usearch files: add, search, forget, reconcile, lock."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from memory.embedders.hashing import HashEmbedder
from memory.errors import StoreLocked
from memory.memory import Memory

T0 = datetime(2026, 1, 5, 9, tzinfo=UTC)


def fill(mem: Memory) -> list:
    texts = [
        "I booked the dentist for Tuesday at 9",
        "my cat Mochi knocked the plant over again",
        "order the usual pad thai, extra spicy please",
        "the quarterly report is due on the 14th",
        "remind me to call grandma on Sunday",
        "flight LH 1234 to Denver leaves at 07:40",
    ]
    return mem.add_turns(
        [
            {"session_id": f"s{i // 2}", "role": "user", "text": t, "time": T0 + timedelta(hours=i)}
            for i, t in enumerate(texts)
        ]
    )


def test_search_finds_names_numbers_and_meaning(tmp_path):
    with Memory.open(tmp_path, embedder=HashEmbedder(64)) as mem:
        fill(mem)
        assert mem.get(mem.search("Mochi", 1, mode="lexical")[0].id).text.startswith("my cat Mochi")
        assert "1234" in mem.get(mem.search("LH 1234", 1)[0].id).text
        hits = mem.search("pad thai spicy", 3, mode="hybrid")
        assert "pad thai" in mem.get(hits[0].id).text
        assert set(hits[0].why) >= {"dense", "lexical"}


def test_indexes_persist_and_reconcile_after_the_store_changes_behind_them(tmp_path):
    with Memory.open(tmp_path, embedder=HashEmbedder(64)) as mem:
        turns = fill(mem)
    # a turn written without indexing (as after a crash between store and index)
    with Memory.open(tmp_path, embedder=HashEmbedder(64)) as mem:
        extra = mem.add_turns(
            [{"session_id": "x", "role": "user", "text": "zebra crossing on Elm street", "time": T0}],
            index=False,
        )
        mem.store.delete([turns[0].id])
    with Memory.open(tmp_path, embedder=HashEmbedder(64)) as mem:
        vectors, lexical = mem._indexes()
        ids = {int(i) for i in vectors.ids()}
        assert extra[0].id in ids and turns[0].id not in ids
        assert {int(i) for i in lexical.ids()} == ids
        assert mem.search("zebra", 1, mode="lexical")[0].id == extra[0].id


def test_forget_removes_from_store_indexes_and_cache(tmp_path):
    with Memory.open(tmp_path, embedder=HashEmbedder(64)) as mem:
        turns = fill(mem)
        secret = turns[2]
        assert mem.cache.get_many([secret.text])[0] is not None
        mem.forget([secret.id])
        assert secret.id not in {h.id for h in mem.search("pad thai spicy", 10)}
        assert mem.cache.get_many([secret.text])[0] is None
    with Memory.open(tmp_path, embedder=HashEmbedder(64)) as mem:
        vectors, lexical = mem._indexes()
        assert secret.id not in {int(i) for i in vectors.ids()} | {int(i) for i in lexical.ids()}
        assert mem.search("pad thai", 5, mode="lexical") == [] or all(
            h.id != secret.id for h in mem.search("pad thai", 5, mode="lexical")
        )
    raw = b"".join(p.read_bytes() for p in tmp_path.rglob("*") if p.is_file() and "ledger" not in p.parts)
    assert b"pad thai" not in raw


def test_never_use_keeps_the_turn_but_hides_it_from_search(tmp_path):
    with Memory.open(tmp_path, embedder=HashEmbedder(64)) as mem:
        turns = fill(mem)
        mem.set_never_use(turns[1].id)
        assert all(h.id != turns[1].id for h in mem.search("cat Mochi plant", 10))
        assert mem.get(turns[1].id).flags == ("never_use",)
    with Memory.open(tmp_path, embedder=HashEmbedder(64)) as mem:
        mem.reindex()
        assert all(h.id != turns[1].id for h in mem.search("cat Mochi plant", 10))


def test_one_writer_at_a_time_but_readers_are_welcome(tmp_path):
    with Memory.open(tmp_path, embedder=HashEmbedder(64)) as mem:
        fill(mem)
        with pytest.raises(StoreLocked, match="another ibachat process"):
            Memory.open(tmp_path, embedder=HashEmbedder(64))
        reader = Memory.open(tmp_path, embedder=HashEmbedder(64), readonly=True)
        assert len(list(reader.iter_turns())) == 6
        reader.close()


def test_context_returns_session_neighbours(tmp_path):
    with Memory.open(tmp_path, embedder=HashEmbedder(64)) as mem:
        turns = fill(mem)
        ctx = mem.context(turns[3].id, 1, 1)
        assert [t.id for t in ctx] == [turns[2].id]  # session s1 holds turns 2 and 3 only
