"""`git.head.read` gives what git answers for HEAD and its branch (`rev-parse --verify HEAD`,
`symbolic-ref --short HEAD`), or None so that git is asked; `git.where.where` answers alike
either way."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
from mj_core.git import head as githead
from mj_core.git import where as gitwhere


def _git(root: Path, *args: str, check: bool = True) -> str:
    done = subprocess.run(["git", *args], cwd=root, check=check, capture_output=True, text=True)
    return done.stdout.strip()


def _commit(root: Path, text: str) -> None:
    (root / "a.txt").write_text(text)
    _git(root, "add", "a.txt")
    _git(root, "-c", "user.name=t", "-c", "user.email=t@e.invalid", "commit", "-q", "-m", text)


def _asked(root: Path) -> tuple[str, str | None, str | None]:
    common = _git(root, "rev-parse", "--path-format=absolute", "--git-common-dir")
    head = _git(root, "rev-parse", "--verify", "-q", "HEAD", check=False) or None
    branch = _git(root, "symbolic-ref", "--short", "-q", "HEAD", check=False) or None
    return os.path.realpath(common), head, branch


def _read(root: Path) -> tuple[str, str | None, str | None]:
    found = githead.read(str(root))
    assert found is not None, "the plain layout is read without git"
    return os.path.realpath(found[1]), found[2], found[3]


def _where(root: Path) -> tuple[str, str | None, str | None]:
    common, head, branch = gitwhere.where(root)
    return os.path.realpath(common), head, branch


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    for name in ("GIT_DIR", "GIT_COMMON_DIR", "GIT_WORK_TREE", "GIT_NAMESPACE"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", os.devnull)  # the machine's own settings aside
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    root = tmp_path / "r"
    root.mkdir()
    _git(root, "init", "-q", "-b", "main")
    return root


def test_unborn_loose_packed_and_detached_read_as_git_answers(repo: Path) -> None:
    assert _read(repo) == _asked(repo) == (str(repo / ".git"), None, "main")
    _commit(repo, "one")
    assert _read(repo) == _asked(repo) == _where(repo)
    _git(repo, "pack-refs", "--all")
    assert not (repo / ".git/refs/heads/main").exists()
    assert _read(repo) == _asked(repo) == _where(repo)
    _commit(repo, "two")  # a loose ref again, newer than its packed line
    assert _read(repo) == _asked(repo) == _where(repo)
    _git(repo, "checkout", "-q", "--detach")
    assert _read(repo) == _asked(repo) == _where(repo)
    assert _read(repo)[2] is None


def test_a_branch_with_folders_and_linked_worktrees_read_as_git_answers(repo: Path) -> None:
    _commit(repo, "one")
    _git(repo, "checkout", "-q", "-b", "feat/deep/x")
    _commit(repo, "two")
    assert _read(repo) == _asked(repo) == _where(repo)
    linked = repo.parent / "linked"
    _git(repo, "worktree", "add", "-q", str(linked), "-b", "side", "main")
    assert _read(linked) == _asked(linked) == _where(linked)
    assert _read(linked)[2] == "side" and _read(linked)[0] == str(repo / ".git")
    _git(linked, "checkout", "-q", "--detach")
    assert _read(linked) == _asked(linked) == _where(linked)
    _git(repo, "symbolic-ref", "HEAD", "refs/heads/feat")  # unborn, beside a folder of refs
    assert _read(repo) == _asked(repo) == (str(repo / ".git"), None, "feat")


def test_a_sha256_repository_reads_as_git_answers(tmp_path: Path, repo: Path) -> None:
    other = tmp_path / "s"
    other.mkdir()
    if subprocess.run(["git", "init", "-q", "--object-format=sha256", "-b", "main"],
                      check=False, cwd=other, capture_output=True).returncode:  # fmt: skip
        pytest.skip("this git has no sha256 repositories")
    _commit(other, "one")
    assert len(_read(other)[1] or "") == 64
    assert _read(other) == _asked(other) == _where(other)


def test_what_is_not_plain_is_left_to_git(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _commit(repo, "one")
    heads = repo / ".git/refs/heads"
    (heads / "alias").write_text("ref: refs/heads/main\n")  # a symbolic ref
    _git(repo, "symbolic-ref", "HEAD", "refs/heads/alias")
    assert githead.read(str(repo)) is None
    assert _where(repo) == _asked(repo)
    _git(repo, "symbolic-ref", "HEAD", "refs/remotes/origin/x")  # not a branch
    assert githead.read(str(repo)) is None
    _git(repo, "symbolic-ref", "HEAD", "refs/heads/main")
    assert githead.read(str(repo)) is not None
    sha = (heads / "main").read_text()
    (heads / "main").write_text(sha.strip() + "\nextra\n")
    assert githead.read(str(repo)) is None  # not one SHA: git says what it makes of it
    (heads / "main").write_text(sha)
    assert githead.read(str(repo)) is not None
    monkeypatch.setenv("GIT_NAMESPACE", "ns")
    assert githead.read(str(repo)) is None
    monkeypatch.delenv("GIT_NAMESPACE")
    (repo / ".git/reftable").mkdir()
    assert githead.read(str(repo)) is None


def test_a_head_that_is_a_link_is_left_to_git(repo: Path) -> None:
    _commit(repo, "one")
    head = repo / ".git/HEAD"
    (repo / ".git/HEAD.real").write_text(head.read_text())
    head.unlink()
    head.symlink_to("HEAD.real")
    assert githead.read(str(repo)) is None


@pytest.mark.parametrize(
    "name", ["a..b", "a/.hidden", "x.lock", "end.", "sp ace", "a@{1}", "star*", "é", "a//b", ""]
)
def test_a_doubtful_branch_name_is_left_to_git(name: str) -> None:
    assert not githead._plain_name(name)


def test_plain_branch_names_are_read() -> None:
    for name in ("main", "feat/x", "v1.2", "a-b_c", "release/2026-12"):
        assert githead._plain_name(name)


def test_a_forged_ref_reads_as_git_reads_it(repo: Path) -> None:
    """A worker who writes a ref by hand gets the answer git itself gives, never a better one:
    a SHA naming no object is what git prints too; a spelling git would rewrite (upper case,
    blanks around it) is left to git."""
    _commit(repo, "one")
    main = repo / ".git/refs/heads/main"
    main.write_text("1234567890123456789012345678901234567890\n")
    assert _read(repo) == _asked(repo) == _where(repo)
    assert _read(repo)[1] == "1234567890123456789012345678901234567890"
    for spelling in ("ABCDEF7890123456789012345678901234567890\n", " " + "a" * 40 + "\n"):
        main.write_text(spelling)
        assert githead.read(str(repo)) is None, spelling
        assert _where(repo) == _asked(repo)  # git answers, as it always did
