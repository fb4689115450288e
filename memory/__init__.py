"""ibachat's memory: turns (TinyDB), vectors (usearch), lexical index, embedders, preference ledger.

This package imports neither ``ibachat`` nor ``bench`` nor ``textual``; importing it does no I/O.
"""

from memory.errors import MemoryError_ as MemoryStoreError
from memory.types import Hit, Turn

__all__ = ["Hit", "MemoryStoreError", "Turn"]
