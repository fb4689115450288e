"""The everyday commands stay light (issue 21): no torch, transformers, FlagEmbedding or textual.

Each command runs in a fresh process on a home with real MiniLM vectors (the offline default),
and reports at exit which heavy packages it had imported.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
HEAVY = ("torch", "transformers", "FlagEmbedding", "textual")
PROBE = (
    "import atexit, json, sys\n"
    f"heavy = {HEAVY!r}\n"
    "atexit.register(lambda: sys.stderr.write('\\nMODULES ' + json.dumps(sorted(m for m in heavy if m in sys.modules)) + '\\n'))\n"
    "from ibachat.cli import main\n"
    "sys.exit(main())\n"
)


def _cli(home: Path, *args: str) -> tuple[str, list[str]]:
    env = dict(os.environ, IBACHAT_HOME=str(home), IBACHAT_CONFIG=str(home / "config.toml"))
    env["PYTHONPATH"] = str(REPO) + os.pathsep + env.get("PYTHONPATH", "")
    env.pop("IBACHAT_SERVER", None)
    out = subprocess.run(
        [sys.executable, "-c", PROBE, *args], capture_output=True, text=True, env=env, cwd=REPO, timeout=300
    )
    assert out.returncode == 0, out.stderr[-2000:]
    line = [ln for ln in out.stderr.splitlines() if ln.startswith("MODULES ")][-1]
    return out.stdout, json.loads(line.removeprefix("MODULES "))


@pytest.fixture(scope="module")
def home(tmp_path_factory) -> Path:
    home = tmp_path_factory.mktemp("cold-home")
    records = [
        {"session_id": "s1", "role": "user", "text": "I grow tomatoes and love gardening on weekends.",
         "time": "2025-05-01T10:00:00+00:00"},
        {"session_id": "s1", "role": "assistant", "text": "Tomatoes like a sunny spot.",
         "time": "2025-05-01T10:00:05+00:00"},
        {"session_id": "s2", "role": "user", "text": "Book me a window seat on the train to Leeds.",
         "time": "2025-05-02T09:00:00+00:00"},
    ]  # fmt: skip
    path = home / "in.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    _cli(home, "memory", "import", str(path))
    return home


@pytest.mark.parametrize(
    "args",
    [
        ("memory", "search", "gardening", "--json"),
        ("memory", "show"),
        ("ask", "--model", "none", "Book a table for two on Friday at 7pm"),
        ("ask", "--model", "none", "Any tips for growing tomatoes?"),
    ],
    ids=["memory-search", "memory-show", "ask-none-tool", "ask-none-text"],
)
def test_everyday_commands_import_no_torch_stack(home, args):
    out, heavy = _cli(home, *args)
    assert heavy == [], f"{' '.join(args)} imported {heavy}"
    assert out.strip(), "the command printed nothing"
    if args[1] == "search":  # a real MiniLM search finds the gardening turn first
        assert "tomatoes" in json.loads(out)[0]["text"]


def test_warming_the_planner_loads_what_first_requests_paid_for_and_freezes_it():
    """``planner.warm`` (chat, the TUI, the server, the planner bench): the units library, dateparser
    and the valence lexicon are loaded, and what is loaded is out of the collector's full passes."""
    code = (
        "import gc, json, sys\n"
        "from ibachat.agent import planner\n"
        "before = {m: m in sys.modules for m in ('pint', 'dateparser', 'vaderSentiment')}\n"
        "times = planner.warm()\n"
        "after = {m: m in sys.modules for m in ('pint', 'dateparser', 'vaderSentiment')}\n"
        "print(json.dumps([before, after, sorted(times), gc.get_freeze_count()]))\n"
    )
    env = dict(os.environ, PYTHONPATH=str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=300)
    assert done.returncode == 0, done.stderr[-800:]
    before, after, parts, frozen = json.loads(done.stdout.strip().splitlines()[-1])
    assert not any(before.values()) and all(after.values())
    assert parts == ["collect", "dates", "parser", "units", "valence"]
    assert frozen > 100_000
