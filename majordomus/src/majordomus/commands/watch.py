"""`majordomus watch`: what has drifted in the work? Read-only; exit 11 on drift, never blocking.

Composition: one stage, `mj-watch watch`, which runs every check in `mj_watch.watch.CHECKS`.
"""

from __future__ import annotations

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    import argparse

    from majordomus.invocation import Invocation


HELP = "report drift in the work (policy, projections, task, records), each with a reproduce"


def stages(options: argparse.Namespace, inv: Invocation) -> list[list[str]]:
    return [["mj-watch", "watch"]]


def run(options: argparse.Namespace, inv: Invocation) -> int:
    from majordomus import compose
    from majordomus import render

    return render.findings("watch", compose.run(stages(options, inv), inv), inv)
