"""`mj-watch`: the judges: doctor and watch checks as functions from facts to findings."""

from __future__ import annotations

import argparse
from typing import IO

from mj_core.cli import Stage
from mj_core.cli import build_parser
from mj_core.cli import tool_main

from mj_watch.doctor import STAGES as DOCTOR_STAGES
from mj_watch.finish import STAGES as FINISH_STAGES
from mj_watch.watch import STAGES as WATCH_STAGES

PROG = "mj-watch"
DESCRIPTION = "the judges: doctor and watch checks as functions from facts to findings"

TABLE: dict[str, Stage] = {
    **DOCTOR_STAGES,
    **FINISH_STAGES,
    **WATCH_STAGES,
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
