"""`mj-watch adr-propose`: `adr propose` judged over `mj-state adr-propose-facts`.

A judge: it reads the one `adr-propose` fact on stdin (or a file) and never the repository.
The judgement is `mj_state.records.adr_judge`'s (the writer runs it again under its lock): a
`verdict` record naming what `mj-state adr-propose-write` writes, or the refusal, with its code.
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
    from mj_state.records import adr_judge as adrjudge

    yield adrjudge.judge(
        context.the_fact(options.input, "adr-propose", "mj-state adr-propose-facts")
    )


STAGES = {"adr-propose": Stage(run)}
