"""The ``ibachat`` command. Heavy modules are imported inside commands, so ``--help`` stays fast."""

from __future__ import annotations

import sys

import click

from ibachat import __version__


class _Group(click.Group):
    """Lists commands in the order they were added (the order a newcomer needs them)."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return list(self.commands)


@click.group(
    cls=_Group, invoke_without_command=True, context_settings={"help_option_names": ["-h", "--help"]}
)
@click.version_option(__version__, "--version", prog_name="ibachat")
@click.option(
    "--model", help="Chat model: auto | embedded | embedded:/path/x.gguf | ollama:NAME | openai:NAME@URL."
)
@click.option(
    "--embedder", help="Embedder: minilm (offline default) | bge-m3[:path] | path:/folder | ollama:NAME."
)
@click.pass_context
def cli(ctx: click.Context, model: str | None, embedder: str | None) -> None:
    """ibachat: a terminal assistant that remembers you and acts on it.

    Run with no command to open the chat (the Textual app; `ibachat chat --plain` for a plain prompt).
    """
    from ibachat.config import load_config

    cfg, origin = load_config(overrides={"model": model, "embedder": embedder})
    ctx.obj = {"config": cfg, "origin": origin}
    if ctx.invoked_subcommand is None:
        from ibachat.commands.chat import run_default

        run_default(ctx.obj)


def _register() -> None:
    from ibachat.commands import ask, chat, config_cmd, doctor, memory_cmd, server_cmd

    cli.add_command(ask.ask)
    cli.add_command(chat.chat)
    cli.add_command(memory_cmd.memory)
    cli.add_command(config_cmd.config)
    cli.add_command(doctor.doctor)
    cli.add_command(server_cmd.server)
    cli.add_command(_bench_command())


def _bench_command() -> click.Command:
    """`ibachat bench` lives in the bench package; ibachat never imports it statically."""

    @click.command(
        "bench",
        context_settings={"ignore_unknown_options": True, "allow_extra_args": True, "help_option_names": []},
        add_help_option=False,
    )
    @click.argument("args", nargs=-1, type=click.UNPROCESSED)
    @click.pass_context
    def bench(ctx: click.Context, args: tuple[str, ...]) -> None:
        """IBA-Bench: generate, validate, run and report implicit-alignment suites (`ibachat bench --help`)."""
        import importlib

        try:
            module = importlib.import_module("bench.cli")
        except ModuleNotFoundError as exc:
            raise click.ClickException(f"IBA-Bench is not installed ({exc.name} missing)") from None
        group: click.Command = module.bench
        group.main(args=list(args), prog_name="ibachat bench", standalone_mode=False, obj=ctx.obj)

    return bench


_register()


def _undecodable(args: list[str]) -> str | None:
    """Why an argument is not text (non-UTF-8 bytes arrive as lone surrogates), or None."""
    for n, arg in enumerate(args, start=1):
        try:
            arg.encode("utf-8")
        except UnicodeEncodeError as exc:
            char = ord(arg[exc.start])
            what = f"byte 0x{char - 0xDC00:02x}" if 0xDC80 <= char <= 0xDCFF else f"U+{char:04X}"
            return f"argument {n} is not valid UTF-8 ({what} at character {exc.start + 1})"
    return None


def main(argv: list[str] | None = None) -> int:
    """Entry point: domain errors become one line on stderr and a non-zero exit."""
    import os

    # On a small shared CPU, spinning BLAS/OpenMP threads cost far more than they give
    # (measured here: a 2000x384 mat-vec 2.4 ms with two OpenBLAS threads, 0.05 ms with one).
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
    from ibachat.commands.common import printable
    from ibachat.errors import USER_ERRORS
    from memory.paths import private_umask

    private_umask()  # files 0600 and folders 0700 whatever umask we were started with
    args = sys.argv[1:] if argv is None else list(argv)
    bad = _undecodable(args)
    if bad:
        click.echo(f"ibachat: error: {bad}; nothing was done", err=True)
        return 2
    try:
        # outside standalone mode click hands back a command's `Exit(code)` as its return value
        code = cli.main(args=args, prog_name="ibachat", standalone_mode=False)
    except click.exceptions.Abort:
        click.echo("aborted", err=True)
        return 130
    except click.ClickException as exc:
        exc.message = printable(exc.message)  # it may quote what was typed (a file name, an id)
        exc.show()
        return exc.exit_code
    except click.exceptions.Exit as exc:
        return exc.exit_code
    except USER_ERRORS as exc:
        click.echo(f"ibachat: error: {printable(str(exc))}", err=True)
        return 1
    except KeyboardInterrupt:
        click.echo("interrupted", err=True)
        return 130
    except BrokenPipeError:
        sys.stderr.close()
        return 0
    except OSError as exc:  # the disk or the home failed in a way no check foresaw: still one line
        from memory.preflight import describe_os_error

        click.echo(f"ibachat: error: {printable(describe_os_error(exc))}", err=True)
        return 1
    return code if isinstance(code, int) else 0


if __name__ == "__main__":
    sys.exit(main())
