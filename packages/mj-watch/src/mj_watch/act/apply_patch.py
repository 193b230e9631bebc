"""The files an `apply_patch` text writes, read as the client that applies it reads it (pure).

Codex CLI (and Copilot CLI with an OpenAI-style model) edits files through `apply_patch`,
whose targets are inside the patch text:

    *** Begin Patch
    *** Add File: <path>          (then lines that begin with `+`)
    *** Delete File: <path>
    *** Update File: <path>       (then, at once, an optional `*** Move to: <path>` line,
                                   then chunks: `@@` lines, ` `/`+`/`-` lines,
                                   `*** End of File`)
    *** End Patch

It is read the way Codex CLI 0.171.0 reads it (its parser is lenient in a few known ways):
the text is trimmed of white space, split into lines at `\\n` (a `\\r` before it dropped); the
first and last lines, trimmed, must be the begin and end markers — or, wrapped in a
here-document's `<<EOF` / `<<'EOF'` / `<<"EOF"` line and a last line ending in `EOF`, the
lines inside must. A hunk's header line is trimmed and its path is what follows the marker;
the `*** Move to: ` line is taken as it is, not trimmed. White space is Rust's (`char::
is_whitespace`), not Python's. A text that does not read this way is `Unreadable`: the client
refuses it whole and writes nothing, and the hook lets the call through unjudged.

`targets(text)` lists (operation, path) in the order of the hunks: `add`, `delete`, `update`,
and `move` for the destination of a moved file (its source is the `update`). Paths are as the
text gives them; where they land (relative to the client's directory, `..`, symbolic links)
is `act.facts`' to read.
"""

from __future__ import annotations

BEGIN = "*** Begin Patch"
END = "*** End Patch"
ADD = "*** Add File: "
DELETE = "*** Delete File: "
UPDATE = "*** Update File: "
MOVE = "*** Move to: "
END_OF_FILE = "*** End of File"
HEREDOC = ("<<EOF", "<<'EOF'", '<<"EOF"')
# Rust's `char::is_whitespace` (Unicode White_Space): what `str::trim` removes
SPACE = (
    "\t\n\x0b\x0c\r \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008"
    "\u2009\u200a\u2028\u2029\u202f\u205f\u3000"
)


class Unreadable(ValueError):
    """The text is not a patch the client would apply."""


def targets(text: str) -> list[tuple[str, str]]:
    """(operation, path) of each file the patch writes, in order (Unreadable: none)."""
    lines = _lines(text.strip(SPACE))
    body = _body(lines)
    found: list[tuple[str, str]] = []
    at = 0
    while at < len(body):
        at = _hunk(body, at, found)
    return found


def _lines(text: str) -> list[str]:
    """Rust's `str::lines`: split at `\\n`, a `\\r` before it dropped, no empty last line."""
    if not text:
        return []
    parts = text.split("\n")
    if parts[-1] == "":
        parts.pop()
    return [p[:-1] if p.endswith("\r") else p for p in parts]


def _body(lines: list[str]) -> list[str]:
    """The hunk lines between the markers (the here-document wrapper allowed around them)."""
    if _marked(lines):
        return lines[1:-1]
    wrapped = len(lines) >= 4 and lines[0] in HEREDOC and lines[-1].endswith("EOF")
    if wrapped and _marked(lines[1:-1]):
        return lines[2:-2]
    if not lines or lines[0].strip(SPACE) != BEGIN:
        raise Unreadable("its first line is not '*** Begin Patch'")
    raise Unreadable("its last line is not '*** End Patch'")


def _marked(lines: list[str]) -> bool:
    return len(lines) >= 2 and lines[0].strip(SPACE) == BEGIN and lines[-1].strip(SPACE) == END


def _hunk(body: list[str], at: int, found: list[tuple[str, str]]) -> int:
    """Read the hunk at line `at` into `found`; the line after it."""
    head = body[at].strip(SPACE)
    if head.startswith(ADD):
        found.append(("add", head[len(ADD) :]))
        at += 1
        while at < len(body) and body[at].startswith("+"):
            at += 1
        return at
    if head.startswith(DELETE):
        found.append(("delete", head[len(DELETE) :]))
        return at + 1
    if head.startswith(UPDATE):
        found.append(("update", head[len(UPDATE) :]))
        return _update(body, at + 1, found)
    raise Unreadable(f"not a hunk header: {_shown(head)}")


def _update(body: list[str], at: int, found: list[tuple[str, str]]) -> int:
    if at < len(body) and body[at].startswith(MOVE):
        found.append(("move", body[at][len(MOVE) :]))
        at += 1
    chunks = 0
    while at < len(body):
        if not body[at].strip(SPACE):
            at += 1
        elif body[at].startswith("*"):
            break
        else:
            at = _chunk(body, at, first=chunks == 0)
            chunks += 1
    if chunks == 0:
        raise Unreadable(f"the update of {_shown(found[-1][1])} changes nothing")
    return at


def _chunk(body: list[str], at: int, *, first: bool) -> int:
    """One chunk of an update: an `@@` line (the first chunk may go without), then context,
    added and removed lines, an optional `*** End of File`; the line after it."""
    if body[at] == "@@" or body[at].startswith("@@ "):
        at += 1
    elif not first:
        raise Unreadable(f"a chunk that does not begin with '@@': {_shown(body[at])}")
    read = 0
    while at < len(body):
        line = body[at]
        if line == END_OF_FILE:
            if read == 0:
                break
            return at + 1
        if line[:1] not in ("", " ", "+", "-"):
            break
        read += 1
        at += 1
    if read == 0:
        raise Unreadable("a chunk that holds no line")
    return at


def _shown(text: str) -> str:
    return repr(text[:80])
