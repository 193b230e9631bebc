"""`update --check` and `update --diff`: the read-only views of a plan (`update.plan`).

`--check` is the CI gate: one finding per target, worded by `projection.verdict` as doctor
words it, each file over its own budget, each client over its budget across the files it
loads and what reaches a client more than once (`receipt.client_loads`), and every orphan.
"""

from __future__ import annotations

from mj_core import paths
from mj_core.errors import MissingArtifact
from mj_core.findings import Finding

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path
    from typing import Any

    from mj_policy.projection.orphans import Orphan
    from mj_policy.projection.targets import Judged

    Record = dict[str, Any]


def generated_lines(item: Judged) -> int:
    """Lines the always-loaded budget counts: the file, or the region with its two markers."""
    if item.rendered.projection.mode == "region":
        return item.new_part.count("\n") + 2
    return item.new.count("\n")


def over_budget(judged: list[Judged], budget: int) -> list[tuple[Judged, list[str]]]:
    """Each always-loaded target over its provider's budget, with what it is over."""
    from mj_policy.projection import budgets

    found = []
    for item in judged:
        size = len(item.new.encode("utf-8"))
        over = budgets.overruns(item.rendered.projection, generated_lines(item), size, budget)
        if over:
            found.append((item, over))
    return found


def diff_text(item: Judged) -> str:
    import difflib

    target = item.rendered.projection.target
    lines = difflib.unified_diff(
        item.old_part.splitlines(keepends=True),
        item.new_part.splitlines(keepends=True),
        fromfile=f"a/{target}" if item.old is not None else "/dev/null",
        tofile=f"b/{target}",
    )
    return "".join(line if line.endswith("\n") else line + "\n" for line in lines)


def diff(root: Path, wanted: str, judged: list[Judged]) -> Iterator[Record]:
    target = paths.relative_from_root(root, wanted, what="--diff target")
    for item in judged:
        if item.rendered.projection.target == target:
            yield {"kind": "diff", "target": target, "state": item.state, "text": diff_text(item)}
            return
    declared = ", ".join(i.rendered.projection.target for i in judged) or "none"
    raise MissingArtifact(f"{target}: not a projection target of the policy (targets: {declared})")


def check_orphans(found: list[Orphan]) -> Iterator[Record]:
    for orphan in found:
        yield Finding(
            "FAIL",
            "projection",
            orphan.target,
            orphan.check_message(),
            f"head -5 {orphan.target}",
        ).record()


def check(judged: list[Judged], budget: int, clients: list[Finding]) -> Iterator[Record]:
    from mj_policy.projection import verdict as projectionverdict

    for item, over in over_budget(judged, budget):
        target = item.rendered.projection.target
        yield Finding(
            "FAIL",
            "budget",
            target,
            f"would be {'; '.join(over)}",
            f"majordomus update --dry-run; wc -lc {target}",
        ).record()
    for client in clients:  # what each client loads, judged as doctor judges it
        yield client.replace(code=None).record()
    for item in judged:  # each target worded as doctor words it; every failure here is 10
        projection = item.rendered.projection
        found = projectionverdict.finding(
            projection.target, projection.mode, item.state, item.seen, item.old == ""
        )
        yield found.replace(code=None).record()
