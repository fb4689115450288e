"""The memory screen: remembered turns, the preference ledger (now or as of a date), counts and sizes.

Turns: search, forget (undo with ``u``), mark "never use". Preferences: pin, forget (undo).
All reads and writes go through the app's job queue (one writer, off the UI thread).
"""

from __future__ import annotations

from datetime import datetime
from itertools import islice
from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Input, Static, TabbedContent, TabPane
from textual.widgets.data_table import RowDoesNotExist

from ibachat.commands.common import polarity_label
from ibachat.tui.safe import safe_line
from memory.types import parse_time

if TYPE_CHECKING:
    from ibachat.tui.app import IbachatApp
    from memory.ledger import PreferenceEvent
    from memory.types import Turn

TURNS_SHOWN = 200


def event_status(ledger: Any, event: PreferenceEvent, as_of: datetime) -> str:
    if event.kind == "ignored":
        return "ignored"
    if ledger.is_superseded(event, as_of):
        return "superseded"
    if event.valid_from > as_of:
        return "not yet"
    if event.valid_until is not None and as_of >= event.valid_until:
        return "expired"
    return "active"


def _restore_cursor(table: DataTable, key: str | None) -> None:
    """After a reload, keep the cursor on the row it was on (if that row is still there)."""
    if key is None:
        return
    try:
        table.move_cursor(row=table.get_row_index(key))
    except RowDoesNotExist:
        return


def _size(n: int) -> str:
    return f"{n / 1e6:.2f} MB" if n >= 100_000 else f"{n / 1e3:.1f} KB"


def stats_text(info: dict[str, Any], events: int) -> Text:
    text = Text()
    rows = [
        ("turns", f"{info['turns']:,} in {info['sessions']:,} sessions"),
        ("by role", ", ".join(f"{k} {v:,}" for k, v in sorted(info["by_role"].items())) or "-"),
        ("never use", f"{info['never_use']:,}"),
        ("preferences", f"{events:,} events in the ledger"),
        ("embedder", f"{info['embedder']} ({info['ndim']}-d)"),
        ("disk", ", ".join(f"{k} {_size(v)}" for k, v in info["bytes"].items())),
        ("indexes", "in sync" if info["index"]["in_sync"] else "will be reconciled on next use"),
    ]
    for label, value in rows:
        text.append(f"{label:<12}", style="bold")
        text.append(value + "\n")
    return text


TAB_WIDGETS = {"tab-turns": ("#turns", "#turn-query"), "tab-prefs": ("#prefs", "#as-of")}


class MemoryScreen(Screen[None]):
    """Keys act on the highlighted row of the table in view; letters reach a search box only
    when it is focused (``/`` focuses it, Enter searches and returns to the table)."""

    AUTO_FOCUS = "#turns"
    BINDINGS = [
        Binding("escape", "app.pop_screen", "Back"),
        Binding("slash", "find", "Search"),
        Binding("f", "forget", "Forget"),
        Binding("u", "undo", "Undo"),
        Binding("n", "never", "Never use"),
        Binding("p", "pin", "Pin"),
        Binding("r", "reload", "Reload"),
    ]

    def __init__(self) -> None:
        super().__init__(id="memory-screen")
        self.as_of: datetime | None = None
        self._turns: dict[int, Turn] = {}
        self._events: dict[str, PreferenceEvent] = {}

    @property
    def ibachat(self) -> IbachatApp:
        return self.app  # type: ignore[return-value]

    def compose(self) -> ComposeResult:
        with TabbedContent(id="memory-tabs"):
            with TabPane("Turns", id="tab-turns"):
                yield Input(
                    placeholder="search remembered turns (Enter); empty: newest first", id="turn-query"
                )
                yield DataTable(id="turns", cursor_type="row", zebra_stripes=True)
            with TabPane("Preferences", id="tab-prefs"):
                yield Input(placeholder="as of a date, YYYY-MM-DD (Enter); empty: now", id="as-of")
                yield DataTable(id="prefs", cursor_type="row", zebra_stripes=True)
            with TabPane("Counts and sizes", id="tab-stats"), Vertical():
                yield Static("loading…", id="stats", markup=False)
        yield Footer()

    def on_mount(self) -> None:
        turns = self.query_one("#turns", DataTable)
        turns.add_columns("id", "when", "session", "role", "flags", "text")
        prefs = self.query_one("#prefs", DataTable)
        prefs.add_columns("+/-", "dimension", "value", "kind", "from", "until", "status", "pinned", "said")
        self.load_turns("")
        self.load_prefs()
        self.load_stats()
        turns.focus()

    # ------------------------------------------------------------------ loading
    def load_turns(self, query: str) -> None:
        def work_fn() -> list[Turn]:
            assistant = self.ibachat.need_assistant()
            if query.strip():
                return [turn for _, turn in assistant.search(query, k=TURNS_SHOWN)]
            return list(islice(assistant.memory.iter_turns(newest_first=True), TURNS_SHOWN))

        self.ibachat.run_job("memory: turns", work_fn, self._show_turns)

    def _show_turns(self, turns: list[Turn]) -> None:
        table = self.query_one("#turns", DataTable)
        keep = self._selected("#turns")
        table.clear()
        self._turns = {t.id: t for t in turns}
        for t in turns:
            table.add_row(
                Text(str(t.id)),
                Text(t.time.strftime("%Y-%m-%d %H:%M")),
                safe_line(t.session_id, 26),
                Text(t.role),
                Text(", ".join(t.flags), style="red"),
                safe_line(t.text, 80),
                key=str(t.id),
            )
        _restore_cursor(table, keep)

    def load_prefs(self) -> None:
        as_of = self.as_of

        def work_fn() -> tuple[list[PreferenceEvent], datetime]:
            from memory.types import utcnow

            ledger = self.ibachat.need_assistant().memory.ledger
            when = as_of or utcnow()
            events = ledger.active(when) if as_of is not None else ledger.all()
            return [(e, event_status(ledger, e, when)) for e in events], when

        self.ibachat.run_job("memory: preferences", work_fn, self._show_prefs)

    def _show_prefs(self, result: tuple[list[tuple[PreferenceEvent, str]], datetime]) -> None:
        rows, _ = result
        table = self.query_one("#prefs", DataTable)
        keep = self._selected("#prefs")
        table.clear()
        self._events = {e.id: e for e, _ in rows}
        for e, status in rows:
            table.add_row(
                Text(polarity_label(e.polarity), style="red" if e.polarity < 0 else "green"),
                safe_line(e.dimension, 24),
                safe_line(e.value, 30),
                Text(e.kind),
                Text(e.valid_from.strftime("%Y-%m-%d")),
                Text(e.valid_until.strftime("%Y-%m-%d") if e.valid_until else ""),
                Text(status, style="green" if status == "active" else "dim"),
                Text("pinned" if e.pinned else "", style="bold"),
                safe_line(e.subject, 50),
                key=e.id,
            )
        _restore_cursor(table, keep)

    def load_stats(self) -> None:
        def work_fn() -> tuple[dict[str, Any], int]:
            memory = self.ibachat.need_assistant().memory
            return memory.stats(), len(memory.ledger)

        self.ibachat.run_job(
            "memory: stats", work_fn, lambda r: self.query_one("#stats", Static).update(stats_text(*r))
        )

    # ------------------------------------------------------------------ inputs
    @on(Input.Submitted, "#turn-query")
    def _query(self, event: Input.Submitted) -> None:
        self.load_turns(event.value)
        self.query_one("#turns", DataTable).focus()

    @on(TabbedContent.TabActivated)
    def _tab_shown(self, event: TabbedContent.TabActivated) -> None:
        """A tab opened (click or keys): its table takes the keys, not the search box above it."""
        widgets = TAB_WIDGETS.get(event.pane.id or "")
        if widgets is not None:
            self.query_one(widgets[0], DataTable).focus()

    def action_find(self) -> None:
        widgets = TAB_WIDGETS.get(self._tab())
        if widgets is not None:
            self.query_one(widgets[1], Input).focus()

    @on(Input.Submitted, "#as-of")
    def _as_of(self, event: Input.Submitted) -> None:
        value = event.value.strip()
        try:
            self.as_of = parse_time(value) if value else None
        except ValueError:
            self.notify(f"{value!r} is not a date (YYYY-MM-DD)", severity="error")
            return
        self.load_prefs()
        self.query_one("#prefs", DataTable).focus()

    def _tab(self) -> str:
        return self.query_one(TabbedContent).active

    def _selected(self, table_id: str) -> str | None:
        table = self.query_one(table_id, DataTable)
        if table.row_count == 0:
            return None
        key, _ = table.coordinate_to_cell_key(table.cursor_coordinate)
        return key.value

    # ------------------------------------------------------------------ actions
    def action_forget(self) -> None:
        undo = self.ibachat.undo_buffer
        assert undo is not None
        if self._tab() == "tab-turns":
            key = self._selected("#turns")
            if key is None:
                return
            turn_id = int(key)
            self.ibachat.run_job("forget", lambda: undo.forget_turns([turn_id]), self._forgot)
        elif self._tab() == "tab-prefs":
            event_id = self._selected("#prefs")
            if event_id is None:
                return
            self.ibachat.run_job("forget preference", lambda: undo.forget_event(event_id), self._forgot)

    def _forgot(self, what: Any) -> None:
        if isinstance(what, list):
            label = f"turn #{what[0].id}" if len(what) == 1 else f"{len(what)} turns"
        else:
            label = f"preference {what.dimension}"
        self.notify(f"Forgot {label}. Press u to undo.", title="Forgotten")
        self.action_reload()

    def action_undo(self) -> None:
        undo = self.ibachat.undo_buffer
        assert undo is not None

        def done(label: str | None) -> None:
            self.notify(f"Restored {label}." if label else "Nothing to undo.")
            self.action_reload()

        self.ibachat.run_job("undo", undo.undo, done)

    def action_never(self) -> None:
        key = self._selected("#turns") if self._tab() == "tab-turns" else None
        if key is None:
            return
        turn = self._turns[int(key)]
        never = "never_use" not in turn.flags
        memory = self.ibachat.need_assistant().memory
        self.ibachat.run_job(
            "never use", lambda: memory.set_never_use(turn.id, never), lambda _: self.action_reload()
        )

    def action_pin(self) -> None:
        """Pin (or unpin) the highlighted preference; on the Turns tab, the preferences that turn gave."""
        ledger = self.ibachat.need_assistant().memory.ledger
        if self._tab() == "tab-turns":
            key = self._selected("#turns")
            if key is None:
                return
            turn_id = int(key)

            def pin_from_turn() -> tuple[int, bool]:
                events = [e for e in ledger.all() if turn_id in e.evidence]
                pin = not all(e.pinned for e in events)
                for e in events:
                    ledger.pin(e.id, pin)
                return len(events), pin

            def done(result: tuple[int, bool]) -> None:
                count, pin = result
                if count == 0:
                    self.notify(f"Turn #{turn_id} gave no preference to pin.")
                else:
                    what = "Pinned" if pin else "Unpinned"
                    self.notify(f"{what} {count} preference(s) from turn #{turn_id}.")
                self.load_prefs()

            self.ibachat.run_job("pin", pin_from_turn, done)
            return
        key = self._selected("#prefs") if self._tab() == "tab-prefs" else None
        if key is None:
            return
        event = self._events[key]
        self.ibachat.run_job(
            "pin", lambda: ledger.pin(event.id, not event.pinned), lambda _: self.load_prefs()
        )

    def action_reload(self) -> None:
        self.load_turns(self.query_one("#turn-query", Input).value)
        self.load_prefs()
        self.load_stats()
        self.ibachat.refresh_status()
