"""`majordomus doctor`: is the governance layer real and wired here? Read-only.

`--brief` is the form a git hook runs: one line counting the findings when nothing failed, the
full report when something did (or when a stage stopped); `--json` is the stream either way.
"""

from __future__ import annotations

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    import argparse
    from collections.abc import Iterable
    from typing import Any

    from majordomus.invocation import Invocation

    Record = dict[str, Any]

FULL = "majordomus doctor"  # where the report a brief run does not show is


def render(records: Iterable[Record], options: argparse.Namespace, inv: Invocation) -> int:
    from majordomus import render as show

    if not getattr(options, "brief", False) or inv.json:
        return show.findings("doctor", records, inv)
    return _brief(records, inv)


def _brief(records: Iterable[Record], inv: Invocation) -> int:
    from mj_core.findings import render_text

    from majordomus import render as show

    shown: list[str] = []
    levels: list[str] = []

    def held(record: Record) -> None:
        if record.get("kind") == "finding":
            levels.append(str(record["level"]))
            shown.append(render_text(record))

    code, summary = show.stream(records, inv, held)
    if summary.get("error"):
        return code
    line = show.summary_line("doctor", levels)
    if code or "FAIL" in levels:
        inv.stdout.write("".join(f"{text}\n" for text in shown) + line + "\n")
    else:
        inv.stdout.write(f"{line} (the full report: {FULL})\n")
    return code
