"""`ibachat config show`: the effective settings and where each came from."""

from __future__ import annotations

import json
from typing import Any

import click

from ibachat.commands.common import out_console


@click.group()
def config() -> None:
    """Settings: flags > environment > config file > defaults."""


@config.command()
@click.option("--json", "as_json", is_flag=True)
@click.pass_obj
def show(obj: dict[str, Any], as_json: bool) -> None:
    """Show the effective configuration and the source of each value."""
    from memory.paths import config_file, home

    cfg, origin = obj["config"], obj["origin"]
    if as_json:
        click.echo(
            json.dumps(
                {
                    "config_file": str(config_file()),
                    "home": str(home()),
                    "settings": cfg.as_dict(),
                    "origin": origin,
                },
                indent=2,
            )
        )
        return
    from rich.table import Table

    table = Table("setting", "value", "from")
    for key, value in cfg.as_dict().items():
        table.add_row(key, str(value), origin[key])
    console = out_console()
    console.print(f"config file: {config_file()}", highlight=False)
    console.print(f"memory home: {home()}", highlight=False)
    console.print(table)
