"""`mj-policy context-affected` and `context-check-sync`: the context documents against what
changed, and the projections against what `update` would write.

`affected` asks git which tracked paths changed (`--base <ref>`: since that commit, working
tree included; `--staged`: the index against HEAD; `--worktree`: the working tree against the
index; none: the working tree against HEAD) and WARNs for each active document whose `tracks`
pathspecs match a changed path while the document itself did not change: a review is owed,
nothing is refused (exit unaffected). git matches the pathspecs, so every pathspec magic means
what it means to git.

`check-sync` FAILs an invalid tree (10); each projection target as `update` would judge it: a
hand-edited or unstamped one, or one the policy would now render differently, is DRIFT (11),
an absent one INFO; with `--base <ref>` a document whose tracked paths changed since the ref
while it did not is DRIFT (`out-of-sync`).
"""

from __future__ import annotations

import shlex

from mj_core.errors import UsageError
from mj_core.findings import Finding
from mj_core.git import questions as git
from mj_core.stream.stage import Stage

from mj_policy.context import stages as contextstages

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    import argparse
    from collections.abc import Iterator
    from pathlib import Path
    from typing import Any

    from mj_core.stream.stage import Context

    from mj_policy.context.docs import ContextDoc

    Record = dict[str, Any]

NO_DRIVERS = ("--no-ext-diff", "--no-textconv")


def _against(root: Path, options: argparse.Namespace) -> tuple[tuple[str, ...], str]:
    """(the `git diff` arguments naming what changed, how it is said)."""
    base = getattr(options, "base", None)
    if base:
        code, _, _ = git.run("rev-parse", "--verify", "--quiet", f"{base}^{{commit}}", cwd=root)
        if code != 0:
            raise UsageError(f"--base {base}: not a commit in this repository")
        return (base,), f"since {base}"
    if getattr(options, "staged", False):
        return ("--cached",), "in the index"
    if getattr(options, "worktree", False):
        return (), "in the working tree"
    if git.head(root) is None:
        return ("--cached",), "in the index"  # no commit yet: everything staged is new
    return ("HEAD",), "since HEAD"


def _changed(root: Path, against: tuple[str, ...], pathspecs: list[str]) -> list[str]:
    args = ("diff", *NO_DRIVERS, "--name-only", "-z", *against, "--", *pathspecs)
    code, out, err = git.run(*args, cwd=root)
    if code != 0:
        raise UsageError(f"git diff {' '.join(against)}: {err.strip() or 'failed'}")
    return git.zsplit(out)


against = _against  # shared with `adr affected`
changed = _changed


def _tracking(docs: list[ContextDoc]) -> list[tuple[ContextDoc, list[str]]]:
    """Each active document that declares what it tracks, with its pathspecs."""
    found = []
    for item in sorted(docs, key=lambda d: (d.depth, d.path)):
        tracks = [str(p) for p in item.data.get("tracks") or []]
        if tracks and item.data.get("status") == "active":
            found.append((item, tracks))
    return found


def _owed(
    root: Path, docs: list[ContextDoc], against: tuple[str, ...]
) -> Iterator[tuple[ContextDoc, list[str], list[str]]]:
    """(document, its pathspecs, the tracked paths that changed) for each document that did
    not change itself while something it tracks did."""
    for item, tracks in _tracking(docs):
        moved = [p for p in _changed(root, against, tracks) if p != item.path]
        if moved and not _changed(root, against, [f":(literal){item.path}"]):
            yield item, tracks, moved


def _reproduce(against: tuple[str, ...], specs: list[str]) -> str:
    words = ["git", "diff", "--name-only", *against, "--", *specs]
    return " ".join(shlex.quote(w) for w in words)


reproduce = _reproduce


def _shown(paths: list[str]) -> str:
    head = ", ".join(paths[:3])
    return head + (f" and {len(paths) - 3} more" if len(paths) > 3 else "")


def affected(root: Path, options: argparse.Namespace) -> Iterator[Finding]:
    tree = contextstages.tree(root)
    if tree.problems:
        yield from contextstages.findings(tree)
        return
    against, said = _against(root, options)
    count = len(_changed(root, against, []))
    owed = 0
    for item, tracks, moved in _owed(root, tree.docs, against):
        owed += 1
        message = f"{item.id} tracks {_shown(moved)}, changed {said}; review the document"
        yield Finding("WARN", "context", item.path, message, _reproduce(against, tracks))
    if not owed:
        message = f"{count} tracked path(s) changed {said}; no context document owes a review"
        yield Finding("OK", "context", ".ai", message)


def check_sync(root: Path, options: argparse.Namespace) -> Iterator[Finding]:
    from mj_policy.projection import update_plan

    tree = contextstages.tree(root)
    yield from contextstages.findings(tree)
    found = update_plan.plan(root)
    for item in found.judged:
        yield _projection(item)
    for orphan in found.orphans:
        message = "a rule file no rule projects any more: `majordomus update` removes it"
        yield Finding("DRIFT", "projection", orphan.target, message, "majordomus update --dry-run")
    if getattr(options, "base", None) and not tree.problems:
        against, said = _against(root, options)
        for doc, tracks, moved in _owed(root, tree.docs, against):
            message = f"out-of-sync: {doc.id} tracks {_shown(moved)}, changed {said}; it did not"
            yield Finding("DRIFT", "context", doc.path, message, _reproduce(against, tracks))


def _projection(item: Any) -> Finding:
    from mj_policy.projection import targets

    target = item.rendered.projection.target
    state = item.state
    diff = f"majordomus update --diff {shlex.quote(target)}"
    if state == targets.CURRENT:
        return Finding("OK", "projection", target, "in sync with the policy")
    if state in (targets.MISSING, targets.APPEND):
        what = "absent" if state == targets.MISSING else "has no generated region"
        return Finding("INFO", "projection", target, f"{what}: `majordomus update` writes it")
    if state == targets.HAND_EDITED:
        return Finding(
            "DRIFT", "projection", target, "edited by hand since `update` wrote it", diff
        )
    if state == targets.UNSTAMPED:
        message = "carries no stamp: `majordomus update` did not write it"
        return Finding("DRIFT", "projection", target, message, diff)
    message = f"stale-projection: the policy now renders it differently ({state})"
    return Finding("DRIFT", "projection", target, message, diff)


def _run_affected(options: argparse.Namespace, context: Context) -> Iterator[Record]:
    for finding in affected(context.root(), options):
        yield finding.record()


def _run_check_sync(options: argparse.Namespace, context: Context) -> Iterator[Record]:
    for finding in check_sync(context.root(), options):
        yield finding.record()


STAGES = {
    "context-affected": Stage(_run_affected),
    "context-check-sync": Stage(_run_check_sync),
}
