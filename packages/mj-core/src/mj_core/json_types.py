"""Types of JSON values, written as short expressions: what `share/events.yaml` declares for
each field of a ledger line, checked when a line is read (a hook's path: a check is a set
lookup of the value's exact type, and a walk only into a list or mapping that holds typed
items).

An expression is one or more alternatives joined by `|`; an alternative is `string`,
`integer`, `number` (an integer or a fraction), `boolean`, `null`, `object`, `array`,
`array<T>` (a list whose every item is of type T) or `object<T>` (a mapping whose every value
is of type T). `true` and `false` are never integers here, unlike in Python.
"""

from __future__ import annotations

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    Deep = Callable[[Any], bool]

_PLAIN: dict[str, tuple[type, ...]] = {
    "string": (str,),
    "integer": (int,),
    "number": (int, float),
    "boolean": (bool,),
    "null": (type(None),),
    "object": (dict,),
    "array": (list,),
}


class Type:
    """A compiled expression: the exact Python types a value may have, and for a list or a
    mapping with typed items, the check of its items."""

    __slots__ = ("deep", "shown", "types")

    def __init__(self, shown: str, types: frozenset[type], deep: dict[type, Deep]) -> None:
        self.shown = shown
        self.types = types
        self.deep = deep

    def holds(self, value: Any) -> bool:
        kind = type(value)
        if kind not in self.types:
            return False
        inner = self.deep.get(kind) if self.deep else None
        return inner is None or inner(value)


def compile_type(expression: str) -> Type:
    """The `Type` of `expression`; ValueError naming what is wrong with it."""
    types: set[type] = set()
    deep: dict[type, Deep] = {}
    named: list[str] = []
    for alternative in _alternatives(expression):
        outer, _, rest = alternative.partition("<")
        named.append(outer)
        if alternative in _PLAIN:
            types.update(_PLAIN[alternative])
            continue
        if outer not in ("array", "object") or not rest.endswith(">"):
            raise ValueError(f"{alternative!r} is not a type (string, integer, number, "
                             "boolean, null, object, array, array<T>, object<T>)")  # fmt: skip
        kind = list if outer == "array" else dict
        items = compile_type(rest[:-1])
        types.add(kind)
        deep[kind] = _every_item(items) if kind is list else _every_value(items)
    if len(set(named)) != len(named):
        raise ValueError(f"{expression!r} names a type twice")
    return Type(expression, frozenset(types), deep)


def _alternatives(expression: str) -> list[str]:
    """The `|`-separated alternatives at the top level (not inside `<…>`)."""
    out, depth, start = [], 0, 0
    for at, char in enumerate(expression):
        if char == "<":
            depth += 1
        elif char == ">":
            depth -= 1
        elif char == "|" and depth == 0:
            out.append(expression[start:at].strip())
            start = at + 1
        if depth < 0:
            break
    out.append(expression[start:].strip())
    if depth != 0 or not all(out):
        raise ValueError(f"{expression!r} is not a type expression")
    return out


def _every_item(items: Type) -> Deep:
    if not items.deep:
        allowed = items.types
        return lambda value: all(type(item) in allowed for item in value)
    return lambda value: all(items.holds(item) for item in value)


def _every_value(items: Type) -> Deep:
    return lambda value: all(items.holds(item) for item in value.values())


def shown(value: Any) -> str:
    """The JSON type of `value`, for a message: what was found instead."""
    for name, types in _PLAIN.items():
        if type(value) in types and name != "number":
            return name
    return "number" if type(value) is float else type(value).__name__
