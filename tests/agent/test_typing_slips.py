"""Words typed with a slip: a message that reads as no request is read again with each word no
dictionary knows mended to the one word of the request vocabulary one letter away (``pyspellchecker``'s
frequency dictionary finds the candidates, ``data/act_verbs.json`` and ``data/synonyms.json`` say
which count). Names and statements are left as they are. Probes in words of our own; each request
below is text on the code before it.
"""

from __future__ import annotations

import pytest

from ibachat.agent.execution.router import route
from ibachat.agent.execution.tools import as_task_tool, tools_for
from ibachat.agent.reading.acts import read_act, respelled

TOOLS = [as_task_tool(t) for t in tools_for()]


@pytest.fixture(scope="module")
def minilm():
    from memory.embedders.registry import load_embedder

    return load_embedder("minilm").embed_batch


@pytest.mark.parametrize(
    ("message", "tool"),
    [
        ("bok a tabel for 4 at Hawksmoor friday 8pm", "book_table"),
        ("remnd me to water the plants at 7", "set_reminder"),
        ("bok tickts for the panto on sat, 3 of us", "book_tickets"),
        ("cna you remnd me to feed the cat at 6", "set_reminder"),
    ],
)
def test_a_request_with_slips_reaches_its_tool(minilm, message, tool):
    found = route(message, TOOLS, minilm)
    assert found.kind == "tool" and found.tool is not None and found.tool["name"] == tool, found.why


def test_only_words_no_dictionary_knows_are_mended_and_only_to_request_words():
    assert respelled("bok a tabel") == "book a table"
    assert respelled("meet at wagamama near gatwick") == "meet at wagamama near gatwick"  # names stay
    assert respelled("get me my meds from pret") == "get me my meds from pret"  # no request word near
    assert respelled("Bok a Tabel") == "Bok a Tabel"  # the user's own capitals: names


@pytest.mark.parametrize(
    "message",
    ["i cant beleive the trian was late again", "wat a day lol, the resturant was rammed"],
)
def test_a_statement_with_slips_stays_text(minilm, message):
    assert not read_act(message).asks or route(message, TOOLS, minilm).kind == "text"


def test_dishes_no_dictionary_knows_are_not_mended_into_request_words():
    # "momo" is one letter from "memo", "dal" from "dial": the request turns on "order", not on them
    found = read_act("order from Lotus Garden, the veg momo and the dal please")
    assert all("memo" not in r.clause and "dial" not in r.clause for r in found.requests)
