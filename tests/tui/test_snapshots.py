"""SVG snapshots of the main screens (pytest-textual-snapshot). Update with --snapshot-update.

Deterministic: a fixed clock and session ids, the planner's time shown as a fixed number,
a hash embedder, a scripted model.
"""

from __future__ import annotations

import pytest

from ibachat.tui.widgets.chat_input import ChatInput
from tests.tui.conftest import SIZE, FixedTimingAssistant, send, settle

BOOKING = "book a table at Luigi's for dinner tomorrow at 7pm for 2 people"


async def ready(pilot) -> None:
    """Loaded, with the input's cursor steady (a blinking cursor makes the picture flaky)."""
    pilot.app.query_one(ChatInput).cursor_blink = False
    await settle(pilot)


@pytest.fixture
def snap_app(build, fixed_ids):
    def factory(replies=("{}",), **options):
        app, _, _ = build(list(replies), cls=FixedTimingAssistant, **options)
        return app

    return factory


def test_tool_card_snapshot(snap_app, snap_compare):
    async def run_before(pilot):
        await ready(pilot)
        await send(pilot, "I am vegetarian and I never eat before [b]7pm[/b]")
        await send(pilot, BOOKING)

    assert snap_compare(snap_app(["{}", "{}"]), terminal_size=SIZE, run_before=run_before)


def test_why_this_answer_snapshot(snap_app, snap_compare):
    async def run_before(pilot):
        await ready(pilot)
        await send(pilot, "I always sit by the window")
        await send(pilot, BOOKING)
        await pilot.press("f3")
        await settle(pilot)

    assert snap_compare(snap_app(["{}", "{}"]), terminal_size=SIZE, run_before=run_before)


def test_memory_screen_snapshot(snap_app, snap_compare):
    async def run_before(pilot):
        await ready(pilot)
        await send(pilot, "my sister's name is [red]Ana[/red] \x1b[1m")
        await pilot.press("ctrl+g")
        await settle(pilot)

    assert snap_compare(snap_app(["{}"]), terminal_size=SIZE, run_before=run_before)


def test_light_theme_incognito_snapshot(snap_app, snap_compare):
    async def run_before(pilot):
        await ready(pilot)
        await send(pilot, BOOKING)

    app = snap_app(["{}"], theme="light", incognito=True)
    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)
