"""Required keys, checked cheaply: a walk of the schema's `required` lists, no jsonschema.

`keys.unknown_keys` closes a document from above (nothing the schema does not name); this closes
it from below (nothing the schema requires is absent). Types, enums and patterns are left to
`schema.violations`, which pays for jsonschema only where full validation runs.
"""

from __future__ import annotations

from mj_core.schema import full as schema

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import Any

    from mj_core.yaml.scalars import Path_
    from mj_core.yaml.strict import Document


def missing_keys(doc: Document, kind: str) -> list[tuple[str, str]]:
    """(`file:line:col` of the enclosing mapping, key path) for each required key that is absent."""
    return list(_walk(doc, schema.load(kind), doc.data, ()))


def _show(path: Path_) -> str:
    text = ""
    for part in path:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else part)
    return text


def _walk(
    doc: Document, node: dict[str, Any], value: Any, path: Path_
) -> Iterator[tuple[str, str]]:
    if isinstance(value, dict):
        for key in node.get("required", ()):
            if key not in value:
                yield doc.where(path), _show((*path, key))
        properties = node.get("properties", {})
        for key, child in value.items():
            if isinstance(properties.get(key), dict):
                yield from _walk(doc, properties[key], child, (*path, key))
    elif isinstance(value, list) and isinstance(node.get("items"), dict):
        for index, child in enumerate(value):
            yield from _walk(doc, node["items"], child, (*path, index))
