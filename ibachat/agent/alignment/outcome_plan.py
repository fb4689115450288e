"""An outcome the user was unhappy with is not done again: its values are neither reused nor defaulted to.

The outcome is the latest past call of this tool; a reaction read as unhappy (``reading/outcomes.py``)
after it, and before the request, is about it when ingest found it so (``about_a_call``): a definite
thing it speaks of is named by the call, word for word up to inflection ("that sauna", "the new
beans", "those minutes"), or its meaning is near the call's ("woke up drenched" after "thermostat
set to 25 for the night"); a broken doorbell is no hotel's outcome. The reaction rarely says which value was wrong, or which way: "woke up drenched
in sweat" blames the heat, not the start time, but a small sentence embedder cannot tell ("like an
oven" is as near "too cold" as "too hot"). So no value of that call that says how it was done
(a number, an enum, a flag, a clock time) stands as "chosen once before": each is left unset, and the
plan asks one question, about the value the reaction is nearest in meaning (the first numeric or
enum value of the call when nothing stands out), whose old value it avoids (an enum value leaves the
allowed ones). What was had (free text: the document, the shop) is what the reaction names, not
what it blames, and stays. A complaint that does say the way ("too
late") has already moved its value (``complaint_plan.py``); a value the request states stands.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

from ibachat.agent.alignment.grounding import Embed, param_text, unit
from ibachat.agent.alignment.resolve import WEAK_ONCE
from ibachat.agent.alignment.usual import free_text
from ibachat.agent.reading.outcomes import OUTCOME_DIM, UNHAPPY
from ibachat.agent.reading.schema_map import params
from memory.ledger import PreferenceEvent
from memory.lexical import tokenize

# A reaction comes soon after what it is about: the dev and test reactions came 1 to 9 days later.
# Later than this, an unhappy remark is about something else, however near in words.
REACTION_DAYS = 21
# The reaction against a call it names nothing of (the tool's name with the words the call was made
# with), MiniLM cosine: on 60 reactions a helper wrote for other domains (tests' notes), complaints
# scored 0.03-0.53 against their own call and unrelated talk at most 0.21 (wrong calls: 95% under 0.25).
OUTCOME_BEAR_MIN = 0.25
# Which value the question asks about: the reaction nearest it in meaning by this much over the next.
ASK_LEAD = 0.04


def about_a_call(
    reaction: PreferenceEvent,
    calls: list[PreferenceEvent],
    said_with: Callable[[int], str],
    embed: Embed | None,
) -> str:
    """The tool of the call, made up to ``REACTION_DAYS`` before the reaction, that it is about ("" for
    none): the latest whose name, values or words (the request it answered, its report: "for the film")
    name a thing the reaction speaks of, word for word up to inflection; else the one nearest in meaning (the reaction against the tool's name and the words
    the call was made with, "Done: thermostat set to 25 for the night"), at least ``OUTCOME_BEAR_MIN``."""
    recent = sorted(
        (
            e
            for e in calls
            if timedelta(0) < reaction.valid_from - e.valid_from <= timedelta(days=REACTION_DAYS)
        ),
        key=lambda e: e.valid_from,
        reverse=True,
    )
    said = _terms(reaction.value.removeprefix(UNHAPPY))
    for e in recent:
        name = e.dimension.partition(".")[0]
        made_with = said_with(e.evidence[0]) if e.evidence else ""  # "for the film": the film it was for
        if said & _terms(f"{name} {e.value} {made_with[:300]}"):
            return name
    if embed is None or not recent:
        return ""
    texts: dict[str, str] = {}
    for e in recent:  # the latest call of each tool
        name = e.dimension.partition(".")[0]
        if name not in texts and e.evidence:
            texts[name] = f"{name.replace('_', ' ')}: {said_with(e.evidence[0])[:300]}"
    names = list(texts)
    mat = unit(embed([reaction.subject, *texts.values()]))
    sims = mat[1:] @ mat[0]
    best = max(range(len(names)), key=lambda i: float(sims[i]))
    return names[best] if float(sims[best]) >= OUTCOME_BEAR_MIN else ""


def _terms(text: str) -> set[str]:
    """The stemmed words of ``text`` ("bins" and "bin", "beans" and "bean" alike), names split."""
    return {t for t in tokenize(text.replace("_", " ")) if t.isalpha()}


def _calls(events: list[PreferenceEvent], name: str, now: datetime) -> dict[int, list[PreferenceEvent]]:
    out: dict[int, list[PreferenceEvent]] = {}
    for e in events:
        if e.kind == "chose" and e.dimension.startswith(name + ".") and e.valid_from <= now and e.evidence:
            out.setdefault(e.evidence[0], []).append(e)
    return out


def _value(plan_value: Any, said: str) -> bool:
    """Whether the plan's value is the one the call used."""
    values = plan_value if isinstance(plan_value, list) else [plan_value]
    return any(str(v).lower() == said.lower() for v in values)


def unsettle_unhappy(
    plan: Any,
    tool: dict[str, Any],
    events: list[PreferenceEvent],
    now: datetime,
    embed: Embed | None,
) -> None:
    """Unset the values of the last call of ``tool`` that a reaction after it was unhappy with."""
    name = str(tool.get("name", ""))
    calls = _calls(events, name, now)
    if not calls:
        return
    last = max(calls.values(), key=lambda c: c[0].valid_from)
    when = last[0].valid_from
    reactions = sorted(
        (
            e
            for e in events
            if e.dimension == OUTCOME_DIM
            and e.value.endswith(f"({name})")
            and when < e.valid_from <= now
            and e.valid_from - when <= timedelta(days=REACTION_DAYS)
        ),
        key=lambda e: e.valid_from,
        reverse=True,
    )
    if not reactions:
        return
    reaction = reactions[0]
    moved = [
        pd for pd in plan.params.values() if pd.source == "open" and set(pd.evidence) & set(reaction.evidence)
    ]
    if moved:
        return  # "way too hot": its complaint has moved the value it was about
    used = {e.dimension.split(".", 1)[1]: str(e.value) for e in last}
    quote = _quote(reaction.subject)
    unset = []
    for param in params(tool):
        pd = plan.params.get(param.name)
        said = used.get(param.name)
        if pd is None or said is None or pd.source not in ("habit", "none") or free_text(param.schema):
            continue  # the request's value, the user's statement, a complaint's move, what was had: they stand
        if pd.chosen is not None and not _value(pd.chosen, said):
            continue
        pd.chosen, pd.certain, pd.source = None, False, "none"
        pd.reason = f"{said} was last time's, and after it you said {quote!r}"
        pd.evidence = sorted(t for t in reaction.evidence if t)
        unset.append(param)
    if not unset:
        return
    asked = _asked_about(unset, reaction.subject, embed)
    pd = plan.params[asked.name]
    said = used[asked.name]
    old = _typed(said, asked.kind)
    if old not in pd.avoid:
        pd.avoid.append(old)
    if pd.allowed is not None:
        pd.allowed = [v for v in pd.allowed if str(v).lower() != said.lower()]
    pd.reason = f"not {said} again: after it you said {quote!r}"
    label = asked.name.replace("_", " ")
    options = [v for v in asked.labels if v.lower() != said.lower()]
    pd.question = f"Last time {label} was {said} and you said {quote!r}. What {label} this time" + (
        f" ({', '.join(options[:6])})?" if options else "?"
    )


def _quote(text: str, limit: int = 70) -> str:
    """The reaction's words, cut at a word near ``limit`` ("... reading glasses on…")."""
    text = " ".join(text.split()).rstrip(".")
    if len(text) <= limit:
        return text
    return text[: text.rfind(" ", 0, limit)].rstrip(",;:-") + "…"


def _typed(value: str, kind: str) -> Any:
    if kind in ("integer", "number"):
        try:
            number = float(value)
        except ValueError:
            return value
        return int(number) if kind == "integer" and number.is_integer() else number
    if kind == "boolean":
        return value == "true"
    return value


def _asked_about(unset: list[Any], reaction: str, embed: Embed | None) -> Any:
    """The unset value the reaction is clearly nearest in meaning; else the first number or enum."""
    if embed is not None and len(unset) > 1:
        mat = unit(embed([reaction, *(param_text(p.name, p.schema) for p in unset)]))
        sims = sorted(((float(s), i) for i, s in enumerate(mat[1:] @ mat[0])), reverse=True)
        if sims[0][0] - sims[1][0] >= ASK_LEAD:
            return unset[sims[0][1]]
    return next((p for p in unset if p.kind in ("integer", "number", "enum", "boolean")), unset[0])


def unsettle_passed(plan: Any, tool: dict[str, Any], events: list[PreferenceEvent], now: datetime) -> None:
    """A value of a single past call made while a passing situation lasted ("my sister and her kids are
    moving in for the next three weeks", then "book the cleaner for 4 hours") was chosen for that
    situation: once it has ended, the value is not reused as "chosen once before". It is left unset,
    and asked when the tool needs it, quoting the situation. A habit of several calls stands."""
    from ibachat.agent.reading.events import SITUATION_DIM

    ended = [
        e
        for e in events
        if e.dimension == SITUATION_DIM and e.valid_until is not None and e.valid_until <= now
    ]
    if not ended:
        return
    name = str(tool.get("name", ""))
    for param in params(tool):
        pd = plan.params.get(param.name)
        if pd is None or pd.source != "habit" or WEAK_ONCE not in pd.reason or pd.chosen is None:
            continue
        calls = [
            e
            for e in events
            if e.dimension == f"{name}.{param.name}" and e.kind == "chose" and _value(pd.chosen, e.value)
        ]
        if not calls:
            continue
        made = max(e.valid_from for e in calls)
        during = [s for s in ended if s.valid_from <= made <= s.valid_until]  # type: ignore[operator]
        if not during:
            continue
        situation = max(during, key=lambda s: s.valid_from)
        label = param.name.replace("_", " ")
        said = _quote(situation.subject or situation.value)
        old = str(pd.chosen).replace("_", " ")
        pd.chosen, pd.certain, pd.source = None, False, "none"
        pd.reason = f"{old} was chosen while {said!r}, which has passed"
        pd.evidence = sorted(t for t in situation.evidence if t)
        if param.required:
            pd.question = f"Last time {label} was {old}, while {said!r}. What {label} now?"
