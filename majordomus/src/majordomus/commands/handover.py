"""`majordomus handover [--derive] [--close] [--no-task] < body.md`; `--resolve [--path]`."""

from __future__ import annotations

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    import argparse
    from typing import Any

    from majordomus.invocation import Invocation


HELP = "write a continuation record (body on stdin), or --resolve the one that applies"
_FLAGS = ("derive", "close", "no_task", "resolve", "path")


def arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--derive", action="store_true", help="build the body from the facts")
    parser.add_argument("--close", action="store_true", help="also end the task as handed_over")
    parser.add_argument("--no-task", action="store_true", help="allow writing without a task")
    parser.add_argument(
        "--resolve", action="store_true", help="print the prior record that applies"
    )
    parser.add_argument("--path", action="store_true", help="with --resolve: only its path")


def stages(options: argparse.Namespace, inv: Invocation) -> list[list[str]]:
    flags = [f"--{name.replace('_', '-')}" for name in _FLAGS if getattr(options, name)]
    return [["mj-state", "handover", *flags]]


def run(options: argparse.Namespace, inv: Invocation) -> int:
    from mj_core import jsonl

    from majordomus import compose

    for record in compose.run(stages(options, inv), inv):
        if inv.json:
            inv.stdout.write(jsonl.dumps(record).decode())
        else:
            inv.stdout.write(text(record, path_only=options.path))
    return 0


def text(record: dict[str, Any], *, path_only: bool) -> str:
    from majordomus.commands.checkpoint import header
    from majordomus.commands.checkpoint import shown_body

    if record["action"] == "handover":
        closed = f"  (task {record['task_id']} closed: handed_over)" if record["closed"] else ""
        return f"{record['path']}{closed}\n"
    if record["path"] is None:
        return "" if path_only else "No relevant handover.\n"  # --path: a script sees no path
    if path_only:
        return f"{record['path']}\n"
    return header("handover", record) + "\n" + shown_body(str(record["body"]))
