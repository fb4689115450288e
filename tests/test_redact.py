"""Redaction over a catalogue of secret shapes: in chat, in an import and in a pasted block,
the raw secret reaches no file under the home. Every rule of the catalogue is exercised, and
ordinary sentences are left alone.
"""

from __future__ import annotations

import json
import subprocess
from datetime import datetime, timezone
from pathlib import Path

import pytest

from ibachat.assistant import Assistant
from ibachat.cli import main
from ibachat.llm.scripted import ScriptedLLM
from ibachat.redact import CATALOGUE, redact, redact_value
from memory.memory import Memory

NOW = datetime(2026, 11, 30, 12, tzinfo=timezone.utc)
GOOGLE = "AIza" + "Sy" + "Qx7Lm2Nb4Vc6Zk8Jh1Gf3Ds5Aq9Wr0Ety"  # 35 after the prefix
PEM_BODY = "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZWQy"

# (what is said, the raw secret that must not reach the disk)
CASES: list[tuple[str, str]] = [
    ("my stripe key is sk_live_51HqLyjWDarjtT1zdp7dcQx", "sk_live_51HqLyjWDarjtT1zdp7dcQx"),
    (
        "aws_secret_access_key=wJalrXUtnFEMI/K7MDENG/bPxRfiCYzz9QkRtm2X",
        "wJalrXUtnFEMI/K7MDENG/bPxRfiCYzz9QkRtm2X",
    ),
    ("the access key id is AKIAZ7QWERTYUIOP1234", "AKIAZ7QWERTYUIOP1234"),
    (
        "use github_pat_11AB3DEFG0123456789_abcdefghijklmnopqrstuvwxyzAB for the CI",
        "github_pat_11AB3DEFG0123456789_abcdefghijklmnopqrstuvwxyzAB",
    ),
    ("old token ghp_aB3dE5fG7hI9jK1lM3nO5pQ7rS9tU1vW3xY5", "ghp_aB3dE5fG7hI9jK1lM3nO5pQ7rS9tU1vW3xY5"),
    ("my pass is Tulpe77x", "Tulpe77x"),
    ("my passphrase is velvet otter moon parade", "velvet otter moon parade"),
    ("the wifi password for home is SunnyDays2024", "SunnyDays2024"),
    ("Mein Passwort für das Konto ist Sommer2024x", "Sommer2024x"),
    ("mon mot de passe est Chaton42z", "Chaton42z"),
    ("curl -H 'Authorization: Bearer abcDEF123456ghiJKL789mno'", "abcDEF123456ghiJKL789mno"),
    ("send it with Bearer zz9Y8x7W6v5U4t3S2r1Q", "zz9Y8x7W6v5U4t3S2r1Q"),
    ("Authorization: Basic dXNlcjpwYXNzd29yZDEyMw==", "dXNlcjpwYXNzd29yZDEyMw=="),
    ("the db is postgres://admin:s3cretPW9@db.internal:5432/app", "s3cretPW9"),
    ("callback https://example.com/cb?access_token=9f8e7d6c5b4a3f2e1d0c&x=1", "9f8e7d6c5b4a3f2e1d0c"),
    ("pay the rent to DE89 3704 0044 0532 0130 00 please", "DE89 3704 0044 0532 0130 00"),
    ("the cvv is 737 on that card", "cvv is 737"),
    ("my ssn is 512-44-7302", "512-44-7302"),
    ("social security number 512447302", "512447302"),
    ("card 4111 1111 1111 1111 expires soon", "4111 1111 1111 1111"),
    (
        f"-----BEGIN OPENSSH PRIVATE KEY-----\n{PEM_BODY}\n-----END OPENSSH PRIVATE KEY-----",
        PEM_BODY,
    ),
    ("slack bot xoxb-123456789012-abcdefghijklmnop", "xoxb-123456789012-abcdefghijklmnop"),
    (f"maps key {GOOGLE}", GOOGLE),
    (
        "jwt eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1c2VyNDIifQ.c2lnbmF0dXJlX3BhcnRfaGVyZQ",
        "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1c2VyNDIifQ.c2lnbmF0dXJlX3BhcnRfaGVyZQ",
    ),
    ("openai sk-proj-Ab12Cd34Ef56Gh78Ij90Kl12", "sk-proj-Ab12Cd34Ef56Gh78Ij90Kl12"),
    ("api_token = q8Wm2Zr5Lp0Xv7Nc3Tb6", "q8Wm2Zr5Lp0Xv7Nc3Tb6"),
    ("DB_PASSWORD=hunter2x", "hunter2x"),
    ("SMTP_PASS=m4ilb0x", "m4ilb0x"),
    ("hf token hf_Zx9Yw8Vu7Ts6Rq5Po4Nm3Lk2Ji1Hg0FeDc", "hf_Zx9Yw8Vu7Ts6Rq5Po4Nm3Lk2Ji1Hg0FeDc"),
    (
        "npm_A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8 is the publish token",
        "npm_A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8",
    ),
    ("whsec_Qw3Er5Ty7Ui9Op1As3Df5Gh7 signs the webhooks", "whsec_Qw3Er5Ty7Ui9Op1As3Df5Gh7"),
    ("gitlab glpat-Xy12Zw34Vu56Ts78Rq90Po", "glpat-Xy12Zw34Vu56Ts78Rq90Po"),
    (
        "post to https://hooks.slack.com/services/T0AB12CD3/B0EF45GH6/qRsTuVwXyZ123456abcdEF",
        "T0AB12CD3/B0EF45GH6/qRsTuVwXyZ123456abcdEF",
    ),
    ("google says ya29.a0AfH6SMBx7Qw9Er2Ty4Ui6Op8", "ya29.a0AfH6SMBx7Qw9Er2Ty4Ui6Op8"),
    ("pypi-AgEIcHlwaS5vcmc" + "Q" * 48 + " uploads the wheel", "pypi-AgEIcHlwaS5vcmc" + "Q" * 48),
    (
        "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 is the mail key",
        "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",
    ),
    ("twilio SK0123456789abcdef0123456789abcdef", "SK0123456789abcdef0123456789abcdef"),
    ("shop shpat_0123456789abcdef0123456789abcdef", "shpat_0123456789abcdef0123456789abcdef"),
    ("droplet token dop_v1_" + "ab12" * 16, "dop_v1_" + "ab12" * 16),
    ("bot 123456789:AAHfGh7Jk9Lm2Np4Qr6St8Uv0Wx3Yz5Ab7C", "123456789:AAHfGh7Jk9Lm2Np4Qr6St8Uv0Wx3Yz5Ab7C"),
    (
        "AGE-SECRET-KEY-1" + "QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L" + "QPZRY9X8GF2TVDW0S3JN54KHCE",
        "AGE-SECRET-KEY-1QPZRY",
    ),
    ("my bank pin is 4711", "pin is 4711"),
    ("the code for the door is 8842", "door is 8842"),
]

ORDINARY = [
    "I want a window seat and my boarding pass is ready",
    "Book a flight from Berlin to Lisbon on 2026-12-12 at 10:30",
    "I need a pass for the museum on Friday",
    "the pin on the map is next to the station",
    "My budget is 500 EUR, the table is for 4 people at 19:30",
    "Order 2 pizzas, my flat is number 1234 in block B",
    "Keep answers short, the token ring network was before my time",
]


@pytest.mark.parametrize(("said", "raw"), CASES, ids=[raw[:18] for _, raw in CASES])
def test_each_shape_is_redacted_and_says_what_it_was(said, raw):
    clean, kinds = redact(said)
    assert raw not in clean and "[REDACTED " in clean and kinds


def test_every_rule_of_the_catalogue_is_exercised():
    unused = [rule.name for rule in CATALOGUE if not any(rule.pattern.search(said) for said, _ in CASES)]
    assert not unused


@pytest.mark.parametrize("text", ORDINARY)
def test_ordinary_sentences_are_left_alone(text):
    assert redact(text) == (text, [])


def test_redaction_reaches_into_json_values():
    value, kinds = redact_value({"note": "my pass is Tulpe77x", "n": 3, "to": ["DB_PASSWORD=hunter2x"]})
    assert value == {
        "note": "my pass is [REDACTED password]",
        "n": 3,
        "to": ["DB_PASSWORD=[REDACTED password]"],
    }
    assert kinds == ["password"]


def on_disk(home: Path, raw: str) -> list[str]:
    done = subprocess.run(["grep", "-rlaF", raw, str(home)], capture_output=True, text=True)
    assert done.returncode in (0, 1), done.stderr
    return done.stdout.split()


def test_no_raw_secret_reaches_a_file_from_chat_an_import_or_a_pasted_block(_ibachat_home, tmp_path, capsys):
    home = _ibachat_home
    with Memory.open(home, embedder="hash") as mem:
        bot = Assistant(mem, ScriptedLLM(["Noted."] * (len(CASES) + 1)), clock=lambda: NOW)
        chat = bot.new_session("chat")
        for said, _ in CASES:
            bot.respond(chat, said)
        paste = "Here is my .env and the mail from IT, keep it for me:\n\n" + "\n".join(
            f"> {said}" if i % 2 else said for i, (said, _) in enumerate(CASES)
        )
        reply = bot.respond(bot.new_session("paste"), paste)
        assert len(reply.redactions) >= 5
    rows = [
        {"session_id": "imported", "role": "user", "text": said, "time": f"2026-01-02T10:{i:02d}:00Z"}
        for i, (said, _) in enumerate(CASES)
    ]
    src = tmp_path / "import.jsonl"
    src.write_text("".join(json.dumps(r) + "\n" for r in rows), "utf-8")
    assert main(["--embedder", "hash", "memory", "import", str(src)]) == 0
    capsys.readouterr()
    with Memory.open(home, embedder="hash", readonly=True) as mem:
        assert sum(1 for t in mem.iter_turns(session="imported")) == len(CASES)
    leaks = {raw: on_disk(home, raw) for _, raw in CASES}
    assert {raw: files for raw, files in leaks.items() if files} == {}
