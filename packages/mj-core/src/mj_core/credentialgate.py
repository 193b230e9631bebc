"""Which lines of a text could hold a credential: a cheap necessary condition, so that the
detector library (`detect-secrets`, about 170 ms to import) is loaded only for text that may
need it, and then runs only on those lines.

Each pattern below is a loosening of what one or more of the library's plugins require: a line
none of them matches is a line no plugin can flag. `COVERS` names the plugins they stand for;
a test holds every plugin of the installed library to that list, and property tests hold the
gate to the library (every line the library flags, the gate passes). Our own shapes
(`mj_core.credentialshapes`) need no gate: they are searched directly.
"""

from __future__ import annotations

import math
import re

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from collections.abc import Iterable

# `detect_secrets.plugins.keyword` DENYLIST: a keyword, then (its regexes) an assignment,
# comparison, call or `;`
_DENY = (
    r"(?:api_?key|auth_?key|service_?key|account_?key|db_?key|database_?key|priv_?key"
    r"|private_?key|client_?key|db_?pass|database_?pass|key_?pass|password|passwd|pwd"
    r"|secret|contraseña|contrasena)"
)
_BLANK = r"[^\S\n]*"  # the library's `\s*`, within one line
# Each searched on its own: a pattern that begins with a literal is found at C speed, a union
# of them is not. A line with a match is a candidate.
_PLAIN = (
    r"A3T[A-Z0-9]|ABIA|ACCA|AKIA|ASIA",  # AWS key id
    r"AKC",  # Artifactory
    r"AP[\dA-F]",
    r"AccountKey=",  # Azure storage
    r"\.[\w-]{6}\.[\w-]{27}",  # the end of a Discord bot token
    r"gh[pousr]_",  # GitHub
    r"gl(?:pat|dt|ft|soat|rt|cbt|imt|ptt|agent|oas)-",  # GitLab
    r"GR1348941",
    r"eyJ",  # JSON web token
    r"-us[0-9]",  # Mailchimp
    r"_authToken=",  # npm
    r"T3BlbkFJ",  # OpenAI
    r"PRIVATE KEY|PuTTY-User-Key-File",  # private keys
    r"pypi-Ag",  # PyPI
    r"SG\.",  # SendGrid
    r"sq0csp-",  # Square
    r"k_live_",  # Stripe
    r":[\w-]{35}",  # the end of a Telegram bot token
    r"AC[a-z0-9]{32}",  # Twilio
    r"SK[a-z0-9]{32}",
    r"://[^\s:/@]+:[^\s/@]+@",  # a password in a URL
)
# Searched in the folded text (the library matches these ignoring case).
_FOLDED = (
    r"xox[abposr]-",  # Slack
    r"hooks\.slack\.com",
    r"cl(?:oudant|ou)?[-_]?(?:api)?(?:key|pwd|pw|pass|token)",  # Cloudant
    r"\.cloudant\.com",
)
# Words found in the folded text (each on its own: fast), and what a line holding one of them
# must match, ignoring case, to be a candidate.
_KEYWORD = (  # the keyword plugin: assigned, compared, or before a `;`
    rf"{_DENY}\w*(?:[\]'\"]{{0,2}}|\[[0-9]*\]|.assign){_BLANK}[:=!(]"
    rf"|[!=]{{2,3}}{_BLANK}\w*{_DENY}|{_DENY}[^\n]*;"
)
_AWS = r"aws[^\n]{0,48}?['\"][0-9a-zA-Z/+]{40}['\"]"  # AWS secret access key
_LONG = r"[A-Za-z0-9_-]{44}"  # IBM Cloud IAM, IBM COS HMAC, SoftLayer, Cloudant, after a word
_ANCHORED = (
    (("key", "pass", "pwd", "secret", "contrase"), _KEYWORD),
    (("aws",), _AWS),
    (("key", "pwd", "pass", "token", "softlayer"), _LONG),
)
# Strings the entropy plugin would weigh: quoted (base64 entropy over 4.5 needs 23 characters)
_QUOTED = r"['\"]([A-Za-z0-9+/=_\\-]{23,})(?=['\"])"
# and a value assigned unquoted (`NAME=value`, `name: value`): the library's config and YAML
# transformers quote such values before its entropy plugin sees them, and so do we
_VALUE = r"[ \t]*([A-Za-z0-9+/=_\\-]{23,})(?=$|[\s,;)}\]])"
OPERATOR = rf"[:=]{_VALUE}"  # and a name before it: `credentialscan` checks that
ENTROPY = 4.5  # Base64HighEntropyString's default limit
# the characters that match an ASCII letter when case is ignored, and are not it lowercased
FOLD = {0x130: "i", 0x131: "i", 0x17F: "s", 0x212A: "k"}
COVERS = (
    "AWS Access Key", "Artifactory Credentials", "Azure Storage Account access key",
    "Discord Bot Token", "GitHub Token", "GitLab Token", "JSON Web Token", "Mailchimp Access Key",
    "NPM tokens", "OpenAI Token", "Private Key", "PyPI Token", "SendGrid API Key",
    "Square OAuth Secret", "Stripe Access Key", "Telegram Bot Token", "Twilio API Key",
    "Basic Auth Credentials", "Slack Token", "Cloudant Credentials", "Secret Keyword",
    "IBM Cloud IAM Key", "IBM COS HMAC Credentials", "SoftLayer Credentials",
    "Base64 High Entropy String",
)  # fmt: skip


class _Compiled:
    __slots__ = ("anchored", "checks", "folded", "operator", "plain", "quoted")

    def __init__(self) -> None:
        self.plain = [re.compile(p) for p in _PLAIN]
        self.folded = [re.compile(p) for p in _FOLDED]
        self.anchored = [([re.compile(w) for w in words], p) for words, p in _ANCHORED]
        self.quoted = re.compile(_QUOTED)
        self.operator = re.compile(OPERATOR, re.MULTILINE)
        self.checks: dict[str, re.Pattern[str]] = {}  # compiled when an anchor is found

    def check(self, pattern: str) -> re.Pattern[str]:
        if pattern not in self.checks:
            self.checks[pattern] = re.compile(pattern, re.IGNORECASE)
        return self.checks[pattern]


_compiled: list[_Compiled] = []


def entropy(value: str) -> float:
    """Shannon entropy of `value` in bits per character."""
    size = len(value)
    return -sum(n / size * math.log2(n / size) for n in map(value.count, set(value)))


def lines(text: str) -> set[int]:
    """0-based numbers of the lines of `text` (split at `\n`) that may hold a credential."""
    if not _compiled:
        _compiled.append(_Compiled())
    found = _compiled[0]
    odd = any(chr(code) in text for code in FOLD)
    folded = (text.translate(FOLD) if odd else text).lower()  # as long as `text`
    ends = [m.start() for m in re.finditer("\n", text)]
    numbers: set[int] = set()
    for pattern in found.plain:
        numbers.update(_numbers(ends, pattern.finditer(text)))
    for pattern in found.folded:
        numbers.update(_numbers(ends, pattern.finditer(folded)))
    split = text.split("\n")
    for words, wanted in found.anchored:
        held = set().union(*(_numbers(ends, word.finditer(folded)) for word in words)) - numbers
        if held:
            check = found.check(wanted)
            numbers.update(n for n in held if check.search(split[n]))
    for pattern in (found.quoted, found.operator):
        weighed = (m for m in pattern.finditer(text) if _weighty(m.group(1)))
        numbers.update(_numbers(ends, weighed))
    return numbers


def _weighty(value: str) -> bool:
    return entropy(value) > ENTROPY - 1e-9  # the library's sum may round the other way


def _numbers(ends: list[int], matches: Iterable[re.Match[str]]) -> set[int]:
    """The line of each match (matches come in order of their start)."""
    numbers = set()
    line, end = 0, ends[0] if ends else -1
    for match in matches:
        start = match.start()
        if start > end >= 0:
            import bisect

            line = bisect.bisect_left(ends, start)
            end = ends[line] if line < len(ends) else -1
        numbers.add(line)
    return numbers
