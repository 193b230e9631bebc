"""`check --explain`: the effective task, profile, policy and every doctrine in force, as
flattened `key=value` lines under `# task`, `# profile <name>`, `# policy`, and one line a
doctrine (its class and the commands that enforce it) under `# doctrines in force`.
"""

from __future__ import annotations

from mj_policy.layer.loader import Layer

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


def doctrines(layer: Layer) -> list[tuple[str, str, str]]:
    """(id, class, what enforces it) of every doctrine in force: the effective rule set,
    vendored and project rules resolved as `rules` resolves them (10 when it does not)."""
    from mj_policy.rules import effective as rules

    return [
        (rule.id, str(rule.data.get("class")), rules.enforcement(rule))
        for rule in rules.effective(layer)
    ]


def sections(
    record: Record, profile: Record, policy: Record, doctrines: list[Any]
) -> Iterator[Record]:
    """The task, its profile, the policy and the doctrines in force, flattened."""
    yield {"kind": "explain", "heading": "task", "lines": list(flatten(record))}
    yield {
        "kind": "explain",
        "heading": f"profile {profile.get('name')}",
        "lines": list(flatten(profile.get("data") or {})),
    }
    yield {"kind": "explain", "heading": "policy", "lines": list(flatten(policy))}
    yield {
        "kind": "explain",
        "heading": "doctrines in force",
        "lines": [f"{rule} ({klass}; {enforced})" for rule, klass, enforced in doctrines],
    }
