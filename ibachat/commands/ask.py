"""`ibachat ask`: one planned turn outside the TUI."""

from __future__ import annotations

import json
import sys
from typing import Any

import click

from ibachat.commands.common import err_console, open_memory, out_console


def load_model(obj: dict[str, Any], spec: str | None = None) -> Any:
    """The configured chat model (not loaded yet: the first call loads or connects)."""
    from ibachat.llm.select import resolve_model

    cfg = obj["config"]
    return resolve_model(spec or cfg.model, host=cfg.ollama_host or None)


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
    help="Chat model for this turn: auto | embedded | embedded:/path.gguf | ollama:NAME | openai:NAME@URL.",
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
        assistant = Assistant(mem, llm, config=obj["config"])
        streamed: list[str] = []

        def on_token(piece: str) -> None:
            streamed.append(piece)
            if not as_json:
                sys.stdout.write(piece)
                sys.stdout.flush()

        try:
            reply = assistant.respond(session, message, on_token=on_token)
        finally:
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

            shown = "".join(streamed).strip()
            if streamed:
                sys.stdout.write("\n")
            if reply.text and reply.text.strip() != shown:
                # the streamed draft broke a measurable directive (length, format, words to avoid)
                if streamed:
                    err_console().print("revised to follow the plan:")
                console.print(Text(reply.text))
        if as_json:
            click.echo(
                json.dumps(
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
                        "plan": reply.plan.to_dict() if hasattr(reply.plan, "to_dict") else None,
                    },
                    ensure_ascii=False,
                    default=str,
                )
            )
        elif show_plan and hasattr(reply.plan, "render"):
            reply.plan.render(console)


def _print_proposal(console: Any, proposal: dict[str, Any]) -> None:
    from rich.panel import Panel
    from rich.table import Table
    from rich.text import Text

    table = Table("parameter", "value", "why", box=None)
    for key, value in proposal["arguments"].items():
        table.add_row(
            Text(key), Text(json.dumps(value, ensure_ascii=False)), Text(proposal["reasons"].get(key, ""))
        )
    console.print(Panel(table, title=Text(f"proposed: {proposal['name']}"), expand=False))
