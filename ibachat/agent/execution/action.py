"""The one action path: a message becomes a text answer, a proposed tool call, or one short question.

``Planner.act`` calls these in order, for chat, the TUI, ``ibachat ask`` and ``ibachat bench`` alike:

1. **A pending question first.** When the assistant's last reply asked something, the message either
   answers it (an offered option, "the first one", a short name for an open parameter, the tool asked
   about) and completes that action, or it is a message of its own: then the old action is dropped and
   the reply says so.
2. **Route** (``router.py``): text, a tool, or two tools to choose between. Two tools are settled by
   the memory when the user's own words favour one clearly ("a plane for getting between cities from
   now on"); otherwise the question is which.
3. **Plan and fill**: the alignment plan for that tool, with the user's answers, the values the request
   names, "the usual" the plan is sure of and what the user's past calls settle made certain; then the
   call, every value with its reason, and at most one question when a value that matters is unsettled.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ibachat.agent.alignment.plan_types import AlignmentPlan
    from ibachat.agent.execution.router import Route


@dataclass
class PendingAction:
    """An action waiting for the answer to the question the assistant asked about it."""

    task: str  # the request, as stored
    tool: dict[str, Any] | None  # the tool it routes to (None while the question is which tool)
    question: str
    param: str | None  # the parameter the question is about
    answers: dict[str, Any] = field(default_factory=dict)  # earlier answers, per parameter
    options: list[dict[str, Any]] = field(default_factory=list)  # the tools a "which tool" question offers

    @property
    def what(self) -> str:
        """The waiting action in a few words, for "I dropped ..."."""
        if self.tool is None:
            return "the " + " or ".join(_label(t) for t in self.options)
        return f"the {_label(self.tool)}"


def _label(tool: dict[str, Any]) -> str:
    from ibachat.agent.execution.router import _tool_label

    return _tool_label(tool)


@dataclass
class Reading:
    """What a message means for the pending action."""

    answers: dict[str, Any] | None = None  # the pending action's answers with this message's added
    tool: dict[str, Any] | None = None  # the tool a "which tool" question was answered with
    dropped: PendingAction | None = None  # the pending action this message replaced

    @property
    def answered(self) -> bool:
        return self.answers is not None or self.tool is not None


def pending_for(
    task: str, tool: dict[str, Any], question: str, answers: dict[str, Any], now: datetime | None = None
) -> PendingAction:
    from ibachat.agent.execution.clarify import question_param
    from ibachat.agent.reading.when import read_when

    props = (tool.get("parameters") or {}).get("properties") or {}
    param = question_param(question, list(props))
    if param is None and now is not None and question == read_when(task, now).question:
        param = _when_param(props, read_when(task, now).asks)  # "Do you mean 5 January or 1 May?"
    return PendingAction(task, tool, question, param, dict(answers))


def timed(name: str, prop: dict[str, Any]) -> str | None:
    """What a parameter holds of when: "date", "date-time", "clock" (HH:MM), or None."""
    if prop.get("type") != "string" or prop.get("enum"):
        return None
    if prop.get("format") in ("date", "date-time"):
        return str(prop["format"])
    return "clock" if "[0-5][0-9]" in prop.get("pattern", "") or re.search(r"(?:^|_)time$", name) else None


def _when_param(props: dict[str, Any], asks: str) -> str | None:
    """The parameter a question about the day (or about am or pm) is answered into."""
    kinds = {n: timed(n, p) for n, p in props.items() if isinstance(p, dict) and timed(n, p)}
    order = ("clock", "date-time", "date") if asks == "time" else ("date", "date-time", "clock")
    return next((n for kind in order for n, k in kinds.items() if k == kind), None)


def when_pins(
    props: dict[str, Any], task: str, answers: dict[str, Any], now: datetime
) -> dict[str, tuple[str, str]]:
    """The dates and times an answer to a question about when gives, per parameter, with the reason: the
    reply read with what the request settled ("1 May" for "5/1"; "morning" for "11:15 am or pm?").
    Nothing when the reply settles nothing: then the question stands."""
    from ibachat.agent.reading.when import default_time, read_answer_when, read_when

    kinds = {n: timed(n, p) for n, p in props.items() if isinstance(p, dict) and timed(n, p)}
    raw = next((answers[n] for n in kinds if isinstance(answers.get(n), str)), None)
    if raw is None:
        return {}
    said, when = read_when(task, now), read_answer_when(raw, task, now)
    if when.question is not None or when.day is None:
        return {}
    clock = when.time or default_time(when.part)
    answered_day = when.day != said.day
    answered_time = when.time is not None and when.time != said.time
    why = f"your answer: {raw}"
    out: dict[str, tuple[str, str]] = {}
    for name, kind in kinds.items():
        if kind == "date" and answered_day:
            out[name] = (when.day.isoformat(), why)
        elif kind == "clock" and answered_time and when.time is not None:
            out[name] = (when.time, why)
        elif kind == "date-time" and clock is not None and (answered_day or answered_time):
            offset = now.strftime("%z") or "+0000"
            value = f"{when.day.isoformat()}T{clock}:00{offset[:3]}:{offset[3:5]}"
            parts = [f'your request: "{said.day_words}"'] if not answered_day and said.day_words else []
            if not answered_time and said.time_words:
                parts.append(f'your request: "{said.time_words}"')
            out[name] = (value, "; ".join([*parts, why]))
    return out


def read_reply(pending: PendingAction | None, text: str) -> Reading:
    """Whether ``text`` answers the pending question (and with what), or replaces the pending action."""
    if pending is None:
        return Reading()
    if pending.tool is None:
        chosen = _which_tool(pending, text)
        return Reading(tool=chosen) if chosen is not None else Reading(dropped=pending)
    answers = answers_with(pending, text)
    return Reading(answers=answers) if answers is not None else Reading(dropped=pending)


def answers_with(pending: PendingAction, text: str) -> dict[str, Any] | None:
    """The pending action's answers with ``text`` read as the answer to its question, else None.

    A message that is itself a request, a question or a statement of its own is not an answer, however
    short ("Write a very long poem about autumn leaves" after "Which shop should I use?")."""
    from ibachat.agent.execution.clarify import options, read_answer
    from ibachat.agent.reading.acts import read_act

    if pending.param is None or pending.tool is None:
        return None
    prop = ((pending.tool.get("parameters") or {}).get("properties") or {}).get(pending.param) or {}
    value = read_answer(text, pending.question, prop)
    if value is None:
        return None
    if timed(pending.param, prop):  # a day or a time in the user's own words, or the option they chose
        value = value if value in options(pending.question) else " ".join(text.split()).strip(" .!")
        if not _says_when(value):
            return None  # "Which day ...?" is answered by a day or a time, not by a new message
    act = read_act(text)
    names_things = act.kind == "request" and all(_no_verb(r.verb) for r in act.requests)
    if (isinstance(value, list) or value in (prop.get("enum") or ())) and names_things:
        # "the congee please": things, for "What should I get?"; "oat please": an allowed value
        return {**pending.answers, pending.param: value}
    if act.kind in ("request", "question") and not _names_an_option(text, pending.question):
        return None  # a new request or a question back, not a name
    return {**pending.answers, pending.param: value}


def _no_verb(verb: str | None) -> bool:
    """A request read with no verb, or with a word no dictionary has as one ("khao tom and ...")."""
    from ibachat.agent.reading.acts import known_verb

    return verb is None or not known_verb(verb.split()[0])


def _says_when(text: str) -> bool:
    from ibachat.agent.reading.when import read_when

    return (
        bool(re.fullmatch(r"[ap]\.?m\.?", text.strip(), re.I))
        or read_when(text, datetime.now().astimezone()).said
    )


def _names_an_option(text: str, question: str) -> bool:
    from ibachat.agent.execution.clarify import options

    low = text.lower()
    return any(re.search(rf"(?<!\w){re.escape(o.lower())}(?!\w)", low) for o in options(question))


_ORDINALS = {
    "first": 0,
    "former": 0,
    "1": 0,
    "one": 0,
    "second": 1,
    "latter": 1,
    "2": 1,
    "two": 1,
    "last": -1,
}


def _which_tool(pending: PendingAction, text: str) -> dict[str, Any] | None:
    """The offered tool a reply picks: by its words ("the train", "flight please") or by position."""
    from ibachat.agent.execution.router import _name_words, _stem

    words = {_stem(w) for w in re.findall(r"[a-z]+", text.lower())}
    if len(words) > 8:
        return None
    hits = [
        t
        for t in pending.options
        if words & {_stem(w) for w in _name_words(t) if w not in _GENERIC_NAME_WORDS}
    ]
    if len(hits) == 1:
        return hits[0]
    m = re.search(r"\b(first|former|second|latter|last|1|2)\b", text.lower())
    if m and len(pending.options) >= 2:
        return pending.options[_ORDINALS[m.group(1)]]
    return None


_GENERIC_NAME_WORDS = frozenset({"book", "order", "create", "set", "get", "make", "send", "buy", "rent"})


def _as_type(value: Any, prop: dict[str, Any]) -> Any:
    """An answer in the parameter's shape: one dish named is a list of one for a list of dishes."""
    return [value] if prop.get("type") == "array" and isinstance(value, str) else value


def typed(value: str, prop: dict[str, Any]) -> Any:
    """A value read back from text (a ledger value, an offered option) in the parameter's own type."""
    for v in prop.get("enum") or []:
        if str(v).replace("_", " ").lower() == value.replace("_", " ").lower():
            return v
    if prop.get("type") in ("integer", "number"):
        try:
            return int(value) if prop.get("type") == "integer" else float(value)
        except ValueError:
            return value
    if prop.get("type") == "boolean":
        return value.lower() == "true"
    return value


def pin_certain_values(
    plan: AlignmentPlan,
    tool: dict[str, Any],
    task: str,
    answers: dict[str, Any],
    now: datetime,
    events: list[Any],
) -> None:
    """Make certain what the user has settled: answers, the names the request gives, "the usual" the plan
    is sure of, and what past calls of this tool agree on once those are fixed (``settled_by_past_calls``)."""
    from ibachat.agent.alignment.plan_types import ParamDirective
    from ibachat.agent.alignment.request_values import stated_values, tool_about
    from ibachat.agent.alignment.usual import free_text
    from ibachat.agent.execution.clarify import options, question_param, settled_by_past_calls
    from ibachat.agent.execution.slots import is_content

    props = (tool.get("parameters") or {}).get("properties") or {}
    names = list(props)
    stated = stated_values(tool.get("parameters") or {}, task, now, tool_about(tool))
    named = {
        n: s.value
        for n, s in stated.items()
        if isinstance(props.get(n), dict) and free_text(props[n]) and not is_content(n, props[n])
    }
    pins: dict[str, tuple[Any, str, str]] = {
        n: (
            _as_type(v, props.get(n) or {}),
            f"your answer: {', '.join(map(str, v)) if isinstance(v, list) else v}",
            "answer",
        )
        for n, v in answers.items()
        if not timed(n, props.get(n) or {})
    }
    for n, (value, why) in when_pins(props, task, answers, now).items():  # read as a day or a time
        pins[n] = (value, why, "answer")
    usual = {  # "the usual Sichuan place": the habit the plan is sure of fixes it too
        n: pd.chosen
        for n, pd in plan.params.items()
        if pd.certain and isinstance(pd.chosen, str) and free_text(props.get(n) or {})
    }
    for n, s in stated.items():  # an allowed value the request names ("the spin class", "a physio slot"),
        # a flag set by a thing it turns down ("skip the cutlery": a flag described "include cutlery")
        prop = props.get(n)
        # a flag the request sets by its own words ("pin it", "quiet room") or by a thing it turns down
        flag = isinstance(prop, dict) and prop.get("type") == "boolean" and isinstance(s.value, bool)
        # a list of allowed values ("sport, opera and music": each one the list allows), as the words give it
        listed = isinstance(prop, dict) and bool((prop.get("items") or {}).get("enum")) and bool(s.value)
        if listed:
            s = _kept_in(n, s, props, stated, plan)  # what the request turns down stays out of it
            listed = bool(s.value)
        if isinstance(prop, dict) and (prop.get("enum") or flag or listed) and n not in answers:
            pins.setdefault(n, (s.value, f'your request: "{s.quote}"', "request"))
    fixed = {**usual, **named, **answers}
    past = settled_by_past_calls(plan.clarifications, tool, fixed, events)
    about = " and ".join(f"{k.replace('_', ' ')} {v}" for k, v in fixed.items())
    for n, (value, count) in past.items():
        value = typed(value, props.get(n) or {})
        if n in plan.params and value in plan.params[n].avoid:
            continue  # turned down since: the past calls do not bring it back
        if n in plan.params and plan.params[n].question in plan.clarifications:
            continue  # the plan asks because what was said since bears on the past value
        pins[n] = (value, f"as in your {count} past call(s) with {about}", "habit")
    for question in plan.clarifications:  # a question offering a value turned down since is no question
        n = question_param(question, names)
        pd = plan.params.get(n or "")
        if n is None or pd is None or n in pins or not pd.avoid:
            continue
        left = [v for v in (typed(o, props.get(n) or {}) for o in options(question)) if v not in pd.avoid]
        if len(left) == 1:
            turned_down = "you turned down " + ", ".join(map(str, pd.avoid))
            pins[n] = (left[0], "; ".join(filter(None, [pd.reason, turned_down])), pd.source)
    for name, (value, reason, source) in pins.items():
        pd = plan.params.get(name) or ParamDirective(name, "string")
        pd.chosen, pd.certain, pd.source, pd.reason = value, True, source, reason
        pd.allowed = [value] if pd.kind == "enum" else pd.allowed
        pd.avoid = [v for v in pd.avoid if v != value]
        plan.params[name] = pd
    plan.clarifications = [q for q in plan.clarifications if question_param(q, names) not in pins]


def _fixed_values(
    plan: AlignmentPlan, tool: dict[str, Any], task: str, answers: dict[str, Any], now: datetime
) -> dict[str, Any]:
    """Free-text values the user has settled for this call: answers, and names the request gives."""
    from ibachat.agent.alignment.request_values import stated_values, tool_about
    from ibachat.agent.alignment.usual import free_text
    from ibachat.agent.execution.slots import is_content

    props = (tool.get("parameters") or {}).get("properties") or {}
    stated = stated_values(tool.get("parameters") or {}, task, now, tool_about(tool))
    named = {
        n: s.value
        for n, s in stated.items()
        if isinstance(props.get(n), dict) and free_text(props[n]) and not is_content(n, props[n])
    }
    certain = {n: pd.chosen for n, pd in plan.params.items() if pd.certain and isinstance(pd.chosen, str)}
    return {**certain, **named, **answers}


def settle_from_past_calls(
    plan: AlignmentPlan,
    tool: dict[str, Any],
    task: str,
    answers: dict[str, Any],
    now: datetime,
    events: list[Any],
    questions: list[str],
) -> bool:
    """Pin the missing values that every past call with the settled values agrees on ("Sichuan House":
    always the mapo tofu). Returns whether anything was pinned."""
    from ibachat.agent.alignment.plan_types import ParamDirective
    from ibachat.agent.execution.clarify import settled_by_past_calls

    fixed = _fixed_values(plan, tool, task, answers, now)
    past = settled_by_past_calls(questions, tool, fixed, events) if fixed else {}
    props = (tool.get("parameters") or {}).get("properties") or {}
    about = " and ".join(f"{k.replace('_', ' ')} {v}" for k, v in fixed.items())
    for name, (value, count) in past.items():
        prop = props.get(name) or {}
        pd = plan.params.get(name) or ParamDirective(name, "string")
        typed_value: Any = [value] if prop.get("type") == "array" else typed(value, prop)
        pd.chosen, pd.certain, pd.source = typed_value, True, "habit"
        pd.reason = f"as in your {count} past call(s) with {about}"
        pd.evidence = _call_turns(tool, name, value, events)
        plan.params[name] = pd
    return bool(past)


def _call_turns(tool: dict[str, Any], param: str, value: str, events: list[Any]) -> list[int]:
    dim = f"{tool.get('name')}.{param}"
    return sorted(
        {
            t
            for e in events
            if e.kind == "chose" and e.dimension == dim and str(e.value).lower() == value.lower()
            for t in e.evidence
        }
    )


def offer_past_values(
    question: str, tool: dict[str, Any], task: str, answers: dict[str, Any], now: datetime, events: list[Any]
) -> str:
    """A question about a value the user's past calls (with the values settled so far) gave differently
    becomes a choice between them: "For items, do you want mapo tofu or dan dan noodles?"."""
    from ibachat.agent.alignment.plan_types import AlignmentPlan
    from ibachat.agent.execution.clarify import options, question_param

    props = (tool.get("parameters") or {}).get("properties") or {}
    param = question_param(question, list(props))
    if param is None or options(question) or not re.match(r"^Which .+ should I (?:use|put in)\?$", question):
        return question  # only a plain "which X" question becomes a choice between past values
    fixed = _fixed_values(AlignmentPlan(task, now), tool, task, answers, now)
    name = str(tool.get("name", ""))
    calls: dict[int, dict[str, set[str]]] = {}
    for e in events:
        if e.kind == "chose" and e.polarity > 0 and e.dimension.startswith(name + "."):
            for t in e.evidence:
                calls.setdefault(t, {}).setdefault(e.dimension.split(".", 1)[1], set()).add(str(e.value))
    agreeing = [
        c
        for c in calls.values()
        if all(str(v).lower() in {x.lower() for x in c.get(p, set())} for p, v in fixed.items())
    ]
    values = list(dict.fromkeys(v for c in agreeing for v in sorted(c.get(param, set()))))
    if len(values) == 2:
        return f"For {param.replace('_', ' ')}, do you want {values[0]} or {values[1]}?"
    return question


# ---------------------------------------------------------------------------- which of two tools
_CONDITIONAL = re.compile(r"\b(?:if|unless|when|whenever|depending|provided|as long as)\b", re.I)
TOOL_PREFERENCE_MIN = 0.08  # how much more the user's words favour one tool (centred cosine, weighted)
PAST_CALLS_WEIGHT = 0.15  # the share of the user's past calls (of the tools in question) that went to a tool


def settle_tools(
    route: Route, plan: AlignmentPlan, embed: Any, events: Sequence[Any] = ()
) -> tuple[dict[str, Any] | None, str]:
    """Between the route's tools, the one the user's own words in force favour clearly, or the one the
    user's past calls went to (``events``: the ledger, its ``chose`` events), with why."""
    from ibachat.agent.alignment.grounding import unit
    from ibachat.agent.execution.router import tool_text

    wishes = [
        p
        for p in plan.preferences
        if p.status == "active"
        and p.speaker == "user"
        and p.dimension == "open"
        and not _CONDITIONAL.search(p.subject or "")  # "if the train takes under four hours": it depends
    ]
    k = len(route.options)
    names = [str(t.get("name")) for t in route.options]
    done = [*plan.preferences, *(e for e in events if e.kind == "chose" and e.speaker in ("user", "tool"))]
    calls = [
        {t for p in done if p.kind == "chose" and p.dimension.split(".")[0] == n for t in p.evidence}
        for n in names
    ]  # the remembered turns where the user had each tool run
    if k < 2 or (embed is None or not wishes) and not any(calls):
        return None, ""
    score = [0.0] * k
    why: list[str] = [""] * k
    total = sum(len(c) for c in calls)
    for j in range(k):  # what the user had done for requests like this one
        if total:
            score[j] += PAST_CALLS_WEIGHT * len(calls[j]) / total
            if calls[j]:
                why[j] = f"you had {names[j]} run {len(calls[j])} time(s) before"
    if embed is None or not wishes:
        wishes = []
    texts = [tool_text(t) for t in route.options] + [w.value for w in wishes]
    mat = unit(embed(texts)) if wishes else None
    sims = (mat[k:] @ mat[:k].T) if mat is not None else []  # wish x tool
    sims = sims - sims.mean(axis=1, keepdims=True) if mat is not None else []
    for w, row in zip(wishes, sims):
        for j in range(k):
            contribution = float(row[j]) * w.polarity * max(w.confidence, 0.3)
            score[j] += contribution
            if contribution > 0.05 and (not why[j] or why[j].startswith("you had")):
                why[j] = f"{'you prefer' if w.polarity > 0 else 'you avoid'} {w.value!r}"
    order = sorted(range(k), key=lambda j: -score[j])
    if score[order[0]] - score[order[1]] < TOOL_PREFERENCE_MIN:
        return None, ""
    return route.options[order[0]], why[order[0]] or "from your history"


def _kept_in(
    name: str, stated: Any, props: dict[str, Any], all_stated: dict[str, Any], plan: AlignmentPlan
) -> Any:
    """A list of allowed values as the request names them, less those the request turns down: the plan's
    avoided values for it and the values of a list for what to leave out ("world + business news, skip
    anything local": local is left out, not asked for)."""
    from dataclasses import replace

    from ibachat.agent.alignment.request_values import excludes

    out: set[Any] = set(plan.params[name].avoid) if name in plan.params else set()
    for other in props:
        if other == name or not excludes(other):
            continue
        said, planned = all_stated.get(other), plan.params.get(other)
        for value in (said.value if said else None, planned.chosen if planned else None):
            if isinstance(value, list):
                out |= set(value)
    pairs = (
        list(zip(stated.value, stated.quote.split("; ")))
        if len(stated.quote.split("; ")) == len(stated.value)
        else None
    )
    kept = [v for v in stated.value if v not in out]
    if kept == list(stated.value):
        return stated
    quote = "; ".join(q for v, q in pairs if v not in out) if pairs else stated.quote
    return replace(stated, value=kept, quote=quote)
