"""The one place that knows where ibachat keeps its files."""

from __future__ import annotations

import os
from pathlib import Path

APP = "ibachat"


def home() -> Path:
    """``$IBACHAT_HOME`` if set, else the platform's user data folder. Nothing is created here."""
    env = os.environ.get("IBACHAT_HOME")
    if env:
        return Path(env).expanduser()
    import platformdirs

    return Path(platformdirs.user_data_dir(APP, appauthor=False))


def config_file() -> Path:
    env = os.environ.get("IBACHAT_CONFIG")
    if env:
        return Path(env).expanduser()
    if os.environ.get("IBACHAT_HOME"):
        return home() / "config.toml"
    import platformdirs

    return Path(platformdirs.user_config_dir(APP, appauthor=False)) / "config.toml"


def ensure_private_dir(path: Path) -> Path:
    """Create ``path`` (and parents) with mode 0700 for the leaf; tighten it if it exists."""
    path.mkdir(parents=True, exist_ok=True)
    os.chmod(path, 0o700)
    return path
