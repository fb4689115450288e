"""ScriptedLLM: queued replies, recorded calls, errors."""

from __future__ import annotations

import json

import pytest

from ibachat.errors import ModelOutputError, ModelUnavailable
from ibachat.llm.base import Message, Reply, ToolSpec
from ibachat.llm.scripted import ScriptedCall, ScriptedLLM, ScriptExhausted

HI = [Message("system", "be brief"), Message("user", "say hi to me")]


def test_text_streams_in_pieces_with_word_counts():
    llm = ScriptedLLM(["hello there, friend"])
    chunks = list(llm.chat(HI))
    assert len(chunks) >= 3
    assert "".join(c.text for c in chunks) == "hello there, friend"
    assert [c.done for c in chunks] == [False] * (len(chunks) - 1) + [True]
    assert chunks[-1].prompt_tokens == 6
    assert chunks[-1].completion_tokens == 3


def test_replies_pop_in_order_and_calls_are_recorded():
    schema = {"type": "object"}
    tool = ToolSpec("send", "send it", {"type": "object"})
    llm = ScriptedLLM(["one", {"a": 1}])
    assert llm.complete(HI, max_tokens=7).text == "one"
    reply = llm.complete([Message("user", "json please")], schema=schema, tools=[tool], temperature=0.5)
    assert reply.json() == {"a": 1}
    assert json.loads(reply.text) == {"a": 1}
    assert llm.remaining == 0
    first, second = llm.calls
    assert first.prompt == "say hi to me" and first.max_tokens == 7 and first.schema is None
    assert second.schema == schema and second.tools == [tool] and second.temperature == 0.5


def test_exception_and_timeout_are_raised():
    llm = ScriptedLLM([ModelOutputError("broken"), "<timeout>"])
    with pytest.raises(ModelOutputError, match="broken"):
        llm.complete(HI)
    with pytest.raises(ModelUnavailable, match="timed out"):
        llm.complete(HI)
    assert len(llm.calls) == 2


def test_callable_sees_the_call_and_can_script_tool_calls():
    def answer(call: ScriptedCall):
        return Reply("", [{"name": "send", "arguments": {"to": call.prompt}}], 0, 0)

    llm = ScriptedLLM([answer, lambda call: f"echo {call.prompt}"])
    reply = llm.complete([Message("user", "bob")])
    assert reply.text == "" and reply.tool_calls == [{"name": "send", "arguments": {"to": "bob"}}]
    assert llm.complete([Message("user", "x")]).text == "echo x"


def test_empty_queue_is_a_test_bug():
    llm = ScriptedLLM()
    with pytest.raises(ScriptExhausted, match="call #1"):
        llm.chat(HI)
    llm.add("late")
    assert llm.complete(HI).text == "late"


def test_unsupported_reply_type_is_rejected():
    llm = ScriptedLLM([3.5])
    with pytest.raises(TypeError, match="float"):
        llm.complete(HI)
