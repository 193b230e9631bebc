"""Showing a command's stream to a person; under `--json`, the stream as it is.

Every command's last stage ends its records with the stream's summary (`mj_core.stream.protocol`):
its exit code is the command's, and an error it carries (a stage that stopped) is the one
line on stderr. `stream` writes the records (verbatim under `--json`, or each through the
command's own `text`); `findings` is that for a stream of findings, ending with the line
`<command>: …` that counts them.
"""

from __future__ import annotations

from mj_core.exit_codes import ExitCode
from mj_core.findings import render_text
from mj_core.stream import jsonl

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from collections.abc import Callable
    from collections.abc import Iterable
    from typing import Any

    from majordomus.invocation import Invocation

    Record = dict[str, Any]


def stream(
    records: Iterable[Record], inv: Invocation, text: Callable[[Record], str | None]
) -> tuple[int, Record]:
    """Write every record; return (the exit code, the summary). A `text` record (a renderer's
    output) is written as its text in either form."""
    summary: Record = {"exit": int(ExitCode.INTERNAL_ERROR)}
    for record in records:
        kind = record.get("kind")
        if kind == "summary":
            summary = record
            if inv.json and not summary.get("raw"):
                inv.stdout.write(jsonl.dumps(record).decode())
            continue
        if kind == "text":
            inv.stdout.write(str(record["text"]))
        elif inv.json:
            inv.stdout.write(jsonl.dumps(record).decode())
        else:
            line = text(record)
            if line:
                inv.stdout.write(line if line.endswith("\n") else line + "\n")
        inv.stdout.flush()
    return ended(summary, inv), summary


def ended(summary: Record, inv: Invocation) -> int:
    """The summary's exit code; its error, if it carries one, as the one line on stderr."""
    if summary.get("error"):
        inv.stderr.write(f"majordomus: {summary['error']}\n")
    return int(summary.get("exit", ExitCode.INTERNAL_ERROR))


def ran(name: str, run: Callable[[Any, Invocation], int], options: Any, inv: Invocation) -> int:
    """A command without a pipeline, run; under `--json`, an error it raises still ends its
    stream with a summary (carrying the error and its code), as a stage's would. The error's
    line on stderr is the caller's, as ever."""
    from mj_core.errors import MjError

    try:
        return run(options, inv)
    except MjError as exc:
        if inv.json:
            from mj_core.stream import protocol as streams

            said = streams.summary(f"majordomus {name}", int(exc.code), {}, exc.message)
            inv.stdout.write(jsonl.dumps(said).decode())
            inv.stdout.flush()
        raise


def findings(command: str, records: Iterable[Record], inv: Invocation) -> int:
    """Each finding as it arrives, then `<command>: …` counting them; the summary's code."""
    levels: list[str] = []

    def text(record: Record) -> str | None:
        if record.get("kind") != "finding":
            return None
        levels.append(str(record["level"]))
        return render_text(record)

    code, summary = stream(records, inv, text)
    if not inv.json and not summary.get("error"):
        inv.stdout.write(summary_line(command, levels) + "\n")
    return code


def summary_line(command: str, levels: list[str]) -> str:
    if command == "watch":
        return f"watch: {levels.count('DRIFT')} finding(s)"
    if levels.count("FAIL"):
        return f"{command}: {levels.count('FAIL')} failure(s)"
    return f"{command}: ok, {len(levels)} finding(s), {levels.count('WARN')} warning(s)"
