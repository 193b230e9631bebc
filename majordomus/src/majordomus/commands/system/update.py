"""`majordomus update [--dry-run] [--diff <target>] [--force] [--check]`: the projections."""

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

    if options.check:
        return show.findings("update", records, inv)
    if options.diff:
        code, _ = show.stream(
            records, inv, lambda r: r.get("text") or f"{r['target']}: no difference\n"
        )
        return code
    projections: list[Record] = []

    def text(record: Record) -> str | None:
        if record.get("kind") != "projection":
            return None
        projections.append(record)
        return _line(record)

    code, summary = show.stream(records, inv, text)
    if not inv.json and not summary.get("error"):
        written = [r for r in projections if r["action"] != "unchanged"]
        inv.stdout.write(_summary(len(written), len(projections), options.dry_run) + "\n")
    return code


def _summary(changed: int, total: int, dry_run: bool) -> str:
    if not changed:
        return f"update: nothing to change; all {total} target(s) are current"
    if dry_run:
        return f"update: {changed} of {total} target(s) would change (dry run; nothing written)"
    return f"update: wrote {changed} of {total} target(s)"


def _line(record: Record) -> str:
    detail = f"{record['mode']}, {record['state']}, policy {record['policy']}"
    return f"{record['action']:<11} {record['target']}  ({detail})\n"
