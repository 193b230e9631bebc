"""`mj-watch doctor`: is the governance layer real here? A judge over `mj-watch facts --for
doctor`: it reads facts on stdin (or a file) and never the repository; one finding per fact.

`CHECKS` is the ordered list doctor runs, one line per check: (the validator name a rule may
route it by, the check) — a validator from `validators.REGISTRY` (a doctrine, routed by the
class of the rule that declares it) or a plain probe (no name). Append a line to add a check;
keep the order of CLI-REFERENCE §2.4.
"""

from __future__ import annotations

from mj_core.findings import Finding
from mj_core.stream.stage import Context
from mj_core.stream.stage import Stage

from mj_watch.act.reach import projected_unenforced
from mj_watch.doctor.capture_check import capture_failures
from mj_watch.doctor.capture_check import capture_programs
from mj_watch.doctor.capture_check import capture_wiring
from mj_watch.doctor.declarations import declaration_integrity
from mj_watch.doctor.facts_view import Facts
from mj_watch.doctor.knowledge import knowledge_records
from mj_watch.doctor.mcp_check import mcp_wiring
from mj_watch.doctor.plan import plan_integrity
from mj_watch.doctor.probes import environment
from mj_watch.doctor.probes import git_as_it_is
from mj_watch.doctor.probes import optional_tools
from mj_watch.doctor.records import adr_records
from mj_watch.doctor.records import skill_records
from mj_watch.doctor.remote import remote_witness
from mj_watch.doctor.self_time import doctor_budget
from mj_watch.doctrine import vendor as vendorcheck
from mj_watch.doctrine.context_budget import context_budget
from mj_watch.doctrine.context_check import context_integrity
from mj_watch.doctrine.context_check import prompt_integrity
from mj_watch.doctrine.finish_rules import decision_records
from mj_watch.doctrine.finish_rules import record_pairs
from mj_watch.doctrine.layer import layer_integrity
from mj_watch.doctrine.policy import policy_schema
from mj_watch.doctrine.project_rules import project_rules
from mj_watch.doctrine.projections import projection_integrity
from mj_watch.doctrine.registry import REGISTRY
from mj_watch.doctrine.retention import retention_caps
from mj_watch.doctrine.routing import routed
from mj_watch.doctrine.task_rules import ledger_integrity
from mj_watch.doctrine.task_rules import question_lines
from mj_watch.doctrine.task_rules import recorded_scope
from mj_watch.doctrine.task_rules import state_consistency
from mj_watch.doctrine.task_rules import state_identity
from mj_watch.wiring.check import enforcement_wiring

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
        from mj_watch.ratchet import command as ratchet

        yield from ratchet.findings(facts.get("ratchet"))


def vendor_integrity(facts: Facts) -> Iterator[Finding]:
    """The vendored package, and the validators the rules declare against this table."""
    more = vendorcheck.validator_findings(facts, REGISTRY, RUN)
    yield from vendorcheck.vendor_integrity(facts, more)


def rule_reach(facts: Facts) -> Iterator[Finding]:
    """Each rule no tool enforces reaches a declared client (its judge imported when run)."""
    from mj_watch.doctor import reach as reachcheck

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
