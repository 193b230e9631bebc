"""`majordomus start "<task>" --scope <paths>`: begin the one scoped task of this checkout."""

from __future__ import annotations

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    import argparse
    from collections.abc import Iterable
    from typing import Any

    from majordomus.invocation import Invocation

    Record = dict[str, Any]


def render(records: Iterable[Record], options: argparse.Namespace, inv: Invocation) -> int:
    from mj_core.findings import render_text

    from majordomus import render as show

    after: list[str] = []

    def text(record: Record) -> str | None:
        if record.get("kind") == "record":
            after.append(_next(record))
            return _started(record)
        return render_text(record)

    code, _ = show.stream(records, inv, text)
    if not inv.json:
        inv.stdout.write("".join(after))
    return code


def _started(record: Record) -> str:
    task = record["task"]
    lines = [
        f"started {task['id']}  profile={task['profile']}  scope={','.join(task['scope'])}",
        f"  {record['path']}",
    ]
    if record["archived"]:
        lines.append(f"  archived the previous task to {record['archived']}")
    return "\n".join(lines) + "\n"


def _next(record: Record) -> str:
    read = f"worker reads {record['instructions']}; " if record["instructions"] else ""
    return f"next: {read}checkpoint every {record['checkpoint_interval']}; majordomus check\n"
