"""What a text answer must keep in mind: the user's constraints that bear on the request, short.

A request for words ("what should I cook tonight?", "what exercise can I do?") gets, as directives,
the constraints in force that bear on it: the user's diet (its latest word: "fish is back" after
"vegetarian" is pescatarian), what they avoid, the allergies of the people the request names, states
that hold now (a broken ankle, until when), budgets. A constraint bears on a request when both are
about the same activities (they share one of their ``TOP`` nearest tools of the catalogue: cooking and a
diet both sit near meal plans and food orders) or when their meanings are close (``TEXT_MIN_SIM``).
Nothing here names a topic: the catalogue of activities and the glossary carry the knowledge.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any

import numpy as np

from memory.ledger import PreferenceEvent

Embed = Callable[[list[str]], Any]

TOP = 3  # nearest activities compared between a request and a constraint
CLOSE_SIM = 0.4  # or this close in meaning (MiniLM cosine) when no activity is shared
MAX_LINES = 6
MAX_PER_LINE = 4


def activities(texts: Sequence[str], embed: Embed) -> list[set[str]]:
    """For each text, the names of its ``TOP`` nearest tools of the catalogue (text and parameters)."""
    from ibachat.agent.meaning import VECTORS, catalogue, param_texts, tool_text

    tools = list(catalogue())
    rows: list[str] = []
    spans: list[tuple[int, int]] = []
    for t in tools:
        start = len(rows)
        rows += [tool_text(t), *(param_texts(t) or [tool_text(t)])]
        spans.append((start, len(rows)))
    mat = VECTORS.get(embed, rows)
    said = VECTORS.get(embed, list(texts))
    sims = said @ mat.T
    out = []
    for row in sims:
        near = [0.5 * row[a] + 0.5 * row[a + 1 : b].max() if b > a + 1 else row[a] for a, b in spans]
        order = np.argsort(near)[::-1][:TOP]
        out.append({str(tools[i].get("name")) for i in order})
    return out


def bearing(task: str, sentences: Sequence[str], embed: Embed) -> list[bool]:
    """Whether each statement bears on the request (shared activities, or close meaning)."""
    if not sentences:
        return []
    from ibachat.agent.meaning import VECTORS

    acts = activities([task, *sentences], embed)
    mat = VECTORS.get(embed, [task, *sentences])
    sims = mat[1:] @ mat[0]
    return [bool(acts[0] & a) or float(s) >= CLOSE_SIM for a, s in zip(acts[1:], sims)]


def text_constraints(
    events: list[PreferenceEvent], lexicon: Any, now: datetime, embed: Embed | None, task: str
) -> list[str]:
    """Short lines of what the answer must respect: lexicon decisions (newest word first), states in
    force, what the user avoids and prefers, each only when it bears on the request."""
    if embed is None:
        return []
    from ibachat.agent.alignment.grounding import open_wishes, settle, unit

    def run(texts: list[str]) -> Any:
        return unit(embed(texts))

    lines: list[tuple[str, str]] = []  # (the line, the sentence it rests on)
    wishes = settle(open_wishes(events, now), run)
    decided = _decisions(lexicon, wishes, run, task)
    lines += decided
    for said in _states(events, now).values():
        last = max(said, key=lambda e: e.valid_until or now)
        until = f" (until {last.valid_until:%-d %b})" if last.valid_until else ""
        words = "; ".join(dict.fromkeys(e.subject.rstrip(". ") for e in said[:2]))
        lines.append((f"now: {words}{until}", said[0].subject))
    covered = {w for line, _ in decided for w in line.split()}
    from ibachat.agent.reading.lexicon import BY_DIMENSION

    for key, d in lexicon.decisions.items() if lexicon is not None else []:  # a decided attribute's values
        attr = BY_DIMENSION.get(key)  # are said by its line ("diet: pescatarian" answers "vegetarian")
        if attr is not None and attr.exclusive and d.chosen:
            covered |= {str(v).replace("_", " ") for v in (attr.scale or attr.values)}
    avoid = [w for w in wishes if w.polarity < 0 and w.phrase not in covered]
    want = [w for w in wishes if w.polarity > 0 and w.phrase not in covered]
    for label, group in (("avoids", avoid), ("prefers", want)):
        keep = [w for w, ok in zip(group, bearing(task, [w.sentence for w in group], run)) if ok]
        keep.sort(key=lambda w: -w.weight)
        phrases = list(dict.fromkeys(w.phrase for w in keep))[:MAX_PER_LINE]
        if phrases:
            lines.append((f"the user {label}: " + "; ".join(phrases), ""))
    ok = bearing(task, [s for _, s in lines if s], run)
    it = iter(ok)
    out = [line for line, s in lines if not s or next(it)]
    return list(dict.fromkeys(out))[:MAX_LINES]


def _states(events: list[PreferenceEvent], now: datetime) -> dict[str, list[PreferenceEvent]]:
    """The user's states in force now, per state, its accounts in the order they were said."""
    live = [
        e
        for e in events
        if e.dimension.startswith("state.")
        and e.kind == "state"
        and e.speaker == "user"
        and e.valid_from <= now
        and (e.valid_until is None or now < e.valid_until)
        and e.scope == "general"
    ]
    from ibachat.agent.reading.events import ASSUMED_LENGTH

    out: dict[str, list[PreferenceEvent]] = {}
    for e in sorted(live, key=lambda e: (e.valid_from, e.id)):
        told = out.get(e.dimension, [])
        if ASSUMED_LENGTH in e.reason and any(
            o.valid_until is None or e.valid_from < o.valid_until for o in told
        ):
            continue  # the same state told again, with no length of its own: it does not move the end
        out.setdefault(e.dimension, []).append(e)
    return out


def _decisions(lexicon: Any, wishes: list[Any], embed: Embed, task: str) -> list[tuple[str, str]]:
    """The lexicon's decisions on the user's standing attributes (diet, allergies...), each taken back by
    newer words when they speak against it ("fish is back" after "vegetarian": pescatarian)."""
    from ibachat.agent.alignment.grounding import bearing as bears_on
    from ibachat.agent.alignment.grounding import choose_enum
    from ibachat.agent.reading.lexicon import BY_DIMENSION

    if lexicon is None:
        return []
    out = []
    for key, d in lexicon.decisions.items():
        attr = BY_DIMENSION.get(key)
        if attr is None or key.startswith(("text.", "state.")) or not (d.chosen or d.avoid):
            continue
        chosen = d.chosen
        said = [lexicon.events[i] for i in d.events if i in lexicon.events]
        last = max((e.valid_from for e in said), default=None)
        if chosen and attr.exclusive and last is not None:
            values = list(attr.scale or attr.values)
            newer = [w for w in wishes if w.when is not None and w.when > last]
            near = bears_on("", values, newer, embed, min_sim=0.45)
            found = choose_enum(values, near, embed, task=task, about=attr.label) if near else None
            if found is not None and values[found[0]] != chosen and found[1].margin > 0.1:
                chosen = values[found[0]]
        bits = []
        keeping_out = bool({"exclude", "allergy"} & set(attr.aliases))  # its values name what is kept out
        if chosen and not keeping_out:
            bits.append(f"{attr.label}: {chosen.replace('_', ' ')}")
        if d.avoid:
            bits.append("avoid " + ", ".join(v.replace("_", " ") for v in d.avoid[:MAX_PER_LINE]))
        sentence = next((e.subject for e in reversed(said) if e.subject), attr.label)
        whose = sorted(
            {r.split("for:", 1)[1].split(";")[0].split("|")[0] for e in said if "for:" in (r := e.reason)}
        )  # "for:Leo|son": the name first
        if bits:
            out.append(("; ".join(bits) + (f" ({', '.join(whose)})" if whose else ""), sentence))
    return out
