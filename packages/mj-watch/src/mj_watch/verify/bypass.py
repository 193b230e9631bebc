"""Commits made past the declared hooks (the layer judgement's second half; pure).

The pre-commit hook the base policy declares as `doctor --commit` records each pass: a
`hook.passed` ledger line naming the tree being committed (`mj_state.hook_pass`). A commit of
the range that changes a judged path and whose tree no published pass names was made while the
hook would have had its say and did not (`git commit --no-verify`, or a clone whose ledger was
not published after it): WARN, FAIL when the base policy sets `verify.require_hooks: true`,
naming the commit. A merge is not asked (git runs pre-merge-commit for it, not pre-commit).
When the declared pre-commit hook records nothing, or none is declared, the commits cannot be
judged so: one INFO says so, a FAIL when the policy requires the hooks.
"""

from __future__ import annotations

from mj_core.findings import Finding

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import Any

    from mj_watch.verify.cover import Covered

    Record = dict[str, Any]

CANNOT = {
    "silent": "the base policy's pre-commit hook records no pass (declare its args as "
    "`doctor --commit`), so no commit can be shown to have passed it",
    "none": "the base policy declares no pre-commit hook, so no commit can be shown to have "
    "passed one",
}


def judge(policy: Record, seen: Record, found: list[Covered], again: str) -> Iterator[Finding]:
    level = "FAIL" if policy["require_hooks"] else "WARN"
    if policy["pre_commit"] != "records":
        if found:
            yield Finding(level if policy["require_hooks"] else "INFO", "layer", "hooks",
                          CANNOT[policy["pre_commit"]])  # fmt: skip
        return
    trees = {p["tree"] for led in seen["ledgers"] if not led["problem"] for p in led["passes"]}
    for one in found:
        commit = one.commit
        if len(commit["parents"]) > 1 or commit["tree"] in trees:
            continue
        message = (f"made past the declared pre-commit hook: no published pass (doctor --commit) "
                   f"names its tree {commit['tree'][:12]} — committed with --no-verify, or its "
                   "clone's ledger not published since")  # fmt: skip
        yield Finding(level, "layer", commit["commit"][:12], message, again)
