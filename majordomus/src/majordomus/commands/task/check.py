"""`majordomus check`: is the active task consistent with policy, scope and git?"""

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

    if options.explain:
        code, _ = show.stream(records, inv, _explained)
        return code
    written: list[Record] = []

    def noting(stream: Iterable[Record]) -> Iterable[Record]:
        for record in stream:
            if record.get("kind") == "record":
                written.append(record)
            yield record

    code = show.findings("check", noting(records), inv)
    if not inv.json:
        for record in written:
            inv.stdout.write(f"checkpoint_at={record['checkpoint_at']}  {record['path']}\n")
    return code


def _explained(record: Record) -> str:
    return f"# {record['heading']}\n" + "".join(f"  {line}\n" for line in record["lines"])
