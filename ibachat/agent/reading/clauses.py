"""A user's message as sentences and clauses, in the user's own words only.

``normalise`` lower-cases and spells out contractions, chat spellings ("luv", "pls",
"defo", "n"), stretched words ("sooo") and sentiment emoji. ``own_words`` blanks what is
someone else's: quoted speech of a few words or more, text after a report ("she wrote:")
and pasted text after a request to work on it ("proofread this:"); ``unquoted`` blanks, on the
raw text, ">"-quoted e-mail lines, forwarded messages and fenced pastes. ``clauses`` splits a
sentence where a new clause starts, and says how it joins the one before: a contrast
(but, while, whereas, although, ";"), a condition (if, unless) and its consequence, or an
addition (and, so, because) that brings a new subject.
"""

from __future__ import annotations

import re
from functools import lru_cache

CONTRAST = frozenset({"but", "though", "although", "however", "whereas", "whilst", "while", "yet"})
ADDITIVE = frozenset({"and", "so", "because", "since", "cause", "cos", "plus", "as"})
CONDITION = frozenset({"if", "unless"})
THEN = "then"  # the consequence after a sentence-initial condition

_POSITIVE_EMOJI = "\U0001f60d\U0001f970\u2764\u2665\U0001f495\U0001f496\U0001f60b\U0001f924\U0001f44d\U0001f64c\U0001f525\U0001f44c\U0001f4af\U0001f63b\U0001f618\U0001f929"
_NEGATIVE_EMOJI = (
    "\U0001f92e\U0001f922\U0001f44e\U0001f621\U0001f620\U0001f616\U0001f62b\U0001f644\U0001f612\U0001f624"
)
_REPLACE: list[tuple[str, str]] = [
    (r"[’‘`´]", "'"),
    (r"[“”„]", '"'),
    ("[" + _POSITIVE_EMOJI + r"]+\ufe0f?", " love it. "),
    ("[" + _NEGATIVE_EMOJI + r"]+\ufe0f?", " no thanks. "),
    (r"([a-z])\1{2,}", r"\1"),  # "sooo", "loooove", "pleeease"
    (r"\bcannot\b|\bcan not\b|\bcant\b", "can't"),
    (r"\bdo not\b|\bdont\b", "don't"),
    (r"\bdoes not\b|\bdoesnt\b", "doesn't"),
    (r"\bdid not\b|\bdidnt\b", "didn't"),
    (r"\bwill not\b|\bwont\b", "won't"),
    (r"\bwould not\b|\bwouldnt\b", "wouldn't"),
    (r"\bis not\b|\bisnt\b", "isn't"),
    (r"\bare not\b|\barent\b", "aren't"),
    (r"\bwas not\b|\bwasnt\b", "wasn't"),
    (r"\bi am\b|\bim\b", "i'm"),
    (r"\bi would\b", "i'd"),
    (r"\bi will\b", "i'll"),
    (
        r"\bi have\b(?= (?:been|gone|become|switched|started|stopped|quit|given|cut|decided|had))|\bive\b",
        "i've",
    ),
    (r"\bany more\b", "anymore"),
    (r"\bl(?:u|ur)ve?\b", "love"),
    (r"\bpl[sz]\b|\bpls+\b", "please"),
    (r"\bdef+o\b|\bdefinately\b|\bdefinetly\b", "definitely"),
    (r"\bfave?\b|\bfav\b", "favourite"),
    (r"\bwanna\b", "want to"),
    (r"\bgonna\b", "going to"),
    (r"\bgotta\b", "have to"),
    (r"\bprolly\b", "probably"),
    (r"\bthx\b|\bthnx\b|\bty\b", "thanks"),
    (r"(?<=\w) n (?=\w)", " and "),
    (r"\bu\b", "you"),
    (r"\bur\b", "your"),
    (r"\s+", " "),
]
_SENT_SPLIT = re.compile(r"(?<=[.!?])\s+|\n+")

# Someone else's words: a quotation of a few words or more, a report ("she wrote:"), a paste.
_QUOTED = re.compile(r'"[^"]{1,4000}"|(?<![\w])\'(?:[^\']|(?<=\w)\'(?=\w)){1,4000}?\'(?![\w])')
_REPORT = re.compile(
    r"\b(?:said|says|say|wrote|writes|messaged|messages|texted|texts|emailed|emails|replied|replies|posted|"
    r"posts|tweeted|goes|went|asked|asks|told me|tells me|commented|put it|was like|is like)\s*[:,]?\s*$"
)
_PASTE = re.compile(
    r"\b(?:proofread|translate|rewrite|reword|re-word|summari[sz]e|edit|polish|shorten|tidy up|clean up|"
    r"check|fix|correct|improve|reply to|respond to|look over)\b[^.?!:\n]{0,40}?"
    r"\b(?:this|these|the following|below|her \w+|his \w+|their \w+)\b[^:?\n]{0,20}[:?]"
    r"|\b(?:forward(?:ing|ed)?|fwd|fw)\b[^.?!:\n]{0,30}:"
    r"|\b(?:here's|here is|pasting|pasted|sharing|copying)\s+(?:the\s+|an?\s+|my\s+|her\s+|his\s+|their\s+|this\s+)?"
    r"(?:\w+\s+)?(?:email|e-mail|message|text|draft|note|letter|post|review|article|reply|thread|chat|transcript|"
    r"what \w+ (?:wrote|sent|said))\b[^.?!:\n]{0,30}:"
    r"|\b([a-z']+) (?:said|says|wrote|writes|messaged|texted|emailed|replied|posted|goes)\s*:"
)
_SELF = frozenset({"i", "we", "i've", "we've"})
_NAMED = re.compile(
    r"\b(?:use|using|say|saying|write|writing|avoid|ban|drop|skip|start with|starting with|open with|opening with|"
    r"sign off with|end with|ending with|close with|closing with|call me|phrase|word|term|expression|words|phrases|"
    r"line|greeting|sign-off|sign off)\s*[:,]?\s*$"
)
MIN_QUOTED_WORDS = 4
PLACEHOLDER = '"…"'


# Quoted, forwarded and pasted blocks, recognised on the raw text (line structure intact):
# "> " lines of an e-mail reply, what follows a forward or reply header, a fenced paste.
_QUOTE_LINE = re.compile(r"^[ \t]*(?:>|&gt;)")
_FORWARD_HEAD = re.compile(
    r"^[ \t]*(?:-{2,}\s*(?:forwarded message|original message|weitergeleitete nachricht|"
    r"urspr[üu]ngliche nachricht|message transf[ée]r[ée]|mensaje reenviado)\s*-{2,}|"
    r"begin forwarded message:|anfang der weitergeleiteten nachricht:)",
    re.IGNORECASE,
)
_REPLY_HEAD = re.compile(
    r"^[ \t]*(?:on\b.{3,200}\bwrote|am\b.{3,200}\bschrieb\b.{0,120}|le\b.{3,200}\ba [ée]crit|"
    r"el\b.{3,200}\bescribi[óo])\s*:\s*$",
    re.IGNORECASE,
)
_FENCE = re.compile(r"^[ \t]*(?:```|~~~)")


def unquoted(text: str) -> str:
    """The raw ``text`` with quoted, forwarded and pasted blocks replaced by a placeholder.

    Run before ``normalise`` (which joins lines): e-mail quoting is a matter of lines.
    """
    if ">" not in text and "\n" not in text and "&gt;" not in text:
        return text
    out: list[str] = []
    fenced = False
    for line in text.split("\n"):
        if _FENCE.match(line):
            fenced = not fenced
            line = PLACEHOLDER
        elif fenced or _QUOTE_LINE.match(line):
            line = PLACEHOLDER
        elif _FORWARD_HEAD.match(line) or _REPLY_HEAD.match(line):
            out.append(PLACEHOLDER)
            break  # everything after a forward or reply header is the other person's
        if line == PLACEHOLDER and out and out[-1] == PLACEHOLDER:
            continue
        out.append(line)
    return "\n".join(out)


@lru_cache(maxsize=1)
def _compiled() -> list[tuple[re.Pattern[str], str]]:
    return [(re.compile(p), r) for p, r in _REPLACE]


def normalise(text: str) -> str:
    out = text.lower()
    for pattern, repl in _compiled():
        out = pattern.sub(repl, out)
    return out.strip()


def own_words(text: str) -> str:
    """``text`` (normalised) with other people's words replaced by a placeholder."""
    if not any(c in text for c in "\"':?"):
        return text
    paste = _PASTE.search(text)
    if paste is not None and (paste.group(1) or "") not in _SELF:
        text = text[: paste.end()] + " " + PLACEHOLDER
    out: list[str] = []
    last = 0
    for m in _QUOTED.finditer(text):
        before = text[last : m.start()]
        report = _REPORT.search(before)
        reported = report is not None and not re.search(
            r"\b(?:i|we)\s+(?:\w+\s+)?$", before[: report.start()]
        )
        words = len(re.findall(r"[\w']+", m.group(0)))
        named = bool(_NAMED.search(before))  # "don't use 'I hope this finds you well'": words to (not) use
        out += [before, PLACEHOLDER if (words >= MIN_QUOTED_WORDS and not named) or reported else m.group(0)]
        last = m.end()
    out.append(text[last:])
    return "".join(out)


def sentences(text: str) -> list[str]:
    return [s.strip() for s in _SENT_SPLIT.split(text) if s and s.strip()]


# A sentence asks when it ends with "?" or opens the way a question does, after a greeting or a lead-in
# cut off by a colon, comma or dash ("hiya how do i stop my glasses steaming up", "random one: is it
# octopi"): a wh-word with an auxiliary ("how do", "what's", "how long does"), or an auxiliary with its
# subject ("is it", "should i", "do you"). "When I was eight, ..." and "what I want is ..." do not, nor
# does a request or a suggestion ("can you ...", "can we do brief answers").
_AUX = (
    r"(?:is|are|was|were|am|do|does|did|can|could|should|would|will|shall|may|might|must|have|has|had)"
    r"(?:n't)?"
)
_SUBJECT = r"(?:i|you|u|we|it|there|they|he|she|this|that|these|those|my|your|our|the|a|an|anyone|someone)"
_LEAD_IN = (
    r"^(?:(?:hi|hiya|hey|hello|morning|evening|ok|okay|so|right|um|erm|hmm|oh|also|and|but|quick|random|"
    r"sorry|btw|anyway|question|q|one|another)\b[\s,!.:-]*)*"
    r"|^[^:,;–—]{1,40}[:,;–—-]\s+"
)
_ASKING = re.compile(
    rf"(?:{_LEAD_IN})(?:(?:how|what|wat|why|when|where|which|who|whose)(?:\s+(?:much|many)(?:\s+\w+)?|\s+(?:long|often|far|big|old|come|else)"
    rf"|\s+(?:kind|sort) of(?:\s+\w+)?|\s+\w+\s+of)?(?:'?s|'re|\s+{_AUX}\b)"
    rf"|(?:which|what|whose)\s+[a-z]+\s+{_AUX}\b"
    rf"|(?!(?:can|could|would|will|wo|shall)(?:n't)?\s+(?:you|u|we)\b){_AUX}\s+(?:{_SUBJECT}\b|['\"‘“]))"
)  # "can you ..." is a request of the assistant, not a question


def is_question(sentence: str) -> bool:
    """Whether a sentence asks something (lower-cased or not)."""
    s = sentence.strip()
    return s.endswith("?") or bool(_ASKING.match(s.lower()))


_NEW_SUBJECT = (
    r"(?=(?:(?:honestly|also|then|now|yeah|really|just|actually|obviously|frankly|anyway|tbh|personally)\s+)*"
    r"(?:i|i'm|i've|i'd|i'll|we|we're|we've|we'd|my|our|he|she|they|he's|she's|they're|it's|that's|"
    r"there's|his|her|their)\b)"
)
_NOT_A_CONDITION = (
    r"(?!needed|necessary|possible|available|need be|i have to|i must|you can\b|you could|you like|you want|"
    r"so\b|not\b|any\b|ever\b|at all)"
)
_SPLIT = re.compile(
    r"\s*(?:(;)|\s[—–-]\s|—|–"
    r"|(?<!anything)(?<!nothing)(?<!everything)(?<!all)(?<!not)(?<!last)(?<!next)(?<!first),?\s+\b"
    r"(but|though|although|however|whereas|whilst|while|yet|except(?: for)?|apart from|other than)\b,?"
    rf"|,?\s+\b(if|unless)\b\s+{_NOT_A_CONDITION}"
    rf"|(?:,\s*|\s+)\b(and|so|because|since|cause|cos|plus|as)\b\s+{_NEW_SUBJECT}"
    r"|(,)\s+(?=(?:it's|that's|i'm|i|i've|i'd|i'll|we|we're|we've|we'd|they're|there's|he's|she's)\s+\w))\s*"
)
_LEADING_CONDITION = re.compile(r"^(?:and |but |so )?(if|unless|when|whenever)\b([^,]{3,120}),\s*(.+)$")


def clauses(sentence: str) -> list[tuple[str, str]]:
    """(connector, clause) pairs; the first connector is "" (or "if" for a leading condition)."""
    lead = _LEADING_CONDITION.match(sentence)
    if lead and lead.group(1) in ("if", "unless"):
        head = [(lead.group(1), f"{lead.group(1)}{lead.group(2)}")]
        rest = _split(lead.group(3))
        return head + [(THEN if i == 0 else c, t) for i, (c, t) in enumerate(rest)]
    return _split(sentence)


def _split(sentence: str) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    connector = ""
    last = 0
    for m in _SPLIT.finditer(sentence):
        if m.start() == 0 and not m.group(0).strip(" ,;"):
            continue
        out.append((connector, sentence[last : m.start()]))
        connector = next((g for g in m.groups() if g), ";")
        last = m.end()
    out.append((connector, sentence[last:]))
    kept = [(c, t.strip(" ,")) for c, t in out if t.strip(" ,")]
    return kept or [("", sentence.strip())]
