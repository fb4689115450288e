"""The README's headline, `make demo`: "Order dinner from the usual Thai place" on the demo history.

The history (``scripts/demo_history.py``) never calls any place Thai; the user loves hot, crunchy food,
once said mild food is too mild, had a tooth pulled two days ago ("soft food only, nothing spicy"), and
asked for shorter notes. The order must go to the one past place that is Thai by meaning, with no spice
and soft food while the tooth heals, and nothing from the wish for short notes; the usual dishes there
(crunchy, spicy) predate the tooth, so it asks which dishes instead of ordering them.
"""

from __future__ import annotations

import json
import subprocess
import sys
from datetime import datetime
from pathlib import Path

import pytest

from ibachat.agent.execution.tools import as_task_tool, get_tool
from ibachat.agent.ingest import ingest
from ibachat.agent.planner import Planner
from memory.memory import Memory

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def demo(tmp_path_factory):
    out = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "demo_history.py")],
        capture_output=True,
        text=True,
        check=True,
    )
    records = [json.loads(line) for line in out.stdout.splitlines() if line.strip()]
    memory = Memory.open(tmp_path_factory.mktemp("demo"), embedder="minilm", fsync=False)
    ingest(memory, records)
    now = max(datetime.fromisoformat(r["time"]) for r in records)
    yield memory, now
    memory.close()


def test_the_usual_thai_place(demo):
    memory, now = demo
    planner = Planner(memory, None)
    tools = [as_task_tool(get_tool("order_food"))]
    first = planner.act("Order dinner from the usual Thai place", now=now, tools=tools)
    # the usual dishes (prawn crackers, pad kra pao) were had before the tooth came out: one question,
    # naming them and what was said since, and no crunchy or spicy dish ordered
    assert first.question and first.pending is not None and first.pending.param == "items", first.question
    assert "prawn crackers" in first.question and "wisdom tooth" in first.question
    assert first.plan.params["items"].chosen is None
    out = planner.act("khao tom and mango pudding please", now=now, tools=tools, pending=first.pending)
    assert out.tool_call is not None, out.plan.clarifications
    args, params = out.tool_call.arguments, out.plan.params
    assert args["items"] == ["khao tom", "mango pudding"]  # the answer, and nothing from the old order
    assert args["restaurant"] == "Bangkok Garden", params["restaurant"]
    assert "Bangkok Garden" in params["restaurant"].reason and not out.plan.clarifications
    assert args["spice_level"] == "none", params["spice_level"]  # the tooth beats "too mild" while it lasts
    assert params["spice_level"].source == "state"
    assert args["texture"] == "soft"
    assert args.get("portion") != "small" and "length" not in params["portion"].reason, params["portion"]
