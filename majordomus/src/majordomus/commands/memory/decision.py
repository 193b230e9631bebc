"""`majordomus decision add|list|show`: the append-only decision log."""

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

    code, _ = show.stream(records, inv, text)
    return code


def text(record: Record) -> str:
    if record["action"] == "recorded":
        return f"recorded: {record['title']}\n"
    if "text" in record:
        return str(record["text"])
    head = (record.get("head") or "-")[:7]
    return f"{record['date']}  {record['title']}  ({record.get('task') or '-'}, {head})\n"
