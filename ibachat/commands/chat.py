"""`ibachat chat` and the default action: the full-screen app, or with --plain a plain prompt."""

from __future__ import annotations

import sys
from typing import Any

import click


def run_default(obj: dict[str, Any]) -> None:
    """`ibachat` with no command: the app."""
    run_tui(obj, incognito=False, session=None)


def run_tui(obj: dict[str, Any], *, incognito: bool, session: str | None) -> None:
    from ibachat.tui.app import IbachatApp
    from ibachat.tui.loader import load_assistant

    cfg = obj["config"]
    app = IbachatApp(
        lambda progress: load_assistant(cfg, progress=progress),
        theme=cfg.theme,
        incognito=incognito,
        session=session,
    )
    try:
        app.run()
    finally:
        close_assistant(app.assistant_to_close())
    from ibachat.errors import USER_ERRORS

    if isinstance(app.load_error, USER_ERRORS):
        raise app.load_error  # the store is busy, the model cannot be used: one line, exit status 1


def close_assistant(assistant: Any) -> None:
    if assistant is None:
        return
    try:
        if assistant.llm is not None:
            assistant.llm.close()
    finally:
        assistant.memory.close()


def run_plain(obj: dict[str, Any], *, incognito: bool, session: str | None) -> int:
    from ibachat.repl import run_repl
    from ibachat.tui.loader import load_assistant

    cfg = obj["config"]
    if sys.stderr.isatty():
        from ibachat.commands.common import err_console

        with err_console().status("starting…") as status:
            loaded = load_assistant(cfg, progress=lambda stage, _: status.update(stage))
    else:
        loaded = load_assistant(cfg)
    try:
        if loaded.banner:
            from rich.text import Text

            from ibachat.commands.common import err_console

            err_console().print(Text(loaded.banner, style="yellow"))
        if session is not None and session not in {s.id for s in loaded.assistant.sessions()}:
            raise click.ClickException(f"no session {session!r} (ibachat memory show lists sessions)")
        return run_repl(loaded.assistant, session=session, incognito=incognito)
    finally:
        close_assistant(loaded.assistant)


@click.command()
@click.option(
    "--plain", is_flag=True, help="A plain prompt instead of the full-screen app (works through a pipe)."
)
@click.option("--incognito", is_flag=True, help="Start a session that is not remembered.")
@click.option("--session", "session", metavar="ID", help="Continue this session.")
@click.pass_obj
def chat(obj: dict[str, Any], plain: bool, incognito: bool, session: str | None) -> None:
    """Chat with the assistant: every turn is remembered and planned from (except incognito)."""
    if incognito and session:
        raise click.UsageError("--incognito starts a new session; it cannot be combined with --session")
    if plain:
        code = run_plain(obj, incognito=incognito, session=session)
        if code:
            sys.exit(code)
        return
    run_tui(obj, incognito=incognito, session=session)
