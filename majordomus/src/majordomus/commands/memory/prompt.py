"""`majordomus prompt list|show|render`: the repository's prompt assets."""

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

    held = list(records)
    width = max((len(r["name"]) for r in held if "name" in r), default=0)

    def text(record: Record) -> str:
        if options.command == "prompt list":
            return f"{record['name']:<{width}}  {record['description']}\n"
        return f"# {record['name']} — {record['description']} ({record['path']})\n{record['body']}"

    code, _ = show.stream(held, inv, text)
    return code
