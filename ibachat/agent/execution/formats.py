"""What a tool's string parameter holds of when, read from how the tool's writer described it.

Every stage that fills a day or a time asks the parameter's JSON-schema ``format`` ("date",
"date-time"). Tools written by others often leave ``format`` out and say it in words instead
("YYYY-MM-DD", "ISO 8601 date and time") or in a ``pattern``; ``with_formats`` gives such a
parameter the format its description or pattern states, once, where a tool enters the planner, so
the readers of days and times see it as they see one of ours. A parameter is never given a format
its words do not state: a bare name such as ``date`` with no description says nothing of the form.
"""

from __future__ import annotations

import copy
import re
from typing import Any

# the written forms of a calendar day and of a clock, as schema descriptions spell them
_DAY_FORM = re.compile(r"(?i)\b(?:yyyy-mm-dd|iso[ -]?8601 date|dd/mm/yyyy|mm/dd/yyyy)\b")
_CLOCK_FORM = re.compile(r"(?i)\bhh:mm\b|\bdate and time\b|\bdatetime\b|\btimestamp\b")
# a pattern that requires a four-digit year, then a month and a day: a day ("\d{4}-\d{2}-\d{2}")
_DAY_PATTERN = re.compile(r"\\d\{4\}-|\[0-9\]\{4\}-|\(19\|20\)")


def stated_format(prop: dict[str, Any]) -> str | None:
    """ "date" or "date-time" when a string parameter without a format says it holds one, else None."""
    if prop.get("type") != "string" or prop.get("enum") or prop.get("format"):
        return None
    words = str(prop.get("description") or "")
    pattern = str(prop.get("pattern") or "")
    day = bool(_DAY_FORM.search(words) or _DAY_PATTERN.search(pattern))
    if not day:
        return None
    clock = bool(_CLOCK_FORM.search(words) or re.search(r"T|\[0-5\]\[0-9\]|:\\d", pattern))
    return "date-time" if clock else "date"


def with_formats(tool: dict[str, Any]) -> dict[str, Any]:
    """``tool``, with each string parameter that states a day's or a moment's form in words given that
    ``format``; the tool itself when none does (nothing is copied then)."""
    props = (tool.get("parameters") or {}).get("properties") or {}
    found = {n: f for n, p in props.items() if isinstance(p, dict) and (f := stated_format(p))}
    if not found:
        return tool
    out = copy.deepcopy(tool)
    for name, fmt in found.items():
        out["parameters"]["properties"][name]["format"] = fmt
    return out
