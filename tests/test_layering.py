"""Imports point down only: memory <- ibachat <- bench (DESIGN.md section 2)."""

from __future__ import annotations

import subprocess
import sys

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
