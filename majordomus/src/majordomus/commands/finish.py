"""`majordomus finish --outcome <o> [--verify-command "<cmd>"] [--note <file>] [--check]`.

Every contract line is printed OK or FAIL; anything unmet → 10, nothing written, then the
blocking doctrine ids. `--check` (the pre-push hook) evaluates scope and state and writes nothing.
"""

from __future__ import annotations

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    import argparse
    from typing import Any

    from majordomus.invocation import Invocation


HELP = "evaluate the finish contract and record the typed outcome"
OUTCOMES = ("completed", "partial", "blocked", "no_match", "failed")


def arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--outcome", choices=OUTCOMES, help="the typed outcome claimed")
    parser.add_argument("--verify-command", help="verification the tool runs itself (no shell)")
    parser.add_argument(
        "--note",
        help="completion note: a file anywhere, or - for stdin (else the newest handover)",
    )
    parser.add_argument("--check", action="store_true", help="evaluate scope and state; no write")


def stages(options: argparse.Namespace, inv: Invocation) -> list[list[str]]:
    argv = ["mj-watch", "finish"]
    for flag in ("outcome", "verify_command", "note"):
        if getattr(options, flag):
            argv += [f"--{flag.replace('_', '-')}", getattr(options, flag)]
    return [argv + (["--check"] if options.check else [])]


def run(options: argparse.Namespace, inv: Invocation) -> int:
    from mj_core import jsonl
    from mj_core.findings import render_text
    from mj_core.findings import verdict

    from majordomus import compose

    findings: list[dict[str, Any]] = []
    outcome: dict[str, Any] = {}
    for record in compose.run(stages(options, inv), inv):
        if record.get("kind") != "finding":
            outcome = record
            continue
        findings.append(record)
        inv.stdout.write(jsonl.dumps(record).decode() if inv.json else render_text(record) + "\n")
    code = int(verdict(findings))
    summary = _summary(outcome, findings, code, check=options.check)
    inv.stdout.write(jsonl.dumps(summary).decode() if inv.json else _text(summary))
    return code


def _summary(
    outcome: dict[str, Any], findings: list[dict[str, Any]], code: int, *, check: bool
) -> dict[str, Any]:
    record: dict[str, Any] = {"kind": "summary", "command": "finish", "check": check}
    record["unmet"] = sum(1 for f in findings if f["level"] == "FAIL")
    record["blocking"] = list(outcome.get("blocking") or [])
    for key in ("task_id", "outcome", "note"):
        if key in outcome:
            record[key] = outcome[key]
    record["exit"] = code
    return record


def _text(summary: dict[str, Any]) -> str:
    if summary["blocking"]:
        head = "finish --check" if summary["check"] else "finish"
        lines = [f"{head}: refused, {summary['unmet']} unmet", "blocking doctrines:"]
        return "\n".join(lines + [f"- {doctrine}" for doctrine in summary["blocking"]]) + "\n"
    if summary["check"]:
        return "finish --check: ok, nothing blocks a push\n"
    return (
        f"finish: {summary['outcome']} {summary['task_id']} — contract met; "
        f"note copied to {summary['note']}\n"
    )
