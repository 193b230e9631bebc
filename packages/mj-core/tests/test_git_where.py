from __future__ import annotations

import os
import subprocess
from pathlib import Path

from mj_core import git
from mj_core import gitwhere

ENV = {
    **{k: v for k, v in os.environ.items() if not k.startswith("GIT_")},
    "GIT_AUTHOR_NAME": "t",
    "GIT_AUTHOR_EMAIL": "t@example.invalid",
    "GIT_COMMITTER_NAME": "t",
    "GIT_COMMITTER_EMAIL": "t@example.invalid",
    "GIT_CONFIG_GLOBAL": "/dev/null",
    "GIT_CONFIG_NOSYSTEM": "1",
}


def sh(root: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=root, env=ENV, check=True, capture_output=True)


def test_where_matches_the_separate_calls(tmp_path: Path) -> None:
    sh(tmp_path, "init", "-q", "-b", "feature/x")
    assert gitwhere.where(tmp_path) == (git.common_dir(tmp_path), None, "feature/x")  # unborn
    sh(tmp_path, "commit", "-q", "--allow-empty", "--no-gpg-sign", "-m", "one")
    found = gitwhere.where(tmp_path)
    assert found == (git.common_dir(tmp_path), git.head(tmp_path), "feature/x")
    sh(tmp_path, "checkout", "-q", "--detach")
    assert gitwhere.where(tmp_path) == (git.common_dir(tmp_path), git.head(tmp_path), None)
