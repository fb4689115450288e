"""The planner must not memorise the benchmark: it never imports the generator, and no phrase of the
generator's text (six words in a row) appears in the planner's own patterns and word lists."""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
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


def test_no_generator_phrase_appears_in_the_planner():
    generator = _grams([s for p in (ROOT / "bench" / "generator").glob("*.py") for s in _strings(p)])
    assert len(generator) > 1000  # the generator really has text to compare against
    shared = {}
    for path in sorted((ROOT / "ibachat").rglob("*.py")):
        common = _grams(_strings(path)) & generator
        if common:
            shared[str(path.relative_to(ROOT))] = sorted(" ".join(g) for g in common)[:5]
    assert not shared, f"planner text copied from the benchmark generator: {shared}"


def test_the_planner_never_imports_the_generator():
    code = "import sys, ibachat.agent.planner, ibachat.assistant; print('\\n'.join(sys.modules))"
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
    ).stdout
    assert not [m for m in out.split() if m.startswith("bench")]
