from __future__ import annotations

import os
from pathlib import Path

import pytest
from mj_core import paths
from mj_core.errors import Refused
from mj_core.errors import UsageError


@pytest.fixture
def root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    repo = tmp_path / "repo"
    (repo / "lib" / "a").mkdir(parents=True)
    monkeypatch.chdir(repo)
    return repo


def test_normalises_inside_the_root(root: Path) -> None:
    assert paths.repo_relative(root, "lib/") == "lib"
    assert paths.repo_relative(root, "./lib/a/../a/") == "lib/a"
    assert paths.repo_relative(root, str(root / "lib")) == "lib"
    assert paths.repo_relative(root, "not/yet/there") == "not/yet/there"
    assert paths.repo_relative(root, ".") == "."


def test_refuses_escapes(root: Path, tmp_path: Path) -> None:
    with pytest.raises(Refused):
        paths.repo_relative(root, "../outside")
    with pytest.raises(Refused):
        paths.repo_relative(root, "/etc")
    os.symlink(tmp_path, root / "link")
    with pytest.raises(Refused, match="outside the repository"):
        paths.repo_relative(root, "link/x")
    with pytest.raises(UsageError):
        paths.repo_relative(root, "  ")


def test_relative_from_root_ignores_cwd(root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(root / "lib")
    assert paths.relative_from_root(root, "lib/a") == "lib/a"
    assert paths.repo_relative(root, "a") == "lib/a"


@pytest.mark.parametrize(
    ("path", "claim", "inside"),
    [
        ("lib", "lib", True),
        ("lib/a.py", "lib", True),
        ("library/a.py", "lib", False),
        ("lib", "lib/a", False),
        ("anything", ".", True),
        ("lib/a/b", "lib/a/", True),
    ],
)
def test_within_is_on_path_boundaries(path: str, claim: str, inside: bool) -> None:
    assert paths.within(path, claim) is inside


def test_overlap_is_containment_either_way() -> None:
    assert paths.overlaps("lib", "lib/a")
    assert paths.overlaps("lib/a", "lib")
    assert not paths.overlaps("lib", "library")
