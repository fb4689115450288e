"""A thing said with no verb and with someone ("coffee with Tom at 3", "drinks with Priya on friday") is an
occasion the user tells of, not a thing to get: no tool that takes no people fits it. On the code before,
"coffee with Tom at 3, wish me luck" ordered a coffee. A tool that invites people still fits it, and a
thing got with its own particulars ("a table for 4 with Sam at Luigi's friday 8pm") is still a request.

Probes in words of our own; the catalogue's tools, an empty store and MiniLM.
"""

from __future__ import annotations

import pytest

from ibachat.agent.meaning import catalogue


@pytest.mark.parametrize(
    "text",
    [
        "coffee with Tom at 3, wish me luck",
        "a curry with Priya and Sam on friday, can't wait",
        "brunch with my sister sunday, she's paying",
    ],
)
def test_an_occasion_with_someone_orders_nothing(empty_planner, text):
    r = empty_planner.route(text, [dict(t) for t in catalogue()])
    assert r.kind == "text" or (r.tool or {}).get("name") == "create_event", (
        r.kind,
        r.tool and r.tool["name"],
        r.why,
    )


def test_a_thing_got_with_its_particulars_is_still_asked_for(empty_planner):
    r = empty_planner.route("table for 4 with Sam at Luigi's friday 8pm", [dict(t) for t in catalogue()])
    assert r.kind == "tool" and r.tool["name"] == "book_table", r.why


def test_a_request_verb_the_parse_took_for_a_noun_is_no_occasion(empty_planner):
    """ "book maya's next session with mrs okafor": "book" read as a noun makes a fragment with someone,
    but the message opens with a verb of a request, so it is not told of as an occasion."""
    r = empty_planner.route(
        "book maya's next session with mrs okafor, saturday at 10am", [dict(t) for t in catalogue()]
    )
    assert "occasion" not in r.why, r.why
