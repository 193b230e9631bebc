"""`mj-state capture-acknowledge`: the person has seen what the hooks logged.

The provider hooks never fail the person's prompt or sitting: what goes wrong is one line in
`.ai/local/prompts/failures.log` (`mj_state.capture.archive.log_failure`), which doctor warns about
while it holds lines. Acknowledging shows every line, records them in the ledger
(`capture.acknowledged`: how many, the first and the last) and empties the log, all under the
log's lock, so a hook that fails meanwhile waits and its line is the next one reported. An
absent or empty log is nothing to acknowledge (exit 0, nothing written).
"""

from __future__ import annotations

import os

from mj_core.stream.stage import Context
from mj_core.stream.stage import Stage

from mj_state.capture import archive as capture

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    import argparse
    from collections.abc import Iterator
    from pathlib import Path
    from typing import Any

    Record = dict[str, Any]


def run(options: argparse.Namespace, context: Context) -> Iterator[Record]:
    from mj_policy.layer.loader import load

    layer = load(context.root())
    root = layer.root
    path = capture.failure_log(root)
    shown = path.relative_to(root).as_posix()
    if not path.is_file() or path.stat().st_size == 0:
        return
    lines = _acknowledge(root, layer.state, path)
    for line in lines:
        yield {"kind": "prompt-record", "action": "acknowledge", "path": shown, "done": True,
               "detail": line}  # fmt: skip


def _acknowledge(root: Path, state: Path, path: Path) -> list[str]:
    """The log's lines, recorded in the ledger, then the log emptied (under its lock)."""
    from mj_core.write import atomic

    from mj_state.ledger import store as ledger

    with atomic.locked(path, root=root) as fd:
        data = os.pread(fd, os.fstat(fd).st_size, 0)
        lines = [line for line in data.decode("utf-8", "replace").split("\n") if line.strip()]
        if not lines:
            return []
        payload = {"failures": len(lines), "first": lines[0], "last": lines[-1]}
        ledger.append(root, state, "capture.acknowledged", payload)
        os.ftruncate(fd, 0)
    return lines


STAGES = {"capture-acknowledge": Stage(run)}
