"""`majordomus finish --outcome <o> [--verify-command "<cmd>"] [--note <file>] [--check]`.

Every contract line is printed OK or FAIL; anything unmet → 10, nothing written, then the
blocking doctrine ids. An abandoning outcome's scope line outside the claim is a WARN: the
paths are recorded on the finish. `--check` (the pre-push hook) evaluates the scope of the
commits a push sends, and the state, and writes nothing.
"""

from __future__ import annotations

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    import argparse
    from collections.abc import Iterable
    from typing import Any

    from majordomus.invocation import Invocation

    Record = dict[str, Any]


def render(records: Iterable[Record], options: argparse.Namespace, inv: Invocation) -> int:
    from mj_core.findings import render_text

    from majordomus import render as show

    outcome: Record = {}
    unmet: list[Record] = []
    recorded: list[Record] = []

    def text(record: Record) -> str | None:
        if record.get("kind") == "remote":  # with a remote: what the finish published
            from majordomus.commands.task.sync import published

            return published(record)
        if record.get("kind") != "finding":
            outcome.update(record)
            return None
        if record["level"] == "FAIL":
            unmet.append(record)
        if record["level"] == "WARN" and record["category"] == "scope":
            recorded.append(record)
        return render_text(record)

    code, summary = show.stream(records, inv, text)
    if not inv.json and not summary.get("error"):
        said = _text(outcome, len(unmet), check=options.check)
        if recorded and not options.check and outcome.get("action") == "finished":
            said = said.replace("contract met", "ended with what lies outside its scope recorded")
        inv.stdout.write(said)
    return code


def _text(outcome: Record, unmet: int, *, check: bool) -> str:
    blocking = list(outcome.get("blocking") or [])
    if blocking:
        head = "finish --check" if check else "finish"
        lines = [f"{head}: refused, {unmet} unmet", "blocking doctrines:"]
        return "\n".join(lines + [f"- {doctrine}" for doctrine in blocking]) + "\n"
    if check:
        return "finish --check: ok, nothing blocks a push\n"
    return (
        f"finish: {outcome.get('outcome')} {outcome.get('task_id')} — contract met; "
        f"note copied to {outcome.get('note')}\n"
    )
