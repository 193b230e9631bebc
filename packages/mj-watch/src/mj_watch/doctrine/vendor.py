"""Doctrine majordomus.vendor-integrity: the vendored package is what its manifest lists (and,
with `doctor`'s table of validators, `validator_findings`: the validators the rules declare are
exactly the validators this executable has — doctor passes its table in)."""

from __future__ import annotations

import shlex

from mj_core.findings import Finding
from mj_policy.rules import package as rulepkg

from mj_watch import repro
from mj_watch.doctrine import schema as schemacheck

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from collections.abc import Collection
    from collections.abc import Iterator
    from typing import Any

    from mj_watch.doctor.facts_view import Facts

CATEGORY = "rules"
VENDOR = "majordomus"


def package(facts: Facts) -> str:
    return f"{facts.section('rules', 'repo/rules')}/vendor/{VENDOR}"


def vendor_integrity(facts: Facts, more: Iterator[Finding] | None = None) -> Iterator[Finding]:
    """The package against its manifest; `more` (doctor's validator findings) judged with it."""
    found = list(_package(facts, package(facts)))
    found += list(more or ())
    yield from found
    if not any(f.level == "FAIL" for f in found):
        yield Finding("OK", CATEGORY, package(facts) + "/", "matches its manifest")


def _package(facts: Facts, base: str) -> Iterator[Finding]:
    manifest = f"{base}/{rulepkg.MANIFEST}"
    if facts.kind(base) != "directory":
        yield Finding(
            "FAIL",
            CATEGORY,
            base + "/",
            "no vendored rule package — `majordomus init --extend` restores it",
            repro.show_path(base),
        )
        return
    doc, reason = facts.yaml(manifest)
    if doc is None:
        yield schemacheck.parse_failure(CATEGORY, manifest, reason or "unreadable")
        return
    invalid = list(schemacheck.closed(CATEGORY, doc, "vendor-manifest"))
    yield from invalid
    if invalid:
        return
    listed = {entry["file"]: entry for entry in doc.data["rules"]}
    for relative, entry in listed.items():
        yield from _listed(facts, base, relative, entry)
    for relative in facts.files_below(base):
        if relative != rulepkg.MANIFEST and relative not in listed:
            yield Finding(
                "FAIL",
                CATEGORY,
                f"{base}/{relative}",
                f"not listed in {manifest} — the package holds only what its manifest lists",
                f"grep -nF -e {shlex.quote(relative)} {shlex.quote(manifest)}"
                f" || echo {shlex.quote('not listed')}",
            )


def _listed(facts: Facts, base: str, relative: str, entry: dict[str, Any]) -> Iterator[Finding]:
    shown = f"{base}/{relative}"
    described = facts.entry(shown)
    if described.get("type") != "file":
        yield Finding(
            "FAIL", CATEGORY, shown, "listed in the manifest, missing", repro.show_path(shown)
        )
        return
    actual = described.get("sha256")
    if actual != entry["sha256"]:
        yield Finding(
            "FAIL",
            CATEGORY,
            shown,
            f"sha256 {actual} differs from the manifest's {entry['sha256']} — edited by hand; "
            "restore it with `majordomus rules vendor update`",
            f"sha256sum {shlex.quote(shown)}",
        )
    doc, reason = facts.front_matter(shown)
    if doc is None:
        yield schemacheck.parse_failure(CATEGORY, shown, reason or "unreadable")
        return
    yield from schemacheck.closed(CATEGORY, doc, "rule")
    data = doc.data if isinstance(doc.data, dict) else {}
    if (data.get("id"), data.get("version")) != (entry["id"], entry["version"]):
        yield Finding(
            "FAIL",
            CATEGORY,
            shown,
            f"declares {data.get('id')}@{data.get('version')}, the manifest lists "
            f"{entry['id']}@{entry['version']}",
            f"grep -nE '^(id|version):' {shlex.quote(shown)}",
        )


def declarations(facts: Facts) -> list[tuple[str, dict[str, Any]]]:
    """(file, x-majordomus block) of every vendored and project rule whose front matter parses."""
    rules = facts.section("rules", "repo/rules")
    found = []
    for relative in rule_files(facts.files_below(rules), rules):
        doc, _ = facts.front_matter(relative)
        data = doc.data if doc is not None and isinstance(doc.data, dict) else {}
        block = data.get("x-majordomus")
        if isinstance(block, dict) and isinstance(block.get("validator"), str):
            found.append((relative, {**block, "class": data.get("class")}))
    return found


def rule_files(below: list[str], rules: str) -> list[str]:
    """The vendored (`vendor/*/rules/*.md`) and project (`project/*.md`) rules, in that order."""
    vendored = [p for p in below if _depth(p, 4) and p.startswith("vendor/") and _rule(p, 2)]
    project = [p for p in below if _depth(p, 2) and p.startswith("project/")]
    chosen = sorted(vendored, key=_parts) + sorted(
        (p for p in project if p.endswith(".md")), key=_parts
    )
    return [f"{rules}/{p}" for p in chosen]


def _parts(relative: str) -> list[str]:
    return relative.split("/")  # the order of sorted paths, component by component


def _depth(relative: str, parts: int) -> bool:
    return relative.count("/") == parts - 1


def _rule(relative: str, index: int) -> bool:
    return relative.split("/")[index] == "rules" and relative.endswith(".md")


def validator_findings(
    facts: Facts, registry: Collection[str], run_by_doctor: Collection[str]
) -> Iterator[Finding]:
    """Every declared validator is in `registry`, every one a rule says doctor enforces is in
    `run_by_doctor`, and every registered one is declared by some rule."""
    declared = declarations(facts)
    names = {block["validator"] for _, block in declared}
    for relative, block in declared:
        name = block["validator"]
        if name not in registry:
            yield Finding(
                "FAIL",
                CATEGORY,
                relative,
                f"names validator '{name}', which this majordomus does not have",
                repro.show_key(relative, "validator"),
            )
        elif "doctor" in block.get("enforced_by", ()) and name not in run_by_doctor:
            yield Finding(
                "FAIL",
                CATEGORY,
                relative,
                f"declares enforcement by doctor, and doctor does not run validator '{name}'",
                repro.show_key(relative, "enforced_by"),
            )
    for name in sorted(set(registry) - names):
        rules = facts.section("rules", "repo/rules")
        yield Finding(
            "FAIL",
            CATEGORY,
            f"validator {name}",
            "no rule declares it — enforcement that exists on paper only",
            f"grep -rnF -e {shlex.quote('validator: ' + name)} {shlex.quote(rules + '/')}"
            f" || echo {shlex.quote('declared by no rule')}",
        )
