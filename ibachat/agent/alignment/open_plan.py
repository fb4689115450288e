"""The open-world layer of the plan: preferences in the user's own words, grounded into any tool.

After the lexicon has written what it knows, every parameter it left open is grounded from the
tool's JSON Schema alone (``grounding.py``): an enum by the meaning of its values against the
preferences in force, a boolean by the meaning of its name and description. A value the request
states is never overridden (the task's own words win at execution), and a parameter nothing bears
on is left as it was. A text answer gets the preferences that bear on its request as directives.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import datetime
from typing import Any

import numpy as np

from ibachat.agent import data
from ibachat.agent.alignment.grounding import (
    CERTAIN_MARGIN,
    DEFAULT_MARGIN,
    Embed,
    Wish,
    bearing,
    choose_bool,
    choose_enum,
    content_wishes,
    defined,
    evidence_of,
    open_wishes,
    param_text,
    reason_of,
    settle,
    unit,
)
from ibachat.agent.alignment.scope import elsewhere, in_scope
from ibachat.agent.reading.lexicon import BY_DIMENSION, keeps_out
from ibachat.agent.reading.open_prefs import NUMBER_DIM
from ibachat.agent.reading.quantities import quantities
from ibachat.agent.reading.schema_map import bindings, params
from memory.ledger import PreferenceEvent

MAX_TEXT_WISHES = 4
BOUND_MIN_SIM = 0.25
TEXT_MIN_SIM = 0.3
HABIT_AGAINST = 0.06  # later words must put the habit's own value this far below the average
HABIT_BEAR_MIN_SIM = 0.45  # and be about one of the values (as the glossary defines them) this closely


def _embedder(embed: Embed) -> Embed:
    cache: dict[str, Any] = {}

    def run(texts: list[str]) -> Any:
        if not texts:  # a prefetch with nothing to fetch
            return np.zeros((0, 0), dtype=np.float32)
        missing = [t for t in dict.fromkeys(texts) if t not in cache]
        if missing:
            for t, v in zip(missing, unit(embed(missing))):
                cache[t] = v
        return np.stack([cache[t] for t in texts])

    return run


def ground_tool(
    plan: Any, tool: dict[str, Any], events: list[PreferenceEvent], now: datetime, embed: Embed, task: str
) -> None:
    """Fill the parameters the lexicon left open from the open preferences (and the lexicon's, by meaning)."""
    labels = {dim: attr.label for dim, attr in BY_DIMENSION.items()}
    binds = bindings(tool)
    bound = {b.attr.dimension for bs in binds.values() for b in bs}
    content = {k: v for k, v in plan.content.items() if k not in bound}  # what no parameter already carries
    embed = _embedder(embed)
    _spans(plan, tool, task)
    avoiding = frozenset(d for d in BY_DIMENSION if keeps_out(d))
    said = settle(open_wishes(events, now), embed)
    # a wish said about another activity, or about the assistant's replies, is not this tool's
    # (the wish's own words or the sentence it was said in: a pick of "the wine cellar" says it in the phrase)
    # (the phrase alone is not enough when the sentence is clearly about another activity: "I never read
    # long notes" and a meal's "notes")
    scoped = in_scope([w.sentence for w in said] + [w.phrase for w in said], tool, embed)
    away = elsewhere([w.sentence for w in said], tool, embed)
    said = [
        w
        for w, a, b, far in zip(said, scoped[: len(said)], scoped[len(said) :], away)
        if a or (b and not far)
    ]
    known = content_wishes(
        content, labels, avoiding
    )  # the lexicon's, said of something too ("length: short")
    known = [w for w, ok in zip(known, in_scope([w.sentence for w in known], tool, embed)) if ok]
    wishes: list[Wish] = said + known
    if not wishes:
        return
    open_params = [p for p in params(tool) if _left_open(plan.params.get(p.name))]
    # the tool's own texts that grounding compares the wishes with, in one batch for the embedder: the
    # first plan for a tool embeds them all (a call costs about as much as several texts in it)
    embed(_owner_texts(tool) + [t for p in open_params for t in _bearing_texts(p)])
    owner = _owners(tool, wishes, embed)
    from ibachat.agent.reading.schema_map import gives_a_reply

    # a tool whose act is giving one of its replies: the replies are what the wishes are about, so the
    # one furthest from what the user avoids is chosen (a reply says nothing of a budget tier's kind)
    replying = gives_a_reply(tool)
    overridden = _newer_than_habit(plan, tool, wishes, events, embed, task)
    if overridden:
        _consistent(plan, tool, overridden, embed)
    bears: dict[str, list[Wish]] = {}
    for param in params(tool):
        if _left_open(plan.params.get(param.name)):
            about = param_text(param.name, param.schema)
            bears[param.name] = [
                w
                for w in bearing(about, param.labels, wishes, embed)
                if param.name in owner.get(w.key + w.phrase, ())
            ]
    # what ranking the values of each enum that wishes bear on reads of the request, in one batch too
    embed(
        [
            f"{task} {param_text(p.name, p.schema)}".strip()
            for p in params(tool)
            if bears.get(p.name) and p.kind == "enum" and len(p.labels) >= 2
        ]
    )
    for param in params(tool):
        pd = plan.params.get(param.name)
        if pd is None or param.name not in bears:
            continue
        named = _named_in_pick(param.labels, wishes) if param.kind == "enum" else None
        if named is not None:  # "full service with a courtesy car" picked: the package is "full"
            i, wish = named
            pd.chosen, pd.source, pd.certain = param.enum[i], "open", True
            pd.reason = f"you picked {wish.phrase[:60]!r} from the options offered"
            pd.evidence = list(wish.evidence)
            continue
        about = param_text(param.name, param.schema)
        near = bears[param.name]
        if not near:
            continue
        if param.kind == "enum" and len(param.labels) >= 2:
            out_of_bounds = _label_bounds(param.labels, events, now, embed, task)
            out_of_bounds |= _parts_of_day(param.labels, near)
            found = choose_enum(param.labels, near, embed, task=task, about=about, exclude=out_of_bounds)
            if found is None:
                continue
            best, ranking = found
            if "default" in param.schema and not param.required and ranking.margin < DEFAULT_MARGIN:
                continue  # an optional parameter keeps its default unless the wishes clearly say otherwise
            if not replying and not _about_the_value(
                str(param.enum[best]),
                ranking,
                near,
                embed,
                [str(v) for i, v in enumerate(param.enum) if i not in out_of_bounds],
            ):
                # the wishes that moved it say nothing of that value ("avoids dill": no budget tier);
                # a value they turn down is left out of what is offered ("god no" to the slasher film)
                against = _others_turned_down(best, param, near, embed)
                if against is not None:  # every other value is one the user avoids: this one is left
                    pd.chosen, pd.source, pd.certain = param.enum[best], "open", False
                    pd.reason = f"the others are what you avoid (avoids {against.phrase[:60]!r})"
                    pd.evidence = list(against.evidence)
                    continue
                _avoid_turned_down(pd, param, near, ranking, embed)
                continue
            pd.chosen = param.enum[best]
            pd.source, pd.reason = "open", reason_of(ranking, near)
            pd.evidence = evidence_of(ranking, near)
            pd.certain = ranking.margin >= CERTAIN_MARGIN
        elif param.kind == "boolean":
            found_b = choose_bool(about, near, embed)
            if found_b is None:
                continue
            value, wish, sim = found_b
            if param.schema.get("default") is value and not param.required:
                continue  # the default already says so: no reason to claim it
            pd.chosen, pd.source, pd.certain = value, "open", sim >= 0.6
            pd.reason = (
                f"you picked {wish.phrase[:60]!r} from the options offered"
                if wish.kind == "chose" and wish.polarity > 0
                else f"by meaning: {'wants' if wish.polarity > 0 else 'avoids'} {wish.phrase[:60]!r}"
            )
            pd.evidence = list(wish.evidence)
    _asked_now(plan, task)


_AGAINST_BEFORE = r"\s*,?\s*(?:this time|for once|for a change)\b"


def _asked_now(plan: Any, task: str) -> None:
    """A value chosen by meaning from what the request itself asks for against what was done before
    ("the actual paper book this time": print_book) rests on the request's words, quoted: no remembered
    turn is its evidence."""
    for pd in plan.params.values():
        if pd.chosen is None or pd.source != "open" or pd.evidence:
            continue
        wanted = re.findall(r"\bwants '([^'\n]{2,60})'", pd.reason)
        # only a thing asked for against what was done before ("the paper book this time"): a want that
        # merely names the service ("I need a rental car in Phoenix") chooses nothing by itself
        said = [w for w in wanted if re.search(rf"(?i)(?<![\w-]){re.escape(w)}{_AGAINST_BEFORE}", task)]
        if said:
            quote = re.search(rf"(?i)(?<![\w-]){re.escape(said[0])}(?![\w-])", task)
            assert quote is not None
            pd.source, pd.quote, pd.certain = "request", quote.group(0), True
            pd.reason = f'your request: "{quote.group(0)}"'


def _named_in_pick(labels: Sequence[str], wishes: Sequence[Wish]) -> tuple[int, Wish] | None:
    """The one value the latest pick among offered options (of those said of this tool) names in so many
    words, if any: a pick bears on the parameter whose value it names, however far its other words are."""
    picks = sorted(
        (w for w in wishes if w.kind == "chose" and w.polarity > 0),
        key=lambda w: (w.when is not None, w.when),
        reverse=True,
    )
    for w in picks[:1]:
        text = w.phrase.lower()
        named = [
            i
            for i, label in enumerate(labels)
            if label.strip()
            and re.search(rf"(?<![\w-]){re.escape(label.lower().replace('_', ' '))}(?![\w-])", text)
        ]
        if len(named) == 1:
            return named[0], w
    return None


def _left_open(pd: Any) -> bool:
    """A parameter of the plan that neither the lexicon nor the request filled: grounding's to fill."""
    return pd is not None and pd.chosen is None and pd.source in ("none", "")


def _owner_texts(tool: dict[str, Any]) -> list[str]:
    """The texts ``_owners`` compares wishes with: each enum or boolean parameter's text and values."""
    texts: list[str] = []
    for p in params(tool):
        if p.kind == "enum" and len(p.labels) >= 2:
            words = p.name.replace("_", " ")
            texts += [
                param_text(p.name, p.schema),
                *(f"{str(v).replace('_', ' ')} {words}" for v in p.labels[:30]),
            ]
        elif p.kind == "boolean":
            texts.append(param_text(p.name, p.schema))
    return texts


def _bearing_texts(param: Any) -> list[str]:
    """The texts ``bearing`` compares wishes with for ``param``: its text and its values, as defined."""
    return [param_text(param.name, param.schema)] + [
        defined(str(v).replace("_", " ")) for v in param.labels[:40]
    ]


VALUE_MIN_SIM = 0.3  # a wish that chooses a value must be about it (MiniLM cosine to its defined label)
# and about it more than about each other value of the parameter: "face to face" is 0.30 from "soon"
# and 0.28 from "same day" in MiniLM (how soon, which it says nothing of); "aisle seat" is far nearer "aisle"
SINGLES_OUT_GAP = 0.03


def _about_the_value(
    value: str, ranking: Any, wishes: list[Wish], embed: Embed, others: Sequence[str] = ()
) -> bool:
    """Whether one of the wishes that moved ``value`` to the top is about it, in meaning or in words."""
    movers = [p for p, _ in ranking.top[:2]] or [w.phrase for w in wishes]
    if not movers:
        return False
    label = defined(value.replace("_", " "))
    rest = [defined(str(o).replace("_", " ")) for o in others if str(o) != value]
    mat = embed([label, *rest, *movers])
    said = mat[1 + len(rest) :]
    near = said @ mat[0]
    gap = near - (said @ mat[1 : 1 + len(rest)].T).max(axis=1) if rest else near
    avoided = {w.phrase for w in wishes if w.polarity < 0}  # an avoid moves up what it is least about
    if any(
        float(n) >= VALUE_MIN_SIM and (float(g) >= SINGLES_OUT_GAP or m in avoided)
        for m, n, g in zip(movers, near, gap)
    ):
        return True
    words = set(re.findall(r"[a-z]{3,}", label.lower()))
    return any(words & set(re.findall(r"[a-z]{3,}", m.lower())) for m in movers)


TURNED_DOWN_GAP = 0.08  # an avoided wish is about each other value this much more than about the one left


# MiniLM puts every value of one topic near an avoided activity ("swimming" is 0.34 from "pilates",
# "driving" 0.35 from "train + local taxi"); a value is about what is avoided only when it is also near
# the value most about it, within this much (the avoided activity's own values: "open-water swim club"
# 0.61, "aqua aerobics" 0.55; "drive own car" 0.62, "self-drive hire car" 0.45)
AVOID_SPREAD = 0.2


def _avoided_floor(sims: Any) -> float:
    """The least cosine a value needs to an avoided wish to count as what it avoids (wish x value rows)."""
    return max(VALUE_MIN_SIM, float(sims.max()) - AVOID_SPREAD)


def _others_turned_down(best: int, param: Any, wishes: list[Wish], embed: Embed) -> Wish | None:
    """The avoided wish that turns down every value but ``best``, when there is one: each other value is
    about what the user avoids (cosine >= ``VALUE_MIN_SIM``) and clearly more so than ``best`` is (by
    ``TURNED_DOWN_GAP``), so "the others are what you avoid" is true of each. None otherwise."""
    against = [w for w in wishes if w.polarity < 0]
    if not against or any(w.polarity > 0 for w in wishes):
        return None
    labels = [defined(str(v).replace("_", " ")) for v in param.enum]
    mat = embed(labels + [w.phrase for w in against])
    sims = mat[len(labels) :] @ mat[: len(labels)].T  # wish x value
    left = sims[:, best].max()
    others = [i for i in range(len(labels)) if i != best]
    floor = _avoided_floor(sims)
    if all(float(sims[:, i].max()) >= max(floor, left + TURNED_DOWN_GAP) for i in others):
        j = int(np.argmax(sims[:, others].max(axis=1)))
        return against[j]
    return None


def _avoid_turned_down(pd: Any, param: Any, wishes: list[Wish], ranking: Any, embed: Embed) -> None:
    """Put in ``pd.avoid`` the values the avoided wishes are about (cosine >= ``VALUE_MIN_SIM`` to one),
    with those wishes as the evidence, so a question offers only the rest."""
    against = [w for w in wishes if w.polarity < 0]
    if not against:
        return
    labels = [defined(str(v).replace("_", " ")) for v in param.enum]
    mat = embed(labels + [w.phrase for w in against])
    sims = mat[len(labels) :] @ mat[: len(labels)].T
    for i, v in enumerate(param.enum):
        hit = [w for w, row in zip(against, sims) if float(row[i]) >= _avoided_floor(row[None, :])]
        if hit and v not in pd.avoid and len(pd.avoid) < len(param.enum) - 1:
            pd.avoid.append(v)
            pd.evidence = sorted(set(pd.evidence or []) | {t for w in hit for t in w.evidence})
            if not pd.reason:
                pd.reason = f"by meaning: avoids {hit[0].phrase[:60]!r}"


OWNER_SLACK = 0.05  # a wish grounds the parameters within this much of the one it fits best


def _owners(tool: dict[str, Any], wishes: list[Wish], embed: Embed) -> dict[str, set[str]]:
    """Each wish to the parameter(s) it is about: the one whose values and words it fits best ("window
    seat" is the seat's, not the assistance's), and any within ``OWNER_SLACK`` of it."""
    candidates = [p for p in params(tool) if (p.kind == "enum" and len(p.labels) >= 2) or p.kind == "boolean"]
    if not candidates or not wishes:
        return {}
    texts: list[str] = []
    spans: list[tuple[int, int]] = []
    for p in candidates:
        words = p.name.replace("_", " ")
        options = [f"{str(v).replace('_', ' ')} {words}" for v in p.labels[:30]] if p.kind == "enum" else []
        start = len(texts)
        texts += [param_text(p.name, p.schema), *options]
        spans.append((start, len(texts)))
    mat = embed(texts + [w.phrase for w in wishes])
    targets, phrases = mat[: len(texts)], mat[len(texts) :]
    sims = phrases @ targets.T
    out: dict[str, set[str]] = {}
    for w, row in zip(wishes, sims):
        per = [float(row[a:b].max()) for a, b in spans]
        best = max(per)
        out[w.key + w.phrase] = {p.name for p, s in zip(candidates, per) if s >= best - OWNER_SLACK}
    return out


def _label_bounds(
    labels: list[str], events: list[PreferenceEvent], now: datetime, embed: Embed, task: str
) -> set[int]:
    """Values whose own amounts break a bound the user set ("under two hours" and a 181-minute film)."""
    bounds = []
    for e in events:
        if e.dimension != NUMBER_DIM or e.valid_from > now or (e.valid_until and now >= e.valid_until):
            continue
        m = re.match(r"^([a-z]+)(>=|<=)(-?[\d.]+)$", e.value)
        if m:
            bounds.append((m.group(1), m.group(2), float(m.group(3)), e.subject or e.value))
    if not bounds:
        return set()
    mat = embed([task] + [b[3] for b in bounds])
    bearing_ = mat[1:] @ mat[0]
    over: dict[int, float] = {}  # label -> how far past the bound it goes, as a share of the bound
    for i, label in enumerate(labels):
        for q in quantities(str(label)):
            for (unit_, op, value, _), sim in zip(bounds, bearing_):
                if q.unit != unit_ or float(sim) < BOUND_MIN_SIM:
                    continue
                if (op == "<=" and q.value > value) or (op == ">=" and q.value < value):
                    gap = abs(q.value - value) / max(abs(value), 1e-9)
                    over[i] = max(over.get(i, 0.0), gap)
    if len(over) < len(labels):
        return set(over)
    # every value breaks the bound: the one that breaks it least is what the bound still asks for
    least = min(over.values())
    return {i for i, gap in over.items() if gap > least * 1.05}


# the parts of the day a wish may name, as hours (data/parts_of_day.json): "mornings only" rules out a value
# whose own hours ("evening (18:00-23:00)") lie outside them
def _part_of_day(word: str) -> tuple[float, float] | None:
    hours = data.load("parts_of_day")["hours"].get(word)
    return (float(hours[0]), float(hours[1])) if hours else None


_HOURS_SPAN = re.compile(r"\b(\d{1,2})(?::(\d{2}))?\s*[-–]\s*(\d{1,2})(?::(\d{2}))?\b")


def _parts_of_day(labels: Sequence[str], wishes: Sequence[Wish]) -> set[int]:
    """Values whose own hours lie outside the time of day a wish names (or inside one it avoids)."""
    spans: dict[int, tuple[float, float]] = {}
    for i, label in enumerate(labels):
        m = _HOURS_SPAN.search(str(label))
        if m:
            a = int(m.group(1)) + int(m.group(2) or 0) / 60
            b = int(m.group(3)) + int(m.group(4) or 0) / 60
            spans[i] = (a, b if b > a else b + 24)
    if len(spans) < 2:
        return set()
    out: set[int] = set()
    for w in wishes:
        for word in re.findall(r"[a-z-]+", w.phrase.lower()):
            part = _part_of_day(word)
            if part is None:
                continue
            for i, (a, b) in spans.items():
                inside = max(0.0, min(b, part[1]) - max(a, part[0])) / max(b - a, 1e-9)
                if (w.polarity > 0 and inside < 0.5) or (w.polarity < 0 and inside >= 0.5):
                    out.add(i)
    return out if len(out) < len(labels) else set()


UPDATE_KINDS = ("stated", "updated", "corrected", "asked", "state", "rejected")
STATED_SOURCES = ("habit", "statement", "update", "correction")


def _newer_than_habit(
    plan: Any,
    tool: dict[str, Any],
    wishes: list[Wish],
    events: list[PreferenceEvent],
    embed: Embed,
    task: str,
) -> list[tuple[str, str]]:
    """An enum the habit filled, that the user's later words turn elsewhere: the later words win.

    Returns (old value, new value) for each parameter changed, so the others can be kept consistent."""
    name = str(tool.get("name", ""))
    out: list[tuple[str, str]] = []
    for param in params(tool):
        pd = plan.params.get(param.name)
        if pd is None or param.kind != "enum" or pd.chosen is None or pd.source not in STATED_SOURCES:
            continue
        if pd.source == "habit":
            said_at = [
                e.valid_from for e in events if e.dimension == f"{name}.{param.name}" and e.kind == "chose"
            ]
        else:  # a value the user stated: what they said after it may take it back ("I eat fish again")
            said_at = [
                datetime.fromisoformat(p.valid_from)
                for p in plan.preferences
                if p.target == f"param:{param.name}" and p.status == "active" and p.polarity > 0
            ]
        if not said_at:
            continue
        last = max(said_at)
        newer = [w for w in wishes if w.when is not None and w.when > last and w.kind in UPDATE_KINDS]
        # a habit gives way only to later words about one of its values ("vegetarian" for "veggie"),
        # not to anything that shares a little meaning with the parameter
        near = bearing("", param.labels, newer, embed, min_sim=HABIT_BEAR_MIN_SIM)
        found = choose_enum(param.labels, near, embed, task=task, about=param_text(param.name, param.schema))
        best, ranking = found if found is not None else (None, None)
        habit = next((i for i, v in enumerate(param.enum) if str(v) == str(pd.chosen)), None)
        if habit is not None and best != habit:  # a value chosen or said before, and an avoid since
            later = [w for w in wishes if w.when is not None and w.when > last and w.polarity < 0]
            against = _avoided_since(habit, param, later, embed)
            if against is not None:
                _unsettle_habit(pd, param, against)
                continue
        if (
            found is None
            or habit is None
            or best == habit
            or ranking.scores[best] - ranking.scores[habit] < CERTAIN_MARGIN / 2
            or ranking.scores[habit] > float(np.mean(ranking.scores)) - HABIT_AGAINST
        ):  # the later words must speak against the habit itself, not merely favour another value
            change = _changed_since(habit, param, newer, embed, task) if pd.source == "habit" else None
            if change is not None:  # "from now on, the kidney-care biscuits": not the old one, unasked
                _unsettle_habit(pd, param, change)
            continue
        out.append((str(pd.chosen), str(param.enum[best])))
        pd.chosen, pd.source, pd.certain = param.enum[best], "open", True
        pd.reason = ("newer than the habit, " if pd.source == "habit" else "said since: ") + reason_of(
            ranking, near
        )
        pd.evidence = evidence_of(ranking, near)
    return out


# A habit's value a later avoid is this near in meaning (all-MiniLM-L6-v2; the value with its parameter's
# words, "whole milk", against the avoided phrase, "dairy": 0.71; "spice" and a hot spice level 0.74),
# when that avoid is no nearer another of the values ("aisle seats" and a window habit: the avoid is of
# the other seat), is put to the user as one question rather than kept or swapped silently.
HABIT_AVOIDED_NEAR = 0.6
HABIT_AVOIDED_LEAD = 0.05


def _changed_since(habit: int | None, param: Any, newer: list[Wish], embed: Embed, task: str) -> Wish | None:
    """A change the user announced since the habit ("it's the kidney-care biscuits from now on") that is
    about one of the values (``VALUE_MIN_SIM``) and nearest another than the habit's: too weak to pick
    that other value, too clear to reuse the old one without asking."""
    if habit is None:
        return None
    changes = [w for w in newer if w.kind in ("updated", "corrected") and w.polarity > 0 and w.phrase]
    near = bearing("", param.labels, changes, embed, min_sim=VALUE_MIN_SIM)
    for w in near:
        found = choose_enum(param.labels, [w], embed, task=task, about=param_text(param.name, param.schema))
        if found is not None and found[0] != habit:
            return w
    return None


def _avoided_since(habit: int, param: Any, newer: list[Wish], embed: Embed) -> Wish | None:
    """The later avoid that bears on the habit's own value, when the later words name no other value."""
    avoids = [w for w in newer if w.polarity < 0 and w.phrase]
    if not avoids:
        return None
    words = " ".join(sorted(param.words))
    values = [f"{label.replace('_', ' ')} {words}".strip() for label in param.labels]
    mat = np.asarray(embed(values + [w.phrase for w in avoids]), dtype=np.float32)
    mat /= np.linalg.norm(mat, axis=1, keepdims=True) + 1e-9
    sims = mat[len(values) :] @ mat[: len(values)].T  # avoid x value
    for w, row in zip(avoids, sims):
        own = float(row[habit])
        if own >= HABIT_AVOIDED_NEAR and own >= float(row.max()) - HABIT_AVOIDED_LEAD:
            return w
    return None


def _unsettle_habit(pd: Any, param: Any, against: Wish) -> None:
    label = param.name.replace("_", " ")
    old = str(pd.chosen).replace("_", " ")
    said = (against.sentence or against.phrase).strip().rstrip(".")
    options = ", ".join(v.replace("_", " ") for v in param.labels[:7])
    pd.chosen, pd.certain, pd.source = None, False, "none"
    pd.reason = f"{old!r} (what you had before) predates what you said since: {said!r}"
    pd.evidence = list(against.evidence)
    pd.question = (
        f'Your usual {label} was {old}, but since then you said "{said}". Which {label} now ({options})?'
    )


def _consistent(plan: Any, tool: dict[str, Any], overridden: list[tuple[str, str]], embed: Embed) -> None:
    """Values the habit filled that belong with a value the user has moved away from are dropped."""
    for param in params(tool):
        pd = plan.params.get(param.name)
        if pd is None or pd.source != "habit" or pd.chosen is None or param.kind not in ("string", "list"):
            continue
        values = pd.chosen if isinstance(pd.chosen, list) else [pd.chosen]
        for old, new in overridden:
            mat = embed([str(v) for v in values] + [old.replace("_", " "), new.replace("_", " ")])
            k = len(values)
            if any(float(mat[i] @ mat[k]) > float(mat[i] @ mat[k + 1]) for i in range(k)):
                pd.reason = (
                    f"not the usual {pd.chosen!r}: it goes with {old!r}, and you have moved to {new!r}"
                )
                pd.chosen, pd.certain, pd.source = None, False, "none"
                if param.required:
                    plan.clarifications.append(f"What would you like for {param.name.replace('_', ' ')} now?")
                break


_TIME_WORDS = re.compile(
    r"^(?:(?:this|next|last|on|from|by|until)\s+)?(?:(?:\d{1,2}(?:st|nd|rd|th)?\s+)?(?:jan|feb|mar|apr|may|jun|jul|"
    r"aug|sep|oct|nov|dec)[a-z]*|mon|tue|wed|thu|fri|sat|sun)[a-z]*\b",
    re.I,
)  # a day or a month is no place and no name


def _spans(plan: Any, tool: dict[str, Any], task: str) -> None:
    """Required free-text parameters nothing filled: the place, name or span the request states for them
    (``request_values``); what it does not state is asked for, never a day or a month."""
    from ibachat.agent.alignment.request_values import stated_value, tool_about

    for param in params(tool):
        pd = plan.params.get(param.name)
        if pd is None or param.kind != "string" or not param.required or pd.chosen is not None:
            continue
        if param.schema.get("format") or param.schema.get("pattern"):
            continue  # dates and times: slot filling reads those
        said = stated_value(
            param.name, param.schema, task, plan.now, tool.get("parameters"), tool_about(tool)
        )
        span = str(said) if said is not None else None  # what the words do not give is asked for
        if span is not None and not _TIME_WORDS.match(span):
            pd.chosen, pd.source, pd.reason, pd.quote = span, "task", f"the request names {span!r}", span


def text_notes(events: list[PreferenceEvent], now: datetime, embed: Embed | None, task: str) -> list[str]:
    """Directives for a text answer: the open preferences that bear on the request."""
    if embed is None:
        return []
    embed = _embedder(embed)
    wishes = settle(open_wishes(events, now), embed)
    if not wishes:
        return []
    mat = embed([task] + [w.sentence for w in wishes])
    sims = mat[1:] @ mat[0]
    ranked = sorted(range(len(wishes)), key=lambda j: -float(sims[j]) * wishes[j].weight)
    want = [wishes[j].phrase for j in ranked if sims[j] >= TEXT_MIN_SIM and wishes[j].polarity > 0]
    avoid = [wishes[j].phrase for j in ranked if sims[j] >= TEXT_MIN_SIM and wishes[j].polarity < 0]
    out = []
    if avoid:
        out.append("the user avoids: " + "; ".join(avoid[:MAX_TEXT_WISHES]))
    if want:
        out.append("the user prefers: " + "; ".join(want[:MAX_TEXT_WISHES]))
    return out
