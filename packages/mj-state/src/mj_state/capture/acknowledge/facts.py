"""`mj-state capture-acknowledge-facts`: what `mj-state capture-acknowledge-judge` judges, as one
`capture-acknowledge` fact: the hooks' failure log (`.ai/local/prompts/failures.log`) and its
lines as they are now (none when it is absent or empty). Nothing is judged here.
"""

from __future__ import annotations

from mj_core.stream.stage import Stage

from mj_state.capture import archive as capture

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    import argparse
    from collections.abc import Iterator
    from pathlib import Path
    from typing import Any

    from mj_core.stream.stage import Context

    Record = dict[str, Any]


def run(options: argparse.Namespace, context: Context) -> Iterator[Record]:
    from mj_policy.layer.loader import load

    yield gather(load(context.root()).root)


def gather(root: Path) -> Record:
    path = capture.failure_log(root)
    data = path.read_bytes() if path.is_file() else b""
    return {"kind": "fact", "fact": "capture-acknowledge",
            "path": path.relative_to(root).as_posix(), "lines": lines(data)}  # fmt: skip


def lines(data: bytes) -> list[str]:
    """The log's lines that say something."""
    return [line for line in data.decode("utf-8", "replace").split("\n") if line.strip()]


STAGES = {"capture-acknowledge-facts": Stage(run)}
