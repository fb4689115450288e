"""Deep Retrieval latency and needle recall on a 10k-turn store with the offline MiniLM embedder.

    python bench_scripts/bench_planner_retrieval.py [--turns 10000] [--cache .bench-out/planner-retrieval] [--out FILE]

Builds (once, then reuses from ``--cache``) a store of noisy chat history written from
templates, with planted preference needles; every turn is embedded by the real MiniLM
and the vectors land in the shared embedding cache, so a rerun builds nothing. Then runs
``deep_retrieve`` for ~50 tasks (half with a tool schema) and prints p50/p95 of its wall
time, per-step medians, and how many planted needles each mode brings back. No planner
model is used, so no model calls are timed. Query embeddings are cached on disk, so a
rerun finds them there; the uncached cost of embedding each task is measured separately
and reported as ``p50_ms_with_uncached_query_embedding``.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import statistics
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
# Small matrix-vector products are ~50x slower with 2 BLAS threads on a busy 2-core machine
# (2.4 ms instead of 0.05 ms for 2000x384 here); one thread is the right setting for search.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("HF_HUB_OFFLINE", "1")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from ibachat.agent.retrieval.deep import deep_retrieve  # noqa: E402
from memory.memory import Memory  # noqa: E402

HISTORY_VERSION = 2  # bump when ``history`` changes, so a cached store is not reused
NOW = datetime(2025, 9, 1, 18, 0, tzinfo=UTC)
_CHOICE = re.compile(r"\{([^{}]*)\}")

# Noise: "{a|b}" picks one option per use. Topics are everyday life, written for this benchmark.
NOISE: list[tuple[str, str]] = [
    (
        "{morning|evening}! slept {terribly|badly|great}, the neighbours had a {party|row|movie night}",
        "Oof. Coffee?",
    ),
    (
        "the {garden|balcony pots|allotment} finally {has|have} {tomatoes|beans|courgettes|chillies} coming",
        "Lovely!",
    ),
    (
        "remind me to {call my mum|pay the rent|water the plants|book the vet|renew the permit} on {Sunday|Tuesday|Friday}",
        "Reminder set.",
    ),
    (
        "my {laptop fan|fridge|boiler|dishwasher} keeps {whirring|humming|clicking|beeping}",
        "Usually harmless; check it.",
    ),
    (
        "watched a documentary about {octopuses|volcanoes|bees|deep sea fish|ancient Rome} {last night|yesterday}",
        "Fascinating.",
    ),
    (
        "need to renew the {car insurance|passport|gym card|library card} before the {12th|20th|3rd}",
        "Want a reminder?",
    ),
    (
        "how many {grams are in an ounce|cups are in a litre|feet are in a metre|miles is 10k}",
        "Here's the conversion.",
    ),
    ("the {bus|train|tram|ferry} was {late|packed|cancelled} again this {morning|evening}", "Annoying!"),
    (
        "help me word a text to the {landlord|plumber|neighbour|school} about the {leaky tap|noise|broken gate|parking}",
        "Here's a draft.",
    ),
    (
        "my {cousin|aunt|old roommate|godson} visits {soon|in June|next spring}, any {museum|park|gallery} ideas",
        "A few ideas.",
    ),
    ("finished the {1000|500|2000} piece {puzzle|jigsaw} at last", "That takes patience!"),
    (
        "put {oats|rice|lentils|flour}, {bananas|apples|pears} and {dish soap|bin bags|foil} on the list",
        "Added.",
    ),
    ("the cat knocked the {fern|mug|pen pot|lamp} off the {shelf|desk|windowsill} again", "Maybe move it?"),
    (
        "is upgrading my {phone|tablet|laptop|headphones} worth it this year",
        "If it still works, probably not.",
    ),
    ("set a timer for {ten|twenty|forty} minutes", "Timer running."),
    ("the {match|final|derby|tie-break} went to {penalties|extra time|the last minute}", "What a finish!"),
    (
        "my {sister|brother|best friend|colleague} got {engaged|a new job|a puppy|promoted}!",
        "Wonderful news.",
    ),
    ("the printer is {jammed|out of ink|offline} again", "Try restarting it."),
    ("paid the {electricity|water|phone|council tax} bill {today|this afternoon}", "Marked as done."),
    (
        "thinking of repainting the {hallway|bedroom|kitchen|study} a pale {green|blue|grey|yellow}",
        "That would look calm.",
    ),
    (
        "any tips for getting a toddler to {nap|eat greens|tidy up|brush teeth}",
        "A steady routine usually helps.",
    ),
    ("I {baked bread|made jam|brewed kombucha|pickled onions} for the first time", "How did it turn out?"),
    ("our book club is reading a {mystery|fantasy|history|sci-fi} book {soon|next}", "Sounds fun."),
    (
        "the {heating|shower|washing machine} is making a {clicking|banging|rattling} noise",
        "Could be a loose part.",
    ),
    (
        "what time does the {pharmacy|post office|library|tip} close on {Saturdays|Sundays}",
        "It closes at 5pm.",
    ),
    (
        "found a great {hiking trail|cycle path|swimming spot|picnic place} near the {lake|river|hills|coast}",
        "Nice find!",
    ),
    ("I need a birthday gift idea for my {dad|niece|boss|neighbour}", "Some ideas below."),
    ("the {wifi|electricity|water} went out for {an hour|a bit} {today|last night}", "Glad it's back."),
    (
        "can you explain {compound interest|how tides work|what an offset mortgage is|how vaccines train cells}",
        "Short version below.",
    ),
    ("made a big pot of {lentil|tomato|pea|bean} soup for the week", "Sounds hearty."),
    ("we tried the new {bakery|deli|noodle bar|taco place} on {Pine|Oak|Mill} Street", "How was it?"),
    ("picked up fresh {strawberries|cherries|peas|plums} at the market", "Perfect season."),
    ("had leftover {pasta|rice|stew|curry} for lunch again", "Easy and filling."),
    ("the {dog|cat|rabbit} needs {a vet visit|new food|a haircut} {soon|this month}", "Want me to note it?"),
    ("my {knee|back|shoulder} is a bit stiff after {gardening|the gym|moving boxes}", "Stretching may help."),
    (
        "reading about {stoicism|urban planning|bird migration|old maps} lately, it's {great|dense|fun}",
        "Nice rabbit hole.",
    ),
    ("the {meeting|standup|review} ran over by {twenty|forty} minutes {again|today}", "That's tiring."),
    (
        "what's a good word for '{happy|tired|busy|calm}' that isn't too {formal|plain}",
        "A few options below.",
    ),
    ("our {team|department} is moving to the {third|fifth} floor {next month|in the autumn}", "Big change!"),
    ("I lost my {umbrella|gloves|scarf|keys} {again|on the bus}", "Oh no."),
]

# Needles: (user text, days before NOW, the task that needs it, tool name or None).
NEEDLES: list[tuple[str, float, str, str | None]] = [
    (
        "actually no, put me by the window, I hate being stuck in the aisle seat",
        25,
        "book a flight to Lisbon for the summit",
        "book_flight",
    ),
    (
        "had a molar taken out on Tuesday, the dentist says nothing crunchy or spicy for ten days",
        4,
        "order dinner for tonight",
        "order_food",
    ),
    (
        "I've gone vegetarian, no meat for me anymore",
        30,
        "book a table for my anniversary dinner",
        "book_restaurant",
    ),
    (
        "please keep any emails to my manager short and formal, no emojis",
        80,
        "draft an email to my manager about the budget",
        None,
    ),
    (
        "no, not the Marlow hotel again, the walls were paper thin",
        45,
        "find me a hotel in Manchester for the conference",
        "book_hotel",
    ),
    (
        "from now on I take my coffee with oat milk, dairy upsets my stomach",
        12,
        "order my usual coffee for pickup",
        "order_coffee",
    ),
    (
        "my ankle is sprained so I can't do stairs or long walks for a couple of weeks",
        6,
        "plan a day out in the city this weekend",
        None,
    ),
    (
        "I prefer taxis with plenty of legroom, I'm tall and hate being cramped",
        120,
        "get me a ride to the airport tomorrow morning",
        "book_ride",
    ),
    (
        "I'm pregnant, so please steer me away from sushi and soft cheese",
        20,
        "order sushi for the office party",
        "order_food",
    ),
    (
        "summaries for me should be bullet points, never long paragraphs",
        150,
        "summarise this article about the housing market",
        None,
    ),
]

STALE: list[tuple[str, float]] = [
    ("I always sit on the aisle when I fly, easier to get up", 400),
    ("I love really fiery food, the hotter the better", 500),
    ("a big steak is my favourite treat", 380),
    ("I take my coffee with whole milk, no sugar", 420),
    ("I usually walk everywhere, love a long stroll", 300),
]

TOOLS: dict[str, dict[str, Any]] = {
    "book_flight": {
        "seat": ["aisle", "window", "middle"],
        "cabin": ["economy", "premium", "business"],
        "departure_time": ["morning", "afternoon", "evening"],
    },
    "order_food": {
        "cuisine": None,
        "spice_level": ["mild", "medium", "hot"],
        "texture": ["soft", "regular", "crunchy"],
    },
    "book_restaurant": {
        "cuisine": None,
        "party_size": None,
        "seating": ["indoor", "outdoor", "quiet corner"],
    },
    "book_hotel": {
        "city": None,
        "hotel_name": None,
        "room_type": ["single", "double", "suite"],
        "quiet_room": ["yes", "no"],
    },
    "order_coffee": {
        "drink": ["latte", "flat white", "americano"],
        "milk": ["whole", "skimmed", "oat", "soy"],
        "size": ["small", "medium", "large"],
    },
    "book_ride": {"vehicle": ["standard", "xl", "executive"], "pickup_time": None},
}

FREE_ARGS = {
    "cuisine": "{thai|italian|mexican|lebanese|japanese|indian|greek}",
    "party_size": "{two|three|four|six}",
    "city": "{Leeds|Porto|Bristol|Lyon|Ghent|York}",
    "hotel_name": "{the Crown|Harbour Inn|Park View|the Mill}",
    "pickup_time": "{7am|9am|noon|4pm|6pm|11pm}",
}

TASKS_EXTRA: list[tuple[str, str | None]] = [
    ("what's the capital of Peru?", None),
    ("explain how a transistor amplifies a signal", None),
    ("write a birthday message for my niece", None),
    ("plan my meals for next week", None),
    ("suggest a podcast for my commute", None),
    ("book a train to Edinburgh on Friday", "book_flight"),
    ("order groceries for the weekend", "order_food"),
    ("reserve a table for two on Saturday", "book_restaurant"),
    ("find a cheap hotel near the station", "book_hotel"),
    ("get me a flat white", "order_coffee"),
    ("schedule a taxi to the dentist", "book_ride"),
    ("write a thank-you note to my neighbour", None),
    ("help me pick a gift for my dad", None),
    ("draft a complaint about the late train", None),
    ("what should I cook tonight?", "order_food"),
    ("find a flight to Rome in October", "book_flight"),
    ("book a hotel in Paris for a weekend", "book_hotel"),
    ("order a pizza for the kids", "order_food"),
    ("reply to my landlord about the tap", None),
    ("summarise my week", None),
    ("recommend a hike for Sunday", None),
    ("order lunch for the team meeting", "order_food"),
    ("book dinner with my sister", "book_restaurant"),
    ("get a ride home from the concert", "book_ride"),
    ("make a shopping list for a picnic", None),
    ("write a short bio for the conference", None),
    ("translate 'good morning' into Spanish", None),
    ("set up a reminder to renew my passport", None),
    ("find a quiet café to work from", None),
    ("plan a trip to the coast", "book_flight"),
    ("order coffee for the meeting", "order_coffee"),
    ("how do I fix a dripping tap?", None),
    ("draft a note to the school about the trip", None),
    ("order a birthday cake", "order_food"),
    ("book a room for my parents' visit", "book_hotel"),
    ("what's a good stretch for a stiff back?", None),
    ("write a toast for my brother's wedding", None),
    ("order noodles for delivery", "order_food"),
    ("book a ride to the office", "book_ride"),
    ("find a vegetarian recipe for guests", None),
]


def tool_schema(name: str) -> dict[str, Any]:
    props: dict[str, Any] = {}
    for param, values in TOOLS[name].items():
        prop: dict[str, Any] = {"type": "string", "description": param.replace("_", " ")}
        if values:
            prop["enum"] = values
        props[param] = prop
    return {
        "name": name,
        "description": name.replace("_", " "),
        "parameters": {"type": "object", "properties": props},
    }


def fill(rng: random.Random, text: str) -> str:
    return _CHOICE.sub(lambda m: rng.choice(m.group(1).split("|")), text)


def history(turns: int, seed: int) -> list[dict[str, Any]]:
    """``turns`` turns over two years: noise sessions, past tool calls, stale habits, needles."""
    rng = random.Random(seed)
    recs: list[dict[str, Any]] = []

    def add(sid: str, role: str, text: str, when: datetime, call: dict[str, Any] | None = None) -> None:
        rec: dict[str, Any] = {"session_id": sid, "role": role, "text": text, "time": when}
        if call:
            rec["tool_call"] = call
        recs.append(rec)

    for i, (text, days, _, _) in enumerate(NEEDLES):
        when = NOW - timedelta(days=days)
        add(f"needle-{i}", "assistant", "Shall I go ahead with the usual choice?", when)
        add(f"needle-{i}", "user", text, when + timedelta(minutes=1))
        add(f"needle-{i}", "assistant", "Understood, noted for next time.", when + timedelta(minutes=2))
    for i, (text, days) in enumerate(STALE):
        add(f"stale-{i}", "user", text, NOW - timedelta(days=days))
    tool_names = list(TOOLS)
    session = 0
    while len(recs) < turns:
        session += 1
        when = NOW - timedelta(days=rng.uniform(1, 730), hours=rng.uniform(0, 12))
        sid = f"s{session}"
        if rng.random() < 0.06:
            name = rng.choice(tool_names)
            args = {p: rng.choice(v) if v else fill(rng, FREE_ARGS[p]) for p, v in TOOLS[name].items()}
            ask = fill(rng, "{please|can you|could you} {sort out|do|handle} ") + name.replace("_", " ")
            add(sid, "user", f"{ask}: " + ", ".join(str(v) for v in args.values()), when)
            add(
                sid,
                "tool",
                f"{name}: " + ", ".join(f"{k}={v}" for k, v in args.items()),
                when + timedelta(minutes=1),
                {"name": name, "arguments": args},
            )
            continue
        for j, (user, assistant) in enumerate(rng.sample(NOISE, rng.randint(1, 4))):
            add(sid, "user", fill(rng, user), when + timedelta(minutes=2 * j))
            add(sid, "assistant", fill(rng, assistant), when + timedelta(minutes=2 * j + 1))
    recs = recs[:turns]
    recs.sort(key=lambda r: (r["session_id"], r["time"]))  # sessions stored whole, as an import would
    return recs


def open_store(cache: Path, turns: int, seed: int) -> Memory:
    """The benchmark store under ``cache`` (built on first use; embeddings cached there too)."""
    home = cache / f"store-{turns}-{seed}-v{HISTORY_VERSION}"
    mem = Memory.open(home, embedder="minilm", cache_dir=cache / "embeddings", fsync=False)
    if len(mem) != turns:
        if len(mem):
            raise SystemExit(f"{home} holds {len(mem)} turns, not {turns}: delete it and rerun")
        recs = history(turns, seed)
        start = time.perf_counter()
        for i in range(0, len(recs), 500):
            mem.add_turns(recs[i : i + 500])
            print(f"  stored {min(i + 500, len(recs))}/{len(recs)} turns", file=sys.stderr)
        mem.save_indexes()
        print(f"built {turns} turns in {time.perf_counter() - start:.0f} s", file=sys.stderr)
    return mem


def rank_of(evidence: Any, text: str) -> int | None:
    """1-based rank of ``text`` in the evidence, None when missing."""
    return next((i + 1 for i, item in enumerate(evidence.items) if item.turn.text == text), None)


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q / 100 * (len(ordered) - 1))))]


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--turns", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--cache", type=Path, default=ROOT / ".bench-out" / "planner-retrieval")
    parser.add_argument("--budget", type=int, default=12)
    parser.add_argument("--out", type=Path, help="also write the figures as JSON here")
    args = parser.parse_args()
    mem = open_store(args.cache, args.turns, args.seed)
    tasks = [(task, tool) for _, _, task, tool in NEEDLES] + TASKS_EXTRA
    deep_retrieve(mem, "warm up the indexes", now=NOW)  # loads the model and indexes
    totals: list[float] = []
    cpu: list[float] = []  # process CPU time: what a busy shared machine does not inflate
    uncached: list[float] = []  # the task's query embedding, computed by the model every time
    steps: dict[str, list[float]] = {}
    needle_ranks: dict[str, dict[str, int | None]] = {}
    empty: list[str] = []
    for task, tool in tasks:
        schema = tool_schema(tool) if tool else None
        start = time.perf_counter()
        mem.embedder.embed_batch([task])
        uncached.append((time.perf_counter() - start) * 1000)
        start, cpu_start = time.perf_counter(), time.process_time()
        ev = deep_retrieve(mem, task, now=NOW, tool=schema, budget=args.budget)
        totals.append((time.perf_counter() - start) * 1000)
        cpu.append((time.process_time() - cpu_start) * 1000)
        for step, ms in ev.stats["ms"].items():
            steps.setdefault(step, []).append(ms)
        if not ev.items:
            empty.append(task)
        needle = next((text for text, _, t, _ in NEEDLES if t == task), None)
        if needle:
            single = deep_retrieve(mem, task, now=NOW, budget=args.budget, mode="single")
            needle_ranks[task] = {"deep": rank_of(ev, needle), "single": rank_of(single, needle)}
    no_embed = [t - e for t, e in zip(totals, steps["embed"], strict=True)]
    fresh = [t + u for t, u in zip(no_embed, uncached, strict=True)]
    report = {
        "turns": len(mem),
        "tasks": len(tasks),
        "with_tool": sum(1 for _, tool in tasks if tool),
        "budget": args.budget,
        "p50_ms": round(statistics.median(totals), 1),
        "p95_ms": round(pct(totals, 95), 1),
        "cpu_p50_ms": round(statistics.median(cpu), 1),
        "cpu_p95_ms": round(pct(cpu, 95), 1),
        "p50_ms_with_uncached_query_embedding": round(statistics.median(fresh), 1),
        "p95_ms_with_uncached_query_embedding": round(pct(fresh, 95), 1),
        "p50_ms_without_query_embedding": round(statistics.median(no_embed), 1),
        "p95_ms_without_query_embedding": round(pct(no_embed, 95), 1),
        "step_p50_ms": {step: round(statistics.median(v), 2) for step, v in steps.items()},
        "needles_found": {
            mode: f"{sum(r[mode] is not None for r in needle_ranks.values())}/{len(NEEDLES)}"
            for mode in ("deep", "single")
        },
        "needle_rank": needle_ranks,
        "empty_evidence": empty,
        "embedding_cache": dict(mem.cache.stats),
    }
    mem.close()
    print(json.dumps(report, indent=2))
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
