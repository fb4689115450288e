"""A request for one of the user's people alone takes that person's own taste on what they have said
theirs of, not the user's (session 30: "book a flight for my wife" had used the user's own aisle over
the wife's window, and "Priya from accounts only drinks oat milk" was read as nobody's in particular
because a capital first in a sentence says nothing of a name). History and tools of the catalogue, in
words written for this test; the checks for the other person failed before this change, the others
guard the user's own requests."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from ibachat.agent.ingest import ingest
from ibachat.agent.meaning import catalogue
from ibachat.agent.planner import Planner
from ibachat.agent.reading.about import only_for, scope_of
from memory.memory import Memory

NOW = datetime(2026, 12, 1, 10, 0, tzinfo=timezone.utc)
SAID = [
    ("my husband always has to have a window seat on trains, he gets travel sick otherwise", "Noted."),
    ("I'm an aisle girl myself, I'm up and down all journey", "Got it."),
    ("Tomasz from the design team only drinks soya milk", "Good to know."),
    ("semi skimmed for me, always", "Sure."),
]


@pytest.fixture(scope="module")
def planner(tmp_path_factory):
    rows = []
    for k, (user, reply) in enumerate(SAID):
        t = NOW - timedelta(days=20 - k)
        rows.append({"session_id": f"s{k}", "role": "user", "time": t.isoformat(), "text": user})
        rows.append({"session_id": f"s{k}", "role": "assistant", "time": t.isoformat(), "text": reply})
    memory = Memory.open(tmp_path_factory.mktemp("home"), embedder="minilm", fsync=False)
    ingest(memory, rows)
    return Planner(memory, None)


@pytest.mark.parametrize(
    ("ask", "param", "value"),
    [
        ("book a train to Glasgow on Friday at 9am for my husband", "seat", "window"),
        ("book me a train to Glasgow on Friday at 9am", "seat", "aisle"),
        ("order a flat white for Tomasz from Kiln Coffee", "milk", "soy"),
        ("order me a flat white from Kiln Coffee", "milk", "semi_skimmed"),
    ],
)
def test_whose_taste_a_request_takes(planner, ask, param, value):
    out = planner.act(ask, now=NOW, tools=catalogue())
    assert out.plan.params[param].chosen == value, (out.plan.params[param], out.question)


def test_a_request_that_includes_the_user_is_not_for_them_alone():
    assert only_for("for:husband", "a train for my husband")
    assert not only_for("for:husband", "a train for me and my husband")
    assert not only_for("for:husband", "we need a train, my husband and I")
    assert scope_of("my daughter Ada won't touch mushrooms") == "for:Ada|daughter"
    assert only_for("for:Ada|daughter", "order a pizza for my daughter")
