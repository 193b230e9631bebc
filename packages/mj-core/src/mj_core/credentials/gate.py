"""Which lines of a text could hold a credential: a cheap necessary condition, so that the
detector library (`detect-secrets`, about 170 ms to import) is loaded only for text that may
need it, and then runs only on those lines.

Each pattern below is a loosening of what one or more of the library's plugins require: a line
none of them matches is a line no plugin can flag. `COVERS` names the plugins they stand for;
a test holds every plugin of the installed library to that list, and property tests hold the
gate to the library (every line the library flags, the gate passes). Our own shapes
(`mj_core.credentials.shapes`) need no gate: they are searched directly.
"""

from __future__ import annotations

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
# of them is not. A line with a match is a candidate. Each pattern comes after the literals
# one of which begins every match of it: a text holding none of them is not searched (nor the
# pattern compiled), which for most text is most of the patterns.
_PLAIN = (
    (("A3T", "ABIA", "ACCA", "AKIA", "ASIA"), r"A3T[A-Z0-9]|ABIA|ACCA|AKIA|ASIA"),  # AWS key id
    (("AKC",), r"AKC"),  # Artifactory
    (("AP",), r"AP[\dA-F]"),
    (("AccountKey=",), r"AccountKey="),  # Azure storage
    ((".",), r"\.[\w-]{6}\.[\w-]{27}"),  # the end of a Discord bot token
    (("ghp_", "gho_", "ghu_", "ghs_", "ghr_"), r"gh[pousr]_"),  # GitHub
    (("glpat-", "gldt-", "glft-", "glsoat-", "glrt-", "glcbt-", "glimt-", "glptt-", "glagent-",
      "gloas-"), r"gl(?:pat|dt|ft|soat|rt|cbt|imt|ptt|agent|oas)-"),  # GitLab
    (("GR1348941",), r"GR1348941"),
    (("eyJ",), r"eyJ"),  # JSON web token
    (("-us",), r"-us[0-9]"),  # Mailchimp
    (("_authToken=",), r"_authToken="),  # npm
    (("T3BlbkFJ",), r"T3BlbkFJ"),  # OpenAI
    (("PRIVATE KEY", "PuTTY-User-Key-File"), r"PRIVATE KEY|PuTTY-User-Key-File"),  # private keys
    (("pypi-Ag",), r"pypi-Ag"),  # PyPI
    (("SG.",), r"SG\."),  # SendGrid
    (("sq0csp-",), r"sq0csp-"),  # Square
    (("k_live_",), r"k_live_"),  # Stripe
    ((":",), r":[\w-]{35}"),  # the end of a Telegram bot token
    (("AC",), r"AC[a-z0-9]{32}"),  # Twilio
    (("SK",), r"SK[a-z0-9]{32}"),
    (("://",), r"://[^\s:/@]+:[^\s/@]+@"),  # a password in a URL
)  # fmt: skip
# Searched in the folded text (the library matches these ignoring case), after their literals.
_FOLDED = (
    (("xox",), r"xox[abposr]-"),  # Slack
    (("hooks.slack.com",), r"hooks\.slack\.com"),
    (("cl",), r"cl(?:oudant|ou)?[-_]?(?:api)?(?:key|pwd|pw|pass|token)"),  # Cloudant
    ((".cloudant.com",), r"\.cloudant\.com"),
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
OPERATOR = rf"[:=]{_VALUE}"  # and a name before it: `credentials.scan` checks that
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


_WEIGHED = (  # the strings the entropy plugin weighs, after the literals one of which they need
    (("'", '"'), _QUOTED, 0),
    ((":", "="), OPERATOR, re.MULTILINE),
)
_compiled: dict[tuple[str, int], re.Pattern[str]] = {}  # each pattern when first needed


def _pattern(pattern: str, flags: int = 0) -> re.Pattern[str]:
    found = _compiled.get((pattern, flags))
    if found is None:
        found = _compiled[pattern, flags] = re.compile(pattern, flags)
    return found


def _held(literals: tuple[str, ...], text: str) -> bool:
    return any(literal in text for literal in literals)


def entropy(value: str) -> float:
    """Shannon entropy of `value` in bits per character."""
    import math  # only a run that weighs a value loads it

    size = len(value)
    return -sum(n / size * math.log2(n / size) for n in map(value.count, set(value)))


def lines(text: str) -> set[int]:
    """0-based numbers of the lines of `text` (split at `\n`) that may hold a credential."""
    odd = any(chr(code) in text for code in FOLD)
    folded = (text.translate(FOLD) if odd else text).lower()  # as long as `text`
    ends = [m.start() for m in re.finditer("\n", text)]
    numbers: set[int] = set()
    for searched, patterns in ((text, _PLAIN), (folded, _FOLDED)):
        for literals, pattern in patterns:
            if _held(literals, searched):
                numbers.update(_numbers(ends, _pattern(pattern).finditer(searched)))
    split = text.split("\n")
    for words, wanted in _ANCHORED:
        found = [_pattern(word).finditer(folded) for word in words if word in folded]
        held = set().union(*(_numbers(ends, each) for each in found)) - numbers
        if held:
            check = _pattern(wanted, re.IGNORECASE)
            numbers.update(n for n in held if check.search(split[n]))
    for literals, pattern, flags in _WEIGHED:
        if _held(literals, text):
            matches = _pattern(pattern, flags).finditer(text)
            numbers.update(_numbers(ends, (m for m in matches if _weighty(m.group(1)))))
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
