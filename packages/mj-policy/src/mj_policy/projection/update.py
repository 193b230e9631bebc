"""`mj-policy update`: render every projection, judge each target, then write — or refuse.

All judging happens before the first write, so a refusal (15) or a budget overrun (10) leaves
every target as it was. `--check` is the read-only CI gate: one finding per target, FAIL for a
target that is missing or would change.
"""

from __future__ import annotations

import os

from mj_core import timing
from mj_core.errors import ContractUnmet
from mj_core.errors import Refused
from mj_core.stream.stage import Stage

from mj_policy.layer import loader as layer_mod
from mj_policy.projection import plan as projectionplan
from mj_policy.projection import render as projections
from mj_policy.projection import targets
from mj_policy.projection import update_check as updatecheck

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    import argparse
    from collections.abc import Iterator
    from pathlib import Path
    from typing import Any

    from mj_core.findings import Finding
    from mj_core.stream.stage import Context

    from mj_policy.projection.orphans import Orphan
    from mj_policy.projection.render import Projection
    from mj_policy.projection.targets import Judged

    Record = dict[str, Any]


class Plan:
    """Everything one run of update decides before it writes."""

    __slots__ = ("budget", "clients", "data", "judged", "orphans")

    def __init__(
        self, data: projections.Inputs, judged: list[Judged], orphans: list[Orphan], budget: int
    ) -> None:
        self.data = data
        self.judged = judged
        self.orphans = orphans  # stamped rule files no rule projects any more
        self.budget = budget  # context.always_loaded_budget_lines
        self.clients: list[Finding] = []  # each client over what it loads (`receipt.client_loads`)


def plan(root: Path, *, writing: bool = False) -> Plan:
    """Render and judge every planned projection; find the rule files nothing plans.

    `writing` (a run that writes) reads the rules through this checkout's parse cache and
    keeps it; `--check`, `--diff` and `--dry-run` parse every rule file, so a forged cache can
    make a write wrong — which `update --check` then fails — but never a verdict."""
    from mj_policy.adoption import (
        cover as importcover,  # the rules that carry what `init --import` read
    )
    from mj_policy.projection import orphans

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
    found.clients = _clients(root, planned, judged, data.budget_lines)
    return found


def _clients(
    root: Path, planned: list[Projection], judged: list[Judged], budget: int
) -> list[Finding]:
    from mj_policy.receipt import client_loads as clientloads

    rendered = {item.rendered.projection.target: item.rendered for item in judged}
    described, rules = clientloads.of_plan(root, planned, dict(rendered))
    return clientloads.findings(described, rules, budget)


def confined(root: Path, target: str) -> Path:
    """The target's path, refused (15) before any write when a write there would leave the
    repository, pass through a symbolic link or land inside the git directory."""
    from mj_core.write import confine

    refusal = confine.check(root, target)
    if refusal:
        raise Refused(f"{refusal} — fix the projection target in the policy or the link")
    return root / target


def refusal(item: Judged, extra: int) -> Refused:
    target = item.rendered.projection.target
    what = getattr(item, "why", "") or (
        "carries no stamp, so `majordomus update` did not write it"
        if item.state == targets.UNSTAMPED
        else "was edited by hand since `majordomus update` wrote it"
    )
    more = f" (and {extra} more target(s))" if extra else ""
    return Refused(
        f"{target}: {what}{more} — see `majordomus update --diff {target}`; "
        "`majordomus update --force` overwrites it"
    )


def record(item: Judged, action: str) -> Record:
    projection = item.rendered.projection
    return {
        "kind": "projection",
        "provider": projection.provider,
        "target": projection.target,
        "mode": projection.mode,
        "state": item.state,
        "action": action,
        "policy": item.rendered.inputs[:12],
        "content": item.rendered.content,
    }


def _write(root: Path, item: Judged) -> None:
    """Publish one projection atomically. A whole generated file is not synced: it is derived
    from the policy and stamped, so one a crash lost or left empty is `missing` to `update
    --check` and doctor, and `update` writes it again. A region's host holds the person's own
    text around it, which nothing could rebuild: it is synced, as records are."""
    from mj_core.write import (
        atomic,  # tempfile and its imports: paid only when something is written
    )

    projection = item.rendered.projection
    path = root / projection.target
    mode = os.lstat(path).st_mode & 0o777 if path.exists() else 0o644
    data = item.new.encode("utf-8")
    durable = projection.mode == "region"
    atomic.create(path, data, mode=mode, replace=True, root=root, durable=durable)


def _refuse_if_needed(found: Plan, force: bool) -> None:
    judged = found.judged
    for item, over in updatecheck.over_budget(judged, found.budget):
        raise ContractUnmet(
            f"{item.rendered.projection.target}: the always-loaded projection would be "
            f"{'; '.join(over)} — shorten the template or the rules it carries; "
            "nothing was written"
        )
    for client in found.clients:
        if client.level == "FAIL":
            raise ContractUnmet(
                f"{client.subject}: {client.message} — shorten the rules or the templates, "
                "declare fewer providers or raise the budget; nothing was written"
            )
    refused = [item for item in judged if item.state in targets.REFUSED_STATES]
    if refused and not force:
        raise refusal(refused[0], len(refused) - 1)


def run(options: argparse.Namespace, context: Context) -> Iterator[Record]:
    root = context.root()
    with timing.phase("projections: render and judge"):
        found = plan(root, writing=not (options.check or options.diff or options.dry_run))
    data, judged, budget = found.data, found.judged, found.budget
    if options.diff:
        yield from updatecheck.diff(root, options.diff, judged)
        return
    if options.check:
        yield from updatecheck.check(judged, budget, found.clients)
        yield from updatecheck.check_orphans(found.orphans)
        return
    _refuse_if_needed(found, options.force)
    _refuse_orphans(found.orphans, options.force)
    changed = [item for item in judged if item.state != targets.CURRENT]
    if not options.dry_run:
        with timing.phase("projections: write"):
            if changed or found.orphans:  # the ledger line's envelope asks git where HEAD is:
                _ask_where_ahead(root)  # begun now, answered while the files are written
            for item in changed:
                _write(root, item)
            for orphan in found.orphans:
                os.unlink(confined(root, orphan.target))
    action = "would write" if options.dry_run else "wrote"
    for item in judged:
        yield record(item, action if item.state != targets.CURRENT else "unchanged")
    for orphan in found.orphans:
        yield _orphan_record(orphan, options.dry_run, data)
    count = len(changed) + len(found.orphans)
    if count and not options.dry_run:
        yield from _ledger(root, data, count)  # (`mj_core.funnel` reaps the question begun)


def _refuse_orphans(found: list[Orphan], force: bool) -> None:
    edited = [o for o in found if not o.intact]
    if edited and not force:
        more = f" (and {len(edited) - 1} more)" if len(edited) > 1 else ""
        raise Refused(
            f"{edited[0].target}: {edited[0].refusal_message()}{more} — "
            "`majordomus update --force` removes it"
        )


def _orphan_record(orphan: Orphan, dry_run: bool, data: projections.Inputs) -> Record:
    return {
        "kind": "projection",
        "provider": orphan.provider,
        "target": orphan.target,
        "mode": "file",
        "state": orphan.state,
        "action": "would remove" if dry_run else "removed",
        "policy": data.policy_sha256[:12],
        "content": "",
    }


def _ask_where_ahead(root: Path) -> None:
    """Begin `git.where.where`'s question for the ledger line this run owes (`git.ahead`):
    writing the working tree's files leaves git's directories, HEAD and branch as they are."""
    from mj_core.git import questions as git
    from mj_core.git import where as gitwhere

    git.ahead([(gitwhere.WHERE_ARGS, root)])


def _ledger(root: Path, data: projections.Inputs, count: int) -> Iterator[Record]:
    """The ledger line this run owes: `mj-state log` appends it (mj-state owns the ledger)."""
    yield {
        "kind": "append",
        "event": "projections.updated",
        "policy_sha256": data.policy_sha256,
        "targets": count,
    }


STAGES = {
    "update": Stage(run),
}
