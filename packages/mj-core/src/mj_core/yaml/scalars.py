"""Implicit scalar types of YAML 1.1 and YAML 1.2 core, and whether the two agree on a scalar.

YAML 1.1 types follow yaml.org/type/{bool,int,float,null,timestamp,merge,value}.html as PyYAML
reads them (no `y`/`n` booleans; a float needs a `.` and a signed exponent; `.5` but not `-.5`),
including that a pattern's `$` also matches before one final line break. Regular expressions are
compiled on the first scalar that can need one: most keys and words are decided by their first
character alone.
"""

from __future__ import annotations

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from re import Pattern
    from typing import Any

Path_ = tuple[str | int, ...]  # where a node sits in a document: keys and item indexes

_BOOL11 = {
    *("yes", "Yes", "YES", "no", "No", "NO", "on", "On", "ON", "off", "Off", "OFF"),
    *("true", "True", "TRUE", "false", "False", "FALSE"),
}
_NULL11 = {"~", "null", "Null", "NULL"}
_WORD_FIRST = frozenset("yYnNtTfFoO~<=!&*")
_NUMBER_FIRST = frozenset("-+0123456789.")
_DIGITS = frozenset("0123456789")
_OCTAL = frozenset("01234567")
_NUMBER11_CHARS = frozenset("0123456789+-._:xbeEabcdefABCDEFinfINFnaNAtTZ \t")
_NUMBER12_CHARS = frozenset("0123456789+-.eE")
_SEPARATORS = frozenset(".:-+_ \t")
_SINGLE = {"<<": "merge", "=": "value", "!": "yaml", "&": "yaml", "*": "yaml"}

_NULL12 = {"", "~", "null", "Null", "NULL"}
_BOOL11_SPEC = {"y", "Y", "n", "N"}  # YAML 1.1 booleans PyYAML does not implement
_INF12 = {".inf", ".Inf", ".INF"}
_NAN12 = {".nan", ".NaN", ".NAN"}
_INT64 = 1 << 63
_IF_TEXT = "quote it if it is text"
_BOOL12 = {"true": True, "True": True, "TRUE": True, "false": False, "False": False, "FALSE": False}

_SEXAGESIMAL = r"(?::[0-5]?[0-9])+"
_INT11 = (
    r"[-+]?(?:0b[01_]+|0[0-7_]+|0|[1-9][0-9_]*|0x[0-9a-fA-F_]+|[1-9][0-9_]*" + _SEXAGESIMAL + ")"
)
_FLOAT11 = (
    r"[-+]?[0-9][0-9_]*\.[0-9_]*(?:[eE][-+][0-9]+)?"
    r"|\.[0-9][0-9_]*(?:[eE][-+][0-9]+)?"
    r"|[-+]?[0-9][0-9_]*" + _SEXAGESIMAL + r"\.[0-9_]*"
    r"|[-+]?\.(?:inf|Inf|INF)"
    r"|\.(?:nan|NaN|NAN)"
)
_TIMESTAMP11 = (
    r"[0-9]{4}-[0-9]{2}-[0-9]{2}"
    r"|[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}(?:[Tt]|[ \t]+)[0-9]{1,2}:[0-9]{2}:[0-9]{2}(?:\.[0-9]*)?"
    r"(?:[ \t]*(?:Z|[-+][0-9]{1,2}(?::[0-9]{2})?))?"
)
_INT12 = r"[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+"
_FLOAT12 = r"[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?"
_compiled: dict[str, Pattern[str]] = {}


def _full(pattern: str, text: str) -> bool:
    compiled = _compiled.get(pattern)
    if compiled is None:
        import re

        compiled = _compiled[pattern] = re.compile(pattern)
    return compiled.fullmatch(text) is not None


def _decimal(text: str) -> bool:
    """`[0-9]+\\.[0-9]*`: a float in YAML 1.1 and 1.2 alike."""
    whole, dot, part = text.partition(".")
    return bool(dot) and text.isascii() and whole.isdigit() and (part.isdigit() or not part)


def _stamp(text: str) -> bool:
    """`YYYY-MM-DD` or `YYYY-MM-DDTHH:MM:SSZ`, the dates the tool writes, decided without a
    pattern (no number pattern allows a `-` after a digit, so only the date pattern can match)."""
    if len(text) not in (10, 20) or not text.isascii():
        return False
    if text[4] != "-" or text[7] != "-" or not (text[:4] + text[5:7] + text[8:10]).isdigit():
        return False
    if len(text) == 10:
        return True
    return (
        text[10] == "T"
        and text[13] == ":"
        and text[16] == ":"
        and text[19] == "Z"
        and (text[11:13] + text[14:16] + text[17:19]).isdigit()
    )


def resolve11(value: str) -> str:
    """The YAML 1.1 tag (`str`, `bool`, `int`, `float`, `null`, `timestamp`, ...) of a scalar."""
    if value == "":
        return "null"
    first = value[0]
    if first not in _WORD_FIRST and first not in _NUMBER_FIRST:
        return "str"
    core = value[:-1] if value.endswith("\n") else value  # `$` matches before a final line break
    if core in _BOOL11:
        return "bool"
    if core in _NULL11:
        return "null"
    if core in _SINGLE:
        return _SINGLE[core]
    if first not in _NUMBER_FIRST:
        return "str"
    if core.isascii() and core.isdigit():  # the common number, decided without a pattern
        return "int" if first != "0" or len(core) == 1 or _OCTAL.issuperset(core) else "str"
    if _decimal(core):
        return "float"
    if not _NUMBER11_CHARS.issuperset(core):
        return "str"  # a character no number or date pattern holds
    if _stamp(core):
        return "timestamp"
    if _SEPARATORS.isdisjoint(core) and core[:2] not in ("0x", "0b"):
        return "str"  # e.g. a commit SHA: every float, date and sexagesimal needs one of them
    if _DIGITS.isdisjoint(core):  # e.g. `.` or `-`: only infinity and not-a-number lack a digit
        unsigned = core[1:] if core[0] in "+-" else core
        return "float" if unsigned in _INF12 or core in _NAN12 else "str"
    if _full(_FLOAT11, core):
        return "float"
    if first != "." and _full(_INT11, core):
        return "int"
    if first in _DIGITS and _full(_TIMESTAMP11, core):
        return "timestamp"
    return "str"


def resolve12(value: str) -> str:
    """The YAML 1.2 core-schema tag (`str`, `bool`, `int`, `float`, `null`) of a plain scalar."""
    if value in _NULL12:
        return "null"
    if value in _BOOL12:
        return "bool"
    if value[0] not in _NUMBER_FIRST:
        return "str"
    if value.isascii() and value.isdigit():
        return "int"
    if _decimal(value):
        return "float"
    if ("-" in value[1:] or "+" in value[1:]) and "e" not in value and "E" not in value:
        return "str"  # a sign only leads a number or its exponent
    special = value[:2] in ("0o", "0x") or value.lstrip("+-") in _INF12 or value in _NAN12
    if not special and not _NUMBER12_CHARS.issuperset(value):
        return "str"
    if not special and _DIGITS.isdisjoint(value):
        return "str"
    if _full(_INT12, value):
        return "int"
    if _full(_FLOAT12, value) or value.lstrip("+-") in _INF12 or value in _NAN12:
        return "float"
    return "str"


def plain_value(value: str) -> tuple[bool, Any]:
    """(agreed, value): a plain scalar's value when YAML 1.1 and 1.2 read it alike and every
    parser builds the same value from it; (False, text) otherwise (`refusal` says why).

    Agreed: text that both read as a string, unless it starts like a number and holds an
    underscore (`-_`: ruamel.yaml's integer pattern takes it); `~`, `null`, `true`, `false` in
    their three spellings; a decimal integer without a leading zero within 64 bits; a finite
    decimal float; a real date `YYYY-MM-DD` or moment `YYYY-MM-DDTHH:MM:SSZ`, which the tool
    keeps as text. The writer (`yaml.write`) quotes more: every text of number characters.
    """
    tag11 = "bool" if value in _BOOL11_SPEC else resolve11(value)
    if tag11 == "timestamp":  # a `-` after digits: no YAML 1.2 number, so text there
        return _real_stamp(value), value
    tag12 = resolve12(value) if value else "null"
    if tag11 != tag12:
        return False, value
    if tag11 == "str":  # `-_`, `+1_`: ruamel.yaml types underscores after a sign as numbers,
        if value[:1] in ("+", "-") and value[1:3] == "0o":  # and `-0o0` as an octal number
            return False, value
        return value[0] not in _NUMBER_FIRST or "_" not in value, value
    if tag11 == "null":
        return True, None
    if tag11 == "bool":
        return True, _BOOL12[value]
    if tag11 == "int":
        return _int64(value)
    if value[-1] not in _DIGITS and value[-1] != ".":
        return False, value  # `.inf`, `-.Inf`, `.NaN`: the subset's numbers are finite
    number = float(value)
    return (True, number) if number - number == 0.0 else (False, value)  # inf - inf is nan


def _int64(value: str) -> tuple[bool, Any]:
    digits = value.lstrip("+-")
    if not digits.isdigit() or (digits[0] == "0" and len(digits) > 1) or len(digits) > 19:
        return False, value
    number = int(value)
    return (True, number) if -_INT64 <= number < _INT64 else (False, value)


def _real_stamp(value: str) -> bool:
    """`YYYY-MM-DD` or `YYYY-MM-DDTHH:MM:SSZ` naming a day and time that exist."""
    from mj_core import clock

    if len(value) == 10:
        value += "T00:00:00Z"
    return _stamp(value) and clock.parse_iso(value) is not None


def shown(value: str, width: int = 40) -> str:
    """`value` for a one-line message: non-printable characters escaped, cut at `width`."""
    text = value if value.isprintable() else repr(value)[1:-1]
    return text if len(text) <= width else text[:width] + "…"


def refusal(value: str) -> tuple[str, str]:
    """(what, how to fix) when `plain_value` does not agree on `value` (the reader's message)."""
    shown_ = shown(value)
    tag11 = "bool" if value in _BOOL11_SPEC else resolve11(value)
    tag12 = resolve12(value) if value else "null"
    canonical = value + "T00:00:00Z" if len(value) == 10 else value
    if tag11 == "timestamp" and tag12 == "str" and _stamp(canonical):
        return f"plain scalar '{shown_}' is a date or time that does not exist", _IF_TEXT
    digits = value.lstrip("+-")
    if tag11 == tag12 == "int" and digits.isdigit() and digits[0] != "0":
        return f"integer '{shown_}' is outside the signed 64-bit range", _IF_TEXT
    if tag11 == tag12 == "int" and not digits.isdigit():
        return f"integer '{shown_}' is not written in decimal", "write it in decimal or quote it"
    if tag11 == tag12 == "float":
        return f"plain scalar '{shown_}' is not a finite number", _IF_TEXT
    return f"plain scalar '{shown_}' is read differently by other YAML parsers", "quote the value"
