"""Required keys: the walk names each absent key with the position of its enclosing mapping."""

from __future__ import annotations

from mj_core.schema.required import missing_keys
from mj_core.yaml import strict as yamlstrict


def test_a_complete_manifest_misses_nothing() -> None:
    text = (
        "schema: ai-repository/v1\nrepo:\n  path: repo\nlocal:\n  path: local\n"
        "  tracked: false\n  implicit_context: false\nsections:\n"
        + "".join(
            f"  {name}: repo/{name}\n"
            for name in (
                "policy",
                "profiles",
                "rules",
                "prompts",
                "skills",
                "workflows",
                "knowledge",
                "adrs",
                "project",
            )
        )
        + "context:\n  documents:\n    - README.md\n"
    )
    assert missing_keys(yamlstrict.parse(text, "m.yaml"), "manifest") == []


def test_absent_keys_are_named_at_their_parent() -> None:
    text = "schema: ai-repository/v1\nrepo:\n  path: repo\nlocal:\n  path: local\n"
    found = missing_keys(yamlstrict.parse(text, "m.yaml"), "manifest")
    assert ("m.yaml:4:1", "local.tracked") in found
    assert ("m.yaml:1:1", "sections") in found


def test_items_of_a_sequence_are_walked_with_their_index() -> None:
    text = "enforcement:\n  - name: a\n    path: majordomus\n    args:\n      - doctor\n"
    found = missing_keys(yamlstrict.parse(text, "p.yaml"), "policy")
    assert ("p.yaml:2:5", "enforcement[0].wired_by") in found
