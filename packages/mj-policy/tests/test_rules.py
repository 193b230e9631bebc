from __future__ import annotations

import pytest
from mj_core.errors import ContractUnmet
from mj_policy.rules.effective import Rule
from mj_policy.rules.effective import resolve


def rule(rule_id: str, *deps: str, status: str = "active", where: str = "project") -> Rule:
    data = {"id": rule_id, "version": 1, "status": status, "depends_on": list(deps)}
    return Rule(rule_id, 1, f"{rule_id}.md", where, data)


def test_dependencies_come_first_then_base_order() -> None:
    rules = [rule("p.c", "p.a@1"), rule("p.a"), rule("p.b"), rule("p.d", "p.c@1", "p.b@1")]
    assert [r.id for r in resolve(rules)] == ["p.a", "p.c", "p.b", "p.d"]


def test_deprecated_rules_are_not_effective() -> None:
    assert [r.id for r in resolve([rule("p.a"), rule("p.old", status="deprecated")])] == ["p.a"]


@pytest.mark.parametrize(
    ("rules", "words"),
    [
        ([rule("p.a", "p.b@1"), rule("p.b", "p.a@1")], "cycle"),
        ([rule("p.a", "p.a@1")], "cycle"),
        ([rule("p.a", "p.x@1")], "no rule declares it"),
        ([rule("p.old", status="deprecated"), rule("p.a", "p.old@1")], "deprecated"),
        ([rule("p.a"), rule("p.a")], "also declared"),
        ([rule("majordomus.x")], "reserved"),
    ],
)
def test_fails_closed(rules: list[Rule], words: str) -> None:
    with pytest.raises(ContractUnmet, match=words):
        resolve(rules)


def test_vendored_rules_may_use_the_reserved_namespace() -> None:
    assert resolve([rule("majordomus.x", where="vendor:majordomus")])[0].id == "majordomus.x"
