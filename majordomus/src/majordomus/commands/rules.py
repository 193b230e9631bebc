"""`majordomus rules`: the effective rule set (list, show) and the vendored baseline (vendor
status, diff, update). Read-only except `vendor update`; the work is in mj-policy."""

from __future__ import annotations

import argparse

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from typing import Any

    from majordomus.invocation import Invocation


HELP = "the effective rule set and the vendored baseline"

_STAGE = {"list": "rules", "show": "rule"}


def _sub(subs: Any, name: str, help_text: str) -> argparse.ArgumentParser:
    parser: argparse.ArgumentParser = subs.add_parser(name, help=help_text, description=help_text)
    parser.add_argument("--json", action="store_true", default=argparse.SUPPRESS, help="JSON Lines")
    parser.add_argument("--repo", default=argparse.SUPPRESS, help=argparse.SUPPRESS)
    parser.add_argument(
        "--pipeline", action="store_true", default=argparse.SUPPRESS, help=argparse.SUPPRESS
    )
    return parser


def arguments(parser: argparse.ArgumentParser) -> None:
    subs = parser.add_subparsers(dest="action", metavar="<action>", required=False)
    _sub(subs, "list", "resolved order with class, provenance and enforcement")
    _sub(subs, "show", "a rule's path, then its file").add_argument("id", help="id or id@version")
    vendor = _sub(subs, "vendor", "the vendored baseline against the shipped package")
    actions = vendor.add_subparsers(
        dest="vendor_action", metavar="<status|diff|update>", required=True
    )
    _sub(actions, "status", "revisions, integrity, same or different (11 when different)")
    _sub(actions, "diff", "unified diff, vendored → shipped (always exit 0)")
    update = _sub(actions, "update", "swap the shipped package in; never touches rules/project/")
    update.add_argument("--force", action="store_true", help="replace a hand-edited package")


def stages(options: argparse.Namespace, inv: Invocation) -> list[list[str]]:
    options.action = options.action or "list"  # `majordomus rules` alone lists the rule set
    if options.action == "vendor":
        argv = ["mj-policy", f"vendor-{options.vendor_action}"]
        return [argv + (["--force"] if getattr(options, "force", False) else [])]
    argv = ["mj-policy", _STAGE[options.action]]
    return [argv + ([options.id] if options.action == "show" else [])]


def run(options: argparse.Namespace, inv: Invocation) -> int:
    from majordomus import compose
    from majordomus import render

    records = compose.run(stages(options, inv), inv)
    if options.action == "vendor" and options.vendor_action == "status":
        return render.findings("rules vendor status", records, inv)
    return _print(options, list(records), inv)


def _print(options: argparse.Namespace, records: list[dict[str, Any]], inv: Invocation) -> int:
    from mj_core import jsonl

    from majordomus import events

    for record in records:
        if record.get("kind") == "event":
            events.append(inv, record)
        elif inv.json:
            inv.stdout.write(jsonl.dumps(record).decode())
        else:
            inv.stdout.write(_text(record))
    return 0


def _text(record: dict[str, Any]) -> str:
    kind = record.get("kind")
    if kind == "rule":
        key = f"{record['id']}@{record['version']}"
        return (
            f"{key:<40} {record['class']:<9} {record['provenance']:<18} {record['enforcement']}\n"
        )
    if kind == "rule-text":
        return f"{record['path']}\n{record['text']}"
    if kind == "vendored":
        if not record["changed"]:
            return f"{record['package']}/: current; nothing to do\n"
        return f"vendored {record['package']}/: {', '.join(record['changed'])}\n"
    return str(record.get("text", ""))
