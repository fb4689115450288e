"""Messages that look like requests and ask for no action: a rhetorical "can you believe ...", a wish for
some day ("I'd love to sail round Greece one of these days"), and words an answer gives asked for with a
light verb ("give me some pointers", "get me a few ideas"). Probes in words of our own; the routing set
that showed the class (held10, read after its first run) is not quoted. On the code before, the wish "at
some point" went to a hotel and "a few ideas for a team lunch venue" to a table; the other three were
already text, by other ways."""

from __future__ import annotations

import pytest

from ibachat.agent.execution.router import route
from ibachat.agent.execution.tools import as_task_tool, tools_for

TOOLS = [as_task_tool(t) for t in tools_for()]


@pytest.fixture(scope="module")
def minilm():
    from memory.embedders.registry import load_embedder

    return load_embedder("minilm").embed_batch


@pytest.mark.parametrize(
    "message",
    [
        "can you believe the train was cancelled again this morning",
        "honestly, I'd love to sail round Greece one of these days",
        "we'd like to stay in a treehouse hotel at some point, they're so expensive though",
        "give me some pointers for my first half marathon",
        "get me a few ideas for a team lunch venue",
    ],
)
def test_no_action_is_asked_for(minilm, message):
    r = route(message, TOOLS, minilm)
    assert r.kind == "text", (r.tool and r.tool["name"], r.why)


@pytest.mark.parametrize(
    ("message", "tool"),
    [
        ("I'd like a taxi to the station in 20 minutes", "book_ride"),
        ("give me a reminder tomorrow at 9 to water the plants", "set_reminder"),
        ("I'd like to book a flight to Oslo one day next week", "book_flight"),
    ],
)
def test_a_request_with_the_same_words_still_acts(minilm, message, tool):
    r = route(message, TOOLS, minilm)
    assert r.kind == "tool" and r.tool["name"] == tool, r.why
