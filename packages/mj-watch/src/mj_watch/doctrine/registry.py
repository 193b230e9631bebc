"""The validator registry: each name a rule's `x-majordomus.validator` may declare → the check.

A validator is called with one `Facts` and yields findings. `doctor` fails on a declared name
missing here and on an entry here that no rule declares, so add a rule file to
`share/standard/majordomus/rules/` (and run `python -m mj_policy.rules.vendorgen`) in the same
change
that adds an entry. One line per validator.
"""

from __future__ import annotations

from mj_watch.doctrine.context_budget import context_budget
from mj_watch.doctrine.context_check import context_integrity
from mj_watch.doctrine.context_check import prompt_integrity
from mj_watch.doctrine.finish_rules import blocker_resolution
from mj_watch.doctrine.finish_rules import decision_record
from mj_watch.doctrine.finish_rules import decision_records
from mj_watch.doctrine.finish_rules import note_present
from mj_watch.doctrine.finish_rules import obligations_covered
from mj_watch.doctrine.finish_rules import regression_test
from mj_watch.doctrine.finish_rules import state_freshness
from mj_watch.doctrine.finish_rules import verification_ran
from mj_watch.doctrine.layer import layer_integrity
from mj_watch.doctrine.policy import policy_schema
from mj_watch.doctrine.projections import projection_integrity
from mj_watch.doctrine.retention import retention_caps
from mj_watch.doctrine.task_rules import checkpoint_freshness
from mj_watch.doctrine.task_rules import ledger_integrity
from mj_watch.doctrine.task_rules import question_lines
from mj_watch.doctrine.task_rules import scope_integrity
from mj_watch.doctrine.task_rules import state_consistency
from mj_watch.doctrine.vendor import vendor_integrity
from mj_watch.wiring.check import enforcement_wiring

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from collections.abc import Callable
    from collections.abc import Iterable

    from mj_core.findings import Finding

    Validator = Callable[..., Iterable[Finding]]

REGISTRY: dict[str, Validator] = {
    "layer_integrity": layer_integrity,
    "policy_schema": policy_schema,
    "vendor_integrity": vendor_integrity,
    "enforcement_wiring": enforcement_wiring,
    "projection_integrity": projection_integrity,
    "context_budget": context_budget,
    "context_integrity": context_integrity,
    "prompt_integrity": prompt_integrity,
    "retention_caps": retention_caps,
    "verification_ran": verification_ran,
    "state_freshness": state_freshness,
    "blocker_resolution": blocker_resolution,
    "note_present": note_present,
    "regression_test": regression_test,
    "obligations_covered": obligations_covered,
    "decision_record": decision_record,
    "decision_records": decision_records,
    "scope_integrity": scope_integrity,
    "state_consistency": state_consistency,
    "checkpoint_freshness": checkpoint_freshness,
    "ledger_integrity": ledger_integrity,
    "question_lines": question_lines,
}
