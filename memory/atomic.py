"""Crash-safe file replacement: write a temporary file, fsync it, rename it over the target.

A reader never sees a torn file: it sees the old content or the new one. Leftover
temporary files (a kill between write and rename) carry the ``.tmp-`` marker and are
removed by :func:`clean_temporaries` when a store opens.
"""

from __future__ import annotations

import os
from pathlib import Path

TMP_MARK = ".tmp-"


def _fsync_dir(directory: Path) -> None:
    fd = os.open(directory, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def fsync_dir(directory: Path) -> None:
    """Make a rename or unlink in ``directory`` durable."""
    _fsync_dir(directory)


def atomic_write_bytes(path: Path, data: bytes, *, fsync: bool = True) -> None:
    path = Path(path)
    tmp = path.with_name(f"{path.name}{TMP_MARK}{os.getpid()}")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        view = memoryview(data)
        while view:
            written = os.write(fd, view)
            view = view[written:]
        if fsync:
            os.fsync(fd)
    finally:
        os.close(fd)
    os.replace(tmp, path)
    if fsync:
        _fsync_dir(path.parent)


def atomic_write_text(path: Path, text: str, *, fsync: bool = True) -> None:
    atomic_write_bytes(path, text.encode("utf-8"), fsync=fsync)


def temp_path_for(path: Path) -> Path:
    """A temporary sibling of ``path`` for tools (like usearch) that write files themselves."""
    path = Path(path)
    return path.with_name(f"{path.name}{TMP_MARK}{os.getpid()}")


def commit_temp(tmp: Path, path: Path, *, fsync: bool = True) -> None:
    """fsync a finished temporary file and rename it over ``path``."""
    if fsync:
        fd = os.open(tmp, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
    os.chmod(tmp, 0o600)
    os.replace(tmp, path)
    if fsync:
        _fsync_dir(Path(path).parent)


def clean_temporaries(directory: Path) -> int:
    """Remove temporaries left by a killed writer. Returns how many were removed."""
    removed = 0
    if not directory.is_dir():
        return 0
    for entry in directory.rglob(f"*{TMP_MARK}*"):
        if entry.is_file():
            entry.unlink(missing_ok=True)
            removed += 1
    return removed
