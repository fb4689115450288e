"""Issue 18, item 5 with the embedded model: the date table, and it may never move a day the request states."""

from __future__ import annotations

import pytest

import ibachat.commands.ask as ask_cmd
from tests.test_action_dates import ANSWERS, TABLE, Ask, ask_json, check_row


class _Shared:
    """The session's loaded model, which `ask` may use but must not unload."""

    def __init__(self, llm):
        self._llm = llm

    def __getattr__(self, name):
        return getattr(self._llm, name)

    def close(self) -> None:
        pass


@pytest.mark.parametrize("row", TABLE, ids=[r.request for r in TABLE])
def test_the_embedded_model_books_the_day_the_request_states_or_asks(embedded_llm, monkeypatch, capsys, row):
    monkeypatch.setenv("IBACHAT_NOW", row.now)
    monkeypatch.setattr(ask_cmd, "load_model", lambda obj, spec=None: _Shared(embedded_llm))
    code, reply, err = ask_json(capsys, "--model", "embedded", row.request)
    assert code == 0, err
    check_row(row, reply)
    if isinstance(row.expect, Ask):
        return
    assert reply["plan"]["counters"]["model_calls"] >= 1  # the model did write the call
    # no value without a reason: nothing the request, the plan or the tool's default does not give
    args, reasons = reply["proposal"]["arguments"], reply["proposal"]["reasons"]
    assert set(reasons) == set(args)
    assert "max_price" not in args


@pytest.mark.parametrize(("row", "answer"), ANSWERS, ids=[f"{r.request} / {a}" for r, a in ANSWERS])
def test_with_the_embedded_model_the_answer_about_when_is_the_value(
    embedded_llm, monkeypatch, capsys, row, answer
):
    monkeypatch.setenv("IBACHAT_NOW", row.now)
    monkeypatch.setattr(ask_cmd, "load_model", lambda obj, spec=None: _Shared(embedded_llm))
    code, asked, err = ask_json(capsys, "--model", "embedded", row.request)
    assert code == 0 and asked["clarify"] and asked["result"] is None, err
    code, reply, err = ask_json(capsys, "--model", "embedded", answer)
    assert code == 0, err
    if isinstance(row.expect, Ask):
        assert reply["result"] is None and row.expect.words in (reply["clarify"] or "")
        return
    assert reply["plan"]["counters"]["model_calls"] >= 1
    args = reply["result"]["arguments"]
    assert {n: args.get(n) for n in row.expect} == row.expect
