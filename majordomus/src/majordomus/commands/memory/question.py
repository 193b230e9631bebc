"""`majordomus question add|resolve|list`: questions that block acceptance of a task."""

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

    count = 0

    def text(record: Record) -> str:
        nonlocal count
        count += 1
        return _text(record)

    code, _ = show.stream(records, inv, text)
    if options.command == "question list" and not inv.json and not count and not code:
        inv.stdout.write("question: none unresolved\n" if not options.all else "question: none\n")
    return code


def _text(record: Record) -> str:
    if record.get("action") == "opened":
        return f"opened for {record['task_id']}: {record['question']}"
    if record.get("action") == "resolved":
        return f"resolved {record['number']}: {record['question']} — {record['answer']}"
    if record["state"] == "resolved":
        return (
            f"{record['number']:>3}  [resolved {record['date']}] {record['task_id']} — "
            f"{record['question']} — {record['answer']}"
        )
    return (
        f"{record['number']:>3}  [unresolved] {record['task_id']} — "
        f"{record['question']} ({record['date']})"
    )
