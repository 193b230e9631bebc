"""`majordomus update`: regenerate the provider projections from the policy.

The work happens in `mj-policy update`; this module picks the flags, prints one line per
target and a summary, and returns the verdict. `--check` prints findings (the CI gate).
"""

from __future__ import annotations

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    import argparse
    from typing import Any

    from majordomus.invocation import Invocation


HELP = "regenerate provider instruction files (projections) from the policy"

_FLAGS = ("dry_run", "force", "check")


def arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--dry-run", action="store_true", help="show what would change; write nothing"
    )
    parser.add_argument(
        "--diff", metavar="TARGET", help="print the diff for one target (region only)"
    )
    parser.add_argument(
        "--force", action="store_true", help="overwrite hand-edited or unstamped targets"
    )
    parser.add_argument(
        "--check", action="store_true", help="read-only CI gate: exit 10 when a target would change"
    )


def stages(options: argparse.Namespace, inv: Invocation) -> list[list[str]]:
    argv = ["mj-policy", "update"]
    argv += [f"--{flag.replace('_', '-')}" for flag in _FLAGS if getattr(options, flag)]
    if options.diff:
        argv += ["--diff", options.diff]
    return [argv]


def run(options: argparse.Namespace, inv: Invocation) -> int:
    from majordomus import compose
    from majordomus import render

    records = compose.run(stages(options, inv), inv)
    if options.check:
        return render.findings("update", records, inv)
    if options.diff:
        for record in records:
            inv.stdout.write(record["text"] or f"{record['target']}: no difference\n")
        return 0
    return _report(list(records), inv, dry_run=options.dry_run)


def _report(records: list[dict[str, Any]], inv: Invocation, *, dry_run: bool) -> int:
    from mj_core import jsonl

    from majordomus import events

    projections = [r for r in records if r.get("kind") == "projection"]
    for event in (r for r in records if r.get("kind") == "event"):
        events.append(inv, event)
    written = [r for r in projections if r["action"] != "unchanged"]
    for record in projections:
        inv.stdout.write(jsonl.dumps(record).decode() if inv.json else _line(record))
    summary = _summary(len(written), len(projections), dry_run)
    if inv.json:
        record = {"kind": "summary", "command": "update", "targets": len(projections)}
        record.update({"changed": len(written), "dry_run": dry_run, "exit": 0})
        inv.stdout.write(jsonl.dumps(record).decode())
    else:
        inv.stdout.write(summary + "\n")
    return 0


def _summary(changed: int, total: int, dry_run: bool) -> str:
    if not changed:
        return f"update: nothing to change; all {total} target(s) are current"
    if dry_run:
        return f"update: {changed} of {total} target(s) would change (dry run; nothing written)"
    return f"update: wrote {changed} of {total} target(s)"


def _line(record: dict[str, Any]) -> str:
    detail = f"{record['mode']}, {record['state']}, policy {record['policy']}"
    return f"{record['action']:<11} {record['target']}  ({detail})\n"
