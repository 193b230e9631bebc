"""What one run of `update` works from: every planned projection rendered and its target read
and placed in a state (`targets.judge`), the stamped files nothing plans any more, and what
each client would load. `update-facts` gathers its fact from it, `update-write` gathers it
again before it writes; `context check-sync` reads it too.
"""

from __future__ import annotations

from mj_core.errors import Refused

from mj_policy.layer import loader as layer_mod
from mj_policy.projection import plan as projectionplan
from mj_policy.projection import render as projections
from mj_policy.projection import targets

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from pathlib import Path
    from typing import Any

    from mj_policy.projection.orphans import Orphan
    from mj_policy.projection.render import Rendered
    from mj_policy.projection.targets import Judged

    Record = dict[str, Any]


class Plan:
    """Everything one run of update works from."""

    __slots__ = ("budget", "data", "described", "judged", "orphans", "rules")

    def __init__(
        self, data: projections.Inputs, judged: list[Judged], orphans: list[Orphan], budget: int
    ) -> None:
        self.data = data
        self.judged = judged
        self.orphans = orphans  # stamped rule files no rule projects any more
        self.budget = budget  # context.always_loaded_budget_lines
        # what each client loads, as data (`receipt.client_loads.of_plan`)
        self.described: dict[str, Record] = {}
        self.rules: Record = {}


def plan(root: Path, *, writing: bool = False) -> Plan:
    """Render every planned projection and place its target in a state; find the rule files
    nothing plans.

    `writing` (a run that writes) reads the rules through this checkout's parse cache and
    keeps it; `--check`, `--diff` and `--dry-run` parse every rule file, so a forged cache can
    make a write wrong — which `update --check` then fails — but never a verdict."""
    from mj_policy.adoption import (
        cover as importcover,  # the rules that carry what `init --import` read
    )
    from mj_policy.projection import orphans
    from mj_policy.receipt import client_loads as clientloads

    layer = layer_mod.load(root)
    data = projections.inputs(layer)
    judged = []
    cache = None
    if writing:
        from mj_policy.layer import parse_cache as parsecache

        cache = parsecache.Cache(layer, "rule")
    planned = projectionplan.planned(layer, cache)
    if cache is not None:
        cache.save()
    for projection in planned:
        rendered = projections.render(projection, data)
        path = confined(root, projection.target)
        old = targets.read(path, projection.target)
        judged.append(targets.judge(rendered, data.policy_file, old))
    left: list[Orphan] = []
    coverage = importcover.load(layer)
    if coverage is not None:  # a layer that imported nothing loads no hand-over
        from mj_policy.adoption import handover

        judged, left = handover.apply(layer, data, judged, planned, coverage)
    found = Plan(data, judged, orphans.find(root, planned) + left, data.budget_lines)
    by_target: dict[str, Rendered | None] = {
        item.rendered.projection.target: item.rendered for item in judged
    }
    found.described, found.rules = clientloads.of_plan(root, planned, by_target)
    return found


def confined(root: Path, target: str) -> Path:
    """The target's path, refused (15) before any write when a write there would leave the
    repository, pass through a symbolic link or land inside the git directory."""
    from mj_core.write import confine

    refusal = confine.check(root, target)
    if refusal:
        raise Refused(f"{refusal} — fix the projection target in the policy or the link")
    return root / target
