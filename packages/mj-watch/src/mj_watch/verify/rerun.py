"""`mj-watch verify-run`: the facts `verify` can only get by running something.

For every `task.finished` with outcome `completed` published for the range (recorded at a
commit of the range, naming a tree one of its commits has, or of a task covering one): the
commit it names — the first of the range whose tree is the verification's recorded tree — laid
out in a throw-away directory (`mj_state.verifyfacts.copies`: one directory made each commit in
turn, exactly its tree), and the verification commands the **base** policy pins run there, each
an argument vector without a shell, stdin closed, under the base policy's timeout, each program
from a directory the base policy allows (`mj_state.finish.verification.run`). Nothing else is run: a
command the head's policy or the claim names is never run. One `verify-reproof` fact a claim
(`status` ran, tree-differs, no-tree or unpinned); claims naming one commit share its run.
Then `verify.head_layer`.
"""

from __future__ import annotations

import shlex
import tempfile
from pathlib import Path

from mj_core.stream.stage import Stage

from mj_watch.verify import cover
from mj_watch.verify import head_layer as headlayer
from mj_watch.verify import held_before as heldbefore

TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse
    from collections.abc import Iterator
    from typing import Any

    from mj_core.stream.stage import Context
    from mj_state.verifyfacts.copies import Copies

    Record = dict[str, Any]


def claims(
    rng: Record, policy: Record, ledgers: Record
) -> Iterator[tuple[Record, Record, str | None]]:
    """(ledger, finished row, the commit it names) of every completion the range carries: its
    tree is a commit's of the range, it was recorded at one, or its task covers one (or would:
    a stray, `cover`)."""
    ids = {c["commit"] for c in rng["commits"]}
    involved: set[str] = set()
    for found in cover.covering(rng, policy, ledgers):
        involved.update(t["task_id"] for t in ([found.task] if found.task else found.strays))
    trees: dict[str, str] = {}
    for commit in rng["commits"]:
        trees.setdefault(commit["tree"], commit["commit"])
    for ledger in ledgers["ledgers"]:
        for row in ledger["finished"]:
            if row["outcome"] != "completed":
                continue
            tree = (row["verify"] or {}).get("tree")
            named = trees.get(tree) if type(tree) is str else None
            if named or row["head"] in ids or row["task_id"] in involved:
                yield ledger, row, named


def reproofs(root: Path, rng: Record, policy: Record, ledgers: Record) -> Iterator[Record]:
    from mj_state.verifyfacts import copies

    with tempfile.TemporaryDirectory(prefix="mj-verify-") as scratch:
        made = copies.Copies(root, Path(scratch))
        try:
            yield from _proofs(made, rng, policy, ledgers)
        finally:
            made.close()


def _proofs(made: Copies, rng: Record, policy: Record, ledgers: Record) -> Iterator[Record]:
    from mj_state.finish import verification as verifying

    argvs = [shlex.split(c) for c in policy["commands"] or []]
    allow = verifying.allowed(policy["allow_paths"])
    done: dict[str, Record] = {}
    for ledger, row, commit in claims(rng, policy, ledgers):
        tree = (row["verify"] or {}).get("tree")
        out = {"kind": "fact", "fact": "verify-reproof", "ref": ledger["ref"],
               "clone": ledger["clone"], "task_id": row["task_id"], "line": row["line"],
               "head": row["head"], "tree": tree, "commit": commit, "runs": []}  # fmt: skip
        if type(tree) is not str:
            out["status"] = "no-tree"
        elif commit is None:
            out["status"] = "tree-differs"
        elif not argvs:
            out["status"] = "unpinned"
        else:
            if commit not in done:
                copy = made.lay_out(commit)
                done[commit] = verifying.run(copy, argvs, int(policy["timeout"]), allow)
            out["status"] = "ran"
            out["runs"] = [{k: r[k] for k in ("command", "exit", "seconds")}
                           for r in done[commit]["runs"]]  # fmt: skip
        yield out


def _run(options: argparse.Namespace, context: Context) -> Iterator[Record]:
    records = list(context.records(options.input))
    yield from records
    facts = {r["fact"]: r for r in records if r.get("kind") == "fact"}
    rng, policy = facts["verify-range"], facts["verify-policy"]
    root = context.root()
    ledgers, _ = heldbefore.against(facts["verify-ledgers"], facts.get("verify-witness"))
    yield from reproofs(root, rng, policy, ledgers)
    yield headlayer.fact(root, rng)


STAGES = {"verify-run": Stage(_run)}
