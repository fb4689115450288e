"""Every dimension of the generator, gathered from the catalogues (built on first use)."""

from __future__ import annotations

from functools import lru_cache

from bench.generator import catalog_a, catalog_b, catalog_c, catalog_t
from bench.generator.dims import Dim


@lru_cache(maxsize=1)
def all_dims() -> dict[str, Dim]:
    """Every dimension by key (built on first use)."""
    out: dict[str, Dim] = {}
    for d in [*catalog_a.build(), *catalog_t.build(), *catalog_b.build(), *catalog_c.build()]:
        if d.key in out:
            raise ValueError(f"duplicate dimension {d.key}")
        out[d.key] = d
    return out


def get_dim(key: str) -> Dim:
    return all_dims()[key]
