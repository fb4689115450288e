"""`ibachat server`: the resident warm process the command line talks to (``ibachat.server``)."""

from __future__ import annotations

import json
import os
import sys
import time
from typing import Any

import click

from ibachat.commands.common import out_console


@click.group()
def server() -> None:
    """The resident process that makes `ask` and `memory` answer at once (started on first use)."""


@server.command()
@click.option("--foreground", is_flag=True, help="Run in this terminal until stopped (Ctrl-C).")
@click.option("--idle", type=float, help="Stop after this many idle seconds (default 900).")
def start(foreground: bool, idle: float | None) -> None:
    """Start the server for this memory home (nothing happens if one is running)."""
    from ibachat import server_client as srv

    h = srv.home()
    running = srv.request(h, "status", timeout=1.0)
    if running:
        click.echo(f"already running (pid {running['pid']})")
        return
    if foreground:  # this process becomes the server (the same pid, terminal and Ctrl-C)
        if idle is not None:
            os.environ["IBACHAT_SERVER_IDLE"] = str(idle)
        sys.stdout.flush()
        os.execv(sys.executable, [sys.executable, "-c", srv.SERVE])
    from memory.paths import ensure_private_dir

    ensure_private_dir(h)
    if idle is not None:
        os.environ["IBACHAT_SERVER_IDLE"] = str(idle)
    srv.start_detached(h)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        status = srv.request(h, "status", timeout=1.0)
        if status:
            click.echo(f"started (pid {status['pid']}, loaded in {sum(status['loaded'].values()):.1f} s)")
            return
        time.sleep(0.1)  # polling for a condition (the socket answering), with a deadline
    raise click.ClickException(f"the server did not come up in 60 s; see {h / 'server.log'}")


@server.command()
def stop() -> None:
    """Stop the server (commands still running finish first)."""
    from ibachat import server_client as srv

    h = srv.home()
    reply = srv.request(h, "stop")
    if not reply:
        click.echo("not running")
        return
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and srv.socket_path(h).exists():
        time.sleep(0.05)  # waiting for the socket to go: the server's last act
    click.echo(f"stopped (pid {reply['pid']}, served {reply['served']} command(s))")


@server.command()
@click.option("--json", "as_json", is_flag=True)
def status(as_json: bool) -> None:
    """Whether a server runs for this home, since when, and its last commands' times."""
    from ibachat import server_client as srv

    reply = srv.request(srv.home(), "status")
    if as_json:
        click.echo(json.dumps(reply or {"running": False}, indent=2))
        return
    console = out_console()
    if not reply:
        console.print("not running (starts on first use of `ask` or `memory`; `ibachat server start`)")
        return
    recent = reply.get("recent") or []
    last = f"; last command {recent[-1]['wall_s']:.2f} s, {recent[-1]['maxrss_mb']:.0f} MB" if recent else ""
    loaded = ", ".join(f"{k.removesuffix('_s')} {v:.2f} s" for k, v in reply["loaded"].items())
    console.print(
        f"running (pid {reply['pid']}, up {time.time() - reply['since']:.0f} s, "
        f"served {reply['served']}, idle stop {reply['idle_stop_s']:.0f} s; loaded: {loaded}){last}"
        + (f"\n{reply['model']}" if reply.get("model") else ""),
        highlight=False,
    )


def status_row() -> dict[str, Any]:
    """The server's line for `ibachat doctor`."""
    from ibachat import server_client as srv

    reply = srv.request(srv.home(), "status", timeout=1.0)
    if not reply:
        return {
            "check": "resident server",
            "ok": False,
            "optional": True,
            "detail": "not running (optional; starts on first use, or `ibachat server start`)",
        }
    return {
        "check": "resident server",
        "ok": True,
        "detail": f"running, pid {reply['pid']}, served {reply['served']}"
        + (f"; {reply['model']}" if reply.get("model") else ""),
    }
