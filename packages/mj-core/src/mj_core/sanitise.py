"""Text that came from a file or from git, made safe to print: the one sanitiser.

- `undecodable`: a name git gave as bytes that are not UTF-8 is carried as text with surrogate
  escapes (`os.fsdecode`); printed, each such byte reads `\\xNN`, never a UnicodeEncodeError.
- `line`: control characters other than tab are removed — whole terminal escape sequences
  (CSI, OSC), C0 and C1 controls, DEL, Unicode line and paragraph separators and the
  bidirectional overrides that reorder what a terminal shows — and a line wider than `width`
  characters is cut with `…`.
- `body_line`: `line`, and a line that would read as a heading (`#` first, or a Markdown
  underline of `=` or `-`) is indented, so stored text cannot forge a section of the output.

- `terminal`: every control character shown, not obeyed: C0 but newline and tab, DEL, C1, the
  line and paragraph separators and the bidirectional marks, overrides and isolates each become
  its visible escape (`\\x1b`, `\\u202e`), so a terminal sequence prints as inert text.

`ESCAPE` is the codec error handler the tools' text streams use (`register` installs it).
`escape_streams` puts the process's stdout and stderr through `terminal` at the one place every
renderer writes (the stream's encoder, `TERMINAL`): a renderer cannot forget it. A machine
stream (`--json`, a client protocol) takes `plain_stdout` — JSON keeps its exact data.
"""

from __future__ import annotations

import codecs
import re
import sys

ESCAPE = "mj-escape"
TERMINAL = "mj-terminal"
_SHOWN = (*range(0x09), *range(0x0B, 0x20), *range(0x7F, 0xA0))  # C0 but \t \n, DEL, C1
_SHOWN_WIDE = (
    0x061C,
    0x200E,
    0x200F,
    0x2028,
    0x2029,
    *range(0x202A, 0x202F),
    *range(0x2066, 0x206A),
)
_table: dict[int, str] = {}  # built on first use
_registered: list[bool] = []  # the codec search function is installed once a process
_plain: dict[int, str] = {}  # id(stream) → the encoding it had before `escape_streams`
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


def terminal(text: str) -> str:
    """`text` with each control character as its visible escape (newline and tab kept)."""
    if text.isprintable():
        return text
    if not _table:
        _table.update({code: f"\\x{code:02x}" for code in _SHOWN})
        _table.update({code: f"\\u{code:04x}" for code in _SHOWN_WIDE})
    return text.translate(_table)


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


def _search(name: str) -> codecs.CodecInfo | None:
    """`mj-terminal` (UTF-8) or `mj-terminal-<encoding>`: `terminal(text)` in that encoding."""
    prefix = TERMINAL.replace("-", "_")
    if not name.startswith(prefix):
        return None
    target = codecs.lookup(name[len(prefix) :].lstrip("_") or "utf-8")

    class Encoder(codecs.IncrementalEncoder):  # one character at a time: a write ends anywhere
        def encode(self, text: str, final: bool = False) -> bytes:
            return target.encode(terminal(text), self.errors)[0]

    def encode(text: str, errors: str = "strict") -> tuple[bytes, int]:
        return target.encode(terminal(text), errors)[0], len(text)

    return codecs.CodecInfo(
        encode, target.decode, name=name, incrementalencoder=Encoder,
        incrementaldecoder=target.incrementaldecoder,
        streamreader=target.streamreader, streamwriter=target.streamwriter,
    )  # fmt: skip


def escape_streams() -> None:
    """The process's stdout and stderr show every control character escaped (`terminal`) and
    print undecodable file names escaped, never raising; `restore_streams` undoes it."""
    register()
    if not _registered:
        codecs.register(_search)
        _registered.append(True)
    for stream in (sys.stdout, sys.stderr):
        _reencode(stream, TERMINAL)


def plain_stdout() -> None:
    """stdout as it was (a machine stream: `--json`, a client protocol), names still escaped."""
    _reencode(sys.stdout, None)


def restore_streams() -> None:
    """stdout and stderr back to the encoding each had before `escape_streams`."""
    for stream in (sys.stdout, sys.stderr):
        try:
            _reencode(stream, None)
        except (OSError, ValueError):  # closed, or the reader went away: nothing more to say
            continue


def _reencode(stream: object, encoding: str | None) -> None:
    reconfigure = getattr(stream, "reconfigure", None)
    current = getattr(stream, "encoding", None)
    if reconfigure is None or not isinstance(current, str):
        return
    escaped = current.startswith(TERMINAL)
    if encoding is None:
        encoding = _plain.get(id(stream), current)
    elif not escaped:
        _plain[id(stream)] = current
        base = codecs.lookup(current).name  # the stream's own encoding, escaped
        encoding = TERMINAL if base == "utf-8" else f"{TERMINAL}-{base}"
    else:
        encoding = current
    if encoding != current or getattr(stream, "errors", None) != ESCAPE:
        reconfigure(encoding=encoding, errors=ESCAPE)
