"""`majordomus archive [<profile>] [--out] [--format] [--dry-run] [--force]` · `archive --list`."""

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
    action = record.get("action")
    if action == "profile":
        return f"{record['name']:<12} {record['description']} ({record['source']})"
    if action == "plan":
        dropped = ", ".join(f"{n} {why}" for why, n in record["dropped"].items() if n) or "none"
        head = (
            f"{record['profile']}: {len(record['members'])} file(s) from git's index "
            f"→ {record['shown']} ({record['format']}); dropped: {dropped}"
        )
        if not record["dry_run"]:
            return head
        return "\n".join([head, *(f"  {mode} {path}" for mode, _, path in record["members"])])
    if action == "written":
        return (
            f"wrote {record['path']}: {record['members']} file(s) and _ARCHIVE/, "
            f"{record['bytes']} bytes, read back (sha256 {record['sha256'][:12]})"
        )
    return None
