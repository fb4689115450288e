"""Child process for the forget kill test: `ibachat memory forget` in-process, after its imports.

It prints ``ready`` once the heavy modules are loaded, so the parent's random kill lands in the
forget itself rather than in interpreter start-up.
"""

from __future__ import annotations

import sys

import ibachat.commands.memory_cmd  # noqa: F401 - loaded before "ready"
import ibachat.tui.undo  # noqa: F401
import memory.forget  # noqa: F401
import memory.memory  # noqa: F401
from ibachat.cli import main

if __name__ == "__main__":
    print("ready", flush=True)
    sys.exit(main(["--embedder", "hash", *sys.argv[1:]]))
