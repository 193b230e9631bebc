"""An instruction file cut into the pieces `init --import` makes rules of.

What a piece is:
- the tool's own text is cut out first: a file `majordomus update` stamped (and that still
  matches its stamp) is left whole, and so is the region it keeps in a host file
  (`<!-- majordomus:begin … -->` to `<!-- majordomus:end -->`); front matter is the file's
  scope, not text;
- a first line that is a heading, with no other heading as shallow as it, is the file's title;
- every heading of the shallowest level among the others (fenced code skipped) starts a piece
  that runs to the next one; the text before the first is a piece of its own, under the
  file's title; a file without such headings is one piece;
- a piece that holds nothing but headings and blank lines (a bare title, an empty section) is
  not imported, and is reported as such.

Each piece keeps its line range in the file and the sha256 of its lines as they are there;
its body drops its heading (the rule's title) and lifts its sub-headings so the shallowest is
`#` (a rule's projection puts them below the rule's own heading).
"""

from __future__ import annotations

import re

_HEADING = r" {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*"  # compiled (and cached) by
_FENCE = r" {0,3}(`{3,}|~{3,})"  # `re` the first time a file is cut


class Piece:
    """One piece: its lines in the file (1-based, inclusive), their sha256, title and body."""

    __slots__ = ("body", "first", "last", "sha256", "title")

    def __init__(self, first: int, last: int, sha256: str, title: str, body: str) -> None:
        self.first = first
        self.last = last
        self.sha256 = sha256
        self.title = title  # '' when the file gives none (its name stands in)
        self.body = body


class Split:
    """A file's pieces, and the line ranges of the text that is not imported, with why."""

    __slots__ = ("left", "pieces")

    def __init__(self) -> None:
        self.pieces: list[Piece] = []
        self.left: list[tuple[int, int, str]] = []


Line = tuple[int, str]  # (1-based line number, the line with its line break)


def split(lines: list[Line]) -> Split:
    """Cut `lines` (what is left of the file once the tool's text and the front matter are
    out) into pieces."""
    found = Split()
    marks = _headings(lines)
    title = _title(lines, marks)
    rest = {i: level for i, level in marks.items() if i != title}
    level = min(rest.values(), default=0)
    starts = [i for i, found_level in sorted(rest.items()) if found_level == level]
    bounds = [0, *starts] if not starts or starts[0] != 0 else starts
    heads = {*starts, *(() if title is None else (title,))}
    for at, start in enumerate(bounds):
        end = bounds[at + 1] if at + 1 < len(bounds) else len(lines)
        _piece(found, lines, (start, end), heads, (level, marks))
    return found


def _headings(lines: list[Line]) -> dict[int, int]:
    """Index → level of every ATX heading outside fenced code."""
    out: dict[int, int] = {}
    fence = ""
    for index, (_, text) in enumerate(lines):
        bare = text.rstrip("\r\n")
        opened = re.match(_FENCE, bare)
        if opened is not None and (not fence or opened.group(1).startswith(fence)):
            fence = "" if fence else opened.group(1)[:3]
            continue
        match = None if fence else re.fullmatch(_HEADING, bare)
        if match is not None:
            out[index] = len(match.group(1))
    return out


def _title(lines: list[Line], marks: dict[int, int]) -> int | None:
    first = next((i for i, (_, text) in enumerate(lines) if text.strip()), None)
    if first is None or first not in marks:
        return None
    others = [level for i, level in marks.items() if i != first]
    return first if all(level > marks[first] for level in others) else None


def _piece(
    found: Split,
    lines: list[Line],
    span: tuple[int, int],
    heads: set[int],
    levels: tuple[int, dict[int, int]],
) -> None:
    """The piece `lines[start:end]`, trimmed of blank lines; headed when its first line is a
    section heading or the file's title."""
    start, end = span
    while end > start and not lines[end - 1][1].strip():
        end -= 1
    while start < end and not lines[start][1].strip():
        start += 1
    if start == end:
        return
    level, marks = levels
    headed = start in heads
    body = range(start + 1 if headed else start, end)
    first, last = lines[start][0], lines[end - 1][0]
    if all(i in marks or not lines[i][1].strip() for i in body):
        found.left.append((first, last, "holds nothing but headings"))
        return
    title = heading_text(lines[start][1]) if headed else ""
    lifted = [_lift(lines[i][1], level) if i in marks else lines[i][1] for i in body]
    raw = "".join(text for _, text in lines[start:end])
    found.pieces.append(Piece(first, last, digest(raw), title, normal("".join(lifted))))


def heading_text(line: str) -> str:
    match = re.fullmatch(_HEADING, line.rstrip("\r\n"))
    return one_line(match.group(2) or "") if match else one_line(line)


def _lift(line: str, level: int) -> str:
    match = re.fullmatch(_HEADING, line.rstrip("\r\n"))
    assert match is not None
    depth = max(1, len(match.group(1)) - level)
    return "#" * depth + " " + (match.group(2) or "") + "\n"


def one_line(text: str) -> str:
    """A title as a rule's front matter can hold it: one line of printable text."""
    return " ".join("".join(c if c.isprintable() else " " for c in text).split())


def normal(text: str) -> str:
    """Text as pieces are compared: no `\\r`, no trailing blanks, one blank line at most
    between lines, none at either end."""
    out: list[str] = []
    for line in text.replace("\r", "").split("\n"):
        kept = line.rstrip()
        if kept or (out and out[-1]):
            out.append(kept)
    while out and not out[-1]:
        out.pop()
    return "\n".join(out)


def digest(text: str) -> str:
    from mj_core import sha

    return str(sha.hexdigest(text.encode("utf-8", "surrogateescape")))
