"""Compositions run two ways from one argv list: chained in-process, or printed as a pipeline.

The argv lists come from the command's declaration (`mj_core.declaration.commands.stage_argv`): each
stage's fixed words and the options the person gave that it reads. In-process, each argv is
parsed with the owning tool's own parser and run through the tool's own stage table, each
stage's records ending with its stream's summary (`mj_core.stream.protocol`); printed, the same argv
lists are joined by ` | ` for POSIX `sh`, where the summaries make the pipeline fail closed
with no `pipefail`. `tests/test_pipeline_equivalence.py` holds the two equal.
"""

from __future__ import annotations

import importlib

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    import argparse
    from collections.abc import Iterable
    from collections.abc import Iterator
    from typing import Any

    from majordomus.invocation import Invocation

    Record = dict[str, Any]


TOOLS = {
    "mj-policy": "mj_policy.cli",
    "mj-state": "mj_state.cli",
    "mj-context": "mj_context.cli",
    "mj-knowledge": "mj_knowledge.cli",
    "mj-watch": "mj_watch.cli",
}


def stages(spec: Record, options: argparse.Namespace, inv: Invocation) -> list[list[str]]:
    """The command's pipeline for these options, as one argv per stage."""
    from mj_core.declaration import commands as declare

    return [
        declare.stage_argv(step, spec, options, json_output=inv.json)
        for step in declare.steps(spec, options)
    ]


def _stage(argv: list[str], inv: Invocation, upstream: Iterable[Record] | None) -> Iterable[Record]:
    from mj_core.stream.stage import Context
    from mj_core.stream.stage import run_stream

    tool = importlib.import_module(TOOLS[argv[0]])
    options = tool.parse_stage(argv[1:])  # argv the tool composed: the stage's parser alone
    context = Context(cwd=inv.cwd, stdin=inv.stdin, upstream=upstream, repo=inv.repo)
    context._root = inv._root  # a root the dispatcher already asked git for is not asked again
    stage = tool.TABLE[options.subcommand]
    return run_stream(f"{argv[0]} {options.subcommand}", stage, options, context)


def run(argvs: list[list[str]], inv: Invocation) -> Iterator[Record]:
    """Chain the stages in-process; the last stage's records (and its summary) come out."""
    stream: Iterable[Record] | None = None
    for argv in argvs:
        stream = _stage(argv, inv, stream)
    assert stream is not None
    yield from stream


def pipeline_text(argvs: list[list[str]]) -> str:
    import shlex  # only `--pipeline` prints argv

    return " | ".join(shlex.join(argv) for argv in argvs)
