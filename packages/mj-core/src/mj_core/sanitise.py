"""Text that came from a file or from git, made safe to print: the one sanitiser.

- `undecodable`: a name git gave as bytes that are not UTF-8 is carried as text with surrogate
  escapes (`os.fsdecode`); printed, each such byte reads `\\xNN`, never a UnicodeEncodeError.
- `line`: control characters other than tab are removed — whole terminal escape sequences
  (CSI, OSC), C0 and C1 controls, DEL, Unicode line and paragraph separators and the
  bidirectional overrides that reorder what a terminal shows — and a line wider than `width`
  characters is cut with `…`.
- `body_line`: `line`, and a line that would read as a heading (`#` first, or a Markdown
  underline of `=` or `-`) is indented, so stored text cannot forge a section of the output.

`ESCAPE` is the codec error handler the tools' text streams use (`register` installs it).
"""

from __future__ import annotations

import codecs
import re
import sys

ESCAPE = "mj-escape"
INDENT = "    "  # four spaces: neither a heading nor the start of one
_CONTROL = (
    r"\x1b\[[0-?]*[ -/]*[@-~]"  # CSI: colours, cursor moves, erase
    r"|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\|$)"  # OSC: titles, hyperlinks
    r"|\x1b[@-_]?"  # any other escape
    r"|[\x00-\x08\x0a-\x1f\x7f-\x9f\u2028\u2029\u200e\u200f\u061c\u202a-\u202e\u2066-\u2069]"
)
_UNDERLINE = r"[ ]{0,3}(?:=+|-+|(?:[-*_][ ]*){3,})[ ]*"
_RULE_FIRST = frozenset("=-*_")
_compiled: dict[str, re.Pattern[str]] = {}  # compiled on first use: not on every start-up


def _pattern(source: str) -> re.Pattern[str]:
    found = _compiled.get(source)
    if found is None:
        found = _compiled[source] = re.compile(source)
    return found


def undecodable(text: str) -> str:
    """`text` with each surrogate-escaped byte (and any other lone surrogate) as `\\xNN`."""
    if text.isascii() or not any("\ud800" <= char <= "\udfff" for char in text):
        return text
    return "".join(_escaped(char) for char in text)


def _escaped(char: str) -> str:
    code = ord(char)
    if 0xDC80 <= code <= 0xDCFF:
        return f"\\x{code - 0xDC00:02x}"
    if 0xD800 <= code <= 0xDFFF:
        return f"\\u{code:04x}"
    return char


def line(text: str, width: int | None = None) -> str:
    """One printable line: controls removed, undecodable bytes escaped, cut at `width`."""
    if not text.isprintable():
        text = undecodable(_pattern(_CONTROL).sub("", text))
    if width is not None and len(text) > width:
        return text[: width - 1] + "…"
    return text


def body_line(text: str, width: int | None = None) -> str:
    """`line` for stored text inside a section: a heading-like line is indented."""
    clean = line(text, width)
    stripped = clean.lstrip(" \t")
    underline = stripped[:1] in _RULE_FIRST and _pattern(_UNDERLINE).fullmatch(clean)
    if stripped[:1] == "#" or underline:
        return INDENT + clean
    return clean


def _handler(error: UnicodeError) -> tuple[str, int]:
    if not isinstance(error, UnicodeEncodeError):
        raise error
    bad = error.object[error.start : error.end]
    return "".join(_escaped(char) for char in bad), error.end


def register() -> None:
    """Install `ESCAPE` (idempotent): surrogate bytes print as `\\xNN`, the rest unchanged."""
    try:
        codecs.lookup_error(ESCAPE)
    except LookupError:
        codecs.register_error(ESCAPE, _handler)


def escape_streams() -> None:
    """The process's stdout and stderr print undecodable file names escaped, never raising."""
    register()
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None and getattr(stream, "errors", None) != ESCAPE:
            reconfigure(errors=ESCAPE)
