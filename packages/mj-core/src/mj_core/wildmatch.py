"""Git's wildmatch for one `:(glob)` pathspec, as a regular expression: `*` and `?` never
cross a `/`; `**/`, `/**/` and `/**` span directories; a pattern without a wildcard also names
everything below it, as git's pathspecs do. The knowledge sources match their classes with it,
and the load receipt matches a rule's `paths` against the paths it is asked about."""

from __future__ import annotations

import re

_TOKEN = r"/\*\*/|^\*\*/|/\*\*$|\*\*|\*|\?|\[!?\]?[^]]*\]|[^*?[/]+|/"


def wildmatch(pattern: str) -> re.Pattern[str]:
    """The regular expression of one `:(glob)` pattern (the text after the magic); a pattern
    without a wildcard also names everything below it, as git's pathspecs do."""
    if not any(c in pattern for c in "*?["):
        return re.compile(re.escape(pattern.rstrip("/")) + r"(?:/.*)?\Z")
    parts: list[str] = []
    for token in re.findall(_TOKEN, pattern):
        if token == "/**/":
            parts.append("/(?:.*/)?")
        elif token == "**/":
            parts.append("(?:.*/)?")
        elif token == "/**":
            parts.append("/.*")
        elif token in ("*", "**"):
            parts.append("[^/]*")
        elif token == "?":
            parts.append("[^/]")
        elif token.startswith("[") and len(token) > 1:
            body = token[1:-1]
            negate = body.startswith("!")
            body = body[1:] if negate else body
            escaped = body.replace("\\", "\\\\").replace("^", "\\^")
            parts.append(f"(?!/)[{'^' if negate else ''}{escaped}]")
        else:
            parts.append(re.escape(token))
    return re.compile("".join(parts) + r"\Z")
