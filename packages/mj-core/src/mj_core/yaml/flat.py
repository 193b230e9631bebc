"""The flattest shape of the strict YAML subset, read without positions: one `key: value` a
line at the left margin, each value a one-line scalar or flow sequence of scalars, comments and
blank lines between. A plan's issue and milestone files are written so.

`read(text)` gives the data `yaml.strict.parse` gives for such a text, or None for anything
else — a nested block, an empty value, a document marker, a tab, any scalar the line reader
(`yaml.fast`) would not take — so a caller then parses the text in full, with the positions an
error message needs. The scalars are read by `yaml.fast`'s own rules; only the positions and the
general block structure are left out, which is where the line reader spends its time.
"""

from __future__ import annotations

from mj_core.yaml.fast import _INDICATORS
from mj_core.yaml.fast import _KEY_MAX
from mj_core.yaml.fast import _NOT_IN_FLOW
from mj_core.yaml.fast import _after
from mj_core.yaml.fast import _Decline
from mj_core.yaml.fast import _plain
from mj_core.yaml.fast import _quoted
from mj_core.yaml.fast import _skip
from mj_core.yaml.fast import _split_key
from mj_core.yaml.scalars import _NUMBER_FIRST
from mj_core.yaml.scalars import _WORD_FIRST

_KEYS: dict[str, str] = {}  # the plain keys read so far: the text before `: ` and the key
_PLAIN: dict[str, tuple[Any]] = {}  # the plain scalars read so far, each with its value
_VALUES: dict[str, Any] = {}  # the values `_simple` read so far (a list as a tuple)
_PAIR: Any = None  # `_pairs`' expression, compiled on first use
_SPECIAL = _INDICATORS | _WORD_FIRST | _NUMBER_FIRST  # a plain scalar opening otherwise is text

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from typing import Any


def read(text: str) -> dict[str, Any] | None:
    """The mapping of a flat text, or None when the text is not flat (parse it in full)."""
    if not text.replace("\n", "").isprintable():
        return None  # tabs, CR, BOM, controls, line separators
    try:
        pairs = _pairs(text)
        return _lines(text) if pairs is None else _simple(pairs)
    except (_Decline, RecursionError):
        return None


def _pairs(text: str) -> list[tuple[str, str]] | None:
    """Each line's (key, value text) when every line is `key: value` with a key of lower-case
    letters, digits and underscores and a value not opening with a comment, else None."""
    global _PAIR
    if _PAIR is None:
        import re

        _PAIR = re.compile(r"^([a-z_][a-z0-9_]*): +([^ #\n][^\n]*)$", re.M).findall
    pairs: list[tuple[str, str]] = _PAIR(text)
    lines = text.count("\n") + (text[-1:] != "\n")
    return pairs if len(pairs) == lines else None


def _simple(pairs: list[tuple[str, str]]) -> dict[str, Any] | None:
    """`_lines` of a text whose lines `_pairs` took, without looking at each line's shape."""
    out: dict[str, Any] = {}
    keys, values = _KEYS, _VALUES
    for raw, said in pairs:
        key = keys.get(raw) or _new_key(raw)
        text = said.rstrip(" ") if said[-1] == " " else said
        if text[0] not in _SPECIAL and ": " not in text and " #" not in text and text[-1] != ":":
            out[key] = text  # plain text no YAML type takes (`yaml.fast._plain`)
            continue
        value = values.get(text, values)  # the memory itself stands for "not met yet"
        if value is values:
            value = _inline(text)
            if len(values) >= 8192:
                values.clear()  # the values met often are soon met again
            values[text] = tuple(value) if type(value) is list else value
        elif type(value) is tuple:
            value = list(value)
        out[key] = value
    return out if len(out) == len(pairs) else None  # fewer: a key written twice


def _new_key(raw: str) -> str:
    """The key a plain `raw` reads as, remembered; `_Decline` when it is not a string."""
    key = _plain(raw) if len(raw) <= _KEY_MAX else None
    if not isinstance(key, str):
        raise _Decline
    _remember(raw, key)
    return key


def _lines(text: str) -> dict[str, Any] | None:
    """The mapping of a flat text read line by line (any flat shape)."""
    out: dict[str, Any] = {}
    for line in text.split("\n"):
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
    """`yaml.fast._Reader.flow` without the marks."""
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
