"""Environment probes beyond python and git, reported as INFO: which optional tools this
machine has. No check of doctor depends on them; the line says so, so a reader knows nothing
was skipped for their absence."""

from __future__ import annotations

from mj_core.findings import Finding

from mj_watch.resolve import which

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from collections.abc import Iterator

    from mj_watch.facts import Facts

OPTIONAL = ("sh", "pre-commit", "jq", "yq")


def optional_tools(facts: Facts) -> Iterator[Finding]:
    del facts
    found = [f"{name} {'present' if which(name) else 'absent'}" for name in OPTIONAL]
    message = ", ".join(found) + "; no doctor check needs them, none was skipped"
    yield Finding("INFO", "env", "optional tools", message)
