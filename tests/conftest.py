"""Test-wide fixtures: every test gets its own IBACHAT_HOME, and no test reaches a model hub."""

from __future__ import annotations

import os
import socket

import pytest

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
# a command a test runs never leaves a resident server behind (tests/test_server.py turns it on)
os.environ["IBACHAT_SERVER"] = "off"


@pytest.fixture(autouse=True)
def _ibachat_home(tmp_path_factory, monkeypatch):
    home = tmp_path_factory.mktemp("ibachat-home")
    monkeypatch.setenv("IBACHAT_HOME", str(home))
    monkeypatch.setenv("IBACHAT_CONFIG", str(home / "config.toml"))
    monkeypatch.delenv("OLLAMA_HOST", raising=False)
    yield home


_real_connect = socket.socket.connect


def _guarded_connect(self, address):
    host = address[0] if isinstance(address, tuple) else address
    if isinstance(host, str) and not (
        host.startswith("127.") or host in ("localhost", "::1") or host.startswith("/")
    ):
        raise RuntimeError(f"test tried to reach {address!r}: tests stay on this machine")
    return _real_connect(self, address)


@pytest.fixture(autouse=True)
def _no_network(monkeypatch):
    monkeypatch.setattr(socket.socket, "connect", _guarded_connect)
    yield
