"""`majordomus skills list|show|check`: the repository's skills."""

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
    width = max((len(r["id"]) for r in held if r.get("view") == "item"), default=0)

    def text(record: Record) -> str | None:
        from mj_core.findings import render_text

        if record.get("kind") == "finding":
            return render_text(record)
        view = record.get("view")
        if view == "item":
            mark = "" if record["valid"] else "  (invalid: `majordomus skills check`)"
            status = record["status"] or "-"
            return f"{record['id']:<{width}}  {status:<10}  {record['description'] or '-'}{mark}"
        if view == "show":
            return f"{record['path']}\n{record['text']}"
        if view == "counts":
            return (
                f"skills: {record['discovered']} discovered, {record['valid']} valid; "
                f"examples: {record['examples']}; references: {record['references']} checked; "
                f"failures: {record['failures']}"
            )
        return None

    code, _ = show.stream(held, inv, text)
    return code
