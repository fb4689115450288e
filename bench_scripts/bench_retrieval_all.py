"""Every retrieval dataset we have, every method, one table: evidence recall@5/@10, hit@10, ms/query.

    python bench_scripts/bench_retrieval_all.py [--locomo ZIP] [--prefeval DIR] [--turns 50 --turns 300]
        [--topics tune|held-out|all] [--per-topic N] [--iba-tasks N] [--only NAME] [--cache DIR] [--out FILE]

Datasets (each skipped with a note on stderr when its data is missing):

- ``locomo:1-5`` and ``locomo:6-10``: LoCoMo's conversations, tuning half and held-out half;
- ``prefeval-<form>@<N>``: the PrefEval development set (``/work/shared/data/prefeval-dev``) in its
  three forms (``explicit``: the preference stated in one turn; ``choice``: revealed by the option
  the user picks; ``persona``: revealed somewhere in a small-talk chat), the preference block
  first and then N unrelated turns of the suite generator's small talk, one store per question;
- ``iba``: the labelled evidence of the first ``--iba-tasks`` tasks of the default (seed-0) suite.

Methods: ``deep`` (the planner's Deep Retrieval, no model), ``bm25``, ``dense``, ``hybrid``
(RRF of the two). The embedding cache (``--cache``) makes reruns cheap. The data are read in
place and never copied.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import random
import sys
import tempfile
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("HF_HUB_OFFLINE", "1")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.datasets import load_dataset  # noqa: E402
from bench.loaders import Conversation, Dataset, HistoryTurn, Question  # noqa: E402

LOCOMO = Path("/work/shared/data/locomo/locomo10.zip")
PREFEVAL = Path("/work/shared/data/prefeval-dev")
# The team's split of the ten development topics: tune on seven, report these three apart.
HELD_OUT_TOPICS = ("pet_ownership", "shop_motors", "travel_restaurant")
FORMS = ("explicit", "choice", "persona")
METHODS = ("deep", "bm25", "dense", "hybrid")
START = datetime(2025, 3, 3, 9, 0, tzinfo=UTC)
NOISE_SESSION_PAIRS = 5  # unrelated exchanges per noise session (one session a day)
ACK = "Got it, I will keep that in mind."


# ---------------------------------------------------------------- PrefEval adapter
# MERGE NOTE: a minimal stand-in for ``bench.prefeval.load_prefeval`` (branch i8-prefeval). When
# that lands, replace ``load_prefeval_dev`` below by it; the evidence rule here: the user's own
# turns of the preference block (explicit: the statement; choice: the request and the pick;
# persona: every user turn of the persona chat, where upstream does not mark the revealing one).


def _topics(folder: Path, which: str) -> list[str]:
    names = sorted(p.stem for p in (folder / "explicit_preference").glob("*.json"))
    if which == "tune":
        return [t for t in names if t not in HELD_OUT_TOPICS]
    if which == "held-out":
        return [t for t in names if t in HELD_OUT_TOPICS]
    return names


def _block(form: str, item: dict[str, Any]) -> list[tuple[str, str, bool]]:
    """The preference block as (role, text, is evidence)."""
    if form == "explicit":
        return [("user", item["preference"], True), ("assistant", ACK, False)]
    conv = item["conversation"]
    if form == "choice":
        return [
            ("user", conv["query"], True),
            ("assistant", conv["assistant_options"], False),
            ("user", conv["user_selection"], True),
            ("assistant", conv["assistant_acknowledgment"], False),
        ]
    out: list[tuple[str, str, bool]] = []
    for key in sorted(conv, key=int):
        out += [("user", conv[key]["user"], True), ("assistant", conv[key]["assistant"], False)]
    return out


def _noise(rng: random.Random, turns: int, start: datetime) -> list[HistoryTurn]:
    from bench.generator.noise import noise_pair

    out: list[HistoryTurn] = []
    for pair in range((turns + 1) // 2):
        day, slot = divmod(pair, NOISE_SESSION_PAIRS)
        when = start + timedelta(days=day + 1, minutes=2 * slot)
        user, assistant = noise_pair(rng, when)
        session = f"noise-{day}"
        out.append(HistoryTurn(session, when, "user", user))
        out.append(HistoryTurn(session, when + timedelta(seconds=30), "assistant", assistant))
    return out[:turns]


def load_prefeval_dev(
    folder: Path, form: str, turns: int, topics: list[str], per_topic: int | None = None, seed: int = 0
) -> Dataset:
    """PrefEval questions, each over its own history: the preference block, then ``turns`` unrelated ones."""
    sub = {
        "explicit": "explicit_preference",
        "choice": "implicit_preference/choice-based",
        "persona": "implicit_preference/persona-driven",
    }[form]
    dataset = Dataset(f"prefeval-{form}@{turns}", "prefeval", [])
    for topic in topics:
        items = json.loads((folder / sub / f"{topic}.json").read_text(encoding="utf-8"))
        for index, item in enumerate(items[:per_topic] if per_topic else items):
            rng = random.Random(f"{seed}:{topic}:{index}:{turns}")
            history: list[HistoryTurn] = []
            evidence: list[int] = []
            for k, (role, text, wanted) in enumerate(_block(form, item)):
                if wanted:
                    evidence.append(len(history))
                history.append(
                    HistoryTurn(f"{topic}-{index}-pref", START + timedelta(seconds=30 * k), role, text)
                )
            history += _noise(rng, turns, START)
            conv = Conversation(f"{topic}:{index}", history)
            now = history[-1].time + timedelta(days=1)
            conv.questions.append(Question(f"{topic}:{index}", item["question"], evidence, topic, now))
            dataset.conversations.append(conv)
    return dataset


# ---------------------------------------------------------------- other datasets


def locomo_split(path: Path, which: str) -> Dataset:
    data = load_dataset(path, "locomo")
    convs = data.conversations[:5] if which == "1-5" else data.conversations[5:]
    return Dataset(f"locomo:{which}", "locomo", convs, dict(data.skipped))


def iba_sample(tasks: int, tmp: Path) -> Dataset:
    """The first ``tasks`` tasks of the default suite (seed 0), as retrieval cases."""
    from bench.generator.suite import dumps, generate_suite

    path = tmp / "iba-sample.jsonl"
    with open(path, "w", encoding="utf-8") as handle:
        for task in itertools.islice(generate_suite(0, 400), tasks):
            handle.write(dumps(task) + "\n")
    data = load_dataset(path, "iba")
    data.name = f"iba-seed0:{data.questions}"
    return data


# ---------------------------------------------------------------- run


def datasets(args: argparse.Namespace, tmp: Path) -> list[Dataset]:
    out: list[Dataset] = []

    def wanted(name: str) -> bool:
        return not args.only or any(name.startswith(prefix) for prefix in args.only)

    if args.locomo.is_file():
        out += [locomo_split(args.locomo, which) for which in ("1-5", "6-10") if wanted(f"locomo:{which}")]
    else:
        print(f"skipped LoCoMo: {args.locomo} not found", file=sys.stderr)
    if (args.prefeval / "explicit_preference").is_dir():
        topics = _topics(args.prefeval, args.topics)
        for form in FORMS:
            for turns in args.turns:
                if wanted(f"prefeval-{form}@{turns}"):
                    out.append(load_prefeval_dev(args.prefeval, form, turns, topics, args.per_topic))
    else:
        print(f"skipped PrefEval: {args.prefeval} not found", file=sys.stderr)
    if args.iba_tasks and wanted("iba"):
        out.append(iba_sample(args.iba_tasks, tmp))
    return out


def table(results: list[dict[str, Any]], methods: list[str]) -> str:
    """Methods by datasets: recall@5 / recall@10 / hit@10 / ms per query."""
    head = f"{'dataset':<22} {'n':>5} " + " ".join(f"{m:>27}" for m in methods)
    lines = [head, f"{'':<22} {'':>5} " + " ".join(f"{'r@5   r@10  hit@10  ms':>27}" for _ in methods)]
    for res in results:
        cells = []
        for m in methods:
            row = res["methods"][m]["overall"]
            ms = res["methods"][m]["ms_per_query"] or 0.0
            cells.append(
                f"{row['recall@5']:.3f} {row['recall@10']:.3f} {row['hit@10']:.3f} {ms:6.1f}".rjust(27)
            )
        lines.append(f"{res['dataset']:<22} {res['questions']:>5} " + " ".join(cells))
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--locomo", type=Path, default=LOCOMO)
    parser.add_argument("--prefeval", type=Path, default=PREFEVAL)
    parser.add_argument("--turns", type=int, action="append", help="unrelated turns (default 50 and 300)")
    parser.add_argument("--topics", choices=("tune", "held-out", "all"), default="all")
    parser.add_argument("--per-topic", type=int, help="at most this many PrefEval questions per topic")
    parser.add_argument("--iba-tasks", type=int, default=300, help="default-suite tasks (0: none)")
    parser.add_argument("--only", action="append", help="only datasets whose name starts so (repeatable)")
    parser.add_argument("--method", dest="methods", action="append", choices=METHODS)
    parser.add_argument(
        "--embedder", default="minilm", help="an embedder spec, or minilm-torch (use its own --cache)"
    )
    parser.add_argument("--cache", type=Path, default=Path(tempfile.gettempdir()) / "ibachat-retrieval-cache")
    parser.add_argument("--out", type=Path, help="also write the results as JSON here")
    args = parser.parse_args(argv)
    args.turns = args.turns or [50, 300]
    if any(n < 0 for n in args.turns):
        parser.error("--turns must not be negative")
    methods = args.methods or list(METHODS)
    import torch

    from bench.retrieval_eval import evaluate_retrieval
    from memory.embedders.registry import load_embedder

    torch.set_num_threads(1)
    if args.embedder == "minilm-torch":  # the same MiniLM through FlagEmbedding and torch (the reference)
        from memory.embedders.flag import minilm_torch_embedder

        embedder = minilm_torch_embedder()
    else:
        embedder = load_embedder(args.embedder)
    results = []
    with tempfile.TemporaryDirectory(prefix="ibachat-retrieval-all-") as tmp:
        for data in datasets(args, Path(tmp)):
            res = evaluate_retrieval(data, methods=methods, embedder=embedder, cache_dir=args.cache)
            results.append(res)
            print(table([res], methods).splitlines()[-1], file=sys.stderr, flush=True)
    print(f"embedder {embedder.model_id}; PrefEval topics: {args.topics}")
    print(table(results, methods))
    if args.out:
        args.out.write_text(json.dumps(results, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
