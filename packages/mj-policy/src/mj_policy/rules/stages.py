"""`mj-policy rules|rule|vendor-status|vendor-diff`: the rule set as records (`vendor-update-*`:
`vendor_update_facts`, `vendor_update_judge`, `vendor_update_write`).

`majordomus rules list|show|vendor …` composes these. Resolution errors stop the stage with 10;
`vendor-status` yields findings (FAIL when the vendored copy fails its manifest, DRIFT when it
differs from the shipped package), so its exit code is the verdict over them.
"""

from __future__ import annotations

from mj_core.errors import ContractUnmet
from mj_core.errors import MjError
from mj_core.findings import Finding
from mj_core.stream.stage import Stage
from mj_core.yaml import strict as yamlstrict

from mj_policy.layer import loader as layer_mod
from mj_policy.rules import effective as rules
from mj_policy.rules import vendoring

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    import argparse
    from collections.abc import Iterator
    from typing import Any

    from mj_core.stream.stage import Context

    from mj_policy.rules.item import Rule

    Record = dict[str, Any]


def _checked_rules(context: Context) -> tuple[layer_mod.Layer, list[Rule]]:
    layer = layer_mod.load(context.root())
    found = rules.discover(layer)
    resolved = rules.resolve(found)
    package = layer.section("rules") / "vendor" / vendoring.VENDOR
    if package.is_dir():
        problems = vendoring.integrity(package)
        if problems:
            raise ContractUnmet(
                f"{layer.relative(package)}/{problems[0]} — the vendored package fails its "
                "manifest; `majordomus rules vendor status` shows it"
            )
    return layer, resolved


def _list(options: argparse.Namespace, context: Context) -> Iterator[Record]:
    from mj_policy.receipt import reach as receiptreach

    layer, resolved = _checked_rules(context)
    try:
        lands = receiptreach.landings(layer)
    except MjError:  # a template or policy `update` would refuse: its finding, not this list's
        lands = {}
    for rule in resolved:
        yield {
            "kind": "rule",
            "id": rule.id,
            "version": rule.version,
            "class": rule.data.get("class"),
            "provenance": rule.provenance,
            "enforcement": rules.enforcement(rule),
            "path": rule.path,
            "lands": lands.get(rule.key, []),
        }


def _show(options: argparse.Namespace, context: Context) -> Iterator[Record]:
    layer, resolved = _checked_rules(context)
    rule = rules.find(resolved, options.id)
    text = yamlstrict.read_text(layer.root / rule.path, rule.path)
    yield {"kind": "rule-text", "id": rule.id, "path": rule.path, "text": text}


def _status(options: argparse.Namespace, context: Context) -> Iterator[Record]:
    layer = layer_mod.load(context.root())
    state = vendoring.status(layer)
    subject = layer.relative(vendoring.vendored(layer)) + "/"
    revisions = f"vendored {state.vendored_revision}, shipped {state.shipped_revision}"
    yield Finding("INFO", "rules", subject, revisions).record()
    for problem in state.problems:
        yield Finding(
            "FAIL", "rules", subject, f"{problem}", f"sha256sum {subject}rules/*.md"
        ).record()
    if state.differing:
        message = f"differs from the shipped package in {', '.join(state.differing)}"
        yield Finding("DRIFT", "rules", subject, message, "majordomus rules vendor diff").record()
    elif not state.problems:
        yield Finding("OK", "rules", subject, "same as the shipped package").record()


def _diff(options: argparse.Namespace, context: Context) -> Iterator[Record]:
    layer = layer_mod.load(context.root())
    yield {"kind": "diff", "target": "rules/vendor", "text": vendoring.diff(layer)}


STAGES = {
    "rules": Stage(_list),
    "rule": Stage(_show),
    "vendor-status": Stage(_status),
    "vendor-diff": Stage(_diff),
}
