"""The `targets` fact: each declared projection target as the judges need it, read here.

Whether a write to it would be refused (and why), its text (or why it cannot be decoded), its
host file's length, what `update` would write into it now (`rendered`: the generated text and
the hash of its inputs, which the judges compare with the file as `update --check` does),
whether each path its generated text names exists; the README's text; and, when a generated
text names a rule id, the ids the effective rule set provides.
"""

from __future__ import annotations

from mj_core.errors import MjError
from mj_core.write import confine
from mj_core.yaml import strict as yamlstrict

from mj_policy.projection import plan as projectionplan
from mj_policy.projection import render as projections
from mj_policy.projection import targets
from mj_policy.projection.text import bootstrap_part
from mj_policy.projection.text import named_rule_ids
from mj_policy.projection.text import referenced_paths
from mj_policy.receipt import client_loads as clientloads

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from pathlib import Path
    from typing import Any

    from mj_policy.layer.loader import Layer
    from mj_policy.projection.render import Inputs
    from mj_policy.projection.render import Projection
    from mj_policy.projection.render import Rendered

    Record = dict[str, Any]


def gather(root: Path, lay: Layer | None) -> Record:
    """The `targets` fact: each declared target as a write would find it, its text, its host
    length, whether the paths its generated text names exist; the README's text; and, when a
    target names a rule id, the ids the effective rule set provides."""
    found: dict[str, Record] = {}
    named = False
    planned = _planned(lay) if lay is not None else []
    data = _inputs(lay) if lay is not None else None
    made = {p.target: _rendered(p, data) for p in planned}
    described, delivered = clientloads.of_plan(root, planned, made)
    for projection in planned:
        seen = _target(root, projection)
        rendered = made[projection.target]
        seen["rendered"] = None
        if rendered is not None:
            seen["rendered"] = {"generated": rendered.generated, "inputs": rendered.inputs}
        seen["load"] = described[projection.target]
        seen["projection"] = {
            "provider": projection.provider,
            "mode": projection.mode,
            "always_loaded": projection.always_loaded,
            "rule": projection.rule.rule.key if projection.rule is not None else None,
        }
        generated = _generated(seen, projection)
        named_paths = referenced_paths(bootstrap_part(generated)) if projection.rule is None else []
        seen["paths"] = {p: (root / p.rstrip("/")).exists() for p in named_paths}
        named = named or bool(named_rule_ids(generated))
        found[projection.target] = seen
    readme = root / "README.md"
    text = readme.read_text(encoding="utf-8", errors="replace") if readme.is_file() else ""
    known = _known_rules(lay) if named and lay is not None else None
    from mj_policy.projection import orphans

    left = [{"target": o.target, "intact": o.intact} for o in orphans.find(root, planned)]
    forms = {target: about["forms"] for target, about in described.items()}
    return {
        "kind": "fact",
        "fact": "targets",
        "policy_file": data.policy_file if data is not None else None,
        "targets": found,
        "delivered": delivered,
        "readme": text,
        "rules": known,
        "orphans": left,
        "reach": _reach(lay, planned, forms) if lay is not None and data is not None else None,
    }


def _reach(
    lay: Layer, planned: list[Projection], forms: dict[str, dict[str, str]]
) -> Record | None:
    """Where each rule reaches the declared clients, from their load receipts; None when the
    rule set does not resolve (the rules doctrine's finding)."""
    from mj_policy.receipt import reach as receiptreach

    try:
        return receiptreach.reach(lay, planned, forms)
    except MjError:
        return None


def _planned(lay: Layer) -> list[Projection]:
    """The projections `update` would write; only the declared ones when the rule set does not
    resolve (that is the rules doctrine's finding)."""
    try:
        return projectionplan.planned(lay)
    except MjError:
        return projections.declared(lay.policy.data)


def _inputs(lay: Layer) -> Inputs | None:
    try:
        return projections.inputs(lay)
    except (MjError, KeyError, TypeError, ValueError):  # an invalid policy: its own finding
        return None


def _rendered(projection: Projection, data: Inputs | None) -> Rendered | None:
    """What `update` would write into the target now, None when it cannot render it (the
    reason is another doctrine's finding: a template, the rules, the policy)."""
    if data is None:
        return None
    try:
        return projections.render(projection, data)
    except MjError:
        return None


def _target(root: Path, projection: Projection) -> Record:
    target = projection.target
    refusal = confine.check(root, target)  # why a write to it would be refused, or None
    path = root / target
    if refusal is not None or not path.is_file():
        return {"refusal": refusal, "type": "absent" if refusal is None else "refused"}
    raw = path.read_bytes()
    try:
        text = yamlstrict.decode(raw, target)
    except MjError as exc:
        return {"refusal": None, "type": "file", "problem": exc.message, "newlines": 0}
    return {"refusal": None, "type": "file", "text": text, "newlines": raw.count(b"\n")}


def _generated(seen: Record, projection: Projection) -> str:
    if "text" not in seen:
        return ""
    try:
        return targets.verify(seen["text"], projection.mode, projection.target).generated
    except MjError:
        return ""


def _known_rules(lay: Layer) -> list[str] | None:
    from mj_policy.rules import effective as rules

    try:
        effective = rules.effective(lay)
    except MjError:
        return None  # an unresolvable rule set is the rules doctrine's finding
    return sorted({r.id for r in effective} | {r.key for r in effective})
