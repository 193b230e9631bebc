"""`majordomus history`: the ledger read back, oldest first; `--validate`; `--rotate`."""

from __future__ import annotations

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    import argparse
    from typing import Any

    from majordomus.invocation import Invocation


HELP = "read the ledger back (--validate judges it, --rotate caps it)"
_ENVELOPE = ("ts", "event", "head", "branch", "by", "session", "task_id", "prev")


def arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--task", help="only lines for this task id")
    parser.add_argument("--event", help="only this event (declared in share/events.yaml)")
    parser.add_argument("--since", help="<n>m|h|d or an ISO timestamp")
    amount = parser.add_mutually_exclusive_group()
    amount.add_argument("--limit", type=int, help="newest matches to show (default 20)")
    amount.add_argument("--all", action="store_true", help="every match")
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--validate", action="store_true", help="report malformed lines; exit 10")
    mode.add_argument("--rotate", action="store_true", help="archive lines over the cap")


def stages(options: argparse.Namespace, inv: Invocation) -> list[list[str]]:
    argv = ["mj-state", "history"]
    for flag in ("task", "event", "since", "limit"):
        if getattr(options, flag) is not None:
            argv += [f"--{flag}", str(getattr(options, flag))]
    argv += [f"--{flag}" for flag in ("all", "validate", "rotate") if getattr(options, flag)]
    return [argv]


def run(options: argparse.Namespace, inv: Invocation) -> int:
    from majordomus import compose
    from majordomus import render

    records = compose.run(stages(options, inv), inv)
    if options.validate:
        return render.findings("history", records, inv)
    if options.rotate:
        return _rotated(next(iter(records)), inv)
    skipped: list[int] = []
    for record in records:
        if record["kind"] == "skipped":
            skipped.append(record["lineno"])
        elif inv.json:
            inv.stdout.write(record["raw"] + "\n")
        else:
            inv.stdout.write(line(record["record"]) + "\n")
    if skipped and not inv.json:
        listed = ", ".join(str(n) for n in skipped[:10]) + (" …" if len(skipped) > 10 else "")
        inv.stdout.write(
            f"history: skipped {len(skipped)} malformed line(s) ({listed}); "
            "run majordomus history --validate\n"
        )
    return 0


def line(record: dict[str, Any]) -> str:
    """`<ts>  <event padded>  <task id>  <short head>  <summary>`."""
    summary = " ".join(
        f"{key}={_value(value)}" for key, value in record.items() if key not in _ENVELOPE
    )
    task = record.get("task_id") or "-"
    head = str(record.get("head") or "-")[:7]
    return f"{record.get('ts')}  {record.get('event', ''):<20} {task}  {head}  {summary}".rstrip()


def _value(value: Any) -> str:
    if isinstance(value, str):
        return value
    from mj_core import jsonl

    return jsonl.dumps({"v": value}).decode()[5:-2]


def _rotated(record: dict[str, Any], inv: Invocation) -> int:
    if inv.json:
        from mj_core import jsonl

        inv.stdout.write(jsonl.dumps(record).decode())
    elif record["moved"]:
        inv.stdout.write(
            f"rotated: {record['moved']} line(s) moved to {record['archive']}, "
            f"{record['cap']} kept (ledger.retention_max_lines)\n"
        )
    elif record["lines"] > record["cap"]:
        inv.stdout.write(
            f"history: {record['lines']} line(s), over the cap of {record['cap']}, but the "
            "active task's lines are never archived; nothing to rotate\n"
        )
    else:
        inv.stdout.write(
            f"history: {record['lines']} line(s), within the cap of {record['cap']}; "
            "nothing to rotate\n"
        )
    return 0
