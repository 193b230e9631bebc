"""`mj-context`: the briefing: facts in, sections within a budget out; text and JSON renderers."""

from __future__ import annotations

import argparse
from typing import IO

from mj_core.cli import Stage
from mj_core.cli import build_parser
from mj_core.cli import tool_main

from mj_context.build import STAGES as BUILD_STAGES
from mj_context.promptrender import STAGES as PROMPT_STAGES
from mj_context.render import STAGES as RENDER_STAGES

PROG = "mj-context"
DESCRIPTION = "the briefing: facts in, sections within a budget out; text and JSON renderers"

TABLE: dict[str, Stage] = {
    **BUILD_STAGES,
    **RENDER_STAGES,
    **PROMPT_STAGES,
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
