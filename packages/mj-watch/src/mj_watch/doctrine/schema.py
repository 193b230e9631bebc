"""One layer file against its kind: parsed strictly, closed by its allow list and required keys,
then validated in full (types, enums, patterns, minimums) without importing jsonschema: doctor runs
from a hook. Each defect is one FAIL with a reproduce command.
"""

from __future__ import annotations

from mj_core.findings import Finding
from mj_core.schema import full as schema
from mj_core.schema import keys
from mj_core.schema import required

from mj_watch import repro

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from collections.abc import Iterator

    from mj_core.yaml.strict import Document

_COVERED = ("additionalProperties", "required")  # reported by the allow list and required walk


def parse_failure(category: str, relative: str, reason: str) -> Finding:
    message = reason.removeprefix(f"{relative}:")
    return Finding("FAIL", category, relative, message, repro.show_error(relative, reason))


def closed(category: str, doc: Document, kind: str) -> Iterator[Finding]:
    """FAIL for each unknown key, missing key and invalid value of `doc` under `kind`."""
    name = doc.name
    if not isinstance(doc.data, dict):
        yield Finding("FAIL", category, name, "not a mapping", repro.show_error(name, ""))
        return
    for where, key in keys.unknown_keys(doc, kind):
        line = repro.line_of(where)
        yield Finding(
            "FAIL",
            category,
            name,
            f"unknown key '{key}' at line {line} — remove it or fix its spelling "
            f"(allowed: share/allow/{kind}.txt)",
            repro.show_key(name, key),
        )
    for where, key in required.missing_keys(doc, kind):
        yield Finding(
            "FAIL",
            category,
            name,
            f"missing key '{key}' (under line {repro.line_of(where)}) — add it; "
            "no key has a default",
            repro.show_absent(name, key),
        )
    for where, message in schema.quick_violations(doc, kind, skip=_COVERED):
        line = repro.line_of(where)
        yield Finding(
            "FAIL", category, name, f"line {line}: {message}", repro.show_line(name, line)
        )
