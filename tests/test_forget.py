"""Forget means gone: a turn said in chat, planned from, searched and in the ledger leaves no trace.

Through the real assistant, store and CLI. After `memory forget` (by id, by session, by time
range) `grep -r` finds the turn's marker word in no file under the home. Nothing is kept to undo
it unless asked (`--undoable`), and then only encrypted, under a key that is printed once and
written nowhere; the copy is removed once the window is over.
"""

from __future__ import annotations

import json
import os
import pty
import re
import subprocess
import sys
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from ibachat.assistant import Assistant
from ibachat.cli import main
from ibachat.commands.forgetting import undo_path
from ibachat.line_history import scrub_history
from ibachat.llm.scripted import ScriptedLLM
from memory.lexical import LexicalIndex
from memory.memory import Memory
from memory.plans import PlanStore

MARKER = "quokkair"
DAY1 = datetime(2026, 11, 1, 9, tzinfo=timezone.utc)
FLIGHT = {"origin": "Berlin", "destination": "Lisbon", "date": "2026-12-12"}


def run(capsys, *args: str) -> tuple[int, str, str]:
    code = main(["--embedder", "hash", *args])
    out, err = capsys.readouterr()
    return code, out, err


def grep(home: Path, word: str) -> list[str]:
    """Files under ``home`` that hold ``word`` (grep -r, binary files included, any case)."""
    done = subprocess.run(["grep", "-rli", "-a", word, str(home)], capture_output=True, text=True)
    assert done.returncode in (0, 1), done.stderr
    return sorted(os.path.relpath(p, home) for p in done.stdout.split())


def chat_history(home: Path) -> dict[str, int]:
    """Day 1: the marker turn (session "trip"); day 2, session "plan": a booking planned from it."""
    clock = [DAY1]
    with Memory.open(home, embedder="hash") as mem:
        bot = Assistant(mem, ScriptedLLM(["Noted.", FLIGHT]), clock=lambda: clock[0])
        trip = bot.new_session("trip")
        said = bot.respond(trip, f"I hate middle seats, the {MARKER} trip was awful")
        clock[0] = DAY1 + timedelta(days=1)
        later = bot.new_session("plan")
        booked = bot.respond(later, "Book a flight from Berlin to Lisbon on 2026-12-12")
        assert booked.proposal is not None and MARKER in booked.proposal["reasons"]["seat"]
        assert any(MARKER in e.subject for e in mem.ledger.all())  # remembered by the ledger
        assert booked.assistant_turn.id in mem.plans.ids()  # another turn's plan quotes it
        return {"said": said.user_turn.id, "trip": trip, "plan": later, "booked": booked.assistant_turn.id}


@pytest.mark.parametrize("how", ["id", "session", "time range"])
def test_a_forgotten_turn_is_in_no_file_under_the_home(_ibachat_home, capsys, how):
    home = _ibachat_home
    ids = chat_history(home)
    code, out, _ = run(capsys, "memory", "search", MARKER, "--json")
    assert code == 0 and ids["said"] in [hit["id"] for hit in json.loads(out)]  # searched
    assert grep(home, MARKER), "the marker should be on disk before the forget"
    target = {
        "id": [str(ids["said"])],
        "session": ["--session", ids["trip"]],
        "time range": ["--since", "2026-11-01T00:00:00Z", "--until", "2026-11-01T23:59:59Z"],
    }[how]
    code, _, err = run(capsys, "memory", "forget", *target, "--yes")
    assert code == 0 and "forgot" in err and "--undo" not in err
    titles = json.loads((home / "sessions.json").read_text("utf-8"))
    assert (ids["trip"] in titles) == (how == "id")  # a session with no turn left loses its title
    assert grep(home, MARKER) == []  # gone when the command ends: no undo copy by default
    assert not undo_path(home).exists()
    with Memory.open(home, embedder="hash") as mem:
        assert ids["booked"] not in mem.plans.ids()  # the other turn's plan quoted it
        assert all(MARKER not in e.subject for e in mem.ledger.all())
        assert len(mem.cache) == len(mem)  # only stored turns' vectors are cached
        assert not mem.search(MARKER, mode="lexical")
    lexical = LexicalIndex.load(home / "index" / "lexical.bin")
    assert all(MARKER not in term for term in lexical._terms)  # compressed on disk: read it back
    code, out, _ = run(capsys, "memory", "search", MARKER, "--json")
    assert code == 0 and all(MARKER not in hit["text"] for hit in json.loads(out))


def expire_undo(home: Path) -> None:
    """Move the undo file's window into the past (what waiting ten minutes would do)."""
    path = undo_path(home)
    data = json.loads(path.read_text("utf-8"))
    data["expires"] = time.time() - 1
    path.write_text(json.dumps(data), "utf-8")


def undo_key(err: str) -> str:
    match = re.search(r"--undo (\S+)`", " ".join(err.split()))
    assert match, err
    return match.group(1)


def test_undo_only_when_asked_encrypted_under_a_key_kept_nowhere(_ibachat_home, capsys):
    home = _ibachat_home
    ids = chat_history(home)
    code, _, err = run(capsys, "memory", "forget", str(ids["said"]), "--yes")
    assert code == 0 and grep(home, MARKER) == []
    code, _, err = run(capsys, "memory", "forget", "--undo", "AAAAAAAAAAAAAAAAAAAAAA")
    assert code == 1 and "nothing to undo" in err and len(err.strip().splitlines()) == 1

    ids = chat_history(home)
    code, _, err = run(capsys, "memory", "forget", str(ids["said"]), "--yes", "--undoable")
    assert code == 0
    key = undo_key(err)
    assert grep(home, MARKER) == []  # the undo copy is encrypted: the words are in no file
    assert grep(home, key) == [] and os.stat(undo_path(home)).st_mode & 0o777 == 0o600
    code, _, err = run(capsys, "memory", "forget", "--undo", ("A" if key[0] != "A" else "B") + key[1:])
    assert code == 1 and "does not open" in err and undo_path(home).exists()  # a wrong key changes nothing
    code, _, err = run(capsys, "memory", "forget", "--undo", key)
    assert code == 0 and "restored 1 turn" in err
    assert not undo_path(home).exists()  # an undo is used once
    code, out, _ = run(capsys, "memory", "show", "--json", "-n", "0")
    assert any(MARKER in t["text"] for t in json.loads(out))
    with Memory.open(home, embedder="hash") as mem:
        back = [e for e in mem.ledger.all() if MARKER in e.subject]
        assert back and all(mem.get(t) for e in back for t in e.evidence)
    # the next forget replaces the undo copy: only the latest forget can be undone
    code, _, err = run(capsys, "memory", "forget", str(ids["booked"]), "--yes", "--undoable")
    assert code == 0 and undo_key(err) != key
    assert run(capsys, "memory", "forget", "--undo", key)[0] == 1


def test_an_expired_undo_restores_nothing_and_its_expiry_cannot_be_moved(_ibachat_home, capsys):
    ids = chat_history(_ibachat_home)
    code, _, err = run(capsys, "memory", "forget", str(ids["said"]), "--yes", "--undoable")
    key = undo_key(err)
    path = undo_path(_ibachat_home)
    data = json.loads(path.read_text("utf-8"))
    data["expires"] += 3600  # a later expiry written in: the sealed data no longer opens
    path.write_text(json.dumps(data), "utf-8")
    code, _, err = run(capsys, "memory", "forget", "--undo", key)
    assert code == 1 and "does not open" in err
    expire_undo(_ibachat_home)
    assert run(capsys, "memory", "reindex")[0] == 0  # any writing command after the window removes it
    assert not path.exists()
    code, _, err = run(capsys, "memory", "forget", "--undo", key)
    assert code == 1 and "nothing to undo" in err
    assert grep(_ibachat_home, MARKER) == []


def cli(home: Path, *args: str, stdin=None, **kw) -> subprocess.CompletedProcess:
    env = {**os.environ, "IBACHAT_HOME": str(home)}
    return subprocess.run(
        [sys.executable, "-m", "ibachat.cli", "--embedder", "hash", *args],
        env=env,
        stdin=stdin,
        capture_output=True,
        text=True,
        timeout=120,
        **kw,
    )


def on_a_terminal(home: Path, answer: str, *args: str) -> tuple[int, str]:
    """Run ibachat with a pseudo-terminal as stdin; answer its question with ``answer``."""
    master, slave = pty.openpty()
    env = {**os.environ, "IBACHAT_HOME": str(home)}
    proc = subprocess.Popen(
        [sys.executable, "-m", "ibachat.cli", "--embedder", "hash", *args],
        env=env,
        stdin=slave,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    os.close(slave)
    os.write(master, answer.encode() + b"\n")  # typed ahead: the terminal holds it until asked
    _, err = proc.communicate(timeout=120)
    os.close(master)
    return proc.returncode, err


def test_forget_asks_on_a_terminal_refuses_on_a_pipe_and_rejects_unknown_ids(_ibachat_home, capsys):
    home = _ibachat_home
    ids = chat_history(home)
    before = len(Memory.open(home, embedder="hash", readonly=True))
    # `echo n | ibachat memory forget 1`: a pipe never confirms; nothing is deleted
    done = cli(home, "memory", "forget", str(ids["said"]), input="n\n")
    assert done.returncode == 2 and "--yes" in done.stderr and "Traceback" not in done.stderr
    assert len(Memory.open(home, embedder="hash", readonly=True)) == before
    # one turn on a terminal: asked, "n" keeps it
    code, err = on_a_terminal(home, "n", "memory", "forget", str(ids["said"]))
    assert code == 1 and "nothing forgotten" in err
    assert len(Memory.open(home, embedder="hash", readonly=True)) == before
    code, err = on_a_terminal(home, "y", "memory", "forget", str(ids["said"]))
    assert code == 0 and "forgot 1 turn" in err
    assert len(Memory.open(home, embedder="hash", readonly=True)) == before - 1
    # no such turn: an error, not "forgot 0"
    code, _, err = run(capsys, "memory", "forget", "9999", "--yes")
    assert code == 1 and "no turn #9999" in err and len(err.strip().splitlines()) == 1
    code, _, err = run(capsys, "memory", "forget", "--session", "no-such-session", "--yes")
    assert code == 1 and "nothing forgotten" in err
    code, _, err = run(capsys, "memory", "forget", "3", "--undo", "KEY")
    assert code == 2 and "only its key" in err


def test_plans_that_cite_or_quote_a_forgotten_turn_go_and_others_stay(tmp_path):
    plans = PlanStore(tmp_path / "plans")
    plans.save(10, {"task": "pack for the trip", "evidence": [{"turn_id": 3, "snippet": "x"}]})
    plans.save(
        11, {"task": "book it", "params": {"seat": {"reason": "statement: aisle seats near the galley"}}}
    )
    plans.save(12, {"task": "what to cook tonight", "evidence": [{"turn_id": 5, "snippet": "pasta"}]})
    plans.save(3, {"task": "its own plan"})
    (tmp_path / "plans" / "13.json").write_text("{torn", "utf-8")  # unreadable: may quote anything
    removed = plans.forget([3], ["I want aisle seats near the galley, always"])
    assert removed == 4 and plans.ids() == [12]


def test_the_ledger_log_is_rewritten_without_the_forgotten_words(tmp_path):
    from memory.ledger import PreferenceEvent, PreferenceLedger

    ledger = PreferenceLedger(tmp_path / "ledger")
    said = "the wombatique cafe does the best window seats"
    ledger.add_many(
        [
            PreferenceEvent("travel.seat", "window", "stated", DAY1, evidence=(1, 2), subject=said),
            PreferenceEvent("food.diet", "vegan", "stated", DAY1, evidence=(1,), subject="wombatique vegan"),
            PreferenceEvent("text.length", "short", "stated", DAY1, evidence=(4,), subject="keep it short"),
        ]
    )
    assert ledger.forget_turns([1], [said + " and vegan food", "wombatique vegan"]) == 1
    raw = ledger.path.read_text("utf-8")
    assert "wombatique" not in raw and '"forget"' not in raw
    kept = {e.dimension: e for e in PreferenceLedger(tmp_path / "ledger").all()}
    assert set(kept) == {"travel.seat", "text.length"}
    assert kept["travel.seat"].evidence == (2,) and kept["travel.seat"].subject == ""
    assert kept["text.length"].subject == "keep it short"


def test_the_line_history_loses_the_forgotten_lines(tmp_path):
    from prompt_toolkit.history import FileHistory

    path = tmp_path / "repl_history"
    history = FileHistory(str(path))
    for line in ["hello there", "the quokkair trip was awful", "book a table\nfor two"]:
        history.store_string(line)
    assert scrub_history(path, ["The quokkair trip  was awful", "book a table\nfor two"]) == 2
    assert list(FileHistory(str(path)).load_history_strings()) == ["hello there"]


def test_a_removed_vector_is_not_left_in_the_saved_hnsw_graph(tmp_path):
    import numpy as np

    from memory.vector import VectorIndex

    vecs = np.random.default_rng(3).random((64, 16), dtype=np.float32)
    index = VectorIndex(16, hnsw_threshold=1)
    index.add(list(range(1, 65)), vecs)
    index.build_graph()
    index.remove([7, 9])
    index.save(tmp_path / "v.usearch")
    data = (tmp_path / "v.usearch").read_bytes()
    stored = vecs.astype(np.float16)  # the file keeps float16 vectors
    assert stored[6].tobytes() not in data and stored[8].tobytes() not in data
    assert vecs[6].tobytes() not in data and vecs[8].tobytes() not in data
    assert stored[7].tobytes() in data  # a kept vector is there (the check can see vectors)
    back = VectorIndex.load(tmp_path / "v.usearch", 16)
    assert sorted(back.ids().tolist()) == [i for i in range(1, 65) if i not in (7, 9)]
    assert back.search(vecs[7], 1)[0].id == 8
