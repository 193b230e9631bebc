"""The project's own rules judged as `majordomus rules` resolves them, from the layer's facts.

Each `project/*.md` rule's front matter must parse and be closed (no unknown key); a blocking
rule must name a validator, or nothing could fail it (that the validator exists is
`doctrine.vendor.validator_findings`'s); each test file a project rule names must be there; and
the whole set, vendored and project rules together,
must resolve (identity, the reserved namespace, dependencies, cycles) by
`mj_policy.rules.effective.resolve`, the function `rules` itself resolves with. The vendored
package is
`doctrine.vendor`'s.
"""

from __future__ import annotations

import shlex

from mj_core.errors import MjError
from mj_core.findings import Finding
from mj_policy.rules import effective as rules_mod
from mj_policy.rules.item import Rule

from mj_watch.doctrine import schema as schemacheck
from mj_watch.doctrine.vendor import rule_files

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import Any

    from mj_watch.doctor.facts_view import Facts

CATEGORY = "rules"
REPRODUCE = "majordomus rules"


def project_rules(facts: Facts) -> Iterator[Finding]:
    base = facts.section("rules", "repo/rules")
    everything = rule_files(facts.files_below(base), base)
    own = [
        p for p in everything if p.startswith(f"{base}/project/") and not p.endswith("/README.md")
    ]
    if not own:
        return  # the README is the directory's context document, not a rule
    parsed: list[Rule] = []
    failed = False
    for shown in everything:
        if shown in own:
            rule, found = _project_rule(facts, shown)
            yield from found
            failed = failed or bool(found)
        else:
            rule = _vendored_rule(facts, shown)  # judged by vendor_integrity
            failed = failed or rule is None
        if rule is not None:
            parsed.append(rule)
    if failed:
        return  # a set with an unreadable rule cannot be resolved as `rules` would
    try:
        rules_mod.resolve(parsed)
    except MjError as exc:
        subject, _, said = exc.message.partition(": ")  # `<file>[:line]: why`
        yield Finding("FAIL", CATEGORY, subject, said or exc.message, REPRODUCE)
        return
    told = f"{len(own)} rule(s), resolved with the vendored set"
    yield Finding("OK", CATEGORY, f"{base}/project/", told)


def _project_rule(facts: Facts, shown: str) -> tuple[Rule | None, list[Finding]]:
    doc, reason = facts.front_matter(shown)
    if doc is None:
        return None, [schemacheck.parse_failure(CATEGORY, shown, reason or "unreadable")]
    found = list(schemacheck.closed(CATEGORY, doc, "rule"))
    if found:
        return None, found
    data: dict[str, Any] = doc.data
    rule = Rule(str(data["id"]), int(data["version"]), shown, "project", data)
    return rule, [*_enforcement(shown, data), *_tests(facts, rule)]


def _tests(facts: Facts, rule: Rule) -> Iterator[Finding]:
    """A FAIL for each test file the rule names that is not there (`doctrine`'s judgement)."""
    from mj_watch.doctrine import command as doctrine

    for finding in doctrine.missing(facts, [rule]):
        if "test file" in finding.message:
            yield Finding("FAIL", CATEGORY, finding.subject, finding.message, finding.reproduce)


def _vendored_rule(facts: Facts, shown: str) -> Rule | None:
    doc, _ = facts.front_matter(shown)
    data = doc.data if doc is not None else None
    if not isinstance(data, dict) or type(data.get("version")) is not int:
        return None
    return Rule(str(data.get("id")), data["version"], shown, "vendor", data)


def _enforcement(shown: str, data: dict[str, Any]) -> Iterator[Finding]:
    block = data.get("x-majordomus")
    validator = block.get("validator") if isinstance(block, dict) else None
    quoted = shlex.quote(shown)
    if data.get("class") == "blocking" and not isinstance(validator, str):
        yield Finding(
            "FAIL",
            CATEGORY,
            shown,
            "class: blocking, but no validator enforces it, so nothing can fail it — name its "
            "x-majordomus.validator, or make it advisory",
            f"grep -nE '^(class|  validator):' {quoted}",
        )
