"""`ibachat memory ...` through the real CLI entry point: output, round trips and bad input."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from ibachat.cli import main


def run(capsys, *args: str) -> tuple[int, str, str]:
    code = main(["--embedder", "hash", *args])
    out, err = capsys.readouterr()
    return code, out, err


def write_jsonl(path: Path, rows: list) -> Path:
    path.write_text(
        "".join((r if isinstance(r, str) else json.dumps(r)) + "\n" for r in rows), encoding="utf-8"
    )
    return path


ROWS = [
    {
        "session_id": "a",
        "role": "user",
        "text": "I love the spicy ramen at Kenji's",
        "time": "2026-01-02T18:00:00+01:00",
    },
    {"session_id": "a", "role": "assistant", "text": "Noted!", "time": "2026-01-02T18:00:05+01:00"},
    {
        "session_id": "b",
        "role": "tool",
        "text": "ordered",
        "time": "2026-02-01T12:00:00Z",
        "tool_call": {"name": "order_food", "arguments": {"dish": "ramen", "spice_level": "hot"}},
    },
]


def test_import_export_round_trips_exactly(tmp_path, capsys):
    src = write_jsonl(tmp_path / "in.jsonl", ROWS)
    assert run(capsys, "memory", "import", str(src))[0] == 0
    code, out, _ = run(capsys, "memory", "export")
    assert code == 0
    first = out
    # into a second home, and out again: byte for byte the same
    os.environ["IBACHAT_HOME"] = str(tmp_path / "second")
    write_jsonl(tmp_path / "again.jsonl", [json.loads(line) for line in first.splitlines()])
    assert run(capsys, "memory", "import", str(tmp_path / "again.jsonl"))[0] == 0
    assert run(capsys, "memory", "export")[1] == first
    exported = [json.loads(line) for line in first.splitlines()]
    assert exported[2]["tool_call"]["arguments"]["spice_level"] == "hot"
    assert exported[0]["time"] == "2026-01-02T18:00:00+01:00"


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (
            b'{"session_id":"a","role":"user","text":"ok","time":"2026-01-01T00:00:00Z"}\n{"session_id": "a", "role": "us',
            ":3: not valid JSON",
        ),
        (
            b'{"session_id":"a","role":"user","text":"caf\xe9","time":"2026-01-01T00:00:00Z"}\n',
            ":2: not valid UTF-8",
        ),
        (
            b'{"session_id":"a","role":"robot","text":"x","time":"2026-01-01T00:00:00Z"}\n',
            ":2: role must be one of",
        ),
        (b'{"session_id":"a","role":"user","text":"x"}\n', ":2: missing field: time"),
        (b"[1, 2]\n", ":2: expected a JSON object"),
    ],
)
def test_bad_import_files_are_refused_whole_with_the_line(tmp_path, capsys, content, message):
    good = write_jsonl(tmp_path / "good.jsonl", ROWS[:1])
    run(capsys, "memory", "import", str(good))
    bad = tmp_path / "bad.jsonl"
    bad.write_bytes(
        b'{"session_id":"z","role":"user","text":"first good line","time":"2026-01-01T00:00:00Z"}\n' + content
    )
    code, out, err = run(capsys, "memory", "import", str(bad))
    assert code == 1
    assert message in err and "nothing was imported" in err
    assert len(err.strip().splitlines()) == 1  # one line, no traceback
    code, out, _ = run(capsys, "memory", "show", "--json", "-n", "0")
    assert [t["session_id"] for t in json.loads(out)] == ["a"]  # no half import


def test_markup_ansi_and_a_5mb_message_are_stored_faithfully_and_shown_literally(tmp_path, capsys):
    weird = "[bold]not bold[/] [link=https://evil.example]click[/link] \x1b[31mred\x1b[0m [/]"
    huge = "word " * 1_000_000
    rows = [
        {"session_id": "m", "role": "user", "text": weird, "time": "2026-03-01T10:00:00Z"},
        {"session_id": "m", "role": "user", "text": huge, "time": "2026-03-01T10:01:00Z"},
    ]
    assert run(capsys, "memory", "import", str(write_jsonl(tmp_path / "w.jsonl", rows)))[0] == 0
    code, out, _ = run(capsys, "memory", "show", "--session", "m")
    assert code == 0
    assert "[bold]not bold[/]" in out and "[link=https://evil.example]click[/link]" in out
    assert "\x1b" not in out and "\\x1b[31mred" in out
    assert len(out) < 10_000  # one line per turn, a 5 MB text is cut for display
    code, out, _ = run(capsys, "memory", "show", "--json", "--session", "m")
    texts = {t["text"] for t in json.loads(out)}
    assert weird in texts and huge in texts  # --json is faithful and parseable


def test_show_filters_newest_first_and_json(tmp_path, capsys):
    run(capsys, "memory", "import", str(write_jsonl(tmp_path / "in.jsonl", ROWS)))
    code, out, _ = run(capsys, "memory", "show", "--json")
    rows = json.loads(out)
    assert [r["role"] for r in rows] == ["tool", "assistant", "user"]
    code, out, _ = run(capsys, "memory", "show", "--json", "--role", "user", "--since", "2026-01-01")
    assert [r["text"] for r in json.loads(out)] == [ROWS[0]["text"]]
    code, _, err = run(capsys, "memory", "show", "--since", "last tuesday")
    assert code == 2 and "ISO-8601" in err


def test_forget_asks_before_many_and_really_forgets(tmp_path, capsys):
    rows = [
        {
            "session_id": "f",
            "role": "user",
            "text": f"note {i} about zanzibar",
            "time": f"2026-01-0{i + 1}T00:00:00Z",
        }
        for i in range(6)
    ]
    run(capsys, "memory", "import", str(write_jsonl(tmp_path / "f.jsonl", rows)))
    code, _, err = run(capsys, "memory", "forget", "--session", "f")
    assert code == 2 and "--yes" in err  # stdin is not a terminal in tests: refuse, do not guess
    code, _, err = run(capsys, "memory", "forget", "--session", "f", "--yes")
    assert code == 0 and "forgot 6" in err
    code, out, _ = run(capsys, "memory", "search", "zanzibar", "--json")
    assert json.loads(out) == []


def test_search_stats_reindex_and_prefs(tmp_path, capsys):
    run(capsys, "memory", "import", str(write_jsonl(tmp_path / "in.jsonl", ROWS)))
    code, out, _ = run(capsys, "memory", "search", "Kenji ramen", "--json")
    hits = json.loads(out)
    assert code == 0 and hits[0]["text"] == ROWS[0]["text"] and "lexical" in hits[0]["why"]
    code, out, _ = run(capsys, "memory", "stats", "--json")
    info = json.loads(out)
    assert info["turns"] == 3 and info["sessions"] == 2 and info["by_role"]["tool"] == 1
    assert run(capsys, "memory", "reindex")[0] == 0
    code, out, _ = run(capsys, "memory", "prefs", "--json")
    assert code == 0 and "events" in json.loads(out)


def test_a_second_writer_gets_one_clear_line(tmp_path, capsys):
    from memory.memory import Memory

    holder = Memory.open(embedder="hash")
    try:
        code, _, err = run(capsys, "memory", "import", str(write_jsonl(tmp_path / "in.jsonl", ROWS)))
        assert code == 1 and "another ibachat process" in err
        assert run(capsys, "memory", "show")[0] == 0  # readers still welcome
    finally:
        holder.close()


def test_version_help_and_unknown_config_key(tmp_path, capsys):
    exe = Path(sys.executable).with_name("ibachat")
    out = subprocess.run([str(exe), "--version"], capture_output=True, text=True, check=True).stdout
    assert out.startswith("ibachat, version ")
    Path(os.environ["IBACHAT_CONFIG"]).write_text('modle = "embedded"\n')
    code, _, err = run(capsys, "config", "show")
    assert code == 1 and "unknown key 'modle'" in err
