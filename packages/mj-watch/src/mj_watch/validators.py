"""The validator registry: each name a rule's `x-majordomus.validator` may declare → the check.

A validator is called with one `Facts` and yields findings. `doctor` fails on a declared name
missing here and on an entry here that no rule declares, so add a rule file to
`share/standard/majordomus/rules/` (and run `python -m mj_policy.vendorgen`) in the same change
that adds an entry. One line per validator.
"""

from __future__ import annotations

from collections.abc import Callable
from collections.abc import Iterable

from mj_core.findings import Finding

from mj_watch.layercheck import layer_integrity
from mj_watch.policycheck import policy_schema
from mj_watch.vendorcheck import vendor_integrity

Validator = Callable[..., Iterable[Finding]]

REGISTRY: dict[str, Validator] = {
    "layer_integrity": layer_integrity,
    "policy_schema": policy_schema,
    "vendor_integrity": vendor_integrity,
}
