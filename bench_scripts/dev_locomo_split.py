"""LoCoMo retrieval on a split of its conversations: tune on the dev half, report the held-out half.

    python bench_scripts/dev_locomo_split.py --data /work/shared/data/locomo/locomo10.zip \
        [--split dev|held-out|all] [--method deep --method hybrid] [--cache DIR] [--limit N]

The first half of the conversations (in file order) is the dev split used for tuning; the
second half is held out and only reported. The data are read from ``--data`` and never
copied; the embedding cache (``--cache``) keeps reruns fast. Prints one JSON object.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("HF_HUB_OFFLINE", "1")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.datasets import load_dataset  # noqa: E402
from bench.loaders import Dataset  # noqa: E402
from bench.retrieval_eval import evaluate_retrieval  # noqa: E402

SPLITS = ("dev", "held-out", "all")


def split(dataset: Dataset, which: str) -> Dataset:
    """The first half (dev), the second half (held-out) or all of ``dataset``'s conversations."""
    half = len(dataset.conversations) // 2
    convs = {
        "dev": dataset.conversations[:half],
        "held-out": dataset.conversations[half:],
        "all": dataset.conversations,
    }[which]
    return Dataset(f"{dataset.name}:{which}", dataset.format, list(convs), dict(dataset.skipped))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, required=True)
    parser.add_argument("--split", choices=SPLITS, default="dev")
    parser.add_argument("--method", dest="methods", action="append")
    parser.add_argument("--cache", type=Path, default=Path("/tmp/ibachat-locomo-cache"))
    parser.add_argument("--limit", type=int)
    parser.add_argument("--embedder", default="minilm")
    args = parser.parse_args(argv)
    import torch

    torch.set_num_threads(1)
    dataset = split(load_dataset(args.data, "locomo"), args.split)
    result = evaluate_retrieval(
        dataset,
        methods=args.methods or ("deep", "hybrid"),
        embedder=args.embedder,
        cache_dir=args.cache,
        limit=args.limit,
    )
    short = {
        "split": args.split,
        "questions": result["questions"],
        "conversations": result["conversations"],
        "methods": {
            m: {"overall": r["overall"], "by_category": r["by_category"], "ms_per_query": r["ms_per_query"]}
            for m, r in result["methods"].items()
        },
        "seconds": result["seconds"],
    }
    print(json.dumps(short, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
