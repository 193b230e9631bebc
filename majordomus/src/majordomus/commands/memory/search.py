"""`majordomus search`: `<kind>  <path>:<line>  <matched line>`, then `search: N match(es)`."""

from __future__ import annotations

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    import argparse
    from collections.abc import Iterable
    from typing import Any

    from majordomus.invocation import Invocation

    Record = dict[str, Any]

WIDTH = 240  # characters of a matched line shown; a longer line is cut with `…`


def render(records: Iterable[Record], options: argparse.Namespace, inv: Invocation) -> int:
    from majordomus import render as show

    matches = 0

    def text(record: Record) -> str:
        nonlocal matches
        if record["kind"] == "finding":
            from mj_core.findings import render_text

            return render_text(record)
        matches += 1
        return line(record)

    code, summary = show.stream(records, inv, text)
    if not inv.json and not summary.get("error"):
        inv.stdout.write(f"search: {matches} match(es)\n")
    return code


def line(record: Record) -> str:
    from mj_core import sanitise

    shown = sanitise.line(str(record["text"]).strip(), WIDTH)
    return f"{record['of']:<10}  {record['path']}:{record['line']}  {shown}"
