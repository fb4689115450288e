"""Errors raised by the memory layer. Each carries a one-line message meant for a person."""

from __future__ import annotations


class MemoryError_(Exception):  # noqa: N801 - avoid shadowing the builtin MemoryError
    """Base class: ``str(err)`` is one line a user can act on."""


class StoreLocked(MemoryError_):
    """Another process holds the writer lock."""


class CorruptFile(MemoryError_):
    """A file in the store cannot be read."""


class BadInput(MemoryError_):
    """Input (an import file, a record) is invalid; nothing was written."""


class EmbedderUnavailable(MemoryError_):
    """The configured embedding model cannot be loaded or reached."""


class NotFound(MemoryError_):
    """A turn, session or event that does not exist."""
