"""Human and JSON rendering of finding streams; the exit code is the verdict over the stream."""

from __future__ import annotations

from mj_core import jsonl
from mj_core.exitcodes import ExitCode
from mj_core.findings import render_text
from mj_core.findings import verdict

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from collections.abc import Iterable
    from typing import Any

    from majordomus.invocation import Invocation

    Record = dict[str, Any]


def summary_record(command: str, findings: list[Record], code: ExitCode) -> Record:
    levels = [f["level"] for f in findings]
    return {
        "kind": "summary",
        "command": command,
        "findings": len(findings),
        "failures": levels.count("FAIL"),
        "drift": levels.count("DRIFT"),
        "warnings": levels.count("WARN"),
        "exit": int(code),
    }


def summary_line(command: str, record: Record) -> str:
    if command == "watch":
        return f"watch: {record['drift']} finding(s)"
    if record["failures"]:
        return f"{command}: {record['failures']} failure(s)"
    return f"{command}: ok, {record['findings']} finding(s), {record['warnings']} warning(s)"


def findings(command: str, records: Iterable[Record], inv: Invocation) -> int:
    """Print each finding as it arrives (text or JSON Lines), then the summary; return verdict."""
    seen: list[Record] = []
    for record in records:
        if record.get("kind") != "finding":
            continue
        seen.append(record)
        if inv.json:
            inv.stdout.write(jsonl.dumps(record).decode())
        else:
            inv.stdout.write(render_text(record) + "\n")
        inv.stdout.flush()
    code = verdict(seen)
    summary = summary_record(command, seen, code)
    if inv.json:
        inv.stdout.write(jsonl.dumps(summary).decode())
    else:
        inv.stdout.write(summary_line(command, summary) + "\n")
    return int(code)
