"""`majordomus checkpoint [--derive] < body.md`, `--show`, `--list`: short progress notes."""

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


def text(record: Record) -> str:
    if record.get("kind") == "finding":
        from mj_core.findings import render_text

        return render_text(record)
    if record.get("kind") == "remote":  # with a remote: the leases a checkpoint renewed
        from majordomus.commands.task.sync import published

        return published(record) or ""
    action = record["action"]
    if action == "prune":
        return pruned(record)
    if action == "checkpoint":
        if record["path"]:
            return f"{record['path']}\n"
        if record["checkpoint_at"]:
            return f"checkpoint_at={record['checkpoint_at']} (empty body: no file written)\n"
        return "nothing recorded: empty body and no active task\n"
    if action == "listed":
        label = f"{record['label']:<17}"
        fields = (record["created_at"], label, record["head"], record["task_id"], record["path"])
        return "  ".join(fields) + "\n"
    if record["path"] is None:
        return "No relevant checkpoint.\n"
    return header("checkpoint", record) + "\n" + shown_body(str(record["body"]))


def pruned(record: Record) -> str:
    """What `--prune` moved (or, with `--dry-run`, would move), one path a line."""
    moved = record["moved"]
    cap = "no cap" if record["cap"] is None else f"cap {record['cap']}"
    if not moved:
        return f"{record['store']}/: {record['count']} file(s), {cap}; nothing to move\n"
    verb = "would move" if record["dry_run"] else "moved"
    head = f"{record['store']}/: {record['count']} file(s), {cap}; {verb} {len(moved)} to "
    return head + f"{record['archive']}/\n" + "".join(f"  {path}\n" for path in moved)


def shown_body(body: str) -> str:
    """A record's body for a terminal: every line through the one sanitiser, so no escape
    sequence or control character a worker stored reaches the reader's terminal."""
    from mj_core import sanitise

    return "\n".join(sanitise.line(line) for line in body.split("\n"))


def header(kind: str, record: Record) -> str:
    """`<kind> <path> — <label> (head …, task …, <created>)`."""
    return (
        f"{kind} {record['path']} — {record['label']} "
        f"(head {record['head']}, task {record['task_id']}, {record['created_at']})\n"
    )
