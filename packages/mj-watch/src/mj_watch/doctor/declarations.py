"""Doctor's check of the workspace and deployment declarations, over the `declarations` fact
(`mj-watch facts --for doctor`): every defect `mj_policy.layer.declarations` names is a FAIL (10), a
credential-shaped value among them, named by file, line and key and never echoed."""

from __future__ import annotations

from mj_core.findings import Finding
from mj_policy.layer import declarations

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from collections.abc import Iterator

    from mj_watch.doctor.facts_view import Facts


def declaration_integrity(facts: Facts) -> Iterator[Finding]:
    files = facts.get("declarations").get("files") or []
    failed = 0
    for entry in files:
        kind, shown = str(entry.get("kind")), str(entry.get("path"))
        found = (
            [(shown, declarations.unquoted(str(entry["problem"])))]
            if entry.get("problem")
            else declarations.problems(kind, shown, str(entry.get("text") or ""))
        )
        for where, message in found:
            failed += 1
            yield Finding("FAIL", "declaration", where, message, "majordomus doctor")
    if files and not failed:
        counts = {k: sum(1 for e in files if e.get("kind") == k) for k in declarations.KINDS}
        said = ", ".join(f"{n} {k}(s)" for k, n in counts.items())
        yield Finding("OK", "declaration", ".ai/repo", f"{said} hold to their schemas")
