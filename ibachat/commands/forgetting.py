"""`ibachat memory forget` beyond the store: its opt-in undo copy and the REPL's line history.

By default a forget on the command line keeps no copy of what it removed: the words are
gone when the command ends (the app and the plain prompt keep their undo in memory only,
``ibachat.tui.undo``). With ``--undoable`` the removed turns, events and plans are written to
``<home>/forget-undo.json`` **encrypted** (AES-GCM, from the ``cryptography`` package) under a
random key that is printed once and never stored: ``ibachat memory forget --undo
KEY`` restores them within ``UNDO_WINDOW_S`` seconds. The expiry is sealed with the data (a
changed expiry fails to decrypt), the file is removed by ``--undo``, by the next forget and
by the first command that writes to the home after the window; and should none run again,
what is left on disk cannot be read without the key.
"""

from __future__ import annotations

import base64
import json
import os
import secrets
import time
from pathlib import Path
from typing import TYPE_CHECKING

from ibachat.errors import IbachatError
from memory.atomic import atomic_write_text
from memory.memory import FORGET_UNDO

if TYPE_CHECKING:
    from ibachat.tui.undo import Undoable
    from memory.memory import Memory

UNDO_WINDOW_S = 600
KEY_BYTES = 16
FORMAT = 2  # 1: plain JSON (older versions), dropped when its window is over


def undo_path(home: Path) -> Path:
    return Path(home) / FORGET_UNDO


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode("ascii").rstrip("=")


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def save_undo(home: Path, item: Undoable, *, now: float | None = None) -> tuple[str, float]:
    """Write the encrypted undo file (replacing any older one); returns (key, expiry in epoch s)."""
    from cryptography.hazmat.primitives.ciphers.aead import AESGCM

    now = time.time() if now is None else now
    expires = now + UNDO_WINDOW_S
    plain = json.dumps(
        {
            "label": item.label,
            "turns": [{"id": t.id, **t.to_record()} for t in item.turns],
            "events": [e.to_dict() for e in item.events],
            "plans": {str(k): v for k, v in item.plans.items()},
        },
        ensure_ascii=False,
        default=str,
    ).encode("utf-8")
    key = secrets.token_bytes(KEY_BYTES)
    nonce = secrets.token_bytes(12)
    sealed = AESGCM(key).encrypt(nonce, plain, _aad(expires))
    record = {"format": FORMAT, "expires": expires, "nonce": _b64(nonce), "data": _b64(sealed)}
    atomic_write_text(undo_path(home), json.dumps(record))
    os.chmod(undo_path(home), 0o600)
    return _b64(key), expires


def _aad(expires: float) -> bytes:
    return f"ibachat forget-undo {FORMAT} {expires!r}".encode("ascii")


def take_undo(home: Path, key: str, *, now: float | None = None) -> Undoable:
    """The last forget, opened with its key (the file is removed once opened or expired).

    Raises IbachatError with one line when there is nothing to undo or the key does not fit.
    """
    from cryptography.exceptions import InvalidTag
    from cryptography.hazmat.primitives.ciphers.aead import AESGCM

    from ibachat.tui.undo import Undoable
    from memory.ledger import PreferenceEvent
    from memory.types import Turn

    nothing = IbachatError("nothing to undo (the last forget was not --undoable, or is over 10 minutes old)")
    path = undo_path(home)
    try:
        record = json.loads(path.read_text("utf-8"))
    except FileNotFoundError:
        raise nothing from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError):
        path.unlink(missing_ok=True)
        raise nothing from None
    now = time.time() if now is None else now
    if not isinstance(record, dict) or record.get("format") != FORMAT:
        path.unlink(missing_ok=True)  # an older version's plain copy: never restored, gone now
        raise nothing
    try:
        expires = float(record["expires"])
        nonce, sealed = _unb64(record["nonce"]), _unb64(record["data"])
        raw_key = _unb64(key.strip())
    except (KeyError, TypeError, ValueError):
        raise IbachatError(
            "that is not an undo key (it is the text after `--undo` in the forget's note)"
        ) from None
    if expires < now:
        path.unlink(missing_ok=True)
        raise nothing
    if len(raw_key) != KEY_BYTES:
        raise IbachatError("that is not an undo key (it is the text after `--undo` in the forget's note)")
    try:
        data = json.loads(AESGCM(raw_key).decrypt(nonce, sealed, _aad(expires)))
    except InvalidTag:
        raise IbachatError("that key does not open the last forget's undo copy; nothing restored") from None
    path.unlink(missing_ok=True)
    return Undoable(
        label=str(data.get("label", "")),
        at=0.0,
        turns=[Turn.from_record(r) for r in data.get("turns", [])],
        events=[PreferenceEvent.from_dict(e) for e in data.get("events", [])],
        plans={int(k): v for k, v in data.get("plans", {}).items()},
    )


def restore(memory: Memory, item: Undoable) -> list[int]:
    """Store the forgotten turns again (under their own ids) with their ledger events and plans."""
    from ibachat.tui.undo import UndoBuffer

    return UndoBuffer(memory)._restore_turns(item)


def drop_titles(memory: Memory, sessions: set[str]) -> int:
    """Remove from ``sessions.json`` the titles of these sessions once no turn of theirs is left."""
    path = Path(memory.home) / "sessions.json"
    try:
        titles = json.loads(path.read_text("utf-8"))
    except (FileNotFoundError, UnicodeDecodeError, json.JSONDecodeError):
        return 0
    if not isinstance(titles, dict):
        return 0
    left = set(memory.store.sessions())
    gone = [s for s in sessions if s in titles and s not in left]
    for session in gone:
        titles.pop(session)
    if gone:
        atomic_write_text(path, json.dumps(titles, ensure_ascii=False))
        os.chmod(path, 0o600)
    return len(gone)
