"""`majordomus knowledge sources|nodes|edges|check`."""

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

    if options.command == "knowledge check":
        return show.findings("knowledge check", records, inv)
    counted = {"source": 0, "node": 0, "edge": 0}

    def text(record: Record) -> str | None:
        kind = record.get("kind")
        if kind in counted:
            counted[kind] += 1
        return line(record)

    code, summary = show.stream(records, inv, text)
    if not inv.json and not summary.get("error"):
        scope = getattr(options, "scope", None) or "all"
        if options.command == "knowledge sources":
            inv.stdout.write(f"knowledge sources: {counted['source']} file(s) in scope {scope}\n")
        elif options.command == "knowledge nodes":
            inv.stdout.write(f"knowledge nodes: {counted['node']} node(s) in scope {scope}\n")
        else:
            inv.stdout.write(f"knowledge edges: {counted['edge']} edge(s) in scope {scope}\n")
    return code


def line(record: Record) -> str | None:
    """One record as the line a person reads."""
    from mj_core.findings import render_text

    kind = record.get("kind")
    if kind == "source":
        return (
            f"{record['class']} {record['scope']} {record['node_kind']} "
            f"{record['blob'][:12]} {record['path']}"
        )
    if kind == "node":
        title = f"  {record['title']}" if record["title"] else ""
        return f"{record['id']}  {record['node_kind']}  {record['path']}{title}"
    if kind == "edge":
        where = record["provenance"]
        field = f" ({where['field']})" if "field" in where else ""
        return (
            f"{record['source']} {record['type']} {record['target']}  "
            f"{where['path']}:{where['line']}{field}"
        )
    if kind == "finding":
        return render_text(record)
    return None
