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
    veto: re.Pattern[str] | None = None  # no secret when this is found in the match or just before it


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


def _mod23_dni(value: str) -> bool:
    """A Spanish DNI (8 digits and a letter) or NIE (X/Y/Z, 7 digits, a letter): mod-23 letter."""
    code = re.sub(r"[\s-]", "", value).upper()
    code = {"X": "0", "Y": "1", "Z": "2"}.get(code[0], code[0]) + code[1:]
    return code[:-1].isdigit() and "TRWAGMYFPDXBNJZSQVHLCKE"[int(code[:-1]) % 23] == code[-1]


def _cpf(value: str) -> bool:
    """A Brazilian CPF: 11 digits whose two last are check digits (and not all the same digit)."""
    digits = [int(c) for c in re.sub(r"\D", "", value)]
    if len(digits) != 11 or len(set(digits)) == 1:
        return False
    for n in (9, 10):
        total = sum(d * (n + 1 - i) for i, d in enumerate(digits[:n]))
        if (total * 10 % 11) % 10 != digits[n]:
            return False
    return True


def _nir(value: str) -> bool:
    """A French social security number (NIR): 13 digits and a 2-digit key, 97 - n mod 97."""
    code = re.sub(r"\s", "", value).upper().replace("2A", "19").replace("2B", "18")
    return len(code) == 15 and code.isdigit() and 97 - int(code[:13]) % 97 == int(code[13:])


def _luhn_any(value: str) -> bool:
    """Luhn over the digits, whatever their number (Swedish personnummer, Canadian SIN)."""
    digits = re.sub(r"\D", "", value)
    total = 0
    for i, ch in enumerate(reversed(digits)):
        d = int(ch)
        if i % 2:
            d = d * 2 - 9 if d > 4 else d * 2
        total += d
    return bool(digits) and total % 10 == 0


def _fiscal_code(value: str) -> bool:
    """An Italian codice fiscale: 16 characters, the last a check letter over the first 15."""
    odd = [1, 0, 5, 7, 9, 13, 15, 17, 19, 21, 2, 4, 18, 20, 11, 3, 6, 8, 12, 14, 16, 10, 22, 25, 24, 23]
    code = value.upper()
    total = 0
    for i, ch in enumerate(code[:15]):
        n = int(ch) if ch.isdigit() else ord(ch) - 65
        total += odd[n] if i % 2 == 0 else n
    return chr(65 + total % 26) == code[15]


def _id_like(value: str) -> bool:
    """A document number rather than a word: at least two digits among letters and digits."""
    return sum(ch.isdigit() for ch in value) >= 2


def _pair_secret(value: str) -> bool:
    """The second half of "user / secret": a letter and a digit or symbol (not a plain word)."""
    return bool(re.search(r"[A-Za-z]", value)) and bool(re.search(r"[\d\W_]", value)) and len(value) >= 4


def _r(
    name: str,
    kind: str,
    pattern: str,
    group: int | str = 0,
    check=None,
    flags: int = 0,
    keys: str = "",
    veto: str = "",
) -> Rule:
    return Rule(
        name,
        kind,
        re.compile(pattern, flags),
        group,
        check,
        tuple(keys.split("|")) if keys else (),
        re.compile(veto, re.IGNORECASE) if veto else None,
    )


_I = re.IGNORECASE
_END = r"(?=[.,;:!?)\]'\"]*(?:\s|$))"  # a value ends before trailing punctuation and a space
_VALUE = r"(?P<secret>[^\s'\"]+?)" + _END
# words that name a secret said in prose, in English, German, French, Spanish and Italian
_PASSWORD = (
    r"pass(?:word|wort|wd)|pwd|pw|kennwort|mot de passe|contrase[ñn]a|clave|wi-?fi key|security answer"
)
_CODE = (
    r"pin(?: code| number|-code)?|passcode|geheimzahl|zugangscode|alarm code|door code|gate code|"
    r"access code|unlock code|lock code|locker code|safe code|code (?:for|to) the (?:door|gate|alarm|safe|lock)"
)
_IS = r"(?:(?:ist|lautet|is|was|war|are|would be|est|es|è)\b|[=:])"
_OTP_WORDS = (
    r"verification|confirmation|security|one[- ]time|login|log-in|sign[- ]in|2fa|mfa|otp|sms|"
    r"auth(?:entication|enticator)?|access|reset|backup|recovery|bestätigungs|verifizierungs|texted|sent"
)
# a code that is an ordinary number: never a one-time code
_NOT_OTP = r"zip|postal|post|area|country|dial|error|status|exit|return|dress|source|colou?r|promo|discount|coupon|product|bar|qr|iso|airport|tax|hs|sort|swift|bank|course|class|room|zone|voucher|referral"
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
    # --- cloud connection strings: the key part of NAME=value;NAME=value
    _r(
        "cloud connection string key",
        "cloud key",
        r"\b(?:AccountKey|SharedAccessKey|SharedAccessSignature|SharedSecret|PrimaryKey|SecondaryKey|"
        r"AccessKey|SecretKey|ApiKey|SasToken|Sig)\s*=\s*(?P<secret>[^;\s'\"]{8,})",
        "secret",
        flags=_I,
        keys="key=|signature=|secret=|sastoken=|sig=",
    ),
    _r(
        "password in a connection string",
        "password",
        r"(?:^|;|\s)(?:Password|Pwd|User Password)\s*=\s*(?P<secret>[^;\s'\"]{3,})(?=;|\s|$)",
        "secret",
        flags=_I,
        keys="password=|pwd=",
    ),
    _r(
        "credentials in a URL without a user",
        "password",
        r"\b(?:redis|rediss|amqps?|mongodb(?:\+srv)?|memcached)://:(?P<secret>[^\s@/]+)@[^\s/]+",
        "secret",
        flags=_I,
        keys="://:",
    ),
    # --- credentials said in words: a user name and a secret after it
    _r(
        "login and password said in words",
        "password",
        r"\b(?:log[- ]?in|logon|sign[- ]?in|credentials?|user(?:name)?|u/?n)\b[^.\n]{0,30}?"
        r"(?:\b(?:is|are|was|were|as)\b|[:=]|\bwith\b)\s*['\"]?[\w.@+-]{2,64}['\"]?\s*"
        r"(?:/|\||:|,|\band\b(?:\s+(?:the\s+)?(?:password|pass|pw|pwd)(?:\s+is)?)?)\s*['\"]?(?P<secret>[^\s'\"]+?)"
        + _END,
        "secret",
        _pair_secret,
        _I,
        keys="log|sign|credential|user|u/n|un ",
    ),
    _r(
        "password word then the password",
        "password",
        r"\b(?:password|passwort|passwd|pwd|pw)\s+(?P<secret>(?=[^\s'\"]*[A-Za-z])(?=[^\s'\"]*[\d\W_])[^\s'\"]{6,}?)"
        + _END,
        "secret",
        flags=_I,
        keys="pass|pwd|pw",
    ),
    # --- one-time codes
    _r(
        "one-time code said in words",
        "one-time code",
        r"\b(?:(?:" + _OTP_WORDS + r")\b[^.\n\d]{0,40}?)?"
        r"(?:code|otp|passcode|one[- ]time password|token|tan|(?:bestätigungs|verifizierungs|sicherheits|anmelde)code)\b"
        r"[^.\n\d]{0,30}?"
        r"(?:\b(?:is|was|are|lautet|ist|est)\b|[:=#])\s*(?P<secret>\d{3}[ -]?\d{1,5})\b",
        "secret",
        flags=_I,
        keys="code|otp|token|tan",
        veto=r"\b(?:" + _NOT_OTP + r")[\s-]*(?:code|token|tan)\b",
    ),
    _r(
        "code before 'is your code'",
        "one-time code",
        r"\b(?:[A-Z]-)?(?P<secret>\d{4,8})\b(?=,? (?:is|as) (?:your|the)\b[^.\n]{0,40}?\b(?:code|otp|password|pin)\b)",
        "secret",
        flags=_I,
        keys="code|otp|password|pin",
    ),
    _r(
        "enter or use a code to verify",
        "one-time code",
        r"\b(?:enter|use|type)\s+(?P<secret>\d{4,8})\b(?=\s+(?:to|as)\s+(?:verify|confirm|sign in|log in|the one[- ]time))",
        "secret",
        flags=_I,
        keys="enter|use|type",
    ),
    # --- national ids
    _r(
        "UK National Insurance number",
        "id number",
        r"\b(?!BG|GB|KN|NK|NT|TN|ZZ)[A-CEGHJ-PR-TW-Z][A-CEGHJ-NPR-TW-Z] ?\d{2} ?\d{2} ?\d{2} ?[A-D]\b",
    ),
    _r("Spanish DNI or NIE", "id number", r"\b(?:[XYZ]-?\d{7}|\d{8})-?[A-Z]\b", 0, _mod23_dni),
    _r(
        "Italian codice fiscale",
        "id number",
        r"\b[A-Z]{6}\d{2}[A-EHLMPRST]\d{2}[A-Z]\d{3}[A-Z]\b",
        0,
        _fiscal_code,
    ),
    _r("Brazilian CPF", "id number", r"\b\d{3}\.\d{3}\.\d{3}-\d{2}\b", 0, _cpf, keys="-"),
    _r("French NIR", "id number", r"\b[12] ?\d{2} ?\d{2} ?(?:\d{2}|2A|2B) ?\d{3} ?\d{3} ?\d{2}\b", 0, _nir),
    _r(
        "Swedish personnummer",
        "id number",
        r"\b(?:19|20)?\d{2}(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01])[-+]\d{4}\b",
        0,
        _luhn_any,
    ),
    _r(
        "national id said in words",
        "id number",
        r"\b(?:national insurance(?: number| no\.?)?|ni number|nino|national id(?:entity)?(?: card)?(?: number| no\.?)?|"
        r"id card(?: number| no\.?)?|identity card(?: number| no\.?)?|personalausweis(?:nummer)?|"
        r"tax (?:id|identification number|file number|number)|steuer-?id|steuer-?identifikationsnummer|"
        r"sin|social insurance number|bsn|burgerservicenummer|aadhaar(?: number| no\.?)?|pesel|cpf|dni|nie|nif|"
        r"codice fiscale|personnummer|numéro de sécurité sociale|itin)\b"
        r"\s*(?:is|ist|est|es|was|:|=|#|no\.?)?\s*(?P<secret>(?=[A-Z0-9 -]*\d[A-Z0-9 -]*\d)[A-Z0-9][A-Z0-9 -]{4,18}[A-Z0-9])\b",
        "secret",
        flags=_I,
        keys="national|ni number|nino|id card|identity|personalausweis|tax|steuer|sin|social insurance|bsn|"
        "burgerservice|aadhaar|pesel|cpf|dni|nie|nif|codice|personnummer|sécurité|itin",
    ),
    # --- travel documents
    _r(
        "passport or travel document number",
        "document number",
        r"\b(?:passport|reisepass|passeport|pasaporte|passaporto|(?:reise)?passnummer|visa|green card|"
        r"known travel+er|ktn|redress|global entry|nexus|driver'?s licen[cs]e|driving licen[cs]e|"
        r"führerschein|residence permit|aufenthaltstitel|travel document|boarding ref)"
        r"(?:\s*(?:card|id|number|nr\.?|no\.?|num\.?|#|nummer|numéro|número))?"
        r"\s*(?:is|ist|est|es|was|:|=|#|-)?\s*(?P<secret>[A-Z0-9][A-Z0-9-]{4,18}[A-Z0-9])\b",
        "secret",
        _id_like,
        _I,
        keys="pass|visa|green card|travel|ktn|redress|global entry|nexus|licen|führerschein|permit|aufenthalt",
    ),
    _r(
        "passport machine-readable zone",
        "document number",
        r"\bP[A-Z<][A-Z]{3}[A-Z<]{10,39}\n?[A-Z0-9<]{9}\d[A-Z]{3}\d{6}\d[MF<]\d{6}\d[A-Z0-9<]{14}\d{2}\b",
        keys="<<",
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
            if rule.veto is not None and rule.veto.search(m.string, max(0, m.start(0) - 24), end):
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
