"""`mj-state capture-acknowledge-write`: the one write of `capture acknowledge` — the lines the
verdict of `mj-state capture-acknowledge-judge` names, recorded in the ledger
(`capture.acknowledged`: how many, the first and the last) and taken out of the log, all under
the log's lock, so a hook that fails meanwhile waits.

It passes the judge's stream on; a `capture-acknowledge` verdict becomes the write. It does not
take the verdict on trust: under the lock it reads the log again, and acknowledges only when
the log begins with exactly the lines the verdict names; a line that arrived after judging
stays in the log for the next run, and a verdict naming lines the log does not begin with
(edited, replayed, or judged before another acknowledgement) writes nothing (15).
"""

from __future__ import annotations

import os

from mj_core.errors import Refused
from mj_core.stream.stage import Stage

from mj_state.capture import archive as capture
from mj_state.capture.acknowledge import facts as ackfacts

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    import argparse
    from collections.abc import Iterator
    from pathlib import Path
    from typing import Any
    from typing import NoReturn

    from mj_core.stream.stage import Context

    Record = dict[str, Any]


def run(options: argparse.Namespace, context: Context) -> Iterator[Record]:
    yield from context.carried(
        options.input, "capture-acknowledge", lambda verdict: acknowledge(context.root(), verdict)
    )


def acknowledge(root: Path, verdict: Record) -> Iterator[Record]:
    from mj_core.write import atomic
    from mj_policy.layer.loader import load

    from mj_state.ledger import store as ledger

    state = load(root).state
    path = capture.failure_log(root)
    shown = path.relative_to(root).as_posix()
    judged = [str(line) for line in verdict.get("lines") or []]
    if verdict.get("path") != shown or not judged or not path.is_file():
        _refuse()
    with atomic.locked(path, root=root) as fd:
        data = os.pread(fd, os.fstat(fd).st_size, 0)
        parts = data.split(b"\n")
        taken, seen = 0, list[str]()
        while len(seen) < len(judged) and taken < len(parts):
            seen += ackfacts.lines(parts[taken])
            taken += 1
        if seen != judged:
            _refuse()
        rest = b"\n".join(parts[taken:])
        payload = {"failures": len(judged), "first": judged[0], "last": judged[-1]}
        ledger.append(root, state, "capture.acknowledged", payload)
        os.ftruncate(fd, 0)
        if rest.strip():
            os.pwrite(fd, rest, 0)
    for line in judged:
        yield {"kind": "prompt-record", "action": "acknowledge", "path": shown, "done": True,
               "detail": line}  # fmt: skip


def _refuse() -> NoReturn:
    raise Refused(
        "capture acknowledge: the verdict names lines the failure log does not begin with; "
        "nothing was written (run: majordomus capture acknowledge)"
    )


STAGES = {"capture-acknowledge-write": Stage(run)}
