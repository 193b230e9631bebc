"""`majordomus adr list|show|next|propose|check|affected`: the architecture decision records."""

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

    if options.command in ("adr check", "adr affected"):
        return show.findings(options.command, records, inv)
    code, _ = show.stream(records, inv, text)
    return code


def text(record: Record) -> str | None:
    from mj_core.findings import render_text

    if record.get("kind") == "finding":
        return render_text(record)
    view = record.get("view")
    if view == "item":
        mark = "" if record["valid"] else "  (invalid: `majordomus adr check`)"
        return f"{record['id']}  {record['status'] or '-':<10}  {record['title'] or '-'}{mark}"
    if view == "show":
        return f"{record['path']}\n{record['text']}"
    if view == "next":
        return f"{record['id']}  (claims read: {'; '.join(record['sources'])})"
    if view == "proposed":
        lines = [f"proposed: {record['id']}  {record['title']}", record["path"]]
        lines += [f"supersedes: {', '.join(record['supersedes'])}"] if record["supersedes"] else []
        return "\n".join([*lines, f"note: {record['note']}"])
    return None
