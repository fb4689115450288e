"""`ibachat chat` and the default action: the assistant itself."""

from __future__ import annotations

from typing import Any

import click


def run_default(obj: dict[str, Any]) -> None:
    raise click.ClickException("the chat app is not wired yet")


@click.command()
@click.option("--plain", is_flag=True, help="A plain prompt instead of the full-screen app.")
def chat(plain: bool) -> None:
    """Chat with the assistant."""
    raise click.ClickException("chat: not wired yet")
