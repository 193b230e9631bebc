"""Credentials in text a person or a worker wrote: found, named, and redacted whole.

The one detector behind every place that stores or shows such text (the prompt archive, the
record writers, knowledge candidates, search, the MCP server, the briefing, the ratchet and the
declarations). Found by the `detect-secrets` library (`mj_core.credentials.scan`, loaded only for
the lines `mj_core.credentials.gate` passes) and by our own shapes for what it lacks
(`mj_core.credentials.shapes`). Redaction is whole: a private key from its BEGIN line to its END
line (or the end of the text), a token together with the token characters around the part a
plugin matched, an assignment's whole value, a URL's password (its user and host stay).
"""

from __future__ import annotations

import re

from mj_core.credentials import gate as credentialgate
from mj_core.credentials import shapes as credentialshapes

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from collections.abc import Iterator

MARK = "[REDACTED]"
KEY_BLOCK = "Private Key"
# the library's guesses: named after a vendor's shape when spans merge, and never grown (the
# value they found is already whole: a keyword's value, a run between quotes)
_RANK = {"Secret Keyword": 1, "Base64 High Entropy String": 2, "Basic Auth Credentials": 1}
_AFTER = r"[A-Za-z0-9_\-+/=.~]"  # a token's characters; before it, not `=` (`KEY=token`)
_BEFORE = r"[A-Za-z0-9_\-+/.~]"
_BLOCK_END = r"-----END[^\n]*|Private-MAC:[^\n]*"  # PEM, PuTTY


class Secret:
    """One credential in a text: its 1-based line, its kind, and its span in the text."""

    __slots__ = ("end", "kind", "line", "start")

    def __init__(self, line: int, kind: str, start: int, end: int) -> None:
        self.line = line
        self.kind = kind
        self.start = start
        self.end = end

    def __repr__(self) -> str:
        return f"Secret(line={self.line}, kind={self.kind!r}, span={self.start}:{self.end})"


def find(text: str, *, name: str | None = None) -> list[Secret]:
    """Every credential in `text`, in order, overlapping spans merged. `name` is the path of
    the file the text is (the keyword plugin then uses the library's rules for its type)."""
    starts = _line_starts(text)
    spans = [(s, e, kind) for s, e, kind in credentialshapes.find(text)]
    numbers = credentialgate.lines(text)
    if numbers:
        spans.extend(_library(text, starts, sorted(numbers), name))
    whole = [_whole(text, start, end, kind) for start, end, kind in spans]
    return [Secret(_line_of(starts, s), kind, s, e) for s, e, kind in _merged(whole)]


def redact(text: str, *, keep_lines: bool = False) -> tuple[str, dict[str, int]]:
    """`text` with every credential replaced by `[REDACTED]`, and how many of each kind;
    `keep_lines`: a span over several lines keeps its line ends (line numbers stay true)."""
    found = find(text)
    if not found:
        return text, {}
    pieces: list[str] = []
    kinds: dict[str, int] = {}
    at = 0
    for secret in found:
        ends = "\n" * text.count("\n", secret.start, secret.end) if keep_lines else ""
        pieces += [text[at : secret.start], MARK + ends]
        at = secret.end
        kinds[secret.kind] = kinds.get(secret.kind, 0) + 1
    pieces.append(text[at:])
    return "".join(pieces), dict(sorted(kinds.items()))


def _line_starts(text: str) -> list[int]:
    return [0, *(m.end() for m in re.finditer("\n", text))]


def _line_of(starts: list[int], offset: int) -> int:
    import bisect

    return bisect.bisect_right(starts, offset)


def _library(
    text: str, starts: list[int], numbers: list[int], name: str | None
) -> Iterator[tuple[int, int, str]]:
    from mj_core.credentials import (
        scan as credentialscan,  # the library: only for lines the gate passed
    )

    rows = text.split("\n")
    for number, kind, value in credentialscan.scan(((n, rows[n]) for n in numbers), name):
        line = rows[number]
        at = line.find(value)
        while value and at >= 0:
            yield starts[number] + at, starts[number] + at + len(value), kind
            at = line.find(value, at + len(value))


def _whole(text: str, start: int, end: int, kind: str) -> tuple[int, int, str]:
    """The span grown to the whole credential: a key block to its end, a token to its edges."""
    if kind == KEY_BLOCK:
        begin = text.rfind("-----", text.rfind("\n", 0, start) + 1, start)
        closing = re.compile(_BLOCK_END).search(text, end)
        return (start if begin < 0 else begin), (closing.end() if closing else len(text)), kind
    if kind in _RANK:
        return start, end, kind
    before, after = re.compile(_BEFORE), re.compile(_AFTER)
    while start > 0 and before.match(text, start - 1):
        start -= 1
    while end < len(text) and after.match(text, end):
        end += 1
    return start, end, kind


def _merged(spans: list[tuple[int, int, str]]) -> list[tuple[int, int, str]]:
    """Overlapping spans as one, named by the strongest kind among them."""
    merged: list[tuple[int, int, str]] = []
    for start, end, kind in sorted(spans):
        if merged and start < merged[-1][1]:
            first, last, named = merged[-1]
            stronger = min(named, kind, key=lambda k: _RANK.get(k, 0))
            merged[-1] = (first, max(last, end), stronger)
        else:
            merged.append((start, end, kind))
    return merged
