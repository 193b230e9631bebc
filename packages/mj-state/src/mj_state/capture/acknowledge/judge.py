"""`mj-state capture-acknowledge-judge`: what the person acknowledges, over `mj-state
capture-acknowledge-facts`. A judge: it reads the one `capture-acknowledge` fact on stdin (or a
file) and never the repository. A log with lines becomes one `verdict` naming them, for
`mj-state capture-acknowledge-write`; an absent or empty log is nothing to acknowledge (no
record at all, exit 0).
"""

from __future__ import annotations

from mj_core.stream.stage import Stage

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    import argparse
    from collections.abc import Iterator
    from typing import Any

    from mj_core.stream.stage import Context

    Record = dict[str, Any]


def run(options: argparse.Namespace, context: Context) -> Iterator[Record]:
    fact = context.the_fact(
        options.input, "capture-acknowledge", "mj-state capture-acknowledge-facts"
    )
    if fact["lines"]:
        yield {"kind": "verdict", "action": "capture-acknowledge", "path": fact["path"],
               "lines": list(fact["lines"])}  # fmt: skip


STAGES = {"capture-acknowledge-judge": Stage(run)}
