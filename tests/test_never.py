"""`memory never`: a turn kept and shown, but out of retrieval, the ledger and plans; --undo takes it back."""

from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone

from ibachat.assistant import Assistant
from ibachat.cli import main
from ibachat.llm.scripted import ScriptedLLM
from memory.memory import Memory

FLIGHT = {"origin": "Berlin", "destination": "Lisbon", "date": "2026-12-12"}
ASK = "Book a flight from Berlin to Lisbon on 2026-12-12"


def run(capsys, *args: str) -> tuple[int, str, str]:
    code = main(["--embedder", "hash", *args])
    out, err = capsys.readouterr()
    return code, out, err


def book(home, clock) -> tuple[dict, list[int]]:
    with Memory.open(home, embedder="hash") as mem:
        reply = Assistant(mem, ScriptedLLM([FLIGHT]), clock=lambda: clock).respond("s2", ASK)
        plan = mem.plans.get(reply.assistant_turn.id)
    assert reply.proposal is not None
    cited = [e["turn_id"] for e in plan["evidence"]] + [t for p in plan["preferences"] for t in p["evidence"]]
    return reply.proposal, cited


def test_a_never_used_turn_sets_no_value_and_is_quoted_nowhere_until_undone(_ibachat_home, capsys):
    home = _ibachat_home
    day1 = datetime(2026, 11, 1, 9, tzinfo=timezone.utc)
    with Memory.open(home, embedder="hash") as mem:
        said = Assistant(mem, ScriptedLLM(["Noted."]), clock=lambda: day1).respond(
            "s1", "I always want first class seats"
        )
    turn = said.user_turn.id
    proposal, cited = book(home, day1 + timedelta(days=1))
    assert proposal["arguments"].get("cabin") == "first" and turn in cited  # before: it shapes the plan

    code, _, err = run(capsys, "memory", "never", str(turn))
    assert code == 0 and "never be used" in err
    proposal, cited = book(home, day1 + timedelta(days=2))
    assert "cabin" not in proposal["arguments"] and "first class" not in json.dumps(proposal["reasons"])
    assert turn not in cited
    code, out, _ = run(capsys, "memory", "prefs", "--all", "--json")
    assert not [e for e in json.loads(out)["events"] if turn in e["evidence"]]  # out of the ledger
    code, out, _ = run(capsys, "memory", "search", "first class seats", "--json")
    assert turn not in [h["id"] for h in json.loads(out)]  # out of retrieval
    code, out, _ = run(capsys, "memory", "show", "--json")
    assert [t for t in json.loads(out) if t["id"] == turn][0]["flags"] == ["never_use"]  # still shown

    code, _, err = run(capsys, "memory", "never", str(turn), "--undo")
    assert code == 0 and "used again" in err
    proposal, cited = book(home, day1 + timedelta(days=3))
    assert proposal["arguments"].get("cabin") == "first" and turn in cited
    code, out, _ = run(capsys, "memory", "search", "first class seats", "--json")
    assert turn in [h["id"] for h in json.loads(out)]


def test_muting_survives_a_reopen_and_a_compaction_and_restores_what_it_replaced(tmp_path):
    from memory.ledger import PreferenceEvent, PreferenceLedger

    t = datetime(2026, 1, 1, tzinfo=timezone.utc)
    ledger = PreferenceLedger(tmp_path)
    old, new = ledger.add_many(
        [
            PreferenceEvent("travel.seat", "window", "stated", t, evidence=(1,)),
            PreferenceEvent("travel.seat", "aisle", "updated", t + timedelta(days=1), evidence=(2,)),
        ]
    )
    ledger.supersede(old.id, new.id)
    now = t + timedelta(days=2)
    assert [e.value for e in ledger.active(now)] == ["aisle"]
    ledger.mute_turns([2])
    ledger.compact()
    again = PreferenceLedger(tmp_path)
    assert [e.value for e in again.active(now)] == ["window"]  # the muted update no longer replaces it
    again.mute_turns([2], False)
    assert [e.value for e in PreferenceLedger(tmp_path).active(now)] == ["aisle"]


def test_a_turn_flagged_before_the_ledger_could_mute_is_muted_by_a_reindex(tmp_path):
    from ibachat.agent.ingest import ingest

    t = datetime(2026, 1, 1, tzinfo=timezone.utc)
    with Memory.open(tmp_path, embedder="hash") as mem:
        (turn,) = ingest(
            mem, [{"session_id": "s", "role": "user", "text": "I always want first class seats", "time": t}]
        )
        assert mem.ledger.all()
        mem.store.set_flags(turn.id, ["never_use"])  # what an older ibachat wrote: the flag alone
    with Memory.open(tmp_path, embedder="hash") as mem:
        mem.reindex()  # `ibachat memory reindex`
        assert mem.ledger.all() == [] and turn.id in mem.ledger.muted_turns
