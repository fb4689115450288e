"""`ibachat memory import`: idempotent, redacted, and private files whatever the umask."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from ibachat.cli import main
from memory.paths import ensure_private_dir
from memory.staging import STAGING
from memory.store import TurnStore

ROOT = Path(__file__).resolve().parents[1]


def run(capsys, *args: str) -> tuple[int, str, str]:
    code = main(["--embedder", "hash", *args])
    out, err = capsys.readouterr()
    return code, out, err


def rows(n: int) -> list[dict]:
    return [
        {"session_id": f"s{i % 3}", "role": "user", "text": f"note {i}", "time": f"2026-03-01T10:00:{i:02d}Z"}
        for i in range(n)
    ]


def write(path: Path, items: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in items), encoding="utf-8")
    return path


def count(capsys) -> int:
    return len(json.loads(run(capsys, "memory", "show", "--json", "-n", "0")[1]))


def test_importing_twice_or_an_overlapping_file_adds_each_turn_once(tmp_path, capsys):
    src = write(tmp_path / "a.jsonl", rows(30))
    assert run(capsys, "memory", "import", str(src))[0] == 0
    code, _, err = run(capsys, "memory", "import", str(src))
    assert code == 0 and "skipped 30 already remembered" in " ".join(err.split())
    # the same instant written in another offset is the same turn; a repeated line is added once
    shifted = [{**r, "time": r["time"].replace("10:00", "12:00").replace("Z", "+02:00")} for r in rows(30)]
    more = write(tmp_path / "b.jsonl", shifted + rows(35)[30:] + rows(35)[30:])
    code, _, err = run(capsys, "memory", "import", str(more))
    assert code == 0 and "imported 5 turn(s)" in " ".join(err.split())
    assert count(capsys) == 35


def test_import_redacts_secrets_before_anything_reaches_the_disk(_ibachat_home, tmp_path, capsys):
    secret = "sk-Zq8vN3kTw9LmR2xYp4Hs7Jd"
    src = write(tmp_path / "s.jsonl", [{**rows(1)[0], "text": f"my api key is {secret} keep it"}])
    code, _, err = run(capsys, "memory", "import", str(src))
    assert code == 0 and "redacted before storing" in err
    assert run(capsys, "memory", "search", "api key", "--mode", "lexical")[0] == 0
    for path in _ibachat_home.rglob("*"):
        if path.is_file():
            assert secret.encode() not in path.read_bytes(), path
    shown = json.loads(run(capsys, "memory", "show", "--json")[1])
    assert "[REDACTED" in shown[0]["text"]


def _modes(top: Path) -> dict[str, int]:
    return {str(p.relative_to(top)): stat.S_IMODE(p.stat().st_mode) for p in top.rglob("*")}


def test_files_and_folders_are_private_under_umask_000(tmp_path):
    src = write(tmp_path / "a.jsonl", rows(5))
    fake_home = tmp_path / "user"
    fake_home.mkdir()
    env = {k: v for k, v in os.environ.items() if k not in ("IBACHAT_HOME", "IBACHAT_CONFIG")}
    env = {k: v for k, v in env.items() if not k.startswith("XDG_")}
    env.update(HOME=str(fake_home), PYTHONPATH=str(ROOT))
    proc = subprocess.run(
        [sys.executable, "-m", "ibachat.cli", "--embedder", "hash", "memory", "import", str(src)],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        preexec_fn=lambda: os.umask(0),
    )
    assert proc.returncode == 0, proc.stderr
    modes = _modes(fake_home)
    assert modes[".local"] == modes[".local/share"] == 0o700  # the parents of the default location
    data = fake_home / ".local/share/ibachat"
    assert (data / "turns").is_dir()
    for name, mode in _modes(data).items():
        assert mode == (0o700 if (data / name).is_dir() else 0o600), (name, oct(mode))


def test_ensure_private_dir_makes_missing_parents_0700_whatever_the_umask(tmp_path):
    existing = tmp_path / "shared"
    existing.mkdir()
    os.chmod(existing, 0o755)
    old = os.umask(0)
    try:
        out = ensure_private_dir(existing / "bench" / "results" / "run-1")  # as `bench --out` does
    finally:
        os.umask(old)
    for folder in (out, out.parent, out.parent.parent):
        assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    assert stat.S_IMODE(existing.stat().st_mode) == 0o755  # a folder it did not make is left alone


def test_an_import_cut_short_resumes_from_the_embeddings_it_had_made(_ibachat_home, tmp_path, capsys):
    from memory.memory import Memory

    items = rows(40)
    with Memory.open(embedder="hash") as mem:  # what a killed import had embedded before dying
        mem.cache.embed_with(mem.embedder, [r["text"] for r in items[:25]])
        assert len(mem) == 0
    code, _, err = run(capsys, "memory", "import", str(write(tmp_path / "a.jsonl", items)))
    assert code == 0 and "resumed: 25 turn(s) were already embedded" in err
    assert count(capsys) == 40


def test_an_error_while_staging_rolls_the_whole_import_back(tmp_path):
    store = TurnStore(tmp_path / "turns", max_turns=10)
    store.add(rows(5))
    before = sorted(p.name for p in (tmp_path / "turns").iterdir())

    def cut_short():  # a stream whose 21st record never comes (a kill, a bad line further on)
        for n, rec in enumerate(rows(45)):
            if n == 20:
                raise KeyboardInterrupt
            yield rec

    def stop(batch):  # or the embedding of the third segment fails
        if batch[0]["id"] > 20:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        store.add_atomic(cut_short())
    with pytest.raises(KeyboardInterrupt):
        store.add_atomic(rows(45), on_segment=stop)
    assert sorted(p.name for p in (tmp_path / "turns").iterdir()) == before
    assert not (tmp_path / "turns" / STAGING).exists()
    again = TurnStore(tmp_path / "turns", max_turns=10)
    assert len(again) == 5
    assert len(again.add_atomic(rows(45))) == 45 and len(again) == 50
    assert len(TurnStore(tmp_path / "turns", readonly=True)) == 50
