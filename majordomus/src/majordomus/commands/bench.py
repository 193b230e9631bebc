"""`majordomus bench`: the engine is `majordomus.bench` (also `python -m majordomus.bench`)."""

from __future__ import annotations

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    import argparse

    from majordomus.invocation import Invocation


def run(options: argparse.Namespace, inv: Invocation) -> int:
    from majordomus import bench

    return bench.run(options, inv.root(), inv.stdout, inv.stderr)
