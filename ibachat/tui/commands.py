"""Slash commands shared by the TUI and the plain REPL."""

from __future__ import annotations

SLASH_COMMANDS: dict[str, str] = {
    "/plan": "show why the last answer was given (its alignment plan)",
    "/memory": "what is remembered: counts, recent turns, preferences",
    "/forget": "forget turns: /forget ID [ID...] (or /forget last); /undo takes it back",
    "/undo": "undo the last forget",
    "/incognito": "start a session that is not remembered",
    "/new": "start a new session",
    "/search": "search every session: /search WORDS",
    "/rename": "rename this session: /rename TITLE",
    "/model": "show the chat model",
    "/approve": "run the proposed action",
    "/edit": "edit the proposed action's arguments, then run it",
    "/reject": "turn the proposed action down: /reject [reason] (remembered as a preference)",
    "/help": "this list",
    "/quit": "leave",
}
SLASH_HELP = "\n".join(f"{name:<11} {what}" for name, what in SLASH_COMMANDS.items())


def parse_slash(text: str) -> tuple[str, str]:
    """``"/rename  My trip"`` -> ``("/rename", "My trip")``; the command is lower-cased."""
    head, _, rest = text.strip().partition(" ")
    return head.lower(), rest.strip()
