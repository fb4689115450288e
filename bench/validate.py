"""Check an IBA-Bench suite (.jsonl) line by line, and load one only when it is valid.

The file is streamed: one line is read at a time, and a line longer than ``max_line_bytes`` is
reported and skipped without being held in memory. Every problem carries its line number.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from functools import lru_cache
from pathlib import Path
from typing import Any

from bench.evaluate import CHECK_KINDS, EXPECT_SCHEMAS, PARAM_KINDS, TEXT_KINDS
from ibachat.agent.execution.tools import DOMAINS  # the 9 domains, one list for the tools and the suite
from memory.errors import BadInput

SCHEMA_FILE = Path(__file__).with_name("schema") / "iba-task.schema.json"
MAX_LINE_BYTES = 16 * 1024 * 1024
MAX_ISSUES_PER_LINE = 5
_RFC3339 = re.compile(r"\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})")


@dataclass
class Issue:
    line: int
    message: str
    task_id: str | None = None
    more: int = 0  # > 0 on the line that stands for problems not listed one by one

    def __str__(self) -> str:
        where = f"line {self.line}" + (f" ({self.task_id})" if self.task_id else "")
        return f"{where}: {self.message}"


@dataclass
class ValidationReport:
    path: Path
    lines: int = 0  # non-blank lines seen
    valid: int = 0  # tasks with no issue
    issues: list[Issue] = field(default_factory=list)
    domains: dict[str, int] = field(default_factory=dict)
    suites: set[str] = field(default_factory=set)

    @property
    def problems(self) -> int:
        return sum(i.more or 1 for i in self.issues)

    @property
    def ok(self) -> bool:
        return not self.issues and self.lines > 0

    def summary(self, first: int = 5) -> str:
        """One line: the count and the first few problems."""
        if self.lines == 0:
            return f"{self.path}: no tasks in the file"
        if not self.issues:
            return f"{self.path}: {self.valid} tasks, valid"
        shown = "; ".join(str(i) for i in self.issues[:first])
        more = self.problems - sum(i.more or 1 for i in self.issues[:first])
        tail = f"; and {more} more" if more > 0 else ""
        return f"{self.path}: {self.problems} problem(s) in {self.lines} lines: {shown}{tail}"

    def to_dict(self) -> dict[str, Any]:
        return {
            "path": str(self.path),
            "ok": self.ok,
            "problems": self.problems,
            "lines": self.lines,
            "valid": self.valid,
            "domains": self.domains,
            "suites": sorted(self.suites),
            "issues": [{"line": i.line, "task_id": i.task_id, "message": i.message} for i in self.issues],
        }


def _is_datetime(value: object) -> bool:
    if not isinstance(value, str):
        return True  # the type keyword reports non-strings
    if not _RFC3339.fullmatch(value):
        return False
    try:
        datetime.fromisoformat(value.replace("Z", "+00:00").replace("z", "+00:00"))
    except ValueError:
        return False
    return True


def load_schema() -> dict[str, Any]:
    try:
        return json.loads(SCHEMA_FILE.read_text(encoding="utf-8"))
    except FileNotFoundError as exc:
        raise BadInput(f"the task schema is missing: {SCHEMA_FILE}") from exc


@lru_cache(maxsize=1)
def _validator() -> Any:
    from jsonschema import Draft202012Validator, FormatChecker

    checker = FormatChecker(formats=())
    checker.checks("date-time")(_is_datetime)
    return Draft202012Validator(load_schema(), format_checker=checker)


@lru_cache(maxsize=len(EXPECT_SCHEMAS))
def _expect_validator(kind: str) -> Any:
    from jsonschema import Draft202012Validator

    return Draft202012Validator(EXPECT_SCHEMAS[kind])


def _where(path: Iterable[object], prefix: str = "") -> str:
    out = prefix
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or "task"


def _short(value: object, limit: int = 60) -> str:
    text = json.dumps(value, ensure_ascii=False, default=str)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _message(error: Any, prefix: Sequence[object] = ()) -> str:
    where = _where([*prefix, *error.absolute_path])
    if where == "domain" and error.validator == "enum":
        return f"unknown domain {_short(error.instance)} (known: {', '.join(DOMAINS)})"
    if where.endswith(".kind") and error.validator == "enum":
        return f"{where}: unknown check kind {_short(error.instance)}"
    if error.validator == "format":
        return f"{where}: {_short(error.instance)} is not an RFC 3339 date-time with a zone"
    return f"{where}: {error.message[:160]}"


def _sorted_messages(errors: Iterable[Any], prefix: Sequence[object] = ()) -> list[str]:
    ordered = sorted(errors, key=lambda e: (list(map(str, e.absolute_path)), e.message))
    return [_message(e, prefix) for e in ordered]


class _SchemaCheck:
    """Schema validation with the history checked once per distinct history.

    Suites reuse one persona's history across many tasks, and the history is most of a task's
    bytes, so it is validated on its own (against the schema's own ``history`` subschema) and
    remembered by digest; the rest of the task is validated with an empty history. A valid
    history seen before is replaced by the first copy, so a loaded suite holds each one once.
    """

    def __init__(self) -> None:
        self.valid_histories: dict[bytes, list[Any]] = {}

    def messages(self, task: dict[str, Any]) -> list[str]:
        validator = _validator()
        history = task.get("history")
        sub = validator.schema.get("properties", {}).get("history")
        if not isinstance(history, list) or sub is None:
            return _sorted_messages(validator.iter_errors(task))
        messages = _sorted_messages(validator.iter_errors({**task, "history": []}))
        digest = hashlib.blake2b(
            json.dumps(history, separators=(",", ":"), ensure_ascii=False).encode("utf-8", "surrogatepass"),
            digest_size=16,
        ).digest()
        if digest in self.valid_histories:
            task["history"] = self.valid_histories[digest]
            return messages
        found = _sorted_messages(validator.evolve(schema=sub).iter_errors(history), ["history"])
        if not found:
            self.valid_histories[digest] = history
        return found + messages


def _semantic_messages(task: Mapping[str, Any]) -> list[str]:
    """What the schema cannot say: check kinds we score, expect shapes, targets, evidence."""
    messages: list[str] = []
    sessions: dict[str, int] = {}
    for session in task["history"]:
        sid = session["session_id"]
        if sid in sessions:
            messages.append(f"history: session_id {sid!r} appears twice")
        sessions[sid] = len(session["turns"])
    tools = {str(t["name"]).casefold() for t in (task["task"].get("tools") or [])}
    seen_checks: set[str] = set()
    for index, check in enumerate(task["checks"]):
        where, kind = f"checks[{index}]", check["kind"]
        if check["id"] in seen_checks:
            messages.append(f"{where}: duplicate check id {check['id']!r}")
        seen_checks.add(check["id"])
        if kind not in CHECK_KINDS:
            messages.append(
                f"{where}.kind: unknown check kind {kind!r} (this evaluator knows {', '.join(CHECK_KINDS)})"
            )
            continue
        if kind == "judge":
            if not str(check.get("rubric", "")).strip():
                messages.append(f"{where}: a judge check needs a rubric")
        else:
            for error in _expect_validator(kind).iter_errors(check.get("expect", {})):
                messages.append(
                    f"{_where(error.absolute_path, where + '.expect')}: {error.message[:160]} ({kind})"
                )
        target = str(check.get("target", ""))
        if kind in PARAM_KINDS:
            tool, _, param = target.partition(".")
            if not tool or not param:
                messages.append(f"{where}.target: {kind} needs TOOL.PARAM, got {target!r}")
            elif tools and tool.casefold() not in tools:
                messages.append(f"{where}.target: tool {tool!r} is not among the task's tools")
        elif kind == "tool_called":
            name = str((check.get("expect") or {}).get("name", ""))
            if name and tools and name.casefold() not in tools:
                messages.append(f"{where}.expect.name: tool {name!r} is not among the task's tools")
        elif kind in TEXT_KINDS and target not in ("", "text"):
            messages.append(f"{where}.target: {kind} targets 'text', got {target!r}")
        for e_index, ev in enumerate(check.get("evidence") or []):
            sid, turn = ev["session_id"], ev["turn"]
            if sid not in sessions:
                messages.append(f"{where}.evidence[{e_index}]: session {sid!r} is not in the history")
            elif turn >= sessions[sid]:
                messages.append(
                    f"{where}.evidence[{e_index}]: turn {turn} is outside session {sid!r} ({sessions[sid]} turns)"
                )
    if task["task_type"] == "action" and not tools:
        messages.append("task.tools: an action task needs at least one tool")
    return messages


def _lines(path: Path, max_line_bytes: int) -> Iterator[tuple[int, bytes | None, int]]:
    """Yield (line number, content or None when too long, size in bytes), one line in memory at a time."""
    with open(path, "rb") as handle:
        number = 0
        while True:
            line = handle.readline(max_line_bytes + 1)
            if not line:
                return
            number += 1
            if len(line) > max_line_bytes and not line.endswith(b"\n"):
                size = len(line)
                while True:
                    rest = handle.readline(1 << 20)
                    size += len(rest)
                    if not rest or rest.endswith(b"\n"):
                        break
                yield number, None, size
            else:
                yield number, line, len(line)


def iter_suite(
    path: Path | str, *, max_line_bytes: int = MAX_LINE_BYTES
) -> Iterator[tuple[int, dict[str, Any] | None, list[Issue]]]:
    """Yield (line number, task or None, issues) for every non-blank line of a suite."""
    path = Path(path)
    if not path.is_file():
        raise BadInput(f"no such suite file: {path}")
    first_line: dict[str, int] = {}
    schema = _SchemaCheck()
    for number, raw, size in _lines(path, max_line_bytes):
        if raw is None:
            mb = size / (1 << 20)
            limit = max_line_bytes / (1 << 20)
            yield (
                number,
                None,
                [Issue(number, f"task is {mb:.1f} MB, over the {limit:.0f} MB limit for one line")],
            )
            continue
        if not raw.strip():
            continue
        try:
            task = json.loads(raw)
        except UnicodeDecodeError as exc:
            yield number, None, [Issue(number, f"not UTF-8 ({exc.reason} at byte {exc.start})")]
            continue
        except json.JSONDecodeError as exc:
            yield number, None, [Issue(number, f"not JSON ({exc.msg} at column {exc.colno})")]
            continue
        except RecursionError:
            yield number, None, [Issue(number, "JSON nested too deeply to read")]
            continue
        if not isinstance(task, dict):
            yield number, None, [Issue(number, f"a task must be a JSON object, got {type(task).__name__}")]
            continue
        task_id = task.get("id") if isinstance(task.get("id"), str) else None
        try:
            messages = schema.messages(task)
            if not messages:
                messages = _semantic_messages(task)
        except RecursionError:
            messages = ["JSON nested too deeply to check"]
        if task_id is not None:
            if task_id in first_line:
                messages.append(f"duplicate id {task_id!r} (first on line {first_line[task_id]})")
            else:
                first_line[task_id] = number
        issues = [Issue(number, m, task_id) for m in messages[:MAX_ISSUES_PER_LINE]]
        if len(messages) > MAX_ISSUES_PER_LINE:
            hidden = len(messages) - MAX_ISSUES_PER_LINE
            issues.append(Issue(number, f"and {hidden} more problems", task_id, more=hidden))
        yield number, task, issues


def validate_suite(path: Path | str, *, max_line_bytes: int = MAX_LINE_BYTES) -> ValidationReport:
    """Check every line of a suite; never raises for bad content."""
    report = ValidationReport(Path(path))
    for _number, task, issues in iter_suite(path, max_line_bytes=max_line_bytes):
        report.lines += 1
        report.issues.extend(issues)
        if task is not None and not issues:
            report.valid += 1
            report.domains[task["domain"]] = report.domains.get(task["domain"], 0) + 1
            if task.get("suite"):
                report.suites.add(str(task["suite"]))
    return report


def load_suite(
    path: Path | str,
    *,
    domains: Iterable[str] | None = None,
    scenario: str | None = None,
    limit: int | None = None,
    max_line_bytes: int = MAX_LINE_BYTES,
) -> list[dict[str, Any]]:
    """The suite's tasks (filtered, in file order); raises BadInput if any line is invalid."""
    wanted = set(domains or ())
    unknown = wanted - set(DOMAINS)
    if unknown:
        raise BadInput(f"unknown domain(s) {', '.join(sorted(unknown))} (known: {', '.join(DOMAINS)})")
    if limit is not None and limit < 1:
        raise BadInput(f"limit must be at least 1, got {limit}")
    stamp = _stamp(Path(path))
    if stamp is not None and _already_valid(Path(path), stamp):
        return _load_trusted(Path(path), wanted, scenario, limit)
    report = ValidationReport(Path(path))
    tasks: list[dict[str, Any]] = []
    for _number, task, issues in iter_suite(path, max_line_bytes=max_line_bytes):
        report.lines += 1
        report.issues.extend(issues)
        if report.issues or task is None:
            tasks.clear()  # invalid suite: stop keeping tasks, keep counting problems
            continue
        report.valid += 1
        if wanted and task["domain"] not in wanted:
            continue
        if scenario is not None and task["scenario"] != scenario:
            continue
        if limit is None or len(tasks) < limit:
            tasks.append(task)
    if not report.ok:
        raise BadInput(f"invalid suite, nothing was run: {report.summary(first=3)}")
    if stamp is not None:
        _remember_valid(Path(path), stamp)
    return tasks


# A suite that validated once is not validated again until it changes (size, mtime or the
# schema): the 7,000-task default suite takes ~20 s to validate. Stamps live in the ibachat home.
def _stamps_file() -> Path:
    from memory.paths import home

    return home() / "bench" / "validated.json"


def _stamp(path: Path) -> dict[str, Any] | None:
    try:
        st = path.stat()
    except OSError:
        return None

    schema = hashlib.sha256(SCHEMA_FILE.read_bytes()).hexdigest()[:16]
    return {"size": st.st_size, "mtime_ns": st.st_mtime_ns, "schema": schema}


def _read_stamps() -> dict[str, Any]:
    try:
        data = json.loads(_stamps_file().read_text("utf-8"))
    except (OSError, json.JSONDecodeError, UnicodeDecodeError):
        return {}
    return data if isinstance(data, dict) else {}


def _already_valid(path: Path, stamp: dict[str, Any]) -> bool:
    return _read_stamps().get(str(path.resolve())) == stamp


def _remember_valid(path: Path, stamp: dict[str, Any]) -> None:
    from memory.atomic import atomic_write_text

    stamps = _read_stamps()
    stamps[str(path.resolve())] = stamp
    try:
        from memory.paths import ensure_private_dir

        ensure_private_dir(_stamps_file().parent)
        atomic_write_text(_stamps_file(), json.dumps(stamps))
    except OSError:
        return  # only a speed-up: the suite is validated again next time


def _load_trusted(
    path: Path, wanted: set[str], scenario: str | None, limit: int | None
) -> list[dict[str, Any]]:
    """Parse an already-validated, unchanged suite without schema checks (filters applied)."""
    tasks: list[dict[str, Any]] = []
    with open(path, "rb") as handle:
        for raw in handle:
            if not raw.strip():
                continue
            task = json.loads(raw)
            if wanted and task["domain"] not in wanted:
                continue
            if scenario is not None and task["scenario"] != scenario:
                continue
            tasks.append(task)
            if limit is not None and len(tasks) >= limit:
                break
    return tasks
