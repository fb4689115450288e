"""Child process for the crash test: inserts turns forever, printing each acknowledged id."""

from __future__ import annotations

import sys
from pathlib import Path

from memory.embedders.hashing import HashEmbedder
from memory.memory import Memory


def main() -> None:
    home = Path(sys.argv[1])
    mem = Memory.open(home, embedder=HashEmbedder(32))
    n = 0
    while True:
        n += 1
        # every 7th turn is large, so kills also land inside big writes
        text = f"crash turn {n} " + ("x" * 40_000 if n % 7 == 0 else "")
        turn = mem.add_turn("crash", "user", text)
        print(f"{turn.id} {n}", flush=True)
        if n % 50 == 0:
            mem.save_indexes()


if __name__ == "__main__":
    main()
