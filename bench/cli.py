"""``ibachat bench``: generate, validate, run and report IBA-Bench suites; evaluate retrieval.

Only click and light modules are imported here; each command imports the rest when it runs,
so ``--help`` stays fast. ``run`` is the default command: ``ibachat bench --agent rag`` is ``ibachat bench run --agent rag``.
"""

from __future__ import annotations

import functools
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from bench.validate import DOMAINS

# the same as bench.agents.AGENTS / ABLATIONS (a test keeps them equal); spelt here so --help stays light
AGENTS = ("iba", "rag", "full", "none")
ABLATIONS = ("deep-retrieval", "alignment", "synthesis")

DEFAULT_SEED = 0


class DefaultGroup(click.Group):
    """A group that runs ``run`` when the first argument is not one of its commands."""

    default_command = "run"

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        if not args or (args[0] not in self.commands and args[0] not in ("--help", "-h")):
            args = [self.default_command, *args]
        return super().parse_args(ctx, args)


def friendly(func: Callable[..., Any]) -> Callable[..., Any]:
    """Bad input and unavailable models become one line and a non-zero exit, not a traceback."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        from ibachat.errors import USER_ERRORS

        try:
            return func(*args, **kwargs)
        except USER_ERRORS as err:
            raise click.ClickException(str(err)) from None

    return wrapper


def _echo_json(data: Any) -> None:
    click.echo(json.dumps(data, indent=2, ensure_ascii=False, default=str))


def default_suite_path() -> Path:
    from memory.paths import home

    return home() / "bench" / f"suite-seed{DEFAULT_SEED}.jsonl"


def _build_suite(
    path: Path, *, seed: int, personas: int | None = None, variant: str = "canonical"
) -> dict[str, Any]:
    """Generate a suite into ``path`` (the generator writes atomically: a kill leaves no half suite)."""
    from bench.generator import write_suite

    kwargs: dict[str, Any] = {"seed": seed, "variant": variant}
    if personas is not None:
        kwargs["personas"] = personas
    return write_suite(path, **kwargs)


@click.group(cls=DefaultGroup, context_settings={"help_option_names": ["-h", "--help"]})
def bench() -> None:
    """IBA-Bench: implicit behavioural alignment of personal agents. `run` is the default command."""


@bench.command()
@click.option(
    "--domain", "domains", multiple=True, type=click.Choice(DOMAINS), help="Only these domains (repeatable)."
)
@click.option("--scenario", help="Only this scenario.")
@click.option("--limit", type=click.IntRange(min=1), help="At most this many tasks.")
@click.option(
    "--data",
    type=click.Path(dir_okay=False, path_type=Path),
    help=f"A suite (.jsonl). Default: the generated seed-{DEFAULT_SEED} suite, built on first use.",
)
@click.option(
    "--agent",
    "agents",
    multiple=True,
    type=click.Choice(AGENTS),
    help="Agents to run (repeatable; default iba).",
)
@click.option("--ablate", type=click.Choice(ABLATIONS), help="Switch off one part of the iba agent.")
@click.option(
    "--model",
    help="Chat model: ollama:NAME, embedded[:PATH.gguf], openai:NAME@URL[,URL...] or auto. "
    "Default: no model (rule floor).",
)
@click.option(
    "--servers",
    type=click.Path(dir_okay=False, path_type=Path),
    help="A TOML file of OpenAI-compatible servers ([[server]] url=...); workers spread over them.",
)
@click.option("--embedder", help="Embedder spec (minilm, bge-m3, hash, ollama:NAME...). Default: minilm.")
@click.option(
    "--judge", "judges", multiple=True, help="A judge model for judge checks (repeat for a panel, e.g. 3)."
)
@click.option(
    "--jobs",
    type=click.IntRange(min=1),
    default=1,
    show_default=True,
    help="Worker processes (Ray: workers).",
)
@click.option(
    "--executor",
    type=click.Choice(("local", "ray")),
    default="local",
    show_default=True,
    help="Where tasks run: here, or on Ray workers (pip install 'ibachat[ray]').",
)
@click.option("--address", help="Ray cluster: auto or ray://HOST:PORT. Default: start one on this machine.")
@click.option("--resume", is_flag=True, help="Continue the results in --out, skipping finished tasks.")
@click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    help="Results folder (default: a new one under <home>/bench/results/<suite>/; --resume continues the newest).",
)
@click.option(
    "--window", "window_tokens", type=click.IntRange(min=256), help="Context window for the full agent."
)
@click.option("--json", "as_json", is_flag=True, help="Print the run summaries as JSON.")
@click.option("--quiet", is_flag=True, help="No progress bar.")
@friendly
def run(
    domains: tuple[str, ...],
    scenario: str | None,
    limit: int | None,
    data: Path | None,
    agents: tuple[str, ...],
    ablate: str | None,
    model: str | None,
    servers: Path | None,
    embedder: str | None,
    judges: tuple[str, ...],
    jobs: int,
    executor: str,
    address: str | None,
    resume: bool,
    out: Path | None,
    window_tokens: int | None,
    as_json: bool,
    quiet: bool,
) -> None:
    """Run agents over a suite; one results file per agent in --out."""
    from bench.runner import run_bench
    from bench.validate import load_suite
    from memory.errors import BadInput
    from memory.paths import ensure_private_dir, home

    agents = tuple(dict.fromkeys(agents or ("iba",)))
    if servers is not None:
        model = _servers_spec(servers, model)
    if ablate and "iba" not in agents:
        raise BadInput("--ablate switches off part of the iba agent: add --agent iba")
    if data is None:
        data = default_suite_path()
        if not data.exists():
            click.echo(f"building the seed-{DEFAULT_SEED} suite in {data} (once)...", err=True)
            ensure_private_dir(data.parent)
            _build_suite(data, seed=DEFAULT_SEED)
    tasks = load_suite(data, domains=domains or None, scenario=scenario, limit=limit)
    if not tasks:
        raise BadInput(f"no task in {data} matches the filters")
    if out is None:
        # one folder per run, so running again never collides; --resume continues the newest
        ensure_private_dir(home() / "bench")
        runs = ensure_private_dir(home() / "bench" / "results" / data.stem)
        earlier = sorted(p for p in runs.iterdir() if p.is_dir())
        if resume and earlier:
            out = earlier[-1]
        else:
            from datetime import datetime

            out = ensure_private_dir(runs / datetime.now().strftime("%Y%m%d-%H%M%S"))
    suite = {"path": str(data)}
    summaries = []
    for agent in agents:
        summary = run_bench(
            tasks,
            agent=agent,
            ablate=ablate if agent == "iba" else None,
            model=model,
            embedder=embedder,
            judges=list(judges),
            jobs=jobs,
            executor=executor,
            address=address,
            out_dir=out,
            resume=resume,
            progress=not quiet and not as_json,
            suite=suite,
            window_tokens=window_tokens,
        )
        summaries.append(summary)
        coming = len(agents) - len(summaries)
        if coming and summary.ran and not quiet and not as_json:
            from bench.report import duration_text

            rest = summary.wall_s / summary.ran * len(tasks) * coming
            click.echo(
                f"about {duration_text(rest)} more for {coming} agent(s) still to run, at this pace", err=True
            )
    if as_json:
        _echo_json([s.to_dict() for s in summaries])
        return
    from rich.console import Console

    from bench.report import build_report, print_report

    console = Console()
    for s in summaries:
        soft = "-" if s.soft is None else f"{s.soft:.1f}"
        strict = "-" if s.strict is None else f"{s.strict:.1f}"
        console.print(
            f"{s.label}: {s.ran} run, {s.skipped} already done, {s.errors} failed; "
            f"soft {soft}, strict {strict}; {s.wall_s:.1f} s -> {s.results}"
        )
    print_report(build_report([s.results for s in summaries]), console)


def _servers_spec(path: Path, model: str | None) -> str:
    """``--servers FILE`` as an ``openai:`` spec; ``--model openai:NAME`` gives the default name."""
    from ibachat.llm.openai_backend import endpoints_from_toml, format_endpoints
    from ibachat.llm.select import parse_spec
    from memory.errors import BadInput

    name = ""
    if model:
        kind, arg = parse_spec(model)
        if kind != "openai":
            raise BadInput(
                "--servers lists OpenAI-compatible servers: use it with --model openai:NAME or alone"
            )
        name = (arg or "").split("@", 1)[0]
    return "openai:" + format_endpoints(endpoints_from_toml(path, name))


@bench.command()
@click.option("--seed", type=int, default=DEFAULT_SEED, show_default=True)
@click.option("--personas", type=click.IntRange(min=1), default=400, show_default=True)
@click.option(
    "--out", type=click.Path(dir_okay=False, path_type=Path), default=Path("suite.jsonl"), show_default=True
)
@click.option(
    "--variant",
    type=click.Choice(("canonical", "foreign", "foreign-fresh")),
    default="canonical",
    show_default=True,
    help="foreign: the same tasks with every tool renamed and re-spelt (other words, enums, units), "
    "past calls too; foreign-fresh: past calls keep the old tools (a user new to these tools).",
)
@click.option("--foreign-tools", is_flag=True, help="The same as --variant foreign.")
@friendly
def generate(seed: int, personas: int, out: Path, variant: str, foreign_tools: bool) -> None:
    """Generate a reproducible IBA-Bench-format suite."""
    variant = "foreign" if foreign_tools else variant
    result = _build_suite(out, seed=seed, personas=personas, variant=variant)
    click.echo(json.dumps({"path": str(out), "seed": seed, **result}, default=str))


@bench.command()
@click.option(
    "--data",
    required=True,
    type=click.Path(path_type=Path),
    help="The PrefEval folder (mcq_options/, explicit_preference/, implicit_preference/).",
)
@click.option(
    "--form",
    "forms",
    multiple=True,
    type=click.Choice(("explicit", "choice", "persona", "all")),
    help="Preference forms (repeatable; default all).",
)
@click.option(
    "--filler",
    "fillers",
    multiple=True,
    type=click.IntRange(min=0),
    help="Unrelated turns around the preference (repeatable; default 50).",
)
@click.option("--topics", help="Only these topics (comma-separated).")
@click.option(
    "--split",
    type=click.Choice(("all", "tune", "held-out")),
    default="all",
    show_default=True,
    help="The 7 tuning topics, the 3 held out (bench/prefeval.py HELD_OUT), or all.",
)
@click.option("--limit-per-topic", type=click.IntRange(min=1), help="At most this many pairs per topic.")
@click.option("--seed", type=int, default=DEFAULT_SEED, show_default=True)
@click.option(
    "--locomo",
    type=click.Path(exists=True, path_type=Path),
    help="Also draw filler from LoCoMo sessions (locomo10.zip or .json). Default: small talk only.",
)
@click.option(
    "--out",
    type=click.Path(dir_okay=False, path_type=Path),
    default=Path("prefeval-suite.jsonl"),
    show_default=True,
)
@friendly
def prefeval(
    data: Path,
    forms: tuple[str, ...],
    fillers: tuple[int, ...],
    topics: str | None,
    split: str,
    limit_per_topic: int | None,
    seed: int,
    locomo: Path | None,
    out: Path,
) -> None:
    """Write PrefEval pairs as an IBA-Bench suite of action tasks (validated); run it with `run --data`."""
    from bench.prefeval import write_prefeval_suite

    result = write_prefeval_suite(
        out,
        folder=data,
        forms="all" if not forms or "all" in forms else forms,
        fillers=fillers or (50,),
        topics=[t.strip() for t in topics.split(",") if t.strip()] if topics else None,
        split=split,
        seed=seed,
        limit_per_topic=limit_per_topic,
        locomo=locomo,
    )
    click.echo(json.dumps({**result, "seed": seed}))


@bench.command()
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@friendly
def validate(file: Path, as_json: bool) -> None:
    """Check a suite line by line; exits non-zero when anything is wrong."""
    from bench.validate import validate_suite

    report = validate_suite(file)
    if as_json:
        _echo_json(report.to_dict())
    else:
        for issue in report.issues:
            click.echo(str(issue))
    if not report.ok:
        raise click.ClickException(report.summary(first=1))
    if not as_json:
        domains = ", ".join(f"{d} {n}" for d, n in sorted(report.domains.items()))
        click.echo(f"{file}: {report.valid} tasks, valid ({domains})")


@bench.command()
@click.argument("paths", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@click.option(
    "--html",
    "html_file",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Write a self-contained HTML report.",
)
@click.option("--scenarios", is_flag=True, help="Also print the per-scenario table.")
@friendly
def report(paths: tuple[Path, ...], as_json: bool, html_file: Path | None, scenarios: bool) -> None:
    """Report on results files (or folders of them), each agent side by side."""
    from bench.report import build_report, print_report, render_html
    from memory.atomic import atomic_write_text

    data = build_report(paths)
    if html_file:
        atomic_write_text(html_file, render_html(data))
        click.echo(f"wrote {html_file}", err=True)
    if as_json:
        _echo_json(data)
    elif not html_file:
        print_report(data, scenarios=scenarios)


@bench.command()
@click.option("--data", required=True, type=click.Path(exists=True, path_type=Path), help="The dataset file.")
@click.option(
    "--format",
    "fmt",
    type=click.Choice(("locomo", "longmemeval", "jsonl", "iba", "prefeval")),
    help="Default: detected. prefeval: a PrefEval folder, all forms at 50 filler turns.",
)
@click.option(
    "--k", "ks", multiple=True, type=click.IntRange(min=1), help="Cut-offs (repeatable; default 5 and 10)."
)
@click.option(
    "--method",
    "methods",
    multiple=True,
    type=click.Choice(("deep", "bm25", "dense", "hybrid")),
    help="Methods (repeatable; default deep, bm25, dense).",
)
@click.option("--embedder", help="Embedder spec (default minilm).")
@click.option("--limit", type=click.IntRange(min=1), help="At most this many questions.")
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
@friendly
def retrieval(
    data: Path,
    fmt: str | None,
    ks: tuple[int, ...],
    methods: tuple[str, ...],
    embedder: str | None,
    limit: int | None,
    as_json: bool,
) -> None:
    """Evidence recall@k and hit@k of memory retrieval on LoCoMo, LongMemEval, jsonl cases or an IBA-Bench suite."""
    from bench.datasets import load_dataset
    from bench.retrieval_eval import evaluate_retrieval, retrieval_table
    from memory.paths import home

    dataset = load_dataset(data, fmt, limit=limit)
    result = evaluate_retrieval(
        dataset,
        methods=methods or ("deep", "bm25", "dense"),
        ks=ks or (5, 10),
        embedder=embedder,
        cache_dir=home() / "bench" / "embed-cache",
        limit=limit,
    )
    result["path"] = str(data)
    if as_json:
        _echo_json(result)
        return
    from rich.console import Console

    Console().print(retrieval_table(result))
    if result["skipped"]:
        click.echo(f"skipped: {result['skipped']}", err=True)


def main() -> None:  # pragma: no cover - for `python -m bench.cli`
    bench.main(prog_name="ibachat bench")


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
