"""Open-class vocabulary as data: one JSON file per resource, each saying what it is for (``about``).

The code holds closed classes only (pronouns, auxiliaries, discourse markers...). What lives here
sharpens a mechanism that also works without it (by structure and by meaning); it is read once, lazily.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any


@cache
def load(name: str) -> dict[str, Any]:
    """The data file ``<name>.json`` of this package (its ``about`` line included)."""
    text = resources.files(__name__).joinpath(f"{name}.json").read_text("utf-8")
    data = json.loads(text)
    if not isinstance(data, dict) or not isinstance(data.get("about"), str):
        raise ValueError(f"{name}.json must be an object with an 'about' line")
    return data


def word_classes(name: str) -> dict[str, frozenset[str]]:
    """A data file of word classes (every key but ``about`` is a list of words) as frozensets."""
    return {k: frozenset(v) for k, v in load(name).items() if k != "about" and isinstance(v, list)}
