"""Credential shapes the detector library (`detect-secrets` 1.5) has no plugin for, each from
the vendor's own description of its key format. Its OpenAI plugin knows only the older keys
that carry `T3BlbkFJ`; its npm plugin only an `.npmrc` `_authToken=` line; its GitHub plugin
only the `gh?_` tokens.
"""

from __future__ import annotations

import re

SHAPES = {
    # Anthropic API and admin keys begin `sk-ant-` (`sk-ant-api03-…`, `sk-ant-admin01-…`):
    # https://docs.anthropic.com/en/api/administration-api
    "Anthropic API Key": r"sk-ant-[A-Za-z0-9_-]{20,}",
    # OpenAI project, service-account and admin keys: `sk-proj-`, `sk-svcacct-`, `sk-admin-`:
    # https://platform.openai.com/docs/api-reference/authentication
    "OpenAI API Key": r"sk-(?:proj|svcacct|admin)-[A-Za-z0-9_-]{20,}",
    # npm access tokens: `npm_` and 36 base62 characters (the last six a CRC32 checksum):
    # https://github.blog/changelog/2021-09-23-npm-has-a-new-access-token-format/
    "npm Access Token": r"npm_[A-Za-z0-9]{36}(?![A-Za-z0-9])",
    # Google API keys: `AIza` and 35 letters, digits, `-` and `_` (39 characters in all):
    # https://cloud.google.com/docs/authentication/api-keys
    "Google API Key": r"AIza[0-9A-Za-z_-]{35}(?![0-9A-Za-z_-])",
    # GitHub fine-grained personal access tokens: `github_pat_`:
    # https://docs.github.com/en/authentication/keeping-your-account-and-data-secure/about-authentication-to-github#githubs-token-formats
    "GitHub Fine-Grained Token": r"github_pat_[A-Za-z0-9_]{22,}",
}
# each shape begins with a literal prefix (what comes before its first class or group): a
# text without it holds no match, and the shape is neither compiled nor searched there
_LITERAL = {kind: p[: min(i for i in (p.find("["), p.find("(")) if i >= 0)]
            for kind, p in SHAPES.items()}  # fmt: skip
_compiled: dict[str, re.Pattern[str]] = {}


def find(text: str) -> list[tuple[int, int, str]]:
    """(start, end, kind) of every match of our own shapes in `text`; a match begins a word
    (the character before it is not one of `[A-Za-z0-9_]`)."""
    found = []
    for kind, pattern in SHAPES.items():
        if _LITERAL[kind] not in text:
            continue
        compiled = _compiled.get(kind)
        if compiled is None:
            compiled = _compiled[kind] = re.compile(pattern)
        for match in compiled.finditer(text):
            start = match.start()
            if not start or not _word(text[start - 1]):
                found.append((start, match.end(), kind))
    return found


def _word(char: str) -> bool:
    return char.isascii() and (char.isalnum() or char == "_")
