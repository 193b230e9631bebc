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

from mj_core import jsonl
from mj_core import schema as schema_mod

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    Check = Callable[[Any], bool]


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
    if "enum" in schema:
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
    import re

    shortest = schema.get("minLength", 0)
    pattern = re.compile(schema["pattern"]).search if "pattern" in schema else None
    if not shortest and pattern is None:
        return None
    if pattern is None:
        return lambda v: len(v) >= shortest
    return lambda v: len(v) >= shortest and pattern(v) is not None


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
    required = tuple(schema.get("required", ()))
    props = {key: _compile(child) for key, child in schema.get("properties", {}).items()}
    closed = schema.get("additionalProperties") is False
    if not required and not props and not closed:
        return None

    def check(v: dict[str, Any]) -> bool:
        for key in required:
            if key not in v:
                return False
        for key, child in v.items():
            own = props.get(key)
            if own is None:
                if closed and key not in props:
                    return False
            elif not own(child):
                return False
        return True

    return check
