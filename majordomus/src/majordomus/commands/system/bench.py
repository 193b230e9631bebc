"""`majordomus bench`: the harness is `mj_watch.bench` (also `python -m mj_watch.bench`)."""

from __future__ import annotations

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    import argparse

    from majordomus.invocation import Invocation


def run(options: argparse.Namespace, inv: Invocation) -> int:
    from mj_watch.bench import entry

    return entry.run(options, inv.root(), inv.stdout, inv.stderr)
