"""`mj-policy skills`: the stage over a layer in a scratch repository, and the one case a
behavioural test cannot reach: a broken install whose allow list is missing is 13, never a pass."""

from __future__ import annotations

import io
import shutil
import subprocess
from pathlib import Path

import pytest
from mj_core import share
from mj_core.schema import keys
from mj_policy import cli
from mj_policy.layer import init_write
from mj_policy.skills import model as skillmodel

ENV = {"GIT_CONFIG_GLOBAL": "/dev/null", "GIT_CONFIG_NOSYSTEM": "1", "PATH": "/usr/bin:/bin"}
SKILL = (
    "---\nschema: skill/v1\nid: one\nversion: 1\ntitle: One\ndescription: The one.\n"
    "status: active\n---\n# Purpose\nP.\n# Procedure\nQ.\n# Output\nR.\n"
)


@pytest.fixture
def root(tmp_path: Path) -> Path:
    subprocess.run(["git", "init", "-q", "-b", "main"], cwd=tmp_path, env=ENV, check=True)
    list(init_write.create(tmp_path, extend=False))
    return tmp_path


def _check(root: Path) -> tuple[int, str]:
    out = io.BytesIO()
    code = cli.main(["skills", "--view", "check", "--repo", str(root)], stdout=out,
                    stderr=io.StringIO())  # fmt: skip
    return code, out.getvalue().decode()


def test_the_descriptions_are_compared_as_a_reader_tells_them_apart() -> None:
    assert skillmodel.normal("  Review the  REPO.  ") == skillmodel.normal("review the repo")
    assert skillmodel.normal("Review the repo!?") == "review the repo"
    assert skillmodel.normal("Review a repo") != skillmodel.normal("Review the repo")


@pytest.mark.parametrize("with_skill", [False, True])
def test_a_missing_allow_list_is_13(
    root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, with_skill: bool
) -> None:
    if with_skill:
        (root / ".ai/repo/skills/one").mkdir(parents=True)
        (root / ".ai/repo/skills/one/SKILL.md").write_text(SKILL)
    code, out = _check(root)
    assert code == 0 and f'"discovered":{int(with_skill)}' in out, out
    broken = tmp_path / "broken-share"
    shutil.copytree(share.root(), broken)
    (broken / "allow" / "skill.txt").unlink()
    monkeypatch.setattr(share, "root", lambda: broken)
    keys.allowed.cache_clear()
    try:
        code, out = _check(root)
    finally:
        keys.allowed.cache_clear()
    assert code == 13 and '"exit":13' in out and "skill.txt" in out
