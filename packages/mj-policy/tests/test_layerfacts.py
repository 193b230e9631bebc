"""`mj-policy facts`: the layer's files, whether it loads, its projection targets, as facts."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from mj_core.errors import MissingArtifact
from mj_policy.layer import facts as layerfacts
from mj_policy.layer import init_write

ENV = {"GIT_CONFIG_GLOBAL": "/dev/null", "GIT_CONFIG_NOSYSTEM": "1", "PATH": "/usr/bin:/bin"}


@pytest.fixture
def root(tmp_path: Path) -> Path:
    subprocess.run(["git", "init", "-q", "-b", "main"], cwd=tmp_path, env=ENV, check=True)
    list(init_write.create(tmp_path, extend=False))
    return tmp_path


def _facts(root: Path) -> dict[str, dict[str, object]]:
    return {str(record["fact"]): record for record in layerfacts.gather(root)}


def test_a_fresh_layer_gives_its_files_that_it_loads_and_its_targets(root: Path) -> None:
    found = _facts(root)
    assert list(found) == ["files", "layer", "targets", "tests", "context", "mcp"]
    assert found["mcp"]["clients"] == []  # no MCP client configuration in a fresh layer
    assert found["context"]["documents"] == 3 and found["context"]["problems"] == []
    assert found["tests"]["named"] == {}  # no project rule names a test file
    assert found["layer"] == {"kind": "fact", "fact": "layer", "loads": True, "problem": None}
    entries = found["files"]["entries"]
    assert isinstance(entries, dict)
    assert entries[".ai/manifest.yaml"]["type"] == "file"
    assert entries[".ai/repo/policy.yaml"]["text"] == (root / ".ai/repo/policy.yaml").read_text()
    rules = [path for path in entries if path.startswith(".ai/repo/rules/")]
    assert rules and all("sha256" in entries[p] for p in rules if entries[p]["type"] == "file")
    targets = found["targets"]["targets"]
    assert isinstance(targets, dict) and "AGENTS.md" in targets


def test_a_layer_that_does_not_load_is_still_described(root: Path) -> None:
    policy = root / ".ai/repo/policy.yaml"
    policy.write_text(policy.read_text() + "no_such_key: 1\n")
    found = _facts(root)
    assert found["layer"]["loads"] is False
    assert "no_such_key" in str(found["layer"]["problem"])
    assert "no_such_key: 1" in str(found["files"]["entries"][".ai/repo/policy.yaml"]["text"])  # type: ignore[index]
    assert found["targets"]["targets"] == {}


def test_no_layer_is_missing_artifact(tmp_path: Path) -> None:
    subprocess.run(["git", "init", "-q"], cwd=tmp_path, env=ENV, check=True)
    with pytest.raises(MissingArtifact, match="majordomus init"):
        list(layerfacts.gather(tmp_path))


def test_the_loaded_layer_is_handed_on_once(root: Path) -> None:
    """In one process, the next stage takes the layer `gather` loaded; after that it loads."""
    list(layerfacts.gather(root))
    first = layerfacts.handed_on(root)
    again = layerfacts.handed_on(root)
    assert first is not None and again is not None and first is not again
    assert first.root == again.root
