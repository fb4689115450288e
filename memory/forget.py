"""Forget as one transaction over the store, the indexes, the embedding cache, the ledger and plans.

1. ``turns/forget-pending.json`` names the turns (ids only, never their words); it is
   written atomically, and that write is the commit: from then on every reader leaves
   those turns out (store reads, and ledger queries as if they were muted), and the job
   is finished by whoever holds the writer lock next if this process dies.
2. Everything derived from the turns goes first: both indexes (in memory), the embedding
   cache, the ledger (rewritten without them), saved plans citing or quoting them, and
   the caller's own files (``hooks``: the REPL's line history). Each step is idempotent.
3. Then the turns leave the store (the words were read from it until now, which is why it
   goes last), the indexes are saved without them, and the journal is removed.

A kill anywhere after (1) is finished by the next writer that opens the home
(:func:`resume`): turns still in the store are forgotten from the start; turns already gone
from it had every derived step done before, so only the indexes are brought in line.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from memory.atomic import atomic_write_text, fsync_dir

if TYPE_CHECKING:
    from memory.memory import Memory
    from memory.types import Turn

JOURNAL = "forget-pending.json"
Hook = Callable[[Path, list[str]], object]  # (home, forgotten texts): scrub a file of the caller's


def journal_path(store_folder: Path) -> Path:
    return Path(store_folder) / JOURNAL


def pending(store_folder: Path) -> frozenset[int]:
    """Turn ids an unfinished forget committed to (empty when none)."""
    try:
        data = json.loads(journal_path(store_folder).read_text("utf-8"))
    except FileNotFoundError:
        return frozenset()
    except (OSError, json.JSONDecodeError, UnicodeDecodeError):
        return frozenset()  # written atomically: damage from outside; nothing can be trusted
    ids = data.get("turns") if isinstance(data, dict) else None
    if not isinstance(ids, list):
        return frozenset()
    return frozenset(int(i) for i in ids if isinstance(i, int) and not isinstance(i, bool))


def forget(mem: Memory, ids: Iterable[int], hooks: Sequence[Hook] = ()) -> list[Turn]:
    """Forget these turns everywhere, all or nothing across a kill; returns the turns removed."""
    turns = mem.store.get_many(sorted({int(i) for i in ids}))
    if not turns:
        return []
    atomic_write_text(
        journal_path(mem.store.folder), json.dumps({"turns": [t.id for t in turns]}), fsync=mem.fsync
    )
    _finish(mem, turns, hooks)
    return turns


def resume(mem: Memory, hooks: Sequence[Hook] = ()) -> int:
    """Finish a forget a kill interrupted (a writer, on open); returns how many turns it named."""
    ids = pending(mem.store.folder)
    path = journal_path(mem.store.folder)
    if not path.exists():
        return 0
    turns = mem.store.get_many(sorted(ids))
    if turns:
        _finish(mem, turns, hooks)
    else:
        mem.reconcile()  # the store had let them go: the indexes may still hold them
        _close_journal(mem)
    return len(ids)


def _finish(mem: Memory, turns: list[Turn], hooks: Sequence[Hook]) -> None:
    gone = [t.id for t in turns]
    texts = [t.text for t in turns]
    vectors, lexical = mem._indexes()
    vectors.remove(gone)
    lexical.remove(gone)
    mem.cache.forget_texts(set(texts))
    for text in texts:
        mem._query_vectors.pop(text, None)
    mem.ledger.forget_turns(gone, texts)
    mem.plans.forget(gone, texts)
    for hook in hooks:
        hook(mem.home, texts)
    mem.store.delete(gone)
    mem.save_indexes()
    _close_journal(mem)


def _close_journal(mem: Memory) -> None:
    path = journal_path(mem.store.folder)
    path.unlink(missing_ok=True)
    if mem.fsync:
        fsync_dir(path.parent)
