"""The task-and-ledger doctrines as registry validators, over the same judges `check` runs.

scope_integrity, state_consistency and checkpoint_freshness judge the active task of this
checkout (none, or one from another worktree: nothing to judge); ledger_integrity and
question_lines judge the state files whether or not a task is active.
"""

from __future__ import annotations

from mj_core.errors import ContractUnmet
from mj_core.errors import MjError
from mj_core.findings import Finding
from mj_state import history
from mj_state import judge

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import Any

    from mj_policy.layer import Layer

    from mj_watch.facts import Facts


def _active(facts: Facts) -> tuple[Layer, dict[str, Any]] | None:
    # the task validators are `doctrine` and `check --rule`'s, not doctor's: imported on use
    from mj_state import identity
    from mj_state import tasks

    layer = facts.layer
    if layer is None:
        return None
    try:
        record = tasks.read_current(layer)
    except MjError:
        return None  # unreadable: state_consistency's finding
    if record is None or record.get("outcome") != "active":
        return None
    if identity.foreign(layer.root, record):
        return None
    return layer, record


def scope_integrity(facts: Facts) -> Iterator[Finding]:
    found = _active(facts)
    if found:
        yield from judge.scope_findings(*found)


def state_consistency(facts: Facts) -> Iterator[Finding]:
    from mj_state import check
    from mj_state import identity
    from mj_state import tasks

    layer = facts.layer
    if layer is None:
        return
    try:
        tasks.read_current(layer)
    except ContractUnmet as exc:
        yield check.unreadable(layer, exc.message)
        return
    found = _active(facts)
    if found:
        yield judge.state(found[0], found[1], identity.position(found[0].root))


def checkpoint_freshness(facts: Facts) -> Iterator[Finding]:
    from mj_state import start

    found = _active(facts)
    if found:
        layer, record = found
        try:
            interval = start.interval(layer, str(record["profile"]))
        except MjError:
            return  # a missing or broken profile is the policy check's finding
        yield judge.checkpoint(layer, record, interval)


def ledger_integrity(facts: Facts) -> Iterator[Finding]:
    if facts.layer is not None:
        yield from history.validate(facts.layer)


def question_lines(facts: Facts) -> Iterator[Finding]:
    if facts.layer is not None:
        yield from judge.question_lines(facts.layer)
