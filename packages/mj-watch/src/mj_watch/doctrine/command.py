"""`doctrine [status]`, `doctrine list`, `doctrine show <id>`: which rules are enforced, by
what, and whether it is there — judged from `mj-policy facts` alone.

The effective rule set is resolved from the facts' rule files as `rules` resolves it (10 when
it does not resolve). `status` counts the doctrines and FAILs each validator a rule names that
this majordomus does not have and each test file a project rule names that is not there
(the vendored rules' tests are Majordomus's own suite); `list` adds one INFO a rule; `show`
is one rule's record (12 for an id the set does not hold). Each view also says which clients
are held at the moment of action through their own hooks and which cannot be (`act.reach`).
Exit 10 when anything is missing.
"""

from __future__ import annotations

import shlex

from mj_core.errors import ContractUnmet
from mj_core.findings import Finding
from mj_core.stream.stage import Stage
from mj_policy.rules import effective as rules_mod
from mj_policy.rules.item import Rule

from mj_watch.doctor.facts_view import Facts
from mj_watch.doctrine import schema as schemacheck
from mj_watch.doctrine.vendor import rule_files

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    import argparse
    from collections.abc import Iterator
    from typing import Any

    from mj_core.stream.stage import Context

    Record = dict[str, Any]

CATEGORY = "doctrine"


def effective(facts: Facts) -> list[Rule]:
    """The resolved rule set of the facts' layer; 10 naming the first rule that stops it."""
    base = facts.section("rules", "repo/rules")
    found: list[Rule] = []
    for shown in rule_files(facts.files_below(base), base):
        own = shown.startswith(f"{base}/project/")
        if own and shown.endswith("/README.md"):
            continue
        doc, reason = facts.front_matter(shown)
        if doc is None:
            where = reason if str(reason).startswith(shown) else f"{shown}: {reason}"
            raise ContractUnmet(f"{where} — the rule set does not resolve")
        problems = list(schemacheck.closed(CATEGORY, doc, "rule"))
        if problems:
            raise ContractUnmet(f"{problems[0].subject}: {problems[0].message}")
        data: dict[str, Any] = doc.data
        provenance = "project" if own else "vendor"
        found.append(Rule(str(data["id"]), int(data["version"]), shown, provenance, data))
    return rules_mod.resolve(found)


def _block(rule: Rule) -> dict[str, Any]:
    block = rule.data.get("x-majordomus")
    return block if isinstance(block, dict) else {}


def missing(facts: Facts, rules: list[Rule]) -> Iterator[Finding]:
    """A FAIL for each validator this majordomus lacks and each absent named test file."""
    from mj_watch.doctrine.registry import REGISTRY

    named = facts.get("tests").get("named") or {}
    for rule in rules:
        block = _block(rule)
        quoted = shlex.quote(rule.path)
        validator = block.get("validator")
        if isinstance(validator, str) and validator not in REGISTRY:
            message = f"{rule.key} names validator {validator!r}, which this majordomus lacks"
            yield Finding("FAIL", CATEGORY, rule.path, message, f"grep -n 'validator:' {quoted}")
        if rule.provenance != "project":
            continue
        for test in block.get("tests") or []:
            if named.get(test) is False:
                message = f"{rule.key} names the test file {test}, which is not there"
                yield Finding("FAIL", CATEGORY, rule.path, message, f"ls -l {shlex.quote(test)}")


def status(facts: Facts, rules: list[Rule]) -> Iterator[Finding]:
    problems = list(missing(facts, rules))
    yield from problems
    blocking = sum(1 for r in rules if r.data.get("class") == "blocking")
    validators = sum(1 for p in problems if "validator" in p.message)
    message = (
        f"{len(rules)} declared: {blocking} blocking, {len(rules) - blocking} advisory; "
        f"{validators} validator(s) missing, {len(problems) - validators} test file(s) missing"
    )
    yield Finding("INFO", CATEGORY, "doctrines", message)


def listed(rules: list[Rule]) -> Iterator[Finding]:
    for rule in rules:
        validator = _block(rule).get("validator")
        enforced = rules_mod.enforcement(rule) if validator else "no validator: reviewed, not run"
        shown = f"{validator}; " if validator else ""
        message = f"{rule.data.get('class')}; {shown}{enforced}; {rule.path}"
        yield Finding("INFO", CATEGORY, rule.key, message)


def shown(rule: Rule, base: str) -> Iterator[Finding]:
    block = _block(rule)
    defining = (
        rule.path if rule.provenance == "project" else f"{base}/vendor/majordomus/manifest.yaml"
    )
    fields = [
        ("rule file", rule.path),
        ("defined by", defining),
        ("class", rule.data.get("class")),
        ("statement", rule.data.get("statement")),
        ("validator", block.get("validator")),
        ("enforced by", ", ".join(map(str, block.get("enforced_by") or [])) or None),
        ("claims", ", ".join(map(str, block.get("claims") or [])) or None),
        ("tests", ", ".join(map(str, block.get("tests") or [])) or None),
        ("depends on", ", ".join(map(str, rule.data.get("depends_on") or [])) or None),
    ]
    for name, value in fields:
        yield Finding("INFO", CATEGORY, rule.key, f"{name}: {'none' if value is None else value}")


def _run(options: argparse.Namespace, context: Context) -> Iterator[Record]:
    facts = Facts(context.records(options.input))
    facts.get("files")  # another stage's facts, or none: nothing to judge (12)
    rules = effective(facts)
    from mj_watch.act import reach as actreach

    found = [*status(facts, rules), actreach.summary()]
    if options.view == "list":
        found = [*listed(rules), *actreach.listed(), *found]
    for finding in found:
        yield finding.record()


def _show(options: argparse.Namespace, context: Context) -> Iterator[Record]:
    facts = Facts(context.records())
    facts.get("files")
    rules = effective(facts)
    rule = rules_mod.find(rules, options.id)
    for finding in [*shown(rule, facts.section("rules", "repo/rules")), *missing(facts, [rule])]:
        yield finding.record()


def run_one(facts: Facts, wanted: str) -> Iterator[Finding]:
    """`check --rule <id>`: the one doctrine's validator over doctor's facts, routed by the
    rule's class as doctor routes it (advisory: a FAIL is reported as WARN). A blocking rule
    with no validator, or one naming a validator this majordomus lacks, FAILs: nothing would
    enforce it. A validator with nothing to judge here says so (OK), never silence."""
    from mj_watch.doctrine.registry import REGISTRY
    from mj_watch.doctrine.routing import routed

    rule = rules_mod.find(effective(facts), wanted)
    block = _block(rule)
    klass = str(rule.data.get("class"))
    validator = block.get("validator")
    where = f"grep -n 'validator:' {shlex.quote(rule.path)}"
    if not isinstance(validator, str):
        if klass == "blocking":
            message = f"{rule.key} is blocking and names no validator: nothing enforces it"
            yield Finding("FAIL", CATEGORY, rule.path, message, where)
        else:
            message = f"{rule.key} is advisory and names no validator: it is reviewed, not run"
            yield Finding("INFO", CATEGORY, rule.key, message)
        return
    check = REGISTRY.get(validator)
    if check is None:
        message = f"{rule.key} names validator {validator!r}, which this majordomus lacks"
        yield Finding("FAIL", CATEGORY, rule.path, message, where)
        return
    code = block.get("exit_code")
    found = list(routed(check(facts), (klass, code if isinstance(code, int) else 10)))
    yield from found
    if not found:
        message = f"{rule.key} ({klass}, validator {validator}): nothing to judge here"
        yield Finding("OK", CATEGORY, rule.key, message)


def _run_rule(options: argparse.Namespace, context: Context) -> Iterator[Record]:
    facts = Facts(context.records(options.input))
    facts.get("doctor")  # doctor's facts (mj-watch facts --for doctor), or nothing to judge
    for finding in run_one(facts, str(options.rule)):
        yield finding.record()


STAGES = {
    "doctrine": Stage(_run),
    "doctrine-show": Stage(_show),
    "doctrine-run": Stage(_run_rule),
}
