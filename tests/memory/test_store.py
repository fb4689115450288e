"""The TinyDB segment store: ids, ordering, segments, deletion, manifest, bad records."""

from __future__ import annotations

import json
import os
from datetime import UTC, datetime, timedelta

import pytest

from memory.errors import BadInput, CorruptFile, NotFound
from memory.store import TurnStore

BASE = datetime(2026, 3, 1, tzinfo=UTC)


def rec(i: int, **kw):
    return {
        "session_id": f"s{i % 5}",
        "role": "user",
        "text": f"turn {i}",
        "time": (BASE + timedelta(minutes=(i * 37) % 997)).isoformat(),
        **kw,
    }


def test_ids_are_sequential_and_never_reused(tmp_path):
    store = TurnStore(tmp_path / "turns", max_turns=10)
    turns = store.add([rec(i) for i in range(25)])
    assert [t.id for t in turns] == list(range(1, 26))
    assert len(list((tmp_path / "turns").glob("seg-*.json"))) == 3
    store.delete([25, 24])
    store.close()
    again = TurnStore(tmp_path / "turns", max_turns=10)
    assert len(again) == 23
    assert again.add([rec(99)])[0].id == 26  # the high-water mark survives deletion of the newest


def test_is_empty_agrees_with_len_as_turns_come_and_go(tmp_path):
    store = TurnStore(tmp_path / "turns", max_turns=4)
    assert store.is_empty() and len(store) == 0
    store.add([rec(i) for i in range(10)])  # three segments
    assert not store.is_empty()
    store.delete(list(range(5, 11)))  # the newest segments emptied, the oldest still holds turns
    assert not store.is_empty() and len(store) == 4
    store.delete(list(range(1, 5)))
    assert store.is_empty() and len(store) == 0
    store.close()
    assert TurnStore(tmp_path / "turns", max_turns=4).is_empty()


def test_newest_first_reads_in_time_order_across_segments(tmp_path):
    store = TurnStore(tmp_path / "turns", max_turns=7)
    store.add([rec(i) for i in range(60)])
    times = [t.time for t in store.iter_turns()]
    assert times == sorted(times, reverse=True) and len(times) == 60
    oldest = [t.time for t in store.iter_turns(newest_first=False)]
    assert oldest == sorted(oldest)
    only = list(store.iter_turns(session="s2", since=BASE + timedelta(minutes=300)))
    assert only and all(t.session_id == "s2" and t.time >= BASE + timedelta(minutes=300) for t in only)


def test_files_are_private_and_segments_are_tinydb_json(tmp_path):
    store = TurnStore(tmp_path / "turns")
    store.add([rec(1)])
    seg = next((tmp_path / "turns").glob("seg-*.json"))
    assert oct(seg.stat().st_mode & 0o777) == "0o600"
    assert oct((tmp_path / "turns").stat().st_mode & 0o777) == "0o700"
    data = json.loads(seg.read_text())
    assert data["turns"]["1"]["text"] == "turn 1"  # TinyDB's own layout: table -> doc id -> document


def test_bad_records_are_rejected_with_a_reason(tmp_path):
    store = TurnStore(tmp_path / "turns")
    with pytest.raises(BadInput, match="role"):
        store.add([rec(1, role="system")])
    with pytest.raises(BadInput, match="ISO-8601"):
        store.add([{**rec(1), "time": "yesterday"}])
    with pytest.raises(BadInput, match="missing"):
        store.add([{"role": "user", "text": "x"}])
    assert len(store) == 0
    with pytest.raises(NotFound):
        store.get(1)


def test_markup_ansi_and_huge_text_are_stored_faithfully(tmp_path):
    store = TurnStore(tmp_path / "turns")
    weird = "[bold]hi[/] [link=http://x]y[/link] \x1b[31mred\x1b[0m \u202e rtl \x00 nul"
    huge = "ab" * 2_500_000
    a, b = store.add([rec(1, text=weird), rec(2, text=huge)])
    store.close()
    again = TurnStore(tmp_path / "turns")
    assert again.get(a.id).text == weird
    assert again.get(b.id).text == huge


def test_leftover_temporaries_are_cleaned_and_a_torn_manifest_is_rebuilt(tmp_path):
    store = TurnStore(tmp_path / "turns", max_turns=5)
    store.add([rec(i) for i in range(12)])
    store.close()
    (tmp_path / "turns" / "seg-000001.json.tmp-123").write_text("{half")
    (tmp_path / "turns" / "manifest.json").write_text("{torn")
    again = TurnStore(tmp_path / "turns", max_turns=5)
    assert not list((tmp_path / "turns").glob("*.tmp-*"))
    assert len(again) == 12
    assert [t.id for t in again.iter_turns(newest_first=False)] == sorted(t.id for t in again.iter_turns())


def test_an_unreadable_segment_is_reported_not_ignored(tmp_path):
    store = TurnStore(tmp_path / "turns", max_turns=5)
    store.add([rec(i) for i in range(8)])
    store.close()
    seg = tmp_path / "turns" / "seg-000000.json"
    seg.write_bytes(b"\xff\xfe garbage")
    os.utime(seg, None)
    with pytest.raises(CorruptFile, match="seg-000000.json"):
        len(TurnStore(tmp_path / "turns", max_turns=5))


def test_a_forgotten_turn_is_restored_under_its_own_id_in_its_own_segment(tmp_path):
    store = TurnStore(tmp_path / "turns", max_turns=10)
    store.add([rec(i) for i in range(25)])
    gone = store.delete([3, 10, 11, 25])  # an old segment's first turn and the newest turn among them
    back = store.restore([{**t.to_record()} for t in gone])
    assert [t.id for t in back] == [3, 10, 11, 25]
    assert store.get(11).text == "turn 10" and len(store) == 25
    assert store.add([rec(99)])[0].id == 26  # restoring moved no high-water mark
    store.close()
    again = TurnStore(tmp_path / "turns", max_turns=10)
    assert again.ids() == list(range(1, 27)) and again.get(3).text == "turn 2"
    with pytest.raises(BadInput, match="in use"):
        again.restore([{**again.get(3).to_record()}])
    with pytest.raises(BadInput, match="never assigned"):
        again.restore([{**rec(1), "id": 500}])
