"""Which published task covers a commit of the range (pure; `rerun` and `judge` ask the same).

A task covers commit C when some clone's ledger starts it at a commit before C (`starts`: a
head's place in the range, -1 at `base` or before) with a scope that holds every path C changes
outside the always-allowed ones, and its published finish belongs to this range at or after C:
a `completed` one names the tree of C or of a later commit of the range; any other outcome was
recorded at C's parent or later. A task that fits but has no published finish is `unfinished`
(named: not finished yet, or its ledger truncated since); one whose finish is not of this range
is a stray (another branch's work, or a claim whose verified tree was never committed): it
covers nothing, and `rerun` re-proves its claim, which then names the tree that differs.
"""

from __future__ import annotations

from mj_core.paths import within

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    Record = dict[str, Any]


class Covered:
    __slots__ = ("commit", "paths", "strays", "task", "unfinished")

    def __init__(self, commit: Record, paths: list[str]) -> None:
        self.commit = commit
        self.paths = paths
        self.task: Record | None = None  # the task that covers it
        self.unfinished: Record | None = None  # else a task that would, had it finished
        self.strays: list[Record] = []  # tasks that fit, whose finish is not of this range


def covering(rng: Record, policy: Record, seen: Record) -> list[Covered]:
    """Each commit that changes a judged path, in the range's order, and what covers it."""
    starts = seen["starts"]
    tasks = [row for led in seen["ledgers"] if not led["problem"] for row in led["started"]]
    finishes: dict[str, list[Record]] = {}
    for led in seen["ledgers"]:
        for row in led["finished"] if not led["problem"] else []:
            finishes.setdefault(row["task_id"], []).append(row)
    trees: dict[str, int] = {}
    for index, commit in enumerate(rng["commits"]):
        trees[commit["tree"]] = index  # the last commit with that tree
    out = []
    for index, commit in enumerate(rng["commits"]):
        paths = [p for p in commit["paths"] if not any(within(p, a) for a in policy["allowed"])]
        if not paths:
            continue
        found = Covered(commit, paths)
        for task in tasks:
            if not _fits(task, paths, index, starts):
                continue
            rows = finishes.get(task["task_id"], [])
            if any(_belongs(row, index, starts, trees) for row in rows):
                found.task = task
                break
            if not rows and found.unfinished is None:
                found.unfinished = task
            elif rows:
                found.strays.append(task)
        out.append(found)
    return out


def _fits(task: Record, paths: list[str], index: int, starts: Record) -> bool:
    began = starts.get(str(task["head"]))
    if began is None or began >= index:
        return False
    return all(any(within(p, s) for s in task["scope"]) for p in paths)


def _belongs(row: Record, index: int, starts: Record, trees: dict[str, int]) -> bool:
    if row["outcome"] == "completed":
        tree = (row["verify"] or {}).get("tree")
        return type(tree) is str and trees.get(tree, -1) >= index
    at = starts.get(str(row["head"]))
    return at is not None and at >= index - 1
