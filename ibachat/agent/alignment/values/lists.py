"""Lists of things a request states for a tool's list parameters: the things asked for, what to leave out,
topics.

Part of ``alignment/request_values.py``, which runs the readers in order."""

from __future__ import annotations

import re
from typing import Any

from ibachat.agent.alignment.values.common import (
    _EXCLUDE,
    _LABELS,
    _PEOPLE_LIST,
    _SOME_DAY,
    _TOPICS,
    Stated,
    _generic,
    _split,
    _stem,
)
from ibachat.agent.reading.frame import Frame
from ibachat.agent.reading.when import read_when


def _lists(
    props: dict[str, Any], frame: Frame, out: dict[str, Stated], required: set[str], service: set[str]
) -> None:
    for n, p in props.items():
        if p.get("type") != "array" or n in out:
            continue
        items = p.get("items") if isinstance(p.get("items"), dict) else {}
        if items.get("enum") or items.get("type", "string") != "string":
            continue
        words = _split(n)
        if _EXCLUDE.search(n):
            # "no caffeine" with a parameter named for caffeine: that parameter says it, not this list
            others = {_stem(w) for o in props if o != n for w in _split(o) if len(w) >= 4}
            spans = [
                s
                for s in frame.refused
                if _head_word(s.text) not in _generic()
                and _head_word(s.text) not in _NO_INGREDIENT
                and _stem(_head_word(s.text)) not in others
            ]
            if spans:
                out[n] = Stated([s.text for s in spans], "; ".join(s.text for s in spans))
            continue
        if _NAMES_LIST.search(n) and not _PEOPLE_LIST.search(n):
            # "pet_names", "child_names": the names said for whom it is ("a dog walker for Max")
            said = [s.text for p_, s in frame.phrases if p_ in ("for", "with")] + [
                s.text for s in frame.company
            ]
            said += [s.text for s in frame.verb_objects]  # "walk Rolo"
            named: list[str] = []
            for whole in said:
                parts = re.split(r"\s*(?:,|&|\band\b)\s*", whole)  # "Mittens and Shadow"
                if all(_a_name(x) for x in parts if x):
                    named += [x for x in parts if x and x not in named]
            if named:
                out[n] = Stated(named, "; ".join(named))
            continue
        if _PEOPLE_LIST.search(n):
            people = [s.text for s in frame.company] + list(frame.emails)
            people += [x for x in _named_beside_emails(frame) if x not in people]  # "priya@firm.com and Tom"
            if people:
                out[n] = Stated(people, "; ".join(people))
            continue
        if _TOPICS.search(n):
            topics = _topics(frame)
            if topics:
                out[n] = Stated(topics, "; ".join(topics))
            continue
        del words
        if n != _item_list(props, required):
            continue  # the things asked for fill one list ("items"), not its tags as well
        said = [v.quote for v in out.values()]
        category = {_stem(w) for w in _split(n)}  # "send some flowers": the list's own name, no item
        only = not _LABELS.search(n) and _item_lists(props) == [n]
        for group in frame.things:
            own = bool(category & service)  # "order_flowers" and its "flowers": the tool's own things
            if group == frame.verb_objects and not (
                frame.objects_asked and (n in required or (only and own))
            ):
                continue  # a later verb's objects ("tip the driver"), or a list not asked for by the verb
            group = tuple(s for s in group if _stem(_head_word(s.text)) not in category)
            while len(group) > 1 and _sets_a_detail(group[-1].text, props, n):
                group = group[:-1]  # "..., nigiri and edamame, large portions": a detail after the things
            names = [
                s.text
                for s in group
                if _head_word(s.text) not in _generic() and _stem(_head_word(s.text)) not in service
            ]
            if n not in required and any(all(x in q for x in names) for q in said):
                continue  # "a checklist titled Packing: passport, charger, socks": the body, not its tags too
            if names and len(names) == len(group):
                out[n] = Stated(names, "; ".join(names))
                break


_NAMES_LIST = re.compile(r"(?:^|_)names?$", re.I)


def _a_name(text: str) -> bool:
    """A name said on its own: capitalised words, no day or time ("Max", "Biscuit"; not "Friday")."""
    return (
        bool(re.fullmatch(r"[A-Z][\w'’-]*(?:\s+[A-Z][\w'’-]*)?", text))
        and not read_when(text, _SOME_DAY).said
    )


_JOINED_NAME = re.compile(r"\s*(?:,|and\b|&)\s*([A-Z][a-z]+)\b(?![@\w]|\.\w)")


def _named_beside_emails(frame: Frame) -> list[str]:
    """Names listed with the email addresses ("invite priya@firm.com and Tom"): a capitalised word (not a
    day or a time) joined to an address by "and", "&" or a comma."""
    out: list[str] = []
    for email in frame.emails:
        at = frame.text.find(email)
        pos = at + len(email) if at >= 0 else len(frame.text)
        while (m := _JOINED_NAME.match(frame.text, pos)) is not None and _a_name(m.group(1)):
            out.append(m.group(1))
            pos = m.end()
    return out


def excludes(name: str) -> bool:
    """A parameter named for what to leave out ("exclude_topics", "avoid", "leave_out")."""
    return bool(_EXCLUDE.search(name))


def _sets_a_detail(piece: str, props: dict[str, Any], own: str) -> bool:
    """A listed piece that says another parameter's value, its head naming that parameter and a word
    of it one of the parameter's allowed values ("large portions", "budget brands"); not a thing asked
    for ("organic milk" names no kind of milk the schema allows)."""
    head = _stem(_head_word(piece))
    words = {_stem(w) for w in re.findall(r"[a-z]+", piece.lower())}
    for name, prop in props.items():
        if name == own or not isinstance(prop, dict) or not prop.get("enum"):
            continue
        if head in {_stem(w) for w in _split(name)}:
            labels = {_stem(w) for v in prop["enum"] for w in re.findall(r"[a-z]+", str(v).lower())}
            if words & labels:
                return True
    return False


def _item_lists(props: dict[str, Any]) -> list[str]:
    return [
        n
        for n, p in props.items()
        if p.get("type") == "array"
        and not (_EXCLUDE.search(n) or _PEOPLE_LIST.search(n) or _TOPICS.search(n))
        and not (isinstance(p.get("items"), dict) and p["items"].get("enum"))
    ]


def _item_list(props: dict[str, Any], required: set[str]) -> str | None:
    """The one list parameter the things a request names go to: a required one first."""
    lists = _item_lists(props)
    return None if not lists else sorted(lists, key=lambda n: n not in required)[0]


# words for people or for one of the things themselves, never a thing to leave out (a closed class):
# "four small meals rather than three big ones", "one person is vegetarian, no mushrooms"
_NO_INGREDIENT = frozenset({"one", "ones", "person", "people", "someone", "anyone", "everyone", "nobody"})


def _head_word(text: str) -> str:
    words = re.findall(r"[a-z]+", text.lower())
    return words[-1] if words else ""


def _topics(frame: Frame) -> list[str]:
    """What a subscription or a search is about: "on climate and sport", "about football"."""
    m = re.search(
        r"(?i)\b(?:on|about|covering|regarding)\s+((?:[\w-]+(?:\s*,\s*|\s+and\s+|\s+&\s+)?){1,6})", frame.text
    )
    if not m:
        return []
    parts = re.split(r"\s*,\s*|\s+and\s+|\s+&\s+", m.group(1).strip())
    out = []
    for part in parts:
        part = part.strip()
        if (
            not part
            or part.lower() in _generic()
            or any(a <= frame.text.find(part) < b for a, b in frame.when_mask)
        ):
            break
        out.append(part)
        if len(part.split()) > 3:
            break
    return out
