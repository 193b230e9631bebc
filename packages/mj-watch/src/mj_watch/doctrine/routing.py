"""A doctrine's findings routed by the rule that declares it: under an advisory rule a FAIL is
reported as WARN; under a blocking rule with another `exit_code` the FAIL carries that code.
Doctor routes every validator it runs this way, and `check --rule` the one it runs.
"""

from __future__ import annotations

from mj_core.findings import Finding

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from collections.abc import Iterable
    from collections.abc import Iterator


def routed(found: Iterable[Finding], route: tuple[str, int] | None) -> Iterator[Finding]:
    """`found` under the route (class, exit code) of its rule; None: as it was."""
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
