"""`majordomus session start|status|close|list|show|latest|context|archive`: execution
episodes."""

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

    only_path = bool(getattr(options, "path", False))

    def text(record: Record) -> str | None:
        if record.get("kind") == "candidate":  # derived at the close: awaiting review
            said = "knowledge candidate" if record["action"] == "derived" else "already derived"
            return f"{said} {record['path']} — {record['title']}\n"
        if record.get("kind") == "record" and record.get("action") == "session-archive":
            return archived(record)
        if record.get("kind") != "session":
            return None
        if record["action"] == "malformed":
            inv.stderr.write(f"majordomus: skipped {record['path']}: {record['error']}\n")
            return None
        if only_path and record["action"] in ("latest", "context"):
            return f"{record['path']}\n" if record["path"] else "No relevant session.\n"
        return line(record)

    code, _ = show.stream(records, inv, text)
    return code


def line(record: Record) -> str:
    action = record["action"]
    if action in ("started", "kept"):
        verb = "opened" if action == "started" else "already open since"
        return (
            f"session {record['session_id']} {verb} at {record['started_at']} "
            f"(head {record['head']})\n  {record['path']}\n"
            "next: work; `majordomus session close` when the sitting ends\n"
        )
    if action == "none":
        return "No open session in this worktree.\n"
    if action == "closed":
        return f"{record['path']}\n"
    if action == "open":
        return (
            f"session {record['session_id']} open since {record['started_at']} "
            f"(key {record['key']}, start {record['head']}: {record['label']})\n"
        )
    if action == "also_open":
        since = record["started_at"]
        return f"Also open: {record['session_id']} (key {record['key']}, since {since})\n"
    if action == "latest" and not record["path"]:
        return "No relevant session.\n"
    if action == "context":
        return f"{record['path']}\n"
    fields = (
        record["closed_at"],
        f"{record['label']:<17}",
        record["session_id"],
        record["outcome"],
        record["task_id"],
        record["path"],
    )
    out = "  ".join(str(f) for f in fields) + "\n"
    if action == "show" and record.get("body"):
        from majordomus.commands.context.checkpoint import shown_body

        out += "\n" + shown_body(str(record["body"]))
    return out


def archived(record: Record) -> str:
    """What `session archive` moved (or would), and what the section holds afterwards."""
    moved, cap, count = record["moved"], record["cap"], record["count"]
    if not moved:
        said = f"{count} closed record(s), within the cap of {cap}"
        return f"session archive: {said}; nothing to move\n"
    verb = "would move" if record["dry_run"] else "moved"
    lines = [f"  {path}\n" for path in moved]
    kept = count - len(moved)
    return (
        f"session archive: {verb} {len(moved)} record(s) to {record['archive']}/, "
        f"{kept} kept in {record['store']}/ (session.retention_max_files {cap})\n" + "".join(lines)
    )
