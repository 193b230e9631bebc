"""Full schema validation (types, enums, patterns) against `share/schemas/<kind>.schema.json`.

jsonschema is imported here, inside the function, so that nothing on a start-up path pays for it.
"""

from __future__ import annotations

from functools import cache

from mj_core import share
from mj_core.stream import jsonl

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from collections.abc import Collection
    from typing import Any

    from mj_core.yaml.strict import Document


@cache
def load(kind: str) -> dict[str, Any]:
    schema: dict[str, Any] = jsonl.loads_line(share.read_text("schemas", f"{kind}.schema.json"))
    return schema


def violations(doc: Document, kind: str, *, skip: Collection[str] = ()) -> list[tuple[str, str]]:
    """(`file:line:col`, message) for each schema violation, in document order.

    `skip` names keywords whose errors the caller reports itself (e.g. `required` and
    `additionalProperties`, already covered by `keys.unknown_keys` and the required walk).
    """
    import jsonschema

    validator = jsonschema.Draft202012Validator(load(kind))
    found = []
    for error in validator.iter_errors(doc.data):
        if error.validator in skip:
            continue
        path = tuple(error.absolute_path)
        where = ".".join(str(p) for p in path) or "(top level)"
        found.append((doc.where(path), f"{where}: {error.message}"))
    found.sort(key=lambda item: _position(item[0]))
    return found


def _position(where: str) -> tuple[int, int]:
    parts = where.rsplit(":", 2)
    try:
        return int(parts[1]), int(parts[2])
    except (IndexError, ValueError):
        return 0, 0


_ANNOTATIONS = {"$schema", "$id", "title", "description", "$comment", "default", "examples"}
_TYPES: dict[str, tuple[type, ...]] = {
    "string": (str,),
    "array": (list,),
    "object": (dict,),
    "integer": (int,),
    "number": (int, float),
    "boolean": (bool,),
    "null": (type(None),),
}


def quick_violations(
    doc: Document, kind: str, *, skip: Collection[str] = ()
) -> list[tuple[str, str]]:
    """Like `violations`, without importing jsonschema: for hot paths (hooks, `check`, `doctor`).

    Understands the keywords our flat record schemas use (type, enum, const, pattern, minimum,
    minLength, minItems, uniqueItems, required, properties, additionalProperties: false,
    items). A schema using any other keyword is a tool bug (13), never a silent pass. `skip`
    takes `required` and `additionalProperties`, as `violations` does.
    """
    found: list[tuple[str, str]] = []
    _walk_schema(load(kind), doc.data, (), doc, found)
    return [item for item in found if _keyword(item[1]) not in skip]


def _keyword(message: str) -> str:
    if message.endswith(" is a required property"):
        return "required"
    if message.endswith(": unknown key"):
        return "additionalProperties"
    return ""


def _walk_schema(
    schema: dict[str, Any],
    value: Any,
    path: tuple[str | int, ...],
    doc: Document,
    found: list[tuple[str, str]],
) -> None:
    def bad(message: str) -> None:
        where = ".".join(str(p) for p in path) or "(top level)"
        found.append((doc.where(path), f"{where}: {message}"))

    for keyword in schema:
        if keyword not in _KEYWORDS and keyword not in _ANNOTATIONS:
            from mj_core.errors import InternalError

            raise InternalError(f"schema {kind_of(schema)}: keyword {keyword!r} needs jsonschema")
    if "type" in schema:
        types = _TYPES[schema["type"]]
        numeric = schema["type"] in ("integer", "number")
        if not isinstance(value, types) or (numeric and isinstance(value, bool)):
            bad(f"{value!r} is not of type {schema['type']!r}")
            return
    if "enum" in schema and not any(_same(value, item) for item in schema["enum"]):
        bad(f"{value!r} is not one of {schema['enum']!r}")
    if "const" in schema and not _same(value, schema["const"]):
        bad(f"{schema['const']!r} was expected")
    if "minimum" in schema and _number(value) and value < schema["minimum"]:
        bad(f"{value!r} is less than the minimum of {schema['minimum']!r}")
    if isinstance(value, str):
        _string(schema, value, bad)
    if isinstance(value, list):
        _array(schema, value, path, doc=doc, found=found, bad=bad)
    if isinstance(value, dict):
        _object(schema, value, path, doc=doc, found=found, bad=bad)


def _same(value: Any, expected: Any) -> bool:
    """Equality as JSON Schema means it: `true` is not `1`, `false` is not `0`."""
    return isinstance(value, bool) == isinstance(expected, bool) and value == expected


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def kind_of(schema: dict[str, Any]) -> str:
    return str(schema.get("$id", "(nested)"))


def _string(schema: dict[str, Any], value: str, bad: Any) -> None:
    import re

    if len(value) < schema.get("minLength", 0):
        bad(f"{value!r} is too short")
    if "pattern" in schema and not re.search(schema["pattern"], value):
        bad(f"{value!r} does not match {schema['pattern']!r}")


def _array(
    schema: dict[str, Any],
    value: list[Any],
    path: tuple[str | int, ...],
    *,
    doc: Document,
    found: list[tuple[str, str]],
    bad: Any,
) -> None:
    if len(value) < schema.get("minItems", 0):
        bad(f"{value!r} should be non-empty" if not value else f"{value!r} is too short")
    if schema.get("uniqueItems") and len({jsonl.encode(v) for v in value}) != len(value):
        bad(f"{value!r} has non-unique elements")
    if "items" in schema:
        for index, item in enumerate(value):
            _walk_schema(schema["items"], item, (*path, index), doc, found)


def _object(
    schema: dict[str, Any],
    value: dict[str, Any],
    path: tuple[str | int, ...],
    *,
    doc: Document,
    found: list[tuple[str, str]],
    bad: Any,
) -> None:
    for key in schema.get("required", []):
        if key not in value:
            bad(f"{key!r} is a required property")
    props = schema.get("properties", {})
    for key, child in value.items():
        if key in props:
            _walk_schema(props[key], child, (*path, key), doc, found)
        elif schema.get("additionalProperties") is False:
            found.append((doc.where((*path, key)), f"{key}: unknown key"))


_KEYWORDS = {
    "type",
    "minimum",
    "enum",
    "const",
    "pattern",
    "minLength",
    "minItems",
    "uniqueItems",
    "required",
    "properties",
    "additionalProperties",
    "items",
}
