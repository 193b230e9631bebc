"""`majordomus checkpoint [--derive] < body.md`, `--show`, `--list`: short progress notes."""

from __future__ import annotations

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    import argparse
    from typing import Any

    from majordomus.invocation import Invocation


HELP = "write a short progress note (body on stdin); --show, --list"


def arguments(parser: argparse.ArgumentParser) -> None:
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--derive", action="store_true", help="build the body from git and ledger")
    group.add_argument("--show", action="store_true", help="the newest checkpoint that applies")
    group.add_argument("--list", action="store_true", help="this worktree's checkpoints")


def stages(options: argparse.Namespace, inv: Invocation) -> list[list[str]]:
    flags = [f"--{name}" for name in ("derive", "show", "list") if getattr(options, name)]
    return [["mj-state", "checkpoint", *flags]]


def run(options: argparse.Namespace, inv: Invocation) -> int:
    from mj_core import jsonl

    from majordomus import compose

    for record in compose.run(stages(options, inv), inv):
        inv.stdout.write(jsonl.dumps(record).decode() if inv.json else text(record))
    return 0


def text(record: dict[str, Any]) -> str:
    action = record["action"]
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


def shown_body(body: str) -> str:
    """A record's body for a terminal: every line through the one sanitiser, so no escape
    sequence or control character a worker stored reaches the reader's terminal."""
    from mj_core import sanitise

    return "\n".join(sanitise.line(line) for line in body.split("\n"))


def header(kind: str, record: dict[str, Any]) -> str:
    """`<kind> <path> — <label> (head …, task …, <created>)`."""
    return (
        f"{kind} {record['path']} — {record['label']} "
        f"(head {record['head']}, task {record['task_id']}, {record['created_at']})\n"
    )
