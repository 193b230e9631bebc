"""`majordomus recover [status|episodes|records|orphans|all] [--check]`: repair the stores."""

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

    acted: list[Record] = []

    def text(record: Record) -> str | None:
        if record.get("kind") != "recovery":
            return None
        if record["action"] not in ("none", "report"):
            acted.append(record)
        done = "done" if record["done"] else "to do"
        verb = "" if record["action"] in ("none", "report") else f" → {record['action']} ({done})"
        where = f"  {record['path']}" if record.get("path") else ""
        return f"{record['state']}: {record['subject']} — {record['evidence']}{verb}{where}\n"

    code, summary = show.stream(records, inv, text)
    if not inv.json and not summary.get("error"):
        pending = [r for r in acted if not r["done"]]
        if options.check or options.what == "status":
            inv.stdout.write(
                f"check: {len(pending)} action(s) would be taken and nothing was written "
                "(run: majordomus recover all)\n"
            )
        else:
            inv.stdout.write(f"recover: {len(acted) - len(pending)} action(s) taken\n")
    return code
