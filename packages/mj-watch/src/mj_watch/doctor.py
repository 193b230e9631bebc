"""`mj-watch doctor`: is the governance layer real here? Read-only; one finding per fact.

`CHECKS` is the ordered list doctor runs, one line per check: a validator from
`validators.REGISTRY` (a doctrine, routed by the class of the rule that declares it) or a plain
probe. Append a line to add a check; keep the order of CLI-REFERENCE §2.4.
"""

from __future__ import annotations

import sys

from mj_core import git
from mj_core.findings import Finding
from mj_core.stage import Context
from mj_core.stage import Stage
from mj_policy import layer

from mj_watch.context_budget import context_budget
from mj_watch.facts import Facts
from mj_watch.finishrules import decision_records
from mj_watch.layercheck import layer_integrity
from mj_watch.policycheck import policy_schema
from mj_watch.probes import optional_tools
from mj_watch.projection_checks import projection_integrity
from mj_watch.retention import retention_caps
from mj_watch.selftime import doctor_budget
from mj_watch.taskrules import ledger_integrity
from mj_watch.taskrules import question_lines
from mj_watch.taskrules import state_consistency
from mj_watch.vendorcheck import declarations
from mj_watch.vendorcheck import vendor_integrity
from mj_watch.wiring import enforcement_wiring

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    import argparse
    from collections.abc import Iterable
    from collections.abc import Iterator
    from typing import Any


def environment(facts: Facts) -> Iterator[Finding]:
    """Probes, reported as INFO: what this doctor ran with."""
    code, out, _ = git.run("--version", cwd=facts.root)
    version = out.strip().removeprefix("git version ") if code == 0 else "unavailable"
    yield Finding("INFO", "env", "tools", f"python {sys.version.split()[0]}, git {version}")


CHECKS: list[Any] = [
    layer_integrity,
    policy_schema,
    enforcement_wiring,
    projection_integrity,
    context_budget,
    retention_caps,
    ledger_integrity,
    state_consistency,
    question_lines,
    vendor_integrity,
    decision_records,
    environment,
    optional_tools,
    doctor_budget,
]


def _routing(facts: Facts) -> dict[Any, tuple[str, int]]:
    """check function → (class, exit code) of the rule declaring it as its validator."""
    from mj_watch.validators import REGISTRY

    out: dict[Any, tuple[str, int]] = {}
    for _, block in declarations(facts):
        check = REGISTRY.get(block["validator"])
        if check is not None:
            code = block.get("exit_code")
            out[check] = (str(block.get("class")), code if isinstance(code, int) else 10)
    return out


def _routed(found: Iterable[Finding], route: tuple[str, int] | None) -> Iterator[Finding]:
    for finding in found:
        if finding.level == "FAIL" and route is not None and route[0] == "advisory":
            yield _copy(finding, "WARN", finding.code)
        elif finding.level == "FAIL" and route is not None and route[1] != 10:
            yield _copy(finding, finding.level, route[1])
        else:
            yield finding


def _copy(finding: Finding, level: str, code: int | None) -> Finding:
    """`finding` at another level or exit code, everything else as it was."""
    f = finding
    return Finding(level, f.category, f.subject, f.message, f.reproduce, code)


def findings(facts: Facts) -> Iterator[Finding]:
    routes = _routing(facts)
    for check in CHECKS:
        yield from _routed(check(facts), routes.get(check))


def _run(options: argparse.Namespace, context: Context) -> Iterator[dict[str, Any]]:
    root = context.root()
    if not (root / layer.MANIFEST).exists():
        raise layer.absent(root)
    facts = Facts(root)
    facts.prove = bool(options.prove)
    for finding in findings(facts):
        yield finding.record()


STAGES = {
    "doctor": Stage(_run),
}
