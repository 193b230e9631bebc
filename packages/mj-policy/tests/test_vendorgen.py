"""The shipped rule package: its manifest is what the generator writes, every rule is valid."""

from __future__ import annotations

import pytest
from mj_core.schema import full as schema
from mj_core.yaml import strict as yamlstrict
from mj_policy.rules import package as rulepkg
from mj_policy.rules import vendorgen

PACKAGE = vendorgen.package()


def test_the_shipped_manifest_is_current() -> None:
    current = (PACKAGE / rulepkg.MANIFEST).read_text(encoding="utf-8")
    assert current == vendorgen.expected(), "run `python -m mj_policy.rules.vendorgen`"
    assert vendorgen.main(["--check"]) == 0


def test_the_manifest_validates() -> None:
    doc = yamlstrict.load_file(PACKAGE / rulepkg.MANIFEST, rulepkg.MANIFEST)
    assert schema.violations(doc, "vendor-manifest") == []
    listed = [entry["file"] for entry in doc.data["rules"]]
    assert listed == rulepkg.rule_files(PACKAGE)


@pytest.mark.parametrize("relative", rulepkg.rule_files(PACKAGE))
def test_each_rule_validates_and_is_named_after_its_identity(relative: str) -> None:
    doc = rulepkg.front_matter(PACKAGE / relative, relative)
    assert schema.violations(doc, "rule") == []
    name = doc.data["id"].removeprefix("majordomus.")
    assert relative == f"rules/{name}.v{doc.data['version']}.md"
    body = (PACKAGE / relative).read_text(encoding="utf-8")
    for heading in ("# Rationale", "# Required behaviour", "# Failure behaviour", "# Verification"):
        assert f"\n{heading}\n" in body


def test_a_stale_manifest_is_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(vendorgen, "expected", lambda: "something else\n")
    assert vendorgen.main(["--check"]) == 10
