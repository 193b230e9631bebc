"""`mj-watch doctor`: is the governance layer real here? A judge over `mj-watch facts --for
doctor`: it reads facts on stdin (or a file) and never the repository; one finding per fact.

`CHECKS` is the ordered list doctor runs, one line per check: (the validator name a rule may
route it by, the check) — a validator from `validators.REGISTRY` (a doctrine, routed by the
class of the rule that declares it) or a plain probe (no name). Append a line to add a check;
keep the order of CLI-REFERENCE §2.4.
"""

from __future__ import annotations

from mj_core.findings import Finding
from mj_core.stage import Context
from mj_core.stage import Stage

from mj_watch import vendorcheck
from mj_watch.actreach import projected_unenforced
from mj_watch.capturecheck import capture_failures
from mj_watch.capturecheck import capture_programs
from mj_watch.capturecheck import capture_wiring
from mj_watch.context_budget import context_budget
from mj_watch.contextcheck import context_integrity
from mj_watch.contextcheck import prompt_integrity
from mj_watch.declcheck import declaration_integrity
from mj_watch.factview import Facts
from mj_watch.finishrules import decision_records
from mj_watch.finishrules import record_pairs
from mj_watch.knowledgecheck import knowledge_records
from mj_watch.layercheck import layer_integrity
from mj_watch.mcpcheck import mcp_wiring
from mj_watch.plancheck import plan_integrity
from mj_watch.policycheck import policy_schema
from mj_watch.probes import environment
from mj_watch.probes import git_as_it_is
from mj_watch.probes import optional_tools
from mj_watch.projection_checks import projection_integrity
from mj_watch.projectrules import project_rules
from mj_watch.recordcheck import adr_records
from mj_watch.recordcheck import skill_records
from mj_watch.remotecheck import remote_witness
from mj_watch.retention import retention_caps
from mj_watch.routing import routed
from mj_watch.selftime import doctor_budget
from mj_watch.taskrules import ledger_integrity
from mj_watch.taskrules import question_lines
from mj_watch.taskrules import recorded_scope
from mj_watch.taskrules import state_consistency
from mj_watch.taskrules import state_identity
from mj_watch.validators import REGISTRY
from mj_watch.wiring import enforcement_wiring

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    import argparse
    from collections.abc import Callable
    from collections.abc import Iterable
    from collections.abc import Iterator
    from typing import Any

    Check = Callable[[Facts], Iterable[Finding]]


def ratchet_doctrine(facts: Facts) -> Iterator[Finding]:
    """The ratchet, judged as `ratchet check` does, when the repository declares one (the
    judge's module is imported only then)."""
    if facts.get("ratchet").get("declared"):
        from mj_watch import ratchet

        yield from ratchet.findings(facts.get("ratchet"))


def vendor_integrity(facts: Facts) -> Iterator[Finding]:
    """The vendored package, and the validators the rules declare against this table."""
    more = vendorcheck.validator_findings(facts, REGISTRY, RUN)
    yield from vendorcheck.vendor_integrity(facts, more)


def rule_reach(facts: Facts) -> Iterator[Finding]:
    """Each rule no tool enforces reaches a declared client (its judge imported when run)."""
    from mj_watch import reachcheck

    yield from reachcheck.rule_reach(facts)


CHECKS: list[tuple[str | None, Check]] = [
    ("layer_integrity", layer_integrity),
    ("policy_schema", policy_schema),
    ("enforcement_wiring", enforcement_wiring),
    ("projection_integrity", projection_integrity),
    ("context_budget", context_budget),
    ("context_integrity", context_integrity),
    ("prompt_integrity", prompt_integrity),
    ("retention_caps", retention_caps),
    ("ledger_integrity", ledger_integrity),
    ("state_consistency", state_consistency),
    (None, state_identity),
    (None, recorded_scope),
    ("question_lines", question_lines),
    ("vendor_integrity", vendor_integrity),
    (None, project_rules),
    ("decision_records", decision_records),
    (None, record_pairs),
    (None, ratchet_doctrine),
    (None, capture_failures),
    (None, capture_programs),
    (None, capture_wiring),
    (None, projected_unenforced),
    (None, declaration_integrity),
    (None, mcp_wiring),
    (None, rule_reach),
    (None, plan_integrity),
    (None, knowledge_records),
    (None, adr_records),
    (None, skill_records),
    (None, remote_witness),
    (None, git_as_it_is),
    (None, environment),
    (None, optional_tools),
    (None, doctor_budget),
]
RUN = frozenset(name for name, _ in CHECKS if name is not None)  # the validators doctor runs


def _routing(facts: Facts) -> dict[str, tuple[str, int]]:
    """validator name → (class, exit code) of the rule declaring it."""
    out: dict[str, tuple[str, int]] = {}
    for _, block in vendorcheck.declarations(facts):
        name = block["validator"]
        if name in REGISTRY:
            code = block.get("exit_code")
            out[name] = (str(block.get("class")), code if isinstance(code, int) else 10)
    return out


def findings(facts: Facts) -> Iterator[Finding]:
    routes = _routing(facts)
    for name, check in CHECKS:
        yield from routed(check(facts), routes.get(name) if name else None)


def _run(options: argparse.Namespace, context: Context) -> Iterator[dict[str, Any]]:
    facts = Facts(context.records(options.input))
    facts.get("doctor")  # facts of another judge, or none: nothing to judge (12)
    for finding in findings(facts):
        yield finding.record()


STAGES = {
    "doctor": Stage(_run),
}
