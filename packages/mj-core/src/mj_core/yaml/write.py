"""The tool's own YAML writer (`yaml.strict.dump`): block style, in the strict subset.

A string is written plain only when no resolver could read it as anything but that string:
YAML 1.1 as PyYAML reads it and as its specification reads it (`y`, `n`, `1.0.2` as a float),
YAML 1.2 core, and any capitalisation of a word some resolver types (`True`, `NULL`, `Off`,
`.NaN`); so dates, versions, numbers-in-text, and anything starting with a digit or a dot
that holds only number characters, are double-quoted (a lone `.`, which only the 1.1
specification's float pattern would take and no parser does, stays plain); and nothing the
reader would refuse is left plain. Floats keep a `.` and a signed exponent (`1.0e-05`), which
both YAML versions read as a float. What the reader refuses the writer refuses too
(ValueError): integers past 64 bits, infinities and NaN, implicit keys over 1,000
characters. A name git gave as bytes that are not UTF-8 (surrogate escapes) is written in its
printed form, each such byte as the four characters `\\xNN`.
"""

from __future__ import annotations

from mj_core.sanitise import undecodable
from mj_core.yaml.scalars import plain_value
from mj_core.yaml.scalars import resolve11
from mj_core.yaml.scalars import resolve12

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from collections.abc import Iterator
    from re import Pattern
    from typing import Any

_SAFE_PLAIN = r"[A-Za-z0-9_./(~][A-Za-z0-9_./()~+=@ ,:<>*-]*"
_NUMBERISH = frozenset("0123456789+-._:eE")
_WORDS = frozenset(("y", "n", "yes", "no", "on", "off", "true", "false", "null", "nan", "inf"))
_compiled: list[Pattern[str]] = []
_INT64 = 1 << 63
_KEY_MAX = 1000


def _safe_plain_match(text: str) -> bool:
    if not _compiled:
        import re

        _compiled.append(re.compile(_SAFE_PLAIN))
    return _compiled[0].fullmatch(text) is not None


def plain_is_safe(text: str) -> bool:
    """True when `text` may be written plain: every resolver reads it back as this string."""
    if not text or not _safe_plain_match(text) or ": " in text or text.endswith((" ", ":")):
        return False
    if text.startswith("..."):
        return False  # at the start of a line, a document end marker
    if text.lower().lstrip(".") in _WORDS:
        return False
    if text != "." and text[0] in "0123456789." and _NUMBERISH.issuperset(text):
        return False  # `1.0.2`, `1_000`, `1:20`, `1e3`, `._`: numbers to some resolver
    types = resolve11(text), resolve12(text)
    return types == ("str", "str") and plain_value(text) == (True, text)  # and it reads back


def scalar(value: Any) -> str:
    """One scalar as the writer spells it."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        if not -_INT64 <= value < _INT64:
            raise ValueError(f"integer {value} is outside the subset's 64-bit range")
        return str(value)
    if isinstance(value, float):
        return _float(value)
    text = undecodable(str(value))
    return text if plain_is_safe(text) else _double_quoted(text)


def _float(value: float) -> str:
    if value - value != 0.0:
        raise ValueError(f"{value!r} is not a finite number; the subset has no infinities")
    mantissa, e, exponent = repr(value).partition("e")
    if "." not in mantissa:
        mantissa += ".0"
    if not e:
        return mantissa
    sign = "" if exponent.startswith(("+", "-")) else "+"
    return f"{mantissa}e{sign}{exponent}"


def _yaml_printable(char: str) -> bool:
    code = ord(char)  # YAML 1.1 reads U+0085, U+2028 and U+2029 as line breaks: escape them
    return (
        0x20 <= code <= 0x7E
        or (0xA0 <= code <= 0xD7FF and code not in (0x2028, 0x2029))
        or (0xE000 <= code <= 0xFFFD and code != 0xFEFF)
        or code >= 0x10000
    )


def _double_quoted(text: str) -> str:
    out = []
    for char in text:
        if char in '"\\':
            out.append("\\" + char)
        elif _yaml_printable(char):
            out.append(char)
        elif ord(char) <= 0xFFFF:
            out.append(f"\\u{ord(char):04x}")
        else:
            out.append(f"\\U{ord(char):08x}")
    return '"' + "".join(out) + '"'


def dump(data: dict[str, Any]) -> str:
    """Emit a mapping in the subset: block style, plain scalars where safe, else double-quoted."""
    return "".join(_emit_mapping(data, 0))


def _key(key: Any) -> str:
    text = scalar(key)
    if len(text) > _KEY_MAX:
        raise ValueError(f"a key of {len(text)} characters is over the subset's {_KEY_MAX}")
    return text


def _emit_mapping(data: dict[str, Any], indent: int) -> Iterator[str]:
    pad = " " * indent
    for key, value in data.items():
        if isinstance(value, dict):
            if not value:
                raise ValueError(f"cannot emit an empty mapping for {key!r} in the subset")
            yield f"{pad}{_key(key)}:\n"
            yield from _emit_mapping(value, indent + 2)
        elif isinstance(value, list):
            if not value:
                yield f"{pad}{_key(key)}: []\n"
                continue
            yield f"{pad}{_key(key)}:\n"
            yield from _emit_sequence(value, indent + 2)
        else:
            yield f"{pad}{_key(key)}: {scalar(value)}\n"


def _emit_sequence(items: list[Any], indent: int) -> Iterator[str]:
    pad = " " * indent
    for item in items:
        if isinstance(item, dict):
            if not item:
                raise ValueError("cannot emit an empty mapping in a sequence in the subset")
            lines = list(_emit_mapping(item, indent + 2))
            yield f"{pad}- {lines[0].lstrip()}"
            yield from lines[1:]
        elif isinstance(item, list):
            raise ValueError("nested sequences are outside the subset's emitter")
        else:
            yield f"{pad}- {scalar(item)}\n"
