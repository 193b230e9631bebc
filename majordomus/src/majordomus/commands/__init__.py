"""The dispatcher's command registry: heading → command names, in usage order.

A command is public exactly when it is listed here, and it is listed only when its module
`majordomus.commands.<name>` works fully. Modules are imported only when dispatched.
"""

from __future__ import annotations

GROUPS: list[tuple[str, list[str]]] = [
    ("TASK", ["start", "check", "finish"]),
    ("CONTEXT", ["context", "checkpoint", "handover"]),
    ("MEMORY", ["history", "decision", "question", "prompt"]),
    ("RULES", ["rules"]),
    ("SYSTEM", ["init", "update", "doctor", "tour", "watch", "version", "bench"]),
]

INTERNAL = ["help"]


def public() -> list[str]:
    return [name for _, names in GROUPS for name in names]


def module_name(command: str) -> str:
    return "majordomus.commands." + command.replace("-", "_")
