"""`majordomus rules [list|show <id>|vendor status|vendor diff|vendor update]`."""

from __future__ import annotations

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    import argparse
    from collections.abc import Iterable
    from typing import Any

    from majordomus.invocation import Invocation

    Record = dict[str, Any]


def render(records: Iterable[Record], options: argparse.Namespace, inv: Invocation) -> int:
    from majordomus import render as show

    if options.command == "rules vendor status":
        return show.findings("rules vendor status", records, inv)
    code, _ = show.stream(records, inv, _text)
    return code


def _text(record: Record) -> str:
    kind = record.get("kind")
    if kind == "rule":
        key = f"{record['id']}@{record['version']}"
        return (
            f"{key:<40} {record['class']:<9} {record['provenance']:<18} {record['enforcement']}\n"
        )
    if kind == "rule-text":
        return f"{record['path']}\n{record['text']}"
    if kind == "vendored":
        if not record["changed"]:
            return f"{record['package']}/: current; nothing to do\n"
        return f"vendored {record['package']}/: {', '.join(record['changed'])}\n"
    if kind == "record" and record.get("action") == "appended":
        return ""
    return str(record.get("text", ""))
