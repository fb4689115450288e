"""CLI commands, one module each; imported only when the CLI starts."""
