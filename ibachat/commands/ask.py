"""`ibachat ask`: one planned turn outside the TUI."""

from __future__ import annotations

import click


@click.command()
@click.argument("message")
def ask(message: str) -> None:
    """Ask once: the turn is stored, the planner runs, the answer streams."""
    raise click.ClickException("ask: the planner is not wired yet")
