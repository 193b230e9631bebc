"""Whether a value holds to its kind's schema, as one compiled predicate: `holds(kind)(value)`
is True exactly when `schema.quick_violations` would find nothing.

For a reader of many files of one kind (a plan's issues): the walk in `schema` builds a finding
for every violation and looks each keyword up on every value; the predicate is built once per
kind, answers only yes or no and stops at the first no. A caller that meets a no reads the file
again with `schema.violations`, which names what is wrong. A schema with a keyword the walk
does not know has no predicate (None): the walk refuses it in its own words.
"""

from __future__ import annotations

from functools import cache

from mj_core.schema import full as schema_mod
from mj_core.stream import jsonl

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    Check = Callable[[Any], bool]
    Search = Callable[[str], Any]

_TEXT = frozenset({"type", "minLength", "pattern"} | schema_mod._ANNOTATIONS)
_ONE_LINE = "^[^\\n]+$"  # a line and at most a final line break, as `re.search` reads `$`
_TEXTS = frozenset({"type", "items", "minItems", "uniqueItems"} | schema_mod._ANNOTATIONS)


@cache
def holds(kind: str) -> Check | None:
    """The predicate of `kind`'s schema, or None when the walk must judge it."""
    try:
        return _compile(schema_mod.load(kind))
    except LookupError:
        return None


def _compile(schema: dict[str, Any]) -> Check:
    known = schema_mod._KEYWORDS | schema_mod._ANNOTATIONS
    if not known.issuperset(schema):
        raise LookupError(next(k for k in schema if k not in known))
    checks: list[Check] = []
    kind = schema.get("type")
    text, items, fields = _string(schema), _array(schema), _object(schema)
    if kind == "string" and text is not None:  # the type and the string's own checks at once
        checks.append(_typed(str, text))
        text = None
    elif kind == "array" and items is not None:
        checks.append(_typed(list, items))
        items = None
    elif kind is not None:
        types = schema_mod._TYPES[kind]
        if kind in ("integer", "number"):
            checks.append(lambda v: isinstance(v, types) and not isinstance(v, bool))
        else:
            checks.append(lambda v: isinstance(v, types))
    if "enum" in schema and all(type(item) is str for item in schema["enum"]):
        words = frozenset(schema["enum"])  # `_same` of a string is plain equality
        checks.append(lambda v: isinstance(v, str) and v in words)
    elif "enum" in schema:
        enum = schema["enum"]
        checks.append(lambda v: any(schema_mod._same(v, item) for item in enum))
    if "const" in schema:
        const = schema["const"]
        checks.append(lambda v: schema_mod._same(v, const))
    if "minimum" in schema:
        low = schema["minimum"]
        checks.append(lambda v: not (schema_mod._number(v) and v < low))
    if text is not None:
        checks.append(lambda v: not isinstance(v, str) or text(v))
    if items is not None:
        checks.append(lambda v: not isinstance(v, list) or items(v))
    if fields is not None:
        checks.append(lambda v: not isinstance(v, dict) or fields(v))
    return _all(checks)


def _typed(kind: type, own: Check) -> Check:
    return lambda v: isinstance(v, kind) and own(v)


def _all(checks: list[Check]) -> Check:
    if not checks:
        return lambda v: True
    if len(checks) == 1:
        return checks[0]
    if len(checks) == 2:
        first, second = checks
        return lambda v: first(v) and second(v)
    return lambda v: all(check(v) for check in checks)


def _string(schema: dict[str, Any]) -> Check | None:
    shortest, pattern = _string_parts(schema)
    if not shortest and pattern is None:
        return None
    if pattern is None:
        return lambda v: len(v) >= shortest
    return lambda v: len(v) >= shortest and pattern(v) is not None


def _string_parts(schema: dict[str, Any]) -> tuple[int, Search | None]:
    import re

    shortest: int = schema.get("minLength", 0)
    return shortest, re.compile(schema["pattern"]).search if "pattern" in schema else None


def _array(schema: dict[str, Any]) -> Check | None:
    fewest = schema.get("minItems", 0)
    unique = bool(schema.get("uniqueItems"))
    each = _compile(schema["items"]) if "items" in schema else None
    if not fewest and not unique and each is None:
        return None

    def check(v: list[Any]) -> bool:
        if len(v) < fewest:
            return False
        if unique and len({jsonl.encode(x) for x in v}) != len(v):
            return False
        return each is None or all(map(each, v))

    return check


def _object(schema: dict[str, Any]) -> Check | None:
    """The check of an object's own keywords: its keys, then each property's value; a property
    that is a string (or a list of strings) with a length and a pattern is checked in the loop
    itself, without a call of its own."""
    required = frozenset(schema.get("required", ()))
    props = {key: (child, _compile(child)) for key, child in schema.get("properties", {}).items()}
    closed = schema.get("additionalProperties") is False
    if not required and not props and not closed:
        return None
    known = frozenset(props)
    texts = {key: text for key, (child, _) in props.items() if (text := _text(child)) is not None}
    lists = {key: many for key, (child, _) in props.items() if (many := _texts(child)) is not None}
    others = {key: own for key, (_, own) in props.items() if key not in texts and key not in lists}

    def check(v: dict[str, Any]) -> bool:
        if not v.keys() >= required or (closed and not v.keys() <= known):
            return False
        for key, child in v.items():
            text = texts.get(key)
            if text is not None:
                shortest, search, line = text
                if not isinstance(child, str) or len(child) < shortest:
                    return False
                if line and child and "\n" not in child:
                    continue  # `^[^\n]+$` holds without asking the pattern
                if search is not None and search(child) is None:
                    return False
                continue
            many = lists.get(key)
            if many is None:
                own = others.get(key)
                if own is not None and not own(child):
                    return False
            elif not _all_texts(child, many):
                return False
        return True

    return check


def _text(schema: dict[str, Any]) -> tuple[int, Search | None, bool] | None:
    """(shortest length, pattern's search, whether the pattern is `^[^\n]+$`: one line) of a
    schema that asks only for such a string."""
    if schema.get("type") != "string" or not _TEXT.issuperset(schema):
        return None
    return *_string_parts(schema), schema.get("pattern") == _ONE_LINE


def _texts(schema: dict[str, Any]) -> tuple[int, bool, int, Search | None, bool] | None:
    """(fewest items, unique, `_text` of each item) of a schema that asks only for a list of
    such strings."""
    if schema.get("type") != "array" or not _TEXTS.issuperset(schema) or "items" not in schema:
        return None
    each = _text(schema["items"])
    if each is None:
        return None
    return schema.get("minItems", 0), bool(schema.get("uniqueItems")), *each


def _all_texts(v: Any, many: tuple[int, bool, int, Search | None, bool]) -> bool:
    fewest, unique, shortest, search, _ = many
    if not isinstance(v, list) or len(v) < fewest:
        return False
    for item in v:
        if not isinstance(item, str) or len(item) < shortest:
            return False
        if search is not None and search(item) is None:
            return False
    return not unique or len({jsonl.encode(x) for x in v}) == len(v)
