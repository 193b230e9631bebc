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
    from mj_core.stream import jsonl

    return jsonl.dumps({"v": value}).decode()[5:-2]


def _rotated(record: Record) -> str:
    cap = record["cap"]
    if record["moved"]:
        return (
            f"rotated: {record['moved']} line(s) moved to {record['archive']}; "
            f"the ledger holds {record['lines']} line(s): its seal, {record['kept']} kept and "
            f"this rotation's ledger.rotated line ({record['counted']} counted against "
            f"ledger.retention_max_lines {cap})"
        )
    if record["counted"] > cap:
        return (
            f"history: {record['counted']} line(s), over the cap of {cap}, but the active "
            f"task's {record['held']} line(s) are never archived and none before them is "
            "left; nothing to rotate until the task ends"
        )
    return f"history: {record['counted']} line(s), within the cap of {cap}; nothing to rotate"
