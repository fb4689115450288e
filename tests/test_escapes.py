"""No terminal escape from memory, a model or the user reaches the screen raw, through any command.

Stored text (a user turn, an imported tool turn and its arguments, a session id) and the task
itself carry OSC 8 hyperlinks, an OSC 0 window title, CSI screen clears, C1 controls and DCS;
every command that prints them (plans, cards, tables, JSON, errors) shows them as text.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from ibachat.cli import main

ESC = "\x1b"
NASTY = (
    f"{ESC}]8;;file:///etc/passwd{ESC}\\click me{ESC}]8;;{ESC}\\ {ESC}]0;pwned-title\x07 "
    f"{ESC}[2J{ESC}[H \x9b31m c1-csi \x9d0;c1-osc\x9c {ESC}P+q{ESC}\\ \x85 \x7f"
)
RAW = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")  # any control but tab and newline


def run(capsys, *args: str) -> tuple[int, str, str]:
    code = main(["--embedder", "hash", *args])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def nasty_home(_ibachat_home, tmp_path, capsys) -> Path:
    rows = [
        {"session_id": "trip", "role": "user", "text": f"I love quiet window seats on trains {NASTY}"},
        {
            "session_id": "trip",
            "role": "tool",
            "text": f"booked the train {NASTY}",
            "tool_call": {"name": "book_train", "arguments": {"seat": f"window {NASTY}", "note": NASTY}},
        },
        {"session_id": f"odd{NASTY}", "role": "user", "text": f"I never want aisle seats {NASTY}"},
    ]
    src = tmp_path / "nasty.jsonl"
    src.write_text(
        "".join(json.dumps({**r, "time": f"2026-03-0{i + 1}T10:00:00Z"}) + "\n" for i, r in enumerate(rows)),
        "utf-8",
    )
    assert run(capsys, "memory", "import", str(src))[0] == 0
    return _ibachat_home


COMMANDS = [
    ["ask", "--model", "none", "--show-plan", f"Which seat on the train? {NASTY}"],
    ["ask", "--model", "none", f"Book a train seat to Berlin tomorrow {NASTY}"],
    ["ask", "--model", "none", "--json", f"trains {NASTY}"],
    ["memory", "show"],
    ["memory", "show", "--full"],
    ["memory", "show", "--json"],
    ["memory", "search", "trains"],
    ["memory", "search", "trains", "--json"],
    ["memory", "prefs", "--all"],
    ["memory", "prefs", "--all", "--json"],
    ["memory", "export"],
    ["memory", "stats"],
    ["memory", "forget", "--session", f"nope{NASTY}", "--yes"],  # an error quoting nothing raw
    ["chat", "--session", f"nope{NASTY}", "--plain"],  # an error naming the session
    ["memory", "import", f"/no/such/{NASTY}.jsonl"],  # a usage error naming the file
    ["doctor"],
]


@pytest.mark.parametrize("args", COMMANDS, ids=lambda a: " ".join(x for x in a if ESC not in x)[:40])
def test_no_control_character_reaches_the_output_raw(nasty_home, capsys, args):
    code, out, err = run(capsys, *args)
    assert code in (0, 1, 2), (args, err)
    assert not RAW.findall(out), (args, out[:2000])
    assert not RAW.findall(err), (args, err[:2000])


def test_the_plan_and_json_still_say_what_was_stored(nasty_home, capsys):
    code, out, _ = run(capsys, "ask", "--model", "none", "--show-plan", f"Which seat on the train? {NASTY}")
    assert code == 0 and "\\x1b]0;pwned-title" in out  # shown, as text
    code, out, _ = run(capsys, "memory", "show", "--json", "-n", "0")
    texts = [t["text"] for t in json.loads(out)]
    assert any(NASTY in t for t in texts)  # JSON escapes them and still round-trips them exactly
