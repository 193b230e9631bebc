"""Full schema validation (types, enums, patterns) against `share/schemas/<kind>.schema.json`.

jsonschema is imported here, inside the function, so that nothing on a start-up path pays for it.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import orjson

from mj_core import share
from mj_core.yamlstrict import Document


@cache
def load(kind: str) -> dict[str, Any]:
    schema: dict[str, Any] = orjson.loads(share.read_text("schemas", f"{kind}.schema.json"))
    return schema


def violations(doc: Document, kind: str) -> list[tuple[str, str]]:
    """(`file:line:col`, message) for each schema violation, in document order."""
    import jsonschema

    validator = jsonschema.Draft202012Validator(load(kind))
    found = []
    for error in validator.iter_errors(doc.data):
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
