"""Runs ibachat commands in one process (inside a read-only mount, or as another user) and
prints, as JSON, each command's exit status and what it wrote to stderr.

Usage: python -m tests.home_fault_child HOME SRC  (SRC: a JSON Lines file for `memory import`)
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import sys

COMMANDS: dict[str, list[str]] = {
    "ask": ["ask", "--model", "none", "I prefer quiet hotels near the river"],
    "import": ["memory", "import", "{src}"],
    "forget": ["memory", "forget", "1", "--yes"],
    "never": ["memory", "never", "1"],
    "reindex": ["memory", "reindex"],
    "repair": ["memory", "repair"],
    "chat": ["chat", "--plain"],
    "search": ["memory", "search", "quiet"],
    "show": ["memory", "show"],
    "export": ["memory", "export"],
    "stats": ["memory", "stats"],
    "prefs": ["memory", "prefs"],
    "doctor": ["doctor"],
}
WRITERS = ("ask", "import", "forget", "never", "reindex", "repair", "chat")


def run_all(home: str, src: str) -> dict[str, tuple[int, str]]:
    from ibachat.cli import main

    os.environ["IBACHAT_HOME"] = home
    out: dict[str, tuple[int, str]] = {}
    for name, args in COMMANDS.items():
        err = io.StringIO()
        stdin = sys.stdin
        sys.stdin = io.StringIO("hello there, I like quiet mornings\n")
        try:
            with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
                code = main(["--embedder", "hash", *[a.replace("{src}", src) for a in args]])
        finally:
            sys.stdin = stdin
        out[name] = (code, err.getvalue())
    return out


if __name__ == "__main__":
    print(json.dumps(run_all(sys.argv[1], sys.argv[2])))
