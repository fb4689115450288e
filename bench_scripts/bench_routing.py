"""Routing through the one action path: false actions, wrong tools and missed actions.

    python bench_scripts/bench_routing.py [--data tests/data/routing/routing.jsonl] [--split dev|held|all]
        (held-out sets written later by someone who saw neither the errors nor the router, each run once
        before any change for it: --data tests/data/routing/held2.jsonl ... held11.jsonl --split all;
        held7 was kept unseen until the end of session 14, held8 (160 messages: 80 text, 72 tool over
        all 21 tools, 8 ask) until the end of session 16, held9 (the same shape) until the end of 17,
        held10 (the same shape) until the end of 19, held11 (the same shape) until the end of 20,
        held13 (the same shape) until the end of 26, held14 (the same shape) until the end of 28, held15
        (the same shape) until the end of 29, held16 (the same shape) until the end of 30, held17 (the
        same shape) until the end of 31, held18 (the same shape) until the end of 32, held19 (the same shape) until the end of 33;
        held12 of session 25 was kept outside the repository and went with that machine; aside28, 48
        probes written in session 28 for that session's own mechanisms by a helper who saw no code)
        [--embedder minilm] [--json FILE] [--show-errors]

Every message goes to ``Planner.act`` (the path chat, the TUI, ``ask`` and ``ibachat bench`` call) with
the product's whole catalogue on offer, on an empty home, with no chat model (the planner's floor), so
nothing but the message and the tools' own words decides. Each outcome is read as what a user would
see: a text answer, a proposed call (or a question about one of its values: the tool was chosen), or
a question between tools.

Labels: ``text`` (no action was asked for), a tool's name, or ``ask`` (two tools fit; a question is
right, and either tool is forgiven but counted as a guess). Rates:

- false action: a text message that got a tool, or a question between tools (share of text messages);
- wrong tool: a tool message that got another tool (share of tool messages);
- missed: a tool message answered in text (share of tool messages);
- asked: a tool message that got a question between tools (share of tool messages, not an error).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from collections import Counter
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
    parser.add_argument("--data", type=Path, default=ROOT / "tests" / "data" / "routing" / "routing.jsonl")
    parser.add_argument("--split", choices=("dev", "held", "all"), default="dev")
    parser.add_argument("--embedder", default="minilm")
    parser.add_argument("--json", dest="json_out", type=Path, help="also write the figures and rows here")
    parser.add_argument("--show-errors", action="store_true", help="print every message routed wrong")
    return parser.parse_args(argv)


def decided(outcome: Any) -> str:
    """What the user saw: 'text', a tool's name, or 'ask' (a question between tools)."""
    if outcome.tool_call is not None:
        return str(outcome.tool_call.name)
    if outcome.question:
        pending = outcome.pending
        tool = getattr(pending, "tool", None) if pending is not None else None
        return str(tool.get("name")) if tool else "ask"
    return "text"


def verdict(label: str, got: str) -> str:
    if label == "text":
        return "ok" if got == "text" else "false_action"
    if label == "ask":
        return {"ask": "ok", "text": "missed"}.get(got, "guessed")
    if got == label:
        return "ok"
    return {"text": "missed", "ask": "asked"}.get(got, "wrong_tool")


def figures(rows: list[dict[str, Any]]) -> dict[str, Any]:
    texts = [r for r in rows if r["label"] == "text"]
    tools = [r for r in rows if r["label"] not in ("text", "ask")]
    asks = [r for r in rows if r["label"] == "ask"]

    def share(part: list[dict[str, Any]], of: list[dict[str, Any]]) -> float | None:
        return round(100 * len(part) / len(of), 1) if of else None

    def having(group: list[dict[str, Any]], v: str) -> list[dict[str, Any]]:
        return [r for r in group if r["verdict"] == v]

    return {
        "messages": len(rows),
        "text": len(texts),
        "tool": len(tools),
        "ask": len(asks),
        "false_action_pct": share(having(texts, "false_action"), texts),
        "wrong_tool_pct": share(having(tools, "wrong_tool"), tools),
        "missed_pct": share(having(tools, "missed"), tools),
        "asked_pct": share(having(tools, "asked"), tools),
        "ambiguous_asked_pct": share(having(asks, "ok"), asks),
        "ambiguous_guessed_pct": share(having(asks, "guessed"), asks),
    }


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    rows = [json.loads(line) for line in args.data.read_text("utf-8").splitlines() if line.strip()]
    if args.split != "all":
        rows = [r for r in rows if r.get("split") == args.split]
    with tempfile.TemporaryDirectory(prefix="ibachat-routing-") as home:
        os.environ["IBACHAT_HOME"] = home
        from ibachat.agent.meaning import catalogue
        from ibachat.agent.planner import Planner
        from memory.memory import Memory

        tools = [dict(t) for t in catalogue()]
        mem = Memory.open(embedder=args.embedder)
        try:
            planner = Planner(mem, None)
            planner.act("warm up", now=NOW, tools=tools)  # the embedder's first call is not a message's
            out, times = [], []
            for row in rows:
                t0 = time.perf_counter()
                outcome = planner.act(row["text"], now=NOW, tools=tools)
                times.append((time.perf_counter() - t0) * 1000)
                got = decided(outcome)
                out.append({**row, "got": got, "verdict": verdict(row["label"], got)})
        finally:
            mem.close()
    table = figures(out)
    times.sort()
    table["act_ms_p50"] = round(times[len(times) // 2], 1) if times else None
    print(f"routing through Planner.act ({args.split}, {len(out)} messages, catalogue of {len(tools)} tools)")
    for key in ("false_action_pct", "wrong_tool_pct", "missed_pct", "asked_pct"):
        print(f"  {key.removesuffix('_pct').replace('_', ' '):<14} {table[key]}%")
    print(f"  ambiguous: asked {table['ambiguous_asked_pct']}%, guessed {table['ambiguous_guessed_pct']}%")
    print(f"  act p50 {table['act_ms_p50']} ms")
    counts = Counter(r["verdict"] for r in out)
    print("  verdicts: " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())))
    if args.show_errors:
        for r in out:
            if r["verdict"] not in ("ok",):
                print(f"  [{r['verdict']}] {r['label']} -> {r['got']}: {r['text']}")
    if args.json_out:
        args.json_out.write_text(json.dumps({"figures": table, "rows": out}, indent=1), "utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
