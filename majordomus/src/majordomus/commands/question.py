"""`majordomus question add|resolve|list`: questions that block acceptance of a task."""

from __future__ import annotations

import argparse

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from typing import Any

    from majordomus.invocation import Invocation


HELP = "open, resolve and list questions blocking acceptance"


def arguments(parser: argparse.ArgumentParser) -> None:
    subs = parser.add_subparsers(dest="action", metavar="add|resolve|list")
    add = subs.add_parser("add", help="open a question for the active task")
    add.add_argument("question", help="one line, without ' — '")
    resolve = subs.add_parser("resolve", help="resolve one question in place")
    resolve.add_argument("selector", help="its number from `question list`, or its text")
    resolve.add_argument("--answer", required=True, help="the answer")
    listing = subs.add_parser("list", help="unresolved questions (--all adds resolved)")
    listing.add_argument("--all", action="store_true", help="resolved ones too")
    listing.add_argument("--task", help="only this task's questions")
    for sub in (add, resolve, listing):  # the global options, accepted after the action too
        sub.add_argument("--json", action="store_true", default=argparse.SUPPRESS, help="JSON")
        sub.add_argument("--pipeline", action="store_true", default=argparse.SUPPRESS)
        sub.add_argument("--repo", default=argparse.SUPPRESS, help=argparse.SUPPRESS)


def stages(options: argparse.Namespace, inv: Invocation) -> list[list[str]]:
    if options.action == "add":
        return [["mj-state", "question-add", options.question]]
    if options.action == "resolve":
        return [["mj-state", "question-resolve", options.selector, "--answer", options.answer]]
    argv = ["mj-state", "question-list"]
    argv += ["--all"] if options.all else []
    argv += ["--task", options.task] if options.task else []
    return [argv]


def run(options: argparse.Namespace, inv: Invocation) -> int:
    inv.root()  # outside a repository is the first thing to say (2)
    if options.action is None:
        from mj_core.errors import UsageError

        raise UsageError("question: an action is required (add, resolve or list)")
    from mj_core import jsonl

    from majordomus import compose

    count = 0
    for record in compose.run(stages(options, inv), inv):
        count += 1
        if inv.json:
            inv.stdout.write(jsonl.dumps(record).decode())
        else:
            inv.stdout.write(_text(record) + "\n")
    if options.action == "list" and not inv.json and not count:
        inv.stdout.write("question: none unresolved\n" if not options.all else "question: none\n")
    return 0


def _text(record: dict[str, Any]) -> str:
    if record.get("action") == "opened":
        return f"opened for {record['task_id']}: {record['question']}"
    if record.get("action") == "resolved":
        return f"resolved {record['number']}: {record['question']} — {record['answer']}"
    if record["state"] == "resolved":
        return (
            f"{record['number']:>3}  [resolved {record['date']}] {record['task_id']} — "
            f"{record['question']} — {record['answer']}"
        )
    return (
        f"{record['number']:>3}  [unresolved] {record['task_id']} — "
        f"{record['question']} ({record['date']})"
    )
