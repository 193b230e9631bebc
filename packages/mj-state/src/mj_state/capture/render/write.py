"""`mj-state capture-render-write`: the one write of `capture render` — each rendering the
verdict of `mj-state capture-render-judge` names, rebuilt from its record (0600); a record is
never written.

It passes the judge's stream on; a `capture-render` verdict becomes the write. It does not take
the verdict on trust: it lists the archive again itself and judges again with the verdict's
own `--force`: a verdict that names other renderings (edited, or judged before the archive
moved) rebuilds nothing (15).
"""

from __future__ import annotations

from mj_core.errors import Refused
from mj_core.stream.stage import Stage

from mj_state.capture import archive as capture
from mj_state.capture import store
from mj_state.capture.render import facts as renderfacts
from mj_state.capture.render import judge as renderjudge

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    import argparse
    from collections.abc import Iterator
    from pathlib import Path
    from typing import Any

    from mj_core.stream.stage import Context

    Record = dict[str, Any]


def run(options: argparse.Namespace, context: Context) -> Iterator[Record]:
    yield from context.carried(
        options.input, "capture-render", lambda verdict: render(context.root(), verdict)
    )


def render(root: Path, verdict: Record) -> Iterator[Record]:
    items = verdict.get("items")
    if renderjudge.judge(renderfacts.gather(root, force=verdict.get("force") is True)) != items:
        raise Refused(
            "capture render: the verdict names other renderings than the archive gives now; "
            "nothing was rebuilt (run: majordomus capture render)"
        )
    from mj_core.write import atomic

    records = store.by_path(root)
    for item in verdict["items"]:
        if "problem" not in item:
            path = root / str(item["path"])
            atomic.create(path.with_suffix(".md"), capture.rendering(records[str(item["path"])]),
                          mode=0o600, replace=bool(item["present"]), root=root)  # fmt: skip
        yield renderjudge.shown(item)


STAGES = {"capture-render-write": Stage(run)}
