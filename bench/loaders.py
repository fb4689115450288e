"""Long-history datasets with turn-level evidence labels, in one shape for retrieval evaluation.

Formats: LoCoMo (the zip of one JSON per conversation, or the single-file ``locomo10.json``
list), LongMemEval (a JSON list of items with ``haystack_sessions``), and plain ``jsonl``
(one case a line: ``{"id", "history": [{"session", "time", "role", "text"}], "query",
"evidence_indices"}``, optional ``category`` and ``now``; ``time`` may be null), and ``iba``:
an IBA-Bench suite, each task's prompt a question whose evidence is its checks' evidence turns;
and ``prefeval``: a PrefEval folder, built into tasks by ``bench/prefeval.py``.
"""

from __future__ import annotations

import hashlib
import json
import re
import zipfile
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from memory.errors import BadInput
from memory.types import ROLES, parse_time

FORMATS = ("locomo", "longmemeval", "jsonl", "iba", "prefeval")
LOCOMO_CATEGORIES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop", 5: "adversarial"}
_BASE_TIME = datetime(2000, 1, 1, tzinfo=UTC)


@dataclass
class HistoryTurn:
    session: str
    time: datetime
    role: str
    text: str


@dataclass
class Question:
    id: str
    query: str
    evidence: list[int]  # indices into the conversation's turns
    category: str | None = None
    now: datetime | None = None
    tool: dict[str, Any] | None = None  # the tool an action task is about to call (IBA suites)


@dataclass
class Conversation:
    """One history; its questions share one memory store."""

    id: str
    turns: list[HistoryTurn]
    questions: list[Question] = field(default_factory=list)

    def default_now(self) -> datetime:
        return max((t.time for t in self.turns), default=_BASE_TIME) + timedelta(days=1)


@dataclass
class Dataset:
    name: str
    format: str
    conversations: list[Conversation]
    skipped: dict[str, int] = field(default_factory=dict)  # reason -> count

    @property
    def questions(self) -> int:
        return sum(len(c.questions) for c in self.conversations)

    def skip(self, reason: str, count: int = 1) -> None:
        if count:
            self.skipped[reason] = self.skipped.get(reason, 0) + count


# ---------------------------------------------------------------- LoCoMo

_DIA = re.compile(r"D:?(\d+):(\d+)")
_LOCOMO_TIME = re.compile(
    r"(\d{1,2}):(\d{2})\s*([ap]m)\s+on\s+(\d{1,2})\s+([A-Za-z]+),?\s+(\d{4})", re.IGNORECASE
)


def normalize_dia_ids(raw: Iterable[Any]) -> list[str]:
    """``["D8:6; D9:17", "D:11:26", "D30:05"]`` -> ``["D8:6", "D9:17", "D11:26", "D30:5"]``; junk is dropped."""
    out: list[str] = []
    for entry in raw:
        for token in re.split(r"[;,\s]+", str(entry)):
            match = _DIA.fullmatch(token.strip())
            if match:
                dia = f"D{int(match.group(1))}:{int(match.group(2))}"
                if dia not in out:
                    out.append(dia)
    return out


def parse_locomo_time(text: str) -> datetime:
    """``"1:56 pm on 8 May, 2023"`` as an aware UTC datetime."""
    match = _LOCOMO_TIME.search(text or "")
    if not match:
        raise BadInput(f"unreadable LoCoMo session time {text!r}")
    hour, minute, half, day, month, year = match.groups()
    parsed = datetime.strptime(f"{day} {month[:3].title()} {year}", "%d %b %Y")
    hour_24 = int(hour) % 12 + (12 if half.lower() == "pm" else 0)
    return parsed.replace(hour=hour_24, minute=int(minute), tzinfo=UTC)


def _locomo_conversation(obj: dict[str, Any], fallback_id: str, dataset: Dataset) -> Conversation:
    body = obj.get("conversation", obj)  # single-file layout nests the sessions
    conv_id = str(obj.get("sample_id") or fallback_id)
    numbers = sorted(int(m.group(1)) for k in body if (m := re.fullmatch(r"session_(\d+)", k)))
    turns: list[HistoryTurn] = []
    where: dict[str, int] = {}
    for n in numbers:
        start = parse_locomo_time(str(body.get(f"session_{n}_date_time", "")))
        for k, turn in enumerate(body[f"session_{n}"] or []):
            text = str(turn.get("text", ""))
            if not text.strip():
                continue
            dia = normalize_dia_ids([turn.get("dia_id", "")])
            if dia:
                where[dia[0]] = len(turns)
            # Both speakers are people speaking for themselves (user turns); who said it is part of
            # the turn, as in a chat log, since the questions name the speakers. A shared photo's
            # caption is part of what was said.
            speaker = str(turn.get("speaker") or "").strip()
            caption = str(turn.get("blip_caption") or "").strip()
            said = (
                (f"{speaker}: " if speaker else "")
                + text
                + (f" [shared a photo: {caption}]" if caption else "")
            )
            turns.append(HistoryTurn(f"{conv_id}-s{n}", start + timedelta(seconds=k), "user", said))
    conv = Conversation(conv_id, turns)
    for index, qa in enumerate(obj.get("qa") or []):
        wanted = normalize_dia_ids(qa.get("evidence") or [])
        evidence = [where[d] for d in wanted if d in where]
        dataset.skip("evidence ids not in the conversation", len(wanted) - len(evidence))
        if not evidence:
            dataset.skip("questions without turn-level evidence")
            continue
        category = qa.get("category")
        conv.questions.append(
            Question(
                f"{conv_id}:q{index}",
                str(qa.get("question", "")),
                evidence,
                LOCOMO_CATEGORIES.get(category, str(category)) if category is not None else None,
            )
        )
    return conv


def _json_objects_from_zip(path: Path) -> Iterator[tuple[str, Any]]:
    with zipfile.ZipFile(path) as archive:
        for name in sorted(archive.namelist()):
            if name.endswith(".json") and not name.startswith("__MACOSX"):
                try:
                    yield Path(name).stem, json.loads(archive.read(name))
                except (json.JSONDecodeError, UnicodeDecodeError) as exc:
                    raise BadInput(f"{path}:{name} is not JSON ({exc})") from exc


def load_locomo(path: Path | str) -> Dataset:
    path = Path(path)
    dataset = Dataset(path.stem, "locomo", [])
    if zipfile.is_zipfile(path):
        sources = list(_json_objects_from_zip(path))
    elif path.is_dir():
        sources = [(p.stem, _read_json(p)) for p in sorted(path.glob("*.json"))]
    else:
        sources = [(path.stem, _read_json(path))]
    for stem, data in sources:
        items = data if isinstance(data, list) else [data]
        for index, obj in enumerate(items):
            if not isinstance(obj, dict):
                raise BadInput(f"{path}: a LoCoMo conversation must be an object, got {type(obj).__name__}")
            fallback = stem if len(items) == 1 else f"{stem}-{index}"
            dataset.conversations.append(_locomo_conversation(obj, fallback, dataset))
    if not dataset.conversations:
        raise BadInput(f"{path}: no LoCoMo conversations found")
    return dataset


# ---------------------------------------------------------------- LongMemEval

_LME_TIME = re.compile(r"(\d{4})/(\d{2})/(\d{2})(?:\s*\([A-Za-z]+\))?\s*(\d{1,2}):(\d{2})")


def parse_longmemeval_time(text: str) -> datetime:
    """``"2023/05/20 (Sat) 02:21"`` (or ISO-8601) as an aware UTC datetime."""
    match = _LME_TIME.search(text or "")
    if match:
        year, month, day, hour, minute = (int(g) for g in match.groups())
        return datetime(year, month, day, hour, minute, tzinfo=UTC)
    try:
        return parse_time(text)
    except (TypeError, ValueError) as exc:
        raise BadInput(f"unreadable LongMemEval date {text!r}") from exc


def load_longmemeval(path: Path | str) -> Dataset:
    path = Path(path)
    data = _read_json(path)
    if not isinstance(data, list):
        raise BadInput(f"{path}: LongMemEval data is a JSON list of items")
    dataset = Dataset(path.stem, "longmemeval", [])
    by_history: dict[str, Conversation] = {}
    for index, item in enumerate(data):
        try:
            sessions, ids, dates = (
                item["haystack_sessions"],
                item["haystack_session_ids"],
                item["haystack_dates"],
            )
            qid, question = str(item["question_id"]), str(item["question"])
        except (KeyError, TypeError) as exc:
            raise BadInput(f"{path}: item {index} lacks {exc} (LongMemEval layout)") from exc
        if not (len(sessions) == len(ids) == len(dates)):
            raise BadInput(f"{path}: item {qid}: haystack sessions, ids and dates differ in length")
        turns: list[HistoryTurn] = []
        evidence: list[int] = []
        for session, sid, date in zip(sessions, ids, dates, strict=True):
            start = parse_longmemeval_time(str(date))
            for k, turn in enumerate(session):
                role = str(turn.get("role", "user"))
                if role not in ROLES:
                    raise BadInput(f"{path}: item {qid}: unknown role {role!r}")
                if turn.get("has_answer") is True:
                    evidence.append(len(turns))
                turns.append(
                    HistoryTurn(str(sid), start + timedelta(seconds=k), role, str(turn.get("content", "")))
                )
        if not evidence:
            dataset.skip("questions without turn-level evidence")
            continue
        now = parse_longmemeval_time(str(item["question_date"])) if item.get("question_date") else None
        conv = _shared(by_history, dataset, qid, turns)
        conv.questions.append(Question(qid, question, evidence, item.get("question_type"), now))
    return dataset


# ---------------------------------------------------------------- jsonl


def load_jsonl(path: Path | str) -> Dataset:
    path = Path(path)
    dataset = Dataset(path.stem, "jsonl", [])
    by_history: dict[str, Conversation] = {}
    with open(path, encoding="utf-8") as handle:
        for number, line in enumerate(handle, 1):
            if not line.strip():
                continue
            try:
                case = json.loads(line)
                history, query, wanted = case["history"], str(case["query"]), case["evidence_indices"]
            except json.JSONDecodeError as exc:
                raise BadInput(f"{path} line {number}: not JSON ({exc.msg})") from exc
            except (KeyError, TypeError) as exc:
                raise BadInput(
                    f"{path} line {number}: a case needs history, query and evidence_indices"
                ) from exc
            turns: list[HistoryTurn] = []
            previous = _BASE_TIME
            for turn in history:
                role = str(turn.get("role", "user"))
                if role not in ROLES:
                    raise BadInput(f"{path} line {number}: unknown role {role!r}")
                try:
                    when = parse_time(turn["time"]) if turn.get("time") else previous + timedelta(seconds=1)
                except ValueError as exc:
                    raise BadInput(f"{path} line {number}: bad time {turn.get('time')!r}") from exc
                previous = when
                turns.append(
                    HistoryTurn(str(turn.get("session", "s")), when, role, str(turn.get("text", "")))
                )
            if not isinstance(wanted, list) or not all(
                isinstance(i, int) and 0 <= i < len(turns) for i in wanted
            ):
                raise BadInput(
                    f"{path} line {number}: evidence_indices must be turn indices below {len(turns)}"
                )
            if not wanted:
                dataset.skip("questions without turn-level evidence")
                continue
            now = parse_time(case["now"]) if case.get("now") else None
            qid = str(case.get("id", f"line{number}"))
            conv = _shared(by_history, dataset, qid, turns)
            conv.questions.append(Question(qid, query, sorted(set(wanted)), case.get("category"), now))
    if not dataset.conversations:
        raise BadInput(f"{path}: no cases with evidence")
    return dataset


# ---------------------------------------------------------------- IBA-Bench suites


def load_iba(path: Path | str, *, limit: int | None = None) -> Dataset:
    """An IBA-Bench suite as retrieval cases: the prompt is the query, the checks' evidence the answer.

    Turns are timed as ingestion times them (the session's time plus one second a turn), and tasks
    over the same history share one store. Tasks whose checks carry no evidence are skipped.
    """
    path = Path(path)
    dataset = Dataset(path.stem, "iba", [])
    by_history: dict[str, Conversation] = {}
    with open(path, encoding="utf-8") as handle:
        for number, line in enumerate(handle, 1):
            if not line.strip():
                continue
            if limit is not None and dataset.questions >= limit:
                break
            try:
                task = json.loads(line)
                sessions = sorted(task["history"], key=lambda s: (parse_time(s["time"]), s["session_id"]))
            except (json.JSONDecodeError, KeyError, TypeError, ValueError) as exc:
                raise BadInput(f"{path} line {number}: not an IBA-Bench task ({exc})") from exc
            turns: list[HistoryTurn] = []
            where: dict[tuple[str, int], int] = {}
            for session in sessions:
                start = parse_time(session["time"])
                for k, turn in enumerate(session["turns"]):
                    where[(str(session["session_id"]), k)] = len(turns)
                    turns.append(
                        HistoryTurn(
                            str(session["session_id"]),
                            start + timedelta(seconds=k),
                            turn["role"],
                            turn["text"],
                        )
                    )
            wanted = {
                where[(str(e["session_id"]), int(e["turn"]))]
                for check in task.get("checks", [])
                for e in check.get("evidence", []) or []
                if (str(e["session_id"]), int(e["turn"])) in where
            }
            if not wanted:
                dataset.skip("tasks whose checks carry no evidence")
                continue
            conv = _shared(by_history, dataset, str(task["id"]), turns)
            tools = task["task"].get("tools") or []
            conv.questions.append(
                Question(
                    str(task["id"]),
                    str(task["task"]["prompt"]),
                    sorted(wanted),
                    task.get("domain"),
                    parse_time(task["now"]),
                    tools[0] if len(tools) == 1 else None,
                )
            )
    if not dataset.conversations:
        raise BadInput(f"{path}: no tasks with evidence")
    return dataset


# ---------------------------------------------------------------- common


def _shared(
    by_history: dict[str, Conversation], dataset: Dataset, qid: str, turns: list[HistoryTurn]
) -> Conversation:
    """The conversation with exactly these turns (one store for every question over one history)."""
    digest = hashlib.sha1(
        json.dumps([(t.session, t.time.isoformat(), t.role, t.text) for t in turns]).encode("utf-8")
    ).hexdigest()
    if digest not in by_history:
        by_history[digest] = Conversation(qid, turns)
        dataset.conversations.append(by_history[digest])
    return by_history[digest]


def _read_json(path: Path) -> Any:
    try:
        with open(path, encoding="utf-8") as handle:
            return json.load(handle)
    except FileNotFoundError as exc:
        raise BadInput(f"no such file: {path}") from exc
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise BadInput(f"{path} is not JSON ({exc})") from exc


def detect_format(path: Path | str) -> str:
    path = Path(path)
    if not path.exists():
        raise BadInput(f"no such file: {path}")
    if path.suffix == ".jsonl":
        with open(path, encoding="utf-8") as handle:
            first = handle.readline(1 << 20)
        return "iba" if '"checks"' in first and '"task"' in first else "jsonl"
    if path.is_dir() and (path / "mcq_options").is_dir():
        return "prefeval"
    if path.is_dir() or zipfile.is_zipfile(path):
        return "locomo"
    with open(path, encoding="utf-8") as handle:
        head = handle.read(1 << 16)
    if '"haystack_sessions"' in head:
        return "longmemeval"
    if '"session_1"' in head or '"qa"' in head:
        return "locomo"
    raise BadInput(f"cannot tell the format of {path}; pass --format ({', '.join(FORMATS)})")
