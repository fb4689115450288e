"""Configuration: flags > environment > TOML config file > defaults. Unknown keys are errors."""

from __future__ import annotations

import os
import tomllib
from dataclasses import asdict, dataclass, fields
from pathlib import Path
from typing import Any

from ibachat.errors import ConfigError
from memory.paths import config_file


@dataclass
class Config:
    model: str = "auto"  # auto | embedded | embedded:/path.gguf | ollama:NAME | openai:NAME@URL
    embedder: str = "minilm"  # minilm | bge-m3[:path] | path:/folder | ollama:NAME | hash
    ollama_host: str = ""  # empty: the ollama client's default / OLLAMA_HOST
    theme: str = "dark"  # dark | light
    evidence_budget: int = 12
    confirm_tools: bool = True
    server: str = "auto"  # auto (a resident process started on first use, stopped when idle) | off

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


ENV = {
    "model": "IBACHAT_MODEL",
    "embedder": "IBACHAT_EMBEDDER",
    "ollama_host": "OLLAMA_HOST",
    "theme": "IBACHAT_THEME",
    "server": "IBACHAT_SERVER",
}


def _coerce(key: str, value: Any, where: str) -> Any:
    kind = {f.name: f.type for f in fields(Config)}[key]
    if kind == "int":
        try:
            return int(value)
        except (TypeError, ValueError):
            raise ConfigError(f"{where}: {key} must be an integer, not {value!r}") from None
    if kind == "bool":
        if isinstance(value, bool):
            return value
        if str(value).lower() in ("1", "true", "yes", "on"):
            return True
        if str(value).lower() in ("0", "false", "no", "off"):
            return False
        raise ConfigError(f"{where}: {key} must be true or false, not {value!r}")
    if not isinstance(value, str):
        raise ConfigError(f"{where}: {key} must be a string, not {value!r}")
    return value


def load_config(
    path: Path | None = None, *, overrides: dict[str, Any] | None = None
) -> tuple[Config, dict[str, str]]:
    """The effective config and, for each key, where its value came from."""
    cfg = Config()
    origin = {f.name: "default" for f in fields(Config)}
    known = {f.name for f in fields(Config)}
    path = path or config_file()
    if path.exists():
        try:
            data = tomllib.loads(path.read_text("utf-8"))
        except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
            raise ConfigError(f"{path}: not valid TOML ({exc})") from None
        section = data.get("ibachat", data)
        for key, value in section.items():
            if key == "ibachat" and isinstance(value, dict):
                continue
            if key not in known:
                raise ConfigError(f"{path}: unknown key {key!r} (known: {', '.join(sorted(known))})")
            setattr(cfg, key, _coerce(key, value, str(path)))
            origin[key] = str(path)
    for key, var in ENV.items():
        if os.environ.get(var):
            setattr(cfg, key, _coerce(key, os.environ[var], var))
            origin[key] = f"${var}"
    for key, value in (overrides or {}).items():
        if value is None:
            continue
        if key not in known:
            raise ConfigError(f"unknown setting {key!r}")
        setattr(cfg, key, _coerce(key, value, "flag"))
        origin[key] = "flag"
    if cfg.theme not in ("dark", "light"):
        raise ConfigError(f"theme must be dark or light, not {cfg.theme!r}")
    if cfg.server not in ("auto", "off"):
        raise ConfigError(f"server must be auto or off, not {cfg.server!r}")
    return cfg, origin
