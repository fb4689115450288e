"""Longitudinal, noisy histories: sessions over months where preferences show mostly as behaviour.

For every preference a group of tasks needs, the builder plans how the history reveals it (past
tool calls, feedback on drafts, casual mentions, a few statements) and what complicates it (an
update that supersedes an old value, a correction, a rejection, a one-off exception, short-term
states). Each cue is recorded with its session and turn so that checks can cite their evidence.
"""

from __future__ import annotations

import json
import random
from datetime import datetime, timedelta
from typing import Any

from bench.generator import phrasing as ph
from bench.generator.catalog import get_dim
from bench.generator.dims import Dim
from bench.generator.episodes import (
    Cue,
    History,
    Plan,
    Session,
    StateSpan,
    enum_param,
    renderable,
    source_scenarios,
    tool_at,
)
from bench.generator.noise import noise_pair
from bench.generator.personas import Persona
from bench.generator.scenarios import BY_NAME, Ctx, Scenario
from bench.generator.states import announce
from bench.generator.world import FRIENDS, GUESTS, RELATIONS
from ibachat.agent.execution.tools import execute

FEEDBACK = {
    "write.length",
    "read.length",
    "read.format",
    "read.tldr",
    "work.actions",
    "write.signoff",
    "write.avoid",
    "write.emoji",
    "write.hashtags",
    "units",
}
NO_STATEMENT = {"home.city"}
EXCEPTION_SOURCES = {
    "food_delivery",
    "grocery_order",
    "coffee_order",
    "online_purchase",
    "household_restock",
    "restaurant_booking",
    "movie_tickets",
    "show_tickets",
    "ride_booking",
    "airport_transfer",
    "hotel_booking",
    "flight_booking",
    "train_booking",
    "car_rental",
}
NO_UPDATE = {
    "home.city",
    "access.mobility",
    "food.allergy",
    "family.kids",
    "group.size",
    "write.avoid",
    "film.avoid",
    "news.avoid",
}
WRITE_REQS = (
    "Draft a quick email to {friend} about the weekend.",
    "Write a note to my landlord about the boiler.",
    "Can you write a message to {friend} about dinner plans?",
    "Draft a reply to the school about the trip form.",
)
READ_REQS = (
    "Summarise this article on {subject} for me.",
    "Give me an overview of {subject}.",
    "Explain {subject} for me.",
    "What's the gist of this report on {subject}?",
)
SUBJECTS = (
    "heat pumps",
    "the housing market",
    "sleep science",
    "electric cars",
    "remote work",
    "microplastics",
)
DRAFT = ("Here's a first version: {s}", "Draft below. {s}", "How about this: {s}", "Here you go. {s}")
SAMPLES = (
    "'Hi! Just a quick note about the plan for Saturday, let me know what works.'",
    "'The article argues costs will fall as installers scale up, though grants matter.'",
    "'Thanks for getting back to me. I wanted to follow up on the points below.'",
)
REVISED = (
    "Done, here's the revised version.",
    "Updated.",
    "Sure, changed it.",
    "Fixed. Better?",
    "Here's the new version.",
)


class Builder:
    def __init__(
        self,
        rng: random.Random,
        persona: Persona,
        hid: str,
        start: datetime,
        end: datetime,
        states: list[StateSpan],
    ):
        self.rng, self.persona, self.hid = rng, persona, hid
        self.start, self.end, self.states = start, end, states
        self.sessions: list[Session] = []
        self.cues: list[Cue] = []
        self.plans: dict[str, Plan] = {}
        self.noise = 0  # turns of small talk and errands

    # ---------------------------------------------------------------- time and values
    def at(self, lo: float, hi: float) -> datetime:
        span = (self.end - self.start).total_seconds()
        t = self.start + timedelta(seconds=span * self.rng.uniform(lo, hi))
        return t.replace(
            hour=self.rng.randint(7, 22), minute=self.rng.randint(0, 59), second=0, microsecond=0
        )

    def value(self, dim: str, t: datetime) -> Any:
        for span in self.states:
            if span.start <= t < span.end and dim in span.state.overrides:
                return span.state.overrides[dim][0]
        plan = self.plans.get(dim)
        if plan is not None and plan.update_at is not None and t < plan.update_at:
            return plan.old
        return self.persona.prefs[dim]

    def stale(self, dim: str, t: datetime, value: Any) -> bool:
        in_state = any(s.start <= t < s.end and dim in s.state.overrides for s in self.states)
        return in_state or value != self.persona.prefs[dim]

    def cue(self, dim: str, kind: str, value: Any, form: str, session: Session, turn: int) -> None:
        stale = kind in ("behaviour", "statement", "correction") and self.stale(dim, session.time, value)
        self.cues.append(Cue(dim, kind, value, session.time, form, session, turn, stale))

    def phrase(self, d: Dim, value: Any) -> str:
        return self.rng.choice(d.phrases[value])

    # ---------------------------------------------------------------- planning
    def plan(self, needed: dict[str, set[str]], task_scenarios: set[str]) -> None:
        rng, persona = self.rng, self.persona
        blocked = {d: {v for s in self.states for v in s.state.overrides.get(d, ())} for d in needed}
        for key in sorted(needed):
            d, v = get_dim(key), persona.prefs[key]
            sources = source_scenarios(persona, d, v)
            has_asks = v in d.asks or "*" in d.asks
            if sources and (not has_asks or rng.random() < 0.6):
                weights = [3.0 if s in task_scenarios else 1.0 for s in sources]
                source = rng.choices(sources, weights=weights)[0]
            else:
                source = "asks" if has_asks else "statement"
            plan = Plan(
                key,
                v,
                source,
                statement=source == "statement" or (key not in NO_STATEMENT and rng.random() < 0.2),
            )
            scen = BY_NAME.get(source)
            shown = [x for x in d.values if renderable(persona, d, source, x)]
            if key not in NO_UPDATE and rng.random() < 0.2:
                olds = [x for x in shown if x != v]
                if olds:
                    plan.old = rng.choice(olds)
                    plan.update_at = self.at(0.45, 0.8)
            if scen is not None and key != "travel.mode" and enum_param(d, scen, persona):
                others = [x for x in shown if x not in (v, plan.old) and x not in blocked[key]]
                if others and d.rejectable and rng.random() < 0.2:
                    plan.rejected = rng.choice(others)
                if others and rng.random() < 0.15:
                    plan.wrong = rng.choice(others)
                one_off = plan.old is None and source in EXCEPTION_SOURCES and d.rejectable
                if others and one_off and rng.random() < 0.15:
                    plan.exception = rng.choice(others)
            self.plans[key] = plan

    # ---------------------------------------------------------------- rendering
    def build(self) -> None:
        rng = self.rng
        by_source: dict[str, list[Plan]] = {}
        for plan in self.plans.values():
            by_source.setdefault(plan.source, []).append(plan)
        for name in sorted(k for k in by_source if k in BY_NAME):
            self._tool_source(BY_NAME[name], by_source[name])
        for plan in by_source.get("asks", []):
            self._asks(plan)
        for plan in self.plans.values():
            if plan.statement:
                t = (
                    self.at(0.0, 1.0)
                    if plan.update_at is None
                    else plan.update_at + (self.end - plan.update_at) * rng.uniform(0.1, 0.9)
                )
                slots = {
                    "p": self.phrase(get_dim(plan.dim), plan.value),
                    "t": rng.choice(get_dim(plan.dim).topics),
                }
                kind = (
                    "statement"
                    if get_dim(plan.dim).stance == "like"
                    else f"statement_{get_dim(plan.dim).stance}"
                )
                text, form = ph.render(kind, rng, slots)
                self._single(t, plan.dim, "statement", plan.value, text, form)
            if plan.update_at is not None:
                d = get_dim(plan.dim)
                slots = {
                    "p": self.phrase(d, plan.value),
                    "o": self.phrase(d, plan.old),
                    "t": rng.choice(d.topics),
                }
                self._single(plan.update_at, plan.dim, "update", plan.value, *ph.render("update", rng, slots))
        for span in self.states:
            text, form = announce(rng, span.state, span.said, span.start, span.end)
            session = self._noise_session(span.said, rng.randint(0, 2))
            at = rng.randint(0, len(session.turns) // 2) * 2
            session.turns[at:at] = [
                {"role": "user", "text": text},
                {"role": "assistant", "text": rng.choice(span.state.acks)},
            ]
            for key in sorted(span.state.overrides):
                self.cues.append(Cue(key, "state", span.state.overrides[key], span.said, form, session, at))
        for _ in range(rng.randint(2, 4)):
            self._distractor()

    def _tool_source(self, scen: Scenario, plans: list[Plan]) -> None:
        rng = self.rng
        times = [self.at(0.0, 0.97) for _ in range(2 + (rng.random() < 0.25))]
        for plan in plans:
            if plan.update_at is not None:
                times.append(self.at(0.0, 0.0) + (plan.update_at - self.start) * rng.uniform(0.1, 0.9))
                times.append(plan.update_at + (self.end - plan.update_at) * rng.uniform(0.1, 0.9))
        for span in self.states:
            if not span.current and any(k in span.state.overrides for k in scen.dims):
                times.append(span.start + (span.end - span.start) * rng.uniform(0.1, 0.8))
        times.sort()
        extras: dict[int, list[tuple[str, Plan]]] = {}
        for plan in plans:
            current = [i for i, t in enumerate(times) if self.value(plan.dim, t) == plan.value]
            if not current:
                continue
            taken = {i for i, marks in extras.items() if any(k == "exception" for k, _ in marks)}
            free = [i for i in current[1:] if i not in taken]  # never the only call showing the value
            if plan.exception is not None and free:
                half = self.start + (self.end - self.start) * 0.5
                late = [i for i in free if times[i] >= half] or free
                extras.setdefault(late[-1], []).append(("exception", plan))
                current.remove(late[-1])
            for kind in ("rejected", "wrong"):
                if getattr(plan, kind) is not None:
                    extras.setdefault(rng.choice(current), []).append((kind, plan))
        for i, t in enumerate(times):
            self._tool_episode(scen, t, extras.get(i, []), plans)

    def _tool_episode(
        self, scen: Scenario, t: datetime, extras: list[tuple[str, Plan]], plans: list[Plan]
    ) -> None:
        rng, persona = self.rng, self.persona
        tool = tool_at(scen, self.value("travel.mode", t))
        slots = scen.slots(Ctx(rng, persona, t))
        args = dict(slots["args"])
        exceptions = {p.dim: p.exception for k, p in extras if k == "exception"}
        shown: dict[str, Any] = {}
        for key in scen.dims:
            d = get_dim(key)
            bind = d.binding(tool)
            if bind is None:
                continue
            val = exceptions.get(key, self.value(key, t))
            arg = bind.arg.get(val)
            if arg is None:
                continue
            shown[key] = val
            if isinstance(arg, list):
                args[bind.param] = sorted(set(args.get(bind.param, [])) | set(arg))
            else:
                args[bind.param] = arg
        if "travel.mode" in scen.dims:
            shown["travel.mode"] = self.value("travel.mode", t)
        session = self._session(t)
        oi, ei, pi = (
            rng.randrange(len(ph.OPENERS)),
            rng.randrange(len(ph.CLOSERS)),
            rng.randrange(len(scen.prompts)),
        )
        request = ph.after_opener(ph.OPENERS[oi], scen.prompts[pi].format(**slots["text"]))
        form_b = f"behaviour:{scen.name}:p{pi}:o{oi}:e{ei}"
        needed = [k for k in sorted(shown) if k in self.plans]
        inline = None
        speakable = [k for k in needed if k not in exceptions and get_dim(k).stance == "like"]
        if speakable and rng.random() < 0.3:
            inline = rng.choice(speakable)
            text, form = ph.render(
                "inline", rng, {"p": self.phrase(get_dim(inline), shown[inline])}, framed=False
            )
            request = f"{request} {text}"
        for key, xval in exceptions.items():
            text, form_x = ph.render(
                "exception",
                rng,
                {"x": self.phrase(get_dim(key), xval), "guest": rng.choice(GUESTS)},
                framed=False,
            )
            request = f"{request} {text}"
            self.cue(key, "exception", xval, form_x, session, len(session.turns))
        request += ph.CLOSERS[ei]
        if inline is not None:
            self.cue(inline, "behaviour", shown[inline], f"inline:{form}", session, len(session.turns))
        session.turns.append({"role": "user", "text": request})
        for kind, plan in extras:
            if kind == "exception":
                continue
            d = get_dim(plan.dim)
            bad = plan.rejected if kind == "rejected" else plan.wrong
            slots_w = {"w": self.phrase(d, bad), "p": self.phrase(d, plan.value), "t": rng.choice(d.topics)}
            session.turns.append(
                {
                    "role": "assistant",
                    "text": ph.render(
                        "suggest" if kind == "rejected" else "propose", rng, slots_w, framed=False
                    )[0],
                }
            )
            text, form = ph.render("rejection" if kind == "rejected" else "correction", rng, slots_w)
            if kind == "rejected":
                self.cue(plan.dim, "rejection", bad, form, session, len(session.turns))
            else:
                self.cue(plan.dim, "correction", plan.value, form, session, len(session.turns))
            session.turns.append({"role": "user", "text": text})
        result = execute(tool, args)
        body = json.dumps(args, ensure_ascii=False, separators=(", ", ": "))
        for key in needed:
            if key not in exceptions:
                self.cue(key, "behaviour", shown[key], form_b, session, len(session.turns))
        session.turns.append(
            {
                "role": "tool",
                "text": f"{tool} {body} -> {result['status']} {result['confirmation']}",
                "tool_call": {"name": tool, "arguments": args},
            }
        )
        session.turns.append(
            {"role": "assistant", "text": rng.choice(ph.CONFIRMS).format(ref=result["confirmation"])}
        )
        self._pad(session)

    def _asks(self, plan: Plan) -> None:
        rng, d = self.rng, get_dim(plan.dim)
        times = [self.at(0.0, 0.97) for _ in range(2 + (rng.random() < 0.2))]
        if plan.update_at is not None:
            times = [self.start + (plan.update_at - self.start) * rng.uniform(0.05, 0.95)] + [
                plan.update_at + (self.end - plan.update_at) * rng.uniform(0.1, 0.95) for _ in range(2)
            ]
        for t in sorted(times):
            val = self.value(plan.dim, t)
            lines = d.asks.get(val) or d.asks["*"]
            li = rng.randrange(len(lines))
            slots = {
                "p": self.phrase(d, val),
                "n": str(rng.randint(3, 15)),
                "city": rng.choice(("Leeds", "Ghent", "Turin", "Bern")),
            }
            text, form = ph.render_template(lines[li], rng, slots, "behaviour", f"{plan.dim}.{li}")
            if plan.dim in FEEDBACK:
                session = self._session(t)
                req = rng.choice(
                    READ_REQS
                    if plan.dim.startswith("read") or plan.dim in ("units", "work.actions")
                    else WRITE_REQS
                )
                session.turns.append(
                    {
                        "role": "user",
                        "text": req.format(friend=rng.choice(FRIENDS), subject=rng.choice(SUBJECTS)),
                    }
                )
                session.turns.append(
                    {"role": "assistant", "text": rng.choice(DRAFT).format(s=rng.choice(SAMPLES))}
                )
                self.cue(plan.dim, "behaviour", val, form, session, len(session.turns))
                session.turns.append({"role": "user", "text": text})
                session.turns.append({"role": "assistant", "text": rng.choice(REVISED)})
                self._pad(session)
            else:
                self._single(t, plan.dim, "behaviour", val, text, form)

    def _single(self, t: datetime, dim: str, kind: str, value: Any, text: str, form: str) -> None:
        session = self._noise_session(t, self.rng.randint(1, 3))
        at = self.rng.randint(0, len(session.turns) // 2) * 2
        session.turns[at:at] = [
            {"role": "user", "text": text},
            {"role": "assistant", "text": self.rng.choice(ph.ACKS)},
        ]
        self.cue(dim, kind, value, form, session, at)

    def _distractor(self) -> None:
        keys = sorted(self.plans)
        if not keys:
            return
        d = get_dim(self.rng.choice(keys))
        others = [v for v in d.values if v != self.persona.prefs[d.key]]
        if not others:
            return
        text, form = ph.distractor(
            self.rng,
            self.rng.choice(RELATIONS),
            self.phrase(d, self.rng.choice(others)),
            self.rng.choice(d.topics),
        )
        session = self._noise_session(self.at(0.0, 1.0), self.rng.randint(0, 2))
        session.turns[0:0] = [
            {"role": "user", "text": text},
            {"role": "assistant", "text": self.rng.choice(ph.ACKS)},
        ]
        self.cues.append(Cue(d.key, "distractor", None, session.time, form, session, 0))

    # ---------------------------------------------------------------- sessions and noise
    def _session(self, t: datetime) -> Session:
        session = Session(min(t, self.end).replace(second=0, microsecond=0))
        if self.rng.random() < 0.5:
            for _ in range(self.rng.randint(1, 2)):
                session.turns.extend(self._pair(session.time))
        self.sessions.append(session)
        return session

    def _pad(self, session: Session) -> None:
        if self.rng.random() < 0.4:
            session.turns.extend(self._pair(session.time))

    def _noise_session(self, t: datetime, pairs: int) -> Session:
        session = Session(min(t, self.end).replace(second=0, microsecond=0))
        for _ in range(pairs):
            session.turns.extend(self._pair(session.time))
        self.sessions.append(session)
        return session

    def _pair(self, when: datetime) -> list[dict[str, Any]]:
        self.noise += 2
        user, reply = noise_pair(self.rng, when)
        return [{"role": "user", "text": user}, {"role": "assistant", "text": reply}]

    def fill(self, ratio: float, low: int = 80, high: int = 400) -> None:
        """Add noise sessions until all turns are about ``ratio`` times the signal (within [low, high])."""
        total = sum(len(s.turns) for s in self.sessions)
        target = min(high, max(low, int((total - self.noise) * ratio)))
        while total < target - 1:
            pairs = min(self.rng.randint(1, 4), (target - total) // 2 or 1)
            self._noise_session(self.at(0.0, 1.0), pairs)
            total += 2 * pairs

    def finish(self) -> History:
        self.sessions.sort(key=lambda s: s.time)
        for i, s in enumerate(self.sessions):
            s.sid = f"{self.hid}-s{i:03d}"
        return History(self.hid, self.sessions, self.cues, self.plans, self.states, self.end)


def build_history(
    rng: random.Random,
    persona: Persona,
    hid: str,
    needed: dict[str, set[str]],
    task_scenarios: set[str],
    start: datetime,
    end: datetime,
    states: list[StateSpan],
) -> History:
    builder = Builder(rng, persona, hid, start, end, states)
    builder.plan(needed, task_scenarios)
    builder.build()
    builder.fill(rng.uniform(2.0, 2.4))
    return builder.finish()
