"""Retrieval evaluation: loaders for LoCoMo / LongMemEval / jsonl, and recall@k / hit@k on real stores."""

from __future__ import annotations

import json
import zipfile
from datetime import UTC, datetime
from pathlib import Path

import pytest

from bench.datasets import load_dataset
from bench.loaders import (
    detect_format,
    load_locomo,
    normalize_dia_ids,
    parse_locomo_time,
    parse_longmemeval_time,
)
from bench.retrieval_eval import _Tally, evaluate_retrieval
from memory.errors import BadInput

DATA = Path(__file__).parent / "data"
LME = DATA / "longmemeval_sample.json"
JSONL = DATA / "retrieval_sample.jsonl"


def locomo_conversation(sample_id: str) -> dict:
    """A tiny LoCoMo-shaped conversation, with the malformed evidence ids seen upstream."""
    return {
        "sample_id": sample_id,
        "conversation": {
            "speaker_a": "Ana",
            "speaker_b": "Ben",
            "session_1_date_time": "1:56 pm on 8 May, 2023",
            "session_1": [
                {"speaker": "Ana", "dia_id": "D1:1", "text": "I adopted a cat called Miso."},
                {"speaker": "Ben", "dia_id": "D1:2", "text": "Cute! I started pottery classes."},
            ],
            "session_2_date_time": "10:05 am on 2 June, 2023",
            "session_2": [
                {"speaker": "Ana", "dia_id": "D2:1", "text": "Miso knocked over my pottery vase."},
                {"speaker": "Ben", "dia_id": "D2:2", "text": "Bring it to class, we can glue it."},
            ],
        },
        "qa": [
            {"question": "What is Ana's cat called?", "answer": "Miso", "evidence": ["D1:1"], "category": 4},
            {
                "question": "What broke?",
                "answer": "a vase",
                "evidence": ["D2:01; D1:2", "D:2:2", "D9:9"],
                "category": 1,
            },
            {"question": "Unanswerable", "adversarial_answer": "x", "evidence": [], "category": 5},
        ],
    }


def test_locomo_ids_times_and_both_layouts(tmp_path):
    assert normalize_dia_ids(["D8:6; D9:17", "D:11:26", "D30:05", "D", "D1:1 D1:1"]) == [
        "D8:6",
        "D9:17",
        "D11:26",
        "D30:5",
        "D1:1",
    ]
    assert parse_locomo_time("1:56 pm on 8 May, 2023") == datetime(2023, 5, 8, 13, 56, tzinfo=UTC)
    assert parse_locomo_time("12:09 am on 1 January, 2022").hour == 0
    with pytest.raises(BadInput, match="unreadable LoCoMo"):
        parse_locomo_time("yesterday")

    single = tmp_path / "locomo10.json"
    single.write_text(json.dumps([locomo_conversation("conv-1"), locomo_conversation("conv-2")]))
    archive = tmp_path / "locomo.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        flat = locomo_conversation("conv-3")
        body = flat.pop("conversation")
        zf.writestr("data/conv-3.json", json.dumps({**body, "qa": flat["qa"]}))  # the zip's flat layout
    assert detect_format(single) == "locomo" and detect_format(archive) == "locomo"
    for path, ids in ((single, ["conv-1", "conv-2"]), (archive, ["conv-3"])):
        dataset = load_locomo(path)
        assert [c.id for c in dataset.conversations] == ids
        conv = dataset.conversations[0]
        assert [t.text[:9] for t in conv.turns] == [
            "Ana: I ad",
            "Ben: Cute",
            "Ana: Miso",
            "Ben: Brin",
        ]  # who said it is kept
        assert conv.turns[2].time == datetime(2023, 6, 2, 10, 5, tzinfo=UTC)
        assert [(q.evidence, q.category) for q in conv.questions] == [
            ([0], "single-hop"),
            ([2, 1, 3], "multi-hop"),
        ]
        assert dataset.skipped == {
            "evidence ids not in the conversation": len(ids),
            "questions without turn-level evidence": len(ids),
        }


def test_longmemeval_and_jsonl_loaders(tmp_path):
    assert parse_longmemeval_time("2023/05/20 (Sat) 02:21") == datetime(2023, 5, 20, 2, 21, tzinfo=UTC)
    lme = load_dataset(LME)
    assert lme.format == "longmemeval"
    # two questions over one haystack share a conversation; the abstention question has no labels
    assert [[q.id for q in c.questions] for c in lme.conversations] == [["q_pet", "q_city"], ["q_allergy"]]
    assert lme.skipped == {"questions without turn-level evidence": 1}
    city = lme.conversations[0].questions[1]
    assert [lme.conversations[0].turns[i].text[:12] for i in city.evidence] == [
        "I moved to R",
        "The commute ",
    ]
    assert city.now == datetime(2023, 5, 1, 10, 0, tzinfo=UTC)

    cases = load_dataset(JSONL)
    assert cases.format == "jsonl" and cases.questions == 4 and len(cases.conversations) == 2
    turns = cases.conversations[0].turns
    assert turns[4].time > turns[3].time and turns[5].time > turns[4].time  # null times keep the order

    bad = tmp_path / "bad.jsonl"
    bad.write_text(
        '{"id": "x", "history": [{"role": "user", "text": "hi"}], "query": "q", "evidence_indices": [3]}\n'
    )
    with pytest.raises(BadInput, match="line 1: evidence_indices"):
        load_dataset(bad)
    with pytest.raises(BadInput, match="cannot tell the format"):
        (tmp_path / "x.json").write_text("{}")
        load_dataset(tmp_path / "x.json")


def test_tally_recall_and_hit():
    tally = _Tally([1, 2, 4])
    tally.add("a", [5, 1, 7, 2], {1, 2})
    tally.add("b", [9, 8, 7, 6], {1})
    result = tally.result()
    overall = result["overall"]
    assert overall["n"] == 2
    assert overall["recall@1"] == 0.0 and overall["recall@2"] == 0.25 and overall["recall@4"] == 0.5
    assert overall["hit@2"] == 0.5 and overall["hit@4"] == 0.5
    assert result["by_category"]["a"]["recall@4"] == 1.0 and result["by_category"]["b"]["hit@4"] == 0.0


def test_retrieval_eval_on_real_stores_with_the_hash_embedder(tmp_path):
    result = evaluate_retrieval(
        load_dataset(JSONL),
        methods=("deep", "bm25", "dense", "hybrid"),
        ks=(1, 3),
        embedder="hash",
        cache_dir=tmp_path,
    )
    assert result["questions"] == 4 and result["conversations"] == 2 and result["turns"] == 8
    assert set(result["methods"]) == {"deep", "bm25", "dense", "hybrid"}
    bm25 = result["methods"]["bm25"]
    # each query shares distinctive words with its evidence turn, so BM25 ranks it first
    assert bm25["overall"]["recall@1"] == 1.0 and bm25["overall"]["hit@3"] == 1.0
    assert set(bm25["by_category"]) == {"single-hop", "update"}
    for res in result["methods"].values():
        row = res["overall"]
        assert 0.0 <= row["recall@1"] <= row["recall@3"] <= 1.0
        assert row["recall@1"] <= row["hit@1"]
    assert any(tmp_path.iterdir())  # the embedding cache is kept where asked

    lme = evaluate_retrieval(load_dataset(LME), methods=("bm25", "dense"), ks=(5,), embedder="hash", limit=2)
    assert lme["questions"] == 2 and lme["conversations"] == 1
    with pytest.raises(BadInput, match="unknown retrieval method"):
        evaluate_retrieval(load_dataset(JSONL), methods=("magic",), embedder="hash")


@pytest.mark.slow
def test_retrieval_eval_with_the_real_minilm():
    result = evaluate_retrieval(load_dataset(LME), methods=("dense", "deep"), ks=(3,), embedder="minilm")
    assert "minilm" in result["embedder"].lower()
    dense = result["methods"]["dense"]["overall"]
    # a real sentence embedder finds "adopted a beagle puppy named Biscuit" for "the name of my dog"
    assert dense["hit@3"] == 1.0
    assert result["methods"]["deep"]["overall"]["hit@3"] >= 0.5


def test_retrieval_command():
    from click.testing import CliRunner

    from bench.cli import bench

    runner = CliRunner()
    args = [
        "retrieval",
        "--data",
        str(JSONL),
        "--embedder",
        "hash",
        "--k",
        "1",
        "--k",
        "3",
        "--method",
        "bm25",
    ]
    result = runner.invoke(bench, [*args, "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["ks"] == [1, 3] and list(data["methods"]) == ["bm25"] and data["questions"] == 4
    result = runner.invoke(bench, args)
    assert result.exit_code == 0 and "recall@3" in result.stdout
    result = runner.invoke(
        bench, ["retrieval", "--data", str(LME), "--format", "jsonl", "--embedder", "hash"]
    )
    assert result.exit_code == 1 and "line 1" in result.output and "Traceback" not in result.output


def test_an_iba_suite_loads_as_retrieval_cases():
    from bench.datasets import load_dataset
    from bench.loaders import detect_format

    mini = Path(__file__).parent / "data" / "mini_suite.jsonl"
    assert detect_format(mini) == "iba"
    dataset = load_dataset(mini, limit=3)
    assert dataset.format == "iba" and 0 < dataset.questions <= 3
    for conv in dataset.conversations:
        times = [t.time for t in conv.turns]
        assert times == sorted(times)  # sessions in time order, as ingestion stores them
        for q in conv.questions:
            assert q.evidence and all(0 <= i < len(conv.turns) for i in q.evidence)
    tools = [q.tool["name"] for c in dataset.conversations for q in c.questions if q.tool]
    assert tools  # action tasks carry the tool, so deep retrieval gets its parameter facets
