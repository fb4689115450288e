"""``ibachat bench`` options for running at scale: --executor, --address, --servers."""

from __future__ import annotations

import importlib.util
import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from click.testing import CliRunner

from bench.cli import _servers_spec, bench
from ibachat.errors import ConfigError
from ibachat.llm.openai_backend import Endpoint, endpoints_from_toml, parse_endpoints

MINI = Path(__file__).parent / "data" / "mini_suite.jsonl"


def test_servers_file_names_the_servers(tmp_path):
    servers = tmp_path / "servers.toml"
    servers.write_text(
        'model = "Qwen/Qwen3-4B"\n'
        '[[server]]\nurl = "http://10.0.0.1:8000/v1"\n'
        '[[server]]\nurl = "http://10.0.0.2:8000/v1/"\nmodel = "other"\n'
    )
    assert endpoints_from_toml(servers) == [
        Endpoint("Qwen/Qwen3-4B", "http://10.0.0.1:8000/v1"),
        Endpoint("other", "http://10.0.0.2:8000/v1"),
    ]
    spec = _servers_spec(servers, None)
    assert spec == "openai:Qwen/Qwen3-4B@http://10.0.0.1:8000/v1,other@http://10.0.0.2:8000/v1"
    assert parse_endpoints(spec.removeprefix("openai:")) == endpoints_from_toml(servers)
    servers.write_text('[[server]]\nurl = "http://h:1/v1"\n')
    assert _servers_spec(servers, "openai:qwen3") == "openai:qwen3@http://h:1/v1"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("model = 3 = 4", "is not TOML"),
        ('model = "m"\n', "must hold [[server]] tables"),
        ('[[server]]\nurl = "http://h/v1"\nport = 3\n', "server 1 needs url"),
        ('hosts = []\n[[server]]\nurl = "http://h/v1"\n', "unknown keys: hosts"),
        ('[[server]]\nurl = "h:8000"\n', "must start with http"),
    ],
)
def test_a_bad_servers_file_is_one_line(tmp_path, text, message):
    servers = tmp_path / "servers.toml"
    servers.write_text(text)
    with pytest.raises(ConfigError, match=message.replace("[", r"\[")) as err:
        endpoints_from_toml(servers)
    assert "\n" not in str(err.value)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--address", "auto"], "--address names a Ray cluster: add --executor ray"),
        (["--servers", "{servers}", "--model", "ollama:qwen3:4b"], "--servers lists OpenAI-compatible"),
        (["--servers", "{missing}"], "cannot read the servers file"),
        (["--executor", "dask"], "Invalid value for '--executor'"),
    ],
)
def test_bad_options_are_one_line(tmp_path, args, message):
    servers = tmp_path / "servers.toml"
    servers.write_text('[[server]]\nurl = "http://127.0.0.1:9/v1"\n')
    args = [a.format(servers=servers, missing=tmp_path / "none.toml") for a in args]
    result = CliRunner().invoke(bench, ["run", "--data", str(MINI), "--out", str(tmp_path / "o"), *args])
    assert result.exit_code != 0 and message in result.output, result.output
    assert "Traceback" not in result.output
    assert not (tmp_path / "o").exists() or not any((tmp_path / "o").iterdir())


@pytest.mark.slow
@pytest.mark.skipif(
    importlib.util.find_spec("ray") is None, reason="needs the ray extra: pip install -e '.[ray]'"
)
def test_the_cli_runs_on_a_local_ray_cluster(tmp_path):
    out = tmp_path / "out"
    common = [
        "run",
        "--data",
        str(MINI),
        "--agent",
        "none",
        "--embedder",
        "hash",
        "--json",
        "--out",
        str(out),
    ]
    result = CliRunner().invoke(bench, [*common, "--executor", "ray", "--jobs", "2"])
    assert result.exit_code == 0, result.output
    [summary] = json.loads(result.stdout)
    assert summary["executor"]["name"] == "ray" and summary["executor"]["workers_lost"] == 0
    assert summary["ran"] == summary["tasks"] > 0
    local = CliRunner().invoke(bench, [*common[:-1], str(tmp_path / "local")])
    assert local.exit_code == 0, local.output
    assert json.loads(local.stdout)[0]["soft"] == summary["soft"]


def test_without_ray_the_ray_executor_is_one_line_and_writes_nothing(tmp_path, monkeypatch):
    import sys

    from bench.runner import run_bench
    from bench.validate import load_suite

    monkeypatch.setitem(sys.modules, "ray", None)  # as if the extra were not installed
    with pytest.raises(ConfigError, match=r"^the Ray executor needs Ray: pip install 'ibachat\[ray\]'$"):
        run_bench(load_suite(MINI), agent="none", executor="ray", out_dir=tmp_path, progress=False)
    assert list(tmp_path.iterdir()) == []


class _Counting(BaseHTTPRequestHandler):
    """An OpenAI-style server that answers every chat request with one short streamed text and
    counts what it got: for where the bench's model calls go, not for what they say. Requests
    are answered in pairs (a barrier shared by both servers), so both workers must be calling:
    one fast worker cannot take every task before the other has started."""

    def do_POST(self):  # noqa: N802 - http.server's name
        self.rfile.read(int(self.headers["Content-Length"]))
        self.server.hits += 1
        try:
            self.server.pairs.wait()
        except threading.BrokenBarrierError:
            self.server.unpaired += 1
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.end_headers()
        chunk = {"choices": [{"index": 0, "delta": {"content": "Noted."}}]}
        self.wfile.write(f"data: {json.dumps(chunk)}\n\ndata: [DONE]\n\n".encode())

    def log_message(self, *args):
        pass


@pytest.fixture
def two_servers():
    servers = []
    pairs = threading.Barrier(2, timeout=60)
    for _ in range(2):
        server = ThreadingHTTPServer(("127.0.0.1", 0), _Counting)
        server.hits, server.unpaired, server.pairs = 0, 0, pairs
        threading.Thread(target=server.serve_forever, daemon=True).start()
        servers.append(server)
    yield servers
    for server in servers:
        server.shutdown()
        server.server_close()


@pytest.mark.slow
@pytest.mark.parametrize("executor", ["local", "ray"])
def test_model_calls_spread_over_the_servers(two_servers, tmp_path, executor):
    if executor == "ray" and importlib.util.find_spec("ray") is None:
        pytest.skip("needs the ray extra: pip install -e '.[ray]'")
    from bench.runner import run_bench
    from bench.validate import load_suite

    urls = ",".join(f"http://127.0.0.1:{s.server_address[1]}/v1" for s in two_servers)
    tasks = load_suite(MINI)
    summary = run_bench(
        tasks, agent="none", model=f"openai:m@{urls}", jobs=2, executor=executor, out_dir=tmp_path,
        progress=False,
    )  # fmt: skip
    assert summary.ran == len(tasks) and summary.model["calls"] == len(tasks)
    hits = [s.hits for s in two_servers]
    assert sum(hits) == len(tasks) and hits == [len(tasks) // 2] * 2, hits  # one server per worker
    assert not any(s.unpaired for s in two_servers)
