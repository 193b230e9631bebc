"""What `knowledge promote` (`mj_state.promote`: facts | judge | writer) shares with the ledger's
writer and the checks: a promotion is refused (15) while a task is active in this checkout — a
task's worker does not verify its own knowledge — and its `knowledge.promoted` line, written by
`mj-state log`, names who promoted it as git knows them (`promoter`), that writer refusing it
too while a task is active here (`refuse_while_active`). Only `knowledge promote` writes
`verified`: a curated record no such line names is a FAIL (`unpromoted`). The evidence is read
from stdin (`evidence`).
"""

from __future__ import annotations

import re

from mj_core.errors import Refused
from mj_core.errors import UsageError
from mj_core.findings import Finding

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from pathlib import Path
    from typing import Any

    from mj_core.stream.stage import Context
    from mj_policy.layer.loader import Layer

    Record = dict[str, Any]

CLASS = re.compile(r"^[a-z][a-z0-9-]{0,63}$")
STDIN = "<stdin>"


def refuse_while_active(root: Path, what: str) -> None:
    """15 while this checkout has an active task (the ledger's word, as every writer asks)."""
    from mj_policy.layer.loader import load

    from mj_state.records import writing

    task = writing.active_here(load(root))
    if task is not None:
        raise Refused(
            f"{what}: task {task['id']} is active in this checkout — knowledge is verified by a "
            "person with no task active, never by the task's worker; nothing was written"
        )


def promoter(root: Path) -> str:
    """Who promotes, as git knows them (`git var GIT_COMMITTER_IDENT` without its time)."""
    from mj_core.git import questions as git

    ident = git.out("var", "GIT_COMMITTER_IDENT", cwd=root)
    if not ident or "<" not in ident:
        raise Refused("knowledge promote: git knows no committer (user.name, user.email)")
    return ident.rsplit(" ", 2)[0]


def unpromoted(root: Path, values: list[Any], base: str) -> list[Record]:
    """A FAIL for each `verified` record under `curated/` that no `knowledge.promoted` line of
    this checkout's ledger names and that is new or changed since `base` (the active task's
    start, else HEAD): only `knowledge promote` writes `verified`. One committed before `base`
    was judged where it was promoted (and by `verify`, which reads the published ledgers)."""
    from mj_policy.knowledge import notes

    promoted = {str(v.get("knowledge")) for v in values
                if type(v) is dict and v.get("event") == "knowledge.promoted"}  # fmt: skip
    lacking = []
    for path in notes.listed(root, notes.CURATED):
        note = notes.read(root, path)
        name = path.rsplit("/", 1)[-1].removesuffix(".md")
        if note.text("status") == "verified" and name not in promoted:
            lacking.append(path)
    if not lacking:
        return []
    from mj_core.git import questions as git

    code, changed, _ = git.run(
        "diff", "--name-only", "--no-renames", base, "--", *lacking, cwd=root
    )
    fresh = git.out("ls-files", "--others", "--exclude-standard", "--", *lacking, cwd=root)
    new = set(changed.splitlines() if code == 0 else lacking) | set((fresh or "").splitlines())
    said = "verified, but no knowledge.promoted line names it: only `knowledge promote` verifies"
    repro = "majordomus history --event knowledge.promoted --all; git log --oneline -- "
    return [Finding("FAIL", "knowledge", path, said, repro + path).record()
            for path in lacking if path in new]  # fmt: skip


def unpromoted_here(lay: Layer) -> list[Record]:
    """`unpromoted` for `knowledge check`: this checkout's whole ledger, and new since the
    active task's start (else HEAD), as doctor judges it."""
    from mj_policy.knowledge import notes

    if not notes.listed(lay.root, notes.CURATED):
        return []
    from mj_state.ledger import scan as ledgerscan
    from mj_state.ledger import store as ledger
    from mj_state.task import state as taskstate

    where = ledger.path(lay.state)
    scan = ledger.scan(where) if where.exists() else None
    if scan is None:
        return unpromoted(lay.root, [], "HEAD")
    situation = taskstate.read(lay, ledgerscan.tail_of(scan))
    base = "HEAD"
    if situation.active is not None and situation.active_record():
        base = situation.active.start_head or "HEAD"
    return unpromoted(lay.root, scan.values, base)


def evidence(context: Context) -> str:
    import sys

    from mj_core import files
    from mj_core import limits
    from mj_core.yaml import strict as yamlstrict

    stream = context.stdin if context.stdin is not None else sys.stdin.buffer
    if stream.isatty():
        raise UsageError("promote: give the evidence on stdin (what shows the claim holds)")
    return yamlstrict.decode(files.read_stream(stream, STDIN, limits.RECORD), STDIN)
