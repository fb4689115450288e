"""IBA-Bench-format suite generator: personas, scenarios, noisy histories, checks, statistics."""

from __future__ import annotations

from bench.generator.personas import Persona, make_personas, persona_distinctness
from bench.generator.suite import SUITE_NAME, generate_suite, suite_id, suite_stats, write_suite
from bench.generator.tasks import baseline_output, no_memory_baseline

__all__ = [
    "SUITE_NAME",
    "Persona",
    "baseline_output",
    "generate_suite",
    "make_personas",
    "no_memory_baseline",
    "persona_distinctness",
    "suite_id",
    "suite_stats",
    "write_suite",
]
