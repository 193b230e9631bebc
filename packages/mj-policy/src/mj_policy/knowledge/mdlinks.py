"""The links a Markdown text states, each with its line, outside code.

Inline links and images (`[text](target "title")`, `![alt](target)`), autolinks are external
and never taken; reference definitions (`[label]: target`) are. A fenced block (``` or ~~~,
closed by a fence of the same character at least as long) and an inline code span hide
what they contain. A target that is external (a scheme, `//host`), absolute (`/…`) or only a
`#fragment` is skipped; a `#fragment` or `?query` is trimmed from the rest.
"""

from __future__ import annotations

import re

FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
CODE = re.compile(r"(`+)(?:.+?)\1")
INLINE = re.compile(
    r"!?\[(?:[^\]\\]|\\.)*\]\(\s*(<[^>\n]*>|[^)\s]+)(?:\s+(?:\"[^\"]*\"|'[^']*'))?\s*\)"
)
DEFINITION = re.compile(r"^ {0,3}\[(?:[^\]\\]|\\.)+\]:\s*(<[^>\n]*>|\S+)")
SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")


def local(target: str) -> str | None:
    """The repository path part of a link target, or None when it names nothing local."""
    if target.startswith("<") and target.endswith(">"):
        target = target[1:-1]
    if not target or target.startswith(("#", "/")) or SCHEME.match(target):
        return None
    path = target.split("#", 1)[0].split("?", 1)[0]
    return path or None


def _closes(line: str, opened: re.Match[str] | None, fence: str) -> bool:
    """Whether `line` closes the fence `fence` opened: the same character, at least as many,
    nothing else on the line."""
    mark = opened.group(1) if opened else ""
    return mark[:1] == fence[0] and len(mark) >= len(fence) and not line.strip().strip(mark[0])


def _blank_code(line: str) -> str:
    """The line with each inline code span replaced by spaces (columns kept)."""
    return CODE.sub(lambda m: " " * len(m.group(0)), line)


def links(text: str, first_line: int = 1) -> list[tuple[int, str, str]]:
    """(line number, target as written, local path) of every local link, in text order."""
    found: list[tuple[int, str, str]] = []
    fence: str | None = None
    for number, line in enumerate(text.split("\n"), start=first_line):
        opened = FENCE.match(line)
        if fence is not None:
            fence = None if _closes(line, opened, fence) else fence
            continue
        if opened:
            fence = opened.group(1)
            continue
        if "](" not in line and "]:" not in line:
            continue
        visible = _blank_code(line) if "`" in line else line
        for match in INLINE.finditer(visible):
            _take(found, number, match.group(1))
        defined = DEFINITION.match(visible)
        if defined:
            _take(found, number, defined.group(1))
    return found


def _take(found: list[tuple[int, str, str]], number: int, target: str) -> None:
    path = local(target)
    if path is not None:
        written = target[1:-1] if target.startswith("<") and target.endswith(">") else target
        found.append((number, written, path))


def heading(text: str) -> str:
    """The first level-one ATX heading outside code, or empty."""
    fence: str | None = None
    for line in text.split("\n"):
        opened = FENCE.match(line)
        if fence is not None:
            fence = None if _closes(line, opened, fence) else fence
            continue
        if opened:
            fence = opened.group(1)
        elif line.startswith("# "):
            return line[2:].strip().rstrip("#").strip()
    return ""
