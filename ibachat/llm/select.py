"""Turn a model spec into a chat model: ``ollama:<name>``, ``embedded[:<path.gguf>]``,
``openai:<name>@<url>`` (any OpenAI-compatible server; see ``openai_backend``) or ``auto``.

Which spec applies (flag > ``IBACHAT_MODEL`` > config file > ``auto``) is the config layer's
business; this module only reads a spec. ``auto`` picks Ollama when it answers with at least one
chat model, else the embedded model.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from ibachat.errors import ConfigError, ModelUnavailable
from ibachat.llm.base import LLM
from ibachat.llm.embedded import MISSING_MODEL, EmbeddedLLM, default_model_path
from ibachat.llm.ollama_backend import DEFAULT_MODEL, OllamaLLM, list_models, ollama_host

AUTO = "auto"
ACCEPTED = (
    "auto, ollama:<name> (e.g. ollama:qwen3:4b), embedded, embedded:/path/to/model.gguf, "
    "or openai:<name>@http://HOST:PORT/v1"
)


@dataclass
class Choice:
    """What a spec resolves to, and why (for ``doctor``)."""

    spec: str
    backend: str  # ollama | embedded | openai
    model: str  # an Ollama or served model name, or a GGUF path ("" when none is installed)
    host: str | None
    reason: str
    ready: bool  # the server answers and has the model, or the GGUF file exists
    problem: str | None = None


def parse_spec(spec: str | None) -> tuple[str, str | None]:
    """``("auto", None)``, ``("ollama", name)``, ``("embedded", path or None)`` or ``("openai", endpoints)``.

    Anything else is a ConfigError. The endpoints text (``NAME@URL[,URL...]``) is read by
    ``openai_backend.parse_endpoints``.
    """
    text = (spec or AUTO).strip()
    kind, sep, rest = text.partition(":")
    kind = kind.lower()
    rest = rest.strip()
    if kind == AUTO and not sep:
        return AUTO, None
    if kind == "ollama":
        if sep and not rest:
            raise ConfigError(f"model spec {text!r} names no Ollama model; use one of: {ACCEPTED}")
        return "ollama", rest or DEFAULT_MODEL
    if kind == "embedded":
        if sep and not rest:
            raise ConfigError(f"model spec {text!r} names no GGUF file; use one of: {ACCEPTED}")
        return "embedded", rest or None
    if kind == "openai":
        return "openai", rest
    raise ConfigError(f"unknown model spec {text!r}; use one of: {ACCEPTED}")


def _pick(names: list[str], prefer: str | None) -> str:
    for wanted in (prefer, DEFAULT_MODEL):
        if wanted and wanted in names:
            return wanted
    return names[0]


def _embedded_choice(spec: str, path: str | None, reason: str) -> Choice:
    gguf = Path(path).expanduser() if path else default_model_path()
    ready = bool(gguf and gguf.is_file())
    problem = None
    if not ready:
        problem = f"no GGUF file at {gguf}" if gguf else MISSING_MODEL
    return Choice(spec, "embedded", str(gguf) if gguf else "", None, reason, ready, problem)


def choose(
    spec: str | None, *, prefer: str | None = None, host: str | None = None, probe_timeout: float = 0.5
) -> Choice:
    """Decide what ``spec`` means here. Probes Ollama (``/api/tags``); never loads weights."""
    kind, arg = parse_spec(spec)
    text = (spec or AUTO).strip()
    url = ollama_host(host)
    if kind == "embedded":
        return _embedded_choice(text, arg, "asked for the embedded model")
    if kind == "openai":
        return _openai_choice(text, arg, probe_timeout)
    if kind == "ollama":
        assert arg is not None
        try:
            names = [m["name"] for m in list_models(url, timeout=probe_timeout)]
        except ModelUnavailable as exc:
            return Choice(text, "ollama", arg, url, "asked for Ollama", False, str(exc))
        problem = None if arg in names else f"Ollama has no model '{arg}': run `ollama pull {arg}`"
        return Choice(text, "ollama", arg, url, "asked for Ollama", problem is None, problem)
    try:
        models = list_models(url, timeout=probe_timeout)
    except ModelUnavailable:
        return _embedded_choice(text, None, f"auto: Ollama does not answer at {url}")
    chat = [m["name"] for m in models if m["chat"]]
    if not chat:
        return _embedded_choice(text, None, f"auto: Ollama at {url} has no chat model")
    name = _pick(chat, prefer)
    why = "the configured model" if name == prefer else f"one of {len(chat)} chat model(s)"
    return Choice(text, "ollama", name, url, f"auto: Ollama answers at {url}; {name} is {why}", True)


def _openai_choice(spec: str, arg: str | None, probe_timeout: float) -> Choice:
    from ibachat.llm.openai_backend import list_models as served_models
    from ibachat.llm.openai_backend import parse_endpoints

    try:
        endpoints = parse_endpoints(arg)
    except ConfigError as exc:
        return Choice(spec, "openai", "", None, "asked for an OpenAI-compatible server", False, str(exc))
    first = endpoints[0]
    urls = ", ".join(e.url for e in endpoints)
    try:
        ids = served_models(first.url, timeout=max(probe_timeout, 1.0))
    except ModelUnavailable as exc:
        return Choice(
            spec, "openai", first.name, urls, "asked for an OpenAI-compatible server", False, str(exc)
        )
    name = first.name or (ids[0] if ids else "")
    listed = f"it serves {', '.join(ids[:5]) or 'no listed model'}"
    if first.name and ids and first.name not in ids:
        listed += f" (not '{first.name}', which some servers accept anyway)"
    return Choice(spec, "openai", name, urls, f"{first.url} answers; {listed}", True)


def resolve_model(
    spec: str | None,
    *,
    prefer: str | None = None,
    host: str | None = None,
    probe_timeout: float = 0.5,
    replica: int = 0,
) -> LLM:
    """The chat model for ``spec`` (``None`` means ``auto``); ``prefer`` is the Ollama name ``auto`` favours.

    ``replica`` spreads instances over the servers of a multi-server ``openai:`` spec (a bench
    worker passes its index). Nothing is loaded: the model connects or loads on its first ``chat``.
    """
    kind, arg = parse_spec(spec)
    if kind == "openai":
        from ibachat.llm.openai_backend import OpenAILLM

        return OpenAILLM(arg, replica=replica)
    if kind == "ollama":
        return OllamaLLM(arg or DEFAULT_MODEL, host=host)
    if kind == "embedded":
        return EmbeddedLLM(arg)
    choice = choose(spec, prefer=prefer, host=host, probe_timeout=probe_timeout)
    if choice.backend == "ollama":
        return OllamaLLM(choice.model, host=choice.host)
    return EmbeddedLLM()


def describe_model(
    spec: str | None, *, prefer: str | None = None, host: str | None = None, probe_timeout: float = 0.5
) -> dict[str, Any]:
    """For ``doctor``: what ``spec`` would pick and why, as a dict (see ``Choice``).

    Also ``available`` (same as ``ready``) and ``detail`` (the problem, else the reason).
    """
    info = asdict(choose(spec, prefer=prefer, host=host, probe_timeout=probe_timeout))
    info["available"] = info["ready"]
    info["detail"] = info["problem"] or info["reason"]
    return info
