"""`majordomus verify`: CI's judge, shown as text (the findings and a count), as JSON Lines
(`--json`), or as GitHub workflow commands (`--format github`: `::error file=…,line=1,…::` for
a FAIL, `::warning …::` for a WARN, which GitHub shows as annotations on the file — an
uncovered commit's first changed path, else the policy —; the rest as plain lines)."""

from __future__ import annotations

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    import argparse
    from collections.abc import Iterable
    from typing import Any

    from majordomus.invocation import Invocation

    Record = dict[str, Any]

COMMANDS = {"FAIL": "error", "WARN": "warning"}
POLICY = ".ai/repo/policy.yaml"  # where a finding about no one file is located: the rules judged


def render(records: Iterable[Record], options: argparse.Namespace, inv: Invocation) -> int:
    from majordomus import render as show

    if getattr(options, "format", None) != "github":
        return show.findings("verify", (r for r in records if _shown(r, inv)), inv)
    levels: list[str] = []

    def text(record: Record) -> str | None:
        if record.get("kind") == "record":
            return f"wrote {record['report']} {record['path']}"
        if record.get("kind") != "finding":
            return None
        levels.append(str(record["level"]))
        return github(record)

    code, summary = show.stream(records, inv, text)
    if not inv.json and not summary.get("error"):
        inv.stdout.write(show.summary_line("verify", levels) + "\n")
    return code


def _shown(record: Record, inv: Invocation) -> bool:
    if record.get("kind") == "record" and not inv.json:
        inv.stdout.write(f"wrote {record['report']} {record['path']}\n")
        return False
    return True


def github(record: Record) -> str:
    from mj_core.findings import render_text

    command = COMMANDS.get(str(record["level"]))
    if command is None:
        return render_text(record)
    where = _escape(str(record.get("path") or POLICY), prop=True)
    title = _escape(f"verify {record['category']} {record['subject']}", prop=True)
    message = (
        f"{record['message']}  [reproduce: {record['reproduce']}]"
        if record.get("reproduce")
        else record["message"]
    )
    return f"::{command} file={where},line=1,title={title}::{_escape(str(message))}"


def _escape(text: str, prop: bool = False) -> str:
    """GitHub's workflow-command escaping: % CR LF always, and : , in a property."""
    out = text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    return out.replace(":", "%3A").replace(",", "%2C") if prop else out
