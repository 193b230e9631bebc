"""`mj-policy update-facts [--dry-run] [--diff TARGET] [--force] [--check]`: what `mj-policy
update-judge` judges, as one `update` fact: each planned target in its state (as the file on
disk stands against what the policy renders now), with the lines and bytes its budget counts,
the hashes of its text and of what its stamp names, the hashes of the file as it is and as it
would be written; the stamped files nothing plans; what each client would load; the options as
given. With `--diff` the one target's unified diff. Nothing is judged here.
"""

from __future__ import annotations

from mj_core import timing
from mj_core.stream.stage import Stage

from mj_policy.projection import update_plan as updateplan

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    import argparse
    from collections.abc import Iterator
    from pathlib import Path
    from typing import Any

    from mj_core.stream.stage import Context

    from mj_policy.projection.orphans import Orphan
    from mj_policy.projection.targets import Judged
    from mj_policy.projection.update_plan import Plan

    Record = dict[str, Any]

FLAGS = ("dry_run", "force", "check")


def run(options: argparse.Namespace, context: Context) -> Iterator[Record]:
    flags = {name: bool(getattr(options, name, False)) for name in FLAGS}
    root = context.root()
    writing = not (flags["check"] or flags["dry_run"] or options.diff)
    with timing.phase("projections: render and judge"):
        fact, found = gather(root, flags, writing=writing)
    if options.diff:
        fact["diff"] = _diff(root, options.diff, found.judged)
    yield fact


def gather(root: Path, flags: dict[str, bool], *, writing: bool) -> tuple[Record, Plan]:
    """The `update` fact and the plan it was read from (the writer gathers both again)."""
    found = updateplan.plan(root, writing=writing)
    fact = {
        "kind": "fact",
        "fact": "update",
        **flags,
        "policy_sha256": found.data.policy_sha256,
        "budget": found.budget,
        "targets": [target(item) for item in found.judged],
        "orphans": [orphan(item) for item in found.orphans],
        "loads": {"targets": found.described, "rules": found.rules},
    }
    return fact, found


def target(item: Judged) -> Record:
    """One planned target as the judge needs it."""
    from mj_core import sha

    projection, seen = item.rendered.projection, item.seen
    return {
        "target": projection.target,
        "provider": projection.provider,
        "providers": list(projection.providers),
        "mode": projection.mode,
        "always_loaded": projection.always_loaded,
        "state": item.state,
        "why": getattr(item, "why", ""),  # `adoption.handover`'s reason for its own states
        "policy": item.rendered.inputs[:12],
        "content": item.rendered.content,
        "lines": generated_lines(item),
        "bytes": len(item.new.encode("utf-8")),
        "actual": seen.actual if seen is not None else None,
        "stamped": seen.stamp.content if seen is not None and seen.stamp is not None else None,
        "empty": item.old == "",
        "old": None if item.old is None else sha.hexdigest(item.old.encode("utf-8")),
        "new": sha.hexdigest(item.new.encode("utf-8")),
    }


def generated_lines(item: Judged) -> int:
    """Lines the always-loaded budget counts: the file, or the region with its two markers."""
    if item.rendered.projection.mode == "region":
        return item.new_part.count("\n") + 2
    return item.new.count("\n")


def orphan(item: Orphan) -> Record:
    return {
        "target": item.target,
        "provider": item.provider,
        "state": item.state,
        "intact": item.intact,
        "found": item.check_message(),
        "refused": item.refusal_message(),
    }


def _diff(root: Path, wanted: str, judged: list[Judged]) -> Record:
    """The one target's diff (no `text` when `wanted` is not a target the policy plans)."""
    from mj_core import paths

    name = paths.relative_from_root(root, wanted, what="--diff target")
    for item in judged:
        if item.rendered.projection.target == name:
            return {"target": name, "text": diff_text(item)}
    return {"target": name}


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


STAGES = {"update-facts": Stage(run)}
