"""`git.layout.dirs` gives what `git rev-parse --git-dir --git-common-dir` gives, or None."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
from mj_core.git import layout as gitlayout


def _git(root: Path, *args: str) -> str:
    done = subprocess.run(["git", *args], cwd=root, check=True, capture_output=True, text=True)
    return done.stdout


def _asked(root: Path) -> tuple[str, str]:
    out = _git(root, "rev-parse", "--path-format=absolute", "--git-dir", "--git-common-dir")
    git_dir, common = out.splitlines()
    return os.path.realpath(git_dir), os.path.realpath(common)


def _read(root: Path) -> tuple[str, str]:
    found = gitlayout.dirs(str(root))
    assert found is not None
    return os.path.realpath(found[0]), os.path.realpath(found[1])


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    for name in ("GIT_DIR", "GIT_COMMON_DIR", "GIT_WORK_TREE", "GIT_CEILING_DIRECTORIES"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", os.devnull)  # the machine's own settings aside
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    root = tmp_path / "r"
    root.mkdir()
    _git(root, "init", "-q", "-b", "main")
    (root / "a.txt").write_text("a\n")
    _git(root, "add", "a.txt")
    _git(root, "-c", "user.name=t", "-c", "user.email=t@e.invalid", "commit", "-q", "-m", "one")
    return root


def test_a_main_checkout_and_a_linked_worktree_read_as_git_answers(repo: Path) -> None:
    assert _read(repo) == _asked(repo) == (str(repo / ".git"), str(repo / ".git"))
    linked = repo.parent / "linked"
    _git(repo, "worktree", "add", "-q", str(linked), "-b", "side")
    assert (linked / ".git").is_file()
    assert _read(linked) == _asked(linked)
    assert _read(linked)[1] == str(repo / ".git")


def test_a_relative_gitdir_file_reads_from_the_checkout(repo: Path) -> None:
    moved = repo.parent / "store.git"
    (repo / ".git").rename(moved)
    (repo / ".git").write_text("gitdir: ../store.git\n")
    assert _read(repo) == _asked(repo) == (str(moved), str(moved))


@pytest.mark.parametrize(
    "text",
    ["", "gitdir:\n", "not a gitdir line\n", "gitdir: a\ngitdir: b\n", "gitdir: missing\n"],
)
def test_a_gitdir_file_that_is_not_the_plain_layout_is_left_to_git(repo: Path, text: str) -> None:
    (repo / ".git").rename(repo.parent / "elsewhere.git")
    (repo / ".git").write_text(text)
    assert gitlayout.dirs(str(repo)) is None


def test_a_linked_git_directory_or_none_is_left_to_git(repo: Path) -> None:
    (repo / ".git").rename(repo.parent / "real.git")
    (repo / ".git").symlink_to(repo.parent / "real.git")
    assert gitlayout.dirs(str(repo)) is None
    (repo / ".git").unlink()
    assert gitlayout.dirs(str(repo)) is None


def test_the_environment_steering_git_is_left_to_git(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GIT_DIR", str(repo / ".git"))
    assert gitlayout.dirs(str(repo)) is None


def test_an_empty_commondir_file_is_left_to_git(repo: Path) -> None:
    (repo / ".git" / "commondir").write_text("\n")
    assert gitlayout.dirs(str(repo)) is None


def _asked_top(where: Path) -> str | None:
    done = subprocess.run(
        ["git", "rev-parse", "--show-toplevel"],
        cwd=where,
        capture_output=True,
        text=True,
        check=False,
    )
    return done.stdout.strip() if done.returncode == 0 else None


def test_the_top_level_is_git_s_from_any_depth_and_a_linked_worktree(repo: Path) -> None:
    deep = repo / "a" / "b"
    deep.mkdir(parents=True)
    for where in (repo, deep):
        assert gitlayout.toplevel(str(where)) == _asked_top(where) == str(repo.resolve())
    linked = repo.parent / "linked"
    _git(repo, "worktree", "add", "-q", str(linked), "-b", "side")
    (linked / "sub").mkdir()
    assert gitlayout.toplevel(str(linked / "sub")) == _asked_top(linked) == str(linked.resolve())


def test_a_link_to_the_checkout_reads_as_its_real_path(repo: Path, tmp_path: Path) -> None:
    (tmp_path / "alias").symlink_to(repo)
    assert gitlayout.toplevel(str(tmp_path / "alias")) == _asked_top(tmp_path / "alias")


def test_what_git_must_answer_is_left_to_git(repo: Path, tmp_path: Path) -> None:
    outside = tmp_path / "plain"
    outside.mkdir()
    assert gitlayout.toplevel(str(outside)) is None  # no repository: git's error is given
    assert gitlayout.toplevel(str(repo / ".git")) is None  # inside the git directory
    assert gitlayout.toplevel(str(repo / ".git" / "refs")) is None
    bare = tmp_path / "bare.git"
    _git(tmp_path, "init", "-q", "--bare", str(bare))
    assert gitlayout.toplevel(str(bare)) is None


@pytest.mark.parametrize(
    "setting",
    [
        ("core.worktree", "/elsewhere"),
        ("core.bare", "true"),
        ("include.path", "other.cfg"),
        ("extensions.worktreeConfig", "true"),
    ],
)
def test_a_configuration_that_can_move_the_working_tree_is_left_to_git(
    repo: Path, setting: tuple[str, str]
) -> None:
    _git(repo, "config", *setting)
    assert gitlayout.toplevel(str(repo)) is None


@pytest.mark.parametrize(
    "text",
    [
        "[core] worktree = /elsewhere\n",  # a key on the header's line
        '[includeIf "gitdir:/x/"]\n\tpath = other.cfg\n',
        "[core\n\tworktree = /elsewhere\n",  # a header this reader cannot take apart
        "[core]\n\tWorkTree\n",
    ],
)
def test_a_configuration_written_by_hand_that_can_steer_git_is_left_to_git(
    repo: Path, text: str
) -> None:
    with (repo / ".git" / "config").open("a") as handle:
        handle.write(text)
    assert gitlayout.toplevel(str(repo)) is None


def test_a_subsection_named_after_a_worktree_is_no_setting(repo: Path) -> None:
    """The tool keeps a clone id per worktree (`majordomus.<worktrees/name>.clone`): such a
    repository is still read without asking git."""
    linked = repo.parent / "linked"
    _git(repo, "worktree", "add", "-q", str(linked), "-b", "side")
    _git(repo, "config", "majordomus.worktrees/linked.clone", "c-0123456789abcdef")
    _git(repo, "config", "majordomus.include-me.note", "a value naming a worktree")
    for where in (repo, linked):
        assert gitlayout.toplevel(str(where)) == _asked_top(where) == str(where.resolve())


def test_a_user_configuration_that_could_steer_git_is_left_to_git(
    repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    user = tmp_path / "user.cfg"
    user.write_text("[include]\n\tpath = more.cfg\n")
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(user))
    assert gitlayout.toplevel(str(repo)) is None
    user.write_text("[user]\n\tname = someone\n")
    assert gitlayout.toplevel(str(repo)) == str(repo.resolve())


@pytest.mark.parametrize("name", ["GIT_DIR", "GIT_WORK_TREE", "GIT_CEILING_DIRECTORIES"])
def test_the_environment_steering_discovery_is_left_to_git(
    repo: Path, monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    monkeypatch.setenv(name, str(repo))
    assert gitlayout.toplevel(str(repo)) is None
