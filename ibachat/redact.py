"""Secrets are redacted before anything is stored, embedded, planned or logged.

A catalogue of secret shapes, in the way secret scanners define them: tokens with a fixed
prefix (a provider's key format), credentials inside structure (a URL's ``user:password@``,
a PEM block, an ``Authorization`` header, ``key = value`` assignments whose name says
"secret" and whose value looks random), numbers with a checksum (card numbers by Luhn, IBANs
by mod 97) and secrets said in words ("my pass is ...", "the wifi password for home is ...",
"mein Passwort ist ...", a passphrase). Only the secret itself is replaced, by
``[REDACTED <kind>]``, so "my password is [REDACTED password]" still reads as what it was.
Every entry of ``CATALOGUE`` is tested (tests/test_redact.py).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Rule:
    name: str  # what the rule recognises, for tests and docs
    kind: str  # what the user is told was redacted
    pattern: re.Pattern[str]
    group: int | str = 0  # the part of the match that is the secret
    check: Callable[[str], bool] | None = None  # a checksum or randomness test on that part
    keywords: tuple[str, ...] = ()  # the rule runs only on text holding one of these (lower case)


def _entropy(value: str) -> float:
    counts: dict[str, int] = {}
    for ch in value:
        counts[ch] = counts.get(ch, 0) + 1
    return -sum(n / len(value) * math.log2(n / len(value)) for n in counts.values())


def _looks_random(value: str) -> bool:
    """A value a person would not write as prose: mixed character classes or high entropy."""
    classes = sum(bool(re.search(p, value)) for p in (r"[a-z]", r"[A-Z]", r"\d", r"[^A-Za-z0-9]"))
    return len(value) >= 8 and (classes >= 2 and _entropy(value) >= 2.8 or _entropy(value) >= 3.5)


def _luhn(value: str) -> bool:
    digits = re.sub(r"\D", "", value)
    if not 13 <= len(digits) <= 19:
        return False
    total = 0
    for i, ch in enumerate(reversed(digits)):
        d = int(ch)
        if i % 2:
            d = d * 2 - 9 if d > 4 else d * 2
        total += d
    return total % 10 == 0


def _iban(value: str) -> bool:
    code = re.sub(r"\s", "", value).upper()
    if not 15 <= len(code) <= 34:
        return False
    moved = code[4:] + code[:4]
    return int("".join(str(int(ch, 36)) for ch in moved)) % 97 == 1


def _r(
    name: str, kind: str, pattern: str, group: int | str = 0, check=None, flags: int = 0, keys: str = ""
) -> Rule:
    return Rule(name, kind, re.compile(pattern, flags), group, check, tuple(keys.split("|")) if keys else ())


_I = re.IGNORECASE
_END = r"(?=[.,;:!?)\]'\"]*(?:\s|$))"  # a value ends before trailing punctuation and a space
_VALUE = r"(?P<secret>[^\s'\"]+?)" + _END
# words that name a secret said in prose, in English, German, French, Spanish and Italian
_PASSWORD = (
    r"pass(?:word|wort|wd)|pwd|pw|kennwort|mot de passe|contrase[ñn]a|clave|wi-?fi key|security answer"
)
_CODE = (
    r"pin(?: code| number|-code)?|passcode|geheimzahl|zugangscode|alarm code|door code|gate code|"
    r"access code|unlock code|code (?:for|to) the (?:door|gate|alarm|safe)"
)
_IS = r"(?:(?:ist|lautet|is|was|war|are|would be|est|es|è)\b|[=:])"
_NEAR = r"(?:\s+(?:for|of|to|on|at|für|zum|zur|vom|von|du|de|del|per)\b[^.\n:=]{0,40}?)?"

CATALOGUE: list[Rule] = [
    # --- structure: blocks and URLs
    _r(
        "PEM private key",
        "private key",
        r"-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----(?:.*?-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----"
        r"|[A-Za-z0-9+/=\s:-]*)",
        flags=re.S,
        keys="private key",
    ),
    _r(
        "credentials in a URL",
        "password",
        r"\b[a-z][a-z0-9+.-]{1,20}://[^\s:/@]+:(?P<secret>[^\s@/]+)@[^\s/]+",
        "secret",
        flags=_I,
        keys="://",
    ),
    _r(
        "Authorization header",
        "token",
        r"\b(?:authorization|proxy-authorization)\s*[:=]\s*(?:basic|bearer|token|digest)?\s*(?P<secret>[^\s'\"]{8,})",
        "secret",
        flags=_I,
        keys="authorization",
    ),
    _r(
        "Bearer token",
        "token",
        r"\bbearer\s+(?P<secret>[A-Za-z0-9._~+/=-]{12,})",
        "secret",
        flags=_I,
        keys="bearer",
    ),
    _r(
        "secret in a URL query",
        "token",
        r"[?&](?:access_token|token|api_?key|key|secret|sig|signature|password|auth)=(?P<secret>[^&\s#]{8,})",
        "secret",
        flags=_I,
        keys="=",
    ),
    # --- provider keys: fixed prefixes
    _r("Stripe key", "api key", r"\b(?:sk|rk|pk)_(?:live|test)_[A-Za-z0-9]{10,}\b", keys="_live_|_test_"),
    _r("Stripe webhook secret", "api key", r"\bwhsec_[A-Za-z0-9]{20,}\b", keys="whsec_"),
    _r(
        "OpenAI / Anthropic key",
        "api key",
        r"\b(?:sk|pk|rk)-(?:proj-|ant-|svcacct-)?[A-Za-z0-9_-]{16,}",
        keys="sk-|pk-|rk-",
    ),
    _r(
        "AWS access key id",
        "api key",
        r"\b(?:AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AROA|ANPA)[A-Z0-9]{16}\b",
        keys="akia|asia|abia|acca|agpa|aida|aroa|anpa",
    ),
    _r(
        "AWS secret access key",
        "api key",
        r"\baws_?(?:secret_?access_?key|secret_?key|session_?token)\b['\"]?\s*[:=]\s*['\"]?(?P<secret>[A-Za-z0-9/+=]{16,})",
        "secret",
        flags=_I,
        keys="aws",
    ),
    _r("GitHub token", "api key", r"\bgh[pousr]_[A-Za-z0-9]{30,}\b", keys="ghp_|gho_|ghu_|ghs_|ghr_"),
    _r("GitHub fine-grained token", "api key", r"\bgithub_pat_[A-Za-z0-9_]{22,}", keys="github_pat_"),
    _r(
        "GitLab token",
        "api key",
        r"\bgl(?:pat|dt|ptt|rt|cbt|oas)-[A-Za-z0-9_-]{20,}",
        keys="glpat-|gldt-|glptt-|glrt-|glcbt-|gloas-",
    ),
    _r("Slack token", "api key", r"\bxox[abposre]-[A-Za-z0-9-]{10,}", keys="xox"),
    _r(
        "Slack webhook",
        "api key",
        r"https://hooks\.slack\.com/services/[A-Za-z0-9/_-]{20,}",
        keys="hooks.slack.com",
    ),
    _r("Google API key", "api key", r"\bAIza[0-9A-Za-z_-]{35}", keys="aiza"),
    _r("Google OAuth token", "token", r"\bya29\.[0-9A-Za-z_-]{20,}", keys="ya29."),
    _r("Hugging Face token", "api key", r"\bhf_[A-Za-z0-9]{30,}\b", keys="hf_"),
    _r("npm token", "api key", r"\bnpm_[A-Za-z0-9]{36}\b", keys="npm_"),
    _r("PyPI token", "api key", r"\bpypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{40,}", keys="pypi-"),
    _r("SendGrid key", "api key", r"\bSG\.[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{16,}", keys="sg."),
    _r("Twilio key", "api key", r"\bSK[0-9a-f]{32}\b", keys="sk"),
    _r("Shopify token", "api key", r"\bshp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}\b", keys="shp"),
    _r("DigitalOcean token", "api key", r"\bdo[opr]_v1_[a-f0-9]{64}\b", keys="_v1_"),
    _r("Telegram bot token", "api key", r"\b\d{8,10}:AA[A-Za-z0-9_-]{33}\b", keys=":aa"),
    _r("age secret key", "private key", r"\bAGE-SECRET-KEY-1[0-9A-Z]{58}\b", keys="age-secret-key-"),
    _r(
        "JSON web token", "token", r"\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}", keys="eyj"
    ),
    # --- assignments: NAME = value, where the name says it is secret
    _r(
        "secret assignment",
        "api key",
        r"\b[\w.-]{0,40}?(?:api[_-]?key|apikey|secret|token|credential|private[_-]?key|access[_-]?key|"
        r"client[_-]?secret|auth[_-]?key)[\w.-]{0,20}['\"]?\s*(?::=|=>|[:=])\s*['\"]?"
        r"(?P<secret>[^\s'\",;]{8,})",
        "secret",
        _looks_random,
        _I,
        keys="key|secret|token|credential",
    ),
    _r(
        "password assignment",
        "password",
        r"\b[\w.-]{0,40}?(?:passw(?:or)?d|passwd|pwd)[\w.-]{0,20}['\"]?\s*(?::=|=>|[:=])\s*['\"]?"
        r"(?P<secret>[^\s'\",;]{3,})",
        "secret",
        flags=_I,
        keys="pass|pwd",
    ),
    _r(
        "PASS= assignment",
        "password",
        r"\b[\w.-]{0,40}?pass['\"]?\s*=\s*['\"]?(?P<secret>[^\s'\",;]{3,})",
        "secret",
        flags=_I,
        keys="pass",
    ),
    # --- secrets said in words
    _r(
        "passphrase",
        "password",
        r"\b(?:pass ?phrase|pass-phrase|seed phrase|recovery phrase|mnemonic|passsatz)\b[^.\n]{0,30}?\b"
        + _IS
        + r"\s*['\"]?(?P<secret>[^.\n;!?\"]+)",
        "secret",
        flags=_I,
        keys="phrase|mnemonic|passsatz",
    ),
    _r(
        "password said in words",
        "password",
        r"\b(?:" + _PASSWORD + r")\b" + _NEAR + r"\s*" + _IS + r"\s*['\"]?" + _VALUE,
        "secret",
        flags=_I,
        keys="pass|pwd|pw|kennwort|contrase|clave|wi|security answer",
    ),
    _r(
        "PIN or door code said in words",
        "password",
        r"\b(?:" + _CODE + r")\b" + _NEAR + r"\s*" + _IS + r"\s*(?P<secret>\d(?:[\d -]{1,10}\d)?)\b",
        "secret",
        flags=_I,
        keys="pin|code|geheimzahl",
    ),
    _r(
        "'my pass is'",
        "password",
        r"\b(?:my|the|our|your|mein|unser)\s+(?:pass|pw)\s+" + _IS + r"\s*['\"]?" + _VALUE,
        "secret",
        flags=_I,
        keys="pass|pw",
    ),
    # --- numbers
    _r(
        "card security code",
        "card code",
        r"\b(?:cvv2?|cvc2?|csc|cid|card (?:security )?code|security code|prüfnummer|kartenprüfnummer)\b"
        r"\s*(?:is|ist|was|:|=|#|no\.?)?\s*(?P<secret>\d{3,4})\b",
        "secret",
        flags=_I,
        keys="cvv|cvc|csc|cid|code|prüfnummer",
    ),
    _r(
        "US social security number",
        "id number",
        r"\b(?!000|666|9\d\d)\d{3}-(?!00)\d{2}-(?!0000)\d{4}\b",
        keys="-",
    ),
    _r(
        "social security number said in words",
        "id number",
        r"\b(?:ssn|social security(?: number| no\.?)?|sozialversicherungsnummer)\b\s*(?:is|ist|:|#)?\s*"
        r"(?P<secret>\d[\d -]{7,12}\d)",
        "secret",
        flags=_I,
        keys="ssn|social security|sozialversicherungsnummer",
    ),
    _r("IBAN", "bank account", r"\b[A-Z]{2}\d{2}(?: ?[A-Z0-9]){11,30}\b", 0, _iban),
    _r("card number", "card number", r"\b(?:\d[ -]?){12,18}\d\b", 0, _luhn),
]

_MARK = re.compile(r"\[REDACTED [a-z ]+\]")


def redact(text: str) -> tuple[str, list[str]]:
    """Return the text with secrets replaced by ``[REDACTED <kind>]`` and the kinds found."""
    found: list[str] = []
    lowered = text.lower()
    for rule in CATALOGUE:
        if rule.keywords and not any(k in lowered for k in rule.keywords):
            continue  # as scanners do: a cheap substring test before the regular expression

        def sub(m: re.Match[str], rule: Rule = rule) -> str:
            start, end = m.span(rule.group)
            secret = m.group(rule.group)
            if not secret or _MARK.fullmatch(secret) or secret.startswith("[REDACTED"):
                return m.group(0)
            if rule.check is not None and not rule.check(secret):
                return m.group(0)
            found.append(rule.kind)
            whole = m.group(0)
            offset = m.start(0)
            return whole[: start - offset] + f"[REDACTED {rule.kind}]" + whole[end - offset :]

        before = len(found)
        text = rule.pattern.sub(sub, text)
        if len(found) != before:
            lowered = text.lower()
    return text, sorted(set(found))


def redact_value(value: Any) -> tuple[Any, list[str]]:
    """``redact`` applied to every string inside a JSON-like value (dicts, lists)."""
    kinds: list[str] = []

    def walk(item: Any) -> Any:
        if isinstance(item, str):
            clean, found = redact(item)
            kinds.extend(found)
            return clean
        if isinstance(item, dict):
            return {k: walk(v) for k, v in item.items()}
        if isinstance(item, (list, tuple)):
            return [walk(v) for v in item]
        return item

    return walk(value), sorted(set(kinds))
