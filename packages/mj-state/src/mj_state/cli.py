"""`mj-state`: git identity and the checkout's durable records: task, checkpoints, handovers, decisions, questions, ledger; worktree overlap."""

from __future__ import annotations

import argparse
from typing import IO

from mj_core.cli import Stage
from mj_core.cli import build_parser
from mj_core.cli import tool_main

from mj_state.asking import STAGES as QUESTION_STAGES
from mj_state.check import STAGES as CHECK_STAGES
from mj_state.checkpoint import STAGES as CHECKPOINT_STAGES
from mj_state.decisionlog import STAGES as DECISION_STAGES
from mj_state.facts import STAGES as FACTS_STAGES
from mj_state.handover import STAGES as HANDOVER_STAGES
from mj_state.history import STAGES as HISTORY_STAGES
from mj_state.start import STAGES as START_STAGES

PROG = "mj-state"
DESCRIPTION = "git identity and the checkout's durable records: task, checkpoints, handovers, decisions, questions, ledger; worktree overlap"

TABLE: dict[str, Stage] = {
    **START_STAGES,
    **CHECK_STAGES,
    **HISTORY_STAGES,
    **QUESTION_STAGES,
    **FACTS_STAGES,
    **CHECKPOINT_STAGES,
    **HANDOVER_STAGES,
    **DECISION_STAGES,
}


def parse(argv: list[str]) -> argparse.Namespace:
    return build_parser(PROG, TABLE, DESCRIPTION).parse_args(argv)


def main(
    argv: list[str] | None = None,
    *,
    stdin: IO[bytes] | None = None,
    stdout: IO[bytes] | None = None,
    stderr: IO[str] | None = None,
) -> int:
    return tool_main(PROG, DESCRIPTION, TABLE, argv, stdin=stdin, stdout=stdout, stderr=stderr)
