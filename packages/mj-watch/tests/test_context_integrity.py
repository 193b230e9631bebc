"""doctor's context-integrity check is `context validate`'s findings, one for one."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

from mj_core import share
from mj_watch.doctrine.context_integrity import context_integrity
from mj_watch.watch.facts import LiveFacts as Facts


def test_findings_follow_the_tree(tmp_path: Path) -> None:
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    shutil.copytree(share.path("skeleton", "ai"), tmp_path / ".ai")
    found = list(context_integrity(Facts(tmp_path)))
    assert [f.level for f in found] == ["OK"]
    (tmp_path / ".ai" / "README.md").write_text("---\nschema: context/v9\n---\n")
    found = list(context_integrity(Facts(tmp_path)))
    assert [f.category for f in found] == ["unsupported-schema"]
    assert found[0].reproduce == "majordomus context validate"


def test_no_layer_is_not_this_checks_finding(tmp_path: Path) -> None:
    found = list(context_integrity(Facts(tmp_path)))
    assert [f.level for f in found] == ["INFO"]
