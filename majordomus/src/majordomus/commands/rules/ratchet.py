"""`majordomus ratchet check` (findings) and `ratchet update [--allow-increase --why]`."""

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

    if not hasattr(options, "allow_increase"):  # `ratchet check`
        return show.findings("ratchet", records, inv)
    code, _ = show.stream(records, inv, text)
    return code


def text(record: Record) -> str:
    counts = ", ".join(f"{name} {count}" for name, count in record["counts"].items())
    raised = "".join(
        f"  raised: {name} {old} → {new} (ratchet.raised in the ledger)\n"
        for name, (old, new) in record["raised"].items()
    )
    return f"{record['path']}: {counts or 'no metric'}\n{raised}"
