"""`majordomus plan validate|status|list|show|ready|blocked|waves|graph|next|body`."""

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

    if options.command == "plan validate":
        return show.findings("plan validate", records, inv)
    code, _ = show.stream(records, inv, _view_text)
    return code


def _view_text(record: Record) -> str | None:
    """A view shows what it derived and what it cannot vouch for (a FAIL of `plan-markers`);
    the OK that every marker is held is `plan validate`'s to say."""
    if record.get("kind") == "finding" and record.get("level") == "OK":
        return None
    return text(record)


def text(record: Record) -> str | None:
    view = record.get("view")
    if view == "issue":
        waits = (
            f"  waits on {', '.join(record['blockers'])}" if record["status"] == "BLOCKED" else ""
        )
        return (
            f"{record['id']:<7} {record['status']:<9} {record['milestone']:<6} "
            f"{record['priority']}  {record['title']}{waits}"
        )
    if view == "milestone":
        counts = ", ".join(f"{n} {s}" for s, n in record["issues"].items()) or "no issues"
        return f"{record['id']:<6} {record['status']:<9} {record['title']} ({counts})"
    if view == "summary":
        counts = ", ".join(f"{n} {s}" for s, n in record["issues"].items()) or "no issues"
        return f"active milestone: {record['active_milestone'] or 'none'}; issues: {counts}"
    if view == "written":
        return f"{record['path']}: {record['line'].splitlines()[0]}"
    if view == "next":
        return f"next ready: {record['id']} {record['title']}"
    if view in ("graph", "body"):
        return str(record["text"])
    if view == "wave":
        return f"wave {record['number']}: {' '.join(record['issues'])}"
    if record.get("kind") == "finding":
        from mj_core.findings import render_text

        return render_text(record)
    if view == "show":
        from mj_core.yaml import write as yamlwrite

        return f"{record['path']} ({record['status']})\n{yamlwrite.dump(record['data'])}"
    return None
