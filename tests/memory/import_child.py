"""Child process for the import kill test: `ibachat memory import` in-process, after its imports.

It prints ``ready`` once the heavy modules are loaded, so the parent's random kill lands in the
import itself rather than in interpreter start-up.
"""

from __future__ import annotations

import sys

import ibachat.commands.memory_cmd  # noqa: F401 - loaded before "ready"
import memory.memory  # noqa: F401
import memory.staging  # noqa: F401
from ibachat.cli import main

if __name__ == "__main__":
    print("ready", flush=True)
    sys.exit(main(["--embedder", "hash", "memory", "import", sys.argv[1]]))
