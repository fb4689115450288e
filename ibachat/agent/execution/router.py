"""Does a message ask for an action, and with which tool? Otherwise it gets a text answer.

Precision before recall: a wrong action is worse than none. A tool is proposed only when

1. the message asks for something to be done (its form, read from the parse: ``reading/acts.py``), and
2. a tool's own name and description fit that request clearly: its act (the request's verb is the
   tool's verb, a synonym of it by meaning, a light verb such as "get" or "sort out", or names the
   tool's object: "remind" and a reminder), and its object, by the meaning of the asking clause against
   the tool's name and description (the memory's embedder), well above every other tool.

For the product's own tools the meaning is also read against an everyday gloss of what each is for
(``data/tool_glosses.json``): per tool, the nearer of its own text and its text with the gloss counts, so a
gloss can bring a request nearer ("somewhere to sleep" and a hotel room), never push one away.

When two tools fit about equally ("get me to Paris": a flight or a train), the route is a question
between them, which the planner may settle from memory before asking. Without an embedder, only a
tool whose name holds the request's verb or object word is proposed.

Every threshold is a cosine of all-MiniLM-L6-v2 (the offline default) unless said otherwise, set on the
routing set's development split (``tests/data/routing``) and written with what it separates.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import datetime, timezone
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from ibachat.agent.meaning import VECTORS, route_text, tool_text
from ibachat.agent.meaning import catalogue as _catalogue
from ibachat.agent.meaning import name_words as _name_words
from ibachat.agent.reading.acts import Request, read_act
from ibachat.agent.reading.schema_map import gives_a_reply

Embed = Callable[[list[str]], Any]

# Thresholds (all-MiniLM-L6-v2 cosines, or cosine plus the word bonuses below), set on the routing
# set's development split (``tests/data/routing``); each says what it separates.
# The whole message against a tool's "name: description": unrelated tools score 0.0-0.3, the tool
# that does what was asked 0.3-0.7; with no word of the tool's own in the request, it must reach this.
COS_ONLY_MIN = 0.40
# With the tool's own words in the request (its object named, or its act), this is enough.
FIT_MIN = 0.25
# A verbless fragment ("table for one at 8 tonight") must name the tool's object and fit this well.
FRAGMENT_FIT_MIN = 0.40
# The best tool must lead the next one by this much; closer, and the two are a question.
MARGIN = 0.06
# Word evidence, added to the cosine: the request's object (its head noun) is a word of the tool's name,
# or of its description; the request's own verb (not a light one) is the tool's act; another noun of the
# request is a word of the tool's name or description (at most two count).
HEAD_IN_NAME = 0.25
HEAD_IN_DESCRIPTION = 0.12
VERB_IS_ACT = 0.2
NOUN_IN_TOOL = 0.06
# A verb of no class that means the tool's object ("fly" and a flight): cosine of verb and name word.
VERB_NAMES_OBJECT = 0.6
# A verb of a class the tool's acts are not in that means one of its acts ("pause" and "freeze" 0.51,
# "suspend" 0.57; "pause" and "book" or "order" 0.22, "play" and "book" 0.33, "stop" and "freeze" 0.41).
VERB_MEANS_ACT = 0.5
# The request names values of the tool's parameters ("oat milk", "red-eye", "balcony"): per parameter,
# weighted by how few tools have that value (a value every tool has says nothing), at most three count.
VALUE_NAMED = 0.08
# A caller that offers only a few tools for a message (a task with its own tools, not chat's whole
# catalogue) says the message is about them. Then the best offered tool of low absolute fit is still
# proposed, after a light verb, a want or its own act, when its cosine is at least CATALOGUE_COS_MIN and
# CATALOGUE_MARGIN above the catalogue's median tool for the same request (the small embedder knows little
# of dishes, products and shops: "get me the fattoush from Cedar Grill" is 0.24 from order_food).
NARROW_OFFER = 3
CATALOGUE_MARGIN = 0.05
CATALOGUE_COS_MIN = 0.1
# "from <a name>" and a tool with a parameter for the place that serves (a restaurant, a shop): a tool
# without one cannot take that part of the request.
VENUE_SLOT = 0.15
# "for <a name>" on the thing asked for ("2 seats for Hamlet") and a tool with a free-text title parameter:
# as much as a venue, so "seats for Hamlet at the Globe" weighs a theatre's show against a restaurant.
TITLE_SLOT = 0.15
# "to <a place>" and a tool with a free-text destination parameter.
PLACE_SLOT = 0.1
MAX_VALUES = 3.0
# "from <a place>" as well as "to <a place>", and a tool with a parameter for each end: a journey (with
# PLACE_SLOT, as much as the thing named in the tool's name: "one seat from Mumbai to Delhi" is no table).
JOURNEY = 0.15
# a thing got "from <a name>" with no verb ("three samosas from Raj Mahal") and a tool that brings its
# thing from a place that serves, with a parameter for it: the source is said as a journey's two ends are
SOURCED = 0.15
# A verbless fragment that states this many of a tool's values other than when ("two at Sakura, bar seats":
# a party size and a seating; "2 returns manchester to york": two ends) is a request for that tool even
# with a quality the tool has no value for, at the plain FIT_MIN: a comment on a thing ("awful train this
# morning") states none. Set on the routing sets' fragments: of those labelled text, none states two.
SPEC_VALUES = 2
# "from the drugstore" and a tool whose description gets its thing "from a pharmacy": the place by meaning
# (drugstore/pharmacy 0.68, coffee shop/cafe 0.68; a supermarket is 0.47-0.50 from a pharmacy, a
# restaurant and a cafe alike, the doctor 0.51 from a pharmacy), and ahead of every other tool's source.
SOURCE_MIN = 0.5
SOURCE_LEAD = 0.15
# "with <a person>" and a tool with a parameter that names people ("attendees"): someone to be there.
COMPANY_SLOT = 0.1


def _background(tools: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The tools a value's specificity is judged against: the offered ones and the product's own."""
    names = {t.get("name") for t in tools}
    return list(tools) + [t for t in _catalogue() if t.get("name") not in names]


@dataclass
class Route:
    """The router's decision for one message."""

    kind: str  # "text" | "tool" | "ask"
    tool: dict[str, Any] | None = None
    options: list[dict[str, Any]] = field(default_factory=list)  # the tools a question chooses between
    request: Request | None = None
    why: str = ""
    scores: dict[str, float] = field(default_factory=dict)

    @property
    def question(self) -> str | None:
        if self.kind != "ask" or len(self.options) < 2:
            return None
        names = [_tool_label(t) for t in self.options]
        return f"Should I {' or '.join(names)}?"


def _tool_label(tool: dict[str, Any]) -> str:
    return " ".join(_name_words(tool)) or str(tool.get("name", "that"))


def _stem(word: str) -> str:
    from memory.lexical import _stem as snowball

    return snowball(word.lower())


_ACTS_CACHE: dict[str, frozenset[str]] = {}
TOOL_WORDS = "tool_words.json"  # the parse's reading of the product's own tools, shipped beside this module


@lru_cache(maxsize=1)
def _shipped() -> dict[str, dict[str, list[str]]]:
    """What ``tool_acts`` and ``_words`` read of each of the catalogue's tools, as written by
    ``write_tool_words`` with the installed parser (a first request parsed the 21 descriptions three
    times over: about half a second). Another parser's table, or a tool not in it, is read live."""
    from importlib import resources

    data = json.loads(resources.files(__package__).joinpath(TOOL_WORDS).read_text("utf-8"))
    if data.get("parser") != _parser_version():
        return {}
    tools = data.get("tools")
    return tools if isinstance(tools, dict) else {}


def _parser_version() -> str:
    from importlib import metadata

    from ibachat.agent.reading.parse import PIPELINE_PACKAGE

    return f"{PIPELINE_PACKAGE} {metadata.version(PIPELINE_PACKAGE.replace('_', '-'))}"


def tool_acts(tool: dict[str, Any]) -> frozenset[str]:
    """The verbs a tool performs: its name's first word when that is a verb, and the description's verbs."""
    key = tool_text(tool)
    hit = _ACTS_CACHE.get(key)
    if hit is not None:
        return hit
    shipped = _shipped().get(key)
    if shipped is not None:
        out = _ACTS_CACHE[key] = frozenset(shipped["acts"])
        return out
    return _live_acts(tool)


def _live_acts(tool: dict[str, Any]) -> frozenset[str]:
    key = tool_text(tool)
    from ibachat.agent.reading.parse import imperative_parse, parse

    acts: set[str] = set()
    words = _name_words(tool)
    if words:
        first = imperative_parse(" ".join(words))
        if len(first) > 1 and first[1].tag_ in ("VB", "VBP"):
            acts.add(first[1].lemma_.lower())
    desc = str(tool.get("description", ""))
    if desc:
        doc = parse(desc)
        # a word in a list of nouns is one of them, however it was tagged ("a meeting, call or block
        # of time": a call is a kind of event, not the tool's act of calling someone)
        acts |= {
            t.lemma_.lower()
            for t in doc
            if t.tag_ in ("VB", "VBP")
            and t.is_alpha
            and not (
                t.dep_ in ("conj", "appos")
                and t.head.pos_ in ("NOUN", "PROPN")
                and not any(c.dep_ == "dobj" for c in t.children)  # "draft or schedule an email"
            )
        }
        head = imperative_parse(desc.split(".")[0])
        if len(head) > 1 and head[1].tag_ in ("VB", "NN", "NNP") and head[1].dep_ == "ROOT":
            acts.add(head[1].lemma_.lower())
    out = frozenset(acts)
    _ACTS_CACHE[key] = out
    return out


def route(message: str, tools: list[dict[str, Any]], embed: Embed | None = None) -> Route:
    """The tool an action request calls for; a question between two; or text.

    A tool whose act is to give the user a reply (its description: "Give the user one of these replies")
    is the text answer itself: a message no other offered tool fits goes to it."""
    act = read_act(message)
    if not tools:
        return Route("text", why="no tool on offer")
    replying = [t for t in tools if gives_a_reply(t)]
    acting = [t for t in tools if not gives_a_reply(t)]
    found = _route(message, act, acting, embed) if acting else Route("text", why="no action tool on offer")
    if found.kind == "text" and replying:
        return Route("tool", replying[0], why="the answer is one of the replies this tool gives")
    return found


def _route(message: str, act: Any, tools: list[dict[str, Any]], embed: Embed | None) -> Route:
    if not act.asks:
        return Route("text", why=f"not a request ({act.kind})")
    best: Route | None = None
    for i, request in enumerate(act.requests):
        found = _fit(request, tools, embed, message)
        if found.kind == "ask":
            # "I need to be in Toronto on the 21st. Fly me out of Vancouver ...": a later clause that
            # names one of the options settles the question
            for later in act.requests[i + 1 :]:
                settled = _fit(later, tools, embed, message)
                if settled.kind == "tool" and any(settled.tool is o for o in found.options):
                    return settled
        if found.kind != "text":
            return found
        best = best or found
    return best or Route("text", why="no tool fits")


@lru_cache(maxsize=1)
def _said_things() -> frozenset[str]:
    """Nouns of things made of words or thought ("ideas", "tips"): ``data/said_things.json``."""
    from ibachat.agent.data import load

    return frozenset(load("said_things")["words"])


def _classes() -> dict[str, frozenset[str]]:
    from ibachat.agent.data import word_classes

    return word_classes("act_verbs")


# the restricted classes whose verbs may mean a tool's act in other words ("pause" a membership it
# freezes); a verb of undoing or refraining is near its opposite in meaning ("unsubscribe", "subscribe")
_BY_MEANING = ("device", "modify")
RESTRICTED = ("speech", "undo", "modify", "pay", "consult", "device", "refrain")


def _records(verb: str) -> bool:
    """A verb of putting words down to keep ("write down", "jot down", "note down"): a verb of putting
    somewhere (the data's "place" class) whose particle is "down"."""
    return verb.endswith(" down") and verb in _classes().get("place", ())


def _verb_class(verb: str) -> str | None:
    classes = _classes()
    for name in ("light", "writing", "reply", *RESTRICTED):
        if verb in classes.get(name, ()):
            return name
    head = verb.split()[0]
    if head != verb:
        return _verb_class(head) if _verb_class(head) in RESTRICTED else None
    return None


def _words(tool: dict[str, Any]) -> tuple[set[str], set[str]]:
    """Stems of a tool's name words, and of its description's nouns and verbs."""
    key = tool_text(tool)
    hit = _WORDS_CACHE.get(key)
    if hit is None:
        name = {_stem(w) for w in _name_words(tool) if len(w) > 2}
        shipped = _shipped().get(key)
        desc = set(shipped["desc"]) if shipped is not None else _live_desc(tool)
        hit = _WORDS_CACHE[key] = (name, desc - name)
    return hit


@lru_cache(maxsize=1024)
def _things_named(name: str, description: str) -> frozenset[str]:
    """Stems of a tool name's words without its leading verb ("book_train": train): "a book to read" names
    no train. The first word is the verb when the parse reads it as one in "please book the train" and
    the description never uses it otherwise ("laundry_pickup", "Schedule a laundry pickup": laundry)."""
    from ibachat.agent.reading.parse import imperative_parse

    words = [w for w in name.split() if len(w) > 2]
    if len(words) < 2:
        return frozenset(_stem(w) for w in words)
    doc = imperative_parse(f"{words[0]} the {' '.join(words[1:])}")
    noun_in_desc = any(t.pos_ != "VERB" and t.lower_ == words[0] for t in imperative_parse(description[:300]))
    lead = doc[1].pos_ == "VERB" and not noun_in_desc
    return frozenset(_stem(w) for w in (words[1:] if lead else words))


def _name_things(tool: dict[str, Any]) -> frozenset[str]:
    return _things_named(" ".join(_name_words(tool)), str(tool.get("description", "")))


def _live_desc(tool: dict[str, Any]) -> set[str]:
    from ibachat.agent.reading.parse import parse

    doc = parse(str(tool.get("description", "")))
    desc = {_stem(t.lemma_.lower()) for t in doc if t.pos_ in ("NOUN", "PROPN", "VERB") and t.is_alpha}
    return desc | {_stem(t.lower_) for t in doc if t.pos_ in ("NOUN", "PROPN") and t.is_alpha}


def tool_words_table() -> dict[str, Any]:
    """The table ``_shipped`` reads, computed now with the installed parser for the whole catalogue."""
    tools = {
        tool_text(t): {"acts": sorted(_live_acts(t)), "desc": sorted(_live_desc(t))} for t in _catalogue()
    }
    return {
        "about": "The dependency parse's reading of the product's own tools (their verbs, and the stems "
        "of their descriptions' nouns and verbs), by tool text, for the router; written by "
        "ibachat.agent.execution.router.write_tool_words, checked against the parser by the tests.",
        "parser": _parser_version(),
        "tools": tools,
    }


def write_tool_words() -> Path:
    """Write the table for the catalogue beside this module (after a tool or the parser changed)."""
    path = Path(__file__).with_name(TOOL_WORDS)
    path.write_text(json.dumps(tool_words_table(), indent=1, sort_keys=True) + "\n", encoding="utf-8")
    return path


_WORDS_CACHE: dict[str, tuple[set[str], set[str]]] = {}
_PRONOUN_HEADS = frozenset(
    {
        "it",
        "that",
        "this",
        "one",
        "them",
        "me",
        "us",
        "something",
        "anything",
        "everything",
        "usual",
        "some",
        "more",
    }
)


def _same(a: str, words: set[str]) -> bool:
    """A stem among ``words``, one that starts the other ("note" and "notebook"), or one of the same
    group of everyday words (``data/synonyms.json``: "lift" and "ride", "diary" and "calendar")."""
    if a in words:
        return True
    if len(a) >= 4 and any(len(w) >= 4 and _prefix_kin(a, w) for w in words):
        return True
    groups = _groups().get(a)
    return bool(groups) and any(groups & _groups().get(w, frozenset()) for w in words)


def _prefix_kin(a: str, b: str) -> bool:
    """One word starts the other and the rest is a word of its own or a suffix ("note" and "notebook",
    "reserv" and "reservation"), not a particle that makes another word ("work" and "workout", "pick"
    and "pickup", "check" and "checkout"): the rest is then one of spaCy's English stop words."""
    short, long = sorted((a, b), key=len)
    if not long.startswith(short):
        return False
    from spacy.lang.en.stop_words import STOP_WORDS

    return long[len(short) :] not in STOP_WORDS


@lru_cache(maxsize=1)
def _groups() -> dict[str, frozenset[int]]:
    """Stem -> the synonym groups it belongs to."""
    from ibachat.agent.data import load

    out: dict[str, set[int]] = {}
    for i, group in enumerate(load("synonyms")["groups"]):
        for word in group:
            out.setdefault(" ".join(_stem(w) for w in word.split()), set()).add(i)
    return {k: frozenset(v) for k, v in out.items()}


# the device verbs that set a thing going (a closed class): "skip", "pause", "mute" work against it
_SETS_GOING = frozenset({"run", "play", "turn on", "switch on"})


def _opens_with_an_act(clause: str) -> bool:
    """Whether the clause opens with a verb of a request that the parse took for a noun ("book maya's next
    session with mrs okafor"): an act asked for, not an occasion told of."""
    first = clause.split()[0].lower() if clause.split() else ""
    return any(first in verbs for verbs in _classes().values())


def _worked_after(request: Request, verb: str) -> bool:
    """Whether the thing is what the verb works: said after the verb in the verb's own clause ("run a
    wool wash"), not a thing said before it ("coffee with Tom at 3, wish me luck")."""
    clause = request.clause.lower()
    at_verb = clause.find(verb.split()[0])
    return 0 <= at_verb < clause.find(request.head.lower(), at_verb + 1)


def _verb_fits(request: Request, tool: dict[str, Any], embed: Embed | None) -> tuple[bool, str]:
    """Whether the request's verb is an act this tool performs."""
    verb = request.verb
    if verb is None and request.serves and _self_worked(tool):
        # "I need a car to drive me to the hospital": a car someone drives for the user, and the tool's
        # own description says its car is driven by the user ("Rent a car to drive yourself")
        return False, f"a {request.head or 'thing'} to {request.serves} you is worked by someone else"
    if (
        verb is None
        and request.form == "fragment"
        and request.company
        and not _takes_people(tool)
        and not _opens_with_an_act(request.clause)
    ):
        # "coffee with Tom at 3", "lunch with Hana on friday": an occasion with someone, no thing to get
        return (
            False,
            f"a {request.head or 'thing'} with {request.company[0]} is an occasion, not a thing to get",
        )
    if verb is None:
        return True, "a want of a thing"
    acts = tool_acts(tool)
    name, desc = _words(tool)
    own = {_stem(a) for a in acts} | name
    stem = _stem(verb.split()[0])
    if verb in acts or _same(stem, own) or _same(_stem(verb.replace(" ", "")), own):  # "work out": workout
        return True, f"{verb!r} is the tool's act"
    if _records(verb):  # "write this down", "jot down that ...": kept where the tool keeps things
        ok = bool(acts & _classes()["place"])
        return ok, f"{verb!r} {'is' if ok else 'is not'} keeping it where the tool keeps things"
    cls = _verb_class(verb)
    if request.serves and _self_worked(tool):
        return False, f"a {request.head or 'thing'} to {request.serves} you is worked by someone else"
    if (
        cls == "light"
        and verb not in _classes()["place"]
        and request.head in _said_things()
        and not _same(_stem(request.head), _slot_words(tool) | _words_of_values(tool))  # news "stories"
    ):
        return False, f"{verb!r} a {request.head}: words an answer gives, no tool's act"  # "give me ideas"
    if cls == "light":
        return True, f"{verb!r} asks for it to be done"
    if cls == "writing" and _recipient(request):  # "write to the landlord": whom it is to, not what
        ok = "send" in acts
        return (
            ok,
            f"{verb!r} to a {request.head}: {'a message the tool sends' if ok else 'not what it makes'}",
        )
    if cls == "writing" and request.common and request.head and not _same(_stem(request.head), name):
        return False, f"{verb!r} asks for words; a {request.head} is not what the tool makes"
    if cls == "writing":
        classes = _classes()
        ok = (
            bool(acts & (classes["writing"] | {"make", "schedule"}))
            or _same(_stem(verb.split()[0]), name)
            # "put together the status report" and a tool named for reports: the thing is what it makes
            # (its own name word, not a word of the same group: "dinners" is no "food" to order)
            or bool(request.head and _stem(request.head) in name)
        )
        return ok, f"{verb!r} {'creates' if ok else 'asks for words, not'} what the tool makes"
    if cls == "reply":  # "answer Dana about ...": a message back, which a tool that sends can carry
        ok = bool(acts & ({"send"} | _classes()["reply"]))
        return ok, f"{verb!r} {'is sent by' if ok else 'is not sent by'} the tool"
    if cls == "speech" and any(_same(_stem(m), name) for m in request.media):
        return True, f"{verb!r} by {request.media[0]}: the tool sends it"
    if verb in _SETS_GOING and request.head and _stem(request.head) in name and _worked_after(request, verb):
        # "run a wool wash" and a tool named for washes: worked on the very thing the tool is named for
        return True, f"{verb!r} a {request.head}: the thing the tool is named for"
    if cls in _BY_MEANING and not acts & _classes()[cls] and embed is not None and acts:
        # "pause my gym membership" and a tool that freezes one: another verb of the act, by meaning
        mat = VECTORS.get(embed, [verb, *sorted(acts)])
        sim = float((mat[1:] @ mat[0]).max())
        if sim >= VERB_MEANS_ACT:
            return True, f"{verb!r} means the tool's act ({sim:.2f})"
    if cls in RESTRICTED:
        return bool(acts & _classes()[cls]), f"{verb!r} is not what the tool does ({cls})"
    if embed is not None and name:
        words = sorted(w for w in _name_words(tool) if len(w) > 2)
        mat = VECTORS.get(embed, [verb, *words])
        sim = float((mat[1:] @ mat[0]).max())
        if sim >= VERB_NAMES_OBJECT:
            return True, f"{verb!r} means the tool's object ({sim:.2f})"
    return True, f"{verb!r}: judged by the object"


_SOURCE = re.compile(r"\bfrom\s+((?:an?|the)\s+[a-z][a-z -]{1,40}?)(?=[.,;:]|$|\s+(?:to|for|and|or)\b)", re.I)


def _source_named(request: Request, tools: list[dict[str, Any]], embed: Embed) -> list[dict[str, Any]]:
    """The tool whose own description gets its thing "from" the kind of place the request gets it from
    ("need more from the drugstore" and "a prescription refill from a pharmacy"): a place by its common
    noun, by meaning at least SOURCE_MIN and SOURCE_LEAD above every other tool's source."""
    said = [
        phrase
        for prep, phrase in request.places
        if prep == "from" and phrase[:1].islower() and phrase.split()[0] in ("the", "a", "an", "my", "our")
    ]
    sources = [(t, m.group(1)) for t in tools if (m := _SOURCE.search(str(t.get("description", ""))))]
    if not said or not sources:
        return []
    mat = VECTORS.get(embed, [*said, *(src for _, src in sources)])
    sims = (mat[len(said) :] @ mat[: len(said)].T).max(axis=1)
    order = sorted(range(len(sources)), key=lambda i: -sims[i])
    top = order[0]
    lead = sims[top] - (sims[order[1]] if len(order) > 1 else 0.0)
    return [sources[top][0]] if sims[top] >= SOURCE_MIN and lead >= SOURCE_LEAD else []


def _sourced(request: Request) -> bool:
    """Every named place that serves is where the thing comes "from" ("pad thai from Thai Orchid")."""
    froms = [phrase.lower() for prep, phrase in request.places if prep == "from"]
    # the phrase may run on past the place ("from Luigi's, extra basil")
    return bool(request.venues) and all(any(f.startswith(v.lower()) for f in froms) for v in request.venues)


def _hosted(request: Request) -> bool:
    """Every named place that serves is where the thing happens, said with "at" ("dinner at Lucia's for
    two"): a place to be, not one that brings a thing from itself."""
    return bool(request.venues) and all(
        re.search(rf"(?i)\bat\s+(?:the\s+)?{re.escape(v)}", request.clause) for v in request.venues
    )


def _at_a_place(request: Request, tool: dict[str, Any]) -> bool:
    """Whether the tool can hold a thing said "at" a named place: one with a place to be at (a venue, and
    its description brings nothing "from" one), or one whose own name is the thing ("tickets for Hamlet
    at the Globe"). "dinner at Lucia's for two" is no meal brought from Lucia's, nor a meal plan."""
    head = _stem(request.head) if request.head else ""
    return (_takes_venue(tool) and not _brings_from(tool)) or (bool(head) and head in _words(tool)[0])


def _brings_from(tool: dict[str, Any]) -> bool:
    """The tool's own description brings its thing "from" somewhere ("a prescription refill from a
    pharmacy"), read as a word of it."""
    return bool(re.search(r"\bfrom\b", str(tool.get("description", "")), re.I))


@lru_cache(maxsize=256)
def _made_words_of(description: str) -> frozenset[str]:
    from ibachat.agent.reading.parse import parse

    doc = parse(description)
    root = next((t for t in doc if t.dep_ == "ROOT"), None)
    if root is None:
        return frozenset()
    made = [c for c in root.children if c.dep_ == "dobj"]
    for thing in list(made):
        made += [t for t in thing.subtree if t.dep_ in ("appos", "conj", "compound") and t.pos_ == "NOUN"]
    made += [t for t in doc if t.dep_ in ("appos", "conj") and t.head in made and t.pos_ == "NOUN"]
    return frozenset(_stem(t.lemma_.lower()) for t in made)


def _made_words(tool: dict[str, Any]) -> set[str]:
    """Stems of what the tool's description says it makes or gets: its verb's object and the things
    listed with it ("Create a calendar event: a meeting, call or block of time"), not its circumstances
    ("at a given time")."""
    return set(_made_words_of(str(tool.get("description", ""))))


@lru_cache(maxsize=256)
def _self_worked_text(description: str) -> bool:
    from ibachat.agent.reading.parse import nlp

    return any(
        t.lower_ in ("yourself", "themselves", "oneself", "themself")
        and t.dep_ == "dobj"
        and t.head.pos_ == "VERB"
        for t in nlp()(description)
    )


def _self_worked(tool: dict[str, Any]) -> bool:
    """The tool's own description says the user works its thing themselves ("Rent a car to drive
    yourself"), read from the parse: a reflexive object of its verb."""
    return _self_worked_text(str(tool.get("description", "")))


def _evidence(
    request: Request, tool: dict[str, Any], message: str = "", background: list[dict[str, Any]] = ()
) -> tuple[float, bool]:
    """Word evidence that the request is about this tool: a bonus, and whether its object or act is named."""
    name, desc = _words(tool)
    bonus, named = 0.0, False
    in_names = _words_in_names(message or request.clause)
    head = _stem(request.head) if request.head else ""
    if head and request.head.lower() in in_names:
        # the last word of a name: "Premier Inn" may say what kind of place it is, "iPad Air" says
        # nothing of a flight: it names the tool no more than another noun of the request does
        if _same(head, name | desc):
            bonus, named = NOUN_IN_TOOL, True
        head = ""
    container = _container(request, tool)
    if container is None and any(_container(request, t) for t in background):
        head = ""  # "stick lunch with Ola in the diary": another tool is where it goes; lunch is its value
    if container:
        bonus, named = bonus + HEAD_IN_NAME, True  # where it goes names this tool
    as_act = head and _same(head, name) and request.head.lower() not in {w.lower() for w in _name_words(tool)}
    if head and (
        _same(head, set(_name_things(tool))) or (_same(head, name) and (not request.verb or as_act))
    ):
        # the tool's act said as a noun names it: made from the verb ("get us a booking", "sort a rental"),
        # or with no verb of its own ("order from Wagamama: ...")
        bonus, named = bonus + HEAD_IN_NAME, True
    elif head and _same(head, name):
        pass  # "get him a Lego set", "order a book": the tool's verb (set_reminder, book_table) as a thing
    elif head and _same(head, desc):
        bonus, named = bonus + HEAD_IN_DESCRIPTION, True
    if request.verb:
        stem = _stem(request.verb.split()[0])
        light = _verb_class(request.verb) == "light"
        act = request.verb in tool_acts(tool)
        if act or (not light and _same(stem, name)):
            # an act many tools share ("book", "order") says little about which one
            sharing = (
                sum(1 for t in background if request.verb in tool_acts(t) or _same(stem, _words(t)[0])) or 1
            )
            bonus += VERB_IS_ACT / sharing
            # an act few tools share ("buy", "rent") names the tool, whatever it is done to; a verb that is
            # only a word of the tool's name ("plan" and a workout plan) names it when its object fits too
            object_fits = not request.common or _same(head, name | desc)
            writing = _verb_class(request.verb) == "writing"  # "draft a toast": the thing written must fit
            # a verb that is the one tool's own name word ("email my landlord": only send_email says
            # email) names it whatever it is done to; a word two tools share needs its object to fit
            own_word = not act and sharing == 1 and _same(stem, name) and not writing
            named = named or own_word or (sharing <= 2 and ((act and not writing) or object_fits))
            if request.verb in _GENERAL_VERBS and head and not _same(head, name | desc):
                # "set the heating to 21": a verb that does anything to anything names set_reminder only
                # with a thing the tool holds
                named, bonus = False, bonus - VERB_IS_ACT / sharing
            if writing and request.common and not _same(head, name):
                named, bonus = False, bonus - VERB_IS_ACT / sharing  # "write a message": words, not an email
        elif not light and _verb_class(request.verb) is None and _same(stem, _made_words(tool)):
            # "block out 2 hours Friday morning": the verb is a thing the tool makes, by its description
            # ("Create a calendar event: a meeting, call or block of time"), as that thing named would be
            bonus, named = bonus + HEAD_IN_DESCRIPTION, True

    if request.verb and _records(request.verb) and tool_acts(tool) & _classes()["place"]:
        bonus, named = bonus + VERB_IS_ACT, True  # "jot down that ...": the tool that keeps what is put down
    purpose = _purpose(request.clause, request.head)
    if purpose and not named and _same(purpose, desc) and not _same(purpose, _words_of_values(tool)):
        # "seats for the Yankees game": what the thing is for is the tool's own ("tickets for a ... game")
        bonus, named = bonus + HEAD_IN_DESCRIPTION, True
    when = _point_in_time(message)  # "tomorrow night" says when, not what: no hotel's nights
    others = {_stem(n) for n in request.nouns if n and _stem(n) != head and n.lower() not in when}
    hits = sum(1 for n in others if _same(n, name | desc))
    if hits:
        bonus += NOUN_IN_TOOL * min(hits, 2)
        named = named or any(_same(n, name) for n in others)
    if (
        request.verb
        and _verb_class(request.verb) == "reply"
        and not request.common
        and request.head not in _PRONOUN_HEADS
        and "send" in tool_acts(tool)
    ):
        bonus, named = bonus + HEAD_IN_NAME, True  # "answer Hiro about ...": a message back, which it sends
    elif (
        request.verb
        and _verb_class(request.verb) == "writing"
        and _recipient(request)
        and "send" in tool_acts(tool)
    ):
        bonus, named = bonus + HEAD_IN_NAME, True  # "write to the council": a message to them, which it sends
    if any(_same(_stem(m), name) for m in request.media):
        bonus, named = bonus + HEAD_IN_NAME, True  # "let Dana know by email": the medium is the tool's
    if (
        head
        and _for_a_name(request.clause, request.head)
        and _takes_title(tool)
        and _same(head, _slot_words(tool))
    ):
        bonus, named = (
            bonus + TITLE_SLOT,
            True,
        )  # "2 seats for Hamlet": a thing the tool has (seat_area), for a title
    if (
        request.venues
        and _takes_venue(tool)
        and not (_sourced(request) and not _brings_from(tool))
        and not (request.form == "fragment" and _hosted(request) and _brings_from(tool))
    ):
        # "order ... from Vesuvio's": a tool with a place that serves; a thing got "from" a place needs a
        # tool that brings one from somewhere ("Order a meal ... from a restaurant"), not a place to be
        bonus, named = bonus + VENUE_SLOT, True
        if request.form == "fragment" and _sourced(request) and _brings_from(tool):
            bonus += SOURCED  # only with no verb: "do the weekly shop from Tesco" has its act to weigh
    if any(prep == "to" for prep, _ in request.places) and _takes_destination(tool):
        bonus, named = bonus + PLACE_SLOT, True  # "get me to Brussels": a tool that goes somewhere
        if _journey(request, tool):
            bonus += JOURNEY  # "a seat from Mumbai to Delhi": a journey, a tool that goes from and to
    if _EMAIL_ADDRESS.search(message) and _takes_email(tool):
        bonus, named = bonus + HEAD_IN_NAME, True  # "... he's marco@firm.io": a tool that writes to one
    if request.result and _same(_stem(request.result), name | desc | {_stem(a) for a in tool_acts(tool)}):
        bonus, named = bonus + HEAD_IN_DESCRIPTION, True  # "get me pad thai delivered": what it promises
    if request.company and _takes_people(tool):
        bonus, named = bonus + COMPANY_SLOT, True  # "lunch with Hana": a tool that invites people
    values = _values_named(
        message, tool, background, skip=_stem(request.verb.split()[0]) if request.verb else ""
    )
    if values:
        bonus += VALUE_NAMED * min(sum(values.values()), MAX_VALUES)
        named = named or sum(values.values()) >= 1.0
    return bonus, named


@lru_cache(maxsize=256)
def _words_in_names(message: str) -> frozenset[str]:
    """The words, lower-cased, of a name of two or more capitalised words inside the message ("iPad Air",
    "The Flight Club", "Train Dreams"): a name's words are not the kind of thing it is. None in a message
    written in capitals throughout or in title case, where capitals mark no name."""
    words = re.findall(r"[\w'&]+", message)
    capital = [bool(re.match(r"[A-Z]|[a-z][A-Z]", w)) for w in words]
    if not words or sum(capital) > 0.6 * len(words):
        return frozenset()
    out: set[str] = set()
    run: list[str] = []
    for i, (w, cap) in enumerate([*zip(words, capital), ("", False)]):
        if cap and i > 0:
            run.append(w.lower())
            continue
        if len(run) >= 2:
            out |= set(run)
        run = []
    return frozenset(out)


# verbs that do anything to anything (a closed class): as a tool's act they name it only with its thing
_GENERAL_VERBS = frozenset({"set", "put", "make", "do", "take", "give", "have", "run", "keep"})

_CONTAINER_PREPS = frozenset({"in", "into", "on", "onto"})


def _container(request: Request, tool: dict[str, Any]) -> str | None:
    """The place a request puts its thing, when that place is a word of this tool's name ("in the diary",
    "on my calendar", "into my notebook"); None when it names no container of this tool."""
    if not request.verb or request.verb not in _classes().get("place", ()):
        return None  # only a verb of putting somewhere ("stick", "pop", "pencil in") puts it in a container
    name = _words(tool)[0]
    for prep, phrase in request.places:
        if prep in _CONTAINER_PREPS and phrase and _same(_stem(phrase.split()[-1]), name):
            return phrase
    return None


_DESTINATION = re.compile(
    r"destination|arrival|drop[ _-]?off|^to$|going to|where (?:\w+ )?(?:is |are )?going", re.I
)


_ORIGIN = re.compile(
    r"origin|departure|pick[ _-]?up|^from$|start(?:ing)?[ _](?:point|place)|leaving from", re.I
)
# how a parameter names people who take part (its name or description), as parameters are named
_PEOPLE_PARAM = re.compile(r"\b(?:people|persons?|attendees?|participants?|guests?|invited)\b", re.I)
_EMAIL_ADDRESS = re.compile(r"\b[\w.+-]+@[\w-]+(?:\.[\w-]+)+\b")


def _free_strings(tool: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    props = (tool.get("parameters") or {}).get("properties") or {}
    return [
        (n, p)
        for n, p in props.items()
        if isinstance(p, dict) and p.get("type") == "string" and not p.get("enum") and not p.get("format")
    ]


def _journey(request: Request, tool: dict[str, Any]) -> bool:
    """The request goes from one place to another, and the tool has a parameter for each end."""
    preps = {prep for prep, _ in request.places}
    return {"from", "to"} <= preps and _takes_destination(tool) and _takes_origin(tool)


def _takes_origin(tool: dict[str, Any]) -> bool:
    """A free-text parameter for where the user sets out from (by its name or description)."""
    return any(
        _ORIGIN.search(n) or _ORIGIN.search(str(p.get("description", ""))) for n, p in _free_strings(tool)
    )


def _takes_email(tool: dict[str, Any]) -> bool:
    """A parameter in the email format, one for people (they can be given by address: "attendees"), or
    a free-text one in a tool whose own words are of email."""
    props = (tool.get("parameters") or {}).get("properties") or {}
    if any(isinstance(p, dict) and p.get("format") == "email" for p in props.values()) or _takes_people(tool):
        return True
    name, desc = _words(tool)
    return bool(_free_strings(tool)) and _same("email", name | desc)


def _takes_people(tool: dict[str, Any]) -> bool:
    """A parameter that lists or names people (by its name or description: "attendees", "people
    invited", "guests"); a count of people ("party_size") is not one."""
    for pname, prop in ((tool.get("parameters") or {}).get("properties") or {}).items():
        if not isinstance(prop, dict) or prop.get("type") not in ("array", "string") or prop.get("enum"):
            continue
        if _PEOPLE_PARAM.search(pname) or _PEOPLE_PARAM.search(str(prop.get("description", ""))):
            return True
    return False


def _recipient(request: Request) -> bool:
    """The request's object is whom it is written to ("write to the landlord"), not the thing written."""
    head = request.head.lower()
    return bool(head) and any(
        prep == "to" and head in phrase.lower().split() for prep, phrase in request.places
    )


def _takes_venue(tool: dict[str, Any]) -> bool:
    """A free-text parameter for the place that serves the user (a restaurant, a shop, a café)."""
    from ibachat.agent.alignment.request_values import is_venue

    props = (tool.get("parameters") or {}).get("properties") or {}
    source = _SOURCE.search(str(tool.get("description", "")))
    kind = _stem(source.group(1).split()[-1]) if source else ""  # "from a deli": a parameter "deli"
    return any(
        isinstance(p, dict)
        and p.get("type") == "string"
        and not p.get("enum")
        and (is_venue(n, p) or (kind and kind in {_stem(w) for w in n.lower().split("_")}))
        for n, p in props.items()
    )


def _takes_destination(tool: dict[str, Any]) -> bool:
    """A free-text parameter for where the user is going (by its name or description)."""
    for pname, prop in ((tool.get("parameters") or {}).get("properties") or {}).items():
        if (
            isinstance(prop, dict)
            and prop.get("type") == "string"
            and not prop.get("enum")
            and not prop.get("format")
        ):
            if _DESTINATION.search(pname) or _DESTINATION.search(str(prop.get("description", ""))):
                return True
    return False


def _goes_by(request: Request, tool: dict[str, Any], others: list[dict[str, Any]], embed: Embed) -> bool:
    """The means the request goes by ("by rail", "by air") is nearer this tool's name than any other
    tool's that goes somewhere, by MARGIN: the means says which."""
    if not request.media or not others:
        return False

    def near(t: dict[str, Any]) -> float:
        words = sorted(w for w in _name_words(t) if len(w) > 2)
        if not words:
            return 0.0
        mat = VECTORS.get(embed, [*request.media, *words])
        k = len(request.media)
        return float((mat[:k] @ mat[k:].T).max())

    mine = near(tool)
    return mine >= VERB_NAMES_OBJECT - MARGIN and all(mine - near(t) >= MARGIN for t in others)


def _best_of_catalogue(
    request: Request,
    scored: list[tuple[float, bool, dict[str, Any]]],
    tools: list[dict[str, Any]],
    embed: Embed,
    message: str,
    evidence: dict[str, tuple[float, bool]],
) -> list[tuple[float, dict[str, Any]]]:
    """The best offered tool when its fit is low in absolute terms but it is plainly the best tool of the
    whole catalogue for this request (the small embedder knows little of dishes, products and shops:
    "get me the fattoush from Cedar Grill" is 0.24 from order_food, and further from every other tool).
    Only for a request whose verb positively fits (a light verb, a want, or the tool's own act)."""
    top, _, tool = scored[0]
    verb = request.verb
    if verb is not None and _verb_class(verb) not in ("light", "reply") and verb not in tool_acts(tool):
        return []  # only a light verb ("get", "sort out"), a want, a reply, or the tool's own act
    if top - (scored[1][0] if len(scored) > 1 else -1.0) < MARGIN:
        return []
    sims = np.asarray(_nearness(embed, [message or request.clause, request.clause], list(_catalogue())))
    cos = top - evidence[str(tool.get("name"))][0]
    middle = float(np.median(sims))
    if cos < CATALOGUE_COS_MIN or cos - middle < CATALOGUE_MARGIN:
        return []  # no nearer to this tool than to tools in general
    return [(top, tool)]


def _nearness(embed: Embed, said: list[str], tools: list[dict[str, Any]]) -> list[float]:
    """Per tool, the best cosine of what was said (the message, the asking clause) with the tool's own
    text or, for the product's own tools, that text with its everyday gloss: a gloss can bring a request
    nearer ("somewhere to sleep" and a hotel room), never push one away by its extra words."""
    own = [tool_text(t) for t in tools]
    glossed = [route_text(t) for t in tools]
    mat = VECTORS.get(embed, said + own + glossed)
    n, k = len(said), len(tools)
    sims = mat[n:] @ mat[:n].T  # (2k, n)
    best = sims.max(axis=1)
    return [float(max(best[i], best[k + i])) for i in range(k)]


def _best_named(request: Request, tools: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A thing named without a verb, whose head word two tools' names share ("14-day meal plan": a meal
    plan and a workout plan): only those whose names hold most of the request's nouns stay ("meal")."""
    head = _stem(request.head) if request.head else ""
    if not head:
        return tools
    nouns = {_stem(n) for n in request.nouns if n}
    cover = {
        id(t): sum(1 for n in nouns if _same(n, _words(t)[0])) for t in tools if _same(head, _words(t)[0])
    }
    if len(cover) < 2:
        return tools
    best = max(cover.values())
    return [t for t in tools if cover.get(id(t), best) == best]


def _qualities_are_values(request: Request, tool: dict[str, Any]) -> bool:
    """The thing a fragment names is the tool's object (a word of its name or description, or one of its
    values), and each quality it gives is a word of one of the tool's values or parameter names
    ("vegetarian meal plan": a diet): a quality the tool has no place for ("awful train this morning")
    makes the fragment a comment on the thing, not a request for it."""
    words = {_stem(w) for phrase in _value_phrases(tool) for w in phrase.split()}
    name, desc = _words(tool)
    head = _stem(request.head) if request.head else ""
    journey = _journey(request, tool)  # "Oslo to Bergen next Tuesday": the trip is the thing
    # "two margherita pizzas from Luigi's": a thing got from a named place, by a tool that brings its
    # thing from a place that serves; what the thing is, the tool's list of items holds
    journey = journey or (_sourced(request) and _takes_venue(tool) and _brings_from(tool))
    # "dinner at Lucia's on the 18th for two": a meal at a named place, by a tool with a place to be at
    journey = journey or (_hosted(request) and _takes_venue(tool) and not _brings_from(tool))
    if not journey and (
        not head or not (_same(head, name | desc) or head in words or _container(request, tool))
    ):
        return False  # the thing the fragment is about is not this tool's ("train strike again, 3 days")
    return all(_stem(q) in words for q in request.quals)


_WHEN_FORMATS = frozenset({"date", "date-time", "time"})
_SPEC_NOW = datetime(2026, 1, 5, 12, 0, tzinfo=timezone.utc)  # values other than when do not depend on it


def _spec_values(message: str, tool: dict[str, Any]) -> int:
    """How many of the tool's parameters, other than its days and times, the message's own words give a
    value for (``alignment/request_values.py``, the reader the call's values come from)."""
    from ibachat.agent.alignment.request_values import stated_values, tool_about
    from ibachat.agent.reading.when import read_when

    props = (tool.get("parameters") or {}).get("properties") or {}
    stated = stated_values(tool.get("parameters") or {}, message, _SPEC_NOW, tool_about(tool))
    when = read_when(message, _SPEC_NOW)
    said_when = {w.lower() for w in (when.day_words, when.time_words) if w}
    return sum(
        1
        for name, value in stated.items()
        if isinstance(props.get(name), dict)
        and props[name].get("format") not in _WHEN_FORMATS
        and "pattern" not in props[name]
        and str(value.quote).lower() not in said_when
    )


# Words that put a time in the past whatever day it is said on (a closed class of time words): "a weekday"
# alone may be either ("dinner Friday"), "the last train" is no time at all.
_PAST_DAY = re.compile(
    r"(?i)\b(?:yesterday|ago|the other day|last\s+(?:night|week|weekend|month|year|time|"
    r"(?:mon|tues|wednes|thurs|fri|satur|sun)day))\b"
)


def _says_a_past_day(message: str) -> bool:
    """The message puts what it says in a day gone by ("last night", "yesterday", "two days ago"), as the
    reader of when a state began dates it (``reading/timeexpr.py``)."""
    from ibachat.agent.reading.timeexpr import state_start

    if not _PAST_DAY.search(message):
        return False
    return state_start(message, _SPEC_NOW).date() < _SPEC_NOW.date()


def _value_phrases(tool: dict[str, Any]) -> dict[str, str]:
    """The tool's enum values and parameter names as lower-case phrases, to the parameter they belong to."""
    import json

    key = json.dumps(tool.get("parameters") or {}, sort_keys=True, default=str)
    hit = _PHRASES_CACHE.get(key)
    if hit is None:
        hit = _PHRASES_CACHE[key] = _phrases_of(tool)
    return hit


_PHRASES_CACHE: dict[str, dict[str, str]] = {}


def _phrases_of(tool: dict[str, Any]) -> dict[str, str]:
    out: dict[str, str] = {}
    for pname, prop in ((tool.get("parameters") or {}).get("properties") or {}).items():
        if not isinstance(prop, dict):
            continue
        words = _split_words(pname)
        out.setdefault(" ".join(words), pname)
        enum = prop.get("enum") or (
            (prop.get("items") or {}).get("enum") if isinstance(prop.get("items"), dict) else None
        )
        for v in enum or []:
            if isinstance(v, str):
                value = " ".join(_split_words(v))
                out.setdefault(value, pname)
                if words and words[-1] not in value.split():  # "first class", "window seat", "oat milk"
                    out.setdefault(f"{value} {words[-1]}", pname)
    return {k: v for k, v in out.items() if k}


def _split_words(text: str) -> list[str]:
    text = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", text)
    return [w for w in re.split(r"[\s_\-.]+", text.lower()) if w]


@lru_cache(maxsize=256)
def _purpose(clause: str, head: str | None) -> str:
    """The stem of what the request's thing is for, from the parse: the noun after "for" that hangs on
    the thing itself ("seats for the Celtics game": game), else ""."""
    from ibachat.agent.reading.parse import parse

    if not clause or not head:
        return ""
    for tok in parse(clause):
        if tok.lemma_.lower() != head and _stem(tok.lemma_) != _stem(head):
            continue
        for prep in tok.children:
            if prep.dep_ == "prep" and prep.lower_ == "for":
                obj = [c for c in prep.children if c.dep_ == "pobj" and c.pos_ == "NOUN"]
                if obj:
                    return _stem(obj[0].lemma_)
    return ""


_NOT_A_TITLE = frozenset({"GPE", "LOC", "FAC", "DATE", "TIME"})  # "for Copenhagen", "for Sunday"


def _for_a_name(clause: str, head: str | None) -> bool:
    """The request's thing is for something named ("seats for Hamlet", "2 tickets for Dune"): the object of
    "for" hanging on the thing is a proper noun that is no place and no day."""
    from ibachat.agent.reading.parse import parse

    if not clause or not head:
        return False
    for tok in parse(clause):
        if tok.lemma_.lower() != head and _stem(tok.lemma_) != _stem(head):
            continue
        for prep in tok.children:
            if prep.dep_ == "prep" and prep.lower_ == "for":
                if any(
                    c.dep_ == "pobj" and c.pos_ == "PROPN" and c.ent_type_ not in _NOT_A_TITLE
                    for c in prep.children
                ):
                    return True
    return False


def _takes_title(tool: dict[str, Any]) -> bool:
    """A free-text parameter for a title (of a film, a show, an event), by its name or description."""
    props = (tool.get("parameters") or {}).get("properties") or {}
    return any(
        isinstance(p, dict)
        and p.get("type") == "string"
        and not p.get("enum")
        and re.search(r"\btitle\b", f"{n} {p.get('description', '')}", re.I)
        for n, p in props.items()
    )


def _slot_words(tool: dict[str, Any]) -> set[str]:
    """The stems of the tool's parameter names ("seat_area": seat, area)."""
    props = (tool.get("parameters") or {}).get("properties") or {}
    return {_stem(w) for n in props for w in re.split(r"[_\W]+", n) if w}


def _words_of_values(tool: dict[str, Any]) -> set[str]:
    return {_stem(w) for phrase in _value_phrases(tool) for w in phrase.split()}


@lru_cache(maxsize=256)
def _point_in_time(message: str) -> frozenset[str]:
    """The words of the message's points in time ("tomorrow night", "tonight", "Friday"), read from the
    parse's date and time entities; an amount of time ("three nights", "2 weeks") is not one of them."""
    from ibachat.agent.reading.parse import parse

    if not message:
        return frozenset()
    return frozenset(
        t.lower_
        for e in parse(message).ents
        if e.label_ in ("DATE", "TIME") and not any(t.like_num for t in e)
        for t in e
    )


def _values_named(
    message: str, tool: dict[str, Any], background: list[dict[str, Any]], skip: str = ""
) -> dict[str, float]:
    """Per parameter, how specifically the request names its values or its name ("oat milk", "red-eye",
    "balcony"): a phrase found in the request counts by how few tools of the background have it. The
    request's own verb (``skip``, a stem) names no value: "*book* a plumber" is no product category "books"."""
    if not message:
        return {}
    when = _point_in_time(message)
    words = [w for w in _split_words(message) if w not in when]
    text = " " + " ".join(_stem(w) for w in words) + " "
    found: dict[str, float] = {}
    for phrase, pname in _value_phrases(tool).items():
        stems = " ".join(_stem(w) for w in phrase.split())
        if len(stems) < 3 or f" {stems} " not in text or stems == skip:
            continue
        holders = sum(1 for t in background if phrase in _value_phrases(t)) or 1
        weight = (2.0 if len(phrase.split()) > 1 else 1.0) / holders  # a two-word phrase says more
        found[pname] = max(found.get(pname, 0.0), weight)
    return found


def _fit(request: Request, tools: list[dict[str, Any]], embed: Embed | None, message: str = "") -> Route:
    fits = [(t, *_verb_fits(request, t, embed)) for t in tools]
    able = [t for t, ok, _ in fits if ok]
    if not able:
        return Route("text", request=request, why=fits[0][2] if len(fits) == 1 else "no tool does that")
    background = _background(tools)
    if request.verb is None:
        able = _best_named(request, able)
    evidence = {str(t.get("name")): _evidence(request, t, message, background) for t in able}
    if embed is not None:
        for t in _source_named(request, able, embed):  # "more from the drugstore": a pharmacy's
            bonus, _ = evidence[str(t.get("name"))]
            evidence[str(t.get("name"))] = (bonus + HEAD_IN_DESCRIPTION, True)
    if embed is None:
        named = sorted(
            (t for t in able if evidence[str(t.get("name"))][1]),
            key=lambda t: -evidence[str(t.get("name"))][0],
        )
        light = request.verb is None or _verb_class(request.verb) in ("light", "reply")
        if not named and len(tools) == 1 and (light or request.verb in tool_acts(tools[0])):
            # "get me the usual" with the one tool a task offers: nothing in it points to another
            return Route(
                "tool", tools[0], request=request, why="the one tool offered, and nothing else named"
            )
        if not named:
            return Route("text", request=request, why="no tool's words are in the request")
        if (
            len(named) > 1
            and evidence[str(named[0].get("name"))][0] - evidence[str(named[1].get("name"))][0] < MARGIN
        ):
            return Route("ask", options=named[:2], request=request, why="two tools by their words")
        return Route("tool", named[0], request=request, why="the request names the tool's object or act")
    if request.form == "fragment" and _says_a_past_day(message or request.clause):
        # "great dinner at Sakura last night, 4 of us": a thing and a day gone by report what was, not a want
        return Route("text", request=request, why="a fragment about a day gone by reports it")
    if request.form == "fragment" and _hosted(request):
        # "dinner at Lucia's for two": no meal brought from Lucia's, nor a meal plan ("a flat white at
        # Grind" is a coffee brought from Grind: the tool holds what it states)
        able = [
            t
            for t in able
            if _at_a_place(request, t) or _spec_values(message or request.clause, t) >= SPEC_VALUES
        ]
        if not able:
            return Route("text", request=request, why="no tool holds a thing at a named place")
    sims = _nearness(embed, [message or request.clause, request.clause], able)
    scored = []
    specs: list[tuple[float, dict[str, Any]]] = []  # fragments whose only claim is the values they state
    for sim, tool in zip(sims, able):
        bonus, named = evidence[str(tool.get("name"))]
        floor = (FRAGMENT_FIT_MIN if request.form == "fragment" else FIT_MIN) if named else COS_ONLY_MIN
        if request.form == "fragment" and not named:
            continue
        if request.form == "fragment" and not _qualities_are_values(request, tool):
            if _spec_values(message or request.clause, tool) >= SPEC_VALUES and sim + bonus >= FIT_MIN:
                specs.append((sim + bonus, tool))
            continue
        if request.form == "fragment" and _hosted(request):
            # "supper at The Ivy next friday, 3 of us": a meal at a place, by the tool that holds most of
            # what it states (a table's place and party, not a class's studio); two or more fit at FIT_MIN
            held = _spec_values(message or request.clause, tool)
            bonus += VALUE_NAMED * min(held, MAX_VALUES)
            floor = FIT_MIN if held >= SPEC_VALUES else floor
        scored.append((sim + bonus, sim + bonus >= floor + (bonus if not named else 0.0), tool))
    if request.form == "fragment" and not any(ok for _, ok, _ in scored) and specs:
        # "14-day low-carb meal plan, 2000 calories, no fish": a quality the tool has no value for ("low-carb")
        # reads as a comment on the thing, unless the fragment states the tool's own values beside it
        scored += [(s, True, t) for s, t in specs]
    scored.sort(key=lambda x: -x[0])
    scored_all = [(s, t) for s, _, t in scored]
    scores = {str(t.get("name")): round(s, 3) for s, _, t in scored}
    fitting = [(s, t) for s, ok, t in scored if ok]
    if not fitting and scored and len(tools) <= NARROW_OFFER:
        fitting = _best_of_catalogue(request, scored, tools, embed, message, evidence)
    going = (request.verb in (None, "be") or _verb_class(request.verb) == "light") and any(
        p == "to" for p, _ in request.places
    )
    if not fitting and going and not request.common:
        # "get me to Porto on the 24th": it asks to go somewhere; the tools that go there are the options
        fitting = [(s, t) for s, t in scored_all if _takes_destination(t)][:3]
    if not fitting:
        best = scored[0] if scored else None
        why = f"no tool fits well enough ({best[2].get('name')} {best[0]:.2f})" if best else "no tool fits"
        return Route("text", request=request, why=why, scores=scores)
    top, tool = fitting[0]
    name_words, desc_words = _words(tool)
    head_named = any(_same(_stem(n), name_words | desc_words) for n in (request.head, *request.nouns) if n)
    if (
        scored_all
        and scored_all[0][1] is not tool
        and scored_all[0][0] - top >= MARGIN / 2
        and not head_named
    ):
        # the words name one tool and the meaning is nearer another ("order a cast-iron frying pan":
        # coffee by its words, food by meaning, a product in truth): no tool fits clearly. A tool whose
        # own words hold the thing asked for ("a physio slot" and an appointment's slot) keeps it.
        best = scored_all[0][1]
        why = f"{tool.get('name')} by its words, {best.get('name')} by meaning"
        near_words, near_desc = _words(best)
        if any(_same(_stem(n), near_words | near_desc) for n in (request.head, *request.nouns) if n):
            # the tool nearer in meaning has the thing in its own words as well ("seats for the Arsenal
            # game": a table's seats, a game's tickets): both fit, and one question asks which
            return Route("ask", options=[best, tool], request=request, why=why, scores=scores)
        return Route("text", request=request, why=why, scores=scores)
    close = [t for s, t in fitting[1:] if top - s < MARGIN]
    light = request.verb in (None, "be") or _verb_class(request.verb) == "light"  # "I need to be in Bath"
    own_act = bool(request.verb) and request.verb in tool_acts(tool)  # "subscribe me to a digest"
    # "get me a flight to Dublin": the thing asked for is the tool's own name word, so the means is said
    names_it = any(_same(_stem(n), set(_name_things(tool))) for n in (request.head, *request.nouns) if n)
    if (
        light
        and not own_act
        and not names_it
        and not request.common
        and any(p == "to" for p, _ in request.places)
    ):
        # "get me to Paris": every tool that goes somewhere fits; the words do not say which
        goers = [t for _, t in scored_all if t is not tool and _takes_destination(t)]
        if not _goes_by(request, tool, goers, embed):  # "by rail": the means names the one that goes
            close = list({str(t.get("name")): t for t in [*close, *goers]}.values())
    if close:
        return Route(
            "ask",
            options=[tool, *close[:2]],
            request=request,
            why="two tools fit about equally",
            scores=scores,
        )
    kind_of = _kind_carries(request, tool, able, embed, message)
    if kind_of is not None:
        return Route(
            "ask",
            options=[tool, kind_of],
            request=request,
            why=f"{tool.get('name')} by what kind of {request.head} it is, {kind_of.get('name')} by the thing",
            scores=scores,
        )
    contest = _compound_contested(request, tool, able, embed, message)
    if contest is not None:
        return replace(contest, scores=scores)
    return Route("tool", tool, request=request, why=f"{tool.get('name')} fits ({top:.2f})", scores=scores)


def _kind_carries(
    request: Request, tool: dict[str, Any], able: list[dict[str, Any]], embed: Embed, message: str
) -> dict[str, Any] | None:
    """The tool that the thing asked for is nearest once the nouns that say what kind it is are left out
    ("order me a new yoga mat": a class by "yoga", a product by "mat"; "a coffee grinder"), when that is
    another tool and the thing itself is no word of the chosen tool's name or description ("a train
    ticket", "a yoga class" stay the train's and the class's): the kind carried the choice, not the
    thing, so the two are asked between when the other fits the thing alone and leads by MARGIN, and the
    chosen one does not fit it ("a physio session", "a hearing test" keep theirs: no other tool is plainly the
    session's or the test's)."""
    kinds = _kinds(request)
    if not kinds:
        return None
    name, desc = _words(tool)
    if _same(_stem(request.head), name | desc):
        return None  # "a train ticket", "a yoga class": the thing is the tool's own, whatever its kind

    bare_fit = _bare_fit(request, kinds, able, embed, message)
    if bare_fit is None:
        return None
    scored, fits = bare_fit
    best, mine = max(range(len(able)), key=lambda i: scored[i]), able.index(tool)
    if fits[mine]:
        return None
    if able[best] is not tool and fits[best] and scored[best] - scored[mine] >= MARGIN:
        return able[best]  # the thing is plainly another tool's
    return None


def _bare_fit(
    request: Request, kinds: list[Any], able: list[dict[str, Any]], embed: Embed, message: str
) -> tuple[list[float], list[bool]] | None:
    """Per offered tool, its score and whether it fits once the kind words are left out of the request
    ("order me a new mat" for "order me a new yoga mat"); None when leaving them out changes nothing."""

    def without(text: str) -> str:
        for k in kinds:
            text = re.sub(rf"\b{re.escape(k.text)}\s+", "", text, count=1)
        return text

    said = message or request.clause
    bare = without(said)
    if bare == said:
        return None
    kind_lemmas = {k.lemma_.lower() for k in kinds}
    thing = replace(
        request,
        clause=without(request.clause),
        obj=without(request.obj),
        nouns=tuple(n for n in request.nouns if n not in kind_lemmas),
    )
    background = _background(able)
    sims = _nearness(embed, [bare, thing.clause], able)
    scored, fits = [], []
    for sim, t in zip(sims, able):
        bonus, named = _evidence(thing, t, bare, background)
        scored.append(sim + bonus)
        fits.append(sim + bonus >= FIT_MIN if named else sim >= COS_ONLY_MIN)
    return scored, fits


def _kinds(request: Request, *, lower_names: bool = False) -> list[Any]:
    """The nouns that say what kind of thing the request's object is: the compound modifiers of its head
    ("coffee" in "a coffee table", "plane" in "a plane ticket"), as tokens of the object's parse. With
    ``lower_names``, a head the tagger took for a name but written in lower case counts too ("a meal
    prep box set")."""
    from ibachat.agent.reading.parse import parse

    if not request.head or not request.obj or not (request.common or lower_names):
        return []
    doc = parse(request.obj)
    heads = [
        t
        for t in doc
        if t.lemma_.lower() == request.head
        and (t.pos_ == "NOUN" or (lower_names and t.pos_ == "PROPN" and t.text.islower()))
    ]
    if not heads:
        return []
    out, todo = [], [heads[0]]
    while todo:  # "a tea towel set": "towel" and the "tea" of the towel
        kinds = [c for c in todo.pop().children if c.dep_ == "compound" and c.is_alpha]
        out.extend(kinds)
        todo.extend(kinds)
    return sorted(out, key=lambda t: t.i)


def _holds(tool: dict[str, Any], word: str) -> bool:
    """The word is one of the tool's name or description words."""
    name, desc = _words(tool)
    return _same(_stem(word), name | desc)


def _named_by(tool: dict[str, Any], lemma: str) -> bool:
    """The tool's name says the thing ``lemma`` says: the same word, one or the other in the plural, or
    a word of the same everyday group ("plane" and a flight). A word the stemmer only shortens to a
    name word ("training" and train) says another thing."""
    names = {n.lower() for n in _name_words(tool)}
    one = {n[:-1] if n.endswith("s") and len(n) > 3 else n for n in names}
    if (lemma[:-1] if lemma.endswith("s") and len(lemma) > 3 else lemma) in one:
        return True
    stem = _stem(lemma)
    if not lemma.startswith(stem) or len(lemma) - len(stem) > 1:
        return False  # "training" -> "train": the stem is not the word
    groups = _groups().get(stem)
    return bool(groups) and any(groups & _groups().get(_stem(n), frozenset()) for n in names)


def _compound_contested(
    request: Request, tool: dict[str, Any], able: list[dict[str, Any]], embed: Embed, message: str
) -> Route | None:
    """A compound noun is one thing: "a coffee table", "a plane ticket", "a coffee mug". When the chosen
    tool holds one of its words but not all, and either another tool's name holds a word it lacks
    ("coffee" in a coffee table) or the request's verb is the act of tools that hold none of them ("buy"
    a coffee mug), the word the tool holds is no reason to act with it. The verb's tool is then taken
    when one of them is plainly nearest in meaning, and otherwise one question asks between the two
    tools. A compound the tool holds whole ("a train ticket", "a restaurant table") or by a kind with a
    thing nobody's words hold and no other act asked for ("a dentist slot", "a news feed") stays the
    tool's own."""
    kinds = _kinds(request, lower_names=True)
    if not kinds:
        return None
    words = [request.head, *(k.lemma_.lower() for k in kinds)]
    # the tool holds a word by its name or description, or as a word of its parameters and their
    # values ("first class" of a train ticket: its travel class)
    own = _slot_words(tool) | _words_of_values(tool)
    held = [w for w in words if _holds(tool, w) or _same(_stem(w), own)]
    missing = [w for w in words if w not in held]
    if not held or not missing:
        return None  # the tool was not chosen by a word of the compound, or holds it whole
    if request.head in held and request.verb and request.verb in tool_acts(tool):
        return None  # "send the team a reminder email": the tool's own act on the tool's own thing
    # another tool whose name holds a word the chosen one lacks ("coffee" in a coffee table): a
    # description's passing words ("days" of a car hire, "home" of a delivery) name no rival thing
    others = [t for t in able if t is not tool and any(_named_by(t, w) for w in missing)]
    free = [t for t in able if not any(_holds(t, w) for w in words)]
    buying = bool(request.verb) and _verb_class(request.verb or "") != "light"
    doing = [t for t in free if buying and request.verb in tool_acts(t)]
    if not others and not doing:
        # "a spin class", "a dentist slot", "a news feed": a kind the tool holds, a thing nobody's
        # words hold and no other act asked for: the thing is the tool's
        return None
    thing = " ".join(k.text for k in kinds) + " " + request.head
    said = message or request.clause
    bare = said.replace(thing.strip(), request.head) if thing.strip() in said else said

    def nearest(group: list[dict[str, Any]]) -> list[tuple[float, dict[str, Any]]]:
        sims = _nearness(embed, [bare, request.clause], group)
        return sorted(zip(sims, group), key=lambda x: -x[0])

    if doing:
        doers = nearest(doing)
        if len(doers) == 1 or doers[0][0] - doers[1][0] >= MARGIN:
            best = doers[0][1]
            return Route(
                "tool",
                best,
                request=request,
                why=f"a {thing} is no tool's own thing; {request.verb!r} is {best.get('name')}'s act",
            )
        return Route(
            "ask",
            options=[doers[0][1], doers[1][1]],
            request=request,
            why=f"a {thing} is no tool's own thing; {request.verb!r} is the act of both",
        )
    return Route(
        "ask",
        options=[tool, others[0]],
        request=request,
        why=f"a {thing}: {tool.get('name')} by {held[0]!r}, {others[0].get('name')} by the rest",
    )
