"""``python -m bench.generator OUT.jsonl [--seed N] [--personas N] [--tasks N]``: write a suite, print its stats."""

from __future__ import annotations

import argparse
import json
import sys
import time

from bench.generator.suite import write_suite
from memory.errors import BadInput


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.generator", description=__doc__)
    parser.add_argument("out", help="where to write the suite (.jsonl)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--personas", type=int, default=400)
    parser.add_argument("--tasks", type=int, default=7000, help="target number of tasks")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    try:
        stats = write_suite(args.out, args.seed, args.personas, target_tasks=args.tasks)
    except (BadInput, OSError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    stats["seconds"] = round(time.perf_counter() - started, 1)
    print(json.dumps(stats, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
