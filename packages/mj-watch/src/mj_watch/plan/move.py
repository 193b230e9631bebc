"""`mj-watch plan-move`: `plan verify`, `plan evidence` and `plan done` judged over
`mj-state plan-move-facts`.

A judge: it reads the one `plan-move` fact on stdin (or a file) and never the repository. The
judgement is `mj_state.plan.move_judge`'s (the writer runs it again under the plan's locks): a
`verdict` record naming what `mj-state plan-move-write` writes, or the refusal, with its code.
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
    from mj_state.plan import move_judge as movejudge

    yield movejudge.judge(context.the_fact(options.input, "plan-move", "mj-state plan-move-facts"))


STAGES = {"plan-move": Stage(run)}
