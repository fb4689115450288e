"""Closing the embedded model frees the native server in the closing thread, never in the caller.

xllamacpp's server teardown joins its own thread and can block for good in the thread that loaded it
elsewhere; ``EmbeddedLLM.close`` hands the server to a daemon thread. When that thread finished first,
the caller's own reference had been the last one and the teardown ran in the caller (a hung test run).
"""

from __future__ import annotations

import inspect
import threading

from ibachat.llm.embedded import EmbeddedLLM


class _Server:
    """Stands for the native server: records the functions on the stack where it is freed."""

    def __init__(self, freed: list[list[str]]) -> None:
        self.freed = freed

    def __del__(self) -> None:
        self.freed.append([f.function for f in inspect.stack()])


def test_the_server_is_freed_in_the_closing_thread_even_when_it_finishes_first(monkeypatch) -> None:
    freed: list[list[str]] = []
    llm = EmbeddedLLM.__new__(EmbeddedLLM)
    llm._lock = threading.Lock()
    llm._server = _Server(freed)
    # the closing thread runs to its end before ``close`` returns: the race that hung
    monkeypatch.setattr(threading.Thread, "start", lambda self: self.run())
    llm.close()
    assert len(freed) == 1 and "_drop" in freed[0], freed
    assert llm._server is None
