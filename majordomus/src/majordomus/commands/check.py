"""`majordomus check`: is the active task consistent with policy, scope and git?"""

from __future__ import annotations

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    import argparse
    from collections.abc import Iterable
    from collections.abc import Iterator
    from typing import Any

    from majordomus.invocation import Invocation

    Record = dict[str, Any]


HELP = "judge the active task against policy, scope and git (read-only)"


def arguments(parser: argparse.ArgumentParser) -> None:
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--explain", action="store_true", help="print the effective setup; exit 0")
    group.add_argument("--overlap", action="store_true", help="only the overlap with worktrees")
    group.add_argument(
        "--checkpoint", action="store_true", help="after the checks, move checkpoint_at (a write)"
    )


def stages(options: argparse.Namespace, inv: Invocation) -> list[list[str]]:
    argv = ["mj-state", "check"]
    argv += [f"--{flag}" for flag in ("explain", "overlap", "checkpoint") if getattr(options, flag)]
    return [argv]


def run(options: argparse.Namespace, inv: Invocation) -> int:
    from mj_core import jsonl

    from majordomus import compose
    from majordomus import render

    records = compose.run(stages(options, inv), inv)
    if options.explain:
        for record in records:
            if inv.json:
                inv.stdout.write(jsonl.dumps(record).decode())
                continue
            inv.stdout.write(f"# {record['heading']}\n")
            inv.stdout.write("".join(f"  {line}\n" for line in record["lines"]))
        return 0
    written: list[Record] = []
    code = render.findings("check", _noting(records, written), inv)
    if not inv.json:
        for record in written:
            inv.stdout.write(f"checkpoint_at={record['checkpoint_at']}  {record['path']}\n")
    return code


def _noting(records: Iterable[Record], written: list[Record]) -> Iterator[Record]:
    """Pass records through, keeping the write report `--checkpoint` yields."""
    for record in records:
        if record.get("kind") == "record":
            written.append(record)
        yield record
