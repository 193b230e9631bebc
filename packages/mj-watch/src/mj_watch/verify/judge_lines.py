"""The re-proof and layer lines of `verify`'s judgement (`verdict`), one finding a claim or run."""

from __future__ import annotations

from mj_core.findings import Finding

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import Any

    Record = dict[str, Any]

WHY = {
    "no-tree": "its finish records no verified tree, so no commit can be re-proven for it",
    "tree-differs": "its recorded tree {tree} is the tree of no commit in the range: what was "
    "verified is not what was committed",
    "unpinned": "the base policy pins no verification command (verification.commands), so the "
    "claim cannot be re-proven",
}


def reproofs(proofs: list[Record], policy: Record) -> Iterator[Finding]:
    for proof in proofs:
        task = str(proof["task_id"])
        where = f"clone {proof['clone']} ledger line {proof['line']}"
        if proof["status"] != "ran":
            message = f"claimed completed ({where}), but " + WHY[proof["status"]].format(**proof)
            yield Finding("FAIL", "reproof", task, message, f"git show {proof['ref']}:lines.jsonl")
            continue
        commit = str(proof["commit"])
        failed = next((r for r in proof["runs"] if r["exit"] != 0), None)
        if failed is None:
            ran = "; ".join(r["command"] for r in proof["runs"])
            took = sum(float(r["seconds"]) for r in proof["runs"])
            message = f"re-proven at commit {commit[:12]}: {ran} ({took:.2f} s)"
            yield Finding("OK", "reproof", task, message)
            continue
        command = failed["command"]
        message = (f"claimed completed ({where}); at commit {commit[:12]} the base policy's "
                   f"verification command `{command}` exits {failed['exit']}")  # fmt: skip
        into = 'd="$(mktemp -d)" && git archive ' + commit + ' | tar -x -C "$d" && cd "$d"'
        reproduce = f"{into} && {command}"  # a throw-away copy, as verify made it
        yield Finding("FAIL", "reproof", task, message, reproduce)


def layer(fact: Record) -> Iterator[Finding]:
    head = str(fact["head"])[:12]
    if not fact["judged"]:
        message = (
            f"not judged: the checkout is not at head {head} (check it out to judge the layer)"
        )
        yield Finding("WARN", "layer", head, message)
        return
    for run in fact["runs"]:
        if run["exit"] == 0:
            yield Finding("OK", "layer", run["command"], f"holds at head {head}")
            continue
        said = "; ".join(run["failed"]) or run["error"] or "no finding named"
        message = f"exits {run['exit']} at head {head}: {said}"
        yield Finding("FAIL", "layer", run["command"], message, run["command"])
