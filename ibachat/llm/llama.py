"""llama.cpp through xllamacpp: the import and the settings both of its users share (the model in
this process, ``embedded.py``, and the model host beside the resident server, ``host.py``)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any


def import_xllamacpp() -> Any:
    # With OpenMP's default (active) waiting, generation on a busy 2-core machine falls from
    # ~35 tok/s to ~1 tok/s; the policy is read when the library loads, so set it first.
    os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
    import xllamacpp

    return xllamacpp


def server_params(path: Path, n_ctx: int = 4096, n_threads: int | None = None) -> Any:
    """llama.cpp's settings for ``path``: one slot, a free port on 127.0.0.1, offline, quiet."""
    xllamacpp = import_xllamacpp()
    params = xllamacpp.CommonParams()
    params.model.path = str(path)
    params.n_ctx = n_ctx
    params.n_parallel = 1
    params.port = 0  # the in-process server also listens on 127.0.0.1; take a free port
    params.offline = True
    params.warmup = False
    params.verbosity = -1
    params.cache_ram_mib = 0
    if n_threads:
        params.cpuparams.n_threads = n_threads
        params.cpuparams_batch.n_threads = n_threads
    return params
