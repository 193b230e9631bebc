"""`majordomus history`: the ledger read back, oldest first; `--validate`; `--rotate`."""

from __future__ import annotations

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    import argparse
    from collections.abc import Iterable
    from typing import Any

    from majordomus.invocation import Invocation

    Record = dict[str, Any]

_ENVELOPE = ("ts", "event", "head", "branch", "by", "session", "task_id", "prev")


def render(records: Iterable[Record], options: argparse.Namespace, inv: Invocation) -> int:
    from majordomus import render as show

    if options.validate:
        return show.findings("history", records, inv)
    skipped: list[int] = []

    def text(record: Record) -> str | None:
        if record["kind"] == "skipped":
            skipped.append(record["lineno"])
            return None
        if record.get("action") == "rotate":
            return _rotated(record)
        return line(record["record"])

    code, _ = show.stream(records, inv, text)
    if skipped and not inv.json:
        listed = ", ".join(str(n) for n in skipped[:10]) + (" …" if len(skipped) > 10 else "")
        inv.stdout.write(
            f"history: skipped {len(skipped)} malformed line(s) ({listed}); "
            "run majordomus history --validate\n"
        )
    return code


def line(record: Record) -> str:
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


def _rotated(record: Record) -> str:
    if record["moved"]:
        return (
            f"rotated: {record['moved']} line(s) moved to {record['archive']}, "
            f"{record['cap']} kept (ledger.retention_max_lines)"
        )
    if record["lines"] > record["cap"]:
        return (
            f"history: {record['lines']} line(s), over the cap of {record['cap']}, but the "
            "active task's lines are never archived; nothing to rotate"
        )
    return (
        f"history: {record['lines']} line(s), within the cap of {record['cap']}; nothing to rotate"
    )
