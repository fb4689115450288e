"""Issue 11, item 1 with the embedded model: it may never move a day the request states."""

from __future__ import annotations

import pytest

import ibachat.commands.ask as ask_cmd
from tests.test_action_dates import DATES, NOW, ask_json


class _Shared:
    """The session's loaded model, which `ask` may use but must not unload."""

    def __init__(self, llm):
        self._llm = llm

    def __getattr__(self, name):
        return getattr(self._llm, name)

    def close(self) -> None:
        pass


@pytest.mark.parametrize(("when", "day"), DATES)
def test_the_embedded_model_books_the_day_the_request_states(embedded_llm, monkeypatch, capsys, when, day):
    monkeypatch.setenv("IBACHAT_NOW", NOW)
    monkeypatch.setattr(ask_cmd, "load_model", lambda obj, spec=None: _Shared(embedded_llm))
    code, reply, err = ask_json(capsys, "--model", "embedded", f"Book a flight from Berlin to Denver {when}")
    assert code == 0, err
    assert reply["plan"]["counters"]["model_calls"] >= 1  # the model did write the call
    assert reply["result"]["arguments"]["date"] == day
    # no value without a reason: nothing the request, the plan or the tool's default does not give
    args, reasons = reply["proposal"]["arguments"], reply["proposal"]["reasons"]
    assert set(reasons) == set(args)
    assert "max_price" not in args
