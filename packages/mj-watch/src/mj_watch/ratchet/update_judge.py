"""`mj-watch ratchet-update-judge [--allow-increase --why <reason>]`: whether the counts of the
`ratchet` fact (`mj-watch facts --for ratchet`) may be accepted.

A judge: it reads the fact on stdin (or a file) and never the repository. In the order a person
meets the faults: `--why` without `--allow-increase`, or `--allow-increase` without a reason
(2); no declaration, or one that declares no metric (12); a secret-shaped string in the tracked
tree, a metric that could not be counted (10); a count above the accepted one without
`--allow-increase` (15). Counts that may be accepted become one `verdict`: the counts, the
ones that went up with the reason, for `mj-watch ratchet-update-write`.
"""

from __future__ import annotations

from mj_core.errors import ContractUnmet
from mj_core.errors import MissingArtifact
from mj_core.errors import Refused
from mj_core.errors import UsageError
from mj_core.stream.stage import Stage

from mj_watch.ratchet.facts import DECLARATION

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    import argparse
    from collections.abc import Iterator
    from typing import Any

    from mj_core.stream.stage import Context

    Record = dict[str, Any]


def run(options: argparse.Namespace, context: Context) -> Iterator[Record]:
    usage(bool(options.allow_increase), options.why)
    told = context.the_fact(options.input, "ratchet", "mj-watch facts --for ratchet")
    yield judge(told, allow_increase=bool(options.allow_increase), why=options.why)


def usage(allow_increase: bool, why: str | None) -> None:
    if why is not None and not allow_increase:
        raise UsageError("ratchet update: --why goes with --allow-increase")
    if allow_increase and not (why or "").strip():
        raise UsageError('ratchet update --allow-increase: say why with --why "<reason>"')


def judge(told: Record, *, allow_increase: bool, why: str | None) -> Record:
    """The verdict of counts that may be accepted; a refusal raised with its exit code."""
    usage(allow_increase, why)
    if not told.get("declared"):
        raise MissingArtifact(f"{DECLARATION}: absent — declare the metrics to ratchet first")
    if not told.get("metrics"):
        raise MissingArtifact(f"{DECLARATION}: declares no metric — nothing to accept")
    if told.get("secrets"):
        raise ContractUnmet(
            "ratchet update: a secret-shaped string is in the tracked tree — a hard zero is never "
            "recorded (`majordomus ratchet check` names where)"
        )
    unmeasured = [m["name"] for m in told["metrics"] if m.get("count") is None]
    if unmeasured:
        raise ContractUnmet(
            f"ratchet update: not counted: {', '.join(unmeasured)} (`ratchet check`)"
        )
    old = told.get("baseline") or {}
    new = {m["name"]: int(m["count"]) for m in told["metrics"]}
    raised = {
        name: [old[name], count] for name, count in new.items() if name in old and count > old[name]
    }
    if raised and not allow_increase:
        said = ", ".join(f"{name} {a} → {b}" for name, (a, b) in raised.items())
        raise Refused(f"ratchet update: {said} went up; nothing written (--allow-increase --why)")
    return {
        "kind": "verdict",
        "action": "ratchet-update",
        "counts": new,
        "raised": raised,
        "allow_increase": allow_increase,
        "why": why,
    }


STAGES = {"ratchet-update-judge": Stage(run)}
