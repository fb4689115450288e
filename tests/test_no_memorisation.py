"""The planner must not memorise the benchmark: it never imports the generator, and no phrase of the
generator's text, nor of the PrefEval files when they are at ../shared/data (six words in a row),
appears in the planner's own patterns and word lists."""

from __future__ import annotations

import ast
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
PREFEVAL = ROOT.parent / "shared" / "data" / "prefeval-dev"
N = 6
# Sequences that any English code shares (counting, days, months) are not phrasing.
COMMON = set(
    "one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen twenty thirty "
    "monday tuesday wednesday thursday friday saturday sunday january february march april may june july "
    "august september october november december".split()
)


def _strings(path: Path) -> list[str]:
    tree = ast.parse(path.read_text("utf-8"))
    return [
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str)
    ]


def _grams(texts: list[str]) -> set[tuple[str, ...]]:
    grams: set[tuple[str, ...]] = set()
    for text in texts:
        words = re.findall(r"[a-z']+", text.lower())
        grams.update(
            gram for i in range(len(words) - N + 1) if not set(gram := tuple(words[i : i + N])) <= COMMON
        )
    return grams


def _shared_with(grams: set[tuple[str, ...]]) -> dict[str, list[str]]:
    """Per module of ``ibachat/``, the first few of its six-word phrases that are in ``grams``."""
    shared = {}
    for path in sorted((ROOT / "ibachat").rglob("*.py")):
        common = _grams(_strings(path)) & grams
        if common:
            shared[str(path.relative_to(ROOT))] = sorted(" ".join(g) for g in common)[:5]
    return shared


def test_no_generator_phrase_appears_in_the_planner():
    generator = _grams([s for p in (ROOT / "bench" / "generator").glob("*.py") for s in _strings(p)])
    assert len(generator) > 1000  # the generator really has text to compare against
    shared = _shared_with(generator)
    assert not shared, f"planner text copied from the benchmark generator: {shared}"


def _json_strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in _json_strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in _json_strings(v)]
    return []


@pytest.mark.skipif(not PREFEVAL.is_dir(), reason="the PrefEval files are not at ../shared/data/prefeval-dev")
def test_no_prefeval_phrase_appears_in_the_planner():
    texts = [
        s for p in sorted(PREFEVAL.rglob("*.json")) for s in _json_strings(json.loads(p.read_text("utf-8")))
    ]
    prefeval = _grams(texts)
    assert len(prefeval) > 10000  # the files really have text to compare against
    shared = _shared_with(prefeval)
    assert not shared, f"planner text copied from PrefEval: {shared}"


def test_the_planner_never_imports_the_generator():
    code = "import sys, ibachat.agent.planner, ibachat.assistant; print('\\n'.join(sys.modules))"
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
    ).stdout
    assert not [m for m in out.split() if m.startswith("bench")]


def test_the_product_names_no_scenario_of_the_generator():
    """A scenario is the benchmark's; the product's tools and words are its own (issue 22). A scenario
    named after the product's own tool ("save_note") is the generator borrowing the tool's name."""
    code = (
        "import json; from bench.generator.scenarios import SCENARIOS; "
        "print(json.dumps(sorted(s.name for s in SCENARIOS)))"
    )
    names = set(
        json.loads(
            subprocess.run(
                [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
            ).stdout
        )
    )
    from ibachat.agent.execution.tools import REGISTRY

    theirs = names - set(REGISTRY)
    assert len(theirs) > 20  # the generator's scenarios were read
    found = {}
    for path in sorted((ROOT / "ibachat").rglob("*")):
        if path.suffix not in (".py", ".json"):
            continue
        said = (
            set(_strings(path))
            if path.suffix == ".py"
            else set(re.findall(r'"([^"]+)"', path.read_text("utf-8")))
        )
        if said & theirs:
            found[str(path.relative_to(ROOT))] = sorted(said & theirs)
    assert found == {}
