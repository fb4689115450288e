"""`ibachat ask`: one planned turn outside the TUI."""

from __future__ import annotations

import json
import sys
from typing import Any

import click

from ibachat.commands.common import (
    bring_indexes_up_to_date,
    err_console,
    open_memory,
    out_console,
    printable,
    safe_json,
)


def load_model(obj: dict[str, Any], spec: str | None = None) -> Any:
    """The configured chat model (not loaded yet: the first call loads or connects); None for "none".

    A named Ollama model is checked first, as the chat front ends do (``tui.loader.pick_model``):
    one that is not there is an error before anything is stored.
    """
    from ibachat.errors import ModelUnavailable
    from ibachat.llm.select import choose, parse_spec, resolve_model

    cfg = obj["config"]
    if spec is not None and spec.strip().lower() == "none":
        return None  # the planner's deterministic floor only
    spec = spec or cfg.model
    host = cfg.ollama_host or None
    if parse_spec(spec)[0] == "ollama":
        choice = choose(spec, host=host)
        if not choice.ready:
            raise ModelUnavailable(choice.problem or f"Ollama model {spec!r} is not usable")
    return resolve_model(spec, host=host)


@click.command()
@click.argument("message")
@click.option("--session", default="ask", show_default=True, help="Session to log this turn under.")
@click.option("--yes", "-y", is_flag=True, help="Run a proposed tool action without asking.")
@click.option(
    "--show-plan",
    is_flag=True,
    help="Print the alignment plan: evidence, preferences, conflicts, directives.",
)
@click.option("--json", "as_json", is_flag=True, help="One JSON object on stdout, for machines.")
@click.option(
    "--model",
    help="Chat model for this turn: auto | embedded | embedded:/path.gguf | ollama:NAME | openai:NAME@URL | none (the planner's floor).",
)
@click.pass_obj
def ask(
    obj: dict[str, Any],
    message: str,
    session: str,
    yes: bool,
    show_plan: bool,
    as_json: bool,
    model: str | None,
) -> None:
    """Ask once: the turn is stored, the planner runs, the answer streams (or an action is proposed)."""
    from ibachat.assistant import Assistant

    if not message.strip():
        raise click.UsageError("the message is empty")
    llm = load_model(obj, model)
    console = out_console()
    with open_memory(obj) as mem:
        bring_indexes_up_to_date(mem)  # after a big import: a progress bar, not a silent wait
        assistant = Assistant(mem, llm, config=obj["config"])
        # the draft streams on a terminal only, and is erased when the answer is final: stdout
        # holds the final answer alone (the check after streaming may revise the draft)
        live = _DraftView(console) if not as_json and sys.stdout.isatty() else None
        try:
            reply = assistant.respond(session, message, on_token=live.add if live is not None else None)
        finally:
            if live is not None:
                live.stop()
            if llm is not None:
                llm.close()
        if reply.redactions:
            err_console().print(f"redacted before storing: {', '.join(reply.redactions)}")
        result = None
        if reply.proposal is not None:
            if not as_json:
                _print_proposal(console, reply.proposal)
            run = yes or (
                not as_json
                and sys.stdin.isatty()
                and click.confirm("Run this action?", default=False, err=True)
            )
            if run:
                result = assistant.approve(reply)
                if not as_json:
                    console.print_json(json.dumps(result, default=str))
            elif not as_json:
                err_console().print("not run (add --yes to run it)")
        elif not as_json:
            from rich.text import Text

            console.print(Text(printable(reply.text or "")))
        if as_json:
            click.echo(
                safe_json(
                    {
                        "session_id": reply.session_id,
                        "user_turn": reply.user_turn.id if reply.user_turn else None,
                        "assistant_turn": reply.assistant_turn.id if reply.assistant_turn else None,
                        "text": reply.text,
                        "proposal": reply.proposal,
                        "clarify": reply.clarify,
                        "result": result,
                        "redactions": reply.redactions,
                        "planner_ms": round(reply.planner_ms, 1),
                        "answer_ms": round(reply.answer_ms, 1),
                        "plan": reply.plan.to_dict() if hasattr(reply.plan, "to_dict") else None,
                    },
                    ensure_ascii=False,
                    default=str,
                )
            )
        elif show_plan and hasattr(reply.plan, "render"):
            reply.plan.render(console)  # the console shows any control character as text


class _DraftView:
    """The streamed draft on a terminal, in a transient live view (gone once the answer is final)."""

    def __init__(self, console: Any) -> None:
        from rich.live import Live

        self.pieces: list[str] = []
        self.live = Live(console=console, refresh_per_second=8, transient=True)
        self.live.start()

    def add(self, piece: str) -> None:
        from rich.text import Text

        self.pieces.append(piece)
        self.live.update(Text(printable("".join(self.pieces))))

    def stop(self) -> None:
        self.live.stop()


def _print_proposal(console: Any, proposal: dict[str, Any]) -> None:
    from rich.panel import Panel
    from rich.table import Table
    from rich.text import Text

    from ibachat.commands.common import printable

    table = Table("parameter", "value", "why", box=None)
    for key, value in proposal["arguments"].items():
        table.add_row(
            Text(printable(key)),
            Text(printable(json.dumps(value, ensure_ascii=False))),
            Text(printable(str(proposal["reasons"].get(key, "")))),
        )
    console.print(Panel(table, title=Text(printable(f"proposed: {proposal['name']}")), expand=False))
