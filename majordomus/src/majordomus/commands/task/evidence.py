"""`majordomus evidence --covers <token> (--command <cmd> | --artifact <path>)`: a proof line."""

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


def text(record: Record) -> str | None:
    if record.get("action") != "evidence":
        return None
    line = record["line"]
    if line.get("command") is not None:
        proof = f"ran {line['command']} — exit {line['exit']}, {line['seconds']}s"
    else:
        proof = f"hashed {line['artifact']}"
    bound = line["inputs_hash"] or f"HEAD {str(line['head'])[:12]}"
    return (
        f"evidence: {line['covers']} {line['result']} — {proof}; bound to {bound} "
        f"(task {record['task_id']})\n"
    )
