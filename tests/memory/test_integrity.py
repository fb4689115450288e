"""Damage to a home is detected on open, reported by `memory stats` and `doctor`, and repaired or salvaged."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ibachat.cli import main

N = 1200  # three segments: 512 + 512 + 176


def run(capsys, *args: str) -> tuple[int, str, str]:
    code = main(["--embedder", "hash", *args])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def home(_ibachat_home, tmp_path, capsys) -> Path:
    src = tmp_path / "turns.jsonl"
    with open(src, "w", encoding="utf-8") as f:
        for i in range(N):
            row = {
                "session_id": f"s{i // 40}",
                "role": "user",
                "text": f"entry {i} mentions the word kiwi{i % 50}",
                "time": f"2026-02-{1 + i // 100:02d}T09:{(i // 60) % 60:02d}:{i % 60:02d}Z",
            }
            f.write(json.dumps(row) + "\n")
    assert run(capsys, "memory", "import", str(src))[0] == 0
    assert sorted(p.name for p in (_ibachat_home / "turns").glob("seg-*")) == [
        "seg-000000.json",
        "seg-000001.json",
        "seg-000002.json",
    ]
    return _ibachat_home


def stats(capsys) -> dict:
    code, out, _ = run(capsys, "memory", "stats", "--json")
    return json.loads(out)


def doctor_row(capsys) -> dict:
    _, out, _ = run(capsys, "doctor", "--json")
    return next(r for r in json.loads(out) if r["check"] == "memory integrity")


def search_ids(capsys, query: str, mode: str) -> tuple[list[int], str]:
    code, out, err = run(capsys, "memory", "search", query, "--mode", mode, "-k", "5", "--json")
    assert code == 0, err
    return [h["id"] for h in json.loads(out)], err


def flip(path: Path, at: int, count: int = 16) -> None:
    data = bytearray(path.read_bytes())
    for i in range(at, at + count):
        data[i] ^= 0x5A
    path.write_bytes(bytes(data))


def test_flipped_bytes_in_the_vector_index_are_detected_and_rebuilt(home, capsys):
    before, _ = search_ids(capsys, "entry 77 kiwi27", "dense")
    assert before
    vec = next((home / "index").glob("vectors-*"))
    flip(vec, vec.stat().st_size // 2)
    info = stats(capsys)
    assert info["index"]["in_sync"] is False
    assert any("fails its checksum" in d for d in info["index"]["damage"])
    assert "checksum" in doctor_row(capsys)["detail"]
    after, err = search_ids(capsys, "entry 77 kiwi27", "dense")
    assert after == before and "rebuilt from the turn store" in err
    assert stats(capsys)["damage"] == [] and stats(capsys)["index"]["in_sync"]


def test_a_deleted_lexical_index_is_detected_and_rebuilt(home, capsys):
    before, _ = search_ids(capsys, "kiwi13", "lexical")
    assert len(before) == 5
    (home / "index" / "lexical.bin").unlink()
    info = stats(capsys)
    assert info["index"]["damage"] == ["lexical.bin is missing"] and not info["index"]["in_sync"]
    after, err = search_ids(capsys, "kiwi13", "lexical")
    assert after == before and "lexical.bin is missing: rebuilt" in err
    assert (home / "index" / "lexical.bin").exists() and stats(capsys)["index"]["in_sync"]


def test_a_deleted_segment_is_reported_and_repair_says_what_was_lost(home, capsys):
    (home / "turns" / "seg-000001.json").unlink()
    code, _, err = run(capsys, "memory", "search", "kiwi3")
    assert code == 1 and len(err.strip().splitlines()) == 1
    assert "seg-000001.json is missing" in err and "memory repair" in err
    info = stats(capsys)
    assert info["damage"] == ["segment seg-000001.json is missing"] and info["turns"] == N - 512
    row = doctor_row(capsys)
    assert not row["ok"] and "memory repair" in row["detail"]
    code, _, err = run(capsys, "memory", "repair")
    assert code == 0
    assert "seg-000001.json: missing; 512 turn(s) lost (ids 513-1024)" in " ".join(err.split())
    assert stats(capsys)["damage"] == [] and doctor_row(capsys)["ok"]
    ids, _ = search_ids(capsys, "kiwi3", "lexical")
    assert ids and all(not 513 <= i <= 1024 for i in ids)
    # the lost ids are never handed out again
    assert run(capsys, "memory", "repair")[2].strip().startswith("nothing to repair")
    new = home.parent / "one.jsonl"
    new.write_text(
        json.dumps({"session_id": "n", "role": "user", "text": "new", "time": "2026-05-01T00:00:00Z"})
    )
    assert run(capsys, "memory", "import", str(new))[0] == 0
    code, out, _ = run(capsys, "memory", "show", "--json", "-n", "1")
    assert json.loads(out)[0]["id"] == N + 1


def test_a_truncated_segment_is_salvaged_and_the_others_kept(home, capsys):
    seg = home / "turns" / "seg-000000.json"
    data = seg.read_bytes()
    seg.write_bytes(data[: len(data) // 3])
    code, _, err = run(capsys, "memory", "show", "-n", "1")
    assert code == 0 and "seg-000000.json is truncated" in err  # reads still work, with a warning
    assert "seg-000000.json is truncated" in stats(capsys)["damage"][0]
    assert run(capsys, "memory", "search", "kiwi1")[0] == 1
    code, _, err = run(capsys, "memory", "repair")
    line = " ".join(err.split())
    assert code == 0 and "seg-000000.json: truncated; salvaged" in line
    salvaged = int(line.split("salvaged ")[1].split(" ")[0])
    assert 100 < salvaged < 512
    assert f"{512 - salvaged} of 512 turn(s) lost" in line
    assert (home / "turns" / "damaged" / "seg-000000.json").read_bytes() == data[: len(data) // 3]
    info = stats(capsys)
    assert info["damage"] == [] and info["turns"] == N - 512 + salvaged
    ids, _ = search_ids(capsys, "kiwi7", "lexical")
    assert ids


def test_a_changed_byte_inside_a_segment_fails_its_checksum(home, capsys):
    seg = home / "turns" / "seg-000001.json"
    text = seg.read_bytes()
    at = text.index(b"entry 600 ")
    seg.write_bytes(text[:at] + b"ENTRY" + text[at + 5 :])  # same size, still valid JSON
    assert stats(capsys)["damage"] == ["segment seg-000001.json: fails its checksum"]
    assert run(capsys, "memory", "repair")[0] == 0
    assert stats(capsys)["damage"] == []


def snapshot(home: Path) -> dict[str, bytes]:
    return {str(p.relative_to(home)): p.read_bytes() for p in sorted(home.rglob("*")) if p.is_file()}


def test_an_integer_time_inside_a_segment_is_one_line_and_changes_nothing(home, capsys):
    seg = home / "turns" / "seg-000002.json"
    tables = json.loads(seg.read_text("utf-8"))
    tables["turns"]["1100"]["time"] = 1767225600
    seg.write_text(json.dumps(tables), encoding="utf-8")
    before = snapshot(home)
    for args in (("memory", "search", "kiwi"), ("memory", "forget", "5"), ("memory", "never", "7")):
        code, _, err = run(capsys, *args)
        assert code == 1 and len(err.strip().splitlines()) == 1, (args, err)
        assert "turn 1100 has time 1767225600" in err and "Traceback" not in err
        assert snapshot(home) == before
    code, _, err = run(capsys, "memory", "repair")
    assert code == 0 and "1 of 176 turn(s) lost" in " ".join(err.split())
    assert stats(capsys)["turns"] == N - 1


def test_a_segment_read_as_written_skips_the_record_checks_and_any_other_bytes_get_them(home, monkeypatch):
    import memory.segments as segments

    checked: list[str] = []
    real = segments.check_record
    monkeypatch.setattr(segments, "check_record", lambda key, rec: checked.append(key) or real(key, rec))
    seg = home / "turns" / "seg-000001.json"
    assert segments.Segment(seg).count() == 512 and checked == []  # its checksum vouches for every record
    tables = json.loads(seg.read_text("utf-8"))
    seg.write_text(json.dumps(tables, indent=1), encoding="utf-8")  # the same tables in other bytes
    assert segments.Segment(seg).count() == 512 and len(checked) == 512
    tables["turns"]["600"]["role"] = "narrator"
    seg.write_text(json.dumps(tables), encoding="utf-8")
    with pytest.raises(segments.CorruptFile, match="turn 600 has role 'narrator'"):
        segments.Segment(seg).count()
