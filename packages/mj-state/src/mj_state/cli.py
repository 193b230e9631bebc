"""`mj-state`: git identity and the checkout's durable records: task, checkpoints, handovers, decisions, questions, ledger; worktree overlap."""

from __future__ import annotations

import argparse
from typing import IO

from mj_core.cli import LazyTable
from mj_core.cli import build_parser
from mj_core.cli import tool_main

PROG = "mj-state"
DESCRIPTION = "git identity and the checkout's durable records: task, checkpoints, handovers, decisions, questions, ledger; worktree overlap"

# subcommand → the module whose STAGES defines it; a run imports only its own module
TABLE = LazyTable(
    {
        "start": "mj_state.start",
        "check": "mj_state.check",
        "history": "mj_state.history",
        "question-add": "mj_state.asking",
        "question-resolve": "mj_state.asking",
        "question-list": "mj_state.asking",
        "facts": "mj_state.facts",
        "checkpoint": "mj_state.checkpoint",
        "handover": "mj_state.handover",
        "decision-add": "mj_state.decisionlog",
        "decision-list": "mj_state.decisionlog",
        "decision-show": "mj_state.decisionlog",
    }
)


def parse(argv: list[str]) -> argparse.Namespace:
    return build_parser(PROG, TABLE, DESCRIPTION, argv).parse_args(argv)


def main(
    argv: list[str] | None = None,
    *,
    stdin: IO[bytes] | None = None,
    stdout: IO[bytes] | None = None,
    stderr: IO[str] | None = None,
) -> int:
    return tool_main(PROG, DESCRIPTION, TABLE, argv, stdin=stdin, stdout=stdout, stderr=stderr)
