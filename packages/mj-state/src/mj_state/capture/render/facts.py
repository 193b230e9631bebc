"""`mj-state capture-render-facts [--force]`: what `mj-state capture-render-judge` judges, as one
`capture-render` fact: `--force` as given, and each `.json` file of the prompt archive oldest
first, with whether its rendering (`.md`) is there, or why it is not a capture record. Nothing
is judged here, and no prompt's text is carried.
"""

from __future__ import annotations

from mj_core.stream.stage import Stage

from mj_state.capture import store

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    import argparse
    from collections.abc import Iterator
    from pathlib import Path
    from typing import Any

    from mj_core.stream.stage import Context

    Record = dict[str, Any]


def run(options: argparse.Namespace, context: Context) -> Iterator[Record]:
    yield gather(context.root(), force=bool(options.force))


def gather(root: Path, *, force: bool) -> Record:
    found: list[Record] = []
    for path, record, why in store.records(root):
        shown = path.relative_to(root).as_posix()
        if record is None:
            found.append({"path": shown, "problem": why})
        else:
            found.append({"path": shown, "rendered": path.with_suffix(".md").exists()})
    return {"kind": "fact", "fact": "capture-render", "force": force, "records": found}


STAGES = {"capture-render-facts": Stage(run)}
