"""`mj-state facts --for context|check|finish|start`: what one judge is given, as `fact` records.

Each judge's facts are gathered by their own module, imported only when asked for, so a hook's
`check` does not load what a briefing reads: `context_facts` (the default), `task.check_facts`,
`finish.facts`, `task.start_facts`.
"""

from __future__ import annotations

from mj_core.stream.stage import Stage

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    import argparse
    from collections.abc import Iterator
    from typing import Any

    from mj_core.stream.stage import Context


def _run(options: argparse.Namespace, context: Context) -> Iterator[dict[str, Any]]:
    if options.of == "check":
        from mj_state.task import check_facts as checkfacts

        mode = "explain" if getattr(options, "explain", False) else "check"
        mode = "overlap" if getattr(options, "overlap", False) else mode
        return checkfacts.gather(context.root(), mode)
    if options.of == "finish":
        from mj_state.finish import facts as finishfacts

        return finishfacts.gather(context.root(), options)
    if options.of == "start":
        from mj_state.task import start_facts as startfacts

        return startfacts.gather(context.root(), options)
    from mj_state import context_facts as contextfacts

    return contextfacts.collect(context.root(), options.prompt)


STAGES = {"facts": Stage(_run)}
