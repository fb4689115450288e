"""`python -m ibachat`: the same as the `ibachat` command."""

from ibachat.server import launch

launch()
