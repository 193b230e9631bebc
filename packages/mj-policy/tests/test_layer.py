"""The layer loader: a good layer loads; each defect is refused with its code and position."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest
from mj_core import share
from mj_core.errors import ContractUnmet
from mj_core.errors import MissingArtifact
from mj_policy.layer import loader as layer


@pytest.fixture
def root(tmp_path: Path) -> Path:
    shutil.copytree(share.path("skeleton", "ai"), tmp_path / ".ai")
    return tmp_path


def test_the_skeleton_loads(root: Path) -> None:
    loaded = layer.load(root)
    assert loaded.policy.data["version"] == 1
    assert loaded.section("rules") == root / ".ai" / "repo" / "rules"
    assert loaded.state == root / ".ai" / "local" / "state"
    assert loaded.profile_names() == ["debugging", "deep-work", "implementation", "routine"]
    assert loaded.profile("debugging").data["effort"] == "high"


def test_load_does_not_import_jsonschema(root: Path) -> None:
    sys.modules.pop("jsonschema", None)
    layer.load(root).profile("routine")
    assert "jsonschema" not in sys.modules


def test_no_manifest_names_init(tmp_path: Path) -> None:
    with pytest.raises(MissingArtifact, match="majordomus init"):
        layer.load(tmp_path)


def test_another_manifest_schema_is_refused_with_the_reason(root: Path) -> None:
    path = root / ".ai" / "manifest.yaml"
    path.write_text(path.read_text().replace("ai-repository/v1", "ai-repository/v2"))
    with pytest.raises(ContractUnmet, match=r"manifest.yaml:3:1: .*'ai-repository/v2'.*reads"):
        layer.load(root)


def _policy(root: Path, old: str, new: str) -> None:
    path = root / ".ai" / "repo" / "policy.yaml"
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new, 1))


def test_unknown_policy_key_names_key_and_line(root: Path) -> None:
    _policy(root, "version: 1", "version: 1\nfoo: 1")
    with pytest.raises(ContractUnmet, match=r"^\.ai/repo/policy\.yaml:4:1: unknown key 'foo'"):
        layer.load(root)


def test_nested_unknown_key(root: Path) -> None:
    _policy(root, "  recent_decisions: 5", "  recent_decisions: 5\n  recnt: 1")
    with pytest.raises(ContractUnmet, match=r"unknown key 'context\.recnt'"):
        layer.load(root)


def test_missing_required_key(root: Path) -> None:
    _policy(root, "ledger:\n  retention_max_lines: 5000\n", "")
    with pytest.raises(ContractUnmet, match=r"policy\.yaml:1:1: missing key 'ledger'"):
        layer.load(root)


@pytest.mark.parametrize("value", ["2", "true", "'1'"])
def test_only_version_one(root: Path, value: str) -> None:
    _policy(root, "version: 1", f"version: {value}")
    with pytest.raises(ContractUnmet, match=r"policy\.yaml:3:1: policy version .* not supported"):
        layer.load(root)


def test_policy_parse_error_is_positioned(root: Path) -> None:
    _policy(root, "  max_list_items: 20", "  max_list_items: &a 20")
    with pytest.raises(ContractUnmet, match=r"policy\.yaml:\d+:\d+: anchor &a — "):
        layer.load(root)


def test_absent_profile_names_the_file_and_directory(root: Path) -> None:
    with pytest.raises(MissingArtifact, match=r"\.ai/repo/profiles/nope\.yaml: .*profiles/"):
        layer.load(root).profile("nope")
    with pytest.raises(MissingArtifact):
        layer.load(root).profile("../policy")


def test_profile_unknown_key(root: Path) -> None:
    path = root / ".ai" / "repo" / "profiles" / "routine.yaml"
    path.write_text(path.read_text() + "colour: blue\n")
    with pytest.raises(ContractUnmet, match=r"routine\.yaml:\d+:1: unknown key 'colour'"):
        layer.load(root).profile("routine")


def test_section_escaping_the_layer_is_refused(root: Path) -> None:
    path = root / ".ai" / "manifest.yaml"
    path.write_text(path.read_text().replace("policy: repo/policy.yaml", "policy: ../x.yaml"))
    with pytest.raises(ContractUnmet, match=r"sections\.policy: '\.\./x\.yaml' does not match"):
        layer.load(root)


@pytest.mark.parametrize(
    ("old", "new", "where"),
    [
        ("always_loaded_budget_lines: 150", "always_loaded_budget_lines: many", ":6:3: "),
        ("transcript_is_state: false", "transcript_is_state: true", ":11:3: "),
        ("    mode: region", "    mode: regional", ":"),
    ],
)
def test_a_value_of_the_wrong_shape_is_refused(root: Path, old: str, new: str, where: str) -> None:
    _policy(root, old, new)
    with pytest.raises(ContractUnmet, match=rf"^\.ai/repo/policy\.yaml{where}.*schema\.json\)$"):
        layer.load(root)


def test_a_profile_value_of_the_wrong_shape_is_refused(root: Path) -> None:
    path = root / ".ai" / "repo" / "profiles" / "debugging.yaml"
    path.write_text(path.read_text().replace("effort: high", "effort: extreme"))
    with pytest.raises(ContractUnmet, match=r"debugging\.yaml:\d+:1: effort: 'extreme' is not one"):
        layer.load(root).profile("debugging")
