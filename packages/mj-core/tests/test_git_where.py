from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
from mj_core.git import questions as git
from mj_core.git import run as gitrun
from mj_core.git import where as gitwhere

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


def test_an_unborn_head_asks_git_only_for_the_branch(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Where git is asked (a layout `git.head` leaves to git), the failed question already
    printed the directories: HEAD has no SHA to give, so the fallback asks one process (the
    branch), never `rev-parse --verify HEAD` as well."""
    from mj_core.git import head as githead

    sh(tmp_path, "init", "-q", "-b", "feature/y")
    monkeypatch.setattr(githead, "read", lambda root: None)
    asked: list[tuple[str, ...]] = []
    real = git.run

    def counted(*args: str, cwd: Path | str) -> tuple[int, str, str]:
        asked.append(args)
        return real(*args, cwd=cwd)

    monkeypatch.setattr(git, "run", counted)
    common, head, branch = gitwhere.where(tmp_path)
    assert (head, branch) == (None, "feature/y")
    assert common == Path(subprocess.run(
        ["git", "rev-parse", "--path-format=absolute", "--git-common-dir"],
        cwd=tmp_path, env=ENV, check=True, capture_output=True, text=True,
    ).stdout.strip())  # fmt: skip
    assert [a[0] for a in asked] == ["rev-parse", "symbolic-ref"]


def test_the_funnel_reaps_a_question_begun_ahead_that_nobody_asked(tmp_path: Path) -> None:
    """A stage may begin git's answer for a later stage (`git.ahead`); when no stage asks
    for it, the run's funnel waits for the process and forgets it."""
    from mj_core import funnel

    sh(tmp_path, "init", "-q")
    git.ahead([(gitwhere.WHERE_ARGS, tmp_path)])
    assert gitrun._AHEAD
    assert funnel.guard("t", lambda: 0) == 0
    assert not gitrun._AHEAD and not gitrun._ANSWERS
