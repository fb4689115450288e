"""Imports point down only: memory <- ibachat <- bench (DESIGN.md section 2)."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

MEMORY_MODULES = [
    "memory",
    "memory.memory",
    "memory.store",
    "memory.vector",
    "memory.lexical",
    "memory.ledger",
    "memory.embedders.registry",
    "memory.embedders.flag",
    "memory.jsonl",
]


def _loaded_after(module: str) -> set[str]:
    code = f"import importlib, sys; importlib.import_module({module!r}); print('\\n'.join(sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    return {name.split(".")[0] for name in out.split()}


@pytest.mark.parametrize("module", MEMORY_MODULES)
def test_memory_imports_neither_ibachat_bench_nor_textual(module):
    loaded = _loaded_after(module)
    assert not loaded & {"ibachat", "bench", "textual"}, module


@pytest.mark.parametrize("module", ["ibachat.cli", "ibachat.agent.planner", "ibachat.llm.select"])
def test_ibachat_does_not_import_bench(module):
    assert "bench" not in _loaded_after(module)


def test_cli_help_path_does_not_import_torch():
    loaded = _loaded_after("ibachat.cli")
    assert not loaded & {"torch", "FlagEmbedding", "transformers", "xllamacpp", "usearch", "textual"}


# ---------------------------------------------------------------- no import circles (issue 22)

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("ibachat", "memory", "bench")
# Loops that exist only in annotations (``if TYPE_CHECKING:``): a helper module typed with the class
# whose methods it carries out (Memory's forgetting, import, repair and donor indexes; the TUI
# screen's ``app``). Nothing runs through them; any other loop fails below.
TYPE_ONLY = [
    {"memory.forget", "memory.importer", "memory.indexed", "memory.memory", "memory.repair", "memory.store"},
    {"ibachat.tui.app", "ibachat.tui.screens.memory_screen"},
]


def _modules() -> dict[str, Path]:
    out = {}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts = parts[:-1]
            out[".".join(parts)] = path
    return out


def _imports(types_too: bool) -> dict[str, set[str]]:
    """module -> the modules of the tree it imports anywhere in its text (at the top, inside a
    function, or, with ``types_too``, under ``if TYPE_CHECKING:``)."""
    mods = _modules()

    def owner(name: str) -> str | None:
        while name and name not in mods:
            name = name.rpartition(".")[0]
        return name or None

    edges: dict[str, set[str]] = {m: set() for m in mods}
    for module, path in mods.items():
        tree = ast.parse(path.read_text("utf-8"))
        typing_only: set[int] = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
                typing_only |= {id(n) for n in ast.walk(node)}
        package = module if path.name == "__init__.py" else module.rpartition(".")[0]
        for node in ast.walk(tree):
            if not isinstance(node, (ast.Import, ast.ImportFrom)) or (
                id(node) in typing_only and not types_too
            ):
                continue
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            else:
                base = node.module or ""
                if node.level:
                    parts = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                    base = ".".join([*parts, base] if base else parts)
                names = [f"{base}.{a.name}" for a in node.names] or [base]
            edges[module] |= {o for n in names if (o := owner(n)) and o != module}
    return edges


def _circles(edges: dict[str, set[str]]) -> list[set[str]]:
    """The strongly connected groups of more than one module (Tarjan's algorithm, iteratively)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[set[str]] = []
    for root in edges:
        if root in index:
            continue
        work = [(root, iter(sorted(edges[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on.add(root)
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = len(index)
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(edges[w]))))
                elif w in on:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                group = set()
                while True:
                    w = stack.pop()
                    on.discard(w)
                    group.add(w)
                    if w == v:
                        break
                if len(group) > 1:
                    out.append(group)
    return out


def test_no_module_imports_itself_through_others():
    assert _circles(_imports(types_too=False)) == []


def test_loops_through_annotations_are_only_the_known_ones():
    assert sorted(map(sorted, _circles(_imports(types_too=True)))) == sorted(map(sorted, TYPE_ONLY))


def test_the_circle_finder_finds_a_circle():
    assert _circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [{"a", "b", "c"}]
    assert _circles({"a": {"b"}, "b": set()}) == []


# ------------------------------------------------------- which stage may import which (issue 22)

# The agent's stages in the order a message goes through them: a module may import its own stage and
# those before it, never one after. ``meaning`` (texts of tools and parameters, and the vectors of
# them) serves alignment and execution alike and sits just above the data.
AGENT_STAGES = {
    "data": 0,
    "types": 0,
    "meaning": 1,
    "reading": 2,
    "retrieval": 3,
    "alignment": 4,
    "execution": 5,
    "planner": 6,
    "ingest": 7,  # stores turns and reads their events with the planner's reading
}
# The one known edge against the order: the product's catalogue still lives with the mock tools that
# carry it out (execution/tools.py), and ``meaning.catalogue`` reads it inside the function. Moving the
# catalogue down, as data, is issue 22's split of execution/tools.py.
AGENT_EXCEPTIONS = {("ibachat.agent.meaning", "ibachat.agent.execution.tools")}
# The benchmark's modules: results, then what judges them, what runs them, what reports them, the CLI.
BENCH_STAGES = {
    "__init__": 0,
    "results": 0,
    "judges": 1,
    "evaluate": 2,
    "generator": 3,
    "validate": 3,
    "agents": 3,
    "loaders": 3,
    "schema": 3,
    "worker": 4,
    "prefeval_filler": 4,
    "retrieval_eval": 4,
    "prefeval": 5,
    "executor_ray": 5,
    "report": 5,
    "datasets": 6,
    "runner": 6,
    "cli": 7,
}


def _stage_of(module: str) -> tuple[str, int] | None:
    parts = module.split(".")
    if parts[:2] == ["ibachat", "agent"] and len(parts) > 2:
        return "agent", AGENT_STAGES[parts[2]]
    if parts[0] == "bench":
        return "bench", BENCH_STAGES[parts[1] if len(parts) > 1 else "__init__"]
    return None


def _against_the_order(edges: dict[str, set[str]]) -> list[tuple[str, str]]:
    out = []
    for a, targets in edges.items():
        here = _stage_of(a)
        for b in targets:
            there = _stage_of(b)
            if here and there and here[0] == there[0] and there[1] > here[1]:
                out.append((a, b))
    return sorted(out)


def test_every_agent_and_bench_module_has_a_stage():
    for module in _modules():
        parts = module.split(".")
        if parts[:2] == ["ibachat", "agent"] and len(parts) > 2:
            assert parts[2] in AGENT_STAGES, module
        elif parts[0] == "bench" and len(parts) > 1:
            assert parts[1] in BENCH_STAGES, module


def test_no_stage_imports_a_later_one():
    assert set(_against_the_order(_imports(types_too=False))) == AGENT_EXCEPTIONS


def test_the_stage_check_finds_an_import_against_the_order():
    edges = {"ibachat.agent.reading.acts": {"ibachat.agent.execution.router"}, "bench.results": {"bench.cli"}}
    assert _against_the_order(edges) == [
        ("bench.results", "bench.cli"),
        ("ibachat.agent.reading.acts", "ibachat.agent.execution.router"),
    ]
