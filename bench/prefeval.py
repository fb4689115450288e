"""PrefEval (Zhao et al., ICLR 2025) as IBA-Bench action tasks.

Reads a PrefEval folder at run time (its licence forbids committing it): ``mcq_options/<topic>.json``
(four replies per question, the first respects the preference), ``explicit_preference/``,
``implicit_preference/choice-based/`` and ``implicit_preference/persona-driven/``, aligned by index.

For each pair and form the task's history holds the preference block, as its own session, among
exactly ``filler`` unrelated turns (``bench/prefeval_filler.py``), at a session position drawn by a
seeded RNG (never the last session, so some filler always follows it; sometimes the first):

- explicit: the user states the preference, the assistant acknowledges it in a generic line;
- choice: the user's query, the assistant's numbered options, the user's pick, the acknowledgement;
- persona: the whole small-talk conversation in which the preference comes up.

The prompt is the question; the task's only tool, ``respond``, has one required string parameter
whose ``enum`` is the four replies, shuffled; one ``param_in`` check expects the aligned reply.
Evidence: explicit, the preference turn; choice, the assistant's options and the user's pick;
persona, the user turn(s) sharing most content words with the preference sentence.
The filler, its times, the block's position and the option order depend on (seed, topic, pair,
filler size) only, so the three forms of a pair share them. The aligned reply takes each of the
four places once in every four pairs of a topic, so an agent that always picks one place scores
chance (0.25) exactly on any multiple of four pairs per topic.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from itertools import zip_longest
from pathlib import Path
from typing import Any

from bench.prefeval_filler import FillerSource, read_locomo, timeline
from memory.errors import BadInput

FORMS = ("explicit", "choice", "persona")
# The three topics kept out of tuning (the lead tunes on the other seven); fixed here only.
HELD_OUT = ("pet_ownership", "shop_motors", "travel_restaurant")
SPLITS = ("all", "tune", "held-out")
TOPIC_DOMAINS = {
    "education_learning_styles": "information",
    "entertain_games": "leisure",
    "entertain_shows": "leisure",
    "lifestyle_beauty": "consumption",
    "lifestyle_fit": "health",
    "pet_ownership": "planning",
    "shop_fashion": "consumption",
    "shop_motors": "transportation",
    "travel_activities": "leisure",
    "travel_restaurant": "consumption",
}
TUNE = tuple(t for t in TOPIC_DOMAINS if t not in HELD_OUT)
# a topic of the other ten (not in the development folder) by its family, else information
FAMILY_DOMAINS = {
    "education": "information",
    "entertain": "leisure",
    "lifestyle": "health",
    "pet": "planning",
    "shop": "consumption",
    "travel": "planning",
}
DEFAULT_DOMAIN = "information"
FILES = {
    "mcq": "mcq_options",
    "explicit": "explicit_preference",
    "choice": "implicit_preference/choice-based",
    "persona": "implicit_preference/persona-driven",
}
TOOL = "respond"
PARAM = "reply"
ACKS = (
    "Thanks for telling me. I'll keep that in mind.",
    "Noted, I'll remember that.",
    "Got it. I'll take that into account from now on.",
    "Understood, thanks for letting me know.",
    "Good to know. I'll bear it in mind.",
)
_STOP = set(
    "the and for with that this are was were have has had not but you your our they them their about "
    "from than rather what which when how into just also very really some any all can could would "
    "like prefer love enjoy want need much more most such been being its it's i'm i've i'd".split()
)


@dataclass
class Pair:
    """One preference/question pair of a topic, with what each requested form needs."""

    topic: str
    index: int
    question: str
    options: list[str]  # the first respects the preference
    preference: str = ""
    choice: dict[str, str] = field(default_factory=dict)
    persona: list[tuple[str, str]] = field(default_factory=list)


def domain_of(topic: str) -> str:
    if topic in TOPIC_DOMAINS:
        return TOPIC_DOMAINS[topic]
    return FAMILY_DOMAINS.get(topic.split("_")[0], DEFAULT_DOMAIN)


def split_of(topic: str) -> str:
    """``tune`` for the seven tuning topics; ``held-out`` for the three held out and for any topic
    outside the development set (never tuned on either)."""
    return "tune" if topic in TUNE else "held-out"


# ---------------------------------------------------------------- reading the folder


def _read(path: Path) -> list[dict[str, Any]]:
    try:
        data = json.loads(path.read_text("utf-8"))
    except FileNotFoundError as exc:
        raise BadInput(f"PrefEval file missing: {path}") from exc
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise BadInput(f"{path} is not JSON ({exc})") from exc
    if not isinstance(data, list) or not all(isinstance(x, dict) for x in data):
        raise BadInput(f"{path}: a PrefEval file is a JSON list of objects")
    return data


def available_topics(folder: Path | str) -> list[str]:
    folder = Path(folder)
    if not folder.is_dir():
        raise BadInput(f"no PrefEval folder at {folder}")
    topics = sorted(p.stem for p in (folder / FILES["mcq"]).glob("*.json"))
    if not topics:
        raise BadInput(f"{folder} is not a PrefEval folder: no {FILES['mcq']}/<topic>.json")
    return topics


def select_topics(folder: Path | str, topics: Iterable[str] | None = None, split: str = "all") -> list[str]:
    """The folder's topics, narrowed to ``topics`` (names) and to a split (all, tune, held-out)."""
    if split not in SPLITS:
        raise BadInput(f"unknown split {split!r} (known: {', '.join(SPLITS)})")
    have = available_topics(folder)
    chosen = have
    if topics:
        wanted = list(dict.fromkeys(topics))
        unknown = [t for t in wanted if t not in have]
        if unknown:
            raise BadInput(f"unknown PrefEval topic(s) {', '.join(unknown)} (known: {', '.join(have)})")
        chosen = [t for t in have if t in wanted]
    if split != "all":
        chosen = [t for t in chosen if split_of(t) == split]
    if not chosen:
        raise BadInput(f"no PrefEval topic left with split {split!r}")
    return chosen


def _text(row: dict[str, Any], key: str, where: str) -> str:
    value = row.get(key)
    if not isinstance(value, str) or not value.strip():
        raise BadInput(f"{where}: {key!r} missing or empty")
    return value


def read_pairs(
    folder: Path | str, topic: str, forms: Sequence[str] = FORMS, limit: int | None = None
) -> list[Pair]:
    """A topic's pairs with the fields ``forms`` need; files disagreeing in length are an error."""
    folder = Path(folder)
    mcq = _read(folder / FILES["mcq"] / f"{topic}.json")
    extra = {form: _read(folder / FILES[form] / f"{topic}.json") for form in forms}
    for form, rows in extra.items():
        if len(rows) != len(mcq):
            raise BadInput(
                f"{folder}: {FILES[form]}/{topic}.json has {len(rows)} pairs, mcq_options {len(mcq)}"
            )
    pairs = []
    for index, row in enumerate(mcq[:limit] if limit else mcq):
        where = f"{FILES['mcq']}/{topic}.json item {index}"
        options = row.get("classification_task_options")
        if not (isinstance(options, list) and len(options) == 4 and all(isinstance(o, str) for o in options)):
            raise BadInput(f"{where}: classification_task_options must be four strings")
        if len({o.strip().casefold() for o in options}) != 4:
            raise BadInput(f"{where}: the four options are not distinct")
        pair = Pair(topic, index, _text(row, "question", where), list(options))
        if "explicit" in extra:
            pair.preference = _text(extra["explicit"][index], "preference", f"explicit {topic} item {index}")
        if "choice" in extra:
            conv = extra["choice"][index].get("conversation")
            keys = ("query", "assistant_options", "user_selection", "assistant_acknowledgment")
            if not isinstance(conv, dict):
                raise BadInput(f"choice-based {topic} item {index}: no conversation")
            pair.choice = {k: _text(conv, k, f"choice-based {topic} item {index}") for k in keys}
        if "persona" in extra:
            row_p = extra["persona"][index]
            conv = row_p.get("conversation")
            where_p = f"persona-driven {topic} item {index}"
            if not isinstance(conv, dict) or not conv:
                raise BadInput(f"{where_p}: no conversation")
            try:
                order = sorted(conv, key=int)
            except ValueError as exc:
                raise BadInput(f"{where_p}: conversation keys are not turn numbers") from exc
            pair.persona = [
                (_text(conv[k], "user", where_p), _text(conv[k], "assistant", where_p)) for k in order
            ]
            pair.preference = pair.preference or _text(row_p, "preference", where_p)
        pairs.append(pair)
    return pairs


# ---------------------------------------------------------------- building tasks


def _content_words(text: str) -> set[str]:
    words = set()
    for word in re.findall(r"[a-z']+", text.lower()):
        if len(word) < 3 or word in _STOP:
            continue
        for suffix in ("ing", "ed", "es", "s"):
            if word.endswith(suffix) and len(word) - len(suffix) >= 4:
                word = word[: -len(suffix)]
                break
        words.add(word)
    return words


def persona_evidence(preference: str, users: Sequence[str]) -> list[int]:
    """Indices of the user turns sharing most content words with the preference (all when none share any)."""
    wanted = _content_words(preference)
    scores = [len(wanted & _content_words(u)) for u in users]
    best = max(scores, default=0)
    return [i for i, s in enumerate(scores) if s == best] if best else list(range(len(users)))


def preference_block(pair: Pair, form: str, rng: random.Random) -> tuple[list[dict[str, str]], list[int]]:
    """The preference session's turns and the indices of its evidence turns."""
    if form == "explicit":
        turns = [{"role": "user", "text": pair.preference}, {"role": "assistant", "text": rng.choice(ACKS)}]
        return turns, [0]
    if form == "choice":
        c = pair.choice
        turns = [
            {"role": "user", "text": c["query"]},
            {"role": "assistant", "text": c["assistant_options"]},
            {"role": "user", "text": c["user_selection"]},
            {"role": "assistant", "text": c["assistant_acknowledgment"]},
        ]
        return turns, [1, 2]
    if form == "persona":
        turns = [
            t
            for user, reply in pair.persona
            for t in ({"role": "user", "text": user}, {"role": "assistant", "text": reply})
        ]
        users = [user for user, _ in pair.persona]
        return turns, [2 * i for i in persona_evidence(pair.preference, users)]
    raise BadInput(f"unknown PrefEval form {form!r} (known: {', '.join(FORMS)})")


def aligned_slot(topic: str, index: int, seed: int) -> int:
    """Where the aligned reply goes among the four: each run of four pairs of a topic uses every
    slot once (a seeded order per run), so always picking one slot scores exactly chance."""
    slots = [0, 1, 2, 3]
    random.Random(f"prefeval-slots:{seed}:{topic}:{index // 4}").shuffle(slots)
    return slots[index % 4]


def shuffled_options(pair: Pair, seed: int, rng: random.Random) -> list[str]:
    """The four replies in a seeded order, the aligned one (the first given) at ``aligned_slot``."""
    others = list(pair.options[1:])
    rng.shuffle(others)
    others.insert(aligned_slot(pair.topic, pair.index, seed), pair.options[0])
    return others


def respond_tool(options: Sequence[str]) -> dict[str, Any]:
    return {
        "name": TOOL,
        "description": "Give the user one of these replies.",
        "parameters": {
            "type": "object",
            "properties": {
                PARAM: {"type": "string", "description": "the reply to give", "enum": list(options)}
            },
            "required": [PARAM],
            "additionalProperties": False,
        },
    }


def build_task(
    pair: Pair, form: str, filler: int, *, seed: int = 0, source: FillerSource | None = None
) -> dict[str, Any]:
    """One IBA-Bench action task for ``pair`` in ``form`` with ``filler`` unrelated turns."""
    if filler < 0:
        raise BadInput(f"filler must be 0 or more turns, got {filler}")
    source = source or FillerSource()
    pair_rng = random.Random(f"prefeval:{seed}:{pair.topic}:{pair.index}")
    options = shuffled_options(pair, seed, pair_rng)
    block, evidence_turns = preference_block(pair, form, pair_rng)
    rng = random.Random(f"prefeval:{seed}:{pair.topic}:{pair.index}:{filler}")
    sessions = source.sessions(rng, filler)
    position = rng.randrange(len(sessions)) if sessions else 0  # filler sessions after it: at least one
    sessions.insert(position, block)
    times, now = timeline(rng, len(sessions))
    history = [
        {"session_id": f"s{i:03d}", "time": when.isoformat(), "turns": turns}
        for i, (when, turns) in enumerate(zip(times, sessions, strict=True))
    ]
    sid = history[position]["session_id"]
    aligned = pair.options[0]
    task_id = f"prefeval-{pair.topic}-{form}-f{filler}-{pair.index:03d}"
    before = sum(len(s) for s in sessions[:position])
    return {
        "id": task_id,
        "suite": f"prefeval-dev-seed{seed}",
        "domain": domain_of(pair.topic),
        "scenario": f"prefeval_{pair.topic}",
        "task_type": "action",
        "now": now.isoformat(),
        "history": history,
        "task": {"prompt": pair.question, "tools": [respond_tool(options)]},
        "checks": [
            {
                "id": "aligned_reply",
                "dimension": f"prefeval.{pair.topic}",
                "kind": "param_in",
                "target": f"{TOOL}.{PARAM}",
                "expect": {"in": [aligned]},
                "dynamic": False,
                "evidence": [{"session_id": sid, "turn": t} for t in evidence_turns],
            }
        ],
        "gold": {"action": {"name": TOOL, "arguments": {PARAM: aligned}}},
        "meta": {
            "source": "prefeval",
            "topic": pair.topic,
            "form": form,
            "filler": filler,
            "pair": pair.index,
            "split": split_of(pair.topic),
            "seed": seed,
            "position": position,
            "sessions": len(history),
            "turns_before": before,
            "turns_after": filler - before,
            "aligned_index": options.index(aligned),
        },
    }


def _forms(forms: Iterable[str] | str) -> list[str]:
    chosen = (
        list(FORMS)
        if forms in ("all", ("all",), ["all"])
        else list(dict.fromkeys([forms] if isinstance(forms, str) else forms))
    )
    unknown = [f for f in chosen if f not in FORMS]
    if unknown or not chosen:
        raise BadInput(
            f"unknown PrefEval form(s) {', '.join(unknown) or '(none)'} (known: {', '.join(FORMS)}, all)"
        )
    return chosen


def iter_tasks(
    folder: Path | str,
    *,
    forms: Iterable[str] | str = FORMS,
    fillers: Iterable[int] = (50,),
    topics: Iterable[str] | None = None,
    split: str = "all",
    seed: int = 0,
    limit_per_topic: int | None = None,
    locomo: Path | str | None = None,
) -> Iterator[dict[str, Any]]:
    """Tasks for every form x filler size x topic x pair, in that order."""
    chosen_forms = _forms(forms)
    sizes = list(dict.fromkeys(fillers))
    if not sizes or any(n < 0 for n in sizes):
        raise BadInput(f"filler sizes must be 0 or more turns, got {sizes}")
    if limit_per_topic is not None and limit_per_topic < 1:
        raise BadInput(f"limit per topic must be at least 1, got {limit_per_topic}")
    chosen_topics = select_topics(folder, topics, split)
    pairs = {t: read_pairs(folder, t, chosen_forms, limit_per_topic) for t in chosen_topics}
    source = FillerSource(read_locomo(locomo) if locomo else ())
    for form in chosen_forms:
        for size in sizes:
            for topic in chosen_topics:
                for pair in pairs[topic]:
                    yield build_task(pair, form, size, seed=seed, source=source)


def write_prefeval_suite(path: Path | str, **kwargs: Any) -> dict[str, Any]:
    """Write the tasks of ``iter_tasks(**kwargs)`` as JSONL (atomically) and validate the file."""
    from bench.generator.suite import dumps
    from bench.validate import validate_suite
    from memory.atomic import commit_temp, temp_path_for

    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = temp_path_for(path)
    counts: dict[str, int] = {}
    try:
        with open(tmp, "w", encoding="utf-8") as handle:
            for task in iter_tasks(**kwargs):
                handle.write(dumps(task) + "\n")
                key = f"{task['meta']['form']}/f{task['meta']['filler']}/{task['meta']['split']}"
                counts[key] = counts.get(key, 0) + 1
        report = validate_suite(tmp)
        if not report.ok:
            raise BadInput(f"the PrefEval suite does not validate: {report.summary(first=1)}")
        commit_temp(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    return {"path": str(path), "tasks": sum(counts.values()), "counts": dict(sorted(counts.items()))}


def load_prefeval(folder: Path | str, *, limit: int | None = None, **kwargs: Any) -> Any:
    """The tasks of ``iter_tasks(folder, **kwargs)`` as a retrieval ``Dataset`` (``bench/loaders.py``):
    the question is the query, the check's evidence turns the answer, the ``respond`` tool attached,
    the form as the category; one conversation per task (each has its own history)."""
    from datetime import timedelta

    from bench.loaders import Conversation, Dataset, HistoryTurn, Question
    from memory.types import parse_time

    kwargs.setdefault("fillers", (50,))
    dataset = Dataset(Path(folder).name, "prefeval", [])
    groups: dict[tuple[Any, ...], list[dict[str, Any]]] = {}
    for task in iter_tasks(folder, **kwargs):
        groups.setdefault((task["meta"]["form"], task["meta"]["filler"], task["meta"]["topic"]), []).append(
            task
        )
    # round robin over the groups, forms innermost, so that a limit samples every form and topic
    keys = sorted(groups, key=lambda k: (k[2], k[1], FORMS.index(k[0])))
    order = [t for row in zip_longest(*(groups[k] for k in keys)) for t in row if t is not None]
    for task in order[:limit] if limit is not None else order:
        turns: list[HistoryTurn] = []
        where: dict[tuple[str, int], int] = {}
        for session in task["history"]:  # already in time order
            start = parse_time(session["time"])
            for k, turn in enumerate(session["turns"]):
                where[(session["session_id"], k)] = len(turns)
                turns.append(
                    HistoryTurn(
                        session["session_id"], start + timedelta(seconds=k), turn["role"], turn["text"]
                    )
                )
        evidence = sorted(where[(e["session_id"], e["turn"])] for e in task["checks"][0]["evidence"])
        question = Question(
            task["id"],
            task["task"]["prompt"],
            evidence,
            task["meta"]["form"],
            parse_time(task["now"]),
            task["task"]["tools"][0],
        )
        dataset.conversations.append(Conversation(task["id"], turns, [question]))
    if not dataset.conversations:
        raise BadInput(f"{folder}: no PrefEval tasks")
    return dataset
