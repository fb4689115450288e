"""Scope (issue 18): a statement applies to the activity it was said about, matched by meaning to the
tool, from the words the parse says it is about ("when we go out for a meal", "for a room").

``tests/data/scope/dev.txt`` set the rule's two thresholds; ``held.txt`` was written before and read
once, at the end. Both are in other words than the issue's; a gap between them is reported, not hidden.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from ibachat.agent.alignment.scope import in_scope
from ibachat.agent.meaning import catalogue
from ibachat.agent.reading.about import activity_of

DATA = Path(__file__).parent.parent / "data" / "scope"


@pytest.fixture(scope="module")
def embed():
    from ibachat.agent.alignment.open_plan import _embedder
    from memory.embedders.registry import load_embedder

    model = load_embedder("minilm")
    return _embedder(model.embed_batch)


def _probes(name: str) -> list[tuple[str, str, bool]]:
    out = []
    for line in (DATA / name).read_text("utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        sentence, ins, outs = (x.strip() for x in line.split("|"))
        out += [(sentence, t.strip(), True) for t in ins.split(",") if t.strip()]
        out += [(sentence, t.strip(), False) for t in outs.split(",") if t.strip()]
    return out


def _share_right(name: str, embed) -> float:
    tools = {t["name"]: t for t in catalogue()}
    probes = _probes(name)
    right = sum(in_scope([s], tools[t], embed)[0] is want for s, t, want in probes)
    return right / len(probes)


@pytest.mark.parametrize(("name", "floor"), [("dev.txt", 0.85), ("held.txt", 0.7)])
def test_statements_apply_where_they_were_said(name, floor, embed):
    # measured: dev 35/40, held 19/26 (the held set's misses: a reply wish in other words, a latte)
    assert _share_right(name, embed) >= floor


@pytest.mark.parametrize(
    ("sentence", "tool", "applies"),
    [
        (
            "and £140 a night is my ceiling for a room, anything above that feels daft",
            "order_groceries",
            False,
        ),
        ("and £140 a night is my ceiling for a room, anything above that feels daft", "book_hotel", True),
        ("Keep your replies to a couple of lines, I'm usually reading on my phone", "order_coffee", False),
        ("I've gone vegetarian since the summer", "book_flight", True),  # names the tool's own value
    ],
)
def test_the_cases_the_issue_names_in_other_words(sentence, tool, applies, embed):
    t = next(t for t in catalogue() if t["name"] == tool)
    assert in_scope([sentence], t, embed) == [applies]


def test_the_activity_a_statement_names_is_read_from_its_parse():
    assert activity_of("We never spend more than £25 each when we go out for a meal") == [
        "when we go out for a meal"
    ]
    assert activity_of("When I hire a car I always want an automatic") == ["When I hire a car"]
    assert activity_of("For a room I won't go over £95 a night") == ["For a room"]
    assert activity_of("My weekly shop really shouldn't go over sixty quid") == ["My weekly shop"]
    assert activity_of("I've gone vegetarian since the summer") == []  # about the person
