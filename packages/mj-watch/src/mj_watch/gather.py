"""`mj-watch facts --for doctor|watch|ratchet`: the facts stage of mj-watch's judges.

It reads the checkout and emits `fact` records (`doctor.facts`, `watch.gather`,
`ratchet.facts`); for doctor it reads the layer's facts on stdin first (`mj-policy facts |
mj-watch facts --for doctor`) and passes them on. The judge named by `--for` reads them on
stdin and never the repository, so a saved facts file can be judged anywhere.
"""

from __future__ import annotations

from mj_core.stream.stage import Context
from mj_core.stream.stage import Stage

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    import argparse
    from collections.abc import Iterator
    from typing import Any


def _run(options: argparse.Namespace, context: Context) -> Iterator[dict[str, Any]]:
    if options.of == "ratchet":
        from mj_watch.ratchet import facts as ratchetfacts

        return ratchetfacts.gather(context.root())
    if options.of == "watch":
        from mj_watch.watch import gather as watchgather

        return watchgather.gather(context.root())
    from mj_watch.doctor import facts as doctorfacts

    prove = bool(getattr(options, "prove", False))
    return doctorfacts.gather(
        context.root(), prove=prove, layer_facts=context.records(options.input)
    )


STAGES = {"facts": Stage(_run)}
