"""Bad input gets one clear line on stderr, a non-zero exit, and leaves the store as it was."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from ibachat.cli import main

ROOT = Path(__file__).resolve().parents[1]
GOOD = {"session_id": "a", "role": "user", "text": "I like quiet trains", "time": "2026-01-02T18:00:00Z"}


def run(capsys, *args: str) -> tuple[int, str, str]:
    code = main(["--embedder", "hash", *args])
    out, err = capsys.readouterr()
    return code, out, err


def snapshot(home: Path) -> dict[str, bytes]:
    return {str(p.relative_to(home)): p.read_bytes() for p in sorted(home.rglob("*")) if p.is_file()}


@pytest.fixture
def home(_ibachat_home, tmp_path, capsys) -> Path:
    seed = tmp_path / "seed.jsonl"
    seed.write_text(json.dumps(GOOD) + "\n", encoding="utf-8")
    assert run(capsys, "memory", "import", str(seed))[0] == 0
    return _ibachat_home


def assert_refused(code: int, err: str, home: Path, before: dict[str, bytes], *words: str) -> None:
    assert code != 0
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert "Traceback" not in err
    for word in words:
        assert word in lines[0], lines[0]
    assert snapshot(home) == before


BAD_LINES = {
    "numeric time": ({**GOOD, "time": 1767376800}, ["time 1767376800", "ISO-8601"]),
    "integer flags": ({**GOOD, "flags": 3}, ["flags must be a list of strings"]),
    "null session": ({**GOOD, "session_id": None}, ["session_id", "null"]),
    "object session": ({**GOOD, "session_id": {"id": 1}}, ["session_id", "an object"]),
    "list of ints as flags": ({**GOOD, "flags": [1, 2]}, ["flags must be a list of strings"]),
    "numeric time in a history": (
        {"history": [{"session_id": "h", "time": 5, "turns": [{"role": "user", "text": "x"}]}]},
        ["history[0].time 5"],
    ),
    "turns not a list in a history": (
        {"history": [{"session_id": "h", "time": "2026-01-01T00:00:00Z", "turns": 7}]},
        ["turns must be a list"],
    ),
}


@pytest.mark.parametrize("case", sorted(BAD_LINES))
def test_bad_import_line_is_refused_whole(case, home, tmp_path, capsys):
    bad, words = BAD_LINES[case]
    src = tmp_path / "bad.jsonl"
    rows = [{**GOOD, "text": f"fine line {i}"} for i in range(20)] + [bad]
    src.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    before = snapshot(home)
    code, _, err = run(capsys, "memory", "import", str(src))
    assert_refused(code, err, home, before, "bad.jsonl:21", "nothing was imported", *words)


def test_lone_surrogate_after_the_first_batch_imports_nothing(home, tmp_path, capsys):
    src = tmp_path / "surrogate.jsonl"
    lines = [json.dumps({**GOOD, "text": f"turn {i}"}) for i in range(699)]
    lines.append('{"session_id": "a", "role": "user", "text": "bad \\udcff", "time": "2026-01-02T18:00:00Z"}')
    src.write_text("\n".join(lines) + "\n", encoding="utf-8")
    before = snapshot(home)
    code, _, err = run(capsys, "memory", "import", str(src))
    assert_refused(code, err, home, before, "surrogate.jsonl:700", "lone surrogate")


def test_deeply_nested_import_line_is_refused(home, tmp_path, capsys):
    src = tmp_path / "deep.jsonl"
    src.write_text('{"session_id": "a", "role": "user", "text": ' + "[" * 100_000 + "]" * 100_000 + "}\n")
    before = snapshot(home)
    code, _, err = run(capsys, "memory", "import", str(src))
    assert_refused(code, err, home, before, "deep.jsonl:1", "nested too deeply")


def test_deeply_nested_bench_suite_is_refused(home, tmp_path, capsys):
    src = tmp_path / "suite.jsonl"
    src.write_text('{"id": "t1", "history": ' + "[" * 100_000 + "]" * 100_000 + "}\n")
    before = snapshot(home)
    code, _, err = run(capsys, "bench", "validate", str(src))
    assert_refused(code, err, home, before, "line 1", "nested too deeply")


def test_flags_as_one_string_are_read_as_one_flag(home, tmp_path, capsys):
    src = tmp_path / "flag.jsonl"
    src.write_text(json.dumps({**GOOD, "text": "never use me", "flags": "never_use"}) + "\n")
    assert run(capsys, "memory", "import", str(src))[0] == 0
    code, out, _ = run(capsys, "memory", "show", "--json")
    turns = {t["text"]: t for t in json.loads(out)}
    assert turns["never use me"]["flags"] == ["never_use"]
    code, out, _ = run(capsys, "memory", "search", "never use me", "--mode", "lexical", "--json")
    assert "never use me" not in {h["text"] for h in json.loads(out)}  # a never-used turn is not indexed


def test_non_utf8_bytes_in_ask_argument_are_one_line(home):
    before = snapshot(home)
    env = {**os.environ, "PYTHONPATH": str(ROOT), "IBACHAT_HOME": str(home)}
    proc = subprocess.run(
        [sys.executable, "-m", "ibachat.cli", "--embedder", "hash", "ask", b"book a \xff\xfe train"],
        capture_output=True,
        env=env,
        timeout=120,
    )
    err = proc.stderr.decode("utf-8", "replace")
    assert_refused(proc.returncode, err, home, before, "argument 4 is not valid UTF-8", "byte 0xff")
