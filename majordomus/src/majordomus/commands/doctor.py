"""`majordomus doctor`: is the governance layer real and wired here? Read-only; writes nothing.

Composition: one stage, `mj-watch doctor`, which runs every check in `mj_watch.doctor.CHECKS`.
"""

from __future__ import annotations

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    import argparse

    from majordomus.invocation import Invocation


HELP = "check that the layer is well-formed and that what it declares is real (read-only)"


def stages(options: argparse.Namespace, inv: Invocation) -> list[list[str]]:
    return [["mj-watch", "doctor"]]


def run(options: argparse.Namespace, inv: Invocation) -> int:
    from majordomus import compose
    from majordomus import render

    return render.findings("doctor", compose.run(stages(options, inv), inv), inv)
