"""The flattest shape of the strict YAML subset, read without positions: one `key: value` a
line at the left margin, each value a one-line scalar or flow sequence of scalars, comments and
blank lines between. A plan's issue and milestone files are written so.

`read(text)` gives the data `yamlstrict.parse` gives for such a text, or None for anything
else — a nested block, an empty value, a document marker, a tab, any scalar the line reader
(`yamlfast`) would not take — so a caller then parses the text in full, with the positions an
error message needs. The scalars are read by `yamlfast`'s own rules; only the positions and the
general block structure are left out, which is where the line reader spends its time.
"""

from __future__ import annotations

from mj_core.yamlfast import _NOT_IN_FLOW
from mj_core.yamlfast import _after
from mj_core.yamlfast import _Decline
from mj_core.yamlfast import _plain
from mj_core.yamlfast import _quoted
from mj_core.yamlfast import _skip
from mj_core.yamlfast import _split_key

_KEYS: dict[str, str] = {}  # the plain keys read so far: the text before `: ` and the key
_PLAIN: dict[str, tuple[Any]] = {}  # the plain scalars read so far, each with its value

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from typing import Any


def read(text: str) -> dict[str, Any] | None:
    """The mapping of a flat text, or None when the text is not flat (parse it in full)."""
    lines = text.split("\n")
    if not "".join(lines).isprintable():
        return None  # tabs, CR, BOM, controls, line separators
    out: dict[str, Any] = {}
    try:
        for line in lines:
            if not line:
                continue
            first = line[0]
            if first in " #":
                body = line.lstrip(" ")
                if not body or body[0] == "#":
                    continue  # a blank or comment line
                return None  # an indented line: a nested block
            if first in "-.":
                return None  # a sequence entry or a document marker
            body = line.rstrip(" ")
            colon = body.find(": ")
            key = _KEYS.get(body[:colon]) if colon > 0 else None
            if key is None:  # a key not seen yet, or one to read the long way
                split = _split_key(body)
                if split is None:
                    return None
                key, colon = split[0], split[1] - 1
                if first not in "\"'" and colon < len(body) and body[colon] == ":":
                    _remember(body[:colon], key)
            if key in out:
                return None
            rest = body[colon + 1 :].lstrip(" ")
            if not rest or rest[0] == "#":
                return None  # a block, or the empty scalar, follows
            out[key] = _inline(rest)
    except (_Decline, RecursionError):
        return None
    return out or None


def _remember(raw: str, key: str) -> None:
    """`raw`, the text before a line's first `: `, reads as the plain key `key`."""
    if len(_KEYS) < 1024 and raw == raw.rstrip(" "):
        _KEYS[raw] = key


def _inline(text: str) -> Any:
    known = _PLAIN.get(text)
    if known is not None:
        return known[0]
    first = text[0]
    if first == '"' and text.count('"') == 2 and text[-1] == '"' and "\\" not in text:
        return text[1:-1]  # the common double-quoted scalar: no escape, nothing after it
    if first == "[" and text[-1] == "]" and text.count("]") == 1 and _unquoted(text):
        return _simple_flow(text[1:-1])
    if first in "\"'":
        value, end = _quoted(text, 0)
        _after(text[end:])
        return value
    if text[0] == "[":
        return _flow(text)
    cut = text.find(" #")
    value = _plain(text if cut < 0 else text[:cut].rstrip(" "))
    if len(_PLAIN) < 4096:
        _PLAIN[text] = (value,)
    return value


def _unquoted(text: str) -> bool:
    return "'" not in text and '"' not in text


def _simple_flow(inner: str) -> list[Any]:
    """`_flow` of `[inner]` when `inner` holds no quote and no `]`: its items are the plain
    scalars between its commas, blanks around them dropped."""
    if not inner.strip(" "):
        return []
    out = []
    for part in inner.split(","):
        item = part.strip(" ")
        if not item:
            raise _Decline  # an empty, trailing or doubled comma
        out.append(_plain(item, _NOT_IN_FLOW))
    return out


def _flow(text: str) -> list[Any]:
    """`yamlfast._Reader.flow` without the marks."""
    out: list[Any] = []
    at = _skip(text, 1)
    if text[at : at + 1] == "]":
        _after(text[at + 1 :])
        return out
    while True:
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
