"""`mj-policy`: the human-edited canonical layer: manifest, policy, profiles, rules, context documents, prompts; provider projections."""

from __future__ import annotations

import argparse
from typing import IO

from mj_core.cli import Stage
from mj_core.cli import build_parser
from mj_core.cli import tool_main

from mj_policy.contextstages import STAGES as CONTEXT_STAGES
from mj_policy.promptstages import STAGES as PROMPT_STAGES
from mj_policy.rulestages import STAGES as RULE_STAGES
from mj_policy.skeleton import STAGES as INIT_STAGES
from mj_policy.update import STAGES as UPDATE_STAGES

PROG = "mj-policy"
DESCRIPTION = "the human-edited canonical layer: manifest, policy, profiles, rules, context documents, prompts; provider projections"

TABLE: dict[str, Stage] = {
    **CONTEXT_STAGES,
    **PROMPT_STAGES,
    **INIT_STAGES,
    **UPDATE_STAGES,
    **RULE_STAGES,
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
