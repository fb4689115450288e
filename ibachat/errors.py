"""The assistant's error hierarchy. ``str(err)`` is one line for a person; the CLI prints it."""

from __future__ import annotations

from memory.errors import MemoryError_


class IbachatError(Exception):
    """Base class for errors the CLI reports as one line and a non-zero exit."""


class ConfigError(IbachatError):
    pass


class ModelUnavailable(IbachatError):
    """A chat model that cannot be reached or loaded; the message says how to fix it."""


class ModelOutputError(IbachatError):
    """A model returned something unusable (broken JSON, empty reply)."""


class Cancelled(Exception):  # noqa: N818 - what the user did, not a fault
    """The user stopped an answer while it was being written (Ctrl+C, Esc); nothing was stored."""


USER_ERRORS = (IbachatError, MemoryError_)
