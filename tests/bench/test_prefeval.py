"""PrefEval as IBA-Bench tasks (bench/prefeval.py), on a small PrefEval-shaped folder written here.

The fixture's sentences are our own; the real files are read only by the last test, when present.
"""

from __future__ import annotations

import importlib.util
import json
from collections import Counter
from pathlib import Path

import pytest

from bench.prefeval import (
    FORMS,
    HELD_OUT,
    TOPIC_DOMAINS,
    build_task,
    iter_tasks,
    load_prefeval,
    persona_evidence,
    read_pairs,
    write_prefeval_suite,
)
from bench.validate import validate_suite
from memory.errors import BadInput

ROOT = Path(__file__).resolve().parents[2]
REAL = ROOT.parent / "shared" / "data" / "prefeval-dev"

# two topics (one tuning, one held out), three pairs each: (stated, question, four replies, aligned first)
PAIRS = {
    "entertain_games": [
        (
            "Timed puzzles stress me out, so I only play games where I can take as long as I like.",
            "Which puzzle game should I pick up this weekend?",
            [
                "A relaxed jigsaw app with no clock at all.",
                "A speed chess ladder with three minute rounds.",
                "A countdown word game that ends when the timer hits zero.",
                "A rhythm game scored on split second taps.",
            ],
        ),
        (
            "I get motion sick from first person cameras and stick to top down views.",
            "Suggest a game for a long train ride.",
            [
                "A top down tactics game with short missions.",
                "A first person racing game in cockpit view.",
                "A virtual reality roller coaster ride.",
                "A first person parkour game.",
            ],
        ),
        (
            "Competitive online lobbies make me miserable; I play alone or with my sister on the couch.",
            "What should we play on Friday night?",
            [
                "A local two player co-op platformer.",
                "A ranked online battle arena match.",
                "A hundred player online shooter.",
                "An online league with global leaderboards.",
            ],
        ),
    ],
    "pet_ownership": [
        (
            "My flat is tiny and I am away all day, so any animal must cope alone and in little space.",
            "What pet would suit me?",
            [
                "A pair of calm fish in a small tank.",
                "A young border collie that needs hours of running.",
                "A parrot that wants company all day.",
                "A large rabbit that needs a garden run.",
            ],
        ),
        (
            "I react badly to cat dander, so cats are out for me.",
            "Which animal should I foster this winter?",
            [
                "An older greyhound from the rescue.",
                "A fluffy long haired kitten.",
                "A pair of adult shelter cats.",
                "A Maine Coon that needs a new home.",
            ],
        ),
        (
            "I refuse to use shock collars or any punishment when training.",
            "How do I stop my puppy pulling on the lead?",
            [
                "Reward walking beside you with treats and stop when it pulls.",
                "Fit a shock collar and buzz it at each pull.",
                "Jerk the lead hard every time it pulls.",
                "Use a prong collar to make pulling hurt.",
            ],
        ),
    ],
}


def _write(path: Path, data: object) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data), "utf-8")


def make_folder(root: Path) -> Path:
    """A PrefEval-shaped folder: mcq options, explicit, choice-based and persona-driven files."""
    for topic, pairs in PAIRS.items():
        mcq, explicit, choice, persona = [], [], [], []
        for stated, question, options in pairs:
            mcq.append({"preference": stated, "question": question, "classification_task_options": options})
            explicit.append({"preference": stated, "question": question, "explanation": "why"})
            picked = options[0]
            choice.append(
                {
                    "preference": stated,
                    "question": question,
                    "conversation": {
                        "query": "I need some ideas, what are my choices?",
                        "assistant_options": f"You could try {options[1]} (1) or {picked} (2).",
                        "user_selection": "The second one sounds right for me.",
                        "assistant_acknowledgment": "Good pick, enjoy.",
                    },
                }
            )
            persona.append(
                {
                    "preference": stated,
                    "question": question,
                    "persona": "someone",
                    "conversation": {
                        "0": {"user": "Morning! Busy week at the bakery.", "assistant": "Sounds hectic."},
                        "1": {"user": f"Funny thing: {stated}", "assistant": "That makes sense."},
                        "2": {"user": "Anyway, the new oven arrives soon.", "assistant": "Exciting!"},
                    },
                }
            )
        _write(root / "mcq_options" / f"{topic}.json", mcq)
        _write(root / "explicit_preference" / f"{topic}.json", explicit)
        _write(root / "implicit_preference" / "choice-based" / f"{topic}.json", choice)
        _write(root / "implicit_preference" / "persona-driven" / f"{topic}.json", persona)
    return root


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    return make_folder(tmp_path / "prefeval")


def _turns(task: dict) -> dict[tuple[str, int], dict]:
    return {(s["session_id"], i): t for s in task["history"] for i, t in enumerate(s["turns"])}


def test_tasks_hold_the_preference_among_exact_filler_with_shuffled_replies(folder, tmp_path):
    tasks = list(iter_tasks(folder, forms="all", fillers=(50, 7), seed=3))
    assert len(tasks) == 3 * 2 * 6 and len({t["id"] for t in tasks}) == len(tasks)
    block_size = {"explicit": 2, "choice": 4, "persona": 6}
    positions, aligned_at = Counter(), Counter()
    for task in tasks:
        meta, check = task["meta"], task["checks"][0]
        options = PAIRS[meta["topic"]][meta["pair"]][2]
        (tool,) = task["task"]["tools"]
        enum = tool["parameters"]["properties"]["reply"]["enum"]
        assert sorted(enum) == sorted(options) and tool["parameters"]["required"] == ["reply"]
        assert check["kind"] == "param_in" and check["target"] == "respond.reply"
        assert check["expect"] == {"in": [options[0]]} and enum.index(options[0]) == meta["aligned_index"]
        assert task["gold"]["action"]["arguments"]["reply"] == options[0]
        assert task["task"]["prompt"] == PAIRS[meta["topic"]][meta["pair"]][1]
        assert sum(len(s["turns"]) for s in task["history"]) == meta["filler"] + block_size[meta["form"]]
        assert meta["turns_before"] + meta["turns_after"] == meta["filler"] and meta["turns_after"] > 0
        # sessions in time order, the question asked after them all
        times = [s["time"] for s in task["history"]]
        assert times == sorted(times) and task["now"] > times[-1]
        assert task["domain"] == TOPIC_DOMAINS[meta["topic"]]
        assert meta["split"] == ("held-out" if meta["topic"] in HELD_OUT else "tune")
        # the evidence is the preference block's own turns
        said = [_turns(task)[(e["session_id"], e["turn"])] for e in check["evidence"]]
        stated = PAIRS[meta["topic"]][meta["pair"]][0]
        if meta["form"] == "explicit":
            assert said == [{"role": "user", "text": stated}]
        elif meta["form"] == "choice":
            assert [t["role"] for t in said] == ["assistant", "user"] and options[0] in said[0]["text"]
        else:
            assert said == [{"role": "user", "text": f"Funny thing: {stated}"}]
        positions[meta["position"] == 0] += 1
        aligned_at[meta["aligned_index"]] += 1
    assert positions[False] > 0  # the preference is not always the first session
    assert len(aligned_at) > 1  # the aligned reply is not always in the same place
    # the three forms of a pair share filler, times and option order
    a, b = (
        t
        for t in tasks
        if t["meta"]["pair"] == 1
        and t["meta"]["filler"] == 50
        and t["meta"]["topic"] == "pet_ownership"
        and t["meta"]["form"] in ("explicit", "choice")
    )
    assert a["task"]["tools"] == b["task"]["tools"] and a["now"] == b["now"]
    out = tmp_path / "suite.jsonl"
    info = write_prefeval_suite(out, folder=folder, forms="all", fillers=(50, 7), seed=3)
    report = validate_suite(out)
    assert report.ok and report.valid == info["tasks"] == len(tasks)


def test_the_aligned_reply_takes_every_place_equally_often():
    import random

    from bench.prefeval import Pair, shuffled_options

    places = Counter()
    for index in range(40):
        options = ["aligned", "b", "c", "d"]
        pair = Pair("shop_fashion", index, "q", options)
        order = shuffled_options(pair, 0, random.Random(index))
        assert sorted(order) == sorted(options)
        places[order.index("aligned")] += 1
        if index % 4 == 3:
            assert set(places.values()) == {index // 4 + 1} and len(places) == 4


def test_same_seed_same_tasks_other_seed_other_tasks(folder):
    first = list(iter_tasks(folder, fillers=(20,), seed=1))
    assert first == list(iter_tasks(folder, fillers=(20,), seed=1))
    other = list(iter_tasks(folder, fillers=(20,), seed=2))
    assert [t["id"] for t in other] == [t["id"] for t in first]
    assert [t["history"] for t in other] != [t["history"] for t in first]


def test_filters_split_and_limits(folder):
    held = list(iter_tasks(folder, forms=["explicit"], split="held-out"))
    assert {t["meta"]["topic"] for t in held} == {"pet_ownership"}
    tune = list(iter_tasks(folder, forms="choice", split="tune", limit_per_topic=2))
    assert {t["meta"]["topic"] for t in tune} == {"entertain_games"} and len(tune) == 2
    picked = list(iter_tasks(folder, forms=["persona"], topics=["pet_ownership"], fillers=(0,)))
    assert len(picked) == 3 and all(len(t["history"]) == 1 for t in picked)
    with pytest.raises(BadInput, match="unknown PrefEval topic"):
        list(iter_tasks(folder, topics=["knitting"]))
    with pytest.raises(BadInput, match="unknown PrefEval form"):
        list(iter_tasks(folder, forms=["implicit"]))
    with pytest.raises(BadInput, match="no PrefEval topic left"):
        list(iter_tasks(folder, topics=["pet_ownership"], split="tune"))


def test_bad_folders_are_one_clear_error(tmp_path, folder):
    with pytest.raises(BadInput, match="no PrefEval folder"):
        list(iter_tasks(tmp_path / "absent"))
    (tmp_path / "empty").mkdir()
    with pytest.raises(BadInput, match="not a PrefEval folder"):
        list(iter_tasks(tmp_path / "empty"))
    (folder / "implicit_preference" / "choice-based" / "pet_ownership.json").write_text("[{}]")
    with pytest.raises(BadInput, match="has 1 pairs"):
        read_pairs(folder, "pet_ownership", ["choice"])
    (folder / "explicit_preference" / "pet_ownership.json").write_text("{not json")
    with pytest.raises(BadInput, match="is not JSON"):
        read_pairs(folder, "pet_ownership", ["explicit"])
    (folder / "explicit_preference" / "pet_ownership.json").unlink()
    with pytest.raises(BadInput, match="PrefEval file missing"):
        read_pairs(folder, "pet_ownership", ["explicit"])


def test_topics_map_onto_the_domains():
    from bench.prefeval import domain_of
    from bench.validate import DOMAINS

    assert set(TOPIC_DOMAINS.values()) <= set(DOMAINS)
    assert domain_of("shop_motors") == "transportation" and domain_of("shop_gadgets") == "consumption"
    assert domain_of("travel_hotel") == "planning" and domain_of("unheard_of") == "information"
    from bench.prefeval import TUNE, split_of

    assert len(TUNE) == 7 and not set(TUNE) & set(HELD_OUT)
    assert split_of("entertain_shows") == "tune" and split_of("shop_motors") == "held-out"
    assert split_of("travel_hotel") == "held-out"  # not in the development set: never tuned on


def test_persona_evidence_is_the_turn_closest_to_the_preference():
    users = ["Hello there, lovely weather.", "We only ever take the train, planes scare me.", "Bye!"]
    assert persona_evidence("I am afraid of planes and prefer trains.", users) == [1]
    assert persona_evidence("Nothing in common here.", ["abc", "xyz"]) == [0, 1]


def test_filler_from_locomo_sessions(folder, tmp_path):
    from bench.prefeval_filler import FillerSource, read_locomo

    sessions = []
    for n in range(1, 4):
        sessions.append((f"session_{n}_date_time", f"1:00 pm on {n} May, 2023"))
        lines = [
            {"speaker": "Ana" if k % 2 == 0 else "Ben", "dia_id": f"D{n}:{k + 1}", "text": f"line {n}.{k}"}
            for k in range(12)
        ]
        sessions.append((f"session_{n}", lines))
    path = tmp_path / "locomo.json"
    path.write_text(json.dumps([{"sample_id": "c1", "conversation": dict(sessions), "qa": []}]))
    pool = read_locomo(path)
    assert len(pool) == 3 and pool[0][0] == ("Ana", "line 1.0")
    tasks = list(iter_tasks(folder, forms=["explicit"], fillers=(60,), locomo=path))
    texts = [t["text"] for task in tasks for s in task["history"] for t in s["turns"]]
    assert any(t.startswith("line ") for t in texts) and not any(t.startswith("Ana: ") for t in texts)
    assert all(sum(len(s["turns"]) for s in t["history"]) == 62 for t in tasks)
    import random

    chunks = FillerSource(pool).sessions(random.Random(0), 31)
    assert sum(len(c) for c in chunks) == 31


def test_prefeval_command_writes_a_valid_suite_and_bad_input_is_one_line(folder, tmp_path):
    from click.testing import CliRunner

    from bench.cli import bench

    out = tmp_path / "suite.jsonl"
    args = ["prefeval", "--data", str(folder), "--form", "explicit", "--form", "persona", "--filler", "9"]
    result = CliRunner().invoke(bench, [*args, "--topics", "pet_ownership", "--out", str(out)])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    assert summary["tasks"] == 6 and summary["counts"] == {
        "explicit/f9/held-out": 3,
        "persona/f9/held-out": 3,
    }
    assert validate_suite(out).ok
    result = CliRunner().invoke(bench, ["validate", str(out)])
    assert result.exit_code == 0 and "6 tasks, valid" in result.output
    for bad in (["--data", str(tmp_path / "nowhere")], ["--data", str(folder), "--topics", "x"]):
        result = CliRunner().invoke(bench, ["prefeval", *bad, "--out", str(tmp_path / "bad.jsonl")])
        assert result.exit_code == 1 and "Traceback" not in result.output
        assert len(result.output.strip().splitlines()) == 1 and result.output.startswith("Error: ")
        assert not (tmp_path / "bad.jsonl").exists()


def test_suite_runs_through_the_runner_and_retrieval_loader(folder, tmp_path):
    from bench.datasets import load_dataset
    from bench.loaders import detect_format
    from bench.runner import run_bench

    tasks = list(iter_tasks(folder, forms=["explicit"], fillers=(6,), topics=["entertain_games"]))
    summary = run_bench(tasks, agent="iba", embedder="hash", out_dir=tmp_path / "out", progress=False)
    assert summary.ran == 3 and summary.errors == 0
    rows = [json.loads(line) for line in (tmp_path / "out" / "iba.jsonl").read_text().splitlines()[1:]]
    for row in rows:
        # the hashing embedder carries no meaning: a reply nothing justifies is asked about, not guessed
        reply = row["output"]["tool_call"]["arguments"].get("reply")
        task = next(t for t in tasks if t["id"] == row["task_id"])
        if reply is None:
            assert row["info"]["clarify"] and row["strict"] is False
            continue
        assert reply in task["task"]["tools"][0]["parameters"]["properties"]["reply"]["enum"]
        assert row["strict"] is (reply == task["checks"][0]["expect"]["in"][0])
    assert detect_format(folder) == "prefeval"
    data = load_dataset(folder, "prefeval", limit=4)
    assert data.format == "prefeval" and data.questions == 4
    assert {q.category for c in data.conversations for q in c.questions} == set(FORMS)
    question = data.conversations[0].questions[0]
    turns = data.conversations[0].turns
    assert question.tool["name"] == "respond"
    assert all(turns[i].text for i in question.evidence)
    whole = load_prefeval(folder, forms=["explicit"], fillers=(4,))
    assert whole.questions == 6


def test_bench_script_prints_the_table(folder, tmp_path, capsys):
    spec = importlib.util.spec_from_file_location(
        "bench_prefeval", ROOT / "bench_scripts" / "bench_prefeval.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    code = module.main(
        [
            "--data",
            str(folder),
            "--agents",
            "none",
            "--fillers",
            "4",
            "--forms",
            "explicit",
            "--out",
            str(tmp_path),
        ]
    )
    out = capsys.readouterr().out
    assert code == 0
    assert "explicit" in out and "held-out" in out and "tune" in out and "tasks/s" in out
    assert module.main(["--data", str(tmp_path / "nowhere"), "--agents", "none"]) == 1


@pytest.mark.skipif(not REAL.is_dir(), reason="the PrefEval development set is not at ../shared/data")
def test_the_real_development_set_loads():
    from bench.prefeval import available_topics

    topics = available_topics(REAL)
    assert len(topics) == 10 and set(HELD_OUT) <= set(topics) and set(topics) <= set(TOPIC_DOMAINS)
    counts = {t: len(read_pairs(REAL, t, FORMS)) for t in topics}
    assert all(n >= 30 for n in counts.values()) and sum(counts.values()) >= 500
    tasks = list(iter_tasks(REAL, fillers=(50,), limit_per_topic=2))
    assert len(tasks) == 3 * 10 * 2
    assert Counter(t["meta"]["split"] for t in tasks) == {"tune": 42, "held-out": 18}
    pair = read_pairs(REAL, topics[0], FORMS, limit=1)[0]
    task = build_task(pair, "persona", 300)
    assert sum(len(s["turns"]) for s in task["history"]) == 300 + 2 * len(pair.persona)
