"""What a projection's generated text names: repository paths and rule ids (pure text in,
names out; read by the facts stage to look the paths up, and by the budget judge)."""

from __future__ import annotations

import re

# Patterns are source text, compiled by `re` (and cached there) the first time a projection
# with generated text is read: a run with nothing generated compiles none of them.
_TICKED = r"`([^`\s<>]+)`"
_LINKED = r"\]\(([^)\s]+)\)"
_PATHLIKE = r"[A-Za-z0-9_.][A-Za-z0-9_./-]*"
_SUFFIX = r"\.(md|mdc|ya?ml|toml|json|txt|py|sh|cfg|ini)$"
RULE_ID = r"\b(?:majordomus|project)(?:\.[a-z0-9][a-z0-9-]*)+(?:@[0-9]+)?\b"
_FILE_SUFFIX = r"\.(md|mdc|ya?ml|json|txt|toml|py|sh)$"

# The line between a target's bootstrap and the rules it carries below it: doctor judges the
# text above it as a thin bootstrap, and the rules below it are the rule files they name.
MARKER = "<!-- majordomus:rules — projected by `majordomus update` from the rule files named -->"


def bootstrap_part(text: str) -> str:
    """A generated text without the rules it carries."""
    return text.split(MARKER, 1)[0]


def referenced_paths(text: str) -> list[str]:
    """Repository-relative paths a projection names in backticks or Markdown links."""
    found = []
    for candidate in re.findall(_TICKED, text) + re.findall(_LINKED, text):
        if "://" in candidate or candidate.startswith(("-", "#", "/", "~")):
            continue
        plain = candidate.split("#", 1)[0]
        if re.fullmatch(_PATHLIKE, plain) and ("/" in plain or re.search(_SUFFIX, plain)):
            found.append(plain)
    return list(dict.fromkeys(found))


def named_rule_ids(text: str) -> list[str]:
    """Rule ids (`majordomus.x`, `project.y@1`) a generated text names; file names excluded."""
    found = [
        m.group(0) for m in re.finditer(RULE_ID, text) if not re.search(_FILE_SUFFIX, m.group(0))
    ]
    return list(dict.fromkeys(found))
