"""`majordomus context`: the briefing for the next worker, and the context-document commands.

`context` composes `mj-state facts | mj-context build | mj-context render`; `context validate|
list|resolve|explain|affected|check-sync` run the mj-policy context-document stages. Read-only:
nothing is written.
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
    from majordomus import render as show

    action = options.command.partition(" ")[2]
    if action in ("validate", "affected", "check-sync"):
        return show.findings(f"context {action}", records, inv)
    code, _ = show.stream(records, inv, lambda record: _line(action, record))
    return code


def _line(action: str, record: Record) -> str:
    where = f"{record['path']}:{record['line']}"
    if action == "list":
        shape = f"{record['scope']} {record['composition']} order {record['order']}"
        return f"{record['id']:<24} {where:<36} {shape} ({record['status']})"
    if action == "resolve":
        return f"{record['id']:<24} {where:<36} {record['reason']}"
    verdict = "applies" if record["applied"] else "skipped"
    return f"{verdict:<8} {record['id']:<24} {where} — {record['reason']}"
