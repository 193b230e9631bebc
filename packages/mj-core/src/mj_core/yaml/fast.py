r"""A line reader for the common shape of the strict YAML subset, without PyYAML.

It reads block mappings and sequences (compact `- key: value` items, indentless sequences under
a key), one-line plain, single- and double-quoted scalars, one-line flow sequences of scalars,
comments, blank lines and one leading `---`; double quotes may hold the escapes `\\ \" \n \t \r
\0 \xXX \uXXXX \UXXXXXXXX`. It gives the data and marks the event reader gives, or None for
anything else — tabs, control characters, other escapes, multi-line scalars, anchors, tags, flow
mappings, a second document, nesting past `limits.NESTING`, any construct that reader would
refuse — so the event reader stays the one place that explains a refusal.
"""

from __future__ import annotations

from mj_core.limits import NESTING
from mj_core.yaml.scalars import _NUMBER_FIRST
from mj_core.yaml.scalars import _WORD_FIRST
from mj_core.yaml.scalars import plain_value

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from typing import Any

    Line = tuple[int, int, str]  # (row from 0, column from 0, text from the column on)

_INDICATORS = frozenset("-?:,[]{}#&*!|>'\"%@`")
_NOT_IN_FLOW = frozenset("[]{}#,:?'\"")
_SIMPLE_ESCAPES = {"\\": "\\", '"': '"', "n": "\n", "t": "\t", "r": "\r", "0": "\0"}
_HEX_ESCAPES = {"x": 2, "u": 4, "U": 8}
_HEX = frozenset("0123456789abcdefABCDEF")
_AGREED: dict[str, tuple[bool, Any]] = {}  # plain_value of the plain scalars already seen
_KEY_MAX = 1000  # YAML parsers refuse an implicit key over 1024 characters


class _Decline(Exception):
    """The text is not in the shape this reader is sure about."""


def read(
    text: str, offset: int = 0
) -> tuple[Any, dict[tuple[str | int, ...], tuple[int, int]]] | None:
    """(data, marks) as the event reader gives them for `text`, or None outside the shape."""
    try:
        reader = _Reader(_content_lines(text), offset)
        if not reader.lines:
            return None, {}
        data = reader.block(reader.lines[0][1], ())
    except (_Decline, RecursionError):
        return None
    return (data, reader.marks) if reader.at == len(reader.lines) else None


def _content_lines(text: str) -> list[Line]:
    lines: list[Line] = []
    for row, line in enumerate(text.split("\n")):
        if not line.isprintable():
            raise _Decline  # tabs, CR, BOM, controls, line separators
        body = line.lstrip(" ")
        if not body or body[0] == "#":
            continue
        if line[:3] in ("---", "...") and line[3:4] in ("", " "):  # a document marker
            if lines or line.rstrip(" ") != "---":
                raise _Decline
            lines.append((row, -1, ""))  # the document start, dropped below
            continue
        lines.append((row, len(line) - len(body), body.rstrip(" ")))
    return [line for line in lines if line[1] >= 0]


def _is_entry(body: str) -> bool:
    return body == "-" or body.startswith("- ")


def _after(tail: str) -> None:
    """What follows a quoted scalar or a flow sequence on its line: nothing or a comment."""
    if tail and not (tail[0] == " " and tail.lstrip(" ").startswith("#")):
        raise _Decline


def _quoted(text: str, start: int) -> tuple[str, int]:
    """(value, index after the closing quote) of a one-line quoted scalar at `start`."""
    if text[start] == '"':
        return _double(text, start + 1)
    at = start + 1
    while True:
        end = text.find("'", at)
        if end < 0:
            raise _Decline  # continues on the next line
        if not text.startswith("''", end):
            return text[start + 1 : end].replace("''", "'"), end + 1
        at = end + 2


def _double(text: str, at: int) -> tuple[str, int]:
    out: list[str] = []
    while True:
        quote = text.find('"', at)
        if quote < 0:
            raise _Decline  # continues on the next line
        slash = text.find("\\", at, quote)
        if slash < 0:
            out.append(text[at:quote])
            return "".join(out), quote + 1
        out.append(text[at:slash])
        char, at = _escape(text, slash + 1)
        out.append(char)


def _escape(text: str, at: int) -> tuple[str, int]:
    """The character a backslash escape at `at` (after the backslash) stands for."""
    code = text[at : at + 1]
    if code in _SIMPLE_ESCAPES:
        return _SIMPLE_ESCAPES[code], at + 1
    size = _HEX_ESCAPES.get(code, 0)
    digits = text[at + 1 : at + 1 + size]
    if not size or len(digits) != size or not _HEX.issuperset(digits):
        raise _Decline
    value = int(digits, 16)
    if 0xD800 <= value <= 0xDFFF or value > 0x10FFFF:
        raise _Decline
    return chr(value), at + 1 + size


def _plain(text: str, banned: frozenset[str] | None = None) -> Any:
    if not text:
        raise _Decline
    if text[0] in _INDICATORS and (text[0] != "-" or text[1:2] in ("", " ")):
        raise _Decline  # `-1` and `-x` are plain, `- x` is a sequence entry
    if ": " in text or " #" in text or text[-1] == ":":
        raise _Decline
    if banned is not None and not banned.isdisjoint(text):
        raise _Decline
    if text[0] not in _WORD_FIRST and text[0] not in _NUMBER_FIRST:
        return text  # no YAML 1.1 or 1.2 type but text opens so: `plain_value` agrees at once
    known = _AGREED.get(text)
    if known is None:
        known = plain_value(text)
        if len(_AGREED) < 4096:
            _AGREED[text] = known
    if not known[0]:
        raise _Decline
    return known[1]


def _split_key(body: str) -> tuple[str, int] | None:
    """(key, index after its ':') when `body` opens with `key:` and a space or the line end."""
    if body[0] in "\"'":
        key, end = _quoted(body, 0)
        if end > _KEY_MAX or body[end : end + 1] != ":" or body[end + 1 : end + 2] not in ("", " "):
            return None
        return key, end + 1
    colon = body.find(": ")
    if colon < 0:
        colon = len(body) - 1 if body.endswith(":") else -1
    if colon < 0 or colon > _KEY_MAX:
        return None
    key = _plain(body[:colon].rstrip(" "))
    if not isinstance(key, str):
        raise _Decline
    return key, colon + 1


class _Reader:
    def __init__(self, lines: list[Line], offset: int) -> None:
        self.lines = lines
        self.offset = offset
        self.at = 0
        self.marks: dict[tuple[str | int, ...], tuple[int, int]] = {}

    def mark(self, path: tuple[str | int, ...], row: int, col: int) -> None:
        self.marks[path] = (row + 1 + self.offset, col + 1)

    def column(self) -> int:
        """The column of the next content line, -1 at the end."""
        return self.lines[self.at][1] if self.at < len(self.lines) else -1

    def block(self, col: int, path: tuple[str | int, ...]) -> Any:
        if _is_entry(self.lines[self.at][2]):
            return self.sequence(col, path)
        return self.mapping(col, path)

    def sequence(self, col: int, path: tuple[str | int, ...]) -> list[Any]:
        _not_too_deep(path)
        out: list[Any] = []
        while self.column() == col and _is_entry(self.lines[self.at][2]):
            row, _, body = self.lines[self.at]
            item = body[1:].lstrip(" ")
            if not item or _is_entry(item):
                raise _Decline  # an empty item or a sequence in a sequence
            start = col + len(body) - len(item)
            here = (*path, len(out))
            self.mark(here, row, start)
            if _split_key(item) is not None:
                self.lines[self.at] = (row, start, item)  # a compact mapping opens here
                out.append(self.mapping(start, here))
            else:
                out.append(self.inline(item, row, start, here))
                self.at += 1
                self.not_deeper(col)
        return out

    def mapping(self, col: int, path: tuple[str | int, ...]) -> dict[str, Any]:
        _not_too_deep(path)
        out: dict[str, Any] = {}
        while self.column() >= col:
            if self.column() > col:
                raise _Decline
            row, _, body = self.lines[self.at]
            split = _split_key(body)
            if split is None or split[0] in out:
                raise _Decline
            key, after = split
            here = (*path, key)
            self.mark(here, row, col)
            rest = body[after:].lstrip(" ")
            if rest and rest[0] != "#":
                out[key] = self.inline(rest, row, col + len(body) - len(rest), here)
                self.at += 1
                self.not_deeper(col)
                continue
            self.at += 1
            below = self.column()
            if below > col:
                out[key] = self.block(below, here)
            elif below == col and _is_entry(self.lines[self.at][2]):
                out[key] = self.sequence(col, here)
            else:
                out[key] = None  # `key:` alone reads as the empty plain scalar
        return out

    def not_deeper(self, col: int) -> None:
        if self.column() > col:
            raise _Decline  # a scalar continued on the next line, or a misplaced node

    def inline(self, text: str, row: int, col: int, path: tuple[str | int, ...]) -> Any:
        if text[0] in "\"'":
            value, end = _quoted(text, 0)
            _after(text[end:])
            return value
        if text[0] == "[":
            return self.flow(text, row, col, path)
        cut = text.find(" #")
        return _plain(text if cut < 0 else text[:cut].rstrip(" "))

    def flow(self, text: str, row: int, col: int, path: tuple[str | int, ...]) -> list[Any]:
        _not_too_deep(path)
        out: list[Any] = []
        at = _skip(text, 1)
        if text[at : at + 1] == "]":
            _after(text[at + 1 :])
            return out
        while True:
            self.mark((*path, len(out)), row, col + at)
            if text[at : at + 1] in ("'", '"'):
                value, at = _quoted(text, at)
            else:
                end = at
                while end < len(text) and text[end] not in ",]":
                    end += 1
                value = _plain(text[at:end].rstrip(" "), _NOT_IN_FLOW)
                at = end
            out.append(value)
            at = _skip(text, at)
            if text[at : at + 1] == "]":
                _after(text[at + 1 :])
                return out
            if text[at : at + 1] != ",":
                raise _Decline
            at = _skip(text, at + 1)
            if text[at : at + 1] in ("]", ",", ""):
                raise _Decline  # a trailing or doubled comma


def _not_too_deep(path: tuple[str | int, ...]) -> None:
    if len(path) >= NESTING:
        raise _Decline  # the event reader names the limit


def _skip(text: str, at: int) -> int:
    while text[at : at + 1] == " ":
        at += 1
    return at
