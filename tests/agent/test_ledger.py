"""The preference ledger: persistence, supersession, as-of queries, forgetting, crash safety."""

from __future__ import annotations

import json
import os
from datetime import datetime, timedelta, timezone

import pytest

from memory.errors import BadInput, CorruptFile, NotFound, StoreLocked
from memory.ledger import PreferenceEvent, PreferenceLedger

T0 = datetime(2025, 1, 1, 12, tzinfo=timezone.utc)


def ev(
    dim: str, value: str, day: int, *, kind: str = "stated", turns=(1,), until=None, pol=1
) -> PreferenceEvent:
    return PreferenceEvent(
        dimension=dim,
        value=value,
        kind=kind,
        valid_from=T0 + timedelta(days=day),
        valid_until=None if until is None else T0 + timedelta(days=until),
        evidence=tuple(turns),
        polarity=pol,
    )


def test_roundtrip_and_idempotent_add(tmp_path):
    led = PreferenceLedger(tmp_path / "ledger")
    assert not (tmp_path / "ledger").exists()  # constructing touches no disk
    a = led.add(ev("food.spice", "hot", 0))
    led.add(ev("food.spice", "hot", 0))  # same content, same id: not duplicated
    assert len(led) == 1
    again = PreferenceLedger(tmp_path / "ledger")
    assert [e.id for e in again.all()] == [a.id]
    assert again.get(a.id).valid_from == a.valid_from
    assert oct(os.stat(tmp_path / "ledger" / "events.jsonl").st_mode & 0o777) == "0o600"
    with pytest.raises(NotFound):
        again.get("ev-nope")


def test_unknown_kind_is_one_line_error():
    with pytest.raises(BadInput, match="unknown preference kind"):
        ev("x", "y", 0, kind="liked")


def test_supersession_is_time_aware(tmp_path):
    led = PreferenceLedger(tmp_path)
    steak = led.add(ev("food.diet", "meat", 0, kind="chose", turns=(1,)))
    veg = led.add(ev("food.diet", "vegetarian", 30, kind="updated", turns=(9,)))
    assert led.supersede(steak.id, veg.id)
    assert not led.supersede(steak.id, veg.id)  # already done
    assert [e.value for e in led.active(T0 + timedelta(days=10))] == ["meat"]
    assert [e.value for e in led.active(T0 + timedelta(days=40))] == ["vegetarian"]
    reopened = PreferenceLedger(tmp_path)
    assert reopened.get(steak.id).superseded_by == veg.id
    assert [e.value for e in reopened.active(T0 + timedelta(days=40))] == ["vegetarian"]


def test_validity_window_and_dimension_filter(tmp_path):
    led = PreferenceLedger(tmp_path)
    led.add_many([ev("food.texture", "soft", 10, kind="state", until=17), ev("travel.seat", "window", 0)])
    assert {e.dimension for e in led.active(T0 + timedelta(days=12))} == {"food.texture", "travel.seat"}
    assert [e.dimension for e in led.active(T0 + timedelta(days=20))] == ["travel.seat"]
    assert led.active(T0 + timedelta(days=5), dimensions=["food.texture"]) == []
    assert set(led.by_dimension(T0 + timedelta(days=12))) == {"food.texture", "travel.seat"}
    assert set(led.by_dimension()) == {"food.texture", "travel.seat"}


def test_forget_turns_removes_events_left_without_evidence(tmp_path):
    led = PreferenceLedger(tmp_path)
    only = led.add(ev("travel.seat", "aisle", 0, turns=(5,)))
    shared = led.add(ev("travel.seat", "window", 1, turns=(5, 6)))
    led.supersede(only.id, shared.id)
    assert led.forget_turns([5]) == 1
    assert [e.id for e in led.all()] == [shared.id]
    assert led.get(shared.id).evidence == (6,)
    reopened = PreferenceLedger(tmp_path)
    assert [e.evidence for e in reopened.all()] == [(6,)]


def test_pin_blocks_supersession_and_remove(tmp_path):
    led = PreferenceLedger(tmp_path)
    a = led.add(ev("drink.milk", "oat", 0))
    b = led.add(ev("drink.milk", "whole", 1))
    led.pin(a.id)
    assert not led.supersede(a.id, b.id)
    assert a.id in {e.id for e in led.active(T0 + timedelta(days=2))}
    led.remove(b.id)
    assert [e.id for e in PreferenceLedger(tmp_path).all()] == [a.id]
    assert PreferenceLedger(tmp_path).get(a.id).pinned


def test_torn_tail_is_truncated_on_open(tmp_path):
    led = PreferenceLedger(tmp_path)
    a = led.add(ev("travel.seat", "window", 0))
    path = tmp_path / "events.jsonl"
    good = path.read_bytes()
    torn = json.dumps({"op": "add", "event": ev("travel.seat", "aisle", 1).to_dict()}).encode()[:-7]
    path.write_bytes(good + torn)
    reopened = PreferenceLedger(tmp_path)
    assert [e.id for e in reopened.all()] == [a.id]
    assert path.read_bytes() == good  # cut back to the last whole line
    reopened.add(ev("travel.seat", "aisle", 2))
    assert len(PreferenceLedger(tmp_path)) == 2


def test_complete_but_unterminated_last_line_is_dropped(tmp_path):
    led = PreferenceLedger(tmp_path)
    led.add(ev("travel.seat", "window", 0))
    path = tmp_path / "events.jsonl"
    line = json.dumps({"op": "add", "event": ev("travel.seat", "aisle", 1).to_dict()}).encode()
    path.write_bytes(path.read_bytes() + line)  # parses, but the newline never made it
    assert len(PreferenceLedger(tmp_path)) == 1


def test_damage_in_the_middle_is_reported(tmp_path):
    led = PreferenceLedger(tmp_path)
    led.add(ev("travel.seat", "window", 0))
    led.add(ev("travel.seat", "aisle", 1))
    path = tmp_path / "events.jsonl"
    lines = path.read_bytes().split(b"\n")
    path.write_bytes(b"\n".join([b"{garbage"] + lines[1:]))
    with pytest.raises(CorruptFile, match="line 1"):
        PreferenceLedger(tmp_path).all()


def test_readonly_never_writes(tmp_path):
    PreferenceLedger(tmp_path).add(ev("travel.seat", "window", 0))
    path = tmp_path / "events.jsonl"
    path.write_bytes(path.read_bytes() + b'{"op": "ad')
    before = path.read_bytes()
    ro = PreferenceLedger(tmp_path, readonly=True)
    assert len(ro) == 1
    assert path.read_bytes() == before
    with pytest.raises(StoreLocked):
        ro.add(ev("travel.seat", "aisle", 1))


def test_compact_keeps_state_and_watermark(tmp_path):
    led = PreferenceLedger(tmp_path)
    a = led.add(ev("food.diet", "meat", 0, kind="chose"))
    b = led.add(ev("food.diet", "vegetarian", 5, kind="updated", turns=(2,)))
    led.supersede(a.id, b.id)
    led.pin(b.id)
    led.remove(led.add(ev("x.y", "z", 1, turns=(3,))).id)
    led.mark_seen(42)
    led.compact()
    re = PreferenceLedger(tmp_path)
    assert re.watermark == 42
    assert re.get(a.id).superseded_by == b.id and re.get(b.id).pinned
    assert len(re) == 2
    assert len((tmp_path / "events.jsonl").read_text().splitlines()) == 5


# ---------------------------------------------------------------- ingestion into the ledger
def _rec(session: str, role: str, text: str, day: float, tool_call: dict | None = None) -> dict:
    rec = {"session_id": session, "role": role, "text": text, "time": T0 + timedelta(days=day)}
    if tool_call:
        rec["tool_call"] = tool_call
    return rec


def _memory(tmp_path):
    from memory.memory import Memory

    return Memory.open(tmp_path / "mem", embedder="hash", fsync=False)


def test_ingestion_is_incremental_and_supersedes(tmp_path):
    from ibachat.agent.ingest import ingest

    memory = _memory(tmp_path)
    steak = {"name": "order_food", "arguments": {"items": ["Ribeye steak"]}}
    first = ingest(
        memory, [_rec("a", "user", "Dinner please.", d) for d in (1, 2)] + [_rec("a", "tool", "ok", 2, steak)]
    )
    before = {e.id: e.evidence for e in memory.ledger.all()}
    assert before and memory.ledger.watermark == max(t.id for t in first)
    lines = (tmp_path / "mem" / "ledger" / "events.jsonl").read_text().splitlines()
    second = ingest(
        memory,
        [_rec("b", "user", "I've gone vegetarian.", 10), _rec("b", "user", "The weather is nice.", 10.1)],
    )
    new_ids = {t.id for t in second}
    after = memory.ledger.all()
    added = [e for e in after if e.id not in before]
    assert added and all(set(e.evidence) <= new_ids for e in added)  # only the new turns were read
    assert {e.id: e.evidence for e in after if e.id in before} == before
    grown = (tmp_path / "mem" / "ledger" / "events.jsonl").read_text().splitlines()
    assert grown[: len(lines)] == lines  # appended, never rewritten
    meat = [e for e in after if e.dimension == "food.diet" and e.value == "meat"]
    veg = next(e for e in added if e.value == "vegetarian" and e.dimension == "food.diet")
    assert meat and all(e.superseded_by == veg.id for e in meat)
    memory.close()


def test_rejection_across_a_batch_boundary_uses_memory_context(tmp_path):
    from ibachat.agent.ingest import ingest

    memory = _memory(tmp_path)
    ingest(memory, [_rec("s", "assistant", "Shall I book the aisle seat again?", 1)])
    ingest(memory, [_rec("s", "user", "No thanks.", 1.001)])
    (rej,) = [e for e in memory.ledger.all() if e.kind == "rejected" and e.dimension != "open"]
    assert rej.value == "aisle" and len(rej.evidence) == 2
    memory.close()


def test_forgetting_a_turn_removes_its_events_and_catch_up_fills_gaps(tmp_path):
    from ibachat.agent.ingest import catch_up, ingest

    memory = _memory(tmp_path)
    (turn,) = ingest(memory, [_rec("s", "user", "I love window seats on flights.", 1)])
    assert {e.dimension for e in memory.ledger.all()} == {"travel.seat", "open"}
    memory.forget([turn.id])
    assert len(memory.ledger) == 0
    memory.add_turns([_rec("s", "user", "I can't stand layovers.", 2)])  # stored without extraction
    assert catch_up(memory) == 1 and catch_up(memory) == 0
    assert [e.value for e in memory.ledger.all() if e.polarity < 0 and e.dimension != "open"] == [
        "connecting"
    ]
    assert [e.value for e in memory.ledger.all() if e.dimension == "open"] == ["layovers"]
    memory.close()
