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
    """Create ``path`` with mode 0700, and every missing parent too, whatever the umask.

    A folder that already exists keeps its mode, except ``path`` itself, which is tightened
    to 0700 (it holds the user's data).
    """
    path = Path(path)
    missing = []
    probe = path
    while not probe.exists() and probe != probe.parent:
        missing.append(probe)
        probe = probe.parent
    for folder in reversed(missing):
        try:
            folder.mkdir(mode=0o700)
        except FileExistsError:
            continue  # made by a concurrent process meanwhile
        os.chmod(folder, 0o700)  # mkdir's mode is masked by the umask only downwards; be exact
    os.chmod(path, 0o700)
    return path


def private_umask() -> int:
    """Make every file and folder this process creates from now on private (0600/0700).

    Called by the command-line entry point, so that files written by libraries that take the
    default mode (reports, suites, histories) are the user's alone too. Returns the old umask.
    """
    return os.umask(0o077)
