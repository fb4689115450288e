"""Fixtures shared by the agent's tests."""

from __future__ import annotations

import pytest


@pytest.fixture(scope="module")
def minilm():
    """The offline MiniLM embedder's batch function (loaded once per process by the registry)."""
    from memory.embedders.registry import load_embedder

    return load_embedder("minilm").embed_batch


@pytest.fixture(scope="module")
def catalogue_tools():
    """The product's whole catalogue, as chat offers it."""
    from ibachat.agent.meaning import catalogue

    return [dict(t) for t in catalogue()]


@pytest.fixture(scope="module")
def empty_planner(tmp_path_factory):
    """A planner over an empty store with MiniLM: what a message alone routes to."""
    from ibachat.agent.planner import Planner
    from memory.memory import Memory

    memory = Memory.open(tmp_path_factory.mktemp("empty"), embedder="minilm", fsync=False)
    yield Planner(memory)
    memory.close()
