"""`majordomus decision add "<title>" --why …`, `decision list`, `decision show "<text>"`."""

from __future__ import annotations

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    import argparse
    from typing import Any

    from majordomus.invocation import Invocation


HELP = "append-only decision log: add, list, show"


def arguments(parser: argparse.ArgumentParser) -> None:
    subs = parser.add_subparsers(dest="action", metavar="<add|list|show>")
    add = subs.add_parser("add", help="append a decision (Task and Head computed)")
    add.add_argument("title", help="what was decided, one line")
    add.add_argument("--why", required=True, help="the reason (required)")
    add.add_argument("--rejected", help="the alternative turned down")
    add.add_argument("--evidence", help="a reference that supports it")
    add.add_argument("--supersedes", help="text of the recorded decision this replaces")
    listing = subs.add_parser("list", help="recorded decisions, newest first")
    listing.add_argument("--task", help="only entries for this task id")
    listing.add_argument("--limit", type=int, help="at most this many")
    show = subs.add_parser("show", help="the first decision whose title contains the text")
    show.add_argument("text", help="text the title contains")


def stages(options: argparse.Namespace, inv: Invocation) -> list[list[str]]:
    if options.action is None:
        inv.root()  # outside a repository that is the usage error to report first
        from mj_core.errors import UsageError

        raise UsageError("decision: name an action: add, list or show")
    if options.action == "add":
        argv = ["mj-state", "decision-add", options.title, "--why", options.why]
        for flag in ("rejected", "evidence", "supersedes"):
            if getattr(options, flag) is not None:
                argv += [f"--{flag}", getattr(options, flag)]
        return [argv]
    if options.action == "list":
        argv = ["mj-state", "decision-list"]
        argv += ["--task", options.task] if options.task else []
        argv += ["--limit", str(options.limit)] if options.limit is not None else []
        return [argv]
    return [["mj-state", "decision-show", options.text]]


def run(options: argparse.Namespace, inv: Invocation) -> int:
    from mj_core import jsonl

    from majordomus import compose

    for record in compose.run(stages(options, inv), inv):
        inv.stdout.write(jsonl.dumps(record).decode() if inv.json else text(record))
    return 0


def text(record: dict[str, Any]) -> str:
    if record["action"] == "recorded":
        return f"recorded: {record['title']}\n"
    if "text" in record:
        return str(record["text"])
    head = (record.get("head") or "-")[:7]
    return f"{record['date']}  {record['title']}  ({record.get('task') or '-'}, {head})\n"
