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


HOW = {
    "scoped": "its own file, loaded for matching paths",
    "always": "its own file, always loaded",
    "inline": "inside it, in full",
    "pointer": "a pointer inside it to the rule's file, not its text",
    "import": "inside it, an `@path` line its client expands to the rule's file",
}


def _landing(item: Record) -> str:
    return f"    {item['provider']}: {item['target']} — {HOW[str(item['as'])]}\n"


def _text(record: Record) -> str:
    kind = record.get("kind")
    if kind == "rule":
        key = f"{record['id']}@{record['version']}"
        line = (
            f"{key:<40} {record['class']:<9} {record['provenance']:<18} {record['enforcement']}\n"
        )
        return line + "".join(_landing(item) for item in record.get("lands") or [])
    if kind == "rule-text":
        return f"{record['path']}\n{record['text']}"
    if kind == "vendored":
        if not record["changed"]:
            return f"{record['package']}/: current; nothing to do\n"
        return f"vendored {record['package']}/: {', '.join(record['changed'])}\n"
    if kind == "record" and record.get("action") == "appended":
        return ""
    return str(record.get("text", ""))
