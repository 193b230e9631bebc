"""`mj-watch plan-start`: `plan start` judged over `mj-state plan-start-facts`.

A judge: it reads the one `plan-start` fact on stdin (or a file) and never the repository. The
judgement is `mj_state.plan.start_judge`'s (the writer runs it again under the plan's lock): a
`verdict` record naming what `mj-state plan-start-write` writes, or the refusal, with its code.
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
    from mj_state.plan import start_judge as startjudge

    yield startjudge.judge(
        context.the_fact(options.input, "plan-start", "mj-state plan-start-facts")
    )


STAGES = {"plan-start": Stage(run)}
