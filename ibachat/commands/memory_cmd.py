"""`ibachat memory ...`: see, search, forget, export, import, and maintain what ibachat remembers."""

from __future__ import annotations

import json
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import click

from ibachat.commands.common import (
    bring_indexes_up_to_date,
    err_console,
    one_line,
    open_memory,
    out_console,
    printable,
    progress_bar,
    safe_json,
)


def _time(value: str | None) -> datetime | None:
    if value is None:
        return None
    from memory.types import parse_time

    try:
        return parse_time(value)
    except ValueError:
        raise click.BadParameter(f"{value!r} is not an ISO-8601 date or time") from None


@click.group()
def memory() -> None:
    """See and manage what ibachat remembers."""


@memory.command()
@click.option("--session", help="Only this session.")
@click.option("--role", type=click.Choice(["user", "assistant", "tool"]))
@click.option("--source", type=click.Choice(["chat", "bench", "import"]))
@click.option("--since", help="Only turns at or after this ISO-8601 time.")
@click.option("--until", help="Only turns at or before this ISO-8601 time.")
@click.option("--limit", "-n", default=50, show_default=True, help="How many turns (0: all).")
@click.option("--full", is_flag=True, help="Show whole texts instead of one line each.")
@click.option("--json", "as_json", is_flag=True, help="A JSON array on stdout, for machines.")
@click.pass_obj
def show(obj: dict[str, Any], session, role, source, since, until, limit, full, as_json) -> None:
    """Remembered turns, newest first (a read-only view: works while another ibachat runs)."""
    with open_memory(obj, readonly=True) as mem:
        turns = mem.iter_turns(
            newest_first=True,
            session=session,
            role=role,
            source=source,
            since=_time(since),
            until=_time(until),
        )
        if as_json:
            out = sys.stdout
            out.write("[")
            for n, turn in enumerate(turns):
                if limit and n >= limit:
                    break
                out.write(
                    ("," if n else "")
                    + "\n"
                    + safe_json({"id": turn.id, **turn.to_record()}, ensure_ascii=False)
                )
                out.flush() if n == 0 else None
            out.write("\n]\n")
            return
        from rich.text import Text

        console = out_console()
        shown = 0
        for turn in turns:
            if limit and shown >= limit:
                break
            head = Text()
            head.append(f"#{turn.id} ", style="bold cyan")
            head.append(turn.time.strftime("%Y-%m-%d %H:%M %z") + " ", style="dim")
            head.append(f"[{printable(turn.session_id, 40)}] ", style="magenta")
            head.append(turn.role, style="green" if turn.role == "user" else "yellow")
            if turn.flags:
                head.append(" (" + ", ".join(turn.flags) + ")", style="red")
            body = printable(turn.text, 20_000) if full else one_line(turn.text, 160)
            console.print(head, Text("  " + body), sep="\n" if full else " ")
            shown += 1
        if not shown:
            err_console().print(
                "no turns remembered"
                + (" match those filters" if any([session, role, source, since, until]) else " yet")
            )


@memory.command()
@click.argument("query")
@click.option("-k", default=10, show_default=True, help="How many hits.")
@click.option(
    "--mode", type=click.Choice(["hybrid", "dense", "lexical"]), default="hybrid", show_default=True
)
@click.option("--json", "as_json", is_flag=True)
@click.pass_obj
def search(obj: dict[str, Any], query: str, k: int, mode: str, as_json: bool) -> None:
    """Search remembered turns (dense + BM25 fused); shows scores and why each matched.

    Works beside another ibachat that is writing: it then searches what is committed.
    """
    with open_memory(obj, or_read=True) as mem:
        bring_indexes_up_to_date(mem)
        hits = mem.search(query, k, mode=mode)
        if not mem.readonly:  # a reader beside a writer may catch an index mid-save: not damage
            for problem in mem.index_damage:
                err_console().print(
                    f"index {problem}: rebuilt from the turn store", soft_wrap=True, markup=False
                )
        turns = {t.id: t for t in mem.get_many([h.id for h in hits])}
        if as_json:
            rows = [
                {"id": h.id, "score": h.score, "why": h.why, **turns[h.id].to_record()}
                for h in hits
                if h.id in turns
            ]
            click.echo(safe_json(rows, ensure_ascii=False, default=str))
            return
        from rich.table import Table
        from rich.text import Text

        table = Table(show_lines=False, expand=True)
        for col in ("id", "score", "why", "when", "role", "text"):
            table.add_column(col, overflow="fold" if col == "text" else "ellipsis", no_wrap=col != "text")
        for h in hits:
            t = turns.get(h.id)
            if t is None:
                continue
            why = ", ".join(
                f"{src}#{info.get('rank')}" for src, info in h.why.items() if isinstance(info, dict)
            )
            terms = h.why.get("lexical", {}).get("terms") if isinstance(h.why.get("lexical"), dict) else None
            if terms:
                why += " (" + " ".join(terms[:4]) + ")"
            table.add_row(
                str(h.id),
                f"{h.score:.3f}",
                Text(why),
                t.time.strftime("%Y-%m-%d"),
                t.role,
                Text(one_line(t.text, 200)),
            )
        out_console().print(table if hits else Text("no matches"))


@memory.command()
@click.argument("ids", nargs=-1, type=int)
@click.option("--session", help="Forget every turn of this session.")
@click.option("--since", help="Forget turns at or after this time (with --until for a range).")
@click.option("--until", help="Forget turns at or before this time.")
@click.option("--yes", "-y", is_flag=True, help="Do not ask (needed when stdin is not a terminal).")
@click.option(
    "--undoable",
    is_flag=True,
    help="Keep an encrypted copy for 10 minutes; the key to restore it is printed once.",
)
@click.option("--undo", "undo_key", metavar="KEY", help="Restore the last --undoable forget with its key.")
@click.option("--no-undo", "no_undo", is_flag=True, hidden=True, help="The default now: keep no copy.")
@click.pass_obj
def forget(
    obj: dict[str, Any], ids: tuple[int, ...], session, since, until, yes, undoable, undo_key, no_undo
) -> None:
    """Forget turns for real: store, indexes, caches, ledger, plans and line history.

    Nothing is kept to undo it unless you ask (--undoable): then the removed turns are kept
    encrypted for 10 minutes, and `ibachat memory forget --undo KEY` restores them.
    """
    from ibachat.commands import forgetting

    if undo_key is not None:
        if ids or session or since or until or undoable:
            raise click.UsageError("--undo takes only its key: it restores the last --undoable forget")
        with open_memory(obj) as mem:
            item = forgetting.take_undo(mem.home, undo_key)
            new = forgetting.restore(mem, item)
        err_console().print(f"restored {len(new)} turn(s) as " + ", ".join(f"#{i}" for i in new))
        return
    if undoable and no_undo:
        raise click.UsageError("--undoable and --no-undo contradict each other")
    if not ids and not session and not since and not until:
        raise click.UsageError("say what to forget: turn ids, --session, or --since/--until")
    lo, hi = _time(since), _time(until)
    with open_memory(obj) as mem:
        targets = set(ids)
        unknown = sorted(i for i in targets if i not in {t.id for t in mem.get_many(targets)})
        if unknown:
            raise click.ClickException(
                "no turn " + ", ".join(f"#{i}" for i in unknown) + " (ibachat memory show lists them)"
            )
        if session or since or until:
            targets |= {t.id for t in mem.iter_turns(session=session, since=lo, until=hi)}
        if not targets:
            if mem.resumed_forget:
                err_console().print("nothing more to forget")
                return
            raise click.ClickException("no turn matches those filters; nothing forgotten")
        if not yes:
            if not sys.stdin.isatty():
                raise click.UsageError(f"this would forget {len(targets)} turn(s); add --yes to confirm")
            if not click.confirm(f"Forget {len(targets)} turn(s) for good?", default=False, err=True):
                raise click.ClickException("nothing forgotten")
        from ibachat.tui.undo import UndoBuffer

        forgetting.undo_path(mem.home).unlink(missing_ok=True)  # only the latest forget can be undone
        buffer = UndoBuffer(mem)
        removed = buffer.forget_turns(sorted(targets))
        forgetting.drop_titles(mem, {t.session_id for t in removed})
        note = ""
        if undoable and buffer._items:
            key, until_at = forgetting.save_undo(mem.home, buffer._items[-1])
            note = (
                f"; until {datetime.fromtimestamp(until_at):%H:%M}, "
                f"`ibachat memory forget --undo {key}` restores them (the key is not stored)"
            )
        err_console().print(f"forgot {len(removed)} turn(s){note}", soft_wrap=True)


@memory.command("export")
@click.option(
    "--out", "-o", type=click.Path(dir_okay=False, path_type=Path), help="File to write (default: stdout)."
)
@click.pass_obj
def export_(obj: dict[str, Any], out: Path | None) -> None:
    """Export every turn as JSON Lines (oldest first); `memory import` reads it back exactly."""
    from memory.atomic import atomic_write_text
    from memory.jsonl import export_line

    with open_memory(obj, readonly=True) as mem:
        lines = (export_line(t) + "\n" for t in mem.iter_turns(newest_first=False))
        if out is None:
            for line in lines:
                sys.stdout.write(line)
        else:
            atomic_write_text(out, "".join(lines))
            err_console().print(f"exported to {out}")


@memory.command("import")
@click.argument("path", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.pass_obj
def import_(obj: dict[str, Any], path: Path) -> None:
    """Import turns from JSON Lines (or IBA-Bench task files): all or nothing, secrets redacted.

    Turns the store already holds (same session, role, time and text) are skipped, so a file
    can be imported again, e.g. after an interrupted run, which resumes from its embeddings.
    """
    from rich.text import Text

    from ibachat.redact import redact, redact_value
    from memory.jsonl import check_import_file, iter_import_file

    kinds: set[str] = set()

    def redacted(update: Any) -> Any:
        for rec in iter_import_file(path, update):
            rec["text"], found = redact(rec["text"])
            kinds.update(found)
            if rec.get("tool_call") is not None:
                rec["tool_call"], found = redact_value(rec["tool_call"])
                kinds.update(found)
            yield rec

    with progress_bar("checking") as update:
        check_import_file(path, update)  # a bad line is refused before anything is written
    with open_memory(obj) as mem, progress_bar("importing") as update:
        result = mem.import_turns(redacted(update))
        read = read_for_preferences(mem, update, total=result["imported"])
    if result["cached"] and result["imported"]:
        err_console().print(f"resumed: {result['cached']:,} turn(s) were already embedded")
    if kinds:
        err_console().print(f"redacted before storing: {', '.join(sorted(kinds))}")
    skipped = f", skipped {result['skipped']:,} already remembered" if result["skipped"] else ""
    err_console().print(Text(f"imported {result['imported']:,} turn(s) from {printable(str(path))}{skipped}"))
    if read:
        err_console().print(f"read {read:,} turn(s) for preferences: see `ibachat memory prefs`")


def read_for_preferences(mem: Any, progress: Any = None, *, total: int = 0, batch: int = 500) -> int:
    """What turns stored without it say about preferences, into the ledger (``agent.ingest``).

    The turns above the ledger's watermark are read oldest first, a batch at a time, in
    bounded memory (``TurnStore.iter_after``); returns how many were read.
    """
    from ibachat.agent.ingest import update_ledger

    done = 0
    pending: list[Any] = []
    for turn in mem.store.iter_after(mem.ledger.watermark):
        pending.append(turn)
        if len(pending) >= batch:
            update_ledger(mem, pending)
            done += len(pending)
            pending = []
            if progress:
                progress("reading for preferences", done, max(total, done))
    if pending:
        update_ledger(mem, pending)
        done += len(pending)
    return done


@memory.command()
@click.option("--json", "as_json", is_flag=True)
@click.pass_obj
def stats(obj: dict[str, Any], as_json: bool) -> None:
    """Counts, sizes, models and index state."""
    with open_memory(obj, readonly=True) as mem:
        info = mem.stats()
    if as_json:
        click.echo(json.dumps(info, indent=2))
        return
    from rich.table import Table
    from rich.text import Text

    table = Table(show_header=False, box=None)
    table.add_row("home", info["home"])
    table.add_row("turns", f"{info['turns']:,} in {info['sessions']:,} sessions")
    table.add_row("by role", ", ".join(f"{k} {v:,}" for k, v in sorted(info["by_role"].items())) or "-")
    table.add_row("by source", ", ".join(f"{k} {v:,}" for k, v in sorted(info["by_source"].items())) or "-")
    table.add_row("never use", str(info["never_use"]))
    table.add_row("embedder", f"{info['embedder']} ({info['ndim']}-d)")
    table.add_row("disk", ", ".join(f"{k} {v / 1e6:.1f} MB" for k, v in info["bytes"].items()))
    if info["index"]["damage"]:
        indexes = "damaged (" + "; ".join(info["index"]["damage"]) + "): rebuilt from the turns on next use"
    else:
        indexes = "in sync" if info["index"]["in_sync"] else "will be reconciled on next use"
    table.add_row("indexes", Text(indexes))
    store_damage = [d for d in info["damage"] if d not in info["index"]["damage"]]
    table.add_row(
        "integrity",
        Text(
            "; ".join(store_damage) + " (run `ibachat memory repair`)" if store_damage else "no damage found"
        ),
    )
    out_console().print(table)
    if store_damage:
        raise click.exceptions.Exit(1)


@memory.command()
@click.pass_obj
def repair(obj: dict[str, Any]) -> None:
    """Check every file; salvage every readable turn of a damaged segment, rebuild damaged indexes."""
    from rich.text import Text

    from ibachat.commands.common import opening_notes
    from ibachat.line_history import scrub_home_history
    from memory.memory import Memory

    with (
        Memory.open(embedder=obj["config"].embedder, repair=True, forget_hooks=[scrub_home_history]) as mem,
        progress_bar("repairing") as update,
    ):
        # what opening it already put right (an import's stage, a forget) is part of the repair
        lines = [note for note in opening_notes(mem) if not note.startswith("warning:")]
        lines += mem.repair(update)
    for line in lines:
        err_console().print(Text(line), soft_wrap=True)
    if not lines:
        err_console().print("nothing to repair: every segment and index checks out")


@memory.command()
@click.pass_obj
def reindex(obj: dict[str, Any]) -> None:
    """Rebuild the vector and lexical indexes from the store (e.g. after switching embedder)."""
    with open_memory(obj) as mem, progress_bar("reindexing") as update:
        result = mem.reindex(update)
    err_console().print(f"reindexed: {result['vectors']:,} vectors, {result['lexical']:,} lexical entries")


@memory.command()
@click.argument("turn_id", type=int)
@click.option("--undo", is_flag=True, help="Allow the turn to be used again.")
@click.pass_obj
def never(obj: dict[str, Any], turn_id: int, undo: bool) -> None:
    """Mark a turn "never use": kept and shown, but never retrieved or planned from."""
    with open_memory(obj) as mem:
        mem.set_never_use(turn_id, not undo)
    err_console().print(f"turn {turn_id} " + ("may be used again" if undo else "will never be used"))


def _scope_words(scope: str) -> str:
    """ " (for Idris)", " (at Saffron Lantern)": whom or where a preference was said of; "" when general."""
    kind, _, what = scope.partition(":")
    return f" ({kind} {what})" if kind in ("for", "at") and what else ""


@memory.command()
@click.option("--as-of", "as_of", help="The ledger as it stood at this date/time (default: now).")
@click.option("--all", "show_all", is_flag=True, help="Include superseded, expired and ignored events.")
@click.option("--json", "as_json", is_flag=True)
@click.pass_obj
def prefs(obj: dict[str, Any], as_of: str | None, show_all: bool, as_json: bool) -> None:
    """The preference ledger: what ibachat believes you want, with evidence and status."""

    when = _time(as_of) or datetime.now(UTC)
    with open_memory(obj, readonly=True) as mem:
        ledger = mem.ledger
        active = {e.id for e in ledger.active(when)}
        events = [e for e in ledger.all() if e.valid_from <= when] if show_all else ledger.active(when)

        def status(e) -> str:
            if e.id in active and e.scope == "one-off":
                return "one-off"  # in force for the request it was said in, never a standing wish
            if e.id in active:
                return "pinned" if e.pinned else "active"
            if e.kind == "ignored":
                return "ignored"
            if ledger.is_superseded(e, when):
                return "superseded"
            if e.valid_until and when >= e.valid_until:
                return "expired"
            return "one-off" if e.scope == "one-off" else "inactive"

        if as_json:
            click.echo(
                json.dumps(
                    {
                        "as_of": when.isoformat(),
                        "events": [{**e.to_dict(), "status": status(e)} for e in events],
                    },
                    indent=2,
                )
            )
            return
        from rich.table import Table
        from rich.text import Text

        from ibachat.commands.common import polarity_label

        table = Table(title=f"preferences as of {when:%Y-%m-%d %H:%M %Z}", expand=True)
        for col in ("+/-", "dimension", "value", "kind", "status", "valid", "evidence", "said"):
            table.add_column(col, overflow="fold", no_wrap=col == "+/-")
        for e in sorted(events, key=lambda e: (e.dimension, e.valid_from)):
            valid = f"{e.valid_from:%Y-%m-%d}" + (f" → {e.valid_until:%Y-%m-%d}" if e.valid_until else "")
            table.add_row(
                Text(polarity_label(e.polarity), style="red" if e.polarity < 0 else "green"),
                Text(printable(e.dimension)),
                Text(printable(e.value) + _scope_words(e.scope)),
                e.kind,
                status(e),
                valid,
                ",".join(f"#{t}" for t in e.evidence[:4]),
                Text(one_line(e.subject, 60)),
            )
        out_console().print(
            table if events else Text("no preferences recorded" + (" as of then" if as_of else " yet"))
        )
