"""Unknown keys are errors at every level: checked against the generated allow lists.

An allow list (`share/allow/<kind>.txt`) holds one dotted key path a line; `[]` marks the items
of a sequence (`enforcement[].wired_by`); `*` marks a mapping whose keys are free
(`sections.*` would allow any section name). Lines starting with `#` are comments.
"""

from __future__ import annotations

from functools import cache

from mj_core import share

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import Any

    from mj_core.yaml.strict import Document


@cache
def allowed(kind: str) -> frozenset[str]:
    lines = share.read_text("allow", f"{kind}.txt").splitlines()
    return frozenset(line.strip() for line in lines if line.strip() and not line.startswith("#"))


def _walk(
    value: Any, prefix: str, path: tuple[str | int, ...]
) -> Iterator[tuple[str, tuple[str | int, ...]]]:
    if isinstance(value, dict):
        for key, child in value.items():
            dotted = f"{prefix}.{key}" if prefix else key
            yield dotted, (*path, key)
            yield from _walk(child, dotted, (*path, key))
    elif isinstance(value, list):
        for index, child in enumerate(value):
            yield from _walk(child, f"{prefix}[]", (*path, index))


def _permitted(dotted: str, allow: frozenset[str]) -> bool:
    if dotted in allow:
        return True
    parent, _, _ = dotted.rpartition(".")
    return bool(parent) and f"{parent}.*" in allow


def unknown_keys(doc: Document, kind: str) -> list[tuple[str, str]]:
    """(`file:line:col`, dotted key) for every key the allow list of `kind` does not name."""
    allow = allowed(kind)
    found = []
    for dotted, path in _walk(doc.data, "", ()):
        if not _permitted(dotted, allow) and not _under_free(dotted, allow):
            found.append((doc.where(path), dotted))
    return found


def _under_free(dotted: str, allow: frozenset[str]) -> bool:
    """A key below a `*` entry (free-form mapping) is not checked further."""
    parts = dotted.split(".")
    for cut in range(1, len(parts)):
        if ".".join(parts[:cut]) + ".*" in allow and cut < len(parts) - 1:
            return True
    return False
