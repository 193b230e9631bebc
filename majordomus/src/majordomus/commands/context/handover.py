"""`majordomus handover [--derive] [--close] [--no-task] < body.md`, `--resolve [--path]`."""

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

    code, _ = show.stream(records, inv, lambda record: text(record, path_only=options.path))
    return code


def text(record: Record, *, path_only: bool) -> str:
    from majordomus.commands.context.checkpoint import header
    from majordomus.commands.context.checkpoint import pruned
    from majordomus.commands.context.checkpoint import shown_body

    if record["action"] == "prune":
        return pruned(record)
    if record["action"] == "handover":
        closed = f"  (task {record['task_id']} closed: handed_over)" if record["closed"] else ""
        return f"{record['path']}{closed}\n"
    if record["path"] is None:
        return "" if path_only else "No relevant handover.\n"  # --path: a script sees no path
    if path_only:
        return f"{record['path']}\n"
    return header("handover", record) + "\n" + shown_body(str(record["body"]))
