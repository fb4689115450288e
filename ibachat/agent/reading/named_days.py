"""Days known by their name ("on Christmas Eve", "for Thanksgiving", "this Halloween"), and names of
days nothing here can date.

The names and their dates come from the ``holidays`` library (a well-kept calendar of public holidays
and observances per country, movable feasts included): the user's country when the locale names one
(``IBACHAT_COUNTRY``, else ``LC_ALL``/``LC_TIME``/``LANG`` such as ``en_GB.UTF-8``), otherwise the
United Kingdom and the United States together, a name the two date differently being asked about.
Nothing here lists a holiday.

A name counts as the request's day only where the request says it as one: after a preposition or
determiner of time ("on", "for", "at", "over", "this", "next", "from", "until"), and not as the first words of a longer
name ("at Christmas Tree Inn"). A name said without its last word "Day" counts where the parse takes
what is left for a name ("for Thanksgiving", "at christmas"), so "boxing" alone stays a sport.

A capitalised name after "on" that the parser takes for a date or an event, which neither the library
nor the day grammar knows ("on Founders' Day"), makes a question: which day is that? Never today.
"""

from __future__ import annotations

import os
import re
from datetime import date
from functools import lru_cache

# the closed class of words that put a name of a day in the place of the request's day
_TIME_PREP = r"(?:on|for|at|over|this|next|coming|from|until|till|through|since)"
# a name of a day's own last word, which people often leave off ("Thanksgiving" for "Thanksgiving Day")
_DAY_WORD = "day"
# the nouns that close the name of a day ("Founders' Day", "Christmas Eve"): a closed class
_CALENDAR_NOUNS = ("day", "eve")
_FALLBACK_COUNTRIES = ("GB", "US")
# how far ahead a name is looked for: this year's and next year's dates cover the next occurrence
_YEARS_AHEAD = 1


def _norm(text: str) -> str:
    """Lower case, apostrophes out, "saint" for "st"/"st.": "New Year's Day" and "new years day" match."""
    return _mapped(text)[0]


def _mapped(text: str) -> tuple[str, list[int]]:
    """``_norm``'s text and, per character of it, the offset in ``text`` it came from."""
    out: list[str] = []
    where: list[int] = []
    i = 0
    while i < len(text):
        ch = text[i]
        saint = re.match(r"st\.?\s", text[i:], re.I)
        if saint and (i == 0 or not text[i - 1].isalnum()):
            out.extend("saint ")
            where.extend([i] * 6)
            i += saint.end()
            continue
        if ch in "’'`":
            i += 1
            continue
        if ch.isspace():
            if out and out[-1] == " ":
                i += 1
                continue
            ch = " "
        out.append(ch.lower())
        where.append(i)
        i += 1
    return "".join(out), where


def countries() -> tuple[str, ...]:
    """The user's country from the environment, or the fallback pair."""
    import holidays

    supported = holidays.list_supported_countries()
    said = os.environ.get("IBACHAT_COUNTRY", "").strip().upper()
    if said in supported:
        return (said,)
    for var in ("LC_ALL", "LC_TIME", "LANG"):
        m = re.match(r"[a-z]{2,3}_([A-Z]{2})\b", os.environ.get(var, ""))
        if m and m.group(1) in supported:
            return (m.group(1),)
    return _FALLBACK_COUNTRIES


@lru_cache(maxsize=8)
def _calendar(places: tuple[str, ...], first_year: int) -> dict[str, frozenset[date]]:
    """Normalised name -> its dates in ``first_year`` and the next, over every category the library
    keeps for each country (public holidays and observances alike); observed substitutes left out."""
    import holidays

    out: dict[str, set[date]] = {}
    for place in places:
        cats = holidays.country_holidays(place).supported_categories
        days = holidays.country_holidays(
            place, years=range(first_year, first_year + _YEARS_AHEAD + 1), categories=cats
        )
        for day, names in days.items():
            for name in str(names).split(";"):
                name = name.strip()
                if not name or "(" in name:  # "Christmas Day (observed)": a substitute day off
                    continue
                out.setdefault(_norm(name), set()).add(day)
    return {k: frozenset(v) for k, v in out.items()}


def _fmt(d: date) -> str:
    return f"{d.strftime('%A')} {d.day} {d.strftime('%B')} {d.year}"


def named_day(text: str, today: date, *, unknown: bool = True) -> tuple[date | None, str, str | None] | None:
    """(day, the words, question) for a name of a day said as the request's day; None when none is.
    With ``unknown``, a name nothing dates gives a question (the day grammar asks this last, so that a
    weekday or a date it reads is never taken for one)."""
    low = _norm(text)
    if not re.search(rf"\b{_TIME_PREP}\b", low) and len(low.split()) > 4:
        return None
    best: tuple[int, str, frozenset[date], str] | None = None
    for said, form, days in _said_names(text, today):
        if best is None or len(form) > len(best[1]):
            best = (said[0], form, days, text[said[0] : said[1]])
    if best is None:
        return _unknown_name(text, None) if unknown else None
    _, form, days, words = best
    ahead = sorted(d for d in days if d >= today)
    if not ahead:
        return None, words, f"Which day do you mean by {words!r}?"
    nxt = re.search(rf"\bnext\s+(?:the\s+)?{re.escape(form)}\b", low)
    later = [d for d in ahead if d.year > ahead[0].year]
    if nxt and later:  # "next Christmas" said in December: this one, or next year's?
        return None, words, f"Do you mean {_fmt(ahead[0])} or {_fmt(later[0])}?"
    same_year = [d for d in ahead if d.year == ahead[0].year]
    if len(same_year) > 1:  # one name, two countries' dates ("Mother's Day")
        return (
            None,
            words,
            f"Which day do you mean by {words!r}: {_fmt(same_year[0])} or {_fmt(same_year[1])}?",
        )
    return ahead[0], words, None


def named_spans(text: str, today: date) -> list[tuple[int, int]]:
    """Where the text says a name of a day as a day ("from Good Friday until Easter Sunday": both)."""
    if not re.search(rf"\b{_TIME_PREP}\b", _norm(text)) and len(text.split()) > 4:
        return []
    return sorted({said for said, _, _ in _said_names(text, today)})


def _said_names(text: str, today: date) -> list[tuple[tuple[int, int], str, frozenset[date]]]:
    """(span in ``text``, the calendar's form of the name, its dates) for each name said as a day."""
    from ibachat.agent.reading.parse import parse

    low, where = _mapped(text)
    calendar = _calendar(countries(), today.year)
    doc = None
    out = []
    for name, days in calendar.items():
        forms = [name]
        if name.endswith(" " + _DAY_WORD) and " " in name:
            forms.append(name[: -len(_DAY_WORD) - 1])
        for i, form in enumerate(forms):
            # after a word of time, or said alone (the words a reason quotes: "Christmas Eve")
            pattern = (
                rf"\b{_TIME_PREP}\s+(?:the\s+)?({re.escape(form)})\b|^\s*(?:the\s+)?({re.escape(form)})\s*$"
            )
            for m in re.finditer(pattern, low):
                g = 1 if m.group(1) else 2
                said = (where[m.start(g)], where[m.end(g) - 1] + 1)
                if doc is None:
                    doc = parse(text)
                if _stands_alone(doc, said, shortened=i > 0):
                    out.append((said, form, days))
    return out


def _stands_alone(doc: object, span: tuple[int, int], *, shortened: bool) -> bool:
    """The name is a whole name (no capitalised word runs on: "Christmas Tree Inn"), and a name said
    without its "Day" is one the parse reads as a name ("Thanksgiving"), not a common noun ("boxing")."""
    tokens = [t for t in doc if t.idx >= span[0] and t.idx < span[1]]  # type: ignore[attr-defined]
    if not tokens:
        return False
    after = tokens[-1].i + 1
    if after < len(doc) and doc[after].text[:1].isupper() and doc[after].pos_ == "PROPN":  # type: ignore[index]
        return False
    if shortened:  # said as a name: capitalised, or a word the dictionary has no entry for
        from lemminflect import getAllLemmas

        return any(t.text[:1].isupper() or not getAllLemmas(t.lower_) for t in tokens)
    return True


def _unknown_name(text: str, doc: object | None) -> tuple[date | None, str, str | None] | None:
    """ "on Founders' Day": a capitalised name after "on" that the parser takes for a date or an event,
    or whose last word is a calendar noun ("Day", "Eve"), and that nothing here dates."""
    if not re.search(r"\bon\s+(?:the\s+)?[A-Z]", text):
        return None
    from ibachat.agent.reading.parse import parse

    doc = doc or parse(text)
    labelled = {t.i: ent.label_ for ent in doc.ents for t in ent}  # type: ignore[attr-defined]
    for tok in doc:  # type: ignore[attr-defined]
        if tok.lower_ != "on":
            continue
        start = tok.i + 1 + (tok.i + 1 < len(doc) and doc[tok.i + 1].lower_ == "the")  # type: ignore[index]
        end = start
        while end < len(doc) and doc[end].pos_ == "PROPN" and doc[end].text[:1].isupper():  # type: ignore[index]
            end += 1
        if end == start:
            continue
        name = doc[start:end]  # type: ignore[index]
        kinds = {labelled.get(t.i) for t in name}
        if kinds & {"DATE", "EVENT"} or name[-1].lemma_.lower() in _CALENDAR_NOUNS:
            return None, name.text, f"Which day is {name.text}?"
    return None
