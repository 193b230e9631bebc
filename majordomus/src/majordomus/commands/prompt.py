"""`majordomus prompt list|show|render`: the repository's prompt assets. Read-only."""

from __future__ import annotations

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    import argparse
    from typing import Any

    from majordomus.invocation import Invocation

    Record = dict[str, Any]


HELP = "list, show or render the repository's prompt assets"


def arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "action",
        nargs="?",
        default="list",
        choices=("list", "show", "render"),
        help="default: list",
    )
    parser.add_argument("name", nargs="?", help="show/render: the asset's name")


def stages(options: argparse.Namespace, inv: Invocation) -> list[list[str]]:
    from mj_core.errors import UsageError

    if options.action == "list":
        if options.name:
            raise UsageError(f"prompt list: unexpected argument {options.name!r}")
        return [["mj-policy", "prompt-list"]]
    if not options.name:
        raise UsageError(f"prompt {options.action}: an asset name is required")
    if options.action == "show":
        return [["mj-policy", "prompt-show", options.name]]
    form = "json" if inv.json else "text"
    return [
        ["mj-state", "facts", "--prompt", options.name],
        ["mj-context", "prompt-render", "--format", form],
    ]


def run(options: argparse.Namespace, inv: Invocation) -> int:
    from mj_core import jsonl

    from majordomus import compose

    records = list(compose.run(stages(options, inv), inv))
    width = max((len(r["name"]) for r in records if "name" in r), default=0)
    for record in records:
        if inv.json:
            inv.stdout.write(jsonl.dumps(record).decode())
        elif record.get("kind") == "text":
            inv.stdout.write(str(record["text"]))
        elif options.action == "list":
            inv.stdout.write(f"{record['name']:<{width}}  {record['description']}\n")
        else:
            inv.stdout.write(f"# {record['name']} — {record['description']} ({record['path']})\n")
            inv.stdout.write(str(record["body"]))
    return 0
