"""`majordomus context`: the briefing for the next worker, and the context-document commands.

`context` composes `mj-state facts | mj-context build | mj-context render`; `context validate|
list|resolve|explain` run the mj-policy context-document stages. Read-only: nothing is written.
"""

from __future__ import annotations

import argparse

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from typing import Any

    from majordomus.invocation import Invocation

    Record = dict[str, Any]


HELP = "what the next worker needs to know, in authority order, within a line budget"
ACTIONS = ("validate", "list", "resolve", "explain")


def _positive(text: str) -> int:
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a positive number of lines")
    return int(text)


def arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("action", nargs="?", choices=ACTIONS, help="a context-document command")
    parser.add_argument("path", nargs="?", help="resolve/explain: a path in the repository")
    parser.add_argument("--budget-lines", type=_positive, metavar="N", help="the line budget")
    parser.add_argument(
        "--for",
        dest="provider_for",
        metavar="PROVIDER",
        help="wrap the body in a header naming the provider and its file",
    )
    parser.add_argument("--prompt", metavar="NAME", help="append this rendered prompt asset")
    parser.add_argument("--provider", help="resolve/explain: only documents for this provider")
    parser.add_argument("--audience", choices=("human", "agent"), help="resolve/explain filter")


def stages(options: argparse.Namespace, inv: Invocation) -> list[list[str]]:
    from mj_core.errors import UsageError

    action = options.action
    if action in ("resolve", "explain"):
        if not options.path:
            raise UsageError(f"context {action}: a path is required")
        argv = [f"context-{action}", options.path]
        argv += ["--provider", options.provider] if options.provider else []
        argv += ["--audience", options.audience] if options.audience else []
        return [["mj-policy", *argv]]
    if options.path:
        raise UsageError(f"context: unexpected argument {options.path!r}")
    if action:
        return [["mj-policy", f"context-{action}"]]
    facts = ["mj-state", "facts"] + (["--prompt", options.prompt] if options.prompt else [])
    build = ["mj-context", "build"]
    build += ["--budget-lines", str(options.budget_lines)] if options.budget_lines else []
    render = ["mj-context", "render", "--format", "json" if inv.json else "text"]
    render += ["--for", options.provider_for] if options.provider_for else []
    return [facts, build, render]


def run(options: argparse.Namespace, inv: Invocation) -> int:
    from mj_core import jsonl

    from majordomus import compose
    from majordomus import render

    records = compose.run(stages(options, inv), inv)
    if options.action == "validate":
        return render.findings("context validate", records, inv)
    for record in records:
        if record.get("kind") == "text" and not options.action:
            inv.stdout.write(str(record["text"]))
        elif inv.json:
            inv.stdout.write(jsonl.dumps(record).decode())
        else:
            inv.stdout.write(_line(options.action, record) + "\n")
        inv.stdout.flush()
    return 0


def _line(action: str, record: Record) -> str:
    where = f"{record['path']}:{record['line']}"
    if action == "list":
        shape = f"{record['scope']} {record['composition']} order {record['order']}"
        return f"{record['id']:<24} {where:<36} {shape} ({record['status']})"
    if action == "resolve":
        return f"{record['id']:<24} {where:<36} {record['reason']}"
    verdict = "applies" if record["applied"] else "skipped"
    return f"{verdict:<8} {record['id']:<24} {where} — {record['reason']}"
