"""The confined writer: no write through a link, out of the repository or `.ai/`, or into the
git directory; modes exact whatever the umask; missing directories made one by one."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest
from mj_core.errors import Refused
from mj_core.write import atomic
from mj_core.write import confine


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    (root / ".ai" / "local" / "state").mkdir(parents=True)
    (root / ".git" / "hooks").mkdir(parents=True)
    (tmp_path / "outside").mkdir()
    return root


def _outside(repo: Path) -> list[str]:
    return sorted(os.listdir(repo.parent / "outside"))


STATE_WRITES = {
    "create": lambda p: atomic.create(p, b"x\n", mode=0o600),
    "replace": lambda p: atomic.create(p, b"x\n", mode=0o600, replace=True),
    "append_line": lambda p: atomic.append_line(p, b"x\n"),
    "append_block": lambda p: atomic.append_block(p, b"x\ny\n"),
    "publish_unique": lambda p: atomic.publish_unique(p.parent, lambda: p.name, b"x", 0o600),
    "locked": lambda p: atomic.locked(p).__enter__(),
}


@pytest.mark.parametrize("write", list(STATE_WRITES))
@pytest.mark.parametrize(
    "link",
    [".ai/local", ".ai/local/state", ".ai/local/state/checkpoints", ".ai"],
)
def test_a_linked_directory_below_ai_is_refused_and_nothing_lands_outside(
    repo: Path, write: str, link: str
) -> None:
    target = repo / ".ai/local/state/checkpoints/r.md"
    linked = repo / link
    if linked.exists():
        os.rename(linked, repo.parent / "moved")
    linked.parent.mkdir(parents=True, exist_ok=True)
    linked.symlink_to(repo.parent / "outside")
    with pytest.raises(Refused, match=f"{link} is a symbolic link"):
        STATE_WRITES[write](target)
    assert _outside(repo) == []


@pytest.mark.parametrize("write", [w for w in STATE_WRITES if w != "publish_unique"])
def test_a_linked_file_is_never_written_through(repo: Path, write: str) -> None:
    target = repo / ".ai/local/state/ledger.jsonl"
    outside = repo.parent / "outside" / "ledger.jsonl"
    target.symlink_to(outside)  # dangling: a write through it would create the outside file
    with pytest.raises(Refused, match="is a symbolic link"):
        STATE_WRITES[write](target)
    assert _outside(repo) == [] and target.is_symlink()


@pytest.mark.parametrize(
    "write", [w for w in STATE_WRITES if w in ("replace", "append_line", "append_block", "locked")]
)
def test_a_hard_linked_file_is_never_written(repo: Path, write: str) -> None:
    """A second name for the file, outside the repository: append and rewrite refuse it."""
    target = repo / ".ai/local/state/ledger.jsonl"
    outside = repo.parent / "outside" / "ledger.jsonl"
    outside.write_bytes(b"theirs\n")
    os.link(outside, target)
    with pytest.raises(Refused, match="is a hard link"):
        STATE_WRITES[write](target)
    assert outside.read_bytes() == b"theirs\n" and target.stat().st_nlink == 2


def test_a_hard_link_made_after_the_look_is_refused_on_the_open_file(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The link count is asked of the locked descriptor, not only of the name looked at."""
    target = repo / ".ai/local/state/ledger.jsonl"
    target.write_bytes(b"ours\n")
    looked = confine.final

    def then_linked(where: confine.Place) -> object:
        found = looked(where)
        if not (repo.parent / "outside" / "ledger.jsonl").exists():
            os.link(target, repo.parent / "outside" / "ledger.jsonl")
        return found

    monkeypatch.setattr(confine, "final", then_linked)
    with pytest.raises(Refused, match="is a hard link"):
        atomic.append_line(target, b"x\n")
    assert target.read_bytes() == b"ours\n"


def test_a_link_inside_ai_that_stays_inside_is_refused_too(repo: Path) -> None:
    (repo / ".ai/local/elsewhere").mkdir()
    (repo / ".ai/local/state/handovers").symlink_to(repo / ".ai/local/elsewhere")
    with pytest.raises(Refused, match="handovers is a symbolic link"):
        atomic.create(repo / ".ai/local/state/handovers/h.md", b"x", mode=0o600)


@pytest.mark.parametrize("target", [".git/hooks/post-checkout", ".git/config", "a/.GIT/x"])
def test_nothing_is_written_inside_the_git_directory(repo: Path, target: str) -> None:
    with pytest.raises(Refused, match="git directory"):
        atomic.create(repo / target, b"#!/bin/sh\n", root=repo)
    assert not (repo / ".git/hooks/post-checkout").exists()


def test_a_parent_link_into_the_git_directory_is_refused(repo: Path) -> None:
    (repo / "docs").symlink_to(repo / ".git" / "hooks")
    assert "git directory" in (confine.check(repo, "docs/post-checkout") or "")
    with pytest.raises(Refused, match="git directory"):
        atomic.create(repo / "docs/post-checkout", b"x", root=repo)
    assert os.listdir(repo / ".git/hooks") == []


def test_a_parent_link_out_of_the_repository_is_refused(repo: Path) -> None:
    (repo / "docs").symlink_to(repo.parent / "outside")
    with pytest.raises(Refused, match="outside the repository"):
        atomic.create(repo / "docs/AI_INSTRUCTIONS.md", b"x", root=repo)
    assert _outside(repo) == []


def test_a_parent_link_that_stays_in_the_repository_is_followed(repo: Path) -> None:
    (repo / "documentation").mkdir()
    (repo / "docs").symlink_to("documentation")
    assert confine.check(repo, "docs/AI_INSTRUCTIONS.md") is None
    atomic.create(repo / "docs/AI_INSTRUCTIONS.md", b"x\n", root=repo)
    assert (repo / "documentation/AI_INSTRUCTIONS.md").read_bytes() == b"x\n"


def test_a_target_outside_the_root_or_with_dot_dot_is_refused(repo: Path) -> None:
    with pytest.raises(Refused, match="outside the repository"):
        atomic.create(repo.parent / "outside" / "x", b"x", root=repo)
    with pytest.raises(Refused, match="not a file path inside"):
        atomic.create(repo / "a" / ".." / ".." / "outside" / "x", b"x", root=repo)
    assert _outside(repo) == []


def test_a_directory_where_a_file_is_expected_is_refused(repo: Path) -> None:
    (repo / ".ai/local/state/current.yaml").mkdir()
    with pytest.raises(Refused, match="is a directory where a file is expected"):
        atomic.create(repo / ".ai/local/state/current.yaml", b"x", replace=True)
    with pytest.raises(Refused, match="is a directory where a file is expected"):
        atomic.append_line(repo / ".ai/local/state/current.yaml", b"x\n")


def test_a_file_where_a_directory_is_expected_is_refused(repo: Path) -> None:
    (repo / ".ai/local/state/checkpoints").write_text("not a directory")
    with pytest.raises(Refused, match="checkpoints is not a directory"):
        atomic.publish_unique(repo / ".ai/local/state/checkpoints", lambda: "r.md", b"x", 0o600)


@pytest.mark.parametrize("umask", [0o000, 0o077, 0o022])
def test_state_files_are_0600_and_directories_0700_whatever_the_umask(
    repo: Path, umask: int
) -> None:
    old = os.umask(umask)
    try:
        atomic.create(repo / ".ai/local/state/current.yaml", b"x\n", mode=0o644)
        atomic.append_line(repo / ".ai/local/state/ledger.jsonl", b"x\n")
        atomic.append_block(repo / ".ai/local/state/decisions.md", b"x\n", mode=0o644)
        made = atomic.publish_unique(
            repo / ".ai/local/state/checkpoints/deep", lambda: "r.md", b"x", 0o600
        )
        atomic.make_dirs(repo / ".ai/local/cache/a")
    finally:
        os.umask(old)
    for name in ("current.yaml", "ledger.jsonl", "decisions.md", "checkpoints/deep/r.md"):
        assert stat.S_IMODE((repo / ".ai/local/state" / name).stat().st_mode) == 0o600, name
    for directory in ("state/checkpoints", "state/checkpoints/deep", "cache", "cache/a", "tmp"):
        assert stat.S_IMODE((repo / ".ai/local" / directory).stat().st_mode) == 0o700, directory
    assert made.name == "r.md"


def test_tracked_files_keep_the_mode_they_are_given(repo: Path) -> None:
    old = os.umask(0o077)
    try:
        atomic.create(repo / ".ai/repo/policy.yaml", b"x\n", mode=0o644)
    finally:
        os.umask(old)
    assert stat.S_IMODE((repo / ".ai/repo/policy.yaml").stat().st_mode) == 0o644


def test_temporaries_live_in_local_tmp_and_stale_ones_are_swept(repo: Path) -> None:
    seen: list[Path] = []
    atomic._before_publish = lambda temp, _target: seen.append(temp)
    try:
        atomic.create(repo / ".ai/repo/x.md", b"x", root=repo)
        atomic.create(repo / "README.md", b"x", root=repo)
    finally:
        atomic._before_publish = None
    assert [p.parent for p in seen] == [repo / ".ai/local/tmp"] * 2
    stale = repo / ".ai/local/tmp/.mj-tmp-0123456789abcdef"
    fresh = repo / ".ai/local/tmp/.mj-tmp-fedcba9876543210"
    stale.write_bytes(b"left by a crash")
    fresh.write_bytes(b"a concurrent writer's")
    os.utime(stale, (0, 0))
    atomic.create(repo / ".ai/local/state/current.yaml", b"x", mode=0o600)
    assert not stale.exists() and fresh.exists()
    assert sorted(os.listdir(repo / ".ai/local/state")) == ["current.yaml"]


def test_a_path_below_ai_names_its_own_root(repo: Path) -> None:
    root, parts = confine.split(repo / ".ai/local/state/x", None)
    assert root == repo and parts == (".ai", "local", "state", "x")
    nested = repo / "sub" / ".ai" / "repo" / ".ai" / "local" / "y"
    assert confine.split(nested, None)[0] == repo / "sub" / ".ai" / "repo"


def test_a_parent_link_into_a_nested_repositorys_git_directory_is_refused(repo: Path) -> None:
    (repo / "vendor/lib/.git/hooks").mkdir(parents=True)
    (repo / "docs").symlink_to(repo / "vendor/lib/.git/hooks")
    assert "inside a git directory" in (confine.check(repo, "docs/post-checkout") or "")
    with pytest.raises(Refused, match="inside a git directory"):
        atomic.create(repo / "docs/post-checkout", b"x", root=repo)
    assert os.listdir(repo / "vendor/lib/.git/hooks") == []
