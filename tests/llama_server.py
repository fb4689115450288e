"""xllamacpp's own HTTP server (llama.cpp's ``llama-server`` routes, ``/v1/chat/completions``) on 127.0.0.1.

Not a stand-in: the same C++ server that ``llama-server`` runs, in front of SmolLM2-135M,
listening on a free port. Used by the OpenAI-compatible backend's tests.
"""

from __future__ import annotations

import os
import threading
from typing import Any

ALIAS = "smollm2-135m"


class LlamaServer:
    """``with LlamaServer(path) as server: server.url`` is ``http://127.0.0.1:PORT/v1``."""

    def __init__(self, model_path: str, *, api_key: str | None = None, parallel: int = 2, threads: int = 2):
        self.model_path = str(model_path)
        self.api_key = api_key
        self.parallel = parallel
        self.threads = threads
        self._server: Any = None

    def __enter__(self) -> LlamaServer:
        os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
        import xllamacpp

        params = xllamacpp.CommonParams()
        params.model.path = self.model_path
        params.model_alias = {ALIAS}
        params.n_ctx = 2048 * self.parallel
        params.n_parallel = self.parallel
        params.port = 0  # a free port on 127.0.0.1 (the default and only host)
        params.offline = True
        params.warmup = False
        params.verbosity = -1
        params.cache_ram_mib = 0
        params.cpuparams.n_threads = self.threads
        params.cpuparams_batch.n_threads = self.threads
        if self.api_key:
            params.api_keys = [self.api_key]
        self._server = xllamacpp.Server(params)
        return self

    @property
    def root(self) -> str:
        return str(self._server.listening_address)

    @property
    def url(self) -> str:
        return f"{self.root}/v1"

    def __exit__(self, *exc: object) -> None:
        server, self._server = self._server, None
        # freed in a daemon thread, as EmbeddedLLM.close does: the native teardown can block
        threading.Thread(target=_drop, args=(server,), daemon=True).start()


def _drop(server: Any) -> None:
    del server
