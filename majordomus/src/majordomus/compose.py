"""Compositions run two ways from one argv list: chained in-process, or printed as a pipeline.

In-process, each stage's argv is parsed with the owning tool's own parser and run through the
tool's own stage table, so `majordomus <cmd>` and the printed shell pipeline cannot differ
except at the byte boundary — which `tests/test_pipeline_equivalence.py` checks.
"""

from __future__ import annotations

import importlib

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
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


def _stage(argv: list[str], inv: Invocation, upstream: Iterable[Record] | None) -> Iterable[Record]:
    from mj_core.cli import Context
    from mj_core.cli import run_stage

    tool = importlib.import_module(TOOLS[argv[0]])
    options = tool.parse(argv[1:])
    context = Context(cwd=inv.cwd, stdin=inv.stdin, upstream=upstream, repo=inv.repo)
    context._root = inv._root  # a root the dispatcher already asked git for is not asked again
    return run_stage(tool.TABLE, options, context)


def run(stages: list[list[str]], inv: Invocation) -> Iterator[Record]:
    """Chain the stages in-process; the last stage's records come out."""
    stream: Iterable[Record] | None = None
    for argv in stages:
        stream = _stage(argv, inv, stream)
    assert stream is not None
    yield from stream


def pipeline_text(stages: list[list[str]]) -> str:
    import shlex  # only `--pipeline` prints argv

    return "set -o pipefail; " + " | ".join(shlex.join(argv) for argv in stages)
