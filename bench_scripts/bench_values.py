"""Values from the request, through the one action path: what the message states, and nothing else.

    python bench_scripts/bench_values.py [--data tests/data/values/dev.jsonl] [--show-errors] [--json FILE]
        (sets written by someone who saw neither the code nor the errors: held1, run once after the first
        round of work and a development set since; held2, read after its first run; held3, kept unseen until the end of
        session 14; held4, 80 requests kept unseen until the end of session 16, held5, 80 more until the
        end of session 17, held6, 80 more until the end of session 19, held7, 80 more until the end of
        session 20: --data tests/data/values/held7.jsonl; held10, 80 written at the start of session 26
        (30 with tools of the writer's own), run once before its errors were read; held11, 80 more of
        the same shape written at the start of session 28, run once at its end before its errors were
        read; held12, 80 more of the same shape written at the start of session 29, run once on its base and
        once at its end; held13, 80 more of the same shape written at the start of session 30, run once on
        its base and once at its end; held14, 80 more of the same shape written at the start of session
        31, run once on its base and once at its end; held15, 80 more of the same shape written at the
        start of session 32, run once on its base and once at its end; held16, 80 more of the same shape written at the
        start of session 33, run once on its base and once at its end; aside28, 30 probes of session 28's own mechanisms; held8 and held9 of
        sessions 24-25 were kept outside the repository and went with that machine)

Every message goes to ``Planner.act`` (the path chat, the TUI, ``ask`` and ``ibachat bench`` call) on an
empty home with no chat model (the planner's floor), with the product's whole catalogue on offer, or
with the row's own ``tools`` when it has them (a tool nobody here wrote). Nothing is remembered, so every
value that is not the tool's default must come from the message's own words.

A row: ``{"id", "text", "tool", "expect": {param: value | "?" | {"any_of": [...]}}, "tools"?: [...]}``.
``"?"`` is a value the words leave open (a question, or unset, is right; any value is wrong). A
parameter the row does not name must stay unset or at its default.

Per value, on messages routed to the right tool:

- right: the expected value;
- wrong: another value (or any value for "?");
- invented: a value, not the default, for a parameter the message says nothing of;
- missed: an expected value left unset, at its default or asked for.

Headline: the share of messages with a wrong or invented value (a wrong action), value precision
(right / (right + wrong + invented)) and recall (right / expected values).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import tempfile
import time
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("HF_HUB_OFFLINE", "1")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

NOW = datetime(2026, 12, 1, 10, 0, tzinfo=timezone.utc)  # a Tuesday


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=ROOT / "tests" / "data" / "values" / "dev.jsonl")
    parser.add_argument("--embedder", default="minilm")
    parser.add_argument("--json", dest="json_out", type=Path, help="also write the figures and rows here")
    parser.add_argument("--show-errors", action="store_true", help="print every message with an error")
    return parser.parse_args(argv)


def _norm(value: Any) -> Any:
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, (int, float)):
        return float(value)
    if isinstance(value, str):
        text = " ".join(re.findall(r"[\w@.+:-]+", value.lower().replace("_", " ")))
        return re.sub(r"^(?:the|a|an|my|our) ", "", text).strip(" .")
    if isinstance(value, list):
        return sorted(str(_norm(v)) for v in value)
    return value


def matches(got: Any, want: Any) -> bool:
    """Whether a proposed value is the expected one (strings by their words, lists as sets)."""
    if isinstance(want, dict) and "any_of" in want:
        return any(matches(got, w) for w in want["any_of"])
    if isinstance(want, list):
        if not isinstance(got, list) or len(got) != len(want):
            return False
        left = list(got)
        for w in want:
            hit = next((g for g in left if matches(g, w)), None)
            if hit is None:
                return False
            left.remove(hit)
        return True
    moments = _moment(got), _moment(want)
    if None not in moments:
        return moments[0] == moments[1]
    return _norm(got) == _norm(want)


def _moment(value: Any) -> datetime | None:
    """A date-time string as a moment; one written without a zone is the bench clock's (UTC, as ``NOW``),
    so "2026-12-02T05:00:00" and "2026-12-02T05:00:00+00:00" are one time."""
    if not isinstance(value, str) or not re.match(r"\d{4}-\d{2}-\d{2}T\d", value):
        return None
    try:
        moment = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return None
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=timezone.utc)


def judge(row: dict[str, Any], outcome: Any) -> dict[str, Any]:
    """The route and each value's verdict for one message."""
    call = outcome.tool_call
    pending = outcome.pending
    tool = call.name if call is not None else None
    if tool is None and outcome.question and pending is not None and getattr(pending, "tool", None):
        tool = pending.tool.get("name")
    if tool is None:
        route = "ask_tools" if outcome.question else "text"
    else:
        route = "right" if tool == row["tool"] else "wrong_tool"
    out: dict[str, Any] = {"route": route, "got_tool": tool, "values": {}}
    if route != "right" or call is None:
        return out
    sources = call.sources or {}
    given = {
        k: v
        for k, v in call.arguments.items()
        if k not in (call.defaults or []) and getattr(sources.get(k), "kind", "") != "default"
    }
    verdicts: dict[str, str] = {}
    for name, want in row.get("expect", {}).items():
        if want == "?":
            verdicts[name] = "wrong" if name in given else "right"
        elif name not in given:
            verdicts[name] = "missed"
        else:
            verdicts[name] = "right" if matches(given[name], want) else "wrong"
    for name in given:
        if name not in row.get("expect", {}):
            verdicts[name] = "invented"
    out["values"] = verdicts
    out["given"] = {k: given[k] for k in given}
    out["reasons"] = {k: call.reasons.get(k, "") for k in given}
    out["question"] = outcome.question
    return out


def figures(rows: list[dict[str, Any]]) -> dict[str, Any]:
    routed = [r for r in rows if r["route"] == "right"]
    counts = {v: 0 for v in ("right", "wrong", "invented", "missed")}
    for r in routed:
        for v in r["values"].values():
            counts[v] += 1
    expected = sum(1 for r in routed for k, w in r["expect"].items() if w != "?")
    expected_right = sum(
        1 for r in routed for k, w in r["expect"].items() if w != "?" and r["values"].get(k) == "right"
    )
    bad = [r for r in routed if any(v in ("wrong", "invented") for v in r["values"].values())]
    perfect = [r for r in routed if all(v == "right" for v in r["values"].values())]

    def pct(a: int, b: int) -> float | None:
        return round(100 * a / b, 1) if b else None

    return {
        "messages": len(rows),
        "routed_right": len(routed),
        "wrong_tool": sum(1 for r in rows if r["route"] == "wrong_tool"),
        "text": sum(1 for r in rows if r["route"] == "text"),
        "ask_tools": sum(1 for r in rows if r["route"] == "ask_tools"),
        "wrong_action_pct": pct(len(bad), len(routed)),
        "all_right_pct": pct(len(perfect), len(routed)),
        "precision_pct": pct(counts["right"], counts["right"] + counts["wrong"] + counts["invented"]),
        "recall_pct": pct(expected_right, expected),
        **counts,
    }


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    rows = [json.loads(line) for line in args.data.read_text("utf-8").splitlines() if line.strip()]
    with tempfile.TemporaryDirectory(prefix="ibachat-values-") as home:
        os.environ["IBACHAT_HOME"] = home
        from ibachat.agent.meaning import catalogue
        from ibachat.agent.planner import Planner
        from memory.memory import Memory

        catalogue_tools = [dict(t) for t in catalogue()]
        mem = Memory.open(embedder=args.embedder)
        out, times = [], []
        try:
            planner = Planner(mem, None)
            planner.act("warm up", now=NOW, tools=catalogue_tools)
            for row in rows:
                tools = row.get("tools") or catalogue_tools
                t0 = time.perf_counter()
                outcome = planner.act(row["text"], now=NOW, tools=tools)
                times.append((time.perf_counter() - t0) * 1000)
                out.append({**row, **judge(row, outcome)})
        finally:
            mem.close()
    table = figures(out)
    times.sort()
    table["act_ms_p50"] = round(times[len(times) // 2], 1) if times else None
    print(f"values from the request through Planner.act ({args.data.name}, {len(out)} messages)")
    print(
        f"  routed to the right tool {table['routed_right']}, another tool {table['wrong_tool']}, "
        f"text {table['text']}, a question between tools {table['ask_tools']}"
    )
    print(f"  messages with a wrong or invented value  {table['wrong_action_pct']}%")
    print(f"  messages with every value right          {table['all_right_pct']}%")
    print(f"  value precision {table['precision_pct']}%, recall {table['recall_pct']}%")
    print(
        f"  values: right {table['right']}, wrong {table['wrong']}, invented {table['invented']}, "
        f"missed {table['missed']}"
    )
    print(f"  act p50 {table['act_ms_p50']} ms")
    if args.show_errors:
        for r in out:
            bad = {k: v for k, v in r.get("values", {}).items() if v != "right"}
            if r["route"] != "right" or bad:
                print(f"  [{r['id']}] {r['text']}")
                if r["route"] != "right":
                    print(f"      route {r['route']} ({r['got_tool']}), wanted {r['tool']}")
                for k, v in bad.items():
                    print(
                        f"      {v:<8} {k}: got {json.dumps(r['given'].get(k), default=str)} "
                        f"want {json.dumps(r['expect'].get(k))}  ({r['reasons'].get(k, '')})"
                    )
    if args.json_out:
        args.json_out.write_text(json.dumps({"figures": table, "rows": out}, indent=1, default=str), "utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
