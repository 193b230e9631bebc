"""`check --explain`: the effective task, profile, policy and the doctrines `check` enforces,
as flattened `key=value` lines under `# task`, `# profile <name>`, `# policy`,
`# doctrines enforced by check`.
"""

from __future__ import annotations

from mj_core import yamlstrict
from mj_core.errors import MjError
from mj_policy.layer import Layer

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import Any

    Record = dict[str, Any]


def flatten(value: Any, prefix: str = "") -> Iterator[str]:
    """`a.b=1`, `a.list.0=x`; an empty list or mapping is shown as `[]` / `{}`."""
    if isinstance(value, dict) and value:
        for key, child in value.items():
            yield from flatten(child, f"{prefix}.{key}" if prefix else str(key))
    elif isinstance(value, list) and value:
        for index, child in enumerate(value):
            yield from flatten(child, f"{prefix}.{index}")
    else:
        yield f"{prefix}={_text(value)}"


def _text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    if isinstance(value, (list, dict)):
        return "[]" if isinstance(value, list) else "{}"
    return str(value)


def doctrines(layer: Layer, command: str) -> list[tuple[str, str]]:
    """(id, class) of each rule in the layer whose `x-majordomus.enforced_by` names `command`."""
    found = []
    directory = layer.section("rules")
    for path in sorted(directory.rglob("*.md")):
        try:
            text = yamlstrict.read_text(path, layer.relative(path))
            front, _, _ = yamlstrict.split_front_matter(text, layer.relative(path))
        except (MjError, OSError, UnicodeDecodeError):
            continue  # README.md and the like; doctor judges rule files
        data = front.data if isinstance(front.data, dict) else {}
        meta = data.get("x-majordomus") or {}
        if isinstance(meta, dict) and command in (meta.get("enforced_by") or []):
            found.append((str(data.get("id")), str(data.get("class"))))
    return found


def sections(
    record: Record, profile: Record, policy: Record, doctrines: list[Any]
) -> Iterator[Record]:
    """The task, its profile, the policy and the doctrines enforced by check, flattened."""
    yield {"kind": "explain", "heading": "task", "lines": list(flatten(record))}
    yield {
        "kind": "explain",
        "heading": f"profile {profile.get('name')}",
        "lines": list(flatten(profile.get("data") or {})),
    }
    yield {"kind": "explain", "heading": "policy", "lines": list(flatten(policy))}
    yield {
        "kind": "explain",
        "heading": "doctrines enforced by check",
        "lines": [f"{rule} ({klass})" for rule, klass in doctrines],
    }
