"""Generate, write and describe a whole IBA-Bench-format suite (seeded, byte-for-byte reproducible)."""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from bench.generator.assemble import feasible, persona_tasks
from bench.generator.foreign import VARIANTS, foreign_task
from bench.generator.personas import Persona, make_personas, persona_distinctness
from bench.generator.scenarios import SCENARIOS
from memory.atomic import commit_temp, temp_path_for
from memory.errors import BadInput

SUITE_NAME = "ibachat-iba-v1"


def suite_id(seed: int) -> str:
    return f"{SUITE_NAME}/seed{seed}"


def allocate(seed: int, people: list[Persona], target: int) -> dict[str, list[str]]:
    """Deal scenarios to personas: about ``target / 66`` tasks per scenario, loads kept even."""
    rng = random.Random(f"alloc:{seed}")
    base, extra = divmod(target, len(SCENARIOS))
    loads = {p.id: 0 for p in people}
    out: dict[str, list[str]] = {p.id: [] for p in people}
    order = list(SCENARIOS)
    rng.shuffle(order)
    for index, scen in enumerate(order):
        quota = base + (index < extra)
        able = [p for p in people if feasible(p, scen)]
        rng.shuffle(able)
        able.sort(key=lambda p: loads[p.id])
        for p in able[:quota]:
            out[p.id].append(scen.name)
            loads[p.id] += 1
    return out


def generate_suite(
    seed: int = 0,
    personas: int = 400,
    *,
    target_tasks: int = 7000,
    stats: dict | None = None,
    variant: str = "canonical",
) -> Iterator[dict[str, Any]]:
    """Yield the suite's tasks, persona by persona.

    ``stats`` (if given) receives ``dropped`` (tasks a no-memory agent would pass, left out) and
    ``personas`` (their behavioural distinctness). ``variant="foreign"`` yields the same tasks with
    every tool rewritten (bench.generator.foreign); ``"foreign-fresh"`` also keeps the histories'
    past calls on the canonical tools.
    """
    if personas < 1 or target_tasks < 1:
        raise BadInput(f"personas and target_tasks must be positive, got {personas} and {target_tasks}")
    if variant not in VARIANTS:
        raise BadInput(f"unknown suite variant {variant!r}: use one of {', '.join(VARIANTS)}")
    people = make_personas(seed, personas)
    if stats is not None:
        stats["personas"] = persona_distinctness(people)
    plan = allocate(seed, people, target_tasks)
    dropped = 0
    for person in people:
        tasks, lost = persona_tasks(seed, suite_id(seed), person, plan[person.id])
        dropped += lost
        if stats is not None:
            stats["dropped"] = dropped
        if variant != "canonical":
            tasks = [foreign_task(t, past_calls=variant == "foreign") for t in tasks]
        yield from tasks


def dumps(task: dict[str, Any]) -> str:
    return json.dumps(task, ensure_ascii=False, separators=(",", ":"))


def write_suite(
    path: Path | str,
    seed: int = 0,
    personas: int = 400,
    *,
    target_tasks: int = 7000,
    variant: str = "canonical",
) -> dict[str, Any]:
    """Write the suite as JSONL (atomically); returns its statistics."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = temp_path_for(path)
    info: dict[str, Any] = {}
    tasks: list[dict[str, Any]] = []
    try:
        with open(tmp, "w", encoding="utf-8") as handle:
            for task in generate_suite(
                seed, personas, target_tasks=target_tasks, stats=info, variant=variant
            ):
                handle.write(dumps(task) + "\n")
                task["history"] = None  # keep memory small: stats need meta only
                tasks.append(task)
        commit_temp(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    stats = suite_stats(tasks)
    stats["dropped_by_memory_filter"] = info.get("dropped", 0)
    stats["personas"] = info.get("personas", {})
    stats["bytes"] = path.stat().st_size
    stats["variant"] = variant
    return stats


def suite_stats(tasks: Iterable[dict[str, Any]]) -> dict[str, Any]:
    """Counts per domain and scenario, action share, dynamic share, history sizes, cue kinds and forms."""
    domains: Counter[str] = Counter()
    scenarios: Counter[str] = Counter()
    types: Counter[str] = Counter()
    checks = dynamic = judge = 0
    turns: dict[str, int] = {}
    cue_kinds: Counter[str] = Counter()
    forms: dict[str, set[str]] = {}
    seen: set[tuple[str, str, int, str]] = set()
    phases: Counter[str] = Counter()
    count = 0
    for task in tasks:
        count += 1
        domains[task["domain"]] += 1
        scenarios[task["scenario"]] += 1
        types[task["task_type"]] += 1
        for c in task["checks"]:
            checks += 1
            dynamic += bool(c.get("dynamic"))
            judge += c["kind"] == "judge"
        meta = task.get("meta") or {}
        phases[str(meta.get("phase"))] += 1
        hid = str(meta.get("history_id", task["id"]))
        if meta.get("history_turns") is not None:
            turns[hid] = int(meta["history_turns"])
        elif task.get("history"):
            turns[hid] = sum(len(s["turns"]) for s in task["history"])
        for sid, turn, kind, dim, form in meta.get("cues", []):
            key = (hid, sid, turn, dim)
            if key in seen:
                continue
            seen.add(key)
            cue_kinds[kind] += 1
            forms.setdefault(kind, set()).add(form)
    sizes = list(turns.values())
    return {
        "tasks": count,
        "domains": dict(sorted(domains.items())),
        "scenarios": len(scenarios),
        "per_scenario": dict(sorted(scenarios.items())),
        "task_types": dict(sorted(types.items())),
        "action_fraction": round(types["action"] / count, 4) if count else 0.0,
        "checks": checks,
        "dynamic_check_fraction": round(dynamic / checks, 4) if checks else 0.0,
        "judge_checks": judge,
        "phases": dict(sorted(phases.items())),
        "histories": len(sizes),
        "history_turns_mean": round(sum(sizes) / len(sizes), 1) if sizes else 0.0,
        "history_turns_min": min(sizes, default=0),
        "history_turns_max": max(sizes, default=0),
        "cue_kinds": dict(sorted(cue_kinds.items())),
        "surface_forms": {k: len(v) for k, v in sorted(forms.items())},
    }
