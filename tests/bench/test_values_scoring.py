"""The values bench's scoring: a value is judged by what it means, not how it is spelled."""

from __future__ import annotations

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _script():
    spec = importlib.util.spec_from_file_location("bench_values", ROOT / "bench_scripts" / "bench_values.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_time_with_or_without_its_zone_is_one_moment_and_another_hour_is_not():
    matches = _script().matches
    assert matches("2026-12-02T05:00:00+00:00", "2026-12-02T05:00:00")
    assert matches("2026-12-02T05:00:00+00:00", "2026-12-02T05:00:00Z")
    assert not matches("2026-12-02T05:00:00+00:00", "2026-12-02T06:00:00")
    assert not matches("2026-12-02T05:00:00+01:00", "2026-12-02T05:00:00")  # another zone: another moment


def test_strings_lists_and_choices_are_judged_by_their_words():
    matches = _script().matches
    assert matches("The Ivy", "ivy")
    assert matches(["b", "a"], ["a", "b"])
    assert matches("window", {"any_of": ["aisle", "window"]})
    assert not matches("middle", "window")
