"""`majordomus doctor [--prove]`: is the governance layer real and wired here? Read-only.

Composition: one stage, `mj-watch doctor`, which runs every check in `mj_watch.doctor.CHECKS`;
its options are the stage's own (`--prove` also runs each declared hook, in a throw-away
worktree, to show it is wired).
"""

from __future__ import annotations

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    import argparse

    from majordomus.invocation import Invocation


HELP = "check that the layer is well-formed and that what it declares is real (read-only)"


def arguments(parser: argparse.ArgumentParser) -> None:
    from mj_watch import doctor

    doctor.arguments(parser)


def stages(options: argparse.Namespace, inv: Invocation) -> list[list[str]]:
    return [["mj-watch", "doctor", *(["--prove"] if options.prove else [])]]


def run(options: argparse.Namespace, inv: Invocation) -> int:
    from majordomus import compose
    from majordomus import render

    return render.findings("doctor", compose.run(stages(options, inv), inv), inv)
