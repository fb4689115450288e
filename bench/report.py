"""Reports from one or more results files: per domain and scenario, static vs dynamic, agents side by side.

Soft is the mean over tasks of each task's soft score (0-100); strict is the share of tasks whose
scored checks all pass. Tasks with nothing scored (only judge checks, no judge) are counted but
left out of both. Every report names the suite, seeds, models, config and git revisions.
"""

from __future__ import annotations

import html
import json
import os
import re
import subprocess
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from memory.errors import BadInput

_REPO = Path(__file__).resolve().parent.parent
COLOURS = ("#3b6ea5", "#e07b39", "#4f9d69", "#b54a6a", "#7d62b0", "#8c7a3f", "#2f9c9c", "#666666")


def read_results(path: Path, *, repair: bool = False) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """(meta lines, task lines) of a results file. A torn last line is ignored, or cut off with ``repair``.

    A bad line in the middle of the file is an error: that file was not written by this runner.
    """
    metas: list[dict[str, Any]] = []
    tasks: list[dict[str, Any]] = []
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return metas, tasks
    good = data.rfind(b"\n") + 1  # bytes after the last newline are a torn write
    for number, line in enumerate(data[:good].splitlines(), 1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            raise BadInput(f"{path} line {number} is not a results record ({exc})") from exc
        (metas if row.get("type") == "meta" else tasks).append(row)
    if repair and good < len(data):
        os.truncate(path, good)
    return metas, tasks


def git_revision(repo: Path = _REPO) -> str:
    """``git rev-parse HEAD`` (with ``+dirty`` for uncommitted changes), or ``"unknown"``."""
    try:
        head = subprocess.run(
            ["git", "rev-parse", "HEAD"], cwd=repo, capture_output=True, text=True, timeout=10, check=False
        )
        if head.returncode != 0:
            return "unknown"
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=no"],
            cwd=repo,
            capture_output=True,
            text=True,
            timeout=10,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    return head.stdout.strip() + ("+dirty" if dirty.stdout.strip() else "")


@dataclass
class Run:
    label: str
    path: Path
    meta: dict[str, Any]
    rows: list[dict[str, Any]] = field(default_factory=list)


def _result_files(paths: Iterable[Path | str]) -> list[Path]:
    files: list[Path] = []
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            found = sorted(p for p in path.glob("*.jsonl") if p.is_file())
            if not found:
                raise BadInput(f"no results files (*.jsonl) in {path}")
            files.extend(found)
        elif path.is_file():
            files.append(path)
        else:
            raise BadInput(f"no such results file or folder: {path}")
    return files


def load_runs(paths: Iterable[Path | str]) -> list[Run]:
    """One Run per results file; labels made unique (model, then folder) when two files share one."""
    runs = []
    for path in _result_files(paths):
        metas, rows = read_results(path)
        if not metas:
            raise BadInput(f"{path} is not a results file of this runner (no meta line)")
        latest: dict[str, dict[str, Any]] = {}
        for row in rows:
            latest[row["task_id"]] = row  # a re-run task counts once, at its latest result
        meta = metas[-1]
        runs.append(Run(str(meta.get("label") or path.stem), path, meta, list(latest.values())))
    labels = [r.label for r in runs]
    for run in runs:
        if labels.count(run.label) > 1:
            run.label = f"{run.label} [{run.meta.get('model') or 'no model'}]"
    labels = [r.label for r in runs]
    for run in runs:
        if labels.count(run.label) > 1:
            run.label = f"{run.label} ({run.path.parent.name})"
    return runs


def _aggregate(
    rows: Sequence[Mapping[str, Any]], soft_key: str = "soft", strict_key: str = "strict"
) -> dict[str, Any]:
    softs = [r[soft_key] for r in rows if r.get(soft_key) is not None]
    stricts = [bool(r[strict_key]) for r in rows if r.get(strict_key) is not None]
    return {
        "n": len(softs),
        "soft": round(sum(softs) / len(softs), 2) if softs else None,
        "strict": round(100 * sum(stricts) / len(stricts), 2) if stricts else None,
    }


def _grouped(rows: Sequence[Mapping[str, Any]], key: str) -> dict[str, dict[str, Any]]:
    groups: dict[str, list[Mapping[str, Any]]] = {}
    for row in rows:
        groups.setdefault(str(row.get(key, "")), []).append(row)
    return {name: _aggregate(group) for name, group in sorted(groups.items())}


def _means(rows: Sequence[Mapping[str, Any]], field_name: str) -> dict[str, float]:
    sums: dict[str, float] = {}
    for row in rows:
        for key, value in (row.get(field_name) or {}).items():
            sums[key] = sums.get(key, 0.0) + float(value)
    return {k: round(v / len(rows), 2) for k, v in sums.items()} if rows else {}


def _mean(values: Sequence[float]) -> float | None:
    return round(sum(values) / len(values), 4) if values else None


def summarize_run(run: Run) -> dict[str, Any]:
    rows = run.rows
    meta = run.meta
    return {
        "label": run.label,
        "path": str(run.path),
        "agent": meta.get("agent"),
        "ablate": meta.get("ablate"),
        "model": meta.get("model"),
        "embedder": meta.get("embedder_id") or meta.get("embedder"),
        "judges": meta.get("judges", []),
        "suite": meta.get("suite", {}),
        "config": meta.get("config", {}),
        "git_revision": meta.get("git_revision", "unknown"),
        "started": meta.get("started"),
        "tasks": len(rows),
        "errors": sum(1 for r in rows if r.get("error")),
        "unscored_tasks": sum(1 for r in rows if r.get("soft") is None),
        "unscored_checks": sum(1 for r in rows for c in r.get("checks", []) if c.get("status") == "unscored"),
        "overall": _aggregate(rows),
        "static": _aggregate(rows, "soft_static", "strict_static"),
        "dynamic": _aggregate(rows, "soft_dynamic", "strict_dynamic"),
        "by_task_type": _grouped(rows, "task_type"),
        "by_domain": _grouped(rows, "domain"),
        "by_scenario": _grouped(rows, "scenario"),
        "evidence_recall": _mean(
            [r["evidence_recall"] for r in rows if r.get("evidence_recall") is not None]
        ),
        "reason_honesty": reason_honesty(rows),
        "mean_timings_ms": _means(rows, "timings_ms"),
        "mean_model_usage": _means(rows, "model"),
    }


def _plain(text: str) -> str:
    return " ".join(re.findall(r"[a-z0-9£$€]+", str(text).lower()))


def reason_honesty(rows: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """Of the values an agent proposed with a source (issue 18): how many say "your request" though the
    request does not hold the words they quote, and how many rest on "the plan" with no evidence turn.
    Both shares must be 0; ``values`` is 0 for an agent that gives no sources (the baselines)."""
    values = unquoted = unevidenced = 0
    for row in rows:
        info = row.get("info") or {}
        request = _plain(info.get("request") or "")
        for source in (info.get("sources") or {}).values():
            values += 1
            kind = source.get("kind")
            if kind == "request":
                parts = [p for p in str(source.get("quote") or "").split("; ") if p.strip()]
                if not parts or any(f" {_plain(p)} " not in f" {request} " for p in parts):
                    unquoted += 1
            elif kind == "plan" and not source.get("evidence"):
                unevidenced += 1
    share = (lambda n: round(100 * n / values, 2)) if values else (lambda n: None)
    return {
        "values": values,
        "request_unquoted": share(unquoted),
        "plan_without_evidence": share(unevidenced),
    }


def build_report(paths: Iterable[Path | str]) -> dict[str, Any]:
    runs = [summarize_run(run) for run in load_runs(paths)]
    return {
        "generated": datetime.now(UTC).isoformat(timespec="seconds"),
        "report_git_revision": git_revision(),
        "runs": runs,
        "domains": sorted({d for r in runs for d in r["by_domain"]}),
        "scenarios": sorted({s for r in runs for s in r["by_scenario"]}),
    }


# ---------------------------------------------------------------- terminal


def _cell(agg: Mapping[str, Any] | None) -> str:
    if not agg or agg.get("soft") is None:
        return "-"
    return f"{agg['soft']:5.1f} / {agg['strict']:5.1f}"


def _rows(report: Mapping[str, Any]) -> list[tuple[str, str]]:
    """(section key, name) for the table: overall, static, dynamic, each task type and domain."""
    rows = [("overall", ""), ("static", ""), ("dynamic", "")]
    types = sorted({t for r in report["runs"] for t in r["by_task_type"]})
    rows += [("by_task_type", t) for t in types]
    rows += [("by_domain", d) for d in report["domains"]]
    return rows


def _pick(run: Mapping[str, Any], section: str, name: str) -> Mapping[str, Any] | None:
    value = run[section]
    return value.get(name) if name else value


def print_report(report: Mapping[str, Any], console: Any = None, *, scenarios: bool = False) -> None:
    """Tables (soft / strict) with each run side by side, and a bar chart of soft per domain."""
    from rich.console import Console
    from rich.table import Table

    console = console or Console()
    runs = report["runs"]
    for run in runs:
        suite = run["suite"]
        console.print(
            f"[bold]{run['label']}[/]: {run['tasks']} tasks, {run['errors']} errors, "
            f"{run['unscored_tasks']} unscored; evidence recall {run['evidence_recall']}; "
            f"model {run['model'] or 'none'}, embedder {run['embedder']}, "
            f"judges {', '.join(run['judges']) or 'none'}; suite {', '.join(suite.get('names', [])) or '?'} "
            f"seeds {', '.join(map(str, suite.get('seeds', []))) or '?'}; git {run['git_revision'][:12]}"
        )
    for run in runs:
        honesty = run.get("reason_honesty") or {}
        if honesty.get("values"):
            console.print(
                f"[bold]{run['label']}[/] reasons: {honesty['values']} values with a source; "
                f"'your request' without the request's words {honesty['request_unquoted']}%, "
                f"'the plan' without an evidence turn {honesty['plan_without_evidence']}%"
            )
    table = Table(title="soft / strict (0-100)")
    table.add_column("")
    for run in runs:
        table.add_column(run["label"], justify="right")
    for section, name in _rows(report):
        label = name or section
        table.add_row(label, *[_cell(_pick(run, section, name)) for run in runs])
    console.print(table)
    if scenarios:
        table = Table(title="per scenario: soft / strict")
        table.add_column("scenario")
        for run in runs:
            table.add_column(run["label"], justify="right")
        for name in report["scenarios"]:
            table.add_row(name, *[_cell(run["by_scenario"].get(name)) for run in runs])
        console.print(table)
    width = 40
    console.print("[bold]soft per domain[/]")
    for name in ["overall", *report["domains"]]:
        for index, run in enumerate(runs):
            agg = run["overall"] if name == "overall" else run["by_domain"].get(name)
            soft = agg.get("soft") if agg else None
            bar = "█" * round(width * (soft or 0) / 100)
            value = f"{soft:5.1f}" if soft is not None else "    -"
            colour = COLOURS[index % len(COLOURS)]
            head = name if index == 0 else ""
            console.print(
                f"{head:>16} [{colour}]{bar:<{width}}[/] {value}  {run['label'] if len(runs) > 1 else ''}"
            )


# ---------------------------------------------------------------- HTML


def _svg_bars(groups: Sequence[str], runs: Sequence[Mapping[str, Any]], value: Any, title: str) -> str:
    """A grouped horizontal bar chart (0-100) as inline SVG."""
    bar_h, gap, left, width = 14, 10, 150, 420
    height = len(groups) * (len(runs) * bar_h + gap) + 30
    parts = [
        f'<svg role="img" width="{left + width + 60}" height="{height}" aria-label="{html.escape(title)}">'
    ]
    for tick in range(0, 101, 25):
        x = left + width * tick / 100
        parts.append(f'<line x1="{x}" y1="0" x2="{x}" y2="{height - 20}" stroke="#ddd"/>')
        parts.append(f'<text x="{x}" y="{height - 6}" font-size="10" text-anchor="middle">{tick}</text>')
    y = 0
    for group in groups:
        parts.append(
            f'<text x="{left - 6}" y="{y + len(runs) * bar_h / 2 + 4}" font-size="11" text-anchor="end">'
            f"{html.escape(group)}</text>"
        )
        for index, run in enumerate(runs):
            score = value(run, group)
            colour = COLOURS[index % len(COLOURS)]
            if score is not None:
                w = width * max(0.0, min(100.0, score)) / 100
                parts.append(
                    f'<rect x="{left}" y="{y}" width="{w:.1f}" height="{bar_h - 2}" fill="{colour}">'
                    f"<title>{html.escape(run['label'])}: {score:.1f}</title></rect>"
                )
                parts.append(
                    f'<text x="{left + w + 4:.1f}" y="{y + bar_h - 4}" font-size="10">{score:.1f}</text>'
                )
            y += bar_h
        y += gap
    parts.append("</svg>")
    return "".join(parts)


def _fmt(value: Any) -> str:
    return "-" if value is None else f"{value:.1f}" if isinstance(value, float) else html.escape(str(value))


def _table(headers: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    head = "".join(f"<th>{html.escape(h)}</th>" for h in headers)
    body = "".join("<tr>" + "".join(f"<td>{_fmt(c)}</td>" for c in row) + "</tr>" for row in rows)
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


_CSS = """
body{font-family:system-ui,sans-serif;margin:2em;color:#222;max-width:1100px}
table{border-collapse:collapse;margin:1em 0}th,td{border:1px solid #ccc;padding:3px 8px;text-align:right}
th:first-child,td:first-child{text-align:left}.legend span{display:inline-block;margin-right:1.2em}
.swatch{display:inline-block;width:12px;height:12px;margin-right:4px;vertical-align:middle}
code{background:#f4f4f4;padding:0 3px}
"""


def render_html(report: Mapping[str, Any]) -> str:
    """A self-contained page: inline CSS and SVG, no scripts, nothing fetched."""
    runs = report["runs"]
    esc = html.escape
    legend = "".join(
        f'<span><i class="swatch" style="background:{COLOURS[i % len(COLOURS)]}"></i>{esc(r["label"])}</span>'
        for i, r in enumerate(runs)
    )
    provenance = _table(
        [
            "run",
            "agent",
            "ablate",
            "model",
            "embedder",
            "judges",
            "suite",
            "seeds",
            "tasks",
            "errors",
            "unscored",
            "evidence recall",
            "config",
            "git",
        ],
        [
            [
                r["label"],
                r["agent"],
                r["ablate"] or "-",
                r["model"] or "none",
                r["embedder"],
                ", ".join(r["judges"]) or "none",
                ", ".join(r["suite"].get("names", [])) or "?",
                ", ".join(map(str, r["suite"].get("seeds", []))) or "?",
                r["tasks"],
                r["errors"],
                r["unscored_tasks"],
                r["evidence_recall"],
                ", ".join(f"{k}={v}" for k, v in r["config"].items()),
                r["git_revision"],
            ]
            for r in runs
        ],
    )
    headers = ["", *[f"{r['label']} soft" for r in runs], *[f"{r['label']} strict" for r in runs]]

    def rows_for(section: str, names: Sequence[str]) -> list[list[Any]]:
        out = []
        for name in names:
            aggs = [_pick(r, section, name) or {} for r in runs]
            out.append([name or section, *[a.get("soft") for a in aggs], *[a.get("strict") for a in aggs]])
        return out

    summary_rows = rows_for("overall", [""]) + rows_for("static", [""]) + rows_for("dynamic", [""])
    types = sorted({t for r in runs for t in r["by_task_type"]})
    summary_rows += rows_for("by_task_type", types)
    charts = [
        _svg_bars(
            ["overall", "static", "dynamic"],
            runs,
            lambda r, g: (r[g] if g in ("overall", "static", "dynamic") else {}).get("soft"),
            "soft: overall, static, dynamic",
        ),
        _svg_bars(
            report["domains"], runs, lambda r, g: (r["by_domain"].get(g) or {}).get("soft"), "soft per domain"
        ),
    ]
    timing_rows = [
        [
            r["label"],
            *[r["mean_timings_ms"].get(k) for k in ("ingest", "planning", "model", "judge", "total")],
            *[r["mean_model_usage"].get(k) for k in ("calls", "prompt_tokens", "completion_tokens")],
        ]
        for r in runs
    ]
    return (
        "<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'><title>IBA-Bench report</title>"
        f"<style>{_CSS}</style></head><body>"
        "<h1>IBA-Bench report</h1>"
        f"<p>Generated {esc(report['generated'])} at git <code>{esc(report['report_git_revision'])}</code>. "
        "Soft: mean of scored checks per task, averaged over tasks (0-100). Strict: share of tasks whose scored "
        "checks all pass. Static/dynamic: the same over checks whose preference stayed fixed / changed.</p>"
        f"<h2>Runs</h2>{provenance}"
        f"<h2>Summary</h2><p class='legend'>{legend}</p>{charts[0]}{_table(headers, summary_rows)}"
        f"<h2>Per domain</h2>{charts[1]}{_table(headers, rows_for('by_domain', report['domains']))}"
        f"<h2>Per scenario</h2>{_table(headers, rows_for('by_scenario', report['scenarios']))}"
        "<h2>Cost per task (means)</h2>"
        + _table(
            [
                "run",
                "ingest ms",
                "planning ms",
                "model ms",
                "judge ms",
                "total ms",
                "model calls",
                "prompt tokens",
                "completion tokens",
            ],
            timing_rows,
        )
        + "</body></html>"
    )


# ---------------------------------------------------------------- progress


PACE_TASKS = 3  # the estimate up front comes from the pace of this many first tasks


def duration_text(seconds: float) -> str:
    """``45 s``, ``9 min 24 s``, ``2 h 05 min``."""
    seconds = max(0, round(seconds))
    if seconds < 60:
        return f"{seconds} s"
    if seconds < 3600:
        return f"{seconds // 60} min {seconds % 60} s"
    return f"{seconds // 3600} h {seconds % 3600 // 60:02d} min"


@contextmanager
def progress_bar(
    enabled: bool, total: int, done: int, label: str, *, clock: Callable[[], float] | None = None
) -> Iterator[Callable[[dict[str, Any]], None]]:
    """A rich progress bar on stderr with ETA and the running mean soft score; yields ``advance(row)``.

    The ETA is the mean pace of the tasks run so far times the tasks left (a slow model's tasks
    take tens of seconds each, too few samples for rich's own estimate). Once the first
    ``PACE_TASKS`` tasks are done it also says once, on its own line, how long the rest will take.
    """
    if not enabled:
        yield lambda row: None
        return
    import time

    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    now = clock or time.monotonic
    start = now()
    ran = 0
    scores: list[float] = []
    bar = Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("soft {task.fields[soft]}"),
        TimeElapsedColumn(),
        TextColumn("eta {task.fields[eta]}"),
        console=Console(stderr=True),
    )
    ident = bar.add_task(label, total=total, completed=done, soft="-", eta="…")

    def advance(row: dict[str, Any]) -> None:
        nonlocal ran
        ran += 1
        if row.get("soft") is not None:
            scores.append(row["soft"])
        pace = (now() - start) / ran
        left = max(0, total - done - ran)
        bar.update(
            ident,
            advance=1,
            soft=f"{sum(scores) / len(scores):.1f}" if scores else "-",
            eta=duration_text(pace * left),
        )
        if ran == min(PACE_TASKS, total - done) and left:
            bar.console.print(
                f"{label}: about {duration_text(pace * left)} for the {left:,} tasks left "
                f"({pace:.1f} s a task over the first {ran})"
            )

    with bar:
        yield advance
