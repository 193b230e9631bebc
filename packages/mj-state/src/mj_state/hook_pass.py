"""`mj-state hook-pass`: `doctor --commit`'s one write, the pre-commit hook's pass recorded.

Run as the pre-commit hook (`majordomus doctor --commit || exit $?`), doctor judges the layer;
when nothing FAILs, this stage appends one `hook.passed` ledger line: the hook, and the tree
being committed (`git write-tree` of the index git hands the hook in `GIT_INDEX_FILE`, else the
repository's), on the active task when there is one. CI's `verify` looks for it: a commit of
the range whose tree no published pass names was made past the declared hooks
(`git commit --no-verify`). The stream is passed on unchanged; with a FAIL, nothing is written.
"""

from __future__ import annotations

import os
from pathlib import Path

from mj_core.git import questions as git
from mj_core.stream.stage import Stage

TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse
    from collections.abc import Iterator
    from typing import Any

    from mj_core.stream.stage import Context

    Record = dict[str, Any]

STATE = (".ai", "local", "state")


def tree(root: Path) -> str | None:
    """The tree the index being committed holds; None when git cannot write it."""
    given = os.environ.get("GIT_INDEX_FILE")
    index = (root / given) if given else git.git_dir(root) / "index"
    code, out, _ = git.run_with_index(index, "write-tree", cwd=root)
    return out.strip() if code == 0 and out.strip() else None


def _run(options: argparse.Namespace, context: Context) -> Iterator[Record]:
    failed = False
    for record in context.records(options.input):
        failed = failed or (record.get("kind") == "finding" and record.get("level") == "FAIL")
        yield record
    if failed:
        return
    from mj_state.ledger import store as ledger
    from mj_state.task import active as taskactive

    root = context.root()
    made = tree(root)
    if made is None:
        return
    task = taskactive.active(root)
    payload = {"hook": "pre-commit", "command": "doctor", "tree": made}
    ledger.append(root, root.joinpath(*STATE), "hook.passed", payload,
                  task_id=task.id if task is not None else None)  # fmt: skip


STAGES = {"hook-pass": Stage(_run)}
