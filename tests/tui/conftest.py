"""The app under test: a real Assistant over a real Memory (hash embedder), a scripted chat model, a fixed clock."""

from __future__ import annotations

import html
import re
import threading
import time
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from types import SimpleNamespace
from typing import Any

import pytest

from ibachat.assistant import Assistant
from ibachat.llm.base import LLM, Chunk
from ibachat.llm.scripted import ScriptedLLM
from ibachat.tui.app import IbachatApp
from ibachat.tui.loader import Loaded
from memory.embedders.hashing import HashEmbedder
from memory.memory import Memory

T0 = datetime(2026, 3, 2, 9, 30, tzinfo=UTC)
SIZE = (120, 40)


class FixedTimingAssistant(Assistant):
    """For snapshots only: the planner's time (a measurement) is shown as a fixed number."""

    @property
    def last_planner_ms(self) -> float:
        return 42.0

    @last_planner_ms.setter
    def last_planner_ms(self, value: float) -> None:
        pass


@pytest.fixture
def anyio_backend() -> str:
    """Async tests run on asyncio (through anyio's pytest plugin), as Textual does."""
    return "asyncio"


@pytest.fixture
def memory(tmp_path):
    with Memory.open(tmp_path / "home", embedder=HashEmbedder(64), fsync=False) as mem:
        yield mem


@pytest.fixture
def fixed_ids(monkeypatch):
    """Session ids end in random hex; snapshots need them fixed."""
    counter = iter(range(1000))
    monkeypatch.setattr(
        "ibachat.assistant.secrets", SimpleNamespace(token_hex=lambda n: f"{next(counter):04x}")
    )


@pytest.fixture
def build(memory) -> Callable[..., tuple[IbachatApp, Assistant, ScriptedLLM]]:
    """``build(replies, **app_options)``: the app over the test's memory, with a scripted model."""

    def factory(
        replies: list[Any] = (),
        *,
        cls: type[Assistant] = Assistant,
        banner: str | None = None,
        llm: LLM | None = None,
        **options: Any,
    ) -> tuple[IbachatApp, Assistant, ScriptedLLM]:
        llm = llm or ScriptedLLM(list(replies))
        assistant = cls(memory, llm, clock=lambda: T0)
        app = IbachatApp(lambda progress: Loaded(assistant, banner), clock=lambda: T0, **options)
        return app, assistant, llm

    return factory


async def settle(pilot, timeout: float = 20.0) -> None:
    """Wait until loading and every queued job are done and the screen has caught up."""
    app = pilot.app
    start = time.monotonic()
    while app.busy:
        if time.monotonic() - start > timeout:
            raise AssertionError(f"the app stayed busy for {timeout} s")
        await pilot.pause(0.02)
    await pilot.pause()
    await pilot.wait_for_scheduled_animations()


async def wait_until(pilot, condition: Callable[[], bool], what: str, timeout: float = 20.0) -> None:
    """Wait for a condition (never for a fixed time): fails with ``what`` when it does not come."""
    start = time.monotonic()
    while not condition():
        if time.monotonic() - start > timeout:
            raise AssertionError(f"{what} did not happen within {timeout} s")
        await pilot.pause(0.02)
    await pilot.pause()


class StreamingLLM(LLM):
    """A model that writes a long answer word by word (as a real one does), for stopping it.

    The first call streams up to ``words`` words; later calls answer from ``then``.
    ``streaming`` is set once words are coming, ``stopped`` when the reader stopped reading
    before the end; ``on_first_word`` runs once (e.g. to press Ctrl+C from the model's side).
    """

    name = "streaming"

    def __init__(self, then: list[str] = (), *, words: int = 2000, on_first_word=None) -> None:
        self.then = list(then)
        self.words = words
        self.on_first_word = on_first_word
        self.streaming = threading.Event()
        self.stopped = threading.Event()
        self.calls = 0

    def chat(self, messages, **kwargs) -> Iterator[Chunk]:
        self.calls += 1
        if self.calls > 1:
            yield Chunk(self.then.pop(0))
            yield Chunk(done=True)
            return
        pace = threading.Event()
        finished = False
        try:
            for n in range(self.words):
                yield Chunk(f"word{n} ")
                if not self.streaming.is_set():
                    self.streaming.set()
                    if self.on_first_word is not None:
                        self.on_first_word()
                pace.wait(0.005)  # a real model's pace: a few hundred words a second at most
            finished = True
            yield Chunk(done=True)
        finally:
            if not finished:
                self.stopped.set()


async def send(pilot, text: str) -> None:
    """Put a message in the input (as a paste would) and press Enter, then wait for the answer.

    Typing key by key is exercised by the input tests; here it would only make the tests slow.
    """
    from ibachat.tui.widgets.chat_input import ChatInput

    chat_input = pilot.app.query_one(ChatInput)
    chat_input.focus()
    chat_input.insert(text)
    await pilot.press("enter")
    await settle(pilot)


def screen_text(app: IbachatApp) -> str:
    """The characters on the screen, row by row (from the SVG screenshot, which draws every cell)."""
    svg = app.export_screenshot()
    rows: dict[float, list[tuple[float, str]]] = {}
    for x, y, text in re.findall(r'<text class="[^"]*" x="([\d.]+)" y="([\d.]+)"[^>]*>(.*?)</text>', svg):
        rows.setdefault(float(y), []).append((float(x), html.unescape(text).replace("\xa0", " ")))
    return "\n".join("".join(t for _, t in sorted(cells)) for _, cells in sorted(rows.items()))
